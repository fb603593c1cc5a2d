#pragma once
// The OpenCL fast path (issue 6): a 2D complex FFT as two dispatches of kernels/fast_fft.cl, one
// per axis, each reading and writing the array once. An axis whose length has a prime factor
// above 13 runs Bluestein instead: two L-point fast_fft.cl passes through a scratch buffer of
// padded lines, the first reading the image times the chirp and storing times the filter
// (BLUESTEIN_IN), the second storing times the chirp back into the image (BLUESTEIN_OUT).
// Internal to the CL backend, which hands it its context, queue and program cache and turns the
// returned events into timings.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <optional>
#include <vector>

#include "backend/cl/cl_runtime.h"
#include "core/fast_plan.h"
#include "core/timing.h"
#include "core/types.h"

namespace fftscope::cl_detail {

/// One enqueued dispatch and its profiling event (read the time once the event completed).
struct FastDispatch {
  Event event;
  /// kernel "fast_rows" / "fast_cols" (radix 0, bytes = one read + one write); a Bluestein axis:
  /// "fast_rows(L=8960; chirp in; filter out)" then "fast_rows_inv(L=8960; chirp out)" (cols
  /// alike), bytes = what each reads and writes (image, scratch and the tables once).
  TimingRecord record;
};

/// What the device allows one work-group of the fast path (local memory, work-items) and its
/// compute units.
fast::DeviceLimits fast_limits(cl_device_id device);

/// The build options of kernels/fast_fft.cl for `plan`: its #defines, then `extra` (a mode's
/// -D options), then FFTSCOPE_CL_FAST_OPTIONS where set (measurements, e.g. "-cl-nv-verbose").
std::string fast_build_options(const fast::AxisPlan& plan, const std::string& extra = {});

class ClFastPath {
 public:
  /// Borrows the backend's objects; the queue must have CL_QUEUE_PROFILING_ENABLE for timings.
  ClFastPath(cl_context context, cl_device_id device, cl_command_queue queue, ProgramCache& programs,
             fast::Tuning tuning = fast::tuning_from_env());

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
  /// prepared size; the inverse is scaled by 1 / (width height). Returns the dispatches in order.
  std::vector<FastDispatch> enqueue(cl_mem data, Direction direction);

  /// The prepared plan of an axis (prepare() first): its fast_fft.cl pass, of length L for a
  /// Bluestein axis.
  const fast::AxisPlan& plan(Axis axis) const { return state(axis).route.plan; }
  /// The prepared route of an axis (direct, or Bluestein with its padded length).
  const fast::AxisRoute& route(Axis axis) const { return state(axis).route; }
  /// The prepared fast_fft kernel of an axis (null for length 1; a Bluestein axis: its forward
  /// pass), for diagnostics such as build logs.
  cl_kernel kernel(Axis axis) const { return state(axis).kernel; }
  /// Bytes of device memory the fast path holds for the prepared size beyond the image: the
  /// tables and the Bluestein scratch.
  std::uint64_t extra_bytes() const { return extra_bytes_; }

 private:
  struct AxisState {
    fast::AxisRoute route;
    cl_kernel kernel = nullptr;      // owned by the program cache; Bluestein: BLUESTEIN_IN; four-step: pass A
    cl_kernel kernel_out = nullptr;  // Bluestein: BLUESTEIN_OUT; four-step: pass B
    Mem twiddles;
    Mem chirp, filter;                       // Bluestein only: N and L values
    Mem second_twiddles, outer_twiddles;     // four-step only: pass B's, and the whole column's
  };
  const AxisState& state(Axis axis) const { return axis == Axis::rows ? *row_state_ : *col_state_; }
  /// Both axes' routes, where this device takes them (the scratch within its largest allocation).
  std::optional<fast::ImageRoutes> routes(std::size_t width, std::size_t height) const;
  AxisState make_axis(const fast::AxisRoute& route, std::size_t lines);
  std::size_t build_kernels(AxisState& state);
  Mem upload_table(const std::vector<Complex>& table, const char* what);
  /// One fast_fft dispatch of `pass` (its kernel, plan, buffer and twiddles; the extra arguments
  /// from 6 on set by enqueue_axis).
  void enqueue_fft(const AxisState& axis, const fast::AxisPass& pass, cl_mem image, std::vector<FastDispatch>& out);
  void enqueue_axis(AxisState& axis, cl_mem data, Direction direction, std::vector<FastDispatch>& out);

  cl_context context_;
  cl_device_id device_;
  cl_command_queue queue_;
  ProgramCache& programs_;
  fast::Tuning tuning_;
  fast::DeviceLimits limits_;
  std::uint64_t max_alloc_ = 0;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE
  std::size_t width_ = 0, height_ = 0;
  std::optional<AxisState> row_state_, col_state_;
  Mem scratch_;  // Bluestein: max over the Bluestein axes of L x lines float2; four-step: the image's size
  std::uint64_t extra_bytes_ = 0;
};

}  // namespace fftscope::cl_detail
