#pragma once
// Side-by-side FFT benchmark: fftscope's backends next to cuFFT, VkFFT, clFFT and FFTW on the
// same data (complex float32, 2D, forward, in place where the library allows), plan creation
// excluded, warm-up first, then the median of many runs timed by each API's own timer.

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/spectrum.h"
#include "core/timing.h"
#include "core/types.h"

namespace fftscope::bench {

struct BenchSize {
  std::size_t width = 0;
  std::size_t height = 0;
};

/// One implementation at one size.
struct BenchEntry {
  std::string implementation;  ///< e.g. "fftscope-gl-fused", "cufft", "vkfft-opencl"
  std::string device;
  BenchSize size;
  bool available = false;
  std::string reason;          ///< why it is not available, or why it failed
  std::string timer;           ///< how it was timed, e.g. "cuda events", "cl profiling (sum of kernels)"
  std::size_t repeats = 0;
  double median_us = 0, min_us = 0, max_us = 0;
  double bandwidth_gbs = 0;    ///< bytes of one read and one write per axis pass / median time
  double gflops = 0;           ///< nominal 5 N log2 N / median time, N = width * height
  double rel_error = -1;       ///< relative L2 error against FFTW in double precision; -1: not checked
  std::string plan;            ///< fftscope's fast entries: Backend::fast_plan_description (else empty)
  /// Each round's median, in the order they ran (SweepOptions::rounds); median_us is their median.
  std::vector<double> round_medians_us;
};

struct SweepOptions {
  std::vector<BenchSize> sizes;
  /// Implementation names to run (empty: all known). See implementation_names().
  std::vector<std::string> implementations;
  int warmup = 5;
  /// Also warm up for at least this long (the GPU's clocks ramp up over a fraction of a second:
  /// a few runs of a 10 us transform leave it at idle clocks, and the first implementation of a
  /// size would be timed slower than the next), then on until two batches of runs agree (at most
  /// 8x this, or 3 s more).
  int warmup_ms = 300;
  int repeats = 50;
  std::string cl_device;  ///< as --cl-device; empty: the best GPU
  bool measure_fast_plans = false;  ///< as --planning measure (BackendOptions::measure_fast_plans)
  /// FFTW's planning time per plan (FFTW_MEASURE, on one thread and on all), at most: past it FFTW
  /// plans the rest by estimate, and the entry's device says that the planning reached it. A
  /// minute: enough for the H200's 16 threads at 8192^2 (10 s was not, bench_fftw.cpp).
  int fftw_planning_ms = 60'000;
  bool check_errors = true;
  /// Times each entry this many times, each time with a fresh instance of the implementation (its
  /// own plan and buffers), the implementations of a size taking turns, and keeps the round whose
  /// median is the median of the rounds' (the lower middle one for an even count): on the H100 a
  /// different few entries of each whole sweep read far above every other run of the same code
  /// (docs/performance.md), which one run cannot tell from a slower library.
  int rounds = 1;
};

/// The sweep of issue 6: 256^2 ... 8192^2, non-powers of two, and one with a large prime factor.
std::vector<BenchSize> default_sweep_sizes();

/// Every implementation name the sweep knows, whether or not it is available here.
std::vector<std::string> implementation_names();
/// The sweep's copy-bandwidth reference (detail::make_cl_copy): a transform that reads and
/// writes the array once per axis takes at least twice its time.
inline constexpr char copy_reference[] = "opencl-copy";

/// Runs the sweep; `progress` sees the entries finished so far each time one finishes (the newest
/// last). Never throws for an implementation that is missing or fails: that entry says why.
std::vector<BenchEntry> run_sweep(const SweepOptions& options,
                                  const std::function<void(const std::vector<BenchEntry>&)>& progress = {});

std::string sweep_to_json(const std::vector<BenchEntry>& entries, double copy_bandwidth_gbs = 0);
/// A fixed-width table, one line per entry, ratios to cuFFT where cuFFT ran at that size.
std::string sweep_to_table(const std::vector<BenchEntry>& entries);

namespace detail {

/// The file names cuFFT's entries load at run time, each list tried in order, the first that
/// opens wins: the CUDA runtime, cuFFT, the NVIDIA driver, NVRTC (the display entry's kernel).
inline constexpr std::array<const char*, 4> cudart_names = {"libcudart.so", "libcudart.so.13", "libcudart.so.12",
                                                            "libcudart.so.11.0"};
inline constexpr std::array<const char*, 4> cufft_names = {"libcufft.so", "libcufft.so.12", "libcufft.so.11",
                                                           "libcufft.so.10"};
inline constexpr std::array<const char*, 2> cuda_driver_names = {"libcuda.so.1", "libcuda.so"};
inline constexpr std::array<const char*, 4> nvrtc_names = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                                                           "libnvrtc.so.11.2"};

/// One entry from the rounds of one implementation at one size (SweepOptions::rounds): the round
/// with the median median (the lower middle one for an even count), with every round's median
/// and the worst error of any round; the first unavailable round where one failed.
BenchEntry merge_rounds(const std::vector<BenchEntry>& rounds);

/// An FFT library or backend set up for one size, timing itself with its API's own timer.
class Implementation {
 public:
  virtual ~Implementation() = default;
  virtual std::string device() const = 0;
  virtual std::string timer() const = 0;
  /// What ran, where the implementation can say (fftscope's fast path: its routes); empty else.
  virtual std::string plan() const { return {}; }
  /// Copies the input (row-major, width x height) to the device once; not timed.
  virtual void upload(const ComplexImage& input) = 0;
  /// Runs warmup + repeats forward transforms back to back, each on the uploaded input (restored
  /// on the device between runs, untimed, so the GPU never waits for the host), and returns the
  /// repeats' times in microseconds.
  virtual std::vector<double> time_runs(int warmup, int repeats) = 0;
  /// One more forward transform of the uploaded input, read back.
  virtual ComplexImage result() = 0;
  /// Implementations whose output is not the complex spectrum (the real-input display paths)
  /// check themselves against `input` and return their error measure (see display_error); the
  /// others return nothing and are checked against FFTW by the sweep.
  virtual std::optional<double> self_check(const ComplexImage& /*input*/) { return std::nullopt; }
};

/// Factories; each throws std::runtime_error (with the reason) when its library is missing.
std::unique_ptr<Implementation> make_fftscope(const std::string& backend, const std::string& variant,
                                              BenchSize size, const std::string& cl_device, bool measure_fast_plans);
std::unique_ptr<Implementation> make_cufft(BenchSize size);
std::unique_ptr<Implementation> make_vkfft(BenchSize size, const std::string& cl_device);
std::unique_ptr<Implementation> make_clfft(BenchSize size, const std::string& cl_device);
std::unique_ptr<Implementation> make_fftw(BenchSize size, int planning_ms);
/// "opencl-copy": clEnqueueCopyBuffer of the array, the measured copy bandwidth of the same run
/// (the two-pass limit of the fast paths is twice its time); it checks itself (self_check: the
/// largest difference from the input, 0 for a true copy).
std::unique_ptr<Implementation> make_cl_copy(BenchSize size, const std::string& cl_device);

/// fftscope's runs from its backend's timing records, in execution order (execute() calls that
/// recorded nothing are absent): each run's span where the backend recorded spans
/// (BackendOptions::time_spans), else the sum of its dispatches, and that sum beside it.
struct FftscopeRuns {
  std::vector<double> ms;           ///< per run: the span, or the sum of dispatches
  std::vector<double> dispatch_ms;  ///< per run: the sum of its dispatches (0: they recorded none)
  bool spans = false;               ///< every run had a span record
  std::string span_note;            ///< how the spans were taken (their records' note)
  bool host_measured = false;       ///< some span or dispatch was host-timed
};
FftscopeRuns fftscope_runs(const std::vector<TimingRecord>& records);
/// The timer column's text for `runs` (the runs from `first_measured` on: the median sum of
/// their dispatches beside the spans, where they recorded any).
std::string fftscope_timer(const FftscopeRuns& runs, std::size_t first_measured);

/// The real-input display entries (issue 6): the real parts of the sweep's input in, a shifted
/// log-magnitude gray display out (RGBA8), range fixed at [0, log(1 + W H)] (fixed_range_settings).
/// "fftscope-cl-display" / "fftscope-gl-display": the backend's execute_real_display, timed as
/// fftscope's complex entries are (fftscope_runs); "cufft-r2c-display": cufftExecR2C plus a
/// shift/log/colormap kernel compiled with NVRTC, timed by CUDA events around both.
std::unique_ptr<Implementation> make_fftscope_display(const std::string& backend, BenchSize size,
                                                      const std::string& cl_device, bool measure_fast_plans);
std::unique_ptr<Implementation> make_cufft_r2c_display(BenchSize size);
/// The fraction of pixels of `got` whose colour index differs by more than one step from core
/// render_spectrum of the real image's full spectrum (FFTW, double). 0 is a perfect match.
double display_error(const RgbaImage& got, const ComplexImage& input, const SpectrumSettings& settings);

}  // namespace detail
}  // namespace fftscope::bench
