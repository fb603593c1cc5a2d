// The real-input display path (issue 6) through the Backend interface, for every GPU backend
// compiled in: the fused path (the image's columns, then display rows: two dispatches) for sizes
// whose factors are at most 13, the routed path for larger prime factors, the complex fallback
// for widths under 3, all against core render_spectrum of the full spectrum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

#include "backend/backend.h"
#include "core/errors.h"
#include "display_reference.h"
#include "support/gpu_skip.h"

namespace fftscope {
namespace {

class RealDisplay : public ::testing::TestWithParam<BackendKind> {
 protected:
  std::unique_ptr<Backend> open(std::string& why) {
    try {
      return make_backend(GetParam());
    } catch (const std::exception& e) {
      why = e.what();
      return nullptr;
    }
  }
};

std::vector<std::string> kernel_names(Backend& backend, std::uint64_t& execution) {
  std::vector<std::string> names;
  execution = 0;
  for (const TimingRecord& r : backend.take_timings()) {
    names.push_back(r.kernel);
    if (execution == 0) execution = r.execution;
    EXPECT_EQ(r.execution, execution) << r.kernel << ": every record of one call carries its execution";
  }
  return names;
}

TEST_P(RealDisplay, FusedPathMatchesRenderSpectrum) {
  std::string why;
  auto backend = open(why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  const std::size_t w = 64, h = 48;
  ASSERT_EQ(backend->real_display_path(w, h), RealDisplayPath::fused);
  const RealImage image = test::random_real_image(w, h, 5);
  const ComplexImage spectrum = test::full_spectrum(image);
  backend->upload_real(image);
  backend->take_timings();
  SpectrumSettings settings;  // log magnitude, gray, auto range, shifted
  backend->execute_real_display(settings);
  test::expect_display_close(backend->download_real_display(), render_spectrum(spectrum, settings), settings.colormap,
                             to_string(GetParam()) + " fused first frame");
  std::uint64_t execution = 0;
  // The first frame of an image with auto range finds the range with an extra row pass.
  EXPECT_EQ(kernel_names(*backend, execution),
            (std::vector<std::string>{"fast_cols_real", "fast_rows_display", "fast_rows_display"}));
  EXPECT_GT(execution, 0u);
  backend->execute_real_display(settings);
  test::expect_display_close(backend->download_real_display(), render_spectrum(spectrum, settings), settings.colormap,
                             to_string(GetParam()) + " fused second frame");
  EXPECT_EQ(kernel_names(*backend, execution), (std::vector<std::string>{"fast_cols_real", "fast_rows_display"}));
}

// BackendOptions::measure_fast_plans: the display path planned by timing its candidates
// (fast::measure_display_candidates) shows the same picture, for two sizes in turn (each
// measured afresh). Drawn under the settings the planner times every candidate with
// (fixed_range_settings), so the picture comes from kernels that measuring built whichever
// candidate wins: another colormap or the range search would build the winner's alone, and the
// winner, chosen by timing, may differ from run to run, so a sanitizer run would compile kernels
// the plain run had not cached, where PoCL's compiler leaks (LeakSanitizer: 16 bytes direct in
// libpocl's worker thread under pocl_check_kernel_disk_cache, about 3.8 MB indirect in LLVM's
// passes, on every cache miss). Colormaps and the range search are the other tests' subject.
TEST_P(RealDisplay, MeasuredPlansShowTheSamePicture) {
  ::setenv("FFTSCOPE_PLAN_CACHE", "", 1);  // measure here, whatever an earlier run kept
  BackendOptions options;
  options.measure_fast_plans = true;
  std::unique_ptr<Backend> backend;
  try {
    backend = make_backend(GetParam(), options);
  } catch (const std::exception& e) {
    FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + e.what());
  }
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{64, 48}, {256, 40}}) {
    ASSERT_EQ(backend->real_display_path(w, h), RealDisplayPath::fused);
    const RealImage image = test::random_real_image(w, h, 7 + w);
    const ComplexImage spectrum = test::full_spectrum(image);
    backend->upload_real(image);
    const SpectrumSettings settings = fixed_range_settings(w, h);
    backend->execute_real_display(settings);
    test::expect_display_close(backend->download_real_display(), render_spectrum(spectrum, settings),
                               settings.colormap, to_string(GetParam()) + " measured " + std::to_string(w));
    backend->take_timings();
  }
}

// Odd widths take the fused path too (their last pixel column paired with zeros), odd heights
// with them.
TEST_P(RealDisplay, OddWidthsTakeTheFusedPath) {
  std::string why;
  auto backend = open(why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{63, 48}, {45, 27}}) {
    ASSERT_EQ(backend->real_display_path(w, h), RealDisplayPath::fused) << w << "x" << h;
    const RealImage image = test::random_real_image(w, h, 11 + w);
    backend->upload_real(image);
    backend->take_timings();
    SpectrumSettings settings;
    settings.colormap = Colormap::viridis;
    backend->execute_real_display(settings);
    test::expect_display_close(backend->download_real_display(),
                               render_spectrum(test::full_spectrum(image), settings), settings.colormap,
                               to_string(GetParam()) + " fused " + std::to_string(w) + "x" + std::to_string(h));
    std::uint64_t execution = 0;
    EXPECT_EQ(kernel_names(*backend, execution),
              (std::vector<std::string>{"fast_cols_real", "fast_rows_display", "fast_rows_display"}));
  }
}

// Display rows wide enough that GL takes their widest stage in one round of more invocations
// (fast::Tuning::row_one_round_threads, odd_row_one_round_threads: on the H100 4032 points in 576,
// 3200 in 640, 3125 in 640; other devices plan them as they fit) show the same picture.
TEST_P(RealDisplay, WideRowsMatchRenderSpectrum) {
  std::string why;
  auto backend = open(why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{4032, 6}, {3200, 4}, {3125, 5}}) {
    ASSERT_EQ(backend->real_display_path(w, h), RealDisplayPath::fused) << w << "x" << h;
    const RealImage image = test::random_real_image(w, h, 17 + w);
    backend->upload_real(image);
    SpectrumSettings settings;
    backend->execute_real_display(settings);
    test::expect_display_close(backend->download_real_display(),
                               render_spectrum(test::full_spectrum(image), settings), settings.colormap,
                               to_string(GetParam()) + " fused " + std::to_string(w) + "x" + std::to_string(h));
  }
}

// Sizes with a prime factor above 13 have no fused plan for that axis: it takes the routed
// passes (the complex path's routes, Bluestein's, on the pair columns, or on the rows ky <= H/2
// unpacked from Z and coloured after), the other axis its fused pass: rows of 51 = 3 x 17
// (fused columns, routed rows), columns of 34 = 2 x 17 (Bluestein's columns, fused display rows),
// both prime (38 x 23, an odd height), an odd prime width (23 x 46), a real-part view (its mirror
// bins negate nothing, the imaginary part's do) and a phase view; a second frame shows the same
// picture (Bluestein's columns only read the image: their second pass stores into Z).
TEST_P(RealDisplay, LargePrimeFactorsTakeTheRoutedPath) {
  std::string why;
  auto backend = open(why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  struct Case {
    std::size_t w, h;
    SpectrumComponent component;
    bool bluestein_rows, bluestein_cols;
  };
  for (const Case& c : {Case{51, 48, SpectrumComponent::magnitude, true, false},
                        Case{48, 34, SpectrumComponent::imaginary, false, true},
                        Case{38, 23, SpectrumComponent::real, true, true},
                        Case{23, 46, SpectrumComponent::phase, true, true}}) {
    const std::string name = to_string(GetParam()) + " routed " + std::to_string(c.w) + "x" + std::to_string(c.h);
    ASSERT_EQ(backend->real_display_path(c.w, c.h), RealDisplayPath::routed) << name;
    const RealImage image = test::random_real_image(c.w, c.h, 9 + c.w);
    const ComplexImage spectrum = test::full_spectrum(image);
    backend->upload_real(image);
    backend->take_timings();
    SpectrumSettings settings;
    settings.colormap = Colormap::viridis;
    settings.component = c.component;
    const bool phase = c.component == SpectrumComponent::phase;
    if (phase) {
      // A fixed range: an auto range would end where a real bin's phase lands, at pi or -pi by
      // the sign of its float-zero imaginary part, and move every other pixel's step with it.
      settings.auto_range = false;
      settings.range_min = -3.14159265f;
      settings.range_max = 3.14159265f;
    }
    backend->execute_real_display(settings);
    test::expect_display_close(backend->download_real_display(), render_spectrum(spectrum, settings),
                               settings.colormap, name, phase);
    std::uint64_t execution = 0;
    const auto names = kernel_names(*backend, execution);
    const auto count = [&](const std::string& prefix) {
      return std::count_if(names.begin(), names.end(), [&](const std::string& n) { return n.rfind(prefix, 0) == 0; });
    };
    EXPECT_EQ(count("fast_cols_real(L="), c.bluestein_cols ? 1 : 0) << name;
    EXPECT_EQ(count("fast_rows_half(L="), c.bluestein_rows ? 1 : 0) << name;
    // The first frame finds its range first (auto range): the colouring pass twice.
    const long colourings = phase ? 1 : 2;
    EXPECT_EQ(count("display_unpack"), c.bluestein_rows ? 1 : 0) << name;
    EXPECT_EQ(count("display_half"), c.bluestein_rows ? colourings : 0) << name;
    EXPECT_EQ(count("fast_rows_display"), c.bluestein_rows ? 0 : colourings) << name;
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names.back(), c.bluestein_rows ? "display_half" : "fast_rows_display") << name;
    backend->execute_real_display(settings);
    test::expect_display_close(backend->download_real_display(), render_spectrum(spectrum, settings),
                               settings.colormap, name + ", second frame", phase);
    backend->take_timings();
  }
}

// Widths under 3 have no pair columns to speak of: the real image goes through the complex
// transform (in place on a copy of the image, so a second frame shows the same picture) and the
// display kernels; where spans are timed, one span holds them all.
TEST_P(RealDisplay, TinyWidthsTakeTheComplexFallback) {
  std::string why;
  auto backend = open(why);
  if (!backend) FFTSCOPE_GPU_UNAVAILABLE(to_string(GetParam()) + ": " + why);
  const std::size_t w = 2, h = 48;
  ASSERT_EQ(backend->real_display_path(w, h), RealDisplayPath::fallback);
  const RealImage image = test::random_real_image(w, h, 9);
  backend->upload_real(image);
  backend->take_timings();
  SpectrumSettings settings;
  settings.colormap = Colormap::viridis;
  backend->execute_real_display(settings);
  test::expect_display_close(backend->download_real_display(), render_spectrum(test::full_spectrum(image), settings),
                             settings.colormap, to_string(GetParam()) + " fallback 2x48");
  std::uint64_t execution = 0;
  const auto names = kernel_names(*backend, execution);
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0], "fast_rows");
  EXPECT_NE(std::find(names.begin(), names.end(), "fast_cols"), names.end());
  backend->execute_real_display(settings);
  test::expect_display_close(backend->download_real_display(), render_spectrum(test::full_spectrum(image), settings),
                             settings.colormap, to_string(GetParam()) + " fallback 2x48, second frame");
  backend->take_timings();

  BackendOptions options;
  options.time_spans = true;
  const auto spans = make_backend(GetParam(), options);
  spans->upload_real(image);
  spans->take_timings();
  for (int frame = 0; frame < 2; ++frame) {
    spans->execute_real_display(settings);
    spans->finish();
    EXPECT_EQ(kernel_names(*spans, execution), std::vector<std::string>{transform_span_kernel}) << "frame " << frame;
    test::expect_display_close(spans->download_real_display(), render_spectrum(test::full_spectrum(image), settings),
                               settings.colormap, to_string(GetParam()) + " fallback 2x48 timed by spans");
  }
}

TEST(RealDisplayCpu, CpuBackendSaysNotSupported) {
  auto backend = make_backend(BackendKind::cpu);
  EXPECT_EQ(backend->real_display_path(64, 48), RealDisplayPath::none);
  EXPECT_THROW(backend->upload_real(RealImage(64, 48)), BackendError);
}

std::vector<BackendKind> gpu_kinds() {
  std::vector<BackendKind> kinds;
  for (BackendKind k : compiled_backends())
    if (k != BackendKind::cpu) kinds.push_back(k);
  return kinds;
}

INSTANTIATE_TEST_SUITE_P(Backends, RealDisplay, ::testing::ValuesIn(gpu_kinds()),
                         [](const ::testing::TestParamInfo<BackendKind>& param) { return to_string(param.param); });

}  // namespace
}  // namespace fftscope
