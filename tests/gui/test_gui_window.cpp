// Runs the real `fftscope` window in its screenshot mode: it opens with every sample and every
// compiled backend, every panel renders, and the spectrum texture it shows equals the CPU
// rendering (core render_spectrum of an FFTW double-precision spectrum) for the same settings.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "core/errors.h"
#include "core/image_io.h"
#include "core/preprocess.h"
#include "core/spectrum.h"
#include "support/gpu_skip.h"
#include "support/reference.h"

namespace fftscope {

// Readable parameter names in test output.
inline void PrintTo(BackendKind kind, std::ostream* os) { *os << to_string(kind); }

namespace {

namespace fs = std::filesystem;

fs::path temp_dir() {
  const fs::path d = fs::temp_directory_path() / ("fftscope_gui_test_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct RunResult {
  int exit_code = -1;
  std::string log;
};

RunResult run_gui_once(const std::vector<std::string>& args);

// Runs fftscope with the arguments; stderr goes to a log file that is returned. A run that could
// not even connect to the X server is tried once more: on a shared machine another session's
// Xvfb start-up can briefly break the connection, which says nothing about fftscope.
RunResult run_gui(const std::vector<std::string>& args) {
  RunResult r = run_gui_once(args);
  if (r.exit_code == exit_backend_unavailable && r.log.find("Failed to open display") != std::string::npos) {
    std::fprintf(stderr, "note: X connection failed, retrying once: %s\n", r.log.c_str());
    r = run_gui_once(args);
  }
  return r;
}

RunResult run_gui_once(const std::vector<std::string>& args) {
  static int counter = 0;
  const fs::path log = temp_dir() / ("run" + std::to_string(counter++) + ".log");
  std::string cmd = quote(FFTSCOPE_GUI_EXE);
  for (const std::string& a : args) cmd += " " + quote(a);
  cmd += " > " + quote(log.string()) + " 2>&1";
  // The test must not read or write the user's settings.
  setenv("XDG_CONFIG_HOME", (temp_dir() / "config").c_str(), 1);
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(log);
  r.log.assign(std::istreambuf_iterator<char>(in), {});
  return r;
}

// The window test needs a display; the CPU backend run tells whether there is one.
bool have_display(std::string& why) {
  static int state = -1;
  static std::string reason;
  if (state < 0) {
    const fs::path out = temp_dir() / "probe.png";
    const RunResult r = run_gui({"--backend", "cpu", "--screenshot", out.string(), "--frames", "1"});
    state = r.exit_code == exit_ok ? 1 : 0;
    reason = "fftscope could not open a window (exit " + std::to_string(r.exit_code) + "): " + r.log;
  }
  why = reason;
  return state == 1;
}

// A screenshot is "non-trivial" when it has the window's size and real content: many grey levels.
void expect_nontrivial_png(const fs::path& path, std::size_t width, std::size_t height) {
  ASSERT_TRUE(fs::exists(path)) << path;
  const RealImage img = load_image(path.string());
  EXPECT_EQ(img.width, width);
  EXPECT_EQ(img.height, height);
  std::set<int> levels;
  double sum = 0, sum2 = 0;
  for (float v : img.data) {
    levels.insert(static_cast<int>(std::lround(v * 255.0f)));
    sum += v;
    sum2 += static_cast<double>(v) * v;
  }
  const double n = static_cast<double>(img.data.size());
  const double stddev = std::sqrt(std::max(0.0, sum2 / n - (sum / n) * (sum / n)));
  EXPECT_GT(levels.size(), 32u) << path;
  EXPECT_GT(stddev, 0.03) << path;
}

std::vector<std::string> sample_images() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(FFTSCOPE_ASSETS_DIR, ec))
    if (e.path().extension() == ".png") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

#define REQUIRE_DISPLAY()                                       \
  do {                                                          \
    std::string why_;                                           \
    if (!have_display(why_)) FFTSCOPE_GPU_UNAVAILABLE(why_);    \
  } while (0)

// Runs one screenshot; a backend that fails to start maps to FFTSCOPE_GPU_UNAVAILABLE.
#define RUN_SCREENSHOT(result, args, backend)                                                       \
  const RunResult result = run_gui(args);                                                           \
  if (result.exit_code == exit_backend_unavailable && (backend) != "cpu")                           \
    FFTSCOPE_GPU_UNAVAILABLE("backend " + std::string(backend) + " unavailable: " + result.log);  \
  ASSERT_EQ(result.exit_code, exit_ok) << result.log

class GuiBackend : public ::testing::TestWithParam<BackendKind> {};

TEST_P(GuiBackend, OpensWithEverySample) {
  REQUIRE_DISPLAY();
  const std::string backend = to_string(GetParam());
  std::vector<std::string> inputs = sample_images();
  ASSERT_FALSE(inputs.empty()) << "no samples in " << FFTSCOPE_ASSETS_DIR;
  for (const std::string& input : inputs) {
    SCOPED_TRACE(input);
    const fs::path out = temp_dir() / ("sample_" + backend + "_" + fs::path(input).stem().string() + ".png");
    RUN_SCREENSHOT(r, (std::vector<std::string>{input, "--backend", backend, "--screenshot", out.string(),
                                                "--frames", "2", "--window-size", "1000x700"}),
                   backend);
    expect_nontrivial_png(out, 1000, 700);
  }
}

TEST_P(GuiBackend, EveryPanelRenders) {
  REQUIRE_DISPLAY();
  const std::string backend = to_string(GetParam());
  std::vector<RealImage> shots;
  for (const char* panel : {"spectrum", "filter", "stages", "digit-reverse", "twiddles", "timers"}) {
    SCOPED_TRACE(panel);
    const fs::path out = temp_dir() / ("panel_" + backend + "_" + panel + ".png");
    RUN_SCREENSHOT(r, (std::vector<std::string>{"--source", "rectangle", "--backend", backend, "--panel", panel,
                                                "--stage", "2", "--filter", "lowpass", "--screenshot", out.string(),
                                                "--frames", "3", "--window-size", "1100x750"}),
                   backend);
    EXPECT_NE(r.log.find(std::string("panel ") + panel), std::string::npos) << r.log;
    expect_nontrivial_png(out, 1100, 750);
    shots.push_back(load_image(out.string()));
  }
  // Each panel shows something of its own: every pair of screenshots differs in >= 2% of pixels.
  for (std::size_t a = 0; a < shots.size(); ++a)
    for (std::size_t b = a + 1; b < shots.size(); ++b) {
      std::size_t differ = 0;
      for (std::size_t i = 0; i < shots[a].data.size(); ++i) differ += std::abs(shots[a].data[i] - shots[b].data[i]) > 0.02f;
      EXPECT_GT(static_cast<double>(differ), 0.02 * static_cast<double>(shots[a].data.size())) << "panels " << a << " and " << b;
    }
}

// The spectrum texture the window shows, read back, against the core's rendering of an FFTW
// (double) spectrum of the same image with the same settings. Tolerance: the float32 FFT moves a
// log-magnitude by far less than one 8-bit level except where a value sits on a level boundary,
// so at most 2 levels per channel, and 99.9% of pixels within 1.
TEST_P(GuiBackend, ShownSpectrumEqualsCpuSpectrum) {
  REQUIRE_DISPLAY();
  const std::string backend = to_string(GetParam());
  // 96 x 80 (mixed radix 2, 3, 5): a rectangle plus a tilted grating, so the spectrum is varied.
  const std::size_t w = 96, h = 80;
  SyntheticSettings s;
  s.width = w;
  s.height = h;
  s.frequency = 0.11f;
  s.angle_degrees = 25.0f;
  RealImage img = make_synthetic(s);
  s.kind = SyntheticKind::rectangle;
  s.offset_x = 40;
  s.offset_y = 30;
  const RealImage rect = make_synthetic(s);
  for (std::size_t i = 0; i < img.data.size(); ++i) img.data[i] = 0.6f * img.data[i] + 0.4f * rect.data[i];
  const fs::path input = temp_dir() / "spectrum_input.png";
  write_png(input.string(), gray_to_rgba(img));
  const RealImage loaded = load_image(input.string());  // what the window transforms (8-bit quantized)

  struct Case {
    std::string name;
    std::vector<std::string> args;
    SpectrumSettings settings;
  };
  std::vector<Case> cases(4);
  cases[0].name = "gray_log";
  cases[1].name = "viridis";
  cases[1].args = {"--colormap", "viridis"};
  cases[1].settings.colormap = Colormap::viridis;
  cases[2].name = "magma_linear_unshifted";
  cases[2].args = {"--colormap", "magma", "--linear", "--no-shift"};
  cases[2].settings.colormap = Colormap::magma;
  cases[2].settings.scale = SpectrumScale::linear;
  cases[2].settings.shift = false;
  cases[3].name = "real_part";
  cases[3].args = {"--component", "real", "--colormap", "inferno"};
  cases[3].settings.component = SpectrumComponent::real;
  cases[3].settings.colormap = Colormap::inferno;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path shot = temp_dir() / ("spec_shot_" + backend + ".png");
    const fs::path dump = temp_dir() / ("spec_dump_" + backend + "_" + c.name + ".png");
    std::vector<std::string> args{input.string(), "--backend", backend, "--screenshot", shot.string(),
                                  "--dump-spectrum", dump.string(), "--frames", "2", "--window-size", "1000x700"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    RUN_SCREENSHOT(r, args, backend);
    std::vector<test::ComplexD> in(loaded.data.begin(), loaded.data.end());
    const auto ref = test::fftw_2d(in, w, h, Direction::forward);
    ComplexImage spec(w, h);
    for (std::size_t i = 0; i < ref.size(); ++i) spec.data[i] = Complex(static_cast<float>(ref[i].real()), static_cast<float>(ref[i].imag()));
    const RgbaImage expected = render_spectrum(spec, c.settings);

    // The dump's colour channels, one load each.
    RgbaImage shown(w, h);
    for (Channel channel : {Channel::r, Channel::g, Channel::b}) {
      ImageLoadOptions o;
      o.channel = channel;
      const RealImage ch = load_image(dump.string(), o);
      ASSERT_EQ(ch.width, w);
      ASSERT_EQ(ch.height, h);
      const std::size_t k = channel == Channel::r ? 0 : channel == Channel::g ? 1 : 2;
      for (std::size_t i = 0; i < w * h; ++i) shown.data[i * 4 + k] = static_cast<std::uint8_t>(std::lround(ch.data[i] * 255.0f));
    }
    std::size_t within_one = 0;
    int worst = 0;
    for (std::size_t i = 0; i < w * h; ++i) {
      int d = 0;
      for (std::size_t k = 0; k < 3; ++k)
        d = std::max(d, std::abs(int(shown.data[i * 4 + k]) - int(expected.data[i * 4 + k])));
      worst = std::max(worst, d);
      within_one += d <= 1;
    }
    EXPECT_LE(worst, 2);
    EXPECT_GE(static_cast<double>(within_one), 0.999 * static_cast<double>(w * h));
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, GuiBackend, ::testing::ValuesIn(compiled_backends()),
                         [](const ::testing::TestParamInfo<BackendKind>& p) { return to_string(p.param); });

TEST(GuiWindow, BadImageExitsWithInputError) {
  REQUIRE_DISPLAY();
  const RunResult r = run_gui({(temp_dir() / "missing.png").string(), "--backend", "cpu", "--screenshot",
                               (temp_dir() / "never.png").string(), "--frames", "1"});
  EXPECT_EQ(r.exit_code, exit_bad_input) << r.log;
  EXPECT_FALSE(fs::exists(temp_dir() / "never.png"));
}

TEST(GuiWindow, UsageErrorExitCode) {
  // No display needed: the command line is checked first.
  EXPECT_EQ(run_gui({"--panel", "nope"}).exit_code, exit_usage);
  EXPECT_EQ(run_gui({"--help"}).exit_code, exit_ok);
}

}  // namespace
}  // namespace fftscope
