// Image loading for every format stb_image reads, with test files written here: PNG (our own
// encoder, 8 and 16 bit, every colour type), PGM/PPM 8/16, PSD 8/16 and GIF by hand, and BMP,
// TGA, JPEG, HDR through stb_image_write. Then every way a file can be bad.

#include <gtest/gtest.h>
#include <stb/stb_image_write.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <tuple>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/image_io.h"
#include "core/spectrum.h"

namespace fftscope {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

// --- writers -----------------------------------------------------------------------------------

void put_be32(Bytes& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}
void put_be16(Bytes& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}
void put_le16(Bytes& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}

std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xffffffffu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}

void png_chunk(Bytes& out, const char* type, const Bytes& data) {
  put_be32(out, static_cast<std::uint32_t>(data.size()));
  Bytes body(type, type + 4);
  body.insert(body.end(), data.begin(), data.end());
  out.insert(out.end(), body.begin(), body.end());
  put_be32(out, crc32(body.data(), body.size()));
}

Bytes png_signature_and_ihdr(std::uint32_t w, std::uint32_t h, int depth, int colour_type) {
  Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes ihdr;
  put_be32(ihdr, w);
  put_be32(ihdr, h);
  ihdr.push_back(static_cast<std::uint8_t>(depth));
  ihdr.push_back(static_cast<std::uint8_t>(colour_type));
  ihdr.push_back(0);
  ihdr.push_back(0);
  ihdr.push_back(0);
  png_chunk(out, "IHDR", ihdr);
  return out;
}

// A PNG with stored (uncompressed) deflate blocks. samples: w*h*channels values, row-major.
Bytes encode_png_by_hand(std::uint32_t w, std::uint32_t h, int channels, int depth, const std::vector<std::uint16_t>& samples) {
  const int colour_type = channels == 1 ? 0 : channels == 2 ? 4 : channels == 3 ? 2 : 6;
  Bytes out = png_signature_and_ihdr(w, h, depth, colour_type);
  Bytes raw;
  for (std::uint32_t y = 0; y < h; ++y) {
    raw.push_back(0);  // filter: none
    for (std::uint32_t i = 0; i < w * static_cast<std::uint32_t>(channels); ++i) {
      const std::uint16_t v = samples[y * w * static_cast<std::uint32_t>(channels) + i];
      if (depth == 16) raw.push_back(static_cast<std::uint8_t>(v >> 8));
      raw.push_back(static_cast<std::uint8_t>(v));
    }
  }
  Bytes z = {0x78, 0x01};
  for (std::size_t pos = 0; pos < raw.size() || pos == 0;) {
    const std::size_t n = std::min<std::size_t>(65535, raw.size() - pos);
    z.push_back(pos + n == raw.size() ? 1 : 0);
    put_le16(z, static_cast<std::uint32_t>(n));
    put_le16(z, static_cast<std::uint32_t>(~n & 0xffff));
    z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(pos), raw.begin() + static_cast<std::ptrdiff_t>(pos + n));
    pos += n;
    if (n == 0) break;
  }
  std::uint32_t a = 1, b = 0;
  for (std::uint8_t c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  put_be32(z, (b << 16) | a);
  png_chunk(out, "IDAT", z);
  png_chunk(out, "IEND", {});
  return out;
}

// Binary PGM (P5) / PPM (P6); 16-bit samples are big-endian when maxval > 255.
Bytes encode_pnm(std::uint32_t w, std::uint32_t h, int channels, std::uint32_t maxval, const std::vector<std::uint16_t>& samples) {
  const std::string head = std::string(channels == 1 ? "P5" : "P6") + "\n# fftscope test\n" + std::to_string(w) + " " +
                           std::to_string(h) + "\n" + std::to_string(maxval) + "\n";
  Bytes out(head.begin(), head.end());
  for (std::uint16_t v : samples) {
    if (maxval > 255) out.push_back(static_cast<std::uint8_t>(v >> 8));
    out.push_back(static_cast<std::uint8_t>(v));
  }
  return out;
}

// Photoshop PSD, RGB, raw (uncompressed) planar data.
Bytes encode_psd(std::uint32_t w, std::uint32_t h, int depth, const std::vector<std::uint16_t>& rgb) {
  Bytes out = {'8', 'B', 'P', 'S'};
  put_be16(out, 1);
  out.insert(out.end(), 6, 0);
  put_be16(out, 3);  // channels
  put_be32(out, h);
  put_be32(out, w);
  put_be16(out, static_cast<std::uint32_t>(depth));
  put_be16(out, 3);  // colour mode RGB
  put_be32(out, 0);  // colour mode data
  put_be32(out, 0);  // image resources
  put_be32(out, 0);  // layer and mask info
  put_be16(out, 0);  // raw data
  for (int c = 0; c < 3; ++c)
    for (std::uint32_t i = 0; i < w * h; ++i) {
      const std::uint16_t v = rgb[i * 3 + static_cast<std::uint32_t>(c)];
      if (depth == 16) out.push_back(static_cast<std::uint8_t>(v >> 8));
      out.push_back(static_cast<std::uint8_t>(v));
    }
  return out;
}

// GIF89a with a 256-entry grey palette; LZW kept at 9-bit codes by a clear code every 64 pixels.
Bytes encode_gif_gray(std::uint16_t w, std::uint16_t h, const std::vector<std::uint8_t>& gray) {
  Bytes out = {'G', 'I', 'F', '8', '9', 'a'};
  put_le16(out, w);
  put_le16(out, h);
  out.push_back(0xf7);  // global colour table, 256 entries
  out.push_back(0);
  out.push_back(0);
  for (int i = 0; i < 256; ++i) out.insert(out.end(), 3, static_cast<std::uint8_t>(i));
  out.push_back(0x2c);
  put_le16(out, 0);
  put_le16(out, 0);
  put_le16(out, w);
  put_le16(out, h);
  out.push_back(0);
  out.push_back(8);  // LZW minimum code size
  Bytes codes;
  std::uint32_t acc = 0;
  int bits = 0;
  auto emit = [&](std::uint32_t code) {
    acc |= code << bits;
    bits += 9;
    while (bits >= 8) {
      codes.push_back(static_cast<std::uint8_t>(acc));
      acc >>= 8;
      bits -= 8;
    }
  };
  for (std::size_t i = 0; i < gray.size(); ++i) {
    if (i % 64 == 0) emit(256);
    emit(gray[i]);
  }
  emit(257);
  if (bits > 0) codes.push_back(static_cast<std::uint8_t>(acc));
  for (std::size_t pos = 0; pos < codes.size(); pos += 255) {
    const std::size_t n = std::min<std::size_t>(255, codes.size() - pos);
    out.push_back(static_cast<std::uint8_t>(n));
    out.insert(out.end(), codes.begin() + static_cast<std::ptrdiff_t>(pos), codes.begin() + static_cast<std::ptrdiff_t>(pos + n));
  }
  out.push_back(0);
  out.push_back(0x3b);
  return out;
}

// --- fixture -------------------------------------------------------------------------------------

class ImageIo : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fftscope-image-io-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const Bytes& bytes) const {
    std::ofstream out(path(name), std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path(name);
  }
  std::size_t file_count() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

// Samples for a w x h image with `channels` channels, each distinct and spanning the range.
std::vector<std::uint16_t> pattern(std::uint32_t w, std::uint32_t h, int channels, std::uint32_t maxval) {
  std::vector<std::uint16_t> s(w * h * static_cast<std::uint32_t>(channels));
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint16_t>((i * 2654435761u) % (maxval + 1));
  s[0] = 0;
  s[1 % s.size()] = static_cast<std::uint16_t>(maxval);
  return s;
}

float expected_value(const std::vector<std::uint16_t>& s, std::size_t pixel, int channels, float scale, Channel channel) {
  const auto at = [&](std::size_t c) { return static_cast<float>(s[pixel * static_cast<std::size_t>(channels) + c]) * scale; };
  if (channels <= 2) return at(0);
  switch (channel) {
    case Channel::r: return at(0);
    case Channel::g: return at(1);
    case Channel::b: return at(2);
    case Channel::luma: break;
  }
  return 0.2126f * at(0) + 0.7152f * at(1) + 0.0722f * at(2);
}

void expect_image(const RealImage& img, const std::vector<std::uint16_t>& s, std::uint32_t w, std::uint32_t h,
                  int channels, float scale, Channel channel, float tol = 1e-6f) {
  ASSERT_EQ(img.width, w);
  ASSERT_EQ(img.height, h);
  for (std::size_t i = 0; i < img.data.size(); ++i)
    ASSERT_NEAR(img.data[i], expected_value(s, i, channels, scale, channel), tol) << "pixel " << i;
}

const Channel all_channels[] = {Channel::luma, Channel::r, Channel::g, Channel::b};

TEST_F(ImageIo, Png8And16BitEveryColourType) {
  for (int depth : {8, 16}) {
    const std::uint32_t maxval = depth == 8 ? 255 : 65535;
    for (int channels = 1; channels <= 4; ++channels) {
      const std::uint32_t w = 7, h = 5;
      const auto s = pattern(w, h, channels, maxval);
      const std::string file = write("p" + std::to_string(depth) + "_" + std::to_string(channels) + ".png",
                                     encode_png_by_hand(w, h, channels, depth, s));
      const ImageInfo info = probe_image(file);
      EXPECT_EQ(info.width, w);
      EXPECT_EQ(info.height, h);
      EXPECT_EQ(info.channels, channels);
      EXPECT_EQ(info.bits_per_channel, depth);
      for (Channel c : all_channels) {
        SCOPED_TRACE("depth " + std::to_string(depth) + " channels " + std::to_string(channels) + " " + to_string(c));
        expect_image(load_image(file, {c, default_max_pixels}), s, w, h, channels, 1.0f / static_cast<float>(maxval), c);
      }
    }
  }
}

TEST_F(ImageIo, SixteenBitKeepsLowBits) {
  // 1/65535 must not collapse to 0 as it would through an 8-bit path.
  const std::string file = write("low.png", encode_png_by_hand(2, 1, 1, 16, {1, 257}));
  const RealImage img = load_image(file);
  EXPECT_FLOAT_EQ(img.data[0], 1.0f / 65535.0f);
  EXPECT_FLOAT_EQ(img.data[1], 257.0f / 65535.0f);
}

TEST_F(ImageIo, LumaWeightsAndAlphaIgnored) {
  // Pure primaries give the Rec. 709 weights; alpha 0 changes nothing.
  const std::vector<std::uint16_t> rgba = {255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 255, 17, 255, 255, 255, 0};
  const std::string file = write("primaries.png", encode_png_by_hand(4, 1, 4, 8, rgba));
  const RealImage img = load_image(file);
  EXPECT_NEAR(img.data[0], 0.2126f, 1e-6f);
  EXPECT_NEAR(img.data[1], 0.7152f, 1e-6f);
  EXPECT_NEAR(img.data[2], 0.0722f, 1e-6f);
  EXPECT_NEAR(img.data[3], 1.0f, 1e-6f);
  EXPECT_FLOAT_EQ(load_image(file, {Channel::g, default_max_pixels}).data[1], 1.0f);
  EXPECT_FLOAT_EQ(load_image(file, {Channel::g, default_max_pixels}).data[0], 0.0f);
}

TEST_F(ImageIo, PnmEightAndSixteenBit) {
  for (int channels : {1, 3})
    for (std::uint32_t maxval : {255u, 65535u}) {
      const std::uint32_t w = 6, h = 4;
      const auto s = pattern(w, h, channels, maxval);
      const std::string file = write(std::string(channels == 1 ? "g" : "c") + std::to_string(maxval) + (channels == 1 ? ".pgm" : ".ppm"),
                                     encode_pnm(w, h, channels, maxval, s));
      EXPECT_EQ(probe_image(file).bits_per_channel, maxval > 255 ? 16 : 8);
      for (Channel c : all_channels) {
        SCOPED_TRACE(file + " " + to_string(c));
        expect_image(load_image(file, {c, default_max_pixels}), s, w, h, channels, 1.0f / static_cast<float>(maxval), c);
      }
    }
}

TEST_F(ImageIo, PnmScalesByMaxval) {
  // Samples mean value / maxval: 10-bit data in a 16-bit PGM, and a 6-level 8-bit PPM.
  const auto s10 = pattern(4, 4, 1, 1023);
  expect_image(load_image(write("ten.pgm", encode_pnm(4, 4, 1, 1023, s10))), s10, 4, 4, 1, 1.0f / 1023.0f, Channel::luma);
  const auto s5 = pattern(3, 2, 3, 5);
  expect_image(load_image(write("six.ppm", encode_pnm(3, 2, 3, 5, s5)), {Channel::b, default_max_pixels}), s5, 3, 2, 3,
               1.0f / 5.0f, Channel::b);
}

TEST_F(ImageIo, PsdEightAndSixteenBit) {
  for (int depth : {8, 16}) {
    const std::uint32_t maxval = depth == 8 ? 255 : 65535;
    const std::uint32_t w = 5, h = 3;
    const auto s = pattern(w, h, 3, maxval);
    const std::string file = write("img" + std::to_string(depth) + ".psd", encode_psd(w, h, depth, s));
    EXPECT_EQ(probe_image(file).bits_per_channel, depth);
    for (Channel c : all_channels) {
      SCOPED_TRACE(file + " " + to_string(c));
      expect_image(load_image(file, {c, default_max_pixels}), s, w, h, 3, 1.0f / static_cast<float>(maxval), c);
    }
  }
}

TEST_F(ImageIo, GifGray) {
  const std::uint16_t w = 9, h = 11;
  std::vector<std::uint8_t> gray(w * h);
  std::vector<std::uint16_t> s(gray.size());
  for (std::size_t i = 0; i < gray.size(); ++i) s[i] = gray[i] = static_cast<std::uint8_t>((i * 37) % 256);
  const std::string file = write("gray.gif", encode_gif_gray(w, h, gray));
  expect_image(load_image(file), s, w, h, 1, 1.0f / 255.0f, Channel::luma);
}

using StbWrite = std::function<int(const char*, int, int, int, const void*)>;

TEST_F(ImageIo, BmpTgaThroughStbWrite) {
  const std::pair<const char*, StbWrite> writers[] = {
      {"bmp", [](const char* f, int w, int h, int c, const void* d) { return stbi_write_bmp(f, w, h, c, d); }},
      {"tga", [](const char* f, int w, int h, int c, const void* d) { return stbi_write_tga(f, w, h, c, d); }},
      {"png", [](const char* f, int w, int h, int c, const void* d) { return stbi_write_png(f, w, h, c, d, 0); }},
      {"raw.tga",
       [](const char* f, int w, int h, int c, const void* d) {
         stbi_write_tga_with_rle = 0;
         const int ok = stbi_write_tga(f, w, h, c, d);
         stbi_write_tga_with_rle = 1;
         return ok;
       }},
  };
  for (const auto& [ext, writer] : writers)
    for (int channels = 1; channels <= 4; ++channels) {
      const int w = 10, h = 6;
      const auto s = pattern(w, h, channels, 255);
      std::vector<std::uint8_t> bytes(s.begin(), s.end());
      const std::string file = path("stb" + std::to_string(channels) + "." + ext);
      ASSERT_TRUE(writer(file.c_str(), w, h, channels, bytes.data()));
      // BMP stores gray as RGB: the luma of equal channels is the grey value again.
      for (Channel c : all_channels) {
        SCOPED_TRACE(file + " " + to_string(c));
        expect_image(load_image(file, {c, default_max_pixels}), s, w, h, channels, 1.0f / 255.0f, c, 2e-6f);
      }
    }
}

TEST_F(ImageIo, JpegWithinCompressionError) {
  // Flat 8x8-aligned blocks survive JPEG nearly exactly; allow 3/255 for the DCT and colour rounding.
  const int w = 16, h = 16;
  std::vector<std::uint8_t> rgb(w * h * 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = &rgb[static_cast<std::size_t>((y * w + x) * 3)];
      p[0] = 200, p[1] = 120, p[2] = 40;
    }
  const std::string file = path("flat.jpg");
  ASSERT_TRUE(stbi_write_jpg(file.c_str(), w, h, 3, rgb.data(), 100));
  const ImageInfo info = probe_image(file);
  EXPECT_EQ(info.bits_per_channel, 8);
  const float luma = (0.2126f * 200 + 0.7152f * 120 + 0.0722f * 40) / 255.0f;
  for (float v : load_image(file).data) ASSERT_NEAR(v, luma, 3.0f / 255.0f);
  for (float v : load_image(file, {Channel::r, default_max_pixels}).data) ASSERT_NEAR(v, 200.0f / 255.0f, 3.0f / 255.0f);
}

TEST_F(ImageIo, HdrKeepsLinearValues) {
  const int w = 3, h = 2;
  const std::vector<float> rgb = {0.5f, 0.5f, 0.5f, 2.0f, 1.0f, 0.25f, 0.0f, 0.0f, 0.0f,
                                  10.0f, 0.1f, 0.01f, 1.0f, 1.0f, 1.0f, 0.125f, 4.0f, 0.75f};
  const std::string file = path("linear.hdr");
  ASSERT_TRUE(stbi_write_hdr(file.c_str(), w, h, 3, rgb.data()));
  EXPECT_EQ(probe_image(file).bits_per_channel, 32);
  const RealImage img = load_image(file);
  for (std::size_t i = 0; i < img.data.size(); ++i) {
    const float luma = 0.2126f * rgb[3 * i] + 0.7152f * rgb[3 * i + 1] + 0.0722f * rgb[3 * i + 2];
    // RGBE keeps 8 mantissa bits against the largest channel: relative error <= 2^-7 of that channel.
    const float biggest = std::max({rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]});
    EXPECT_NEAR(img.data[i], luma, biggest / 128.0f) << i;
  }
  EXPECT_GT(img.data[3], 1.0f);  // not clamped to [0, 1]
}

// Expects load_image to refuse `file` for the pixel limit with a one-line message naming it.
void expect_over_limit(const std::string& file, const std::string& pixels) {
  try {
    load_image(file);
    ADD_FAILURE() << file << " was not refused";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'" + file + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(pixels + " pixels, over the limit of 67108864"), std::string::npos) << msg;
  }
}

TEST_F(ImageIo, PixelLimitRefusesBeforeDecoding) {
  // Headers claiming huge images with no pixel data behind them: refusing them must happen on the
  // header alone, so the message is about the limit, not about missing data.
  for (std::uint32_t side : {100000u, 20000u}) {  // stb's own header check refuses the first
    Bytes png = png_signature_and_ihdr(side, side, 8, 0);
    png_chunk(png, "IEND", {});
    const std::string file = write("huge" + std::to_string(side) + ".png", png);
    expect_over_limit(file, std::to_string(std::uint64_t{side} * side));
  }
  Bytes bmp = {'B', 'M'};
  for (std::uint32_t v : {54u, 0u, 54u, 40u, 100000u, 100000u}) {  // file size, reserved, offset, DIB size, w, h
    bmp.push_back(static_cast<std::uint8_t>(v));
    bmp.push_back(static_cast<std::uint8_t>(v >> 8));
    bmp.push_back(static_cast<std::uint8_t>(v >> 16));
    bmp.push_back(static_cast<std::uint8_t>(v >> 24));
  }
  put_le16(bmp, 1);   // planes
  put_le16(bmp, 24);  // bits per pixel
  bmp.insert(bmp.end(), 24, 0);
  const std::string bmp_file = write("huge.bmp", bmp);
  EXPECT_EQ(probe_image(bmp_file).width, 100000u);
  expect_over_limit(bmp_file, "10000000000");
  const std::string pgm = "P5 30000 30000 255\n";
  expect_over_limit(write("huge.pgm", Bytes(pgm.begin(), pgm.end())), "900000000");

  // The limit is configurable and inclusive.
  const std::string small = write("small.png", encode_png_by_hand(16, 16, 1, 8, pattern(16, 16, 1, 255)));
  EXPECT_THROW(load_image(small, {Channel::luma, 255}), InputError);
  EXPECT_EQ(load_image(small, {Channel::luma, 256}).data.size(), 256u);
}

// Expects an InputError whose one-line message names the file and contains `reason`.
void expect_input_error(const std::string& file, const std::string& reason) {
  try {
    load_image(file);
    ADD_FAILURE() << file << " loaded";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'" + file + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(reason), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST_F(ImageIo, BadFiles) {
  const Bytes good = encode_png_by_hand(64, 64, 3, 8, pattern(64, 64, 3, 255));
  expect_input_error(write("truncated.png", Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2))),
                     "cannot decode");
  // Formats stb_image would read past the end of as zeros: the size their header implies is checked.
  const std::pair<const char*, StbWrite> writers[] = {
      {"cut.bmp", [](const char* f, int w, int h, int c, const void* d) { return stbi_write_bmp(f, w, h, c, d); }},
      {"cut.tga",
       [](const char* f, int w, int h, int c, const void* d) {
         stbi_write_tga_with_rle = 0;
         const int ok = stbi_write_tga(f, w, h, c, d);
         stbi_write_tga_with_rle = 1;
         return ok;
       }},
  };
  const auto rgb = pattern(32, 32, 3, 255);
  const std::vector<std::uint8_t> rgb8(rgb.begin(), rgb.end());
  for (const auto& [name, writer] : writers) {
    ASSERT_TRUE(writer(path(name).c_str(), 32, 32, 3, rgb8.data()));
    ASSERT_NO_THROW(load_image(path(name)));
    fs::resize_file(path(name), fs::file_size(path(name)) - 1);
    expect_input_error(path(name), "image data is truncated");
  }
  const Bytes psd = encode_psd(8, 8, 16, pattern(8, 8, 3, 65535));
  expect_input_error(write("cut.psd", Bytes(psd.begin(), psd.end() - 1)), "image data is truncated");
  ASSERT_TRUE(stbi_write_jpg(path("cut.jpg").c_str(), 32, 32, 3, rgb8.data(), 90));
  ASSERT_NO_THROW(load_image(path("cut.jpg")));
  fs::resize_file(path("cut.jpg"), fs::file_size(path("cut.jpg")) - 10);
  expect_input_error(path("cut.jpg"), "JPEG data is truncated");
  expect_input_error(write("header-only.png", Bytes(good.begin(), good.begin() + 20)), "not an image");
  expect_input_error(write("empty.png", {}), "file is empty");
  const std::string text = "this is not an image\n";
  expect_input_error(write("text.png", Bytes(text.begin(), text.end())), "not an image");
  expect_input_error(path("missing.png"), "no such file");
  fs::create_directory(path("folder.png"));
  expect_input_error(path("folder.png"), "is a directory");
  EXPECT_THROW(probe_image(path("missing.png")), InputError);
  const Bytes pgm = encode_pnm(8, 8, 1, 65535, pattern(8, 8, 1, 65535));
  expect_input_error(write("truncated.pgm", Bytes(pgm.begin(), pgm.end() - 1)), "PNM data is truncated");
  const std::string no_maxval = "P6 4 4\n";
  expect_input_error(write("nomax.ppm", Bytes(no_maxval.begin(), no_maxval.end())), "no maxval");
  const Bytes over = encode_pnm(2, 1, 1, 100, {100, 101});
  expect_input_error(write("over.pgm", over), "PNM sample 101 exceeds maxval 100");
}

TEST_F(ImageIo, UnreadableFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: file permissions do not stop reads";
  const std::string file = write("locked.png", encode_png_by_hand(2, 2, 1, 8, {1, 2, 3, 4}));
  ::chmod(file.c_str(), 0);
  expect_input_error(file, "cannot open");
}

TEST_F(ImageIo, PngWriteRoundTripAndLoadInput) {
  RealImage gray(5, 4);
  for (std::size_t i = 0; i < gray.data.size(); ++i) gray.data[i] = static_cast<float>(i) / 19.0f;
  const RgbaImage rgba = gray_to_rgba(gray);
  const std::string file = path("out.png");
  write_png(file, rgba);
  EXPECT_EQ(file_count(), 1u);  // no temporary file left behind
  const RealImage back = load_image(file);
  ASSERT_EQ(back.width, 5u);
  for (std::size_t i = 0; i < back.data.size(); ++i)
    EXPECT_NEAR(back.data[i], static_cast<float>(rgba.data[4 * i]) / 255.0f, 1e-6f);
  const ComplexImage c = load_input(file);
  for (std::size_t i = 0; i < c.data.size(); ++i) EXPECT_EQ(c.data[i], Complex(back.data[i], 0));
  EXPECT_THROW(encode_png(RgbaImage{}), OutputError);
}

TEST_F(ImageIo, AtomicWriteReplacesAndFailsCleanly) {
  const std::string file = path("a.bin");
  write_file_atomic(file, {1, 2, 3});
  write_file_atomic(file, {4, 5});
  std::ifstream in(file, std::ios::binary);
  const Bytes got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(got, (Bytes{4, 5}));
  EXPECT_EQ(file_count(), 1u);

  const std::string nowhere = path("no/such/dir/out.png");
  try {
    write_png(nowhere, gray_to_rgba(RealImage(2, 2)));
    ADD_FAILURE() << "wrote into a missing folder";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find(nowhere), std::string::npos) << e.what();
  }
  fs::create_directory(path("dir"));
  EXPECT_THROW(write_file_atomic(path("dir"), {1}), OutputError);
  EXPECT_EQ(file_count(), 2u);  // a.bin and dir: no temporaries
}

TEST_F(ImageIo, AtomicWriteIntoReadOnlyFolderLeavesNothing) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: folder permissions do not stop writes";
  fs::create_directory(path("ro"));
  ::chmod(path("ro").c_str(), 0555);
  EXPECT_THROW(write_file_atomic(path("ro/x.npy"), {1}), OutputError);
  ::chmod(path("ro").c_str(), 0755);
  EXPECT_TRUE(fs::is_empty(path("ro")));
}

TEST(Assets, BundledImagesLoadAsMade) {
  // The images scripts/make_assets.py writes, checked against the formulas it uses.
  const char* source = std::getenv("FFTSCOPE_SOURCE_DIR");
  ASSERT_NE(source, nullptr) << "FFTSCOPE_SOURCE_DIR is not set (ctest sets it)";
  const fs::path assets = fs::path(source) / "assets";
  const std::tuple<const char*, std::size_t, std::size_t> sizes[] = {
      {"grating_0deg_256.png", 256, 256},  {"grating_30deg_256.png", 256, 256}, {"grating_45deg_256.png", 256, 256},
      {"grating_90deg_256.png", 256, 256}, {"grating_30deg_320x200.png", 320, 200}, {"grating_45deg_255.png", 255, 255},
      {"rectangle_256.png", 256, 256},     {"rectangle_320x200.png", 320, 200}, {"checkerboard_256.png", 256, 256},
      {"ring_256.png", 256, 256},          {"ring_255.png", 255, 255},          {"impulse_256.png", 256, 256},
      {"astronaut.png", 512, 512}};
  for (const auto& [name, w, h] : sizes) {
    const fs::path file = assets / name;
    EXPECT_LT(fs::file_size(file), 1u << 20) << name;
    const RealImage img = load_image(file.string());
    EXPECT_EQ(img.width, w) << name;
    EXPECT_EQ(img.height, h) << name;
    for (float v : img.data) ASSERT_TRUE(v >= 0.0f && v <= 1.0f) << name;
  }
  const RealImage g0 = load_image((assets / "grating_0deg_256.png").string());
  for (std::size_t x = 0; x < 256; ++x) {
    const double v = std::floor(255.0 * (0.5 + 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(x) / 16.0)) + 0.5) / 255.0;
    ASSERT_NEAR(g0.at(x, 77), v, 1e-6) << x;
  }
  const RealImage impulse = load_image((assets / "impulse_256.png").string());
  float sum = 0.0f;
  for (float v : impulse.data) sum += v;
  EXPECT_EQ(sum, 1.0f);
  EXPECT_EQ(impulse.at(128, 128), 1.0f);
  EXPECT_EQ(probe_image((assets / "astronaut.png").string()).channels, 3);
}

TEST(ChannelNames, RoundTrip) {
  for (Channel c : all_channels) EXPECT_EQ(parse_channel(to_string(c)), c);
  EXPECT_THROW(parse_channel("alpha"), UsageError);
}

}  // namespace
}  // namespace fftscope
