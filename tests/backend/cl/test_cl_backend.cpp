// The OpenCL backend on whatever OpenCL device is here (CI: PoCL's CPU device): whole 2D
// transforms against FFTW (double) and the CPU reference, every stage of both axes against the
// CPU pipeline, every kernel variant and both column passes, the device-side spectrum display
// against core render_spectrum, timings, device choice, and --kernel-dir failures.
//
// Bounds: whole transforms, relative L2 error <= float_fft_tolerance(w * h) (4 eps (log2 N + 1),
// x4 with a Bluestein stage) against FFTW; stage by stage, relative L2 error <= the same bound
// against the CPU pipeline stopped at the same place (both are float pipelines of the same plan,
// so they differ only by float rounding). Display: every byte within 2 of render_spectrum,
// except where the colour index itself rounds the other way (checked separately).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <unistd.h>

#include "backend/cl/cl_backend.h"
#include "backend/cl/cl_runtime.h"
#include "core/cpu_fft.h"
#include "core/errors.h"
#include "support/gpu_skip.h"
#include "support/reference.h"

namespace fftscope {
namespace {

namespace fs = std::filesystem;

// One backend for the whole suite: PoCL compiles each program with LLVM on first use, so
// building them once keeps the suite short.
ClBackend* shared_backend(std::string* why) {
  static std::unique_ptr<Backend> backend;
  static std::string error;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      backend = make_cl_backend({});
    } catch (const BackendError& e) {
      error = e.what();
    }
  }
  if (why) *why = error;
  return dynamic_cast<ClBackend*>(backend.get());
}

#define REQUIRE_CL(var)                         \
  std::string why_;                             \
  ClBackend* var = shared_backend(&why_);       \
  if (!var) {                                   \
    FFTSCOPE_GPU_UNAVAILABLE(why_);            \
    return;                                     \
  }

ComplexImage random_image(std::size_t w, std::size_t h, std::uint64_t seed) {
  ComplexImage image(w, h);
  image.data = test::to_float(test::random_complex(w * h, seed));
  return image;
}

bool uses_bluestein(const Plan2D& plan) { return plan.rows.uses_bluestein() || plan.cols.uses_bluestein(); }

struct Size {
  std::size_t w, h;
};
std::string name(const Size& s) { return std::to_string(s.w) + "x" + std::to_string(s.h); }

const KernelVariant all_variants[] = {KernelVariant::plain, KernelVariant::optimized, KernelVariant::fused,
                                      KernelVariant::fast};
const char* variant_name(KernelVariant v) {
  switch (v) {
    case KernelVariant::plain: return "plain";
    case KernelVariant::optimized: return "optimized";
    case KernelVariant::fused: return "fused";
    case KernelVariant::fast: return "fast";
  }
  return "?";
}

// ---- whole transforms against FFTW and the CPU reference

class ClWhole : public ::testing::TestWithParam<Size> {};

TEST_P(ClWhole, MatchesFftwAndCpuEveryVariantBothDirections) {
  REQUIRE_CL(cl);
  const Size s = GetParam();
  const Plan2D plan = make_plan_2d(s.w, s.h);
  const ComplexImage input = random_image(s.w, s.h, s.w * 7919 + s.h);
  const double bound = test::float_fft_tolerance(s.w * s.h, uses_bluestein(plan));
  for (Direction d : {Direction::forward, Direction::inverse}) {
    const auto expected = test::fftw_2d(test::to_double(input.data), s.w, s.h, d);
    ComplexImage cpu_result = input;
    cpu::transform_2d(plan, d, cpu_result);
    ASSERT_LT(test::relative_l2_error(cpu_result.data, expected), bound) << "CPU reference itself";
    for (KernelVariant v : all_variants) {
      const ComplexImage out = run_transform(*cl, plan, input, d, v);
      const double err = test::relative_l2_error(out.data, expected);
      EXPECT_LT(err, bound) << name(s) << " " << to_string(d) << " " << variant_name(v);
      EXPECT_LT(test::relative_l2_error(out.data, test::to_double(cpu_result.data)), 2 * bound)
          << name(s) << " " << to_string(d) << " " << variant_name(v) << " vs CPU";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Radices, ClWhole,
                         ::testing::Values(Size{2, 2}, Size{4, 4}, Size{8, 8}, Size{16, 32}, Size{27, 9},
                                           Size{25, 5}, Size{49, 7}, Size{11, 13}, Size{121, 1}, Size{1, 169},
                                           Size{64, 64}, Size{256, 8}),
                         [](const auto& param_info) { return name(param_info.param); });
INSTANTIATE_TEST_SUITE_P(Mixed, ClWhole,
                         ::testing::Values(Size{12, 20}, Size{30, 42}, Size{60, 77}, Size{1, 1}, Size{1, 6},
                                           Size{10, 1}, Size{360, 240}, Size{143, 26}, Size{99, 100}),
                         [](const auto& param_info) { return name(param_info.param); });
INSTANTIATE_TEST_SUITE_P(Primes, ClWhole,
                         ::testing::Values(Size{17, 8}, Size{8, 97}, Size{1009, 3}, Size{34, 51}, Size{19, 23},
                                           Size{2 * 17 * 3, 13}),
                         [](const auto& param_info) { return name(param_info.param); });

TEST(ClBackend, PowerOfTwoRadixChoices) {
  REQUIRE_CL(cl);
  for (std::uint32_t p2 : {2u, 8u}) {
    const Plan2D plan = make_plan_2d(64, 32, {p2});
    const ComplexImage input = random_image(64, 32, p2);
    for (Direction d : {Direction::forward, Direction::inverse}) {
      const auto expected = test::fftw_2d(test::to_double(input.data), 64, 32, d);
      for (KernelVariant v : all_variants) {
        const ComplexImage out = run_transform(*cl, plan, input, d, v);
        EXPECT_LT(test::relative_l2_error(out.data, expected), test::float_fft_tolerance(64 * 32))
            << "max radix " << p2 << " " << variant_name(v) << " " << to_string(d);
      }
    }
  }
}

TEST(ClBackend, RoundTripReturnsTheInput) {
  REQUIRE_CL(cl);
  const Plan2D plan = make_plan_2d(96, 35);
  const ComplexImage input = random_image(96, 35, 3);
  cl->prepare(plan, KernelVariant::fused);
  cl->upload(input);
  cl->execute(Direction::forward);
  cl->execute(Direction::inverse);
  const ComplexImage back = cl->download();
  EXPECT_LT(test::relative_l2_error(back.data, test::to_double(input.data)), 2 * test::float_fft_tolerance(96 * 35));
}

TEST(ClBackend, TransposeColumnPassMatchesStrided) {
  REQUIRE_CL(cl);
  for (Size s : {Size{12, 20}, Size{17, 33}, Size{64, 48}, Size{5, 1}}) {
    const Plan2D plan = make_plan_2d(s.w, s.h);
    const ComplexImage input = random_image(s.w, s.h, 11);
    const double bound = test::float_fft_tolerance(s.w * s.h, uses_bluestein(plan));
    for (Direction d : {Direction::forward, Direction::inverse}) {
      const auto expected = test::fftw_2d(test::to_double(input.data), s.w, s.h, d);
      cl->set_column_pass(ClColumnPass::transpose);
      const ComplexImage t = run_transform(*cl, plan, input, d, KernelVariant::optimized);
      cl->set_column_pass(ClColumnPass::strided);
      EXPECT_LT(test::relative_l2_error(t.data, expected), bound) << name(s) << " " << to_string(d);
    }
  }
}

// ---- stage by stage against the CPU pipeline

class ClStages : public ::testing::TestWithParam<Size> {};

TEST_P(ClStages, EveryStopOfBothAxesMatchesCpu) {
  REQUIRE_CL(cl);
  const Size s = GetParam();
  const Plan2D plan = make_plan_2d(s.w, s.h);
  const ComplexImage input = random_image(s.w, s.h, 5);
  const double bound = test::float_fft_tolerance(s.w * s.h, uses_bluestein(plan));
  for (ClColumnPass pass : {ClColumnPass::strided, ClColumnPass::transpose}) {
    cl->set_column_pass(pass);
    for (Direction d : {Direction::forward, Direction::inverse})
      for (KernelVariant v : all_variants)
        for (Axis axis : {Axis::rows, Axis::cols}) {
          const int stages = static_cast<int>((axis == Axis::rows ? plan.rows : plan.cols).stage_count());
          for (int k = 0; k <= stages; ++k) {
            const StageStop stop{axis, k};
            ComplexImage expected = input;
            cpu::transform_2d(plan, d, expected, stop);
            const ComplexImage out = run_transform(*cl, plan, input, d, v, stop);
            EXPECT_LT(test::relative_l2_error(out.data, test::to_double(expected.data)), bound)
                << name(s) << " " << to_string(d) << " " << variant_name(v) << " " << to_string(axis)
                << " stop after stage " << k << (pass == ClColumnPass::transpose ? " (transpose)" : "");
          }
        }
  }
  cl->set_column_pass(ClColumnPass::strided);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ClStages,
                         ::testing::Values(Size{60, 28}, Size{11, 26}, Size{34, 7}, Size{13, 49}),
                         [](const auto& param_info) { return name(param_info.param); });

// ---- timings

TEST(ClBackend, TimingsNameEveryDispatch) {
  REQUIRE_CL(cl);
  const Plan2D plan = make_plan_2d(60, 17);  // rows 4 3 5; cols 17 (Bluestein)
  cl->take_timings();
  for (KernelVariant v : {KernelVariant::plain, KernelVariant::fused}) {
    run_transform(*cl, plan, random_image(60, 17, 1), Direction::forward, v);
    const std::vector<TimingRecord> t = cl->take_timings();
    std::set<int> row_stages;
    int twiddles = 0, digit_reverse = 0, bluestein_pre = 0;
    for (const TimingRecord& r : t) {
      EXPECT_GE(r.milliseconds, 0.0) << r.kernel;
      EXPECT_GT(r.bytes, 0u) << r.kernel;
      EXPECT_FALSE(r.host_measured) << r.kernel;
      if (r.kernel.rfind("radix_", 0) == 0 && r.axis == Axis::rows) row_stages.insert(r.stage);
      if (r.kernel.find("twiddle_") != std::string::npos) ++twiddles;
      if (r.kernel == "digit_reverse") ++digit_reverse;
      if (r.kernel == "bluestein_premultiply") {
        ++bluestein_pre;
        EXPECT_EQ(r.axis, Axis::cols);
        EXPECT_EQ(r.radix, 17u);
      }
    }
    EXPECT_EQ(row_stages, (std::set<int>{0, 1, 2})) << variant_name(v);
    EXPECT_EQ(digit_reverse, 2) << variant_name(v);
    EXPECT_EQ(bluestein_pre, 1) << variant_name(v);
    // plain: a twiddle kernel before rows stages 1 and 2 and before the inner m = 64 stages 1..2
    // of both inner FFTs ("bluestein_fft_twiddle_plain", "bluestein_ifft_..."); fused: none.
    if (v == KernelVariant::fused) {
      EXPECT_EQ(twiddles, 0);
    } else {
      EXPECT_EQ(twiddles, 2 + 2 * 2);
    }
    double total = 0;
    for (const TimingRecord& r : t) total += r.milliseconds;
    EXPECT_GT(total, 0.0) << "profiling events gave no time at all";
  }
}

TEST(ClBackend, FastVariantRunsWholeAxisKernelsWhereSupported) {
  REQUIRE_CL(cl);
  // 64 x 48: every factor <= 13, so the fast path (kernels/fast_fft.cl) takes both axes.
  const Plan2D plan = make_plan_2d(64, 48);
  const ComplexImage input = random_image(64, 48, 8);
  cl->take_timings();
  for (Direction d : {Direction::forward, Direction::inverse}) {
    const ComplexImage out = run_transform(*cl, plan, input, d, KernelVariant::fast);
    EXPECT_LT(test::relative_l2_error(out.data, test::fftw_2d(test::to_double(input.data), 64, 48, d)),
              test::float_fft_tolerance(64 * 48));
    std::vector<std::string> kernels;
    for (const TimingRecord& r : cl->take_timings()) kernels.push_back(r.kernel);
    EXPECT_EQ(kernels, (std::vector<std::string>{"fast_rows", "fast_cols"})) << to_string(d);
  }
  // A stop inside an axis takes the fused stage pipeline (stage-by-stage tests cover its values).
  run_transform(*cl, plan, input, Direction::forward, KernelVariant::fast, StageStop{Axis::rows, 1});
  bool fused_ran = false;
  for (const TimingRecord& r : cl->take_timings()) fused_ran |= r.kernel == "digit_reverse";
  EXPECT_TRUE(fused_ran);
}

// ---- display on the device against core render_spectrum

TEST(ClBackend, DisplayMatchesRenderSpectrum) {
  REQUIRE_CL(cl);
  // Complex random data: no bin sits exactly on the negative real axis, where arg flips sign.
  for (Size s : {Size{64, 48}, Size{31, 17}}) {
    const Plan2D plan = make_plan_2d(s.w, s.h);
    const ComplexImage input = random_image(s.w, s.h, 99);
    const ComplexImage spectrum = run_transform(*cl, plan, input, Direction::forward, KernelVariant::fused);
    std::vector<SpectrumSettings> all;
    for (SpectrumComponent c : {SpectrumComponent::magnitude, SpectrumComponent::phase, SpectrumComponent::real,
                                SpectrumComponent::imaginary, SpectrumComponent::phase_hue})
      for (Colormap m : {Colormap::gray, Colormap::viridis, Colormap::twilight})
        for (SpectrumScale sc : {SpectrumScale::log, SpectrumScale::linear}) {
          SpectrumSettings st;
          st.component = c;
          st.colormap = m;
          st.scale = sc;
          all.push_back(st);
        }
    SpectrumSettings fixed;
    fixed.auto_range = false;
    fixed.range_min = 1.0f;
    fixed.range_max = 4.0f;
    fixed.gain = 1.5f;
    fixed.shift = false;
    all.push_back(fixed);

    for (const SpectrumSettings& st : all) {
      const RgbaImage expected = render_spectrum(spectrum, st);
      const RgbaImage got = cl->render_display(st);
      ASSERT_EQ(got.data.size(), expected.data.size());
      // A value within float rounding of a colour-index boundary may land on the neighbouring
      // LUT entry; allow that for at most 1% of pixels, and 2 LSB everywhere else.
      std::size_t off_by_index = 0, worst = 0;
      for (std::size_t i = 0; i < got.data.size(); i += 4) {
        int diff = 0;
        for (int c = 0; c < 4; ++c) diff = std::max(diff, std::abs(int(got.data[i + c]) - int(expected.data[i + c])));
        if (diff > 2) ++off_by_index;
        worst = std::max<std::size_t>(worst, static_cast<std::size_t>(diff));
      }
      EXPECT_LE(off_by_index, got.data.size() / 4 / 100)
          << name(s) << " component " << to_string(st.component) << " colormap " << to_string(st.colormap)
          << " worst " << worst;
    }
  }
}

TEST(ClBackend, InteropPathIsReported) {
  REQUIRE_CL(cl);
  EXPECT_FALSE(cl->interop_path().empty());
}

// ---- programs

// The register bound NVIDIA's PTX is given (ProgramKey::max_registers): stated after each
// entry's parameter list, where PTX puts performance directives, and nothing else changed.
TEST(ClPrograms, PtxGetsTheRegisterBoundAfterEachEntrysParameters) {
  const std::string ptx =
      ".version 9.0\n.target sm_90, texmode_independent\n.address_size 64\n\n"
      ".entry first(\n\t.param .u64 .ptr .global .align 8 first_param_0,\n\t.param .u32 first_param_1\n)\n"
      ".reqntid 256, 1, 1\n{\n\tret;\n}\n"
      ".entry second(\n\t.param .f32 second_param_0\n)\n{\n\tret;\n}\n";
  const std::string patched = cl_detail::ptx_with_max_registers(ptx, 128);
  EXPECT_NE(patched.find("first_param_1\n)\n.maxnreg 128\n.reqntid 256, 1, 1\n{"), std::string::npos) << patched;
  EXPECT_NE(patched.find("second_param_0\n)\n.maxnreg 128\n{"), std::string::npos) << patched;
  std::string restored = patched;
  for (std::size_t at; (at = restored.find("\n.maxnreg 128")) != std::string::npos;) restored.erase(at, 13);
  EXPECT_EQ(restored, ptx);
  const std::string no_entry = "// PoCL or another binary\n";
  EXPECT_EQ(cl_detail::ptx_with_max_registers(no_entry, 96), no_entry);
}

// ---- devices

TEST(ClBackend, ListsDevicesAndChoosesByIdOrName) {
  REQUIRE_CL(cl);
  const std::vector<DeviceInfo> devices = list_cl_devices();
  ASSERT_FALSE(devices.empty());
  for (const DeviceInfo& d : devices) {
    EXPECT_EQ(d.backend, BackendKind::cl);
    EXPECT_NE(d.id.find(':'), std::string::npos) << d.id;
    EXPECT_FALSE(d.name.empty());
  }
  BackendOptions by_id;
  by_id.cl_device = devices.front().id;
  EXPECT_NE(make_cl_backend(by_id)->device_name().find(devices.front().name), std::string::npos);
  BackendOptions by_name;
  std::string fragment = devices.front().name.substr(0, 6);
  for (char& c : fragment) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  by_name.cl_device = fragment;
  EXPECT_NO_THROW(make_cl_backend(by_name));
  BackendOptions missing;
  missing.cl_device = "no such device zzz";
  EXPECT_THROW(make_cl_backend(missing), BackendError);
}

// ---- --kernel-dir

fs::path copy_kernels(const std::string& tag) {
  const char* src = std::getenv("FFTSCOPE_SOURCE_DIR");
  const fs::path from = fs::path(src ? src : FFTSCOPE_TEST_SOURCE_DIR) / "kernels";
  const fs::path to = fs::temp_directory_path() / ("fftscope_cl_kernels_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(to);
  fs::create_directories(to);
  for (const auto& e : fs::directory_iterator(from)) fs::copy_file(e.path(), to / e.path().filename());
  return to;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  // A distinct modification time even on coarse file systems.
  fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(2));
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ClBackend, BrokenKernelDirGivesBuildLogNotCrash) {
  REQUIRE_CL(cl);
  const fs::path dir = copy_kernels("broken");
  write_file(dir / "radix.cl", read_file(dir / "radix.cl") + "\nkernel void broken( { this is not C }\n");
  BackendOptions options;
  options.source_dir = dir.string();
  std::unique_ptr<Backend> b = make_cl_backend(options);
  try {
    b->prepare(make_plan_2d(8, 8), KernelVariant::fused);
    FAIL() << "a broken radix.cl must not build";
  } catch (const BackendError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("radix.cl"), std::string::npos) << what.substr(0, 2000);
    EXPECT_NE(what.find("build log"), std::string::npos) << what.substr(0, 2000);
    EXPECT_NE(what.find("broken"), std::string::npos) << what.substr(0, 2000);
  }
  fs::remove_all(dir);
}

TEST(ClBackend, KernelDirRebuildsWhenAFileChanges) {
  REQUIRE_CL(cl);
  const fs::path dir = copy_kernels("reload");
  BackendOptions options;
  options.source_dir = dir.string();
  std::unique_ptr<Backend> b = make_cl_backend(options);
  const Plan2D plan = make_plan_2d(8, 12);  // rows 4 2: the radix-2 kernel runs
  const ComplexImage input = random_image(8, 12, 4);
  const auto expected = test::fftw_2d(test::to_double(input.data), 8, 12, Direction::forward);
  EXPECT_LT(test::relative_l2_error(run_transform(*b, plan, input, Direction::forward).data, expected),
            test::float_fft_tolerance(8 * 12));
  // A kernel edited on disk: the next execute rebuilds from it (here, deliberately wrong DFT_2).
  const std::string good = read_file(dir / "complex.cl");
  std::string bad = good;
  const std::string from = "c0 = v0 + c1;";
  ASSERT_NE(bad.find(from), std::string::npos);
  bad.replace(bad.find(from), from.size(), "c0 = v0 + 2.0f * c1;");
  write_file(dir / "complex.cl", bad);
  EXPECT_GT(test::relative_l2_error(run_transform(*b, plan, input, Direction::forward).data, expected), 1e-2);
  write_file(dir / "complex.cl", good);
  EXPECT_LT(test::relative_l2_error(run_transform(*b, plan, input, Direction::forward).data, expected),
            test::float_fft_tolerance(8 * 12));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fftscope
