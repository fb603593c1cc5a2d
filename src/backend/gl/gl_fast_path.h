#pragma once
// The OpenGL fast path (issue 6): a 2D complex FFT as two dispatches of shaders/fast_fft.comp,
// one per axis, each reading and writing the buffer once. Internal to the GL backend, which
// hands it its program cache and timers; the caller's GL context must be current.

#include <cstddef>
#include <optional>

#include "backend/fast_axis_plan.h"
#include "backend/gl/gl_programs.h"
#include "backend/gl/gl_timers.h"
#include "core/types.h"

namespace fftscope::detail {

/// What the current context allows one work-group of the fast path (shared memory,
/// invocations) and, where the driver says (GL_NV_shader_thread_group), its multiprocessors.
fast::DeviceLimits fast_limits();

class GlFastPath {
 public:
  /// Borrows the backend's program cache and timers (timers may be null: no records). Reads
  /// the device limits from the current context.
  GlFastPath(ProgramCache& programs, DispatchTimers* timers, fast::Tuning tuning = fast::tuning_from_env(fast::gl_default_tuning()));
  ~GlFastPath();
  GlFastPath(const GlFastPath&) = delete;
  GlFastPath& operator=(const GlFastPath&) = delete;

  /// True when a width x height transform can run on the fast path here (every prime factor
  /// <= 13 and a layout that fits shared memory). Never throws.
  bool supports(std::size_t width, std::size_t height) const;
  /// Plans both axes, compiles their programs and uploads the twiddle tables; cheap when the
  /// size did not change. Throws BackendError when unsupported or a compile fails.
  void prepare(std::size_t width, std::size_t height);
  /// Dispatches rows then columns on the SSBO `buffer` (width * height vec2, row-major), in
  /// place, for the prepared size; the inverse is scaled by 1 / (width height). Each dispatch
  /// is timed through the timers as "fast_rows" / "fast_cols" (radix 0, bytes = one read and
  /// one write of the array) and followed by a shader-storage barrier.
  void dispatch(unsigned buffer, Direction direction);

  /// The prepared plan of an axis (prepare() first).
  const fast::AxisPlan& plan(Axis axis) const { return axis == Axis::rows ? *rows_ : *cols_; }
  /// The GL program object of an axis (prepare() first), for diagnostics such as binaries.
  unsigned program_id(Axis axis) { return programs_.get(key(plan(axis))).id; }

 private:
  void dispatch_axis(const fast::AxisPlan& plan, unsigned twiddles, unsigned buffer, Direction direction);
  ProgramKey key(const fast::AxisPlan& plan) const;
  void release_tables();

  ProgramCache& programs_;
  DispatchTimers* timers_;
  fast::Tuning tuning_;
  fast::DeviceLimits limits_;
  std::size_t width_ = 0, height_ = 0;
  std::optional<fast::AxisPlan> rows_, cols_;
  unsigned row_twiddles_ = 0, col_twiddles_ = 0;  // GLuint buffers
};

}  // namespace fftscope::detail
