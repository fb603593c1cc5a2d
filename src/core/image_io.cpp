#include "image_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <bit>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>

#include "decoder_guard.h"
#include "errors.h"
#include "validate.h"

// libstb.a (Debian) holds the stb_image / stb_image_write implementations; this file only uses them.

namespace fftscope {
namespace detail {
namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& path) { return "'" + path + "'"; }

[[noreturn]] void input_error(const std::string& path, const std::string& reason) {
  throw InputError(quoted(path) + ": " + reason);
}

// Images are read through memory: stb's *_from_memory take an int length.
constexpr std::uintmax_t max_file_bytes = static_cast<std::uintmax_t>(INT_MAX);

// Reads the whole file, with a clear reason for each way this can fail.
std::vector<std::uint8_t> read_whole_file(const std::string& path, std::uintmax_t limit) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    if (ec && ec != std::errc::no_such_file_or_directory) input_error(path, "cannot access: " + ec.message());
    input_error(path, "no such file");
  }
  if (fs::is_directory(status)) input_error(path, "is a directory, not a file");
  if (!fs::is_regular_file(status)) input_error(path, "is not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) input_error(path, "cannot read its size: " + ec.message());
  if (size == 0) input_error(path, "file is empty");
  if (size > limit) input_error(path, "file is too large (" + std::to_string(size) + " bytes)");

  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) input_error(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      input_error(path, std::string("cannot read: ") + std::strerror(err));
    }
    if (n == 0) break;  // shrank while reading
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  bytes.resize(done);
  if (bytes.empty()) input_error(path, "file is empty");
  return bytes;
}

std::string stb_reason() {
  const char* reason = stbi_failure_reason();
  std::string text = reason ? reason : "unknown reason";
  // stb puts the file's own bytes into some reasons (a PNG chunk type): keep the message one
  // printable line, whatever the file holds (found by tests/core/test_bad_inputs.cpp).
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
  return text;
}

struct Probe {
  ImageInfo info;
  bool is_hdr = false;
};

// One output value from `comp` stored channels already scaled to [0, 1].
template <typename Get>
float select_channel(Get get, int comp, Channel channel) {
  if (comp <= 2) return get(0);  // gray (+ alpha): every channel is the grey value
  switch (channel) {
    case Channel::r: return get(0);
    case Channel::g: return get(1);
    case Channel::b: return get(2);
    case Channel::luma: break;
  }
  return 0.2126f * get(0) + 0.7152f * get(1) + 0.0722f * get(2);
}

// Binary PGM (P5) and PPM (P6) are read here rather than by stb_image 2.27, which copies 16-bit
// samples without swapping them from the format's big-endian order, ignores maxval, and does not
// notice when the pixel data is cut short.
struct PnmHeader {
  ImageInfo info;
  std::uint32_t maxval = 0;
  std::size_t data_offset = 0;
};

bool is_pnm(const std::vector<std::uint8_t>& bytes) {
  return bytes.size() >= 2 && bytes[0] == 'P' && (bytes[1] == '5' || bytes[1] == '6');
}

PnmHeader parse_pnm_header(const std::vector<std::uint8_t>& bytes, const std::string& path) {
  std::size_t pos = 2;
  auto skip_space_and_comments = [&] {
    while (pos < bytes.size()) {
      if (bytes[pos] == '#') {
        while (pos < bytes.size() && bytes[pos] != '\n' && bytes[pos] != '\r') ++pos;
      } else if (std::isspace(bytes[pos])) {
        ++pos;
      } else {
        break;
      }
    }
  };
  auto number = [&](const char* what, std::uint32_t most) {
    skip_space_and_comments();
    if (pos >= bytes.size() || !std::isdigit(bytes[pos]))
      input_error(path, std::string("invalid PNM header: no ") + what);
    std::uint64_t v = 0;
    while (pos < bytes.size() && std::isdigit(bytes[pos])) {
      v = v * 10 + static_cast<std::uint64_t>(bytes[pos++] - '0');
      if (v > most) input_error(path, std::string("invalid PNM header: ") + what + " is too large");
    }
    if (v == 0) input_error(path, std::string("invalid PNM header: ") + what + " is 0");
    return static_cast<std::uint32_t>(v);
  };
  PnmHeader header;
  header.info.channels = bytes[1] == '5' ? 1 : 3;
  header.info.width = number("width", 1u << 24);
  header.info.height = number("height", 1u << 24);
  header.maxval = number("maxval", 65535);
  if (pos >= bytes.size() || !std::isspace(bytes[pos])) input_error(path, "invalid PNM header: no whitespace after maxval");
  header.data_offset = pos + 1;
  header.info.bits_per_channel = header.maxval > 255 ? 16 : 8;
  return header;
}

RealImage decode_pnm(const std::vector<std::uint8_t>& bytes, const PnmHeader& header, Channel channel,
                     const std::string& path) {
  const std::size_t comp = static_cast<std::size_t>(header.info.channels);
  const std::size_t sample_bytes = header.maxval > 255 ? 2 : 1;
  const std::size_t need = header.info.width * header.info.height * comp * sample_bytes;
  const std::size_t have = bytes.size() - std::min(bytes.size(), header.data_offset);
  if (have < need)
    input_error(path, "PNM data is truncated (" + std::to_string(have) + " of " + std::to_string(need) + " bytes)");
  const std::uint8_t* data = bytes.data() + header.data_offset;
  const float scale = 1.0f / static_cast<float>(header.maxval);
  auto sample = [&](std::size_t i) -> float {
    const std::uint32_t v = sample_bytes == 2 ? (static_cast<std::uint32_t>(data[2 * i]) << 8 | data[2 * i + 1]) : data[i];
    if (v > header.maxval) input_error(path, "PNM sample " + std::to_string(v) + " exceeds maxval " + std::to_string(header.maxval));
    return static_cast<float>(v) * scale;
  };
  RealImage image(header.info.width, header.info.height);
  for (std::size_t i = 0; i < image.data.size(); ++i)
    image.data[i] = select_channel([&](std::size_t c) { return sample(i * comp + c); }, header.info.channels, channel);
  return image;
}

// stb_image 2.27's 16-bit PSD test never reads past the height (its STBI_NOTUSED(get32be) is a
// sizeof, which does not evaluate), so it reads the depth from the wrong bytes; read it here.
bool is_16_bit(const std::vector<std::uint8_t>& bytes) {
  if (bytes.size() >= 26 && std::memcmp(bytes.data(), "8BPS", 4) == 0)
    return (static_cast<unsigned>(bytes[22]) << 8 | bytes[23]) == 16;
  return stbi_is_16_bit_from_memory(bytes.data(), static_cast<int>(bytes.size())) != 0;
}

// stb_image reads past the end of BMP, TGA, PSD and JPEG data as zeros without an error, so a cut
// file would load as an image with a black tail. For their uncompressed forms (and JPEG's end
// marker) the size the header implies is checked here before decoding.
std::uint32_t le(const std::vector<std::uint8_t>& b, std::size_t at, int n) {
  std::uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | b[at + static_cast<std::size_t>(i)];
  return v;
}
std::uint32_t be(const std::vector<std::uint8_t>& b, std::size_t at, int n) {
  std::uint32_t v = 0;
  for (int i = 0; i < n; ++i) v = v << 8 | b[at + static_cast<std::size_t>(i)];
  return v;
}

bool starts_with(const std::vector<std::uint8_t>& b, std::string_view magic) {
  return b.size() >= magic.size() && std::memcmp(b.data(), magic.data(), magic.size()) == 0;
}

// Bytes an uncompressed image of this header needs, or 0 where the format or its variant is not
// checked here (compressed data, or no magic to tell the format by).
std::uint64_t implied_size(const std::vector<std::uint8_t>& b, const ImageInfo& info) {
  const std::uint64_t w = info.width, h = info.height;
  if (starts_with(b, "BM") && b.size() >= 30) {
    const std::uint32_t dib = le(b, 14, 4);
    const std::uint32_t bpp = dib == 12 ? le(b, 24, 2) : le(b, 28, 2);
    const std::uint32_t compression = dib >= 40 && b.size() >= 34 ? le(b, 30, 4) : 0;
    if (compression != 0 && compression != 3 && compression != 6) return 0;  // RLE, JPEG, PNG inside
    return le(b, 10, 4) + (bpp * w + 31) / 32 * 4 * h;
  }
  if (starts_with(b, "8BPS") && b.size() >= 26) {
    std::uint64_t pos = 26;
    for (int section = 0; section < 3; ++section) {  // colour mode data, image resources, layers
      if (pos + 4 > b.size()) return pos + 4;
      pos += 4 + be(b, static_cast<std::size_t>(pos), 4);
    }
    if (pos + 2 > b.size()) return pos + 2;
    if (be(b, static_cast<std::size_t>(pos), 2) != 0) return 0;  // RLE
    return pos + 2 + std::uint64_t{be(b, 12, 2)} * w * h * (be(b, 22, 2) / 8);
  }
  if (starts_with(b, "\xff\xd8")) return 0;  // JPEG: see has_jpeg_end
  const bool other_magic = starts_with(b, "\x89PNG") || starts_with(b, "GIF8") || starts_with(b, "#?") ||
                           starts_with(b, "S\x80\xf6\x34") || (b.size() >= 2 && b[0] == 'P');
  if (!other_magic && b.size() >= 18) {  // TGA has no magic: stb recognised it by elimination
    const std::uint32_t type = b[2];
    if (type != 1 && type != 2 && type != 3) return 0;  // RLE
    const std::uint64_t colour_map = b[1] ? std::uint64_t{le(b, 5, 2)} * ((b[7] + 7u) / 8) : 0;
    return 18 + b[0] + colour_map + w * h * ((b[16] + 7u) / 8);
  }
  return 0;
}

// A JPEG's end-of-image marker; a cut file has none (an embedded thumbnail's may remain).
bool has_jpeg_end(const std::vector<std::uint8_t>& b) {
  for (std::size_t i = b.size(); i >= 2; --i)
    if (b[i - 2] == 0xff && b[i - 1] == 0xd9) return true;
  return false;
}

void check_complete(const std::vector<std::uint8_t>& bytes, const ImageInfo& info, const std::string& path) {
  if (starts_with(bytes, "\xff\xd8") && !has_jpeg_end(bytes)) input_error(path, "JPEG data is truncated (no end marker)");
  const std::uint64_t need = implied_size(bytes, info);
  if (need > bytes.size())
    input_error(path, "image data is truncated (" + std::to_string(bytes.size()) + " of " + std::to_string(need) + " bytes)");
}

Probe probe_memory(const std::vector<std::uint8_t>& bytes, const std::string& path) {
  check_decoder_hazards(bytes, path);  // inputs that break stb_image itself, even its header reader
  if (is_pnm(bytes)) return {parse_pnm_header(bytes, path).info, false};
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int len = static_cast<int>(bytes.size());
  int w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(data, len, &w, &h, &comp))
    input_error(path, "not an image stb_image can read (" + stb_reason() + ")");
  // stbi_info hands a top-down BMP's negative height through (stbi_load flips it to positive).
  if (h < 0 && h != INT_MIN && bytes[0] == 'B' && bytes[1] == 'M') h = -h;
  if (w <= 0 || h <= 0 || comp < 1 || comp > 4) input_error(path, "image header has invalid size or channel count");
  Probe probe;
  probe.info.width = static_cast<std::size_t>(w);
  probe.info.height = static_cast<std::size_t>(h);
  probe.info.channels = comp;
  probe.is_hdr = stbi_is_hdr_from_memory(data, len) != 0;
  probe.info.bits_per_channel = probe.is_hdr ? 32 : (is_16_bit(bytes) ? 16 : 8);
  return probe;
}

// The size a PNG's IHDR claims, read by hand: stb_image refuses PNGs over 2^30 bytes with only
// "unknown image type", and a huge image should be reported as over the limit.
std::optional<ImageInfo> png_header_size(const std::vector<std::uint8_t>& bytes) {
  static const std::uint8_t signature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() < 24 || std::memcmp(bytes.data(), signature, 8) != 0 || std::memcmp(&bytes[12], "IHDR", 4) != 0)
    return std::nullopt;
  auto be32 = [&](std::size_t at) {
    return static_cast<std::size_t>(bytes[at]) << 24 | static_cast<std::size_t>(bytes[at + 1]) << 16 |
           static_cast<std::size_t>(bytes[at + 2]) << 8 | bytes[at + 3];
  };
  ImageInfo info;
  info.width = be32(16);
  info.height = be32(20);
  static const int channels_of_color[] = {1, 0, 3, 1, 2, 0, 4};  // gray, -, RGB, palette, gray+alpha, -, RGBA
  info.channels = bytes.size() > 25 && bytes[25] <= 6 ? channels_of_color[bytes[25]] : 0;
  info.bits_per_channel = bytes.size() > 24 && bytes[24] == 16 ? 16 : 8;
  return info;
}

void check_pixel_limit(const ImageInfo& info, std::size_t max_pixels, const std::string& path) {
  // Widths and heights come from int, so their product fits in 64 bits.
  const std::uint64_t pixels = static_cast<std::uint64_t>(info.width) * info.height;
  if (pixels <= max_pixels) return;
  // What decoding would take at least: the decoder's pixels, then one float per pixel.
  const std::uint64_t per_pixel = static_cast<std::uint64_t>(info.channels > 0 ? info.channels : 4) *
                                      static_cast<std::uint64_t>(std::max(info.bits_per_channel, 8) / 8) +
                                  sizeof(float);
  input_error(path, "image is " + std::to_string(info.width) + " x " + std::to_string(info.height) + " = " +
                        std::to_string(pixels) + " pixels, over the limit of " + std::to_string(max_pixels) +
                        " (decoding it would need " + format_bytes(pixels * per_pixel) + " or more)");
}

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

template <typename T>
RealImage convert(const T* pixels, const ImageInfo& info, Channel channel, float scale) {
  RealImage image(info.width, info.height);
  const auto comp = static_cast<std::size_t>(info.channels);
  for (std::size_t i = 0; i < image.data.size(); ++i) {
    const T* px = pixels + i * comp;
    image.data[i] = select_channel([&](std::size_t c) { return static_cast<float>(px[c]) * scale; },
                                   info.channels, channel);
  }
  return image;
}

bool has_npy_magic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[6] = {};
  in.read(magic, 6);
  return in.gcount() == 6 && std::memcmp(magic, "\x93NUMPY", 6) == 0;
}

// --- NPY ---------------------------------------------------------------------------------------

// A tiny parser for the header dict numpy writes: {'descr': '<f4', 'fortran_order': False,
// 'shape': (H, W), }. Anything outside that grammar is an error.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  void parse(std::string& descr, std::optional<bool>& fortran, std::optional<std::vector<std::uint64_t>>& shape) {
    bool have_descr = false;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = string_literal();
      expect(':');
      if (key == "descr") {
        if (have_descr) fail("header has 'descr' twice");
        descr = string_literal();
        have_descr = true;
      } else if (key == "fortran_order") {
        if (fortran) fail("header has 'fortran_order' twice");
        fortran = boolean();
      } else if (key == "shape") {
        if (shape) fail("header has 'shape' twice");
        shape = tuple();
      } else {
        fail("header has an unexpected key '" + key + "'");
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      skip_space();
      if (peek() != '}') fail("header dict is malformed");
    }
    expect('}');
    skip_space();
    if (pos_ != text_.size()) fail("header has trailing characters after the dict");
    if (!have_descr) fail("header has no 'descr'");
    if (!fortran) fail("header has no 'fortran_order'");
    if (!shape) fail("header has no 'shape'");
  }

 private:
  [[noreturn]] void fail(const std::string& reason) const { input_error(name_, "invalid NPY file: " + reason); }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n')) ++pos_;
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("header dict is malformed (expected '") + c + "')");
    ++pos_;
  }
  std::string string_literal() {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("header dict is malformed (expected a string)");
    ++pos_;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\') fail("header has an escaped string");
      out += text_[pos_++];
    }
    if (pos_ >= text_.size()) fail("header has an unterminated string");
    ++pos_;
    return out;
  }
  bool boolean() {
    skip_space();
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("'fortran_order' is not True or False");
  }
  std::vector<std::uint64_t> tuple() {
    expect('(');
    std::vector<std::uint64_t> dims;
    while (true) {
      skip_space();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') fail("'shape' is not a tuple of non-negative integers");
      std::uint64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        const auto digit = static_cast<std::uint64_t>(peek() - '0');
        if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) fail("'shape' has a dimension too large");
        v = v * 10 + digit;
        ++pos_;
      }
      if (peek() == 'L') ++pos_;  // Python 2 long suffix
      dims.push_back(v);
      if (dims.size() > 32) fail("'shape' has too many dimensions");
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      skip_space();
      if (peek() != ')') fail("'shape' is not a tuple of integers");
    }
    expect(')');
    return dims;
  }

  std::string_view text_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

std::uint32_t load_u32_le(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

float load_f32_le(const std::uint8_t* p) { return std::bit_cast<float>(load_u32_le(p)); }

void store_f32_le(std::vector<std::uint8_t>& out, float v) {
  const auto u = std::bit_cast<std::uint32_t>(v);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(u >> (8 * i)));
}

std::vector<std::uint8_t> npy_header(const char* descr, std::size_t width, std::size_t height) {
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(height) + ", " + std::to_string(width) + "), }";
  // Version 1.0: magic (6) + version (2) + length (2) + dict, padded with spaces to 64 bytes, '\n' last.
  std::size_t total = 10 + dict.size() + 1;
  total = (total + 63) / 64 * 64;
  dict.append(total - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::vector<std::uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const std::size_t len = dict.size();
  if (len > 0xffff) throw OutputError("NPY header too long");
  out.push_back(static_cast<std::uint8_t>(len & 0xff));
  out.push_back(static_cast<std::uint8_t>(len >> 8));
  out.insert(out.end(), dict.begin(), dict.end());
  return out;
}

// The process umask, without changing it (umask(2) can only be read by setting it).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

}  // namespace
}  // namespace detail

std::string to_string(Channel channel) {
  switch (channel) {
    case Channel::luma: return "luma";
    case Channel::r: return "r";
    case Channel::g: return "g";
    case Channel::b: return "b";
  }
  return "unknown";
}

Channel parse_channel(const std::string& name) {
  for (Channel c : {Channel::luma, Channel::r, Channel::g, Channel::b})
    if (name == to_string(c)) return c;
  throw UsageError("unknown channel '" + name + "' (expected luma, r, g or b)");
}

ImageInfo probe_image(const std::string& path) {
  const auto bytes = detail::read_whole_file(path, detail::max_file_bytes);
  return detail::probe_memory(bytes, path).info;
}

RealImage load_image(const std::string& path, const ImageLoadOptions& options) {
  return load_image_from_memory(detail::read_whole_file(path, detail::max_file_bytes), path, options);
}

RealImage load_image_from_memory(const std::vector<std::uint8_t>& bytes, const std::string& path,
                                 const ImageLoadOptions& options) {
  if (bytes.empty()) detail::input_error(path, "file is empty");
  if (bytes.size() > detail::max_file_bytes)
    detail::input_error(path, "file is too large (" + std::to_string(bytes.size()) + " bytes)");
  if (const auto png = detail::png_header_size(bytes)) detail::check_pixel_limit(*png, options.max_pixels, path);
  const detail::Probe probe = detail::probe_memory(bytes, path);
  detail::check_pixel_limit(probe.info, options.max_pixels, path);
  detail::check_complete(bytes, probe.info, path);
  check_data_complete(bytes, path);  // GIF, HDR, RLE TGA/PSD: stb pads them with zeros
  if (detail::is_pnm(bytes)) return detail::decode_pnm(bytes, detail::parse_pnm_header(bytes, path), options.channel, path);

  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int len = static_cast<int>(bytes.size());
  int w = 0, h = 0, comp = 0;
  RealImage image;
  ImageInfo decoded = probe.info;
  auto decoded_ok = [&](void* p) {
    if (!p) detail::input_error(path, "cannot decode image data (" + detail::stb_reason() + ")");
    if (static_cast<std::size_t>(w) != probe.info.width || static_cast<std::size_t>(h) != probe.info.height ||
        comp < 1 || comp > 4)
      detail::input_error(path, "decoded image does not match its header");
    // Some decoders (GIF) report another channel count in the header than they deliver.
    decoded.channels = comp;
  };
  if (probe.is_hdr) {
    // Radiance HDR keeps its linear float values (they may exceed 1).
    std::unique_ptr<float, detail::StbFree> px(stbi_loadf_from_memory(data, len, &w, &h, &comp, 0));
    decoded_ok(px.get());
    image = detail::convert(px.get(), decoded, options.channel, 1.0f);
  } else if (probe.info.bits_per_channel == 16) {
    std::unique_ptr<stbi_us, detail::StbFree> px(stbi_load_16_from_memory(data, len, &w, &h, &comp, 0));
    decoded_ok(px.get());
    image = detail::convert(px.get(), decoded, options.channel, 1.0f / 65535.0f);
  } else {
    const int want = stb_components_to_request(bytes);  // 4 for PIC: see decoder_guard.h
    std::unique_ptr<stbi_uc, detail::StbFree> px(stbi_load_from_memory(data, len, &w, &h, &comp, want));
    decoded_ok(px.get());
    if (want != 0) decoded.channels = want;
    image = detail::convert(px.get(), decoded, options.channel, 1.0f / 255.0f);
  }
  return image;
}

ComplexImage load_input(const std::string& path, const ImageLoadOptions& options) {
  if (detail::has_npy_magic(path)) return read_npy(path, options.max_pixels).values;
  return to_complex(load_image(path, options));
}

NpyArray parse_npy(const std::vector<std::uint8_t>& bytes, const std::string& name, std::size_t max_elements) {
  auto fail = [&](const std::string& reason) { detail::input_error(name, "invalid NPY file: " + reason); };
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) fail("no NPY magic string");
  const std::uint8_t major = bytes[6];
  std::size_t header_len = 0;
  std::size_t header_start = 0;
  if (major == 1) {
    header_len = static_cast<std::size_t>(bytes[8]) | static_cast<std::size_t>(bytes[9]) << 8;
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail("file ends inside the header");
    header_len = detail::load_u32_le(&bytes[8]);
    header_start = 12;
  } else {
    fail("unsupported format version " + std::to_string(major) + "." + std::to_string(bytes[7]));
  }
  constexpr std::size_t max_header = 1 << 16;  // numpy itself refuses headers over 10000 bytes by default
  if (header_len > max_header) fail("header length " + std::to_string(header_len) + " is implausibly large");
  if (header_len > bytes.size() - header_start) fail("file ends inside the header");
  const std::string_view text(reinterpret_cast<const char*>(bytes.data() + header_start), header_len);
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80 || (c < 0x20 && c != '\n' && c != '\t')) fail("header is not plain text");

  std::string descr;
  std::optional<bool> fortran;
  std::optional<std::vector<std::uint64_t>> shape;
  detail::HeaderParser(text, name).parse(descr, fortran, shape);

  bool is_complex = false;
  if (descr == "<c8") {
    is_complex = true;
  } else if (descr != "<f4") {
    fail("dtype '" + descr + "' is not supported (only '<f4' float32 and '<c8' complex64)");
  }
  if (*fortran) fail("Fortran-order arrays are not supported (save a C-order array)");
  if (shape->size() != 2) fail("array has " + std::to_string(shape->size()) + " dimensions; need a 2D array");
  const std::uint64_t height = (*shape)[0];
  const std::uint64_t width = (*shape)[1];
  if (width == 0 || height == 0) fail("array has a zero dimension");
  if (width > max_elements || height > max_elements || width > max_elements / height)
    fail("array of " + std::to_string(height) + " x " + std::to_string(width) + " is over the limit of " +
         std::to_string(max_elements) + " elements");

  const std::size_t item = is_complex ? 8 : 4;
  const std::size_t count = static_cast<std::size_t>(width * height);
  const std::size_t data_start = header_start + header_len;
  const std::size_t available = bytes.size() - data_start;
  if (available < count * item)
    fail("data is truncated (" + std::to_string(available) + " of " + std::to_string(count * item) + " bytes)");
  if (available > count * item) fail(std::to_string(available - count * item) + " bytes of extra data after the array");

  NpyArray array;
  array.width = static_cast<std::size_t>(width);
  array.height = static_cast<std::size_t>(height);
  array.is_complex = is_complex;
  array.values = ComplexImage(array.width, array.height);
  const std::uint8_t* p = bytes.data() + data_start;
  for (std::size_t i = 0; i < count; ++i, p += item) {
    const float re = detail::load_f32_le(p);
    const float im = is_complex ? detail::load_f32_le(p + 4) : 0.0f;
    if (!std::isfinite(re) || !std::isfinite(im))
      fail("element (" + std::to_string(i / array.width) + ", " + std::to_string(i % array.width) +
           ") is not finite");
    array.values.data[i] = Complex(re, im);
  }
  return array;
}

NpyArray read_npy(const std::string& path, std::size_t max_elements) {
  // The largest file a valid array under the limit can be: header plus 8 bytes per element.
  constexpr std::uintmax_t slack = 1u << 17;
  const std::uintmax_t most = std::numeric_limits<std::uintmax_t>::max();
  const std::uintmax_t limit =
      max_elements > (most - slack) / 8 ? most : slack + static_cast<std::uintmax_t>(max_elements) * 8;
  return parse_npy(detail::read_whole_file(path, limit), path, max_elements);
}

void write_file_atomic(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& reason) { throw OutputError(detail::quoted(path) + ": " + reason); };
  if (path.empty()) throw OutputError("output path is empty");
  const fs::path target(path);
  if (!target.has_filename()) fail("is not a file name");
  std::error_code ec;
  if (fs::is_directory(target, ec)) fail("is a directory");
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temp = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(std::string("cannot create a temporary file in its folder: ") + std::strerror(errno));

  auto abandon = [&](const std::string& what, int err) {
    ::close(fd);
    ::unlink(temp.c_str());
    fail(what + ": " + std::strerror(err));
  };
  // mkstemp makes the file 0600; give it the mode a plain create (or the old file) would have.
  struct stat old {};
  const mode_t mode = ::stat(path.c_str(), &old) == 0 ? (old.st_mode & 07777) : (0666 & ~detail::current_umask());
  if (::fchmod(fd, mode) != 0) abandon("cannot set permissions", errno);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) abandon("cannot write", errno);
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) abandon("cannot flush to disk", errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    fail(std::string("cannot close: ") + std::strerror(err));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    fail(std::string("cannot replace: ") + std::strerror(err));
  }
  // Make the rename itself durable; a failure here leaves a complete file, so it is not an error.
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

std::vector<std::uint8_t> encode_npy_complex64(const ComplexImage& image) {
  auto out = detail::npy_header("<c8", image.width, image.height);
  out.reserve(out.size() + image.data.size() * 8);
  for (const Complex& v : image.data) {
    detail::store_f32_le(out, v.real());
    detail::store_f32_le(out, v.imag());
  }
  return out;
}

std::vector<std::uint8_t> encode_npy_float32(const RealImage& image) {
  auto out = detail::npy_header("<f4", image.width, image.height);
  out.reserve(out.size() + image.data.size() * 4);
  for (float v : image.data) detail::store_f32_le(out, v);
  return out;
}

void write_npy(const std::string& path, const ComplexImage& image) { write_file_atomic(path, encode_npy_complex64(image)); }
void write_npy(const std::string& path, const RealImage& image) { write_file_atomic(path, encode_npy_float32(image)); }

std::vector<std::uint8_t> encode_png(const RgbaImage& image) {
  if (image.width == 0 || image.height == 0) throw OutputError("cannot encode an empty image as PNG");
  if (image.width > static_cast<std::size_t>(INT_MAX / 4) || image.height > static_cast<std::size_t>(INT_MAX))
    throw OutputError("image too large to encode as PNG");
  if (image.data.size() != image.width * image.height * 4) throw OutputError("RGBA image has the wrong data size");
  std::vector<std::uint8_t> out;
  auto append = [](void* context, void* data, int size) {
    auto* v = static_cast<std::vector<std::uint8_t>*>(context);
    const auto* p = static_cast<const std::uint8_t*>(data);
    v->insert(v->end(), p, p + size);
  };
  if (!stbi_write_png_to_func(append, &out, static_cast<int>(image.width), static_cast<int>(image.height), 4,
                              image.data.data(), static_cast<int>(image.width * 4)))
    throw OutputError("PNG encoding failed");
  return out;
}

void write_png(const std::string& path, const RgbaImage& image) {
  std::vector<std::uint8_t> bytes;
  try {
    bytes = encode_png(image);
  } catch (const OutputError& e) {
    throw OutputError(detail::quoted(path) + ": " + e.what());
  }
  write_file_atomic(path, bytes);
}

}  // namespace fftscope
