#pragma once
// The OpenCL fast path (issue 6): a 2D complex FFT as two dispatches of kernels/fast_fft.cl, one
// per axis, each reading and writing the array once. Internal to the CL backend, which hands it
// its context, queue and program cache and turns the returned events into timings.

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "backend/cl/cl_runtime.h"
#include "backend/fast_axis_plan.h"
#include "core/timing.h"
#include "core/types.h"

namespace fftscope::cl_detail {

/// One enqueued dispatch and its profiling event (read the time once the event completed).
struct FastDispatch {
  Event event;
  TimingRecord record;  ///< kernel "fast_rows" / "fast_cols", radix 0, bytes = one read + one write
};

/// What the device allows one work-group of the fast path (local memory, work-items) and its
/// compute units.
fast::DeviceLimits fast_limits(cl_device_id device);

class ClFastPath {
 public:
  /// Borrows the backend's objects; the queue must have CL_QUEUE_PROFILING_ENABLE for timings.
  ClFastPath(cl_context context, cl_device_id device, cl_command_queue queue, ProgramCache& programs,
             fast::Tuning tuning = fast::tuning_from_env());

  /// True when a width x height transform can run on the fast path on this device (every prime
  /// factor <= 13 and a layout that fits local memory). Never throws.
  bool supports(std::size_t width, std::size_t height) const;
  /// Plans both axes, builds their programs and uploads the twiddle tables; cheap when the size
  /// did not change. Throws BackendError when unsupported or a build fails (with the build log).
  void prepare(std::size_t width, std::size_t height);
  /// Enqueues rows then columns on `data` (width * height float2, row-major), in place, for the
  /// prepared size; the inverse is scaled by 1 / (width height). Returns the dispatches in order.
  std::vector<FastDispatch> enqueue(cl_mem data, Direction direction);

  /// The prepared plan of an axis (prepare() first).
  const fast::AxisPlan& plan(Axis axis) const { return axis == Axis::rows ? *rows_ : *cols_; }
  /// The prepared kernel of an axis (null for length 1), for diagnostics such as build logs.
  cl_kernel kernel(Axis axis) const { return axis == Axis::rows ? row_state_->kernel : col_state_->kernel; }

 private:
  struct AxisState {
    fast::AxisPlan plan;
    cl_kernel kernel = nullptr;  // owned by the program cache
    Mem twiddles;
  };
  std::optional<fast::AxisPlan> plan_for(Axis axis, std::size_t n, std::size_t lines) const;
  AxisState make_axis(const fast::AxisPlan& plan, std::size_t lines);
  void enqueue_axis(AxisState& axis, cl_mem data, Direction direction, std::vector<FastDispatch>& out);

  cl_context context_;
  cl_device_id device_;
  cl_command_queue queue_;
  ProgramCache& programs_;
  fast::Tuning tuning_;
  fast::DeviceLimits limits_;
  std::size_t width_ = 0, height_ = 0;
  std::optional<fast::AxisPlan> rows_, cols_;
  std::optional<AxisState> row_state_, col_state_;
};

}  // namespace fftscope::cl_detail
