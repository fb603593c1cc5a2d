// fftscope-cli end to end: the built binary runs as a child process on inputs written here,
// and its outputs are read back and checked against FFTW (double) or closed forms. Every error
// path is checked for its exit code, a single stderr line naming the file, and no file left behind.

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/image_io.h"
#include "core/plan.h"
#include "core/spectrum.h"
#include "support/gpu_skip.h"
#include "support/reference.h"

extern char** environ;

namespace fftscope::test {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Running the CLI

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs fftscope-cli with `args`; stdout and stderr go through files in `scratch`.
CliResult run_cli(const std::vector<std::string>& args, const fs::path& scratch) {
  const std::string out_path = (scratch / "stdout.txt").string();
  const std::string err_path = (scratch / "stderr.txt").string();
  std::vector<std::string> words{FFTSCOPE_CLI_PATH};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  CliResult result;
  if (spawned != 0) {
    result.err = std::string("posix_spawn failed: ") + std::strerror(spawned);
    return result;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return result;
}

std::string describe(const CliResult& r) {
  return "exit " + std::to_string(r.code) + "\n--- stdout:\n" + r.out + "--- stderr:\n" + r.err;
}

std::size_t line_count(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// ---------------------------------------------------------------------------------------------
// Inputs written independently of the code under test

/// Writes an NPY v1.0 file by hand (not through core's encoder).
void write_raw_npy(const fs::path& path, const std::string& descr, const std::string& shape, bool fortran,
                   const void* data, std::size_t bytes) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  file += header;
  file.append(static_cast<const char*>(data), bytes);
  std::ofstream(path, std::ios::binary) << file;
}

void write_real_npy(const fs::path& path, const std::vector<float>& v, std::size_t width, std::size_t height) {
  write_raw_npy(path, "<f4", "(" + std::to_string(height) + ", " + std::to_string(width) + ")", false, v.data(),
                v.size() * sizeof(float));
}

void write_complex_npy(const fs::path& path, const std::vector<Complex>& v, std::size_t width, std::size_t height) {
  write_raw_npy(path, "<c8", "(" + std::to_string(height) + ", " + std::to_string(width) + ")", false, v.data(),
                v.size() * sizeof(Complex));
}

std::vector<float> random_real(std::size_t n, std::uint64_t seed) {
  std::vector<float> v;
  for (const ComplexD& c : random_complex(n, seed)) v.push_back(static_cast<float>(c.real()));
  return v;
}

std::vector<ComplexD> widen(const std::vector<float>& v) { return {v.begin(), v.end()}; }

/// FFTW along each row of a row-major width x height array.
std::vector<ComplexD> fftw_rows(const std::vector<ComplexD>& in, std::size_t width, std::size_t height,
                                Direction direction) {
  std::vector<ComplexD> out(in.size());
  for (std::size_t y = 0; y < height; ++y) {
    const std::vector<ComplexD> row(in.begin() + static_cast<std::ptrdiff_t>(y * width),
                                    in.begin() + static_cast<std::ptrdiff_t>((y + 1) * width));
    const auto t = fftw_1d(row, direction);
    std::copy(t.begin(), t.end(), out.begin() + static_cast<std::ptrdiff_t>(y * width));
  }
  return out;
}

/// Mixed-radix digit reversal, written from the definition: position n, with digits d_s of n in
/// the radices (least significant first), holds input element sum_s d_s * prod_{t > s} r_t.
std::size_t digit_reversed(std::size_t n, const std::vector<std::uint32_t>& radices) {
  std::size_t index = 0;
  for (std::uint32_t r : radices) {
    index = index * r + n % r;
    n /= r;
  }
  return index;
}

/// The buffer of a length-N decimation-in-time FFT after its first `k` stages (closed form):
/// with L the product of those radices, block b holds the length-L DFT of x[m * N / L + c],
/// m = 0..L-1, c = the digit reversal of b * L. Brute force in double.
std::vector<ComplexD> after_stages(const std::vector<ComplexD>& x, const std::vector<std::uint32_t>& radices,
                                   std::size_t k) {
  const std::size_t n = x.size();
  std::size_t l = 1;
  for (std::size_t s = 0; s < k; ++s) l *= radices[s];
  std::vector<ComplexD> out(n);
  for (std::size_t b = 0; b < n / l; ++b) {
    const std::size_t c = digit_reversed(b * l, radices);
    for (std::size_t f = 0; f < l; ++f) {
      ComplexD sum = 0;
      for (std::size_t m = 0; m < l; ++m) {
        const double angle = -2 * std::numbers::pi * static_cast<double>((m * f) % l) / static_cast<double>(l);
        sum += x[m * (n / l) + c] * std::polar(1.0, angle);
      }
      out[b * l + f] = sum;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A scratch folder per test, with a check that failures leave nothing behind

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "fftscope-cli-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    scratch_ = dir_ / "scratch";
    fs::create_directory(scratch_);
  }
  void TearDown() override {
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(dir_, ec)) fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  CliResult cli(const std::vector<std::string>& args) const { return run_cli(args, scratch_); }

  /// Every file under the test folder (hidden temporaries included), scratch excluded.
  std::set<std::string> files() const {
    std::set<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      if (e.path().string().rfind(scratch_.string(), 0) != 0) names.insert(e.path().string());
    }
    return names;
  }

  /// Runs a command that must fail with `code`: one stderr line that mentions `mention`,
  /// nothing on the file system changed.
  void expect_failure(const std::vector<std::string>& args, int code, const std::string& mention) {
    const auto before = files();
    const CliResult r = cli(args);
    EXPECT_EQ(r.code, code) << describe(r);
    EXPECT_EQ(line_count(r.err), 1u) << "expected exactly one error line\n" << describe(r);
    EXPECT_NE(r.err.find(mention), std::string::npos) << "the message should mention '" << mention << "'\n"
                                                      << describe(r);
    EXPECT_EQ(files(), before) << "a failed command must leave no file behind\n" << describe(r);
  }

  /// Writes a small valid input (8 x 4 random real NPY) and returns its path.
  std::string small_input(const std::string& name = "in.npy") const {
    const std::string p = path(name);
    write_real_npy(p, random_real(8 * 4, 2), 8, 4);
    return p;
  }

  fs::path dir_;
  fs::path scratch_;
};


// ---------------------------------------------------------------------------------------------
// fft

struct FftCase {
  std::size_t width, height;
};

void PrintTo(const FftCase& c, std::ostream* os) { *os << c.width << "x" << c.height; }

class CliFftSizes : public Cli, public ::testing::WithParamInterface<FftCase> {};

TEST_P(CliFftSizes, RealNpyMatchesFftw) {
  const auto [w, h] = GetParam();
  const auto x = random_real(w * h, 7 + w * 131 + h);
  write_real_npy(path("in.npy"), x, w, h);
  const CliResult r = cli({"fft", path("in.npy"), "-o", path("out.npy")});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_TRUE(r.err.empty()) << describe(r);

  // The header is checked byte for byte, independently of core's NPY reader.
  const std::string bytes = slurp(path("out.npy"));
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  EXPECT_NE(bytes.find("'descr': '<c8'"), std::string::npos);
  EXPECT_NE(bytes.find("'fortran_order': False"), std::string::npos);
  EXPECT_NE(bytes.find("'shape': (" + std::to_string(h) + ", " + std::to_string(w) + ")"), std::string::npos);

  const NpyArray out = read_npy(path("out.npy"));
  ASSERT_TRUE(out.is_complex);
  ASSERT_EQ(out.width, w);
  ASSERT_EQ(out.height, h);
  const bool bluestein = make_plan_2d(w, h).rows.uses_bluestein() || make_plan_2d(w, h).cols.uses_bluestein();
  const double tol = float_fft_tolerance(w * h, bluestein);
  EXPECT_LE(relative_l2_error(out.values.data, fftw_2d(widen(x), w, h, Direction::forward)), tol);
}

INSTANTIATE_TEST_SUITE_P(Sizes, CliFftSizes,
                         ::testing::Values(FftCase{1, 1}, FftCase{8, 4}, FftCase{64, 48}, FftCase{17, 13},
                                           FftCase{37, 20}, FftCase{1, 7}, FftCase{30, 1}, FftCase{105, 16}),
                         [](const auto& param_info) {
                           return std::to_string(param_info.param.width) + "x" + std::to_string(param_info.param.height);
                         });

TEST_F(Cli, FftInverseOfComplexNpyMatchesFftw) {
  const std::size_t w = 24, h = 10;
  const auto x = random_complex(w * h, 99);
  write_complex_npy(path("in.npy"), to_float(x), w, h);
  const CliResult r = cli({"fft", path("in.npy"), "-o", path("out.npy"), "--inverse"});
  ASSERT_EQ(r.code, 0) << describe(r);
  const NpyArray out = read_npy(path("out.npy"));
  ASSERT_EQ(out.width, w);
  ASSERT_EQ(out.height, h);
  EXPECT_LE(relative_l2_error(out.values.data, fftw_2d(to_double(to_float(x)), w, h, Direction::inverse)),
            float_fft_tolerance(w * h));
}

TEST_F(Cli, FftThenInverseGivesTheInputBack) {
  const std::size_t w = 20, h = 9;
  const auto x = random_real(w * h, 5);
  write_real_npy(path("in.npy"), x, w, h);
  ASSERT_EQ(cli({"fft", path("in.npy"), "-o", path("spec.npy")}).code, 0);
  const CliResult r = cli({"fft", path("spec.npy"), "-o", path("back.npy"), "--inverse"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_LE(relative_l2_error(read_npy(path("back.npy")).values.data, widen(x)), 2 * float_fft_tolerance(w * h));
}

TEST_F(Cli, FftOfAnImageUsesItsPixelValuesAndChannels) {
  const std::size_t w = 12, h = 10;
  RgbaImage img(w, h);
  const auto noise = random_complex(w * h * 2, 11);
  for (std::size_t i = 0; i < w * h; ++i) {
    img.data[4 * i + 0] = static_cast<std::uint8_t>(std::lround(127.5 + 127.5 * noise[2 * i].real()));
    img.data[4 * i + 1] = static_cast<std::uint8_t>(std::lround(127.5 + 127.5 * noise[2 * i].imag()));
    img.data[4 * i + 2] = static_cast<std::uint8_t>(std::lround(127.5 + 127.5 * noise[2 * i + 1].real()));
    img.data[4 * i + 3] = static_cast<std::uint8_t>(i % 256);  // alpha must be ignored
  }
  write_png(path("in.png"), img);

  for (const std::string channel : {"luma", "r", "g", "b"}) {
    SCOPED_TRACE(channel);
    std::vector<std::string> args{"fft", path("in.png"), "-o", path("out.npy")};
    if (channel != "luma") args.insert(args.end(), {"--channel", channel});
    const CliResult r = cli(args);
    ASSERT_EQ(r.code, 0) << describe(r);
    std::vector<ComplexD> expected(w * h);
    for (std::size_t i = 0; i < w * h; ++i) {
      const double rr = img.data[4 * i] / 255.0, gg = img.data[4 * i + 1] / 255.0, bb = img.data[4 * i + 2] / 255.0;
      expected[i] = channel == "r"   ? rr
                    : channel == "g" ? gg
                    : channel == "b" ? bb
                                     : 0.2126 * rr + 0.7152 * gg + 0.0722 * bb;
    }
    const NpyArray out = read_npy(path("out.npy"));
    ASSERT_EQ(out.width, w);
    ASSERT_EQ(out.height, h);
    EXPECT_LE(relative_l2_error(out.values.data, fftw_2d(expected, w, h, Direction::forward)),
              float_fft_tolerance(w * h));
  }
}

// ---------------------------------------------------------------------------------------------
// spectrum: a cosine grating has exactly two peaks, whose pixels are known in closed form

struct Peaks {
  std::size_t width, height, k;
};

/// cos(2 pi k x / W): its DFT is W H / 2 at (k, 0) and (W - k, 0) and zero elsewhere.
void write_grating(const std::string& file, std::size_t w, std::size_t h, std::size_t k) {
  std::vector<float> v(w * h);
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x)
      v[y * w + x] = static_cast<float>(std::cos(2 * std::numbers::pi * static_cast<double>(k * x) / static_cast<double>(w)));
  write_real_npy(file, v, w, h);
}

/// Reads the PNG back through stb (core) as RGB bytes per pixel.
std::vector<std::array<int, 3>> read_rgb(const std::string& file, std::size_t& w, std::size_t& h) {
  std::vector<std::array<int, 3>> px;
  for (const Channel c : {Channel::r, Channel::g, Channel::b}) {
    ImageLoadOptions o;
    o.channel = c;
    const RealImage img = load_image(file, o);
    w = img.width;
    h = img.height;
    px.resize(img.data.size());
    for (std::size_t i = 0; i < img.data.size(); ++i)
      px[i][static_cast<std::size_t>(c) - 1] = static_cast<int>(std::lround(img.data[i] * 255));
  }
  return px;
}

void PrintTo(const Peaks& c, std::ostream* os) { *os << c.width << "x" << c.height << " k=" << c.k; }

class CliSpectrumPeaks : public Cli, public ::testing::WithParamInterface<Peaks> {};

TEST_P(CliSpectrumPeaks, ShiftedAndUnshiftedPeaksLandWhereExpected) {
  const Peaks p = GetParam();
  const std::size_t w = p.width, h = p.height, k = p.k;
  write_grating(path("in.npy"), w, h, k);
  for (const bool shift : {true, false}) {
    SCOPED_TRACE(shift ? "shifted" : "unshifted");
    std::vector<std::string> args{"spectrum", path("in.npy"), "-o", path("out.png")};
    if (!shift) args.push_back("--no-shift");
    const CliResult r = cli(args);
    ASSERT_EQ(r.code, 0) << describe(r);
    std::size_t ow = 0, oh = 0;
    const auto px = read_rgb(path("out.png"), ow, oh);
    ASSERT_EQ(ow, w);
    ASSERT_EQ(oh, h);
    // The zero frequency sits at (W/2, H/2) after a true fftshift (odd sizes included).
    auto at = [&](std::size_t kx, std::size_t ky) {
      return shift ? ((ky + h / 2) % h) * w + (kx + w / 2) % w : ky * w + kx;
    };
    const std::set<std::size_t> peaks{at(k, 0), at(w - k, 0)};
    for (std::size_t i = 0; i < px.size(); ++i) {
      const bool peak = peaks.count(i) != 0;
      // Gray: R = G = B; the peaks take the top of the range, the exact zeros (float noise
      // of relative size 1e-6 on a log(1 + W H / 2) scale) stay black.
      ASSERT_EQ(px[i][0], px[i][1]);
      ASSERT_EQ(px[i][1], px[i][2]);
      if (peak) {
        EXPECT_EQ(px[i][0], 255) << "peak pixel " << i;
      } else {
        EXPECT_LE(px[i][0], 2) << "pixel " << i << " (" << i % w << ", " << i / w << ")";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Gratings, CliSpectrumPeaks,
                         ::testing::Values(Peaks{16, 8, 3}, Peaks{15, 9, 4}, Peaks{32, 17, 5}),
                         [](const auto& param_info) {
                           return std::to_string(param_info.param.width) + "x" + std::to_string(param_info.param.height);
                         });

TEST_F(Cli, SpectrumColormapAndComponentsAreApplied) {
  write_grating(path("in.npy"), 16, 8, 3);
  const CliResult r = cli({"spectrum", path("in.npy"), "-o", path("v.png"), "--colormap", "viridis"});
  ASSERT_EQ(r.code, 0) << describe(r);
  std::size_t w = 0, h = 0;
  const auto px = read_rgb(path("v.png"), w, h);
  const auto& table = colormap_table(Colormap::viridis);
  const std::size_t peak = 4 * 16 + 8 + 3;
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(px[peak][static_cast<std::size_t>(c)], table[255][static_cast<std::size_t>(c)], 1);
    EXPECT_NEAR(px[0][static_cast<std::size_t>(c)], table[0][static_cast<std::size_t>(c)], 1);
  }
  for (const std::string comp : {"phase", "real", "imaginary", "phase-hue", "magnitude"}) {
    for (const std::string scale : {"log", "linear"}) {
      const CliResult c = cli({"spectrum", path("in.npy"), "-o", path("c.png"), "--component", comp, "--scale", scale});
      EXPECT_EQ(c.code, 0) << comp << " " << scale << "\n" << describe(c);
      EXPECT_TRUE(fs::exists(path("c.png")));
    }
  }
}

TEST_F(Cli, SpectrumOfEveryBundledAssetHasItsSize) {
  const char* src = std::getenv("FFTSCOPE_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  const fs::path assets = fs::path(src) / "assets";
  std::size_t done = 0;
  if (fs::is_directory(assets)) {
    for (const auto& e : fs::directory_iterator(assets)) {
      const std::string ext = e.path().extension().string();
      if (ext != ".png" && ext != ".jpg" && ext != ".jpeg") continue;
      SCOPED_TRACE(e.path().string());
      const ImageInfo info = probe_image(e.path().string());
      if (info.width * info.height > (1u << 22)) continue;  // keep the test quick
      const CliResult r = cli({"spectrum", e.path().string(), "-o", path("a.png"), "--colormap", "inferno"});
      ASSERT_EQ(r.code, 0) << describe(r);
      const ImageInfo out = probe_image(path("a.png"));
      EXPECT_EQ(out.width, info.width);
      EXPECT_EQ(out.height, info.height);
      ++done;
    }
  }
  if (done == 0) GTEST_SKIP() << "no PNG or JPEG under " << assets;
}

// ---------------------------------------------------------------------------------------------
// plan

std::vector<std::size_t> json_array(const std::string& json, const std::string& key) {
  const std::regex re("\"" + key + "\": \\[([0-9, ]*)\\]");
  std::smatch m;
  if (!std::regex_search(json, m, re)) return {};
  std::vector<std::size_t> v;
  std::istringstream in(m[1].str());
  std::string item;
  while (std::getline(in, item, ',')) v.push_back(std::stoul(item));
  return v;
}

TEST_F(Cli, PlanJsonHasRadicesWhoseProductIsNAndTheDigitReverseTable) {
  for (const std::size_t n : {1u, 2u, 8u, 12u, 30u, 64u, 97u, 210u, 1000u, 4096u}) {
    for (const std::string max_radix : {"2", "4", "8"}) {
      SCOPED_TRACE("N = " + std::to_string(n) + ", max radix " + max_radix);
      const CliResult r = cli({"plan", std::to_string(n), "--json", "--max-radix", max_radix});
      ASSERT_EQ(r.code, 0) << describe(r);
      EXPECT_NE(r.out.find("\"n\": " + std::to_string(n)), std::string::npos);
      EXPECT_NE(r.out.find("\"stages\""), std::string::npos);
      const auto radices = json_array(r.out, "radices");
      std::size_t product = 1;
      std::vector<std::uint32_t> r32;
      for (std::size_t x : radices) {
        product *= x;
        r32.push_back(static_cast<std::uint32_t>(x));
        if ((x & (x - 1)) == 0) {
          EXPECT_LE(x, std::stoul(max_radix)) << "power-of-two radix over --max-radix";
        }
      }
      EXPECT_EQ(product, n);
      const auto table = json_array(r.out, "digit_reverse");
      ASSERT_EQ(table.size(), n);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(table[i], digit_reversed(i, r32)) << "position " << i;
    }
  }
}

TEST_F(Cli, PlanTextListsStagesDigitReverseAndTwiddles) {
  CliResult r = cli({"plan", "8", "--max-radix", "2"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("radices: 2 2 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("digit-reverse"), std::string::npos);
  EXPECT_NE(r.out.find("twiddle"), std::string::npos);
  // Bit reversal of 3 bits: position 1 holds input 4, position 3 holds input 6.
  EXPECT_NE(r.out.find("1 <- 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 <- 6"), std::string::npos) << r.out;
  r = cli({"plan", "8", "--no-twiddles"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(r.out.find("twiddle"), std::string::npos) << r.out;
}

// ---------------------------------------------------------------------------------------------
// stages

struct StageCase {
  std::size_t width, height;
  std::string axis;
  std::string max_radix;
};

void PrintTo(const StageCase& c, std::ostream* os) {
  *os << c.width << "x" << c.height << " " << c.axis << " max radix " << c.max_radix;
}

class CliStages : public Cli, public ::testing::WithParamInterface<StageCase> {};

TEST_P(CliStages, EveryStageMatchesTheClosedForm) {
  const StageCase c = GetParam();
  const std::size_t w = c.width, h = c.height;
  const auto x = random_complex(w * h, 3 + w + h);
  const auto xf = to_float(x);
  write_complex_npy(path("in.npy"), xf, w, h);
  PlanOptions options;
  options.max_power_of_two_radix = static_cast<std::uint32_t>(std::stoul(c.max_radix));
  const Plan2D plan = make_plan_2d(w, h, options);
  const bool rows = c.axis == "rows";
  const Plan1D& axis_plan = rows ? plan.rows : plan.cols;
  const auto radices = axis_plan.radices();
  const auto input = to_double(xf);
  // With --axis cols the rows are fully transformed first.
  const auto base = rows ? input : fftw_rows(input, w, h, Direction::forward);

  for (std::size_t k = 0; k <= radices.size(); ++k) {
    SCOPED_TRACE("stage " + std::to_string(k));
    const CliResult r = cli({"stages", path("in.npy"), "--stage", std::to_string(k), "--axis", c.axis, "-o",
                             path("out.npy"), "--max-radix", c.max_radix});
    ASSERT_EQ(r.code, 0) << describe(r);
    const NpyArray out = read_npy(path("out.npy"));
    ASSERT_EQ(out.width, w);
    ASSERT_EQ(out.height, h);
    std::vector<ComplexD> expected(w * h);
    if (rows) {
      for (std::size_t y = 0; y < h; ++y) {
        const std::vector<ComplexD> line(base.begin() + static_cast<std::ptrdiff_t>(y * w),
                                         base.begin() + static_cast<std::ptrdiff_t>((y + 1) * w));
        const auto t = after_stages(line, radices, k);
        std::copy(t.begin(), t.end(), expected.begin() + static_cast<std::ptrdiff_t>(y * w));
      }
    } else {
      for (std::size_t xx = 0; xx < w; ++xx) {
        std::vector<ComplexD> line(h);
        for (std::size_t y = 0; y < h; ++y) line[y] = base[y * w + xx];
        const auto t = after_stages(line, radices, k);
        for (std::size_t y = 0; y < h; ++y) expected[y * w + xx] = t[y];
      }
    }
    EXPECT_LE(relative_l2_error(out.values.data, expected), float_fft_tolerance(w * h));
    if (k == 0 && rows) {
      // The gather alone is a permutation: bit-exact.
      EXPECT_EQ(max_abs_error(out.values.data, expected), 0.0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Axes, CliStages,
                         ::testing::Values(StageCase{16, 4, "rows", "2"}, StageCase{24, 6, "rows", "4"},
                                           StageCase{60, 3, "rows", "8"}, StageCase{5, 12, "cols", "4"},
                                           StageCase{6, 32, "cols", "2"}, StageCase{4, 210, "cols", "8"}),
                         [](const auto& param_info) {
                           return std::to_string(param_info.param.width) + "x" + std::to_string(param_info.param.height) + "_" +
                                  param_info.param.axis + "_max" + param_info.param.max_radix;
                         });

TEST_F(Cli, LastStageOfColsIsTheWholeTransformAndInverseWorks) {
  const std::size_t w = 10, h = 14;
  const auto x = random_complex(w * h, 21);
  write_complex_npy(path("in.npy"), to_float(x), w, h);
  const std::size_t s = make_plan(h).stage_count();
  const CliResult r = cli({"stages", path("in.npy"), "--stage", std::to_string(s), "--axis", "cols", "--inverse",
                           "-o", path("out.npy")});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_LE(relative_l2_error(read_npy(path("out.npy")).values.data,
                              fftw_2d(to_double(to_float(x)), w, h, Direction::inverse)),
            float_fft_tolerance(w * h));
}

TEST_F(Cli, StageOutOfRangeNamesTheValidRange) {
  write_real_npy(path("in.npy"), random_real(16 * 4, 1), 16, 4);
  // 16 with radix 4 at most: two stages, so K must be 0..2.
  expect_failure({"stages", path("in.npy"), "--stage", "3", "-o", path("out.npy")}, 2, "0..2");
  expect_failure({"stages", path("in.npy"), "--stage", "3", "-o", path("out.npy")}, 2, path("in.npy"));
  // Columns of length 4: one radix-4 stage.
  expect_failure({"stages", path("in.npy"), "--stage", "2", "--axis", "cols", "-o", path("out.npy")}, 2, "0..1");
  expect_failure({"stages", path("in.npy"), "--stage", "-1", "-o", path("out.npy")}, 2, "--stage");
  expect_failure({"stages", path("in.npy"), "--stage", "x", "-o", path("out.npy")}, 2, "--stage");
  expect_failure({"stages", path("in.npy"), "-o", path("out.npy")}, 2, "--stage");
  expect_failure({"stages", path("in.npy"), "--stage", "1", "--axis", "diagonal", "-o", path("out.npy")}, 2,
                 "--axis");
}

// ---------------------------------------------------------------------------------------------
// bench and devices

TEST_F(Cli, BenchPrintsPerKernelMediansAndTheTotal) {
  CliResult r = cli({"bench", "--backend", "cpu", "--size", "32x16", "--repeat", "3", "--warmup", "1"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("median ms"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("total (sum of kernel medians"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("host-measured"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("32 x 16"), std::string::npos) << r.out;

  r = cli({"bench", "--size", "24", "--repeat", "4", "--warmup", "0", "--json", "--variant", "plain"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(r.out.front(), '{');
  EXPECT_NE(r.out.find("\"width\": 24, \"height\": 24"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"variant\": \"plain\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"kernels\": ["), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"count\": 4"), std::string::npos) << "every measured run is counted\n" << r.out;
  EXPECT_NE(r.out.find("\"total_median_ms\": "), std::string::npos) << r.out;
}

// The device warmed first: at least --warmup-ms of batches (core's warm_until_steady), none at 0.
TEST_F(Cli, BenchWarmsTheDeviceForWarmupMs) {
  const auto warmed_ms = [](const std::string& out) {
    const std::size_t at = out.find("\"warmed_ms\": ");
    return at == std::string::npos ? -1.0 : std::stod(out.substr(at + 13));
  };
  CliResult r = cli({"bench", "--backend", "cpu", "--size", "16x8", "--repeat", "2", "--warmup-ms", "60", "--json"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_GE(warmed_ms(r.out), 60.0) << r.out;
  r = cli({"bench", "--backend", "cpu", "--size", "16x8", "--repeat", "2", "--warmup-ms", "0", "--json"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(warmed_ms(r.out), 0.0) << r.out;
  r = cli({"bench", "--backend", "cpu", "--size", "16x8", "--repeat", "2", "--warmup-ms", "0"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("after 2 warm-up run(s) and 0 ms of warming"), std::string::npos) << r.out;
  expect_failure({"bench", "--size", "8x8", "--warmup-ms", "-1"}, 2, "--warmup-ms");
}

TEST_F(Cli, BenchRefusesBadSizes) {
  for (const std::string size : {"0x5", "5x0", "axb", "12x", "x12", "3x4x5", "-3x4", "", "1.5x2", "99999999999x2"}) {
    SCOPED_TRACE("--size '" + size + "'");
    expect_failure({"bench", "--size", size, "--repeat", "1"}, 2, "--size");
  }
  expect_failure({"bench", "--size", "20x20", "--max-pixels", "100"}, 2, "--max-pixels");
  expect_failure({"bench", "--repeat", "1"}, 2, "--size");
  expect_failure({"bench", "--size", "8x8", "--repeat", "0"}, 2, "--repeat");
  expect_failure({"bench", "--sweep", "--sizes", "8x8", "--impl", "fftw", "--rounds", "0"}, 2, "--rounds");
  expect_failure({"bench", "--sweep", "--sizes", "8x8", "--impl", "fftw", "--fftw-planning-ms", "0"}, 2,
                 "--fftw-planning-ms");
  expect_failure({"bench", "--size", "8x8", "--backend", "cpu", "--fftw-planning-ms", "5"}, 2, "--sweep");
  expect_failure({"bench", "--size", "8x8", "--variant", "turbo"}, 2, "turbo");
  expect_failure({"bench", "--size", "8x8", "--backend", "cpu", "--real-display"}, 2, "--real-display");
  expect_failure({"bench", "--size", "8x8", "--backend", "cpu", "-o", path("b.json")}, 2, "--sweep");
}

#ifdef FFTSCOPE_HAVE_BENCH
// -o keeps the sweep's JSON in a file, rewritten after each entry: at the end it is what --json
// prints; a bad -o is refused before any work (-o without --sweep: BenchRefusesBadSizes).
TEST_F(Cli, SweepWritesItsJsonToTheOutputFile) {
  const std::vector<std::string> sweep{"bench", "--sweep", "--impl", "fftw", "--sizes", "16x8,12x6", "--repeat", "2",
                                       "--warmup", "0", "--warmup-ms", "0", "--copy-bandwidth", "100"};
  const auto with = [&](const std::vector<std::string>& more) {
    std::vector<std::string> all = sweep;
    all.insert(all.end(), more.begin(), more.end());
    return all;
  };
  const std::vector<std::string> args = with({"--json", "-o", path("sweep.json")});
  const CliResult r = cli(args);
  ASSERT_EQ(r.code, 0) << describe(r);
  ASSERT_TRUE(fs::exists(path("sweep.json")));
  const std::string written = slurp(path("sweep.json"));
  EXPECT_EQ(written, r.out);
  EXPECT_NE(written.find("\"copy_bandwidth_gbs\": 100"), std::string::npos) << written;
  EXPECT_NE(written.find("\"width\": 12, \"height\": 6"), std::string::npos) << written;

  expect_failure(with({"-o", path("sweep.txt")}), 2, ".json");
  expect_failure(with({"-o", path("missing/sweep.json")}), 5, "missing");
}
#endif

TEST_F(Cli, DevicesListsTheCpuAndEveryOtherBackend) {
  CliResult r = cli({"devices"});
  ASSERT_EQ(r.code, 0) << describe(r);
  for (const std::string b : {"cpu", "gl", "cl"}) EXPECT_NE(r.out.find("\n" + b + " "), std::string::npos) << r.out;
  r = cli({"devices", "--json"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(r.out.front(), '[');
  EXPECT_NE(r.out.find("\"backend\": \"cpu\""), std::string::npos) << r.out;
}

// ---------------------------------------------------------------------------------------------
// GPU backends through the CLI: they work (checked against FFTW) where compiled in and
// available, are refused with exit 4 and a clear reason where not.

class CliGpuBackend : public Cli, public ::testing::WithParamInterface<std::string> {};

bool compiled_in(const std::string& backend) {
#ifdef FFTSCOPE_HAVE_GL
  if (backend == "gl") return true;
#endif
#ifdef FFTSCOPE_HAVE_CL
  if (backend == "cl") return true;
#endif
  return backend == "cpu";
}

TEST_P(CliGpuBackend, FftSpectrumStagesAndBenchOrAClearRefusal) {
  const std::string backend = GetParam();
  const std::size_t w = 24, h = 10;
  const auto x = random_complex(w * h, 17);
  write_complex_npy(path("in.npy"), to_float(x), w, h);
  const std::vector<std::string> fft{"fft", path("in.npy"), "-o", path("out.npy"), "--backend", backend};

  if (!compiled_in(backend)) {
    expect_failure(fft, 4, "not compiled");
    expect_failure({"bench", "--size", "8x8", "--backend", backend}, 4, "not compiled");
    expect_failure({"spectrum", path("in.npy"), "-o", path("o.png"), "--backend", backend}, 4, backend);
    return;
  }
  const CliResult probe = cli(fft);
  if (probe.code == 4) FFTSCOPE_GPU_UNAVAILABLE("fftscope-cli --backend " + backend + ": " + probe.err);
  ASSERT_EQ(probe.code, 0) << describe(probe);
  const auto expected = fftw_2d(to_double(to_float(x)), w, h, Direction::forward);
  EXPECT_LE(relative_l2_error(read_npy(path("out.npy")).values.data, expected), float_fft_tolerance(w * h));

  for (const std::string variant : {"plain", "optimized", "fused"}) {
    SCOPED_TRACE(variant);
    auto args = fft;
    args.insert(args.end(), {"--variant", variant, "--inverse"});
    const CliResult r = cli(args);
    ASSERT_EQ(r.code, 0) << describe(r);
    EXPECT_LE(relative_l2_error(read_npy(path("out.npy")).values.data,
                                fftw_2d(to_double(to_float(x)), w, h, Direction::inverse)),
              float_fft_tolerance(w * h));
  }
  const std::size_t s = make_plan(w).stage_count();
  CliResult r = cli({"stages", path("in.npy"), "--stage", std::to_string(s), "-o", path("st.npy"), "--backend", backend});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_LE(relative_l2_error(read_npy(path("st.npy")).values.data, fftw_rows(to_double(to_float(x)), w, h, Direction::forward)),
            float_fft_tolerance(w));
  r = cli({"spectrum", path("in.npy"), "-o", path("sp.png"), "--backend", backend});
  ASSERT_EQ(r.code, 0) << describe(r);
  r = cli({"bench", "--size", "32x8", "--repeat", "2", "--backend", backend});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("total"), std::string::npos) << r.out;
  // The fast variant with its plans measured on the device: the same transform, and the
  // choices kept in the wisdom file the environment names.
  ::setenv("FFTSCOPE_PLAN_CACHE", path("plans.tsv").c_str(), 1);
  auto measured = fft;
  measured.insert(measured.end(), {"--variant", "fast", "--planning", "measure"});
  r = cli(measured);
  ::unsetenv("FFTSCOPE_PLAN_CACHE");
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_LE(relative_l2_error(read_npy(path("out.npy")).values.data, expected), float_fft_tolerance(w * h));
  std::ifstream wisdom(path("plans.tsv"));
  std::string line;
  EXPECT_TRUE(std::getline(wisdom, line) && line.find(backend + ": ") == 0) << line;
}

// bench --real-display: the real image's display per kernel, each measured run one display (the
// fused path's two dispatches; a width with a prime factor above 13 takes the routed passes).
TEST_P(CliGpuBackend, BenchTimesTheRealDisplayPerKernel) {
  const std::string backend = GetParam();
  if (!compiled_in(backend)) GTEST_SKIP() << backend << " is not compiled into this build";
  const auto bench = [&](const std::string& size) {
    return cli({"bench", "--backend", backend, "--real-display", "--size", size, "--repeat", "3", "--warmup", "1",
                "--warmup-ms", "0", "--json"});
  };
  CliResult r = bench("48x30");
  if (r.code == 4) FFTSCOPE_GPU_UNAVAILABLE("fftscope-cli --backend " + backend + ": " + r.err);
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("\"real_display\": \"fused\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"range\": \"auto\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"variant\""), std::string::npos) << r.out;
  for (const std::string kernel : {"fast_cols_real", "fast_rows_display"}) {
    const std::size_t at = r.out.find("{\"kernel\": \"" + kernel + "\"");
    ASSERT_NE(at, std::string::npos) << kernel << "\n" << r.out;
    const std::string three = "\"count\": 3,";  // every measured run, the warm-up's dropped
    EXPECT_EQ(r.out.compare(r.out.find("\"count\": ", at), three.size(), three), 0) << kernel << "\n" << r.out;
  }
  r = bench("34x17");
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("\"real_display\": \"routed\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"kernel\": \"display_half\""), std::string::npos) << r.out;
  r = cli({"bench", "--backend", backend, "--real-display", "--size", "16x8", "--repeat", "2", "--warmup-ms", "0"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("real-input display (fused)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", each frame's range,"), std::string::npos) << r.out;
  expect_failure({"bench", "--backend", backend, "--real-display", "--display", "--size", "8x8"}, 2, "--display");
  expect_failure({"bench", "--backend", backend, "--real-display", "--inverse", "--size", "8x8"}, 2, "--inverse");
  // --fixed-range: the sweep's settings, timed the same way. The real display shows no trace of its
  // range (its rows fold it inside the kernel), so this checks the option runs and is reported;
  // that the settings reach the backend, BenchDisplaySearchesTheRangeUnlessFixed checks through
  // --display, which takes the same display_settings.
  r = cli({"bench", "--backend", backend, "--real-display", "--fixed-range", "--size", "48x30", "--repeat", "2",
           "--warmup", "1", "--warmup-ms", "0", "--json"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("\"range\": \"fixed\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"kernel\": \"fast_rows_display\""), std::string::npos) << r.out;
  expect_failure({"bench", "--backend", backend, "--fixed-range", "--size", "8x8"}, 2, "--fixed-range");
}

// bench --display: the complex transform's display after each run; each frame's own range takes a
// min/max reduction over the spectrum, the fixed range (--fixed-range) none.
TEST_P(CliGpuBackend, BenchDisplaySearchesTheRangeUnlessFixed) {
  const std::string backend = GetParam();
  if (!compiled_in(backend)) GTEST_SKIP() << backend << " is not compiled into this build";
  const auto bench = [&](bool fixed) {
    std::vector<std::string> args{"bench", "--backend", backend, "--display", "--size", "32x32", "--repeat", "2",
                                  "--warmup", "1", "--warmup-ms", "0", "--json"};
    if (fixed) args.push_back("--fixed-range");
    return cli(args);
  };
  CliResult r = bench(false);
  if (r.code == 4) FFTSCOPE_GPU_UNAVAILABLE("fftscope-cli --backend " + backend + ": " + r.err);
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("\"range\": \"auto\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"kernel\": \"minmax_reduce\""), std::string::npos) << r.out;
  r = bench(true);
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("\"range\": \"fixed\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"kernel\": \"spectrum_colorize\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("minmax_reduce"), std::string::npos) << r.out;
}

TEST_P(CliGpuBackend, ABrokenSourceFolderGivesExitFourNamingTheFile) {
  const std::string backend = GetParam();
  if (!compiled_in(backend)) GTEST_SKIP() << backend << " is not compiled into this build";
  const char* src = std::getenv("FFTSCOPE_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  const bool gl = backend == "gl";
  const fs::path sources = fs::path(src) / (gl ? "shaders" : "kernels");
  const std::string ext = gl ? ".comp" : ".cl";
  // Every file of a copy of the sources ends in an #error, so whichever compiles first fails.
  fs::copy(sources, path("broken"));
  for (const auto& e : fs::directory_iterator(path("broken"))) std::ofstream(e.path(), std::ios::app) << "\n#error broken on purpose\n";
  write_real_npy(path("in.npy"), random_real(16 * 8, 4), 16, 8);
  const auto before = files();
  const CliResult r = cli({"fft", path("in.npy"), "-o", path("out.npy"), "--backend", backend,
                           gl ? "--shader-dir" : "--kernel-dir", path("broken")});
  if (r.code == 4 && r.err.find(ext) == std::string::npos) {
    FFTSCOPE_GPU_UNAVAILABLE("fftscope-cli --backend " + backend + ": " + r.err);
  }
  EXPECT_EQ(r.code, 4) << describe(r);
  // Our message is one line naming the file, then the compiler log. (PoCL's compiler itself may
  // print "N errors generated." on stderr before it, which fftscope does not control.)
  const auto start = r.err.find("fftscope-cli fft: ");
  ASSERT_NE(start, std::string::npos) << describe(r);
  const std::string line = r.err.substr(start, r.err.find('\n', start) - start);
  EXPECT_NE(line.find(ext), std::string::npos) << "the message should name the source file\n" << describe(r);
  EXPECT_EQ(files(), before) << describe(r);
}

INSTANTIATE_TEST_SUITE_P(Backends, CliGpuBackend, ::testing::Values("gl", "cl"),
                         [](const auto& param_info) { return param_info.param; });

TEST_F(Cli, SourceFoldersAndDevicesBelongToTheirBackend) {
  small_input();
  expect_failure({"fft", path("in.npy"), "-o", path("o.npy"), "--backend", "vulkan"}, 2, "vulkan");
  expect_failure({"fft", path("in.npy"), "-o", path("o.npy"), "--shader-dir", path(".")}, 2, "--shader-dir");
  expect_failure({"fft", path("in.npy"), "-o", path("o.npy"), "--kernel-dir", path("."), "--backend", "gl"}, 2,
                 "--kernel-dir");
  expect_failure({"fft", path("in.npy"), "-o", path("o.npy"), "--cl-device", "0:0"}, 2, "--cl-device");
  // Measured planning is the fast variant's, and only estimate or measure.
  expect_failure({"fft", path("in.npy"), "-o", path("o.npy"), "--planning", "measure"}, 2, "--planning");
  expect_failure({"fft", path("in.npy"), "-o", path("o.npy"), "--backend", "gl", "--planning", "measure"}, 2,
                 "--variant fast");
  expect_failure({"fft", path("in.npy"), "-o", path("o.npy"), "--backend", "cl", "--variant", "fast", "--planning",
                  "patient"},
                 2, "--planning");
  expect_failure({"fft", path("in.npy"), "-o", path("o.npy"), "--backend", "gl", "--shader-dir", path("nope")}, 3,
                 path("nope"));
}

// ---------------------------------------------------------------------------------------------
// Input errors: exit 3, one line naming the file, no output

TEST_F(Cli, BadInputsExitThreeNamingTheFile) {
  // A valid PNG to truncate.
  RgbaImage img(16, 16);
  write_png(path("good.png"), img);
  const std::string png = slurp(path("good.png"));
  std::ofstream(path("truncated.png"), std::ios::binary) << png.substr(0, png.size() / 2);
  std::ofstream(path("header-only.png"), std::ios::binary) << png.substr(0, 30);
  std::ofstream(path("empty.png"), std::ios::binary);
  std::ofstream(path("text.png"), std::ios::binary) << "this is not an image\n";
  fs::create_directory(path("folder.png"));
  const std::vector<float> v(12, 1.0f);
  write_raw_npy(path("f8.npy"), "<f8", "(3, 2)", false, v.data(), 48);
  write_raw_npy(path("3d.npy"), "<f4", "(1, 3, 4)", false, v.data(), 48);
  write_raw_npy(path("fortran.npy"), "<f4", "(3, 4)", true, v.data(), 48);
  write_raw_npy(path("short.npy"), "<f4", "(3, 4)", false, v.data(), 20);
  write_raw_npy(path("bigendian.npy"), ">f4", "(3, 4)", false, v.data(), 48);
  write_raw_npy(path("zero.npy"), "<f4", "(0, 4)", false, v.data(), 0);
  std::vector<float> nan = v, inf = v;
  nan[5] = std::numeric_limits<float>::quiet_NaN();
  inf[7] = -std::numeric_limits<float>::infinity();
  write_raw_npy(path("nan.npy"), "<f4", "(3, 4)", false, nan.data(), 48);
  write_raw_npy(path("inf.npy"), "<f4", "(3, 4)", false, inf.data(), 48);

  for (const std::string name : {"missing.png", "truncated.png", "header-only.png", "empty.png", "text.png",
                                 "folder.png", "f8.npy", "3d.npy", "fortran.npy", "short.npy", "bigendian.npy", "zero.npy",
                                 "nan.npy", "inf.npy"}) {
    SCOPED_TRACE(name);
    expect_failure({"fft", path(name), "-o", path("out.npy")}, 3, path(name));
    expect_failure({"spectrum", path(name), "-o", path("out.png")}, 3, path(name));
    expect_failure({"stages", path(name), "--stage", "0", "-o", path("out.npy")}, 3, path(name));
  }
  // Over the pixel limit: 16 x 16 = 256 pixels, for an image and an NPY.
  expect_failure({"fft", path("good.png"), "-o", path("out.npy"), "--max-pixels", "255"}, 3, path("good.png"));
  small_input("in.npy");
  expect_failure({"fft", path("in.npy"), "-o", path("out.npy"), "--max-pixels", "31"}, 3, path("in.npy"));
  EXPECT_EQ(cli({"fft", path("good.png"), "-o", path("out.npy"), "--max-pixels", "256"}).code, 0);
}

TEST_F(Cli, OverflowToInfinityIsReportedNotWritten) {
  // Finite float32 input whose sum overflows: the DC bin of 16 values of 3e38 is infinite.
  const std::vector<float> big(16, 3.0e38f);
  write_real_npy(path("big.npy"), big, 4, 4);
  expect_failure({"fft", path("big.npy"), "-o", path("out.npy")}, 3, path("big.npy"));
  EXPECT_FALSE(fs::exists(path("out.npy")));
}

TEST_F(Cli, TransformsOverTheMemoryLimitAreRefusedWithTheMemoryTheyNeed) {
  write_real_npy(path("wide.npy"), random_real(512 * 512, 9), 512, 512);
  ::setenv("FFTSCOPE_MEMORY_LIMIT_MB", "1", 1);
  const CliResult refused = cli({"fft", path("wide.npy"), "-o", path("out.npy")});
  ::unsetenv("FFTSCOPE_MEMORY_LIMIT_MB");
  EXPECT_EQ(refused.code, 3) << describe(refused);
  EXPECT_NE(refused.err.find("MiB"), std::string::npos) << describe(refused);
  EXPECT_FALSE(fs::exists(path("out.npy")));
  EXPECT_EQ(cli({"fft", path("wide.npy"), "-o", path("out.npy")}).code, 0);
}

TEST_F(Cli, UnreadableInputExitsThree) {
  small_input("in.npy");
  fs::permissions(path("in.npy"), fs::perms::none);
  if (std::ifstream(path("in.npy")).good()) GTEST_SKIP() << "running as root: permissions do not stop reading";
  expect_failure({"fft", path("in.npy"), "-o", path("out.npy")}, 3, path("in.npy"));
}

TEST_F(Cli, AFailedRunLeavesAnExistingOutputAlone) {
  std::ofstream(path("out.npy")) << "old";
  std::ofstream(path("bad.npy")) << "garbage";
  expect_failure({"fft", path("bad.npy"), "-o", path("out.npy")}, 3, path("bad.npy"));
  EXPECT_EQ(slurp(path("out.npy")), "old");
}

// ---------------------------------------------------------------------------------------------
// Output errors: exit 5, one line naming the output, nothing left behind

TEST_F(Cli, UnwritableOutputsExitFive) {
  const std::string in = small_input();
  const std::string missing = path("no-such-folder/out.npy");
  expect_failure({"fft", in, "-o", missing}, 5, missing);
  expect_failure({"spectrum", in, "-o", path("no-such-folder/out.png")}, 5, path("no-such-folder/out.png"));
  expect_failure({"stages", in, "--stage", "1", "-o", missing}, 5, missing);

  std::ofstream(path("file.txt")) << "x";
  expect_failure({"fft", in, "-o", path("file.txt/out.npy")}, 5, path("file.txt/out.npy"));

  fs::create_directory(path("folder.npy"));
  expect_failure({"fft", in, "-o", path("folder.npy")}, 5, path("folder.npy"));
}

TEST_F(Cli, ReadOnlyFolderExitsFiveAndLeavesNoTemporary) {
  const std::string in = small_input();
  fs::create_directory(path("ro"));
  fs::permissions(path("ro"), fs::perms::owner_read | fs::perms::owner_exec);
  std::string target = path("ro/out.npy");
  const bool root_can_write = std::ofstream(path("ro/probe")).good();
  if (root_can_write) {
    fs::remove(path("ro/probe"));
    // Root ignores permission bits; /proc refuses new files to everyone.
    target = "/proc/fftscope-cli-test-out.npy";
  }
  expect_failure({"fft", in, "-o", target}, 5, target);
  expect_failure({"spectrum", in, "-o", target.substr(0, target.size() - 4) + ".png"}, 5, ".png");
  EXPECT_FALSE(fs::exists(target));
  EXPECT_TRUE(fs::is_empty(path("ro")));
}

// ---------------------------------------------------------------------------------------------
// Usage errors: exit 2

TEST_F(Cli, BadUsageExitsTwoWithOneLine) {
  const std::string in = small_input();
  expect_failure({"transform", in}, 2, "transform");
  expect_failure({"--frobnicate"}, 2, "--frobnicate");
  expect_failure({"fft", in}, 2, "-o");
  expect_failure({"fft", "-o", path("o.npy")}, 2, "INPUT");
  expect_failure({"fft", in, "-o"}, 2, "-o");
  expect_failure({"fft", in, "extra", "-o", path("o.npy")}, 2, "extra");
  expect_failure({"fft", in, "-o", path("o.npy"), "--bogus"}, 2, "--bogus");
  expect_failure({"fft", in, "-o", path("o.npy"), "--inverse=yes"}, 2, "--inverse");
  expect_failure({"fft", in, "-o", path("o.png")}, 2, ".npy");
  expect_failure({"spectrum", in, "-o", path("o.npy")}, 2, ".png");
  expect_failure({"fft", in, "-o", path("o.npy"), "--channel", "alpha"}, 2, "alpha");
  expect_failure({"fft", in, "-o", path("o.npy"), "--max-radix", "16"}, 2, "--max-radix");
  expect_failure({"fft", in, "-o", path("o.npy"), "--max-pixels", "lots"}, 2, "--max-pixels");
  expect_failure({"spectrum", in, "-o", path("o.png"), "--scale", "cubic"}, 2, "cubic");
  expect_failure({"spectrum", in, "-o", path("o.png"), "--colormap", "jet"}, 2, "jet");
  expect_failure({"spectrum", in, "-o", path("o.png"), "--component", "angle"}, 2, "angle");
  expect_failure({"plan"}, 2, "N");
  expect_failure({"plan", "0"}, 2, "N");
  expect_failure({"plan", "-4"}, 2, "-4");
  expect_failure({"plan", "12abc"}, 2, "12abc");
  expect_failure({"plan", "12", "--max-radix", "3"}, 2, "--max-radix");

  const CliResult none = cli({});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("usage:"), std::string::npos);
}

TEST_F(Cli, HelpAndVersion) {
  CliResult r = cli({"--help"});
  EXPECT_EQ(r.code, 0);
  for (const std::string c : {"fft", "spectrum", "plan", "stages", "bench", "devices"})
    EXPECT_NE(r.out.find("  " + c + " "), std::string::npos) << r.out;
  for (const std::string c : {"fft", "spectrum", "plan", "stages", "bench", "devices"}) {
    r = cli({c, "--help"});
    EXPECT_EQ(r.code, 0) << describe(r);
    EXPECT_EQ(r.out.rfind("usage: fftscope-cli " + c, 0), 0u) << r.out;
    r = cli({"help", c});
    EXPECT_EQ(r.code, 0) << describe(r);
  }
  r = cli({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("fftscope-cli ", 0), 0u) << r.out;
}

}  // namespace
}  // namespace fftscope::test
