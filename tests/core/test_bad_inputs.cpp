// Bad input at the core level (issue 7): every way an input or output file can be wrong, each
// giving one exception of the documented type whose one-line message names the file and the
// reason, and no partial output. Valid files of every format come from the fuzzers' seed corpus
// (fuzz/corpus/image_loader, made by fuzz/make_seeds.py); the inputs the fuzzers once crashed on
// (fuzz/regressions/) are replayed here too, so the normal and the sanitizer builds both run them.

#include <gtest/gtest.h>
#include <signal.h>
#include <zlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/cpu_fft.h"
#include "core/decoder_guard.h"
#include "core/errors.h"
#include "core/image_io.h"
#include "core/plan.h"
#include "core/validate.h"
#include "support/reference.h"

#ifdef FFTSCOPE_TEST_SETTINGS_STORE
#include "gui/settings_store.h"
#endif

namespace fftscope {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;
using test::ComplexD;
using test::brute_force_dft;
using test::float_fft_tolerance;
using test::relative_l2_error;

fs::path source_dir() {
  const char* dir = std::getenv("FFTSCOPE_SOURCE_DIR");
  return dir ? fs::path(dir) : fs::path(FFTSCOPE_TEST_SOURCE_DIR);
}

Bytes read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

Bytes text_bytes(const std::string& s) { return Bytes(s.begin(), s.end()); }

// The contract of every refusal: the exception type, one line, the file named, the reason given.
template <typename Error>
std::string expect_error(const std::function<void()>& call, const std::string& path, const std::string& reason) {
  try {
    call();
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << "message is not one line: " << message;
    EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << "message does not name the file: " << message;
    EXPECT_NE(message.find(reason), std::string::npos) << "message does not say '" << reason << "': " << message;
    return message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << path << ": wrong exception type: " << e.what();
    return "";
  }
  ADD_FAILURE() << path << ": no exception (expected one saying '" << reason << "')";
  return "";
}

std::string expect_input_error(const std::string& path, const std::string& reason, const ImageLoadOptions& options = {}) {
  return expect_error<InputError>([&] { load_image(path, options); }, path, reason);
}

class BadInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fftscope-bad-inputs-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }
  std::string file(const std::string& name, const Bytes& bytes) {
    const fs::path p = dir_ / name;
    write_bytes(p, bytes);
    return p.string();
  }
  std::vector<std::string> leftovers() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  fs::path dir_;
};

// The valid sample of every format the fuzzers start from.
std::map<std::string, Bytes> valid_samples() {
  std::map<std::string, Bytes> samples;
  for (const auto& entry : fs::directory_iterator(source_dir() / "fuzz/corpus/image_loader")) {
    const std::string name = entry.path().filename().string();
    if (name.find("unsupported") != std::string::npos) continue;  // a seed stb refuses on purpose
    samples[name] = read_bytes(entry.path());
  }
  return samples;
}

// Outcome of loading a damaged file: refused with a proper message, or loaded as a whole image.
struct Tally {
  int refused = 0;
  int loaded = 0;
};

void load_damaged(const std::string& path, const ImageInfo* header, Tally& tally) {
  try {
    const RealImage image = load_image(path);
    ++tally.loaded;
    ASSERT_EQ(image.data.size(), image.width * image.height);
    if (header) {
      EXPECT_EQ(image.width, header->width) << path;
      EXPECT_EQ(image.height, header->height) << path;
    }
    for (float v : image.data) ASSERT_TRUE(std::isfinite(v)) << path;
  } catch (const InputError& e) {
    ++tally.refused;
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind("'" + path + "': ", 0), 0u) << message;
  }
}

int g_cases = 0;  // bad inputs tried in this run, reported at the end (docs/reliability.md)

TEST_F(BadInputs, SamplesOfEveryFormatLoad) {
  const auto samples = valid_samples();
  std::set<std::string> formats;
  for (const auto& [name, bytes] : samples) {
    const std::string path = file(name, bytes);
    const ImageInfo info = probe_image(path);
    const RealImage image = load_image(path);
    EXPECT_EQ(image.width, info.width) << name;
    EXPECT_EQ(image.height, info.height) << name;
    for (float v : image.data) ASSERT_TRUE(std::isfinite(v) && v >= 0.0f) << name;
    formats.insert(fs::path(name).extension().string());
  }
  // Every format stb_image reads, plus binary PNM read by the core itself.
  for (const char* ext : {".png", ".jpg", ".bmp", ".gif", ".psd", ".tga", ".hdr", ".pic", ".pgm", ".ppm"})
    EXPECT_EQ(formats.count(ext), 1u) << "no valid sample of " << ext;
}

TEST_F(BadInputs, EmptyFileOfEveryFormat) {
  for (const char* ext : {".png", ".jpg", ".bmp", ".gif", ".psd", ".tga", ".hdr", ".pic", ".pgm", ".ppm"}) {
    const std::string path = file(std::string("empty") + ext, {});
    expect_input_error(path, "empty");
    ++g_cases;
  }
  const std::string npy = file("empty.npy", {});
  expect_error<InputError>([&] { read_npy(npy); }, npy, "empty");
  expect_error<InputError>([&] { load_input(npy); }, npy, "empty");
  g_cases += 2;
}

TEST_F(BadInputs, TruncatedFilesOfEveryFormatAreRefused) {
  for (const auto& [name, bytes] : valid_samples()) {
    const ImageInfo header = probe_image(file("whole-" + name, bytes));
    std::set<std::size_t> cuts = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, bytes.size() / 4, bytes.size() / 2,
                                  bytes.size() * 3 / 4, bytes.size() - 8, bytes.size() - 2};
    Tally tally;
    for (std::size_t cut : cuts) {
      if (cut == 0 || cut >= bytes.size()) continue;
      const std::string path = file("cut" + std::to_string(cut) + "-" + name, Bytes(bytes.begin(), bytes.begin() + static_cast<long>(cut)));
      // Cut inside the header or the pixel data: the file must be refused with its name.
      if (cut <= bytes.size() * 3 / 4) {
        const std::string message = expect_input_error(path, "");
        ++tally.refused;
        EXPECT_FALSE(message.empty()) << path;
      } else {
        load_damaged(path, &header, tally);  // the last bytes may be a trailer some formats do not need
      }
      ++g_cases;
    }
    EXPECT_GT(tally.refused, 0) << name;
  }
}

// A deterministic small fuzz over every sample: 1 to 4 bytes changed at random, 300 times each.
// Any outcome but a clean InputError or a whole finite image fails (and ASan/UBSan watch the rest).
TEST_F(BadInputs, CorruptBytesInEveryFormat) {
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (const auto& [name, bytes] : valid_samples()) {
    Tally tally;
    for (int round = 0; round < 300; ++round) {
      Bytes damaged = bytes;
      const int changes = 1 + static_cast<int>(next() % 4);
      for (int c = 0; c < changes; ++c) damaged[next() % damaged.size()] = static_cast<std::uint8_t>(next());
      const std::string path = file("corrupt-" + name, damaged);
      load_damaged(path, nullptr, tally);
      ++g_cases;
    }
    EXPECT_EQ(tally.refused + tally.loaded, 300) << name;
  }
}

TEST_F(BadInputs, MagicBytesDestroyed) {
  for (const auto& [name, bytes] : valid_samples()) {
    Bytes damaged = bytes;
    std::fill(damaged.begin(), damaged.begin() + 4, std::uint8_t{'x'});
    expect_input_error(file("nomagic-" + name, damaged), "not an image");
    ++g_cases;
  }
}

TEST_F(BadInputs, TextFileWithAnImageExtension) {
  const Bytes text = text_bytes("This is a README, saved by mistake with an image extension.\n");
  for (const char* ext : {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".psd", ".tga", ".hdr", ".pic", ".pgm", ".ppm"}) {
    expect_input_error(file(std::string("notes") + ext, text), "not an image");
    ++g_cases;
  }
  const std::string npy = file("notes.npy", text);
  expect_error<InputError>([&] { read_npy(npy); }, npy, "no NPY magic");
  ++g_cases;
}

TEST_F(BadInputs, PathsThatAreNotReadableFiles) {
  const std::string folder = (dir_ / "a-folder.png").string();
  fs::create_directories(folder);
  expect_input_error(folder, "is a directory");
  expect_error<InputError>([&] { read_npy(folder); }, folder, "is a directory");

  const std::string missing = (dir_ / "missing.png").string();
  expect_input_error(missing, "no such file");
  expect_error<InputError>([&] { load_input(missing); }, missing, "no such file");

  const std::string dangling = (dir_ / "dangling.png").string();
  fs::create_symlink(dir_ / "nowhere.png", dangling);
  expect_input_error(dangling, "no such file");

  const std::string fifo = (dir_ / "pipe.png").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_input_error(fifo, "not a regular file");  // and it must not block waiting for a writer
  expect_input_error("/dev/null", "not a regular file");

  const std::string below_file = (dir_ / "missing.png" / "x.png").string();
  write_bytes(dir_ / "plain", {1});
  expect_input_error((dir_ / "plain" / "x.png").string(), "");
  (void)below_file;
  g_cases += 8;

  if (::geteuid() != 0) {
    const std::string locked = file("locked.png", valid_samples().begin()->second);
    ::chmod(locked.c_str(), 0);
    expect_input_error(locked, "cannot open");
    ++g_cases;
  }
}

// --- headers that claim huge sizes ------------------------------------------------------------
void put_be32(Bytes& b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<std::uint8_t>(v >> s));
}
void put_le(Bytes& b, std::uint32_t v, int n) {
  for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_be(Bytes& b, std::uint32_t v, int n) {
  for (int i = n - 1; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// Small files whose headers claim w x h, with a few bytes of "pixel data" after them.
std::map<std::string, Bytes> huge_headers(std::uint32_t w, std::uint32_t h) {
  std::map<std::string, Bytes> files;
  Bytes tail(64, 0x55);
  {  // PNG: signature, IHDR (CRC is not checked by stb), then a small IDAT
    Bytes b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    put_be32(b, 13);
    for (char c : std::string("IHDR")) b.push_back(static_cast<std::uint8_t>(c));
    put_be32(b, w);
    put_be32(b, h);
    b.insert(b.end(), {8, 2, 0, 0, 0});
    put_be32(b, 0);
    files["png"] = b;
  }
  {  // BMP with a BITMAPINFOHEADER, 24 bit
    Bytes b = {'B', 'M'};
    put_le(b, 54 + 64, 4);
    put_le(b, 0, 4);
    put_le(b, 54, 4);
    put_le(b, 40, 4);
    put_le(b, w, 4);
    put_le(b, h, 4);
    put_le(b, 1, 2);
    put_le(b, 24, 2);
    for (int i = 0; i < 6; ++i) put_le(b, 0, 4);
    files["bmp"] = b;
  }
  {  // GIF: logical screen (16-bit sizes) and an image descriptor of the same size
    Bytes b = {'G', 'I', 'F', '8', '9', 'a'};
    put_le(b, std::min<std::uint32_t>(w, 65535), 2);
    put_le(b, std::min<std::uint32_t>(h, 65535), 2);
    b.insert(b.end(), {0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x2c, 0, 0, 0, 0});
    put_le(b, std::min<std::uint32_t>(w, 65535), 2);
    put_le(b, std::min<std::uint32_t>(h, 65535), 2);
    b.insert(b.end(), {0, 2, 2, 0x44, 0x01, 0, 0x3b});
    files["gif"] = b;
  }
  {  // PSD: 3 channels, 8 bit, RGB, raw
    Bytes b = {'8', 'B', 'P', 'S'};
    put_be(b, 1, 2);
    b.insert(b.end(), 6, 0);
    put_be(b, 3, 2);
    put_be(b, h, 4);
    put_be(b, w, 4);
    put_be(b, 8, 2);
    put_be(b, 3, 2);
    for (int i = 0; i < 3; ++i) put_be(b, 0, 4);
    put_be(b, 0, 2);
    files["psd"] = b;
  }
  {  // TGA: truecolour, 24 bit, 16-bit sizes
    Bytes b = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    put_le(b, std::min<std::uint32_t>(w, 65535), 2);
    put_le(b, std::min<std::uint32_t>(h, 65535), 2);
    b.insert(b.end(), {24, 0});
    files["tga"] = b;
  }
  {  // Radiance HDR
    const std::string head = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(h) + " +X " + std::to_string(w) + "\n";
    files["hdr"] = text_bytes(head);
  }
  {  // binary PGM
    files["pgm"] = text_bytes("P5\n" + std::to_string(w) + " " + std::to_string(h) + "\n255\n");
  }
  {  // Softimage PIC: magic, 84 bytes, "PICT", 16-bit sizes, one RGB packet
    Bytes b = {0x53, 0x80, 0xF6, 0x34};
    b.insert(b.end(), 84, 0);
    for (char c : std::string("PICT")) b.push_back(static_cast<std::uint8_t>(c));
    put_be(b, std::min<std::uint32_t>(w, 65535), 2);
    put_be(b, std::min<std::uint32_t>(h, 65535), 2);
    b.insert(b.end(), {0x3f, 0x80, 0, 0, 0, 3, 0, 0, 0, 8, 0, 0xE0});
    files["pic"] = b;
  }
  {  // JPEG: SOI, SOF0 with 16-bit sizes, 3 components
    Bytes b = {0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08};
    put_be(b, std::min<std::uint32_t>(h, 65535), 2);
    put_be(b, std::min<std::uint32_t>(w, 65535), 2);
    b.insert(b.end(), {3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 0xFF, 0xD9});
    files["jpg"] = b;
  }
  for (auto& [ext, b] : files) b.insert(b.end(), tail.begin(), tail.end());
  return files;
}

TEST_F(BadInputs, HeadersClaimingHugeSizesAreRefusedBeforeDecoding) {
  // 2^31 - 1 wide where the format allows it, else the format's largest; tall likewise.
  for (const auto& [ext, bytes] : huge_headers(100000, 100000)) {
    const std::string path = file("huge." + ext, bytes);
    const std::string message = expect_input_error(path, "");
    // Refused by the size limit read from the header (before any pixel buffer exists), by the
    // PNM parser's own size cap, or by stb's header check ("too large").
    // (stb's PIC header reader itself refuses over 2^28 pixels: "not an image").
    const bool by_limit = message.find("over the limit") != std::string::npos ||
                          message.find("too large") != std::string::npos ||
                          (ext == "pic" && message.find("not an image") != std::string::npos);
    EXPECT_TRUE(by_limit) << message;
    ++g_cases;
  }
  // Within the format's header range but over a configured limit of 1000 pixels: the limit
  // message, with the claimed size, for every format.
  ImageLoadOptions small;
  small.max_pixels = 1000;
  for (const auto& [ext, bytes] : huge_headers(40, 30)) {
    const std::string path = file("limit." + ext, bytes);
    expect_input_error(path, "40 x 30 = 1200 pixels, over the limit of 1000", small);
    ++g_cases;
  }
  // NPY: a shape far beyond any memory.
  const std::string head = "{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000), }";
  Bytes npy = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<std::uint8_t>(head.size() + 1), 0};
  npy.insert(npy.end(), head.begin(), head.end());
  npy.push_back('\n');
  npy.insert(npy.end(), 16, 0);
  const std::string path = file("huge.npy", npy);
  expect_error<InputError>([&] { read_npy(path); }, path, "over the limit");
  ++g_cases;
}

// --- PNG decompression bombs ------------------------------------------------------------------
Bytes png_chunk(const char* type, const Bytes& data) {
  Bytes b;
  put_be32(b, static_cast<std::uint32_t>(data.size()));
  const std::size_t start = b.size();
  b.insert(b.end(), type, type + 4);
  b.insert(b.end(), data.begin(), data.end());
  const uLong crc = crc32(0, b.data() + start, static_cast<uInt>(b.size() - start));
  put_be32(b, static_cast<std::uint32_t>(crc));
  return b;
}

// zlib stream of `rows` copies of `row`, then `extra` zero bytes, compressed as it goes (no
// buffer of the whole raw size: a 20000 x 20000 image is 50 MB raw).
Bytes deflate_rows(const Bytes& row, std::size_t rows, std::size_t extra = 0) {
  z_stream z{};
  EXPECT_EQ(deflateInit(&z, 9), Z_OK);
  Bytes out, chunk(1 << 16);
  const Bytes zeros(1 << 16, 0);
  auto feed = [&](const Bytes& in, std::size_t n, int flush) {
    z.next_in = const_cast<Bytef*>(in.data());
    z.avail_in = static_cast<uInt>(n);
    do {
      z.next_out = chunk.data();
      z.avail_out = static_cast<uInt>(chunk.size());
      deflate(&z, flush);
      out.insert(out.end(), chunk.begin(), chunk.end() - z.avail_out);
    } while (z.avail_out == 0);
  };
  for (std::size_t y = 0; y < rows; ++y) feed(row, row.size(), Z_NO_FLUSH);
  for (std::size_t left = extra; left > 0; left -= std::min(left, zeros.size()))
    feed(zeros, std::min(left, zeros.size()), Z_NO_FLUSH);
  feed(zeros, 0, Z_FINISH);
  deflateEnd(&z);
  return out;
}

// How many bytes a zlib stream inflates to, counted by zlib here (the test's own reference).
std::uint64_t inflated_size(const Bytes& stream) {
  z_stream z{};
  EXPECT_EQ(inflateInit(&z), Z_OK);
  Bytes out(1 << 16);
  std::uint64_t total = 0;
  z.next_in = const_cast<Bytef*>(stream.data());
  z.avail_in = static_cast<uInt>(stream.size());
  int status = Z_OK;
  while (status == Z_OK) {
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    status = inflate(&z, Z_NO_FLUSH);
    total += out.size() - z.avail_out;
  }
  EXPECT_EQ(status, Z_STREAM_END);
  inflateEnd(&z);
  return total;
}

// A PNG: IHDR (w, h, depth, colour type, interlace), the zlib stream in IDAT chunks of `split`
// bytes (0: one chunk), IEND. CRCs are right: the files are valid but for what a test changes.
Bytes make_png(std::uint32_t w, std::uint32_t h, std::uint8_t depth, std::uint8_t color, const Bytes& stream,
               std::size_t split = 0, std::uint8_t interlace = 0) {
  Bytes b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes ihdr;
  put_be32(ihdr, w);
  put_be32(ihdr, h);
  ihdr.insert(ihdr.end(), {depth, color, 0, 0, interlace});
  auto append = [&](const Bytes& c) { b.insert(b.end(), c.begin(), c.end()); };
  append(png_chunk("IHDR", ihdr));
  if (split == 0) split = std::max<std::size_t>(stream.size(), 1);
  for (std::size_t i = 0; i < stream.size(); i += split)
    append(png_chunk("IDAT", Bytes(stream.begin() + static_cast<long>(i),
                                   stream.begin() + static_cast<long>(std::min(stream.size(), i + split)))));
  append(png_chunk("IEND", {}));
  return b;
}

// Peak resident memory (VmHWM) since the last reset_peak_memory(), in bytes; 0 if unknown.
bool reset_peak_memory() { return static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5"); }
std::uint64_t peak_memory() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

TEST_F(BadInputs, PngDecompressionBombsAreRefusedBeforeDecoding) {
  // 1. A valid 48 KB PNG that decodes to 20000 x 20000 (1-bit grey, every row zero): its stream
  // inflates to exactly what the header needs, yet the pixel limit refuses it from the header,
  // naming the memory decoding would take (1 byte + one float per pixel: 1.9 GiB).
  const Bytes row_1bit(1 + 2500, 0);
  const Bytes stream = deflate_rows(row_1bit, 20000);
  ASSERT_EQ(inflated_size(stream), 2501ull * 20000);
  const std::string valid = file("valid_20000.png", make_png(20000, 20000, 1, 0, stream));
  EXPECT_LT(fs::file_size(valid), 64u << 10);
  expect_input_error(valid, "20000 x 20000 = 400000000 pixels, over the limit of 67108864 (decoding it would need 1.9 GiB");
  ++g_cases;
  // 60000 x 60000 RGB with a few rows of data: the limit again, 3 bytes + a float per pixel.
  const Bytes row_rgb(1 + 3 * 60000, 0);
  expect_input_error(file("claims_60000.png", make_png(60000, 60000, 8, 2, deflate_rows(row_rgb, 4))),
                     "3600000000 pixels, over the limit of 67108864 (decoding it would need 23.5 GiB");
  ++g_cases;

  // 2. The limit raised to let 20000 x 20000 through, but the stream holds 1000 of its rows: the
  // guard inflates it once (into 64 KiB) and refuses it before stb allocates the 50 MB it would.
  ImageLoadOptions big;
  big.max_pixels = 400000000;
  expect_input_error(file("short_20000.png", make_png(20000, 20000, 1, 0, deflate_rows(row_1bit, 1000))),
                     "image data ends after 2501000 bytes; its 20000 x 20000 header needs 50020000", big);
  ++g_cases;

  // 3. A zlib bomb: a 16 x 16 grey header (272 bytes of image data) whose stream inflates to
  // 256 MiB. stb would inflate all of it (growing its buffer to 512 MiB) and then accept the
  // image, since it tolerates data past the end. Refused, having inflated 64 KiB and a bit.
  const Bytes row16(17, 0);
  const Bytes bomb = make_png(16, 16, 8, 0, deflate_rows(row16, 16, 256u << 20));
  EXPECT_LT(bomb.size(), 300u << 10);
  const std::string bomb_path = file("bomb.png", bomb);
  const bool can_measure = reset_peak_memory();
  const std::uint64_t before = peak_memory();
  expect_input_error(bomb_path, "inflates to more than 65825 bytes, while its 16 x 16 header needs 272: a decompression bomb");
  if (can_measure && before > 0) {
    EXPECT_LT(peak_memory() - before, 32u << 20) << "the bomb was inflated into memory";
  } else {
    std::fprintf(stderr, "(peak memory not measurable here: /proc/self/clear_refs)\n");
  }
  ++g_cases;

  // 4. Around the exact size, with a pattern so that pixel values can be checked: 64 x 64 grey,
  // value (x + 3y) % 256. The stream split over 13-byte IDAT chunks must inflate across them.
  Bytes raw;
  for (std::uint32_t y = 0; y < 64; ++y) {
    raw.push_back(0);
    for (std::uint32_t x = 0; x < 64; ++x) raw.push_back(static_cast<std::uint8_t>((x + 3 * y) % 256));
  }
  auto expect_pattern = [&](const std::string& path) {
    const RealImage image = load_image(path);
    ASSERT_EQ(image.width, 64u);
    ASSERT_EQ(image.height, 64u);
    for (std::uint32_t y = 0; y < 64; ++y)
      for (std::uint32_t x = 0; x < 64; ++x)
        ASSERT_NEAR(image.data[y * 64 + x], static_cast<float>((x + 3 * y) % 256) / 255.0f, 1e-6f) << path << " " << x << "," << y;
  };
  auto stream_of = [&](std::size_t keep, std::size_t extra) {
    return deflate_rows(Bytes(raw.begin(), raw.begin() + static_cast<long>(keep)), 1, extra);
  };
  expect_pattern(file("exact_split.png", make_png(64, 64, 8, 0, stream_of(raw.size(), 0), 13)));
  // stb accepts data past the end of the image (a PNG in the wild had trailing zeros): so do we,
  // up to 1/16 + 64 KiB more than the header needs.
  expect_pattern(file("trailing.png", make_png(64, 64, 8, 0, stream_of(raw.size(), 4160 / 16 + 65536))));
  expect_input_error(file("trailing_too_much.png", make_png(64, 64, 8, 0, stream_of(raw.size(), 4160 / 16 + 65537))),
                     "a decompression bomb");
  // One byte short: refused (stb would refuse it too, after allocating the full size).
  expect_input_error(file("one_short.png", make_png(64, 64, 8, 0, stream_of(raw.size() - 1, 0), 13)),
                     "image data ends after 4159 bytes; its 64 x 64 header needs 4160");
  // A stream cut inside (no end): "is cut short".
  Bytes cut = stream_of(raw.size(), 0);
  cut.resize(cut.size() / 2);
  expect_input_error(file("cut.png", make_png(64, 64, 8, 0, cut)), "image data is cut short after");
  g_cases += 5;

  // 5. Adam7: the seed made by an encoder of its own (fuzz/make_seeds.py), rebuilt from its own
  // inflated data, whole and one byte short. Its size is the guard's per-pass sum.
  const Bytes seed = read_bytes(source_dir() / "fuzz/corpus/image_loader/rgb8_interlaced.png");
  Bytes seed_stream;
  for (std::size_t pos = 8; pos + 8 <= seed.size();) {
    const std::uint32_t length = static_cast<std::uint32_t>(seed[pos]) << 24 | seed[pos + 1] << 16 | seed[pos + 2] << 8 | seed[pos + 3];
    if (std::memcmp(&seed[pos + 4], "IDAT", 4) == 0)
      seed_stream.insert(seed_stream.end(), seed.begin() + static_cast<long>(pos + 8), seed.begin() + static_cast<long>(pos + 8 + length));
    pos += 12 + length;
  }
  Bytes seed_raw(inflated_size(seed_stream));
  uLongf raw_len = seed_raw.size();
  ASSERT_EQ(uncompress(seed_raw.data(), &raw_len, seed_stream.data(), static_cast<uLong>(seed_stream.size())), Z_OK);
  const RealImage original = load_image(file("seed.png", seed));
  const RealImage rebuilt = load_image(file("adam7.png", make_png(5, 5, 8, 2, deflate_rows(seed_raw, 1), 5, 1)));
  EXPECT_EQ(rebuilt.data, original.data);
  seed_raw.pop_back();
  expect_input_error(file("adam7_short.png", make_png(5, 5, 8, 2, deflate_rows(seed_raw, 1), 0, 1)),
                     "its 5 x 5 header needs " + std::to_string(seed_raw.size() + 1));
  g_cases += 2;
}

// --- degenerate shapes -----------------------------------------------------------------------
std::vector<ComplexD> brute_force_2d(const std::vector<ComplexD>& in, std::size_t w, std::size_t h) {
  std::vector<ComplexD> rows(in.size());
  for (std::size_t y = 0; y < h; ++y) {
    const std::vector<ComplexD> row(in.begin() + static_cast<long>(y * w), in.begin() + static_cast<long>((y + 1) * w));
    const auto out = brute_force_dft(row, Direction::forward);
    std::copy(out.begin(), out.end(), rows.begin() + static_cast<long>(y * w));
  }
  std::vector<ComplexD> result(in.size());
  for (std::size_t x = 0; x < w; ++x) {
    std::vector<ComplexD> col(h);
    for (std::size_t y = 0; y < h; ++y) col[y] = rows[y * w + x];
    const auto out = brute_force_dft(col, Direction::forward);
    for (std::size_t y = 0; y < h; ++y) result[y * w + x] = out[y];
  }
  return result;
}

TEST_F(BadInputs, OneByOneOneByNAndNByOneImages) {
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {{1, 1}, {1, 7}, {7, 1}, {1, 16}, {16, 1}, {1, 17}, {19, 1}};
  for (const auto& [w, h] : shapes) {
    RgbaImage rgba(w, h);
    for (std::size_t i = 0; i < w * h; ++i) {
      for (int c = 0; c < 3; ++c) rgba.data[i * 4 + static_cast<std::size_t>(c)] = static_cast<std::uint8_t>((i * 53 + 17) % 256);
      rgba.data[i * 4 + 3] = 255;
    }
    const std::string path = (dir_ / ("shape-" + std::to_string(w) + "x" + std::to_string(h) + ".png")).string();
    write_png(path, rgba);
    const RealImage image = load_image(path);
    ASSERT_EQ(image.width, w);
    ASSERT_EQ(image.height, h);
    for (std::size_t i = 0; i < w * h; ++i)
      EXPECT_NEAR(image.data[i], static_cast<float>((i * 53 + 17) % 256) / 255.0f, 1e-6f);

    ComplexImage data = to_complex(image);
    cpu::transform_2d(make_plan_2d(w, h), Direction::forward, data);
    std::vector<ComplexD> input(w * h);
    for (std::size_t i = 0; i < w * h; ++i) input[i] = ComplexD(image.data[i], 0.0);
    const auto expected = brute_force_2d(input, w, h);
    EXPECT_LE(relative_l2_error(data.data, expected), float_fft_tolerance(std::max(w, h), true))
        << w << " x " << h;
    if (w == 1 && h == 1) {
      EXPECT_NEAR(data.data[0].real(), image.data[0], 1e-6f);  // the DFT of one sample is itself
    }
    ++g_cases;
  }
}

// --- NPY ---------------------------------------------------------------------------------------
Bytes npy_file(const std::string& descr, const std::string& shape, bool fortran, const Bytes& payload) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
  dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
  dict += '\n';
  Bytes b = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<std::uint8_t>(dict.size() & 0xff), static_cast<std::uint8_t>(dict.size() >> 8)};
  b.insert(b.end(), dict.begin(), dict.end());
  b.insert(b.end(), payload.begin(), payload.end());
  return b;
}

Bytes f32_le(const std::vector<float>& values) {
  Bytes b;
  for (float v : values) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    put_le(b, u, 4);
  }
  return b;
}

TEST_F(BadInputs, NpyFilesWeDoNotRead) {
  struct Case {
    std::string name, descr, shape;
    bool fortran;
    Bytes payload;
    std::string reason;
  };
  const Bytes four = f32_le({1, 2, 3, 4});
  const std::vector<Case> cases = {
      {"float64", "<f8", "(2, 2)", false, Bytes(32, 0), "dtype '<f8' is not supported"},
      {"float16", "<f2", "(2, 2)", false, Bytes(8, 0), "dtype '<f2' is not supported"},
      {"int32", "<i4", "(2, 2)", false, Bytes(16, 0), "dtype '<i4' is not supported"},
      {"uint8", "|u1", "(2, 2)", false, Bytes(4, 0), "dtype '|u1' is not supported"},
      {"bool", "|b1", "(2, 2)", false, Bytes(4, 0), "dtype '|b1' is not supported"},
      {"complex128", "<c16", "(2, 2)", false, Bytes(64, 0), "dtype '<c16' is not supported"},
      {"object", "|O", "(2, 2)", false, Bytes(32, 0), "dtype '|O' is not supported"},
      {"big_endian_f4", ">f4", "(2, 2)", false, four, "dtype '>f4' is not supported"},
      {"big_endian_c8", ">c8", "(1, 2)", false, four, "dtype '>c8' is not supported"},
      {"rank0", "<f4", "()", false, f32_le({1}), "array has 0 dimensions"},
      {"rank1", "<f4", "(4,)", false, four, "array has 1 dimensions"},
      {"rank3", "<f4", "(1, 2, 2)", false, four, "array has 3 dimensions"},
      {"zero_rows", "<f4", "(0, 4)", false, {}, "zero dimension"},
      {"zero_cols", "<f4", "(4, 0)", false, {}, "zero dimension"},
      {"fortran", "<f4", "(2, 2)", true, four, "Fortran-order"},
      {"truncated", "<f4", "(2, 2)", false, f32_le({1, 2, 3}), "data is truncated"},
      {"truncated_c8", "<c8", "(2, 2)", false, four, "data is truncated"},
      {"extra", "<f4", "(2, 2)", false, f32_le({1, 2, 3, 4, 5}), "extra data"},
      {"nan", "<f4", "(2, 2)", false, f32_le({1, std::nanf(""), 3, 4}), "element (0, 1) is not finite"},
      {"inf", "<f4", "(2, 2)", false, f32_le({1, 2, std::numeric_limits<float>::infinity(), 4}), "element (1, 0) is not finite"},
      {"minus_inf", "<f4", "(1, 4)", false, f32_le({1, 2, 3, -std::numeric_limits<float>::infinity()}), "element (0, 3) is not finite"},
      {"nan_imag", "<c8", "(1, 2)", false, f32_le({1, 0, 2, std::nanf("")}), "element (0, 1) is not finite"},
  };
  for (const Case& c : cases) {
    const std::string path = file(c.name + ".npy", npy_file(c.descr, c.shape, c.fortran, c.payload));
    expect_error<InputError>([&] { read_npy(path); }, path, c.reason);
    expect_error<InputError>([&] { load_input(path); }, path, c.reason);
    ++g_cases;
  }
  // Header damage: cut inside the magic, the length, the dict; a dict that is not one.
  const Bytes good = npy_file("<f4", "(2, 2)", false, four);
  for (std::size_t cut : {3ul, 8ul, 9ul, 20ul, good.size() - 17}) {
    const std::string path = file("cut" + std::to_string(cut) + ".npy", Bytes(good.begin(), good.begin() + static_cast<long>(cut)));
    expect_error<InputError>([&] { read_npy(path); }, path, "");
    ++g_cases;
  }
  Bytes not_dict = good;
  not_dict[10] = '[';
  const std::string path = file("not_dict.npy", not_dict);
  expect_error<InputError>([&] { read_npy(path); }, path, "invalid NPY file");
  ++g_cases;
}

// --- NaN and infinity in the data ----------------------------------------------------------------
TEST_F(BadInputs, NonFiniteValuesAreReportedNotPropagated) {
  ComplexImage image(4, 3);
  EXPECT_FALSE(find_non_finite(image).has_value());
  image.at(2, 1) = Complex(std::numeric_limits<float>::infinity(), 0);
  image.at(3, 2) = Complex(0, std::nanf(""));
  const auto report = find_non_finite(image);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->count, 2u);
  EXPECT_EQ(report->first_x, 2u);
  EXPECT_EQ(report->first_y, 1u);
  EXPECT_TRUE(report->has_nan);
  expect_error<InputError>([&] { check_finite(image, "x.npy", "the spectrum"); }, "x.npy",
                           "the spectrum has 2 non-finite values (NaN), the first at (x 2, y 1)");
  RealImage real(2, 2);
  real.data[3] = -std::numeric_limits<float>::infinity();
  expect_error<InputError>([&] { check_finite(real, "y.png", "the image"); }, "y.png",
                           "the image has 1 non-finite value (infinity), the first at (x 1, y 1)");

  // A Radiance HDR file can hold values near FLT_MAX, each finite; their FFT overflows to
  // infinity. The loader must keep them finite, and the check names the overflow.
  std::string hdr = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\n";
  Bytes bytes = text_bytes(hdr);
  for (int i = 0; i < 4; ++i) bytes.insert(bytes.end(), {255, 255, 255, 255});
  const std::string path = file("bright.hdr", bytes);
  const RealImage loaded = load_image(path);
  EXPECT_FALSE(find_non_finite(loaded).has_value());
  EXPECT_GT(loaded.data[0], 1e37f);
  ComplexImage spectrum = to_complex(loaded);
  cpu::transform_2d(make_plan_2d(2, 2), Direction::forward, spectrum);
  expect_error<InputError>([&] { check_finite(spectrum, path, "the spectrum"); }, path, "(infinity)");
  g_cases += 3;
}

// --- outputs ----------------------------------------------------------------------------------
TEST_F(BadInputs, UnwritableOutputPathsLeaveNothing) {
  RgbaImage rgba(2, 2);
  const ComplexImage complex(2, 2);
  write_bytes(dir_ / "a-file", {1, 2, 3});
  fs::create_directories(dir_ / "a-folder");
  const std::vector<std::pair<std::string, std::string>> targets = {
      {(dir_ / "no-such-folder" / "out.png").string(), "cannot create a temporary file"},
      {(dir_ / "a-file" / "out.png").string(), "cannot create a temporary file"},
      {(dir_ / "a-folder").string(), "is a directory"},
      {"/proc/fftscope-out.png", "cannot create a temporary file"},
  };
  const auto before = leftovers();
  for (const auto& [path, reason] : targets) {
    expect_error<OutputError>([&] { write_png(path, rgba); }, path, reason);
    expect_error<OutputError>([&] { write_npy(path, complex); }, path, reason);
    g_cases += 2;
  }
  EXPECT_EQ(leftovers(), before) << "a failed write left a file behind";
  EXPECT_THROW(write_file_atomic("", {1}), OutputError);
  ++g_cases;

  if (::geteuid() != 0) {
    fs::create_directories(dir_ / "read-only");
    fs::permissions(dir_ / "read-only", fs::perms::owner_read | fs::perms::owner_exec);
    const std::string path = (dir_ / "read-only" / "out.png").string();
    expect_error<OutputError>([&] { write_png(path, rgba); }, path, "Permission denied");
    ++g_cases;
  }
}

// A write that fails half-way (here: the file-size limit, as a full disk would) leaves the
// previous export byte for byte, and no temporary file.
TEST_F(BadInputs, FailedExportKeepsThePreviousFile) {
  const fs::path target = dir_ / "spectrum.npy";
  ComplexImage small(4, 4);
  small.at(1, 1) = Complex(3, 4);
  write_npy(target.string(), small);
  const Bytes previous = read_bytes(target);

  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);  // get EFBIG instead of the signal
  rlimit limited = old;
  limited.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  const ComplexImage big(256, 256);  // 512 KiB of data
  std::string message;
  try {
    write_npy(target.string(), big);
  } catch (const OutputError& e) {
    message = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, old_handler);

  EXPECT_NE(message.find("'" + target.string() + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("cannot write"), std::string::npos) << message;
  EXPECT_EQ(read_bytes(target), previous) << "the previous export was damaged";
  EXPECT_EQ(leftovers(), std::vector<std::string>{"spectrum.npy"}) << "a temporary file was left behind";
  ++g_cases;
}

// --- memory limits -------------------------------------------------------------------------------
TEST_F(BadInputs, MemoryEstimateAndLimit) {
  const MemoryEstimate e = estimate_transform_memory(64, 32);
  EXPECT_EQ(e.buffers, 28u * 64 * 32);  // three complex64 buffers and an RGBA8 texture
  EXPECT_EQ(e.bluestein, 0u);
  EXPECT_EQ(e.bytes, e.buffers + e.tables + e.bluestein + e.four_step);
  // digit-reverse plus a twiddle per element and stage, per axis
  const auto axis = [](std::size_t n) { return 4u * n + 8u * n * make_plan(n).stages.size(); };
  EXPECT_EQ(e.tables, axis(64) + axis(32));
  EXPECT_GT(estimate_transform_memory(1021, 8).bluestein, 0u);  // 1021 is a prime: Bluestein rows

  EXPECT_NO_THROW(check_memory_limit(64, 32, 1 << 20, "a.png", "configured"));
  EXPECT_NO_THROW(check_memory_limit(64, 32, 0, "a.png", "configured"));  // 0: no limit
  expect_error<InputError>([] { check_memory_limit(8192, 8192, 1ull << 30, "big.png", "device's"); }, "big.png",
                           "a 8192 x 8192 transform needs 2.3 GiB of device memory, more than the device's limit of 1.0 GiB");

  ::setenv("FFTSCOPE_MEMORY_LIMIT_MB", "512", 1);
  EXPECT_EQ(configured_memory_limit(), 512ull << 20);
  ::setenv("FFTSCOPE_MEMORY_LIMIT_MB", "lots", 1);
  EXPECT_THROW(configured_memory_limit(), UsageError);
  ::unsetenv("FFTSCOPE_MEMORY_LIMIT_MB");
  EXPECT_EQ(configured_memory_limit(), 0u);
  g_cases += 2;
}

// --- what the fuzzers found --------------------------------------------------------------------
TEST_F(BadInputs, FuzzRegressionsAreRefusedCleanly) {
  const fs::path folder = source_dir() / "fuzz/regressions/image_loader";
  int count = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string path = entry.path().string();
    const auto start = std::chrono::steady_clock::now();
    Tally tally;  // refused, or (the JPEG whose bit reader shifted by 32) decoded as a whole image
    load_damaged(path, nullptr, tally);
    EXPECT_EQ(tally.refused + tally.loaded, 1) << path;
    // The HDR inputs once made stb_image loop forever.
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << path;
    ++count;
    ++g_cases;
  }
  EXPECT_GE(count, 9);
  // The guard's own messages for each hazard.
  expect_input_error((folder / "jpeg_dht_over_256_codes.jpg").string(), "more than 256");
  expect_input_error((folder / "png_idat_huge_length.png").string(), "claims 1835560547 bytes but only 27 remain");
  expect_input_error((folder / "hdr_rle_empty_run.hdr").string(), "empty run");
  expect_input_error((folder / "hdr_rle_truncated.hdr").string(), "ends inside a scanline");
  expect_input_error((folder / "hdr_header_line_of_nuls_rle_empty_run.hdr").string(), "ends inside a scanline");
  expect_input_error((folder / "hdr_width_after_form_feeds_rle_hang.hdr").string(), "corrupt HDR");
  expect_input_error((folder / "jpeg_scan_uses_undefined_huffman_table.jpg").string(),
                     "uses AC Huffman table 0, which no earlier DHT defines");
  EXPECT_EQ(stb_components_to_request(read_bytes(folder / "pic_corrupt_null_convert.pic")), 4);
}

#ifdef FFTSCOPE_TEST_SETTINGS_STORE
TEST_F(BadInputs, SettingsFileWithBadValuesKeepsDefaults) {
  ::setenv("XDG_CONFIG_HOME", dir_.c_str(), 1);
  fs::create_directories(dir_ / "fftscope");
  const Bytes nan_file = read_bytes(source_dir() / "fuzz/regressions/settings/ui_scale_nan.ini");
  ASSERT_FALSE(nan_file.empty());
  for (const Bytes& contents : {nan_file, text_bytes("ui_scale=inf\n"), text_bytes("ui_scale=-nan\n"),
                                text_bytes("ui_scale=1e99\ntheme=light\n"), text_bytes("\x01\x02\xff=\n=\n")}) {
    write_bytes(dir_ / "fftscope" / "settings.ini", contents);
    const gui::StoredSettings s = gui::load_settings();
    EXPECT_TRUE(s.ui_scale == 0 || (s.ui_scale >= 0.5f && s.ui_scale <= 4.0f)) << s.ui_scale;
    ++g_cases;
  }
  ::unsetenv("XDG_CONFIG_HOME");
}
#endif

// Reports how many bad inputs this run tried (the figure docs/reliability.md quotes).
TEST(BadInputsSummary, ZZCount) {
  std::printf("[ bad inputs ] %d tried in this process\n", g_cases);
  SUCCEED();
}

}  // namespace
}  // namespace fftscope
