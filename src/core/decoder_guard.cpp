#include "decoder_guard.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <string_view>

#include "errors.h"

namespace fftscope {
namespace detail {
namespace {

using Bytes = std::vector<std::uint8_t>;

[[noreturn]] void refuse(const std::string& name, const std::string& reason) {
  throw InputError("'" + name + "': " + reason);
}

// stb reads 0 past the end of a buffer; the walkers below do the same so they see what it sees.
std::uint8_t byte_at(const Bytes& b, std::size_t i) { return i < b.size() ? b[i] : 0; }

// --- JPEG: DHT segments --------------------------------------------------------------------------
void check_jpeg(const Bytes& b, const std::string& name) {
  std::size_t pos = 0;
  bool progressive = false;
  bool defined[2][4] = {};  // [class: DC, AC][table id]
  while (pos + 1 < b.size()) {
    if (b[pos] != 0xFF) {  // entropy-coded data (after SOS) or garbage: look for the next marker
      ++pos;
      continue;
    }
    std::size_t m = pos + 1;
    while (m < b.size() && b[m] == 0xFF) ++m;  // fill bytes
    if (m >= b.size()) return;
    const std::uint8_t marker = b[m];
    pos = m + 1;
    // Stuffed zero, restart markers, SOI, TEM: no length follows.
    if (marker == 0x00 || (marker >= 0xD0 && marker <= 0xD8) || marker == 0x01) continue;
    if (marker == 0xD9) return;  // EOI
    if (pos + 2 > b.size()) return;
    const std::size_t length = static_cast<std::size_t>(b[pos]) << 8 | b[pos + 1];
    if (length < 2) return;  // stb refuses it
    if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC)
      progressive = marker == 0xC2;
    if (marker == 0xDA) {
      // SOS: stb decodes with the tables the scan names whether or not a DHT defined them (it
      // reads uninitialised memory, and indexes past its arrays). Past the end stb reads zeros.
      const std::size_t components = byte_at(b, pos + 2);
      const std::size_t spectral = pos + 3 + 2 * components;
      const bool dc_scan = byte_at(b, spectral) == 0;
      const bool dc_first = (byte_at(b, spectral + 2) >> 4) == 0;
      for (std::size_t c = 0; c < components && c < 4; ++c) {
        const std::uint8_t tables = byte_at(b, pos + 4 + 2 * c);
        const int dc = tables >> 4, ac = tables & 15;
        if (dc > 3 || ac > 3) break;  // stb refuses it
        const bool need_dc = progressive ? (dc_scan && dc_first) : true;
        const bool need_ac = progressive ? !dc_scan : true;
        const auto missing = [&](const char* kind, int id) {
          refuse(name, std::string("corrupt JPEG: a scan (SOS at byte ") + std::to_string(pos - 2) + ") uses " + kind +
                           " Huffman table " + std::to_string(id) + ", which no earlier DHT defines");
        };
        if (need_dc && !defined[0][dc]) missing("DC", dc);
        if (need_ac && !defined[1][ac]) missing("AC", ac);
      }
    }
    if (marker == 0xC4) {
      // DHT: tables of (class/id, 16 code counts, the symbols) until the segment ends. stb copies
      // sum(counts) symbols into a 256-entry array without checking the sum.
      long left = static_cast<long>(length) - 2;
      std::size_t t = pos + 2;
      while (left > 0) {
        std::size_t n = 0;
        for (std::size_t i = 0; i < 16; ++i) n += byte_at(b, t + 1 + i);
        const std::uint8_t kind = byte_at(b, t);
        if ((kind >> 4) <= 1 && (kind & 15) <= 3) defined[kind >> 4][kind & 15] = true;
        if (n > 256)
          refuse(name, "corrupt JPEG: a Huffman table (DHT at byte " + std::to_string(pos - 2) + ") has " +
                           std::to_string(n) + " codes, more than 256");
        t += 17 + n;
        left -= static_cast<long>(17 + n);
      }
    }
    pos += length;
  }
}

// --- PNG: chunk lengths --------------------------------------------------------------------------
std::uint32_t be32(const Bytes& b, std::size_t i) {
  return static_cast<std::uint32_t>(b[i]) << 24 | static_cast<std::uint32_t>(b[i + 1]) << 16 |
         static_cast<std::uint32_t>(b[i + 2]) << 8 | b[i + 3];
}

void check_png(const Bytes& b, const std::string& name) {
  std::size_t pos = 8;  // after the signature
  while (pos + 8 <= b.size()) {
    const std::uint32_t length = be32(b, pos);
    std::string type(reinterpret_cast<const char*>(&b[pos + 4]), 4);
    for (char& c : type)
      if (c < 0x20 || c > 0x7e) c = '?';  // the name goes into a one-line message
    const std::size_t left = b.size() - (pos + 8);
    // stb grows its IDAT buffer to the claimed length before it reads a byte of it (other chunks
    // it skips or reads a few bytes of, and a short file fails there by itself).
    if (type == "IDAT" && length > left)
      refuse(name, "cannot decode image data (PNG chunk 'IDAT' at byte " + std::to_string(pos) + " claims " +
                       std::to_string(length) + " bytes but only " + std::to_string(left) + " remain)");
    if (type == "IEND") return;
    pos += 8 + std::size_t{length} + 4;  // data and CRC
  }
}

// --- PNG: the size of the inflated image data -----------------------------------------------------
// stb inflates all IDAT data into one buffer that it doubles without bound (up to 4 GiB), and only
// then compares the size with the header's; a stream that is too short it finds only after
// allocating the header's full size. Deflate expands up to ~1032-fold, so a 1 MiB file could ask
// for 1 GiB. Here the stream is inflated once into a small buffer, counting, before stb sees it.

// The bytes stb's PNG reader expects after inflating: filter byte + packed row, per row, per
// Adam7 pass when interlaced (stbi__create_png_image). 0 for a header stb refuses by itself.
std::uint64_t png_raw_size(std::uint64_t w, std::uint64_t h, unsigned depth, unsigned color, bool interlaced) {
  unsigned channels = 0;
  switch (color) {
    case 0: case 3: channels = 1; break;
    case 2: channels = 3; break;
    case 4: channels = 2; break;
    case 6: channels = 4; break;
    default: return 0;
  }
  if (depth != 1 && depth != 2 && depth != 4 && depth != 8 && depth != 16) return 0;
  auto pass = [&](std::uint64_t x, std::uint64_t y) { return x && y ? (((channels * x * depth) + 7) / 8 + 1) * y : 0; };
  if (!interlaced) return pass(w, h);
  static constexpr std::array<unsigned, 7> xorig{0, 4, 0, 2, 0, 1, 0}, yorig{0, 0, 4, 0, 2, 0, 1},
      xspc{8, 8, 4, 4, 2, 2, 1}, yspc{8, 8, 8, 4, 4, 2, 2};
  std::uint64_t total = 0;
  for (std::size_t p = 0; p < 7; ++p) {
    const std::uint64_t x = w > xorig[p] ? (w - xorig[p] + xspc[p] - 1) / xspc[p] : 0;
    const std::uint64_t y = h > yorig[p] ? (h - yorig[p] + yspc[p] - 1) / yspc[p] : 0;
    total += pass(x, y);
  }
  return total;
}

void check_png_data_size(const Bytes& b, const std::string& name) {
  if (b.size() < 33 || be32(b, 8) != 13 || std::memcmp(&b[12], "IHDR", 4) != 0) return;  // stb decides
  const std::uint64_t w = be32(b, 16), h = be32(b, 20);
  const std::uint64_t expected = png_raw_size(w, h, b[24], b[25], b[28] != 0);
  if (expected == 0) return;
  // stb accepts data beyond the image (a PNG in the wild had trailing zeros): allow a little.
  const std::uint64_t allowed = expected + expected / 16 + (64u << 10);
  const std::string header = std::to_string(w) + " x " + std::to_string(h) + " header";

  z_stream z{};
  bool raw_deflate = false;  // Apple's CgBI PNGs hold raw deflate data, without the zlib header
  bool started = false;
  std::array<Bytef, 1 << 16> out{};
  std::uint64_t total = 0;
  int status = Z_OK;
  struct End {
    z_stream& z;
    bool& started;
    ~End() {
      if (started) inflateEnd(&z);
    }
  } end{z, started};
  for (std::size_t pos = 8; pos + 8 <= b.size() && status == Z_OK;) {
    const std::uint32_t length = be32(b, pos);
    const std::size_t data = pos + 8;
    if (std::memcmp(&b[pos + 4], "IEND", 4) == 0) break;
    if (std::memcmp(&b[pos + 4], "CgBI", 4) == 0) raw_deflate = true;
    if (std::memcmp(&b[pos + 4], "IDAT", 4) == 0) {
      if (!started) {
        if (inflateInit2(&z, raw_deflate ? -15 : 15) != Z_OK) return;  // no memory for zlib: stb decides
        started = true;
      }
      z.next_in = const_cast<Bytef*>(b.data() + data);
      z.avail_in = static_cast<uInt>(std::min<std::size_t>(length, b.size() - data));
      while (status == Z_OK && (z.avail_in > 0 || z.avail_out == 0)) {
        z.next_out = out.data();
        z.avail_out = static_cast<uInt>(out.size());
        status = inflate(&z, Z_NO_FLUSH);
        total += out.size() - z.avail_out;
        if (total > allowed)
          refuse(name, "cannot decode image data (the PNG's image data inflates to more than " + std::to_string(allowed) +
                           " bytes, while its " + header + " needs " + std::to_string(expected) +
                           ": a decompression bomb)");
        if (status == Z_BUF_ERROR) status = Z_OK;  // needs the next IDAT chunk
        if (z.avail_in == 0 && z.avail_out != 0) break;
      }
    }
    pos = data + std::size_t{length} + 4;
  }
  if (total >= expected || !started) return;  // complete (stb checks the rest), or no IDAT: stb says so
  const std::string why = status == Z_STREAM_END ? "ends" : status == Z_OK ? "is cut short" : "is corrupt";
  refuse(name, "cannot decode image data (the PNG's image data " + why + " after " + std::to_string(total) +
                   " bytes; its " + header + " needs " + std::to_string(expected) + ")");
}

// --- Radiance HDR: RLE scanlines -----------------------------------------------------------------
// stb's header tokens: lines up to '\n', at most 1023 characters kept.
std::string_view hdr_line(const Bytes& b, std::size_t& pos) {
  const std::size_t start = pos;
  while (pos < b.size() && b[pos] != '\n') ++pos;
  std::string_view line(reinterpret_cast<const char*>(b.data()) + start, std::min<std::size_t>(pos - start, 1023));
  if (pos < b.size()) ++pos;
  return line.substr(0, line.find('\0'));  // stb reads the token as a C string
}

long leading_int(std::string_view s, std::size_t& i) {
  // strtol skips what isspace() calls white space (a fuzzer found the form feed)
  while (i < s.size() && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) ++i;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  long v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && v < (1L << 40)) v = v * 10 + (s[i++] - '0');
  return negative ? -v : v;
}

struct HdrLayout {
  long width = 0;
  long height = 0;
  std::size_t data = 0;  // where the pixel data starts
  bool valid = false;    // the header is one stb accepts
};

HdrLayout hdr_layout(const Bytes& b) {
  HdrLayout layout;
  std::size_t pos = 0;
  hdr_line(b, pos);  // #?RADIANCE or #?RGBE (stb has checked it)
  while (pos < b.size() && !hdr_line(b, pos).empty()) {
  }
  const std::string_view res = hdr_line(b, pos);
  if (res.substr(0, 3) != "-Y ") return layout;  // stb refuses other orientations
  std::size_t i = 3;
  layout.height = leading_int(res, i);
  while (i < res.size() && res[i] == ' ') ++i;
  if (res.substr(i, 3) != "+X ") return layout;
  i += 3;
  layout.width = leading_int(res, i);
  layout.data = pos;
  layout.valid = layout.width > 0 && layout.height > 0;
  return layout;
}

void check_hdr(const Bytes& b, const std::string& name) {
  const HdrLayout layout = hdr_layout(b);
  const long width = layout.width, height = layout.height;
  std::size_t pos = layout.data;
  if (!layout.valid || width < 8 || width >= 32768) return;  // flat (un-encoded) data: bounded

  for (long row = 0; row < height; ++row) {
    // Past the end stb reads zeros, which makes this a flat scanline: bounded from there on.
    if (byte_at(b, pos) != 2 || byte_at(b, pos + 1) != 2 || (byte_at(b, pos + 2) & 0x80)) return;
    const long length = static_cast<long>(byte_at(b, pos + 2)) << 8 | byte_at(b, pos + 3);
    if (length != width) return;  // stb refuses it
    pos += 4;
    for (int component = 0; component < 4; ++component) {
      long x = 0;
      while (x < width) {
        const auto where = [&] { return " (row " + std::to_string(row) + ", byte " + std::to_string(pos) + ")"; };
        // An empty dump, or the end of the file (where stb reads zeros), never advances stb's loop.
        if (pos >= b.size()) refuse(name, "corrupt HDR: run-length data ends inside a scanline" + where());
        long count = b[pos++];
        if (count > 128) {
          count -= 128;
          ++pos;  // the repeated value
        } else {
          if (count == 0) refuse(name, "corrupt HDR: empty run in run-length data" + where());
          pos += static_cast<std::size_t>(count);
        }
        if (count > width - x) return;  // stb refuses it
        x += count;
      }
    }
  }
}

// Whether `left` bytes hold `pixels` flat RGBE pixels.
bool holds_pixels(std::size_t left, long width, long height) {
  return static_cast<std::uint64_t>(left) / 4 / static_cast<std::uint64_t>(width) >= static_cast<std::uint64_t>(height);
}

void check_hdr_complete(const Bytes& b, const std::string& name) {
  const HdrLayout layout = hdr_layout(b);
  if (!layout.valid) return;
  const long width = layout.width, height = layout.height;
  std::size_t pos = layout.data;
  const auto refuse_short = [&](const std::string& where) {
    refuse(name, "truncated HDR: the pixel data ends " + where + " (" + std::to_string(width) + " x " +
                     std::to_string(height) + " pixels promised)");
  };
  const std::size_t left = b.size() - std::min(pos, b.size());
  if (width < 8 || width >= 32768) {
    if (!holds_pixels(left, width, height)) refuse_short("early");
    return;
  }
  for (long row = 0; row < height; ++row) {
    if (pos >= b.size()) refuse_short("after " + std::to_string(row) + " rows");
    if (b[pos] != 2 || byte_at(b, pos + 1) != 2 || (byte_at(b, pos + 2) & 0x80)) {
      // stb decodes the whole image as flat pixels from here on
      if (!holds_pixels(b.size() - pos, width, height)) refuse_short("early");
      return;
    }
    pos += 4;
    for (int component = 0; component < 4; ++component) {
      long x = 0;
      while (x < width) {
        if (pos >= b.size()) refuse_short("inside row " + std::to_string(row));
        long count = b[pos++];
        if (count > 128) {
          count -= 128;
          ++pos;
        } else {
          pos += static_cast<std::size_t>(count);
        }
        if (count == 0 || count > width - x) return;  // refused by check_hdr or by stb
        x += count;
      }
    }
    if (pos > b.size()) refuse_short("inside row " + std::to_string(row));
  }
}

std::uint32_t le16(const Bytes& b, std::size_t i) { return byte_at(b, i) | static_cast<std::uint32_t>(byte_at(b, i + 1)) << 8; }
std::uint32_t be16(const Bytes& b, std::size_t i) { return static_cast<std::uint32_t>(byte_at(b, i)) << 8 | byte_at(b, i + 1); }

// Run-length TGA (types 9, 10, 11): packets until width x height pixels.
void check_tga_rle_complete(const Bytes& b, const std::string& name) {
  if (b.size() < 18) return;
  const std::uint8_t type = b[2];
  if (type != 9 && type != 10 && type != 11) return;
  const std::uint64_t pixels = static_cast<std::uint64_t>(le16(b, 12)) * le16(b, 14);
  const std::size_t pixel_bytes = (static_cast<std::size_t>(b[16]) + 7) / 8;
  if (pixel_bytes == 0 || pixel_bytes > 4) return;  // stb refuses it
  std::size_t pos = 18 + b[0];
  if (b[1] == 1) pos += le16(b, 5) * ((static_cast<std::size_t>(b[7]) + 7) / 8);  // colour map
  std::uint64_t done = 0;
  while (done < pixels) {
    if (pos >= b.size()) refuse(name, "truncated TGA: the run-length data ends after " + std::to_string(done) + " of " +
                                          std::to_string(pixels) + " pixels");
    const std::uint8_t packet = b[pos++];
    const std::uint64_t count = (packet & 0x7f) + 1u;
    pos += (packet & 0x80) ? pixel_bytes : pixel_bytes * count;
    done += count;
  }
  if (pos > b.size()) refuse(name, "truncated TGA: the run-length data ends inside the last packet");
}

// PSD with PackBits compression: stb decodes width x height bytes for each of the first 4 channels.
void check_psd_rle_complete(const Bytes& b, const std::string& name) {
  if (b.size() < 26) return;
  const std::uint64_t channels = be16(b, 12), height = be32(b, 14), width = be32(b, 18);
  std::size_t pos = 26;
  for (int section = 0; section < 3; ++section) {  // colour mode data, image resources, layers
    if (pos + 4 > b.size()) return;
    pos += 4 + std::size_t{be32(b, pos)};
  }
  if (pos + 2 > b.size() || be16(b, pos) != 1) return;
  pos += 2 + height * channels * 2;  // the row byte counts, which stb skips
  const std::uint64_t per_channel = width * height;
  const auto refuse_short = [&] {
    refuse(name, "truncated PSD: the compressed pixel data ends before " + std::to_string(width) + " x " +
                     std::to_string(height) + " pixels");
  };
  for (std::uint64_t channel = 0; channel < std::min<std::uint64_t>(channels, 4); ++channel) {
    std::uint64_t done = 0;
    while (done < per_channel) {
      if (pos >= b.size()) refuse_short();
      const std::uint8_t len = b[pos++];
      if (len == 128) continue;
      const std::uint64_t count = len < 128 ? len + 1u : 257u - len;
      if (count > per_channel - done) return;  // stb refuses it
      pos += len < 128 ? count : 1;
      done += count;
    }
  }
  if (pos > b.size()) refuse_short();
}

// GIF: stb reads the first frame; its sub-blocks must all be there.
void check_gif_complete(const Bytes& b, const std::string& name) {
  const auto refuse_short = [&] { refuse(name, "truncated GIF: the data ends before the first image is complete"); };
  if (b.size() < 13) refuse_short();
  std::size_t pos = 13;
  const auto table = [](std::uint8_t flags) -> std::size_t {
    return (flags & 0x80) ? 3u * (std::size_t{2} << (flags & 7)) : 0u;
  };
  pos += table(b[10]);
  const auto skip_sub_blocks = [&] {
    while (true) {
      if (pos >= b.size()) refuse_short();
      const std::size_t size = b[pos++];
      if (size == 0) return;
      pos += size;
    }
  };
  while (true) {
    if (pos >= b.size()) refuse_short();
    const std::uint8_t kind = b[pos++];
    if (kind == 0x21) {  // extension: label, then sub-blocks
      ++pos;
      skip_sub_blocks();
    } else if (kind == 0x2C) {  // image descriptor, local colour table, LZW code size, data
      if (pos + 9 > b.size()) refuse_short();
      const std::uint8_t flags = b[pos + 8];
      pos += 9 + table(flags) + 1;
      skip_sub_blocks();
      return;
    } else {
      return;  // the trailer or garbage: stb decides
    }
  }
}

bool starts_with(const Bytes& b, std::string_view prefix) {
  return b.size() >= prefix.size() && std::memcmp(b.data(), prefix.data(), prefix.size()) == 0;
}

bool is_jpeg(const Bytes& b);

// TGA has no magic number: stb tries it last, after every format that has one.
bool maybe_tga(const Bytes& b) {
  const bool other = starts_with(b, "\x89PNG") || starts_with(b, "BM") || starts_with(b, "GIF8") ||
                     starts_with(b, "8BPS") || starts_with(b, "\x53\x80\xF6\x34") || starts_with(b, "#?") ||
                     (b.size() >= 2 && b[0] == 'P' && b[1] >= '1' && b[1] <= '7');
  return !other && !is_jpeg(b);
}

// stb takes any number of 0xFF fill bytes before the SOI marker.
bool is_jpeg(const Bytes& b) {
  std::size_t i = 0;
  while (i < b.size() && b[i] == 0xFF) ++i;
  return i > 0 && i < b.size() && b[i] == 0xD8;
}

}  // namespace
}  // namespace detail

void check_decoder_hazards(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  if (detail::is_jpeg(bytes)) detail::check_jpeg(bytes, name);
  else if (detail::starts_with(bytes, "\x89PNG\r\n\x1a\n")) detail::check_png(bytes, name);
  else if (detail::starts_with(bytes, "#?RADIANCE\n") || detail::starts_with(bytes, "#?RGBE\n"))
    detail::check_hdr(bytes, name);
}

void check_data_complete(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  if (detail::starts_with(bytes, "GIF87a") || detail::starts_with(bytes, "GIF89a")) detail::check_gif_complete(bytes, name);
  else if (detail::starts_with(bytes, "#?RADIANCE\n") || detail::starts_with(bytes, "#?RGBE\n"))
    detail::check_hdr_complete(bytes, name);
  else if (detail::starts_with(bytes, "8BPS")) detail::check_psd_rle_complete(bytes, name);
  else if (detail::starts_with(bytes, "\x89PNG\r\n\x1a\n")) detail::check_png_data_size(bytes, name);
  else if (detail::maybe_tga(bytes)) detail::check_tga_rle_complete(bytes, name);
}

int stb_components_to_request(const std::vector<std::uint8_t>& bytes) {
  // stb's test: the magic number, then "PICT" at byte 88.
  const bool is_pic = detail::starts_with(bytes, "\x53\x80\xF6\x34") && bytes.size() >= 92 &&
                      std::memcmp(bytes.data() + 88, "PICT", 4) == 0;
  return is_pic ? 4 : 0;
}

}  // namespace fftscope
