#pragma once
// Checks run on an image file's bytes before they reach stb_image, refusing inputs that make the
// Debian build of stb_image (git 2022-09-08, v2.27) corrupt memory, hang or allocate without
// bound. Each check was found by fuzz/fuzz_image_loader; docs/reliability.md lists them.

#include <cstdint>
#include <string>
#include <vector>

namespace fftscope {

/// Throws InputError naming `name` and the reason if the bytes (an image file of any format)
/// hold one of these hazards; otherwise does nothing (stb_image still decides what is valid):
///  - JPEG: a Huffman table (DHT) with more than 256 codes, which stb writes past its tables;
///  - PNG: an IDAT chunk claiming more bytes than the file has left, which stb allocates first;
///  - Radiance HDR: an RLE scanline with an empty or unterminated run, on which stb never returns.
void check_decoder_hazards(const std::vector<std::uint8_t>& bytes, const std::string& name);

/// Throws InputError naming `name` if a GIF, Radiance HDR, or run-length TGA or PSD file ends
/// before the pixel data its header promises: stb_image decodes these past the end of the data
/// as if it were zeros and returns a partly made-up image; or if a PNG's image data (all IDAT
/// chunks, inflated here once into a 64 KiB buffer) is shorter than its header implies, or longer
/// by more than 1/16 + 64 KiB (a decompression bomb, which stb would inflate into up to 4 GiB).
/// (Other formats: image_io.) Call it after the size limit, so that a header claiming a huge size
/// is reported as such.
void check_data_complete(const std::vector<std::uint8_t>& bytes, const std::string& name);

/// The channel count to ask stb_image's 8-bit loader for (its req_comp): 4 for Softimage PIC,
/// whose loader converts a null buffer (a crash) when a corrupt file fails with any other count;
/// 0 (as stored) for every other format. With 4, the pixels come as RGBA whatever the file holds.
int stb_components_to_request(const std::vector<std::uint8_t>& bytes);

}  // namespace fftscope
