#pragma once
// The OpenCL fast path (issue 6): a 2D complex FFT as two dispatches of kernels/fast_fft.cl, one
// per axis, each reading and writing the array once (small square images: one dispatch for both,
// fast::fused_route). An axis whose length has a prime factor
// above 13 runs Bluestein instead: two L-point fast_fft.cl passes through a scratch buffer of
// padded lines, the first reading the image times the chirp and storing times the filter
// (BLUESTEIN_IN), the second storing times the chirp back into the image (BLUESTEIN_OUT); long
// columns of big images run in two passes through an image-sized scratch (four-step).
// Internal to the CL backend, which hands it its context, queue and program cache and turns the
// returned events into timings.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend/cl/cl_runtime.h"
#include "core/fast_plan.h"
#include "core/timing.h"
#include "core/types.h"

namespace fftscope::cl_detail {

/// One enqueued dispatch and its profiling event (read the time once the event completed).
struct FastDispatch {
  Event event;
  /// (null where enqueued without events)
  /// kernel "fast_rows" / "fast_cols" (radix 0, bytes = one read + one write); both axes in one
  /// dispatch (ClFastPath::fused): "fast_2d" (axis cols, bytes = one read + one write per axis);
  /// a Bluestein axis:
  /// "fast_rows(L=8960; chirp in; filter out)" then "fast_rows_inv(L=8960; chirp out)" (cols
  /// alike), bytes = what each reads and writes (image, scratch and the tables once).
  TimingRecord record;
};

/// Work measured planning times on a queue: it enqueues dispatches and returns them with their
/// profiling events.
using PlanningWork = std::function<std::vector<FastDispatch>()>;

/// For measured planning, after every candidate has been built and run once: `work` in batches of
/// 16 runs, each timed by its dispatches' summed events, until two batches in a row have medians
/// within 3 % and at least a second has passed (at most 5 s; core's warm_until_steady), on GPUs
/// (on other devices, PoCL's CPU, no warming). Throws BackendError.
Warming warm_until_steady(cl_command_queue queue, cl_device_id device, const PlanningWork& work);

/// For measured planning, after warm_until_steady: `base` and `candidate` timed side by side (a
/// pair finished before the next, their order alternating), after untimed pairs for at least 20
/// ms, each the median of `pairs` runs of its summed events. Throws BackendError.
PairedTimes paired_event_ms(cl_command_queue queue, const PlanningWork& base, const PlanningWork& candidate,
                            int pairs = 11);

/// What the device allows one work-group of the fast path (local memory, work-items) and its
/// compute units.
fast::DeviceLimits fast_limits(cl_device_id device);

/// The program of kernels/fast_fft.cl for `plan`: its #defines, then `extra` (a mode's -D
/// options), then FFTSCOPE_CL_FAST_OPTIONS where set (measurements, e.g. "-cl-nv-verbose"); and
/// its register bound.
ProgramKey fast_program_key(const fast::AxisPlan& plan, const std::string& extra = {});

/// What an axis borrows from its backend: the device, the queue (with
/// CL_QUEUE_PROFILING_ENABLE for timings) and the program cache.
struct ClDeviceQueue {
  cl_context context;
  cl_device_id device;
  cl_command_queue queue;
  ProgramCache* programs;
};

/// One axis of the fast path: the kernels and tables of its route (direct, Bluestein or
/// four-step) and its dispatches. ClFastPath's rows and columns, and ClFastDisplay's columns.
class ClFastAxis {
 public:
  /// Builds the route's kernels (planning again, once, within what the compiled kernel allows)
  /// and uploads its tables. `lines`: lines of the axis; `layout`: in place, out of place (the
  /// last pass stores into an output buffer and the image is only read) or both axes in one
  /// dispatch (the column route of a square image, fast::fused_pass); `name`: the timing
  /// records' stem (default fast_rows / fast_cols). Throws BackendError.
  ClFastAxis(const ClDeviceQueue& device, const fast::AxisRoute& route, std::uint64_t lines, const fast::Tuning& tuning,
             const fast::DeviceLimits& limits, fast::PassLayout layout = fast::PassLayout::in_place,
             std::string name = {});
  /// Enqueues the passes on `image` into `output` (the image itself unless out of place),
  /// through `scratch` (route().scratch_elements(lines) values; null when that is 0). Without
  /// `events` the dispatches carry no profiling event (FastDispatch::event null): on NVIDIA's
  /// OpenCL each event costs the GPU time between dispatches (H100: a 4096^2 transform's span
  /// 249.2 us with them, 239.5 without).
  void enqueue(cl_mem image, cl_mem output, cl_mem scratch, Direction direction, std::vector<FastDispatch>& out,
               bool events = true) const;

  /// The route as built (planned again where the compiled kernel allowed fewer work-items).
  const fast::AxisRoute& route() const { return route_; }
  /// The first pass's kernel (null for length 1), for diagnostics such as build logs.
  cl_kernel kernel() const { return kernel_; }
  /// Bytes of the tables (twiddles, Bluestein's chirp and filter).
  std::uint64_t table_bytes() const { return table_bytes_; }

 private:
  std::size_t build_kernels();
  Mem upload_table(const std::vector<Complex>& table, const char* what);
  /// One fast_fft dispatch of `pass`: its kernel, plan, buffer and twiddles (the mode's extra
  /// arguments from 6 on already set).
  void enqueue_pass(const fast::AxisPass& pass, cl_mem data, std::vector<FastDispatch>& out, bool events) const;

  ClDeviceQueue device_;
  fast::AxisRoute route_;
  std::uint64_t lines_ = 0;
  fast::PassLayout layout_ = fast::PassLayout::in_place;
  Mem fused_sync_;  // both_axes: the groups' three counters (fast_fft.cl, FUSED_2D)
  // The passes of each direction and the route's description, made once: enqueue() runs per
  // frame, and on small transforms the host's enqueue time shows between the markers.
  std::vector<fast::AxisPass> forward_passes_, inverse_passes_;
  std::string description_;
  cl_kernel kernel_ = nullptr;      // owned by the program cache; Bluestein: BLUESTEIN_IN; four-step: pass A
  cl_kernel kernel_out_ = nullptr;  // Bluestein: BLUESTEIN_OUT; four-step: pass B
  Mem twiddles_;
  Mem chirp_, filter_;                    // Bluestein only: N and L values
  Mem second_twiddles_, outer_twiddles_;  // four-step only: pass B's, and the whole column's
  std::uint64_t table_bytes_ = 0;
};

class ClFastPath {
 public:
  /// Borrows the backend's objects; the queue must have CL_QUEUE_PROFILING_ENABLE for timings.
  /// `measure` (candidates from fast::measure_candidates; none: plan with `tuning` alone):
  /// prepare() times the distinct routes these tunings give each axis and keeps the fastest
  /// (not where both axes run in one dispatch), or takes the choice its wisdom remembers.
  ClFastPath(cl_context context, cl_device_id device, cl_command_queue queue, ProgramCache& programs,
             fast::Tuning tuning = fast::tuning_from_env(), fast::Measuring measure = {});

  /// True when a width x height transform can run on the fast path on this device: each axis
  /// directly (every prime factor <= 13) or through Bluestein, with layouts that fit local
  /// memory, 32-bit indices, and a Bluestein scratch within CL_DEVICE_MAX_MEM_ALLOC_SIZE. Never
  /// throws.
  bool supports(std::size_t width, std::size_t height) const;
  /// Plans both axes, builds their programs, uploads the twiddle (and Bluestein chirp and
  /// filter) tables and allocates the scratch; cheap when the size did not change. Throws
  /// BackendError when unsupported or a build fails (with the build log).
  void prepare(std::size_t width, std::size_t height);
  /// Enqueues rows then columns on `data` (width * height float2, row-major), in place, for the
  /// prepared size (one dispatch where fused()); the inverse is scaled by 1 / (width height).
  /// Returns the dispatches in order (without `events`: no profiling events, see
  /// ClFastAxis::enqueue).
  std::vector<FastDispatch> enqueue(cl_mem data, Direction direction, bool events = true);

  /// True where the prepared size runs both axes in one dispatch (fast::fused_route); the rows'
  /// route is then the columns'.
  bool fused() const { return cols_ && !rows_; }
  /// The prepared plan of an axis (prepare() first): its fast_fft.cl pass, of length L for a
  /// Bluestein axis.
  const fast::AxisPlan& plan(Axis axis) const { return route(axis).plan; }
  /// The prepared route of an axis (direct, Bluestein with its padded length, or four-step).
  const fast::AxisRoute& route(Axis axis) const { return fast_axis(axis).route(); }
  /// The prepared fast_fft kernel of an axis (null for length 1; a Bluestein axis: its forward
  /// pass), for diagnostics such as build logs.
  cl_kernel kernel(Axis axis) const { return fast_axis(axis).kernel(); }
  /// Bytes of device memory the fast path holds for the prepared size beyond the image: the
  /// tables and the scratch.
  std::uint64_t extra_bytes() const { return extra_bytes_; }
  /// One prepared axis (prepare() first; when fused(), both names give the one dispatch) and the
  /// scratch its passes use (null: none), for probes that run one axis's passes alone
  /// (fast_probe_cl's FFTSCOPE_CL_PM).
  const ClFastAxis& fast_axis(Axis axis) const { return axis == Axis::rows && rows_ ? *rows_ : *cols_; }
  cl_mem scratch() const { return scratch_.get(); }

 private:
  /// Both axes' routes under `tuning`, where this device takes them (the scratch within its
  /// largest allocation).
  std::optional<fast::ImageRoutes> routes(std::size_t width, std::size_t height, const fast::Tuning& tuning) const;
  /// The fastest of the distinct routes the measure tunings give `axis` (`planned` first), each
  /// timed by its profiling events on a zeroed image: the median of a few forward transforms
  /// after two untimed ones; or the one the wisdom remembers for the same candidates here.
  /// Candidates that fail to build are passed over.
  fast::AxisRoute fastest(Axis axis, std::size_t width, std::size_t height, const fast::AxisRoute& planned);

  ClDeviceQueue device_;
  fast::Tuning tuning_;
  fast::Measuring measure_;
  fast::DeviceLimits limits_;
  std::uint64_t max_alloc_ = 0;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE
  std::size_t width_ = 0, height_ = 0;
  std::optional<ClFastAxis> rows_, cols_;
  Mem scratch_;  // Bluestein: max over the Bluestein axes of L x lines float2; four-step: the image's size
  std::uint64_t extra_bytes_ = 0;
};

}  // namespace fftscope::cl_detail
