// The OpenGL fast path (shaders/fast_fft.comp through GlFastPath) against FFTW in double
// precision, in a headless EGL context (CI: Mesa llvmpipe).
#include <gtest/gtest.h>

#include <glad/gl.h>


#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "backend/gl/gl_context.h"
#include "backend/gl/gl_fast_display.h"
#include "backend/gl/gl_fast_path.h"
#include "backend/gl/gl_timers.h"
#include "core/errors.h"
#include "display_reference.h"
#include "fast_cases.h"
#include "support/gl_textures.h"
#include "support/gpu_skip.h"
#include "support/shader_copy.h"
#include "support/reference.h"

namespace fftscope {
namespace {

using namespace detail;

struct GlEnv {
  std::unique_ptr<EglContext> context;
  std::unique_ptr<ProgramCache> programs;
  std::unique_ptr<DispatchTimers> timers;
};

// One context and program cache for the whole test program (llvmpipe compiles slowly). Never
// destroyed: at exit NVIDIA's driver tears itself down (atexit handlers registered when EGL
// loaded it, so they run before a static's destructor) and deleting GL objects afterwards
// crashed the test program on the H100.
GlEnv* env_or_null(std::string& why) {
  static GlEnv* env = nullptr;
  static std::string reason;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      auto e = std::make_unique<GlEnv>();
      e->context = EglContext::create();
      e->context->make_current();
      e->programs = std::make_unique<ProgramCache>(SourceFiles({}, FFTSCOPE_TEST_SOURCE_DIR "/shaders"), "#version 430 core");
      // Host timing: llvmpipe's GPU timer is not meaningful, and the test only checks records.
      e->timers = std::make_unique<DispatchTimers>(DispatchTimers::Mode::host);
      std::fprintf(stderr, "fast path tests on GL: %s\n", current_gl_description().c_str());
      env = e.release();
    } catch (const std::exception& e) {
      reason = e.what();
    }
  }
  why = reason;
  if (env) env->context->make_current();
  return env;
}

// Transforms random data of width x height on the fast path; returns the relative L2 error
// against FFTW (double) and checks the timing records (names and bytes of every dispatch, the
// two passes of a Bluestein axis included). `tolerance`, where given, receives the bound for the
// lengths the kernels ran (test::fast_tolerance).
double run_fast(GlEnv& env, std::size_t width, std::size_t height, Direction direction, const fast::Tuning& tuning,
                std::uint64_t seed, double* tolerance = nullptr, fast::Measuring measure = {}) {
  const auto input = test::random_complex(width * height, seed);
  std::vector<Complex> data = test::to_float(input);
  GlFastPath fast_path(*env.programs, env.timers.get(), tuning, std::move(measure));
  EXPECT_TRUE(fast_path.supports(width, height));
  fast_path.prepare(width, height);
  const GLuint buffer = make_storage_buffer(data.size() * sizeof(Complex), data.data(), GL_DYNAMIC_COPY);
  env.timers->take();
  fast_path.dispatch(buffer, direction);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(data.size() * sizeof(Complex)), data.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

  const std::vector<TimingRecord> records = env.timers->take();
  // Rows first, unless in-place four-step columns leave them swapped in pairs for the rows to undo.
  const bool columns_first = fast_path.route(Axis::rows).swap.has_value();
  std::vector<TimingRecord> expected = test::expected_fast_records(fast_path.route(Axis::rows), height);
  std::vector<TimingRecord> cols = test::expected_fast_records(fast_path.route(Axis::cols), width);
  expected.insert(columns_first ? expected.begin() : expected.end(), cols.begin(), cols.end());
  EXPECT_EQ(records.size(), expected.size());
  for (std::size_t i = 0; i < std::min(records.size(), expected.size()); ++i) {
    EXPECT_EQ(records[i].kernel, expected[i].kernel);
    EXPECT_EQ(records[i].axis, expected[i].axis) << records[i].kernel;
    EXPECT_EQ(records[i].bytes, expected[i].bytes) << records[i].kernel;
    EXPECT_EQ(records[i].radix, 0u);
  }
  const double err = test::relative_l2_error(data, test::fftw_2d(input, width, height, direction));
  std::fprintf(stderr, "  %zux%zu %s: relative L2 error %.2e (%s | %s)\n", width, height, to_string(direction).c_str(), err,
               fast_path.route(Axis::rows).describe().c_str(), fast_path.route(Axis::cols).describe().c_str());
  if (tolerance)
    *tolerance = test::fast_tolerance(width, height, fast_path.route(Axis::rows), fast_path.route(Axis::cols));
  return err;
}

// For the shared schedule checks (fast_cases.h): a fast path of this API, and run_fast.
auto make_path(GlEnv& env) {
  return [&env](const fast::Tuning& tuning) { return GlFastPath(*env.programs, nullptr, tuning); };
}
auto runner(GlEnv& env) {
  return [&env](std::size_t w, std::size_t h, Direction d, const fast::Tuning& tuning, std::uint64_t seed,
                double* tolerance) { return run_fast(env, w, h, d, tuning, seed, tolerance); };
}
// The same with measured planning (the shared measured checks).
auto make_measured_path(GlEnv& env) {
  return [&env](const fast::Tuning& tuning, const fast::Measuring& measuring) {
    return GlFastPath(*env.programs, nullptr, tuning, measuring);
  };
}
auto measured_runner(GlEnv& env) {
  return [&env](std::size_t w, std::size_t h, Direction d, const fast::Tuning& tuning, const fast::Measuring& measuring,
                std::uint64_t seed, double* tolerance) {
    return run_fast(env, w, h, d, tuning, seed, tolerance, measuring);
  };
}

using test::FastCase;
using test::FastSize;
class GlFast : public ::testing::TestWithParam<FastCase> {};

TEST_P(GlFast, MatchesFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const FastSize size = std::get<0>(GetParam());
  const Direction direction = std::get<1>(GetParam());
  const std::size_t w = size.width, h = size.height;
  double tolerance = 0;
  const double err = run_fast(*env, w, h, direction, fast::gl_default_tuning(), w * 131 + h, &tolerance);
  EXPECT_LT(err, tolerance) << w << "x" << h << " " << to_string(direction);
}

INSTANTIATE_TEST_SUITE_P(Sizes, GlFast, test::fast_cases(), test::fast_case_name);

// The split for lines longer than shared memory, forced on small sizes by capping it.
TEST(GlFastSplit, MatchesFftwWhenLinesExceedSharedMemory) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::split_lines, false, make_path(*env), runner(*env));
}

// The scheduling options on and off (test::expect_schedule_options_match_fftw).
TEST(GlFastSchedule, PrefetchAndStage0FromRegistersMatchFftwEitherWay) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::schedule_options, false, make_path(*env), runner(*env));
}

// The split in time against the split in frequency (test::expect_split_in_time_matches_fftw).
TEST(GlFastSchedule, SplitInTimeMatchesFftwEitherWay) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::split_in_time, false, make_path(*env), runner(*env));
}

// The split in frequency's sub-transforms looped and unrolled
// (test::expect_sub_transform_loop_matches_fftw).
TEST(GlFastSchedule, SubTransformLoopMatchesFftwEitherWay) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::sub_transform_loop, false, make_path(*env), runner(*env));
}

// GL's own first-round column splits (docs/fast_path.md, thirty-second session) against FFTW:
// 2401-point columns split by 7, looped (the H100 takes it by Tuning::first_split_odd_min,
// llvmpipe's 32 KiB by the second round: which rule, FastPlan's tests), 1080-point columns
// split with fewer stages than the first split that fits (Tuning::first_split_fewer_stages), and
// 1875-point columns split by 3 or 5 (Tuning::odd_length_splits: 8 split 3 x 625 on NVIDIA,
// 8 split 5 x 375 in llvmpipe's 32 KiB).
TEST(GlFastSchedule, FirstRoundColumnSplitsMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const fast::Tuning gl = fast::gl_default_tuning();
  fast::Tuning first_fit = gl;
  first_fit.first_split_fewer_stages = 0;
  // Where the device reports its multiprocessors, the split by 7 wants min_groups_per_unit groups
  // of 8 columns on each (the H100: 2 112 columns; 8 columns keep 4 unsplit there).
  const std::uint32_t units = fast_limits().compute_units;
  const std::size_t wide = units != 0 ? std::size_t{8} * gl.min_groups_per_unit * units : 8;
  auto run = runner(*env);
  for (const auto& [w, h] : {std::pair<std::size_t, std::size_t>{wide, 2401}, {8, 1080}, {8, 1875}}) {
    GlFastPath probe(*env->programs, nullptr, gl);
    probe.prepare(w, h);
    const fast::AxisPlan& cols = probe.plan(Axis::cols);
    GlFastPath rules(*env->programs, nullptr, first_fit);
    rules.prepare(w, h);
    if (h == 2401) {
      EXPECT_EQ(cols.pre_radix, 7u) << cols.describe();
      EXPECT_TRUE(cols.sub_transform_loop) << cols.describe();
    } else if (h == 1875) {
      EXPECT_TRUE(cols.pre_radix == 3 || cols.pre_radix == 5) << cols.describe();
      EXPECT_GE(cols.lines_per_group, 4u) << cols.describe();
      EXPECT_EQ(rules.plan(Axis::cols).describe(), cols.describe()) << "first_split_fewer_stages has no say here";
    } else {
      EXPECT_LT(cols.radices.size(), rules.plan(Axis::cols).radices.size())
          << cols.describe() << " | " << rules.plan(Axis::cols).describe();
    }
    test::expect_both_directions_match(run, w, h, gl, 71 + h, cols.describe());
  }
}

// GL's rows padded where 2^4 divides their length and 5^3 does not (Tuning::padded_rows_min_twos,
// thirty-third session) and unpadded otherwise, split rows by their sub-length, against FFTW.
TEST(GlFastSchedule, PaddedAndUnpaddedRowsMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const fast::Tuning gl = fast::gl_default_tuning();
  auto run = runner(*env);
  for (const auto& [w, h, pad] : {std::tuple<std::size_t, std::size_t, bool>{1920, 3, true},
                                  {2160, 2, true},
                                  {4000, 3, false},
                                  {5400, 2, false},
                                  {7168, 2, true}}) {
    GlFastPath probe(*env->programs, nullptr, gl);
    probe.prepare(w, h);
    const fast::AxisPlan& rows = probe.plan(Axis::rows);
    EXPECT_EQ(rows.local_layout == fast::LocalLayout::padded, pad) << rows.describe();
    test::expect_both_directions_match(run, w, h, gl, 83 + w, rows.describe());
  }
}

// Radix-25 stages (5 x 5 in registers) against FFTW.
TEST(GlFastSchedule, Radix25MatchesFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::radix25, false, make_path(*env), runner(*env));
}

// Radix-10 and radix-15 stages (2 x 5 and 3 x 5 in registers) against FFTW, unsplit and split.
TEST(GlFastSchedule, CompositeRadicesMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::composite_radices, false, make_path(*env), runner(*env));
}

// Rows in radix-16 stages where those are fewer than radix 8's (1440: 16 10 9), GL's default rule.
TEST(GlFastSchedule, RowsRadix16MatchesFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::rows_radix16, false, make_path(*env), runner(*env));
}

// Split columns in groups that are not whole warps, their first stage from the registers
// (Tuning::exact_split_threads: 3125-point columns in 1 000 invocations on the H200's GL).
TEST(GlFastSchedule, ExactSplitThreadsMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::exact_split_threads, false, make_path(*env), runner(*env));
}

// Columns in radix-16 stages (2048-point split 8 x 256 (16 16) on GL), as GL's measured planning
// candidate Tuning::split_columns_radix16 plans them.
TEST(GlFastSchedule, ColumnsRadix16MatchesFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::columns_radix16, false, make_path(*env), runner(*env));
}

// Split columns in whole warps past 512 invocations, unrolled (Tuning::split_columns_whole_warps:
// 3024- and 3456-point columns in 864 on the H100's GL).
TEST(GlFastSchedule, WholeWarpSplitColumnsMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::whole_warp_split_columns, false, make_path(*env), runner(*env));
}

// Rows through half the local memory where few groups are resident (Tuning::rows_halves_above:
// 1000-point rows, two per group).
TEST(GlFastSchedule, RowsThroughHalvesMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::rows_halves, false, make_path(*env), runner(*env));
}

// Even columns split by 5 in groups of 8 where they would go four by their halves
// (Tuning::even_columns_odd_splits: 2860-point columns on the H100, 8 split 5 x 572).
TEST(GlFastSchedule, EvenColumnsOddSplitsMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::even_columns_odd_splits, false, make_path(*env), runner(*env));
}

// Work-groups balanced to the widest stage's rounds, and four-step columns (fast_cases.h).
TEST(GlFastSchedule, BalancedGroupsMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::balanced_groups, false, make_path(*env), runner(*env));
}

// Split columns (Tuning::col_one_round_threads), Bluestein's split rows
// (bluestein_row_one_round_threads) and unsplit rows (row_one_round_threads,
// odd_row_one_round_threads) in one round of more than 512 invocations against rounds of at most
// 512 (test::expect_one_round_matches_fftw on the cases of fast_cases.h).
TEST(GlFastSchedule, SplitColumnsInOneRoundMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::one_round_split_columns, false, make_path(*env), runner(*env));
}

TEST(GlFastSchedule, BluesteinRowsInOneRoundMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  for (const std::size_t n : {2053u, 4099u}) {
    GlFastPath probe(*env->programs, nullptr);
    probe.prepare(n, 2);
    ASSERT_TRUE(probe.route(Axis::rows).bluestein()) << probe.route(Axis::rows).describe();
  }
  test::run_schedule_check(test::ScheduleCheck::one_round_bluestein_rows, false, make_path(*env), runner(*env));
}

TEST(GlFastSchedule, RowsInOneRoundMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::one_round_rows, false, make_path(*env), runner(*env));
}

TEST(GlFastSchedule, FourStepColumnsMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::four_step_columns, false, make_path(*env), runner(*env));
}

TEST(GlFastSchedule, TiledColumnsMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::tiled_columns, false, make_path(*env), runner(*env));
}

TEST(GlFastSchedule, InPlaceFourStepColumnsSwapRowPairs) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::row_pairs, false, make_path(*env), runner(*env));
}

// Measured planning (test::expect_measured_plans_match_fftw).
TEST(GlFastSchedule, MeasuredPlansComeFromTheCandidatesAndMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::expect_measured_plans_match_fftw(fast::gl_default_tuning(), true, fast_limits(), make_measured_path(*env),
                                         measured_runner(*env));
}

// Measured planning's timing: a candidate that runs the planned route's dispatches eight times
// reads slower than the route beside it, whether the GPU timer measures (H100) or the host clock
// stands in (llvmpipe); and warming either measures a steady time after at least the time asked or finds
// that the GPU timer measures nothing.
TEST(GlMeasuredTiming, PairedTimesRankEightRunsAboveOne) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  constexpr std::size_t kWidth = 256, kHeight = 64;
  const auto routes = fast::route_image(kWidth, kHeight, fast_limits(), fast::gl_default_tuning());
  ASSERT_TRUE(routes);
  const GlFastAxis rows(*env->programs, nullptr, routes->rows, kHeight);
  ASSERT_EQ(routes->rows.scratch_elements(kHeight), 0u);
  const std::vector<Complex> data = test::to_float(test::random_complex(kWidth * kHeight, 7));
  const GLuint buffer = make_storage_buffer(data.size() * sizeof(Complex), data.data(), GL_DYNAMIC_COPY);
  const auto once = [&] { rows.dispatch(buffer, buffer, 0, Direction::forward); };
  const auto eight = [&] {
    for (int i = 0; i < 8; ++i) rows.dispatch(buffer, buffer, 0, Direction::forward);
  };
  const Warming warming = warm_until_steady(once, 200);
  if (warming.batch_ms >= 0) {
    EXPECT_GT(warming.batch_ms, 0.0);
    EXPECT_GE(warming.spent_ms, 200.0);
  }
  EXPECT_LE(warming.spent_ms, 6000.0);
  const PairedTimes t = paired_median_ms(once, eight);
  glDeleteBuffers(1, &buffer);
  ASSERT_TRUE(t.ok());
  std::fprintf(stderr, "  one run %.4f ms, eight %.4f ms\n", t.base_ms, t.candidate_ms);
  EXPECT_GT(t.candidate_ms, 3 * t.base_ms);
}

// Bluestein splits that use the padded lines' live part (pass 2 accumulates the live bins
// sub-transform by sub-transform; pass 1, where the lines fit no other way, holds only the live
// inputs and forms each y_q from them) against splits that do not, with the first stage from the
// registers and through local memory.
TEST(GlFastSchedule, LiveBlocksMatchFftwEitherWay) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::live_blocks, false, make_path(*env), runner(*env));
}

// The exchange through half the shared memory and the plain complex exchange (fast_cases.h).
TEST(GlFastSchedule, LocalHalvesMatchFftwEitherWay) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::local_halves, false, make_path(*env), runner(*env));
}

// Rows and columns through the swizzled layout and through the padded one (fast_cases.h).
TEST(GlFastSchedule, SwizzledLinesMatchFftwEitherWay) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::swizzled_lines, false, make_path(*env), runner(*env));
}

// GL's tuning folding heights up to `max_length` at any size (GL's default folds only images of
// 128 MiB or more: Tuning::fold_columns_min_bytes).
fast::Tuning folding(std::uint32_t max_length) {
  fast::Tuning t = fast::gl_default_tuning();
  t.fold_columns_max_length = max_length;
  t.fold_columns_min_bytes = 0;
  return t;
}

// Texture inputs (fast::Tuning::texture_inputs, texture_columns_max_length, texture_four_step,
// texture_folded_columns): which axes read the
// image through a buffer texture under which tuning, each way against FFTW; then a forward and an
// inverse transform back to back with only texture-fetch barriers after them, as the backend
// runs transforms one after another, against the input.
TEST(GlFastSchedule, TextureInputsFollowTheTuningAndMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const fast::Tuning both = fast::gl_default_tuning();
  ASSERT_EQ(both.texture_inputs, 3u);
  fast::Tuning none = both, rows_only = both, any_length = both;
  none.texture_inputs = 0;
  rows_only.texture_inputs = 1;
  any_length.texture_columns_max_length = 0;
  // In-place four-step columns (rows in swapped pairs, which never read by texture), and the
  // same through the scratch (test::expect_row_pairs_match_fftw's first case).
  const test::FastRowPairCase pair_case = test::fast_row_pair_cases[0];
  fast::Tuning four_step_in_place = test::row_pair_tuning(both, pair_case, 1);
  four_step_in_place.texture_four_step = 1;
  fast::Tuning four_step_scratch = test::row_pair_tuning(both, pair_case, 0);
  four_step_scratch.texture_four_step = 1;
  fast::Tuning four_step_storage = test::row_pair_tuning(both, pair_case, 1);
  four_step_storage.texture_four_step = 0;
  const fast::Tuning folded = folding(4096);
  fast::Tuning folded_texture = folded;
  folded_texture.texture_folded_columns = 1;
  struct Case {
    std::size_t width, height;
    const fast::Tuning* tuning;
    bool rows, cols;
  };
  const Case cases[] = {
      {64, 48, &both, true, true},        {64, 48, &none, false, false}, {64, 48, &rows_only, true, false},
      {8, 2187, &both, true, false},      // columns over 2048 points keep the storage loads
      {8, 2187, &any_length, true, true},  //
      {211, 5, &both, false, true},       // Bluestein rows (211 is prime) never read by texture
      {pair_case.w, pair_case.h, &four_step_in_place, false, true},
      {pair_case.w, pair_case.h, &four_step_storage, false, false},  // texture_four_step 0
      {pair_case.w, pair_case.h, &four_step_scratch, true, false},
      {96, 80, &folded, true, false},  // folded columns keep the storage loads (texture_folded_columns 0)
      {96, 80, &folded_texture, true, true},
  };
  for (const Case& c : cases) {
    GlFastPath path(*env->programs, nullptr, *c.tuning);
    path.prepare(c.width, c.height);
    const std::string what = std::to_string(c.width) + "x" + std::to_string(c.height) + " " +
                             path.route(Axis::rows).describe() + "; " + path.route(Axis::cols).describe();
    EXPECT_EQ(c.tuning->four_step_min_bytes == 1, path.route(Axis::cols).four_step()) << what;
    EXPECT_EQ(path.fast_axis(Axis::rows).reads_by_texture(), c.rows) << what;
    EXPECT_EQ(path.fast_axis(Axis::cols).reads_by_texture(), c.cols) << what;
    for (Direction d : {Direction::forward, Direction::inverse}) {
      double tolerance = 0;
      const double err = run_fast(*env, c.width, c.height, d, *c.tuning, c.width * 7 + c.height, &tolerance);
      EXPECT_LT(err, tolerance) << c.width << "x" << c.height << " " << to_string(d);
    }
  }

  const std::size_t w = 96, h = 80;
  GlFastPath path(*env->programs, nullptr, both);
  path.prepare(w, h);
  ASSERT_TRUE(path.fast_axis(Axis::rows).reads_by_texture() && path.fast_axis(Axis::cols).reads_by_texture());
  const std::vector<Complex> input = test::to_float(test::random_complex(w * h, 4242));
  std::vector<Complex> data = input;
  const GLuint buffer = make_storage_buffer(data.size() * sizeof(Complex), data.data(), GL_DYNAMIC_COPY);
  const BufferTexture texture(buffer);
  for (int round = 0; round < 3; ++round) {
    path.dispatch(buffer, texture.id(), Direction::forward, GL_TEXTURE_FETCH_BARRIER_BIT);
    path.dispatch(buffer, texture.id(), Direction::inverse, GL_TEXTURE_FETCH_BARRIER_BIT);
  }
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(data.size() * sizeof(Complex)), data.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_LT(test::relative_l2_error(data, test::to_double(input)), 1e-5);
}

// The columns' first radix-2 step in the rows pass (Tuning::fold_columns_max_length, FOLD_ROWS):
// where the height is even and within the bound the rows store into a second buffer and the
// half-length columns run there; both directions against FFTW (run_fast copies the result back),
// rows of one and of several lines per group, split and unsplit columns, the rows read by texture
// and from storage (the half-columns read from storage either way: texture_folded_columns, whose
// other setting TextureInputsFollowTheTuningAndMatchFftw covers); an odd height and one over the bound keep the plain passes.
TEST(GlFastSchedule, FoldedColumnsMatchFftw) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const fast::Tuning fold = folding(1024);
  fast::Tuning fold_storage = fold;
  fold_storage.texture_inputs = 0;
  const fast::Tuning fold_long = folding(4096);  // 2048-point half-columns, split through the registers
  struct Case {
    std::size_t width, height;
    const fast::Tuning* tuning;
    bool folds;
  };
  const Case cases[] = {
      {64, 64, &fold, true},          {48, 32, &fold, true},   {40, 128, &fold_storage, true},
      {20, 12, &fold, true},          {6, 2000, &fold, false},  // over the bound
      {8, 4096, &fold_long, true},    {30, 4, &fold, true},     {16, 9, &fold, false},  // odd
      {1000, 6, &fold, true},
  };
  for (const Case& c : cases) {
    GlFastPath path(*env->programs, nullptr, *c.tuning);
    path.prepare(c.width, c.height);
    const std::string what = std::to_string(c.width) + "x" + std::to_string(c.height) + " " +
                             path.route(Axis::rows).describe() + "; " + path.route(Axis::cols).describe();
    EXPECT_EQ(path.folds(), c.folds) << what;
    EXPECT_EQ(path.route(Axis::cols).n, c.folds ? c.height / 2 : c.height) << what;
    for (Direction d : {Direction::forward, Direction::inverse}) {
      double tolerance = 0;
      const double err = run_fast(*env, c.width, c.height, d, *c.tuning, c.width * 5 + c.height, &tolerance);
      EXPECT_LT(err, tolerance) << what << " " << to_string(d);
    }
  }
}

// Measured planning with the fold on: each axis is timed unfolded, in place (the candidates'
// tunings carry the fold too), and the choice folded after; the result against FFTW.
TEST(GlFastSchedule, MeasuredPlansFoldTheChosenColumns) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const fast::Tuning fold = folding(4096);
  const fast::Measuring measuring{fast::measure_candidates(fold, true), nullptr, "test device"};
  const std::size_t w = 64, h = 48;
  GlFastPath path(*env->programs, nullptr, fold, measuring);
  path.prepare(w, h);
  EXPECT_TRUE(path.folds());
  EXPECT_EQ(path.route(Axis::rows).fold, h);
  EXPECT_EQ(path.route(Axis::cols).n, h / 2) << path.route(Axis::cols).describe();
  for (Direction d : {Direction::forward, Direction::inverse}) {
    double tolerance = 0;
    const double err = run_fast(*env, w, h, d, fold, 91, &tolerance, measuring);
    EXPECT_LT(err, tolerance) << to_string(d);
  }
}

// A folded size through the two-buffer call: the result in the second buffer, the first left
// holding the input; forward then inverse back, three times, behind texture-fetch barriers only.
TEST(GlFastSchedule, FoldedColumnsLeaveTheResultInTheSecondBuffer) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const fast::Tuning fold = folding(4096);
  const std::size_t w = 96, h = 80;
  GlFastPath path(*env->programs, nullptr, fold);
  path.prepare(w, h);
  ASSERT_TRUE(path.folds());
  const auto input = test::random_complex(w * h, 77);
  const std::vector<Complex> floats = test::to_float(input);
  const auto bytes = static_cast<GLsizeiptr>(floats.size() * sizeof(Complex));
  GLuint buffers[2] = {make_storage_buffer(bytes, floats.data(), GL_DYNAMIC_COPY),
                       make_storage_buffer(bytes, nullptr, GL_DYNAMIC_COPY)};
  const BufferTexture textures[2] = {BufferTexture(buffers[0]), BufferTexture(buffers[1])};
  const auto read = [&](GLuint buffer) {
    std::vector<Complex> out(floats.size());
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, bytes, out.data());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return out;
  };
  EXPECT_EQ(path.dispatch(buffers[0], textures[0].id(), Direction::forward, GL_TEXTURE_FETCH_BARRIER_BIT, buffers[1],
                          textures[1].id()),
            buffers[1]);
  EXPECT_LT(test::relative_l2_error(read(buffers[1]), test::fftw_2d(input, w, h, Direction::forward)),
            test::float_fft_tolerance(w * h));
  EXPECT_EQ(read(buffers[0]), floats);
  EXPECT_THROW(path.dispatch(buffers[1], textures[1].id(), Direction::inverse, GL_TEXTURE_FETCH_BARRIER_BIT),
               std::logic_error);
  int current = 1;
  for (int round = 0; round < 3; ++round) {
    for (Direction d : {Direction::inverse, Direction::forward}) {
      const GLuint result = path.dispatch(buffers[current], textures[current].id(), d, GL_TEXTURE_FETCH_BARRIER_BIT,
                                          buffers[1 - current], textures[1 - current].id());
      ASSERT_EQ(result, buffers[1 - current]);
      current = 1 - current;
    }
  }
  EXPECT_LT(test::relative_l2_error(read(buffers[current]), test::fftw_2d(input, w, h, Direction::forward)),
            test::float_fft_tolerance(w * h));
  glDeleteBuffers(2, buffers);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// Lengths with a prime factor above 13 through Bluestein on the fast path (issue 6): per such
// axis an L-point pass from the image (times the chirp) into the scratch (times the filter), and
// an inverse L-point pass from the scratch into the image (times the chirp).
INSTANTIATE_TEST_SUITE_P(Primes, GlFast, test::fast_bluestein_cases(), test::fast_case_name);

// test::expect_bluestein_beside_a_split_axis_matches_fftw.
TEST(GlFastBluesteinSplit, MatchesFftwBesideASplitAxis) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::run_schedule_check(test::ScheduleCheck::bluestein_beside_a_split_axis, false, make_path(*env), runner(*env));
}

TEST(GlFastSupport, LargePrimeFactorsRunBluesteinAndOversizedImagesAreRefused) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  GlFastPath fast_path(*env->programs, nullptr);
  EXPECT_TRUE(fast_path.supports(17, 8));
  EXPECT_TRUE(fast_path.supports(97, 4099));
  // 4099^2: a scratch of 4099 x L (L = 9216 where the layout fits) must fit one shader storage
  // block (llvmpipe allows 128 MiB: refused there, and the fused pipeline's own scratch is larger).
  GLint64 max_block = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
  const std::uint64_t scratch = 8ull * 4099 * fast::bluestein_length(4099);
  std::fprintf(stderr, "  GL_MAX_SHADER_STORAGE_BLOCK_SIZE %lld, 4099^2 Bluestein scratch %llu bytes\n",
               static_cast<long long>(max_block), static_cast<unsigned long long>(scratch));
  EXPECT_EQ(fast_path.supports(4099, 4099), max_block <= 0 || scratch <= static_cast<std::uint64_t>(max_block));
  EXPECT_TRUE(fast_path.supports(64, 2 * 3 * 5 * 7));
  // 2^31 elements: over the shaders' 32-bit indices.
  EXPECT_FALSE(fast_path.supports(65536, 32768));
  EXPECT_THROW(fast_path.prepare(65536, 32768), BackendError);
  // The prepared routes and the memory held beyond the image: twiddles, chirp, filter, scratch.
  fast_path.prepare(17, 8);
  EXPECT_EQ(fast_path.route(Axis::rows).l, fast::bluestein_length(17));
  EXPECT_FALSE(fast_path.route(Axis::cols).bluestein());
  const std::uint64_t l = fast_path.route(Axis::rows).l;
  EXPECT_EQ(fast_path.extra_bytes(), 8 * (l + 17 + l + 8 + l * 8));
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// The real-input display path (issue 6): R2C rows + columns against FFTW's r2c (double), and the
// fused display columns against core render_spectrum of the full complex spectrum.
struct R2cCase {
  std::size_t width, height;
  std::uint64_t local_cap;  // 0: the device's; else forces the column split (see fast_cases.h)
  bool four_step = false;   // the display columns in two passes, under fast_four_step_local_bytes
  bool from_registers = false;  // Tuning::display_from_registers (the defaults' 0 on OpenCL)
  std::uint32_t halves_above = 0;  // Tuning::local_halves_above (0: the default, never)
  bool in_place = false;  // four-step pass B in place, the display rows reading its swapped rows
  bool one_row = false;   // Tuning::row_elements = width: split display rows one per group, by 2 in time
  bool unpack_after = false;  // Tuning::display_rows_unpack_after (GL's default 1)
};
// 128 x 512 and 80 x 729: the display columns (64 of 512 = 16 x 32 points, 40 of 729 = 27 x 27)
// in four steps; the last three: display rows coloured from the registers (GL's default; the
// others colour from shared memory), 96 x 54 unsplit, 512 x 960 split in time (as the other
// 512 x 960: from shared memory the combined bins a block at a time), 256 x 64 (8 rows of 256
// points per group) exchanging through half the shared memory; the two four-step sizes again
// with pass B in place (Tuning::four_step_in_place_min_bytes: rows swapped in pairs of 16 x 2 x 16 and
// 27 x 1 x 27). The last four: display rows split 2 x 256 in time one per group, as 8192-point
// rows on the H100: unpacked from Z's rows ky and H - ky as they load, then after their
// sub-transforms (Tuning::display_rows_unpack_after, GL's default) from the registers, from
// shared memory, and reading the rows that in-place four-step columns left swapped (512 x 512;
// odd heights in the OpenCL tests).
constexpr R2cCase r2c_cases[] = {{64, 48, 0},
                                 {96, 54, 0},
                                 {250, 250, 0},
                                 {1000, 8, 0},
                                 {512, 960, test::fast_split_local_bytes},
                                 {128, 512, 0, true},
                                 {80, 729, 0, true},
                                 {96, 54, 0, false, true},
                                 {512, 960, test::fast_split_local_bytes, false, true},
                                 {256, 64, 0, false, true, 1024},
                                 {128, 512, 0, true, false, 0, true},
                                 {80, 729, 0, true, false, 0, true},
                                 {512, 960, test::fast_split_local_bytes, false, true, 0, false, true},
                                 {512, 960, test::fast_split_local_bytes, false, true, 0, false, true, true},
                                 {512, 960, test::fast_split_local_bytes, false, false, 0, false, true, true},
                                 {512, 512, 0, true, true, 0, true, true, true}};

// Odd widths (the display only: the half spectrum needs an even one): the image's last pixel
// column pairs with zeros (fast::display_pairs_image). 63 x 48 and 45 x 27 (odd by odd) plain,
// 729 x 40 its display rows split 3 x 243 in time, 63 x 729 its 32 pair columns in four steps (also
// in place), 135 x 54 coloured from the registers, 243 x 64 through half the shared memory.
constexpr R2cCase odd_display_cases[] = {{63, 48, 0},
                                         {45, 27, 0},
                                         {729, 40, test::fast_split_local_bytes},
                                         {63, 729, 0, true},
                                         {135, 54, 0, false, true},
                                         {243, 64, 0, false, true, 1024},
                                         {63, 729, 0, true, false, 0, true}};

fast::Tuning r2c_tuning(const R2cCase& c) {
  fast::Tuning t;
  if (c.local_cap) t.local_bytes_cap = c.local_cap;
  if (c.four_step) {
    t.local_bytes_cap = test::fast_four_step_local_bytes;
    t.four_step_min_bytes = 1;
    t.four_step_max_direct_lines = 64;
  }
  t.display_from_registers = c.from_registers ? 1 : 0;
  if (c.halves_above) t.local_halves_above = c.halves_above;
  t.four_step_in_place_min_bytes = c.in_place ? 1 : 0;
  if (c.one_row) {
    t.row_elements = static_cast<std::uint32_t>(c.width);
    t.elements_per_thread = 8;  // 32 invocations: the first stage from the registers, so split in time
  }
  t.display_rows_unpack_after = c.unpack_after ? 1 : 0;
  return t;
}

TEST(GlFastDisplay, R2cHalfSpectrumMatchesFftwR2c) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  for (const R2cCase& c : r2c_cases) {
    GlFastDisplay display(*env->programs, env->timers.get(), r2c_tuning(c));
    ASSERT_TRUE(display.supports(c.width, c.height)) << c.width << "x" << c.height;
    display.prepare(c.width, c.height);
    if (c.local_cap) {
      EXPECT_GT(display.col_plan().pre_radix, 1u) << display.col_plan().describe();
    }
    const RealImage image = test::random_real_image(c.width, c.height, c.width * 7 + c.height);
    display.upload(image);
    env->timers->take();
    display.dispatch_half_spectrum();
    const ComplexImage half = display.download_half();
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    const auto records = env->timers->take();
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].kernel, "fast_r2c_rows");
    const double err = test::relative_l2_error(half.data, test::fftw_r2c_2d(image));
    std::fprintf(stderr, "  r2c %zux%zu: relative L2 error %.2e (%s | %s)\n", c.width, c.height, err,
                 display.row_plan().describe().c_str(), display.col_plan().describe().c_str());
    EXPECT_LT(err, test::float_fft_tolerance(c.width * c.height)) << c.width << "x" << c.height;
  }
}

TEST(GlFastDisplay, MeasuredPlansAreRememberedByTheWisdom) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  test::expect_display_wisdom_reused(fast::gl_default_tuning(), true,
                                     [env](const fast::Tuning& t, const fast::Measuring& m) {
                                       return GlFastDisplay(*env->programs, nullptr, t, m);
                                     });
}

TEST(GlFastDisplay, FusedDisplayMatchesRenderSpectrum) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  std::vector<R2cCase> cases{r2c_cases[0],  r2c_cases[1],  r2c_cases[4],  r2c_cases[5],  r2c_cases[6],
                             r2c_cases[7],  r2c_cases[8],  r2c_cases[9],  r2c_cases[10], r2c_cases[11],
                             r2c_cases[12], r2c_cases[13], r2c_cases[14], r2c_cases[15]};
  cases.insert(cases.end(), std::begin(odd_display_cases), std::end(odd_display_cases));
  for (const R2cCase& c : cases) {
    GlFastDisplay display(*env->programs, env->timers.get(), r2c_tuning(c));
    display.prepare(c.width, c.height);
    EXPECT_EQ(display.column_route().four_step(), c.four_step) << display.column_route().describe();
    EXPECT_EQ(display.column_route().swap.has_value(), c.in_place) << display.column_route().describe();
    EXPECT_EQ(display.display_row_plan().local_halves, c.halves_above != 0) << display.display_row_plan().describe();
    if (c.local_cap) {
      EXPECT_TRUE(display.display_row_plan().split_dit) << display.display_row_plan().describe();
    }
    if (c.one_row) {
      EXPECT_TRUE(display.display_row_plan().split_dit) << display.display_row_plan().describe();
      EXPECT_EQ(display.display_row_plan().pre_radix, 2u) << display.display_row_plan().describe();
      EXPECT_EQ(display.display_row_plan().lines_per_group, 1u) << display.display_row_plan().describe();
    }
    // The split rows unpack after their sub-transforms where the case says so (UNPACK_MIRRORED),
    // so that these pictures test that mode and not the other.
    EXPECT_EQ(fast::display_rows_unpack_after(display.display_row_plan(), r2c_tuning(c)), c.unpack_after)
        << display.display_row_plan().describe();
    const std::size_t column_passes = c.four_step ? 2 : 1;
    const RealImage image = test::random_real_image(c.width, c.height, c.width + c.height);
    display.upload(image);
    const ComplexImage spectrum = test::full_spectrum(image);
    const float fixed_hi = 0.25f * std::abs(spectrum.data[0]);
    for (const auto& [name, settings] : test::display_settings_cases(fixed_hi)) {
      // Twice: the first call finds the auto range with an extra pass, the second reuses it.
      for (int frame = 0; frame < 2; ++frame) {
        env->timers->take();
        display.dispatch_display(settings);
        const RgbaImage rgba = display.download_rgba();
        EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
        const std::size_t expected = column_passes + (settings.auto_range && frame == 0 ? 2 : 1);
        const std::vector<TimingRecord> records = env->timers->take();
        ASSERT_EQ(records.size(), expected) << name << " frame " << frame;
        EXPECT_EQ(records.front().kernel.rfind("fast_cols_real", 0), 0u) << records.front().kernel;
        EXPECT_EQ(records.back().kernel, "fast_rows_display");
        test::expect_display_close(rgba, render_spectrum(spectrum, settings), settings.colormap,
                                   std::to_string(c.width) + "x" + std::to_string(c.height) + " " + name +
                                       " frame " + std::to_string(frame),
                                   settings.component == SpectrumComponent::phase);
      }
    }
  }
}

// copy_to_texture: the display's pixels reach a texture's level 0 exactly as download_rgba reads
// them, by 16 x 16 tiles and by an upload (an odd number of tiles across and down, and a
// texture with mipmaps as the window's), and the measured choice takes one of the two.
TEST(GlFastDisplay, CopyToTextureDeliversTheDownloadedPixels) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const std::size_t w = 200, h = 120;
  GlFastDisplay display(*env->programs, nullptr);
  display.prepare(w, h);
  display.upload(test::random_real_image(w, h, 5));
  const ComplexImage spectrum = test::full_spectrum(test::random_real_image(w, h, 5));
  for (const auto way : {GlFastDisplay::TextureCopy::tiles, GlFastDisplay::TextureCopy::upload,
                         GlFastDisplay::TextureCopy::measure}) {
    display.set_texture_copy(way);
    const SpectrumSettings settings{true, SpectrumScale::log, SpectrumComponent::magnitude, Colormap::viridis,
                                    false, 0.0f, 0.25f * std::abs(spectrum.data[0]), 1.0f};
    display.dispatch_display(settings);
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 3, GL_RGBA8, static_cast<GLsizei>(w), static_cast<GLsizei>(h));
    glBindTexture(GL_TEXTURE_2D, 0);
    display.copy_to_texture(texture);
    EXPECT_NE(display.texture_copy(), GlFastDisplay::TextureCopy::measure);
    const RgbaImage pixels = display.download_rgba();
    EXPECT_EQ(test::read_rgba_texture(texture, w, h), pixels.data) << static_cast<int>(way);
    test::expect_display_close(pixels, render_spectrum(spectrum, settings), settings.colormap,
                               "copy " + std::to_string(static_cast<int>(way)), false);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    glDeleteTextures(1, &texture);
  }
}

// test::expect_every_setting_matches, GL's display drawing each setting.
void expect_every_setting_matches(GlFastDisplay& display, std::size_t w, std::size_t h, std::uint64_t seed) {
  test::expect_every_setting_matches(display, w, h, seed,
                                     [&](const SpectrumSettings& settings) { display.dispatch_display(settings); });
}

// The display with GL's own defaults (gl_default_tuning: halves, colours from the registers,
// radix-10/15 rows, ...; the cases above take OpenCL's defaults plus their knobs), every display
// setting against render_spectrum of the FFTW spectrum.
TEST(GlFastDisplay, GlDefaultsMatchRenderSpectrum) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  bool composite = false;
  for (const auto& [w, h] : {std::pair{96u, 54u}, {200u, 120u}, {1000u, 8u}, {250u, 250u}, {125u, 75u}}) {
    GlFastDisplay display(*env->programs, nullptr, fast::gl_default_tuning());
    display.prepare(w, h);
    const auto& radices = display.display_row_plan().radices;
    composite = composite || std::find(radices.begin(), radices.end(), 10u) != radices.end();
    expect_every_setting_matches(display, w, h, w + 7 * h);
  }
  EXPECT_TRUE(composite) << "no case's display rows took a radix-10 stage";
}

// The display's passes read their inputs through buffer textures as the tuning says (bit 0 the
// display rows, which read Z, up to texture_display_rows_max_length points; bit 1 the columns,
// which read the image, direct ones up to texture_columns_max_length points, four-step ones in
// place with texture_four_step), never through the scratch, Bluestein or routed; every
// setting's picture is render_spectrum's, and so are frames drawn with the previous frame's range
// (a uniform block between frames).
TEST(GlFastDisplay, TextureInputsFollowTheTuningAndMatchRenderSpectrum) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const fast::Tuning both = fast::gl_default_tuning();
  ASSERT_EQ(both.texture_inputs, 3u);
  fast::Tuning none = both, rows_only = both, cols_only = both, short_columns = both, four_step = both;
  none.texture_inputs = 0;
  rows_only.texture_inputs = 1;
  cols_only.texture_inputs = 2;
  short_columns.texture_columns_max_length = 32;
  four_step.local_bytes_cap = test::fast_four_step_local_bytes;
  four_step.four_step_min_bytes = 1;
  four_step.four_step_max_direct_lines = 64;
  four_step.texture_four_step = 0;
  fast::Tuning four_step_textures = four_step, four_step_in_place = four_step, four_step_in_place_storage = four_step;
  four_step_textures.texture_four_step = 1;
  four_step_in_place.four_step_in_place_min_bytes = 1;
  four_step_in_place.texture_four_step = 1;
  four_step_in_place_storage.four_step_in_place_min_bytes = 1;
  // GL 8192^2's display: four-step columns by texture, display rows (over the bound) from storage.
  fast::Tuning four_step_in_place_long_rows = four_step_in_place;
  four_step_in_place_long_rows.texture_display_rows_max_length = 32;
  fast::Tuning narrow_display_rows = both;
  narrow_display_rows.texture_display_rows_max_length = 64;
  struct Case {
    std::size_t width, height;
    const fast::Tuning* tuning;
    bool cols, rows;
  };
  const Case cases[] = {
      {96, 54, &both, true, true},   {96, 54, &none, false, false},         {96, 54, &rows_only, false, true},
      {96, 54, &cols_only, true, false}, {96, 54, &short_columns, false, true},  // 54-point columns over 32
      {96, 54, &narrow_display_rows, true, false},                              // 96-point rows over 64
      {34, 40, &both, true, false},  // 34 = 2 x 17: routed rows
      {40, 34, &both, false, true},  // 34-point columns through Bluestein
      {64, 1024, &four_step, false, true},
      {64, 1024, &four_step_textures, false, true},  // through the scratch
      {64, 1024, &four_step_in_place, true, true},   // passes A and B on the image and Z
      {64, 1024, &four_step_in_place_storage, false, true},  // texture_four_step 0
      {64, 1024, &four_step_in_place_long_rows, true, false},
  };
  for (const Case& c : cases) {
    GlFastDisplay display(*env->programs, nullptr, *c.tuning);
    display.prepare(c.width, c.height);
    const std::string what = std::to_string(c.width) + "x" + std::to_string(c.height) + " " + display.describe();
    EXPECT_EQ(display.reads_by_texture(Axis::cols), c.cols) << what;
    EXPECT_EQ(display.reads_by_texture(Axis::rows), c.rows) << what;
    expect_every_setting_matches(display, c.width, c.height, c.width * 3 + c.height);
    // Frames on the previous frame's range: a second image, then the first again, each drawn
    // twice, the second frame of each compared.
    const RealImage first = test::random_real_image(c.width, c.height, 11), second = test::random_real_image(c.width, c.height, 12);
    const SpectrumSettings settings;  // log magnitude, auto range
    for (const RealImage* image : {&second, &first}) {
      display.upload(*image);
      display.dispatch_display(settings, true);
      display.dispatch_display(settings, true);
      test::expect_display_close(display.download_rgba(), render_spectrum(test::full_spectrum(*image), settings),
                                 settings.colormap, what + " on the previous frame's range");
    }
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  }
}

// The display through the swizzled layout (Tuning::swizzled_rows, swizzled_columns): display rows
// of 512 and 256 points through the halves, and the pair columns 32 per group, each forced by a
// multiprocessor's local memory of three swizzled groups; the pictures are render_spectrum's.
TEST(GlFastDisplay, SwizzledLinesMatchRenderSpectrum) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  for (const auto& [w, h, rows] :
       {std::tuple{512u, 16u, true}, {256u, 8u, true}, {128u, 64u, false}}) {
    fast::Tuning tuning = fast::gl_default_tuning();
    tuning.local_halves_above = 1;
    tuning.display_rows_halves_above = 1;
    tuning.col_lines = 32;
    tuning.row_elements = w;  // one display row per group
    tuning.swizzled_rows = rows ? 1 : 0;
    tuning.swizzled_columns = rows ? 0 : 1;
    tuning.unit_local_bytes = 3 * (rows ? w : 32 * h) * sizeof(float);
    GlFastDisplay display(*env->programs, nullptr, tuning);
    display.prepare(w, h);
    const fast::AxisPlan& swizzled = rows ? display.display_row_plan() : display.column_route().plan;
    EXPECT_EQ(swizzled.local_layout, fast::LocalLayout::swizzled) << display.describe();
    expect_every_setting_matches(display, w, h, w + 5 * h);
  }
}

// The display's columns split in groups that are not whole warps, their first stage from the
// registers (Tuning::exact_split_threads, the default; shared memory capped so that llvmpipe
// splits them too); the pictures are render_spectrum's. Not test::fast_exact_split_threads_cases:
// GL's display takes 8 x 1080's four pair columns unsplit through half the shared memory
// (Tuning::four_columns_by_halves), so 12 x 3000 stands in for it.
TEST(GlFastDisplay, ExactSplitThreadsMatchRenderSpectrum) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  for (const auto& [w, h] : {std::pair{16u, 3125u}, {12u, 3000u}}) {
    fast::Tuning tuning = fast::gl_default_tuning();
    tuning.local_bytes_cap = 32 * 1024;
    GlFastDisplay display(*env->programs, nullptr, tuning);
    display.prepare(w, h);
    const fast::AxisPlan& cols = display.column_route().plan;
    EXPECT_TRUE(test::at_exact_split_threads(cols)) << display.describe();
    expect_every_setting_matches(display, w, h, w + 11 * h);
  }
}

// The display's pair columns of an odd length split by 3 or 5 (Tuning::odd_length_splits, GL's
// default; 1875 lies in its range in llvmpipe's 32 KiB and in NVIDIA's 48 KiB); the pictures are
// render_spectrum's.
TEST(GlFastDisplay, OddLengthSplitColumnsMatchRenderSpectrum) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  GlFastDisplay display(*env->programs, nullptr, fast::gl_default_tuning());
  display.prepare(12, 1875);
  const fast::AxisPlan& cols = display.column_route().plan;
  EXPECT_TRUE(cols.pre_radix == 3 || cols.pre_radix == 5) << display.describe();
  EXPECT_GE(cols.lines_per_group, 4u) << display.describe();
  expect_every_setting_matches(display, 12, 1875, 12 + 7 * 1875);
}

// The display's pair columns in four steps through divisor groups (test::display_divisor_group_tuning);
// the pictures are render_spectrum's.
TEST(GlFastDisplay, FourStepColumnsThroughDivisorGroupsMatchRenderSpectrum) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  for (const auto& [w, h] : test::fast_display_divisor_group_cases) {
    GlFastDisplay display(*env->programs, nullptr, test::display_divisor_group_tuning(fast::gl_default_tuning()));
    display.prepare(w, h);
    EXPECT_TRUE(display.column_route().four_step()) << display.describe();
    EXPECT_TRUE(test::in_divisor_groups(display.column_route().plan)) << display.describe();
    expect_every_setting_matches(display, w, h, w + 13 * h);
  }
}

// GL's odd-length display rows in at most 256 invocations (Tuning::display_rows_odd_max_threads,
// the default): 2187-point rows (9 9 9 3) whose radix-3 stage then takes 729 butterflies in
// three rounds, through half the shared memory, coloured from the registers; and without the
// bound, in more. The pictures are render_spectrum's.
TEST(GlFastDisplay, OddDisplayRowsInFewerInvocationsMatchRenderSpectrum) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  fast::Tuning unbounded = fast::gl_default_tuning();
  unbounded.display_rows_odd_max_threads = 0;
  for (const fast::Tuning& tuning : {fast::gl_default_tuning(), unbounded}) {
    GlFastDisplay display(*env->programs, nullptr, tuning);
    display.prepare(2187, 6);
    const fast::AxisPlan& rows = display.display_row_plan();
    EXPECT_TRUE(rows.local_halves) << rows.describe();
    if (tuning.display_rows_odd_max_threads != 0) {
      EXPECT_EQ(rows.threads, 256u) << rows.describe();
    } else {
      EXPECT_GT(rows.threads, 256u) << rows.describe();
    }
    expect_every_setting_matches(display, 2187, 6, 2187 + 6);
  }
}

// A display whose programs fail to build is left unprepared (no half-made state): its next
// dispatch is a BackendError, not a crash, and once the shader is back, prepare() builds it
// and the picture is render_spectrum's.
TEST(GlFastDisplay, ABuildFailureLeavesItUnpreparedUntilTheShaderIsBack) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  namespace fs = std::filesystem;
  const fs::path source = test::shader_source_dir();
  const fs::path dir = test::copy_shaders("display", "fast_epilogue.glsl");
  ProgramCache programs(SourceFiles({}, dir.string()), "#version 430 core");
  GlFastDisplay display(programs, nullptr);
  EXPECT_THROW(display.prepare(64, 48), BackendError);
  const SpectrumSettings settings;
  EXPECT_THROW(display.dispatch_display(settings), BackendError);
  EXPECT_THROW(display.prepare(64, 48), BackendError);  // still missing: the same error, again

  fs::copy_file(source / "fast_epilogue.glsl", dir / "fast_epilogue.glsl");
  fs::last_write_time(dir / "fast_epilogue.glsl", fs::file_time_type::clock::now() + std::chrono::seconds(2));
  display.prepare(64, 48);
  const RealImage image = test::random_real_image(64, 48, 5);
  display.upload(image);
  display.dispatch_display(settings);
  test::expect_display_close(display.download_rgba(), render_spectrum(test::full_spectrum(image), settings),
                             settings.colormap, "64x48 after the shader is back", false);
  fs::remove_all(dir);
}

// Without the tiles' shader, the measured copy takes the upload and still delivers; copies forced
// to tiles throw.
TEST(GlFastDisplay, CopyToTextureUploadsWhereTheTilesDoNotBuild) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  const std::filesystem::path dir = test::copy_shaders("copy", "pixels_to_texture.comp");
  ProgramCache programs(SourceFiles({}, dir.string()), "#version 430 core");
  GlFastDisplay display(programs, nullptr);
  display.prepare(64, 48);
  display.upload(test::random_real_image(64, 48, 9));
  display.dispatch_display(SpectrumSettings{});
  const GLuint texture = test::make_rgba_texture(64, 48);
  display.copy_to_texture(texture);
  EXPECT_EQ(display.texture_copy(), GlFastDisplay::TextureCopy::upload);
  EXPECT_EQ(test::read_rgba_texture(texture, 64, 48), display.download_rgba().data);
  display.set_texture_copy(GlFastDisplay::TextureCopy::tiles);
  EXPECT_THROW(display.copy_to_texture(texture), BackendError);
  glDeleteTextures(1, &texture);
  std::filesystem::remove_all(dir);
}

// test::expect_display_routes_large_primes_and_refuses_tiny_widths.
TEST(GlFastDisplay, RoutesLargePrimeFactorsAndRefusesTinyWidths) {
  std::string why;
  GlEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenGL: " + why);
  GlFastDisplay display(*env->programs, env->timers.get());
  test::expect_display_routes_large_primes_and_refuses_tiny_widths(display, [&] { display.dispatch_half_spectrum(); });
}

}  // namespace
}  // namespace fftscope
