// The OpenCL fast path (kernels/fast_fft.cl through ClFastPath) against FFTW in double
// precision, on whatever OpenCL device is found (CI: PoCL's CPU device).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "backend/cl/cl_fast_display.h"
#include "backend/cl/cl_fast_path.h"
#include "core/errors.h"
#include "core/plan_wisdom.h"
#include "display_reference.h"
#include "fast_cases.h"
#include "support/gpu_skip.h"
#include "support/reference.h"

namespace fftscope {
namespace {

using namespace cl_detail;

struct ClEnv {
  FoundDevice device;
  Context context;
  Queue queue;
  std::unique_ptr<ProgramCache> programs;
};

// One context for the whole test program: PoCL compiles slowly, so programs are shared.
ClEnv* env_or_null(std::string& why) {
  static std::unique_ptr<ClEnv> env;
  static std::string reason;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      auto e = std::make_unique<ClEnv>();
      e->device = choose_device("");
      cl_int err = CL_SUCCESS;
      e->context = Context(clCreateContext(nullptr, 1, &e->device.device, nullptr, nullptr, &err));
      check(err, "clCreateContext");
      e->queue = Queue(clCreateCommandQueue(e->context.get(), e->device.device, CL_QUEUE_PROFILING_ENABLE, &err));
      check(err, "clCreateCommandQueue");
      e->programs = std::make_unique<ProgramCache>(e->context.get(), e->device.device,
                                                   SourceFiles({}, FFTSCOPE_TEST_SOURCE_DIR "/kernels"));
      std::fprintf(stderr, "fast path tests on OpenCL device: %s (%s)\n", e->device.name.c_str(),
                   e->device.platform_name.c_str());
      env = std::move(e);
    } catch (const std::exception& e) {
      reason = e.what();
    }
  }
  why = reason;
  return env.get();
}

// The timing records of a whole transform on the prepared `path`: one "fast_2d" reading and
// writing the image once per axis where both axes run in one dispatch, else each axis's.
std::vector<TimingRecord> expected_path_records(const ClFastPath& path, std::uint64_t width, std::uint64_t height) {
  if (path.fused()) {
    TimingRecord r;
    r.kernel = "fast_2d";
    r.axis = Axis::cols;
    r.bytes = 2 * 2 * width * height * sizeof(Complex);
    return {r};
  }
  std::vector<TimingRecord> records = test::expected_fast_records(path.route(Axis::rows), height);
  for (TimingRecord& r : test::expected_fast_records(path.route(Axis::cols), width)) records.push_back(r);
  return records;
}

// Transforms random data of width x height on the fast path; returns the relative L2 error
// against FFTW (double) and checks the timing records (names and bytes of every dispatch, the
// two passes of a Bluestein axis included). `tolerance`, where given, receives the bound for the
// lengths the kernels ran (test::fast_tolerance). `round_trips` forward and inverse transforms
// run first on the same fast path (they bring the data back to the input).
double run_fast(ClEnv& env, std::size_t width, std::size_t height, Direction direction, const fast::Tuning& tuning,
                std::uint64_t seed, double* tolerance = nullptr, int round_trips = 0,
                fast::Measuring measure = {}) {
  const auto input = test::random_complex(width * height, seed);
  std::vector<Complex> data = test::to_float(input);
  ClFastPath fast_path(env.context.get(), env.device.device, env.queue.get(), *env.programs, tuning,
                       std::move(measure));
  EXPECT_TRUE(fast_path.supports(width, height));
  fast_path.prepare(width, height);
  cl_int err = CL_SUCCESS;
  Mem buffer(clCreateBuffer(env.context.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(Complex),
                            data.data(), &err));
  check(err, "clCreateBuffer");
  for (int i = 0; i < round_trips; ++i) {
    fast_path.enqueue(buffer.get(), Direction::forward);
    fast_path.enqueue(buffer.get(), Direction::inverse);
  }
  std::vector<FastDispatch> dispatches = fast_path.enqueue(buffer.get(), direction);
  check(clEnqueueReadBuffer(env.queue.get(), buffer.get(), CL_TRUE, 0, data.size() * sizeof(Complex), data.data(), 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");

  const std::vector<TimingRecord> expected = expected_path_records(fast_path, width, height);
  EXPECT_EQ(dispatches.size(), expected.size());
  for (std::size_t i = 0; i < std::min(dispatches.size(), expected.size()); ++i) {
    const TimingRecord& r = dispatches[i].record;
    EXPECT_EQ(r.kernel, expected[i].kernel);
    EXPECT_EQ(r.axis, expected[i].axis) << r.kernel;
    EXPECT_EQ(r.bytes, expected[i].bytes) << r.kernel;
    EXPECT_EQ(r.radix, 0u);
    cl_ulong start = 0, end = 0;
    check(clGetEventProfilingInfo(dispatches[i].event.get(), CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
          "profiling start");
    check(clGetEventProfilingInfo(dispatches[i].event.get(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
          "profiling end");
    EXPECT_GE(end, start);
  }
  const double l2 = test::relative_l2_error(data, test::fftw_2d(input, width, height, direction));
  std::fprintf(stderr, "  %zux%zu %s: relative L2 error %.2e (%s | %s)\n", width, height, to_string(direction).c_str(), l2,
               fast_path.route(Axis::rows).describe().c_str(), fast_path.route(Axis::cols).describe().c_str());
  if (tolerance)
    *tolerance = test::fast_tolerance(width, height, fast_path.route(Axis::rows), fast_path.route(Axis::cols));
  return l2;
}

// For the shared schedule checks (fast_cases.h): a fast path of this API, and run_fast.
auto make_path(ClEnv& env) {
  return [&env](const fast::Tuning& tuning) { return ClFastPath(env.context.get(), env.device.device, env.queue.get(), *env.programs, tuning); };
}
auto runner(ClEnv& env) {
  return [&env](std::size_t w, std::size_t h, Direction d, const fast::Tuning& tuning, std::uint64_t seed,
                double* tolerance) { return run_fast(env, w, h, d, tuning, seed, tolerance); };
}
// The same with measured planning (the shared measured checks), `round_trips` as run_fast's.
auto make_measured_path(ClEnv& env) {
  return [&env](const fast::Tuning& tuning, const fast::Measuring& measuring) {
    return ClFastPath(env.context.get(), env.device.device, env.queue.get(), *env.programs, tuning, measuring);
  };
}
auto measured_runner(ClEnv& env, int round_trips = 0) {
  return [&env, round_trips](std::size_t w, std::size_t h, Direction d, const fast::Tuning& tuning,
                             const fast::Measuring& measuring, std::uint64_t seed, double* tolerance) {
    return run_fast(env, w, h, d, tuning, seed, tolerance, round_trips, measuring);
  };
}

using test::FastCase;
using test::FastSize;
class ClFast : public ::testing::TestWithParam<FastCase> {};

TEST_P(ClFast, MatchesFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  const FastSize size = std::get<0>(GetParam());
  const Direction direction = std::get<1>(GetParam());
  const std::size_t w = size.width, h = size.height;
  double tolerance = 0;
  const double err = run_fast(*env, w, h, direction, fast::Tuning{}, w * 131 + h, &tolerance);
  EXPECT_LT(err, tolerance) << w << "x" << h << " " << to_string(direction);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ClFast, test::fast_cases(), test::fast_case_name);

// The split for lines longer than local memory (decimation in frequency by PRE_RADIX, then
// the sub-transforms one after another), forced on small sizes by capping local memory.
TEST(ClFastSplit, MatchesFftwWhenLinesExceedLocalMemory) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::split_lines, true, make_path(*env), runner(*env));
}

// The scheduling options on and off (test::expect_schedule_options_match_fftw).
TEST(ClFastSchedule, PrefetchAndStage0FromRegistersMatchFftwEitherWay) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::schedule_options, true, make_path(*env), runner(*env));
}

// The split in time against the split in frequency (test::expect_split_in_time_matches_fftw).
TEST(ClFastSchedule, SplitInTimeMatchesFftwEitherWay) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::split_in_time, true, make_path(*env), runner(*env));
}

// Radix-25 stages (5 x 5 in registers) against FFTW.
TEST(ClFastSchedule, Radix25MatchesFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::radix25, true, make_path(*env), runner(*env));
}

// Radix-10 and radix-15 stages (2 x 5 and 3 x 5 in registers) against FFTW, unsplit and split.
TEST(ClFastSchedule, CompositeRadicesMatchFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::composite_radices, true, make_path(*env), runner(*env));
}

// Rows in radix-16 stages where those are fewer than radix 8's (1440: 16 10 9), GL's default rule.
TEST(ClFastSchedule, RowsRadix16MatchesFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::rows_radix16, true, make_path(*env), runner(*env));
}

// Columns split by 5 and 7 where four lines unsplit exceed 48 KiB of local memory
// (Tuning::odd_splits_past_four_columns: 1715 points 8 split 5 x 343, 2401 points 4 split 7 x 343).
TEST(ClFastSchedule, OddSplitsPastFourColumnsMatchFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::odd_splits_past_four_columns, true, make_path(*env), runner(*env));
}

// Exact split columns holding more values than max_pre_hold (Tuning::exact_split_max_pre_hold:
// 4000 points 4 split 4 x 1000 in 200 work-items, 3430 points 4 split 5 x 686 in 196).
TEST(ClFastSchedule, ExactSplitHoldMatchesFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::exact_split_hold, true, make_path(*env), runner(*env));
}

// Split columns in groups that are not whole warps, their first stage from the registers
// (Tuning::exact_split_threads: 3125-point columns in 1 000 invocations on the H200's GL).
TEST(ClFastSchedule, ExactSplitThreadsMatchFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::exact_split_threads, true, make_path(*env), runner(*env));
}

// Work-groups balanced to the widest stage's rounds, and four-step columns (fast_cases.h).
TEST(ClFastSchedule, BalancedGroupsMatchFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::balanced_groups, true, make_path(*env), runner(*env));
}

// The exchange through half the local memory and the plain complex exchange (fast_cases.h).
TEST(ClFastSchedule, LocalHalvesMatchFftwEitherWay) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::local_halves, true, make_path(*env), runner(*env));
}

// Rows and columns through the swizzled layout and through the padded one (fast_cases.h).
TEST(ClFastSchedule, SwizzledLinesMatchFftwEitherWay) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::swizzled_lines, true, make_path(*env), runner(*env));
}

TEST(ClFastSchedule, FourStepColumnsMatchFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::four_step_columns, true, make_path(*env), runner(*env));
}

TEST(ClFastSchedule, TiledColumnsMatchFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::tiled_columns, true, make_path(*env), runner(*env));
}

// GL's in-place four-step knob given to OpenCL: its paths drop it (fast::cl_tuning), so the
// same sizes run through the scratch and match FFTW (OpenCL's kernel has no row pairs).
TEST(ClFastSchedule, InPlaceFourStepKnobKeepsTheScratch) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::row_pairs, true, make_path(*env), runner(*env));
}

// Both axes in one dispatch (fast::fused_route): 96 x 96 (radix 3, 12 groups per phase), 512 x
// 512 and 8 x 8 fused, each run after 3 forward and inverse round trips on the same path (the
// groups' counters must be back at zero for every dispatch); 96 x 96 without fusing
// (fused_max_bytes 0), 96 x 64 (not square) and 1024 x 1024 (its columns split) in two
// dispatches; with Tuning::fused_split_columns (and fused_max_bytes 8 MiB), 1024 x 1024 and 1000 x
// 1000 fused with their split columns (where PoCL's limits split them as NVIDIA's do). Every result
// against FFTW.
TEST(ClFastSchedule, BothAxesInOneDispatchMatchFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  struct Case {
    std::size_t width, height;
    bool fuse_allowed, fused;
    bool split = false;  // Tuning::fused_split_columns: split columns fuse too
  };
  for (const Case c : {Case{96, 96, true, true}, Case{512, 512, true, true}, Case{8, 8, true, true},
                       Case{96, 96, false, false}, Case{96, 64, true, false}, Case{1024, 1024, true, false},
                       Case{1024, 1024, true, true, true}, Case{1000, 1000, true, true, true}}) {
    fast::Tuning tuning;
    if (!c.fuse_allowed) tuning.fused_max_bytes = 0;
    tuning.fused_split_columns = c.split ? 1 : 0;
    if (c.split) tuning.fused_max_bytes = 8ull << 20;  // 1000^2, 1024^2: over the default 2 MiB
    ClFastPath probe(env->context.get(), env->device.device, env->queue.get(), *env->programs, tuning);
    probe.prepare(c.width, c.height);
    EXPECT_EQ(probe.fused(), c.fused) << c.width << "x" << c.height;
    if (probe.fused()) {
      EXPECT_EQ(probe.plan(Axis::cols).pre_radix > 1, c.split) << probe.plan(Axis::cols).describe();
    }
    for (const Direction d : {Direction::forward, Direction::inverse}) {
      double tolerance = 0;
      const double err = run_fast(*env, c.width, c.height, d, tuning, 7 * c.width + c.height, &tolerance, 3);
      EXPECT_LT(err, tolerance) << c.width << "x" << c.height << " " << to_string(d) << " fused " << c.fused;
    }
  }
}

// Measured planning (test::expect_measured_plans_match_fftw).
TEST(ClFastSchedule, MeasuredPlansComeFromTheCandidatesAndMatchFftw) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::expect_measured_plans_match_fftw(fast::Tuning{}, false, fast_limits(env->device.device),
                                         make_measured_path(*env), measured_runner(*env));
}

// Bluestein splits that use the padded lines' live part (pass 2 accumulates the live bins
// sub-transform by sub-transform; pass 1, where the lines fit no other way, holds only the live
// inputs and forms each y_q from them) against splits that do not, with the first stage from the
// registers and through local memory.
TEST(ClFastSchedule, LiveBlocksMatchFftwEitherWay) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::live_blocks, true, make_path(*env), runner(*env));
}

// Lengths with a prime factor above 13 through Bluestein on the fast path (issue 6): per such
// axis an L-point pass from the image (times the chirp) into the scratch (times the filter), and
// an inverse L-point pass from the scratch into the image (times the chirp).
INSTANTIATE_TEST_SUITE_P(Primes, ClFast, test::fast_bluestein_cases(), test::fast_case_name);

// test::expect_bluestein_beside_a_split_axis_matches_fftw.
TEST(ClFastBluesteinSplit, MatchesFftwBesideASplitAxis) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::run_schedule_check(test::ScheduleCheck::bluestein_beside_a_split_axis, true, make_path(*env), runner(*env));
}

TEST(ClFastSupport, LargePrimeFactorsRunBluesteinAndOversizedImagesAreRefused) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  ClFastPath fast_path(env->context.get(), env->device.device, env->queue.get(), *env->programs);
  EXPECT_TRUE(fast_path.supports(17, 8));
  EXPECT_TRUE(fast_path.supports(4099, 4099));
  EXPECT_TRUE(fast_path.supports(97, 4099));
  EXPECT_TRUE(fast_path.supports(64, 2 * 3 * 5 * 7));
  // 2^31 elements: over the kernels' 32-bit indices.
  EXPECT_FALSE(fast_path.supports(65536, 32768));
  EXPECT_THROW(fast_path.prepare(65536, 32768), BackendError);
  // The prepared routes and the memory held beyond the image: twiddles, chirp, filter, scratch.
  fast_path.prepare(17, 8);
  EXPECT_EQ(fast_path.route(Axis::rows).l, fast::bluestein_length(17));
  EXPECT_FALSE(fast_path.route(Axis::cols).bluestein());
  const std::uint64_t l = fast_path.route(Axis::rows).l;
  EXPECT_EQ(fast_path.extra_bytes(), 8 * (l + 17 + l + 8 + l * 8));
}

// The real-input display path (issue 6): R2C rows + columns against FFTW's r2c (double), and the
// fused display columns against core render_spectrum of the full complex spectrum.
struct R2cCase {
  std::size_t width, height;
  std::uint64_t local_cap;  // 0: the device's; else forces the column split (see fast_cases.h)
  bool four_step = false;   // the display columns in two passes, under fast_four_step_local_bytes
  bool from_registers = false;  // Tuning::display_from_registers (the defaults' 0 on OpenCL)
  bool display_radix25 = false;  // Tuning::display_rows_max_radix 0 (the default 16 leaves 25 out)
  bool one_row = false;  // Tuning::row_elements = width: split display rows one per group, by 2 in time
  bool unpack_after = false;  // Tuning::display_rows_unpack_after
  // Tuning::display_constant_flags, OpenCL's default: one program per set of settings. The other
  // cases take the settings as a kernel argument (knob 0), which keeps PoCL's builds few.
  bool constant_flags = false;
};
// 1250 x 8: OpenCL's default radix 25 (5^4) in the R2C rows (625-point: (25 25)), and in the
// 1250-point display rows (2 25 25) where their bound is lifted.
// 128 x 512 and 80 x 729: the display columns (64 of 512 = 16 x 32 points, 40 of 729 = 27 x 27)
// in four steps; the last two: display rows coloured from the registers (OpenCL's default:
// from local memory). 512 x 960 splits its display rows in time (from local memory: the
// combined bins a block at a time). The last four: display rows split 2 x 256 in time one per group,
// as 8192-point rows on the H100: unpacked from Z's rows ky and H - ky as they load (OpenCL's
// default), then after their sub-transforms (Tuning::display_rows_unpack_after) from local
// memory, from the registers, and for an odd height (row H/2 is not its own mirror). The last two:
// the display settings as compile-time constants (Tuning::display_constant_flags, the default),
// unsplit and split in time.
constexpr R2cCase r2c_cases[] = {{64, 48, 0},
                                 {96, 54, 0},
                                 {250, 250, 0},
                                 {1000, 8, 0},
                                 {512, 960, test::fast_split_local_bytes},
                                 {1250, 8, 0, false, false, true},
                                 {128, 512, 0, true},
                                 {80, 729, 0, true},
                                 {96, 54, 0, false, true},
                                 {512, 960, test::fast_split_local_bytes, false, true},
                                 {512, 960, test::fast_split_local_bytes, false, false, false, true},
                                 {512, 960, test::fast_split_local_bytes, false, false, false, true, true},
                                 {512, 960, test::fast_split_local_bytes, false, true, false, true, true},
                                 {512, 135, test::fast_split_local_bytes, false, false, false, true, true},
                                 {96, 54, 0, false, false, false, false, false, true},
                                 {512, 960, test::fast_split_local_bytes, false, false, false, true, false, true}};

// Odd widths (the display only: the half spectrum needs an even one): the image's last pixel
// column pairs with zeros (fast::display_pairs_image). 63 x 48 and 45 x 27 (odd by odd) plain,
// 729 x 40 its display rows split 3 x 243 in time, 63 x 729 its 32 pair columns in four steps,
// 135 x 54 coloured from the registers.
constexpr R2cCase odd_display_cases[] = {
    {63, 48, 0}, {45, 27, 0}, {729, 40, test::fast_split_local_bytes}, {63, 729, 0, true}, {135, 54, 0, false, true}};

fast::Tuning r2c_tuning(const R2cCase& c) {
  fast::Tuning t;
  if (c.local_cap) t.local_bytes_cap = c.local_cap;
  if (c.four_step) {
    t.local_bytes_cap = test::fast_four_step_local_bytes;
    t.four_step_min_bytes = 1;
    t.four_step_max_direct_lines = 64;
  }
  t.display_from_registers = c.from_registers ? 1 : 0;
  if (c.display_radix25) t.display_rows_max_radix = 0;
  if (c.one_row) t.row_elements = static_cast<std::uint32_t>(c.width);
  t.display_rows_unpack_after = c.unpack_after ? 1 : 0;
  t.display_constant_flags = c.constant_flags ? 1 : 0;
  return t;
}

TEST(ClFastDisplay, R2cHalfSpectrumMatchesFftwR2c) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  for (const R2cCase& c : r2c_cases) {
    ClFastDisplay display(env->context.get(), env->device.device, env->queue.get(), *env->programs, r2c_tuning(c));
    ASSERT_TRUE(display.supports(c.width, c.height)) << c.width << "x" << c.height;
    display.prepare(c.width, c.height);
    if (c.local_cap) {
      EXPECT_GT(display.col_plan().pre_radix, 1u) << display.col_plan().describe();
    }
    if (c.width == 1250) {
      const auto& radices = display.row_plan().radices;
      EXPECT_NE(std::find(radices.begin(), radices.end(), 25u), radices.end()) << display.row_plan().describe();
    }
    const RealImage image = test::random_real_image(c.width, c.height, c.width * 7 + c.height);
    display.upload(image);
    const auto dispatches = display.enqueue_half_spectrum();
    ASSERT_EQ(dispatches.size(), 2u);
    EXPECT_EQ(dispatches[0].record.kernel, "fast_r2c_rows");
    const ComplexImage half = display.download_half();
    ASSERT_EQ(half.width, c.width / 2 + 1);
    const double err = test::relative_l2_error(half.data, test::fftw_r2c_2d(image));
    std::fprintf(stderr, "  r2c %zux%zu: relative L2 error %.2e (%s | %s)\n", c.width, c.height, err,
                 display.row_plan().describe().c_str(), display.col_plan().describe().c_str());
    EXPECT_LT(err, test::float_fft_tolerance(c.width * c.height)) << c.width << "x" << c.height;
  }
}

TEST(ClFastDisplay, MeasuredPlansAreRememberedByTheWisdom) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  test::expect_display_wisdom_reused(fast::Tuning{}, false, [env](const fast::Tuning& t, const fast::Measuring& m) {
    return ClFastDisplay(env->context.get(), env->device.device, env->queue.get(), *env->programs, t, m);
  });
}

TEST(ClFastDisplay, FusedDisplayMatchesRenderSpectrum) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  std::vector<R2cCase> cases{r2c_cases[0], r2c_cases[1], r2c_cases[4],  r2c_cases[5],  r2c_cases[6], r2c_cases[7],
                             r2c_cases[8], r2c_cases[9], r2c_cases[10], r2c_cases[11], r2c_cases[12],
                             r2c_cases[13], r2c_cases[14], r2c_cases[15]};
  cases.insert(cases.end(), std::begin(odd_display_cases), std::end(odd_display_cases));
  for (const R2cCase& c : cases) {
    ClFastDisplay display(env->context.get(), env->device.device, env->queue.get(), *env->programs, r2c_tuning(c));
    display.prepare(c.width, c.height);
    EXPECT_EQ(display.column_route().four_step(), c.four_step) << display.column_route().describe();
    if (c.local_cap) {
      EXPECT_TRUE(display.display_row_plan().split_dit) << display.display_row_plan().describe();
    }
    if (c.one_row) {
      EXPECT_EQ(display.display_row_plan().pre_radix, 2u) << display.display_row_plan().describe();
      EXPECT_EQ(display.display_row_plan().lines_per_group, 1u) << display.display_row_plan().describe();
    }
    // The split rows unpack after their sub-transforms where the case says so (UNPACK_MIRRORED),
    // so that these pictures test that mode and not the other.
    EXPECT_EQ(fast::display_rows_unpack_after(display.display_row_plan(), r2c_tuning(c)), c.unpack_after)
        << display.display_row_plan().describe();
    const auto& display_radices = display.display_row_plan().radices;
    EXPECT_EQ(std::find(display_radices.begin(), display_radices.end(), 25u) != display_radices.end(),
              c.display_radix25)
        << display.display_row_plan().describe();
    const std::size_t column_passes = c.four_step ? 2 : 1;
    const RealImage image = test::random_real_image(c.width, c.height, c.width + c.height);
    display.upload(image);
    const ComplexImage spectrum = test::full_spectrum(image);
    const float fixed_hi = 0.25f * std::abs(spectrum.data[0]);
    const std::size_t programs_before = env->programs->program_count();
    for (const auto& [name, settings] : test::display_settings_cases(fixed_hi)) {
      // Twice: the first call finds the auto range with an extra pass, the second reuses it.
      for (int frame = 0; frame < 2; ++frame) {
        const auto dispatches = display.enqueue_display(settings);
        const std::size_t expected = column_passes + (settings.auto_range && frame == 0 ? 2 : 1);
        ASSERT_EQ(dispatches.size(), expected) << name << " frame " << frame;
        EXPECT_EQ(dispatches.front().record.kernel.rfind("fast_cols_real", 0), 0u) << dispatches.front().record.kernel;
        EXPECT_EQ(dispatches.back().record.kernel, "fast_rows_display");
        test::expect_display_close(display.download_rgba(), render_spectrum(spectrum, settings), settings.colormap,
                                   std::to_string(c.width) + "x" + std::to_string(c.height) + " " + name +
                                       " frame " + std::to_string(frame),
                                   settings.component == SpectrumComponent::phase);
      }
    }
    // With the settings as constants, a display rows' program for each set of settings but the
    // default one, which prepare() built (each case a distinct set); else none beyond prepare()'s.
    std::size_t new_settings = 0;
    for (const auto& [name, settings] : test::display_settings_cases(fixed_hi)) {
      const SpectrumSettings d;
      new_settings += settings.shift != d.shift || settings.scale != d.scale || settings.component != d.component ||
                      settings.auto_range != d.auto_range;
    }
    EXPECT_EQ(new_settings, test::display_settings_cases(fixed_hi).size() - 1);
    EXPECT_EQ(env->programs->program_count() - programs_before, c.constant_flags ? new_settings : 0u)
        << c.width << "x" << c.height;
  }
}

// Each case's display under `tuning` (the schedule check's, so that PoCL plans the columns as
// NVIDIA does), its column plan passing `planned`, then test::expect_every_setting_matches.
void expect_displays_match_render_spectrum(ClEnv& env, std::span<const test::FastSize> cases,
                                           const fast::Tuning& tuning, bool (*planned)(const fast::AxisPlan&)) {
  for (const auto& [w, h] : cases) {
    ClFastDisplay display(env.context.get(), env.device.device, env.queue.get(), *env.programs, tuning);
    display.prepare(w, h);
    EXPECT_TRUE(planned(display.column_route().plan)) << display.column_route().describe();
    test::expect_every_setting_matches(display, w, h, w + 11 * h,
                                       [&](const SpectrumSettings& settings) { display.enqueue_display(settings); });
  }
}

// The display's columns split in groups that are not whole warps, their first stage from the
// registers (Tuning::exact_split_threads, the default); the pictures are render_spectrum's.
TEST(ClFastDisplay, ExactSplitThreadsMatchRenderSpectrum) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  expect_displays_match_render_spectrum(*env, test::fast_exact_split_threads_cases,
                                        test::exact_split_threads_tuning(fast::Tuning{}), test::at_exact_split_threads);
}

// The display's columns split by 5 and 7 where four lines unsplit exceed 48 KiB
// (Tuning::odd_splits_past_four_columns, the default).
TEST(ClFastDisplay, OddSplitsPastFourColumnsMatchRenderSpectrum) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  expect_displays_match_render_spectrum(*env, test::fast_odd_splits_past_four_columns_cases,
                                        test::odd_splits_past_four_columns_tuning(fast::Tuning{}),
                                        test::splits_by_5_or_7);
}

// The display's exact split columns holding more values than max_pre_hold
// (Tuning::exact_split_max_pre_hold, the default).
TEST(ClFastDisplay, ExactSplitHoldMatchesRenderSpectrum) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  expect_displays_match_render_spectrum(*env, test::fast_exact_split_hold_cases,
                                        test::exact_split_hold_tuning(fast::Tuning{}), test::holds_past_max_pre_hold);
}

// The display's pair columns in four steps through divisor groups (test::display_divisor_group_tuning).
TEST(ClFastDisplay, FourStepColumnsThroughDivisorGroupsMatchRenderSpectrum) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  expect_displays_match_render_spectrum(*env, test::fast_display_divisor_group_cases,
                                        test::display_divisor_group_tuning(fast::Tuning{}), test::in_divisor_groups);
}

// test::expect_display_routes_large_primes_and_refuses_tiny_widths.
TEST(ClFastDisplay, RoutesLargePrimeFactorsAndRefusesTinyWidths) {
  std::string why;
  ClEnv* env = env_or_null(why);
  if (!env) FFTSCOPE_GPU_UNAVAILABLE("OpenCL: " + why);
  ClFastDisplay display(env->context.get(), env->device.device, env->queue.get(), *env->programs);
  test::expect_display_routes_large_primes_and_refuses_tiny_widths(display, [&] { display.enqueue_half_spectrum(); });
}

}  // namespace
}  // namespace fftscope
