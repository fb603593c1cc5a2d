#pragma once
// The OpenGL fast path (issue 6): a 2D complex FFT as two dispatches of shaders/fast_fft.comp,
// one per axis, each reading and writing the buffer once. An axis whose length has a prime
// factor above 13 runs Bluestein instead: two L-point fast_fft.comp passes through a scratch
// buffer of padded lines, the first reading the image times the chirp and storing times the
// filter (BLUESTEIN_IN), the second storing times the chirp back into the image
// (BLUESTEIN_OUT). Internal to the GL backend, which hands it its program cache and timers; the
// caller's GL context must be current.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/fast_plan.h"
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

  /// True when a width x height transform can run on the fast path here: each axis directly
  /// (every prime factor <= 13) or through Bluestein, with layouts that fit shared memory, 32-bit
  /// indices, and a Bluestein scratch within GL_MAX_SHADER_STORAGE_BLOCK_SIZE. Never throws.
  bool supports(std::size_t width, std::size_t height) const;
  /// Plans both axes, compiles their programs, uploads the twiddle (and Bluestein chirp and
  /// filter) tables and allocates the scratch; cheap when the size did not change. Throws
  /// BackendError when unsupported or a compile fails.
  void prepare(std::size_t width, std::size_t height);
  /// Dispatches rows then columns on the SSBO `buffer` (width * height vec2, row-major), in
  /// place, for the prepared size; the inverse is scaled by 1 / (width height). Each dispatch
  /// is timed through the timers as "fast_rows" / "fast_cols" (radix 0, bytes = one read and
  /// one write of the array), a Bluestein axis as "fast_rows(L=8960; chirp in; filter out)"
  /// then "fast_rows_inv(L=8960; chirp out)" (bytes = what each reads and writes: image,
  /// scratch and the tables once); each is followed by a shader-storage barrier.
  void dispatch(unsigned buffer, Direction direction);

  /// The prepared plan of an axis (prepare() first): its fast_fft.comp pass, of length L for a
  /// Bluestein axis.
  const fast::AxisPlan& plan(Axis axis) const { return route(axis).plan; }
  /// The prepared route of an axis (direct, or Bluestein with its padded length).
  const fast::AxisRoute& route(Axis axis) const { return axis == Axis::rows ? *rows_ : *cols_; }
  /// The GL program object of an axis (prepare() first; a Bluestein axis: its forward pass), for
  /// diagnostics such as binaries.
  unsigned program_id(Axis axis) {
    const fast::AxisRoute& r = route(axis);
    return programs_.get(key(r.plan, r.bluestein() ? fast::bluestein_in : r.four_step() ? fast::four_step_a : nullptr)).id;
  }
  /// Bytes of device memory the fast path holds for the prepared size beyond the image: the
  /// tables and the Bluestein scratch.
  std::uint64_t extra_bytes() const { return extra_bytes_; }

 private:
  /// Both axes' routes, where this context takes them (group counts, the largest storage block).
  std::optional<fast::ImageRoutes> routes(std::size_t width, std::size_t height) const;
  struct Tables {
    unsigned twiddles = 0, chirp = 0, filter = 0;  // GLuint buffers; chirp and filter: Bluestein only
    unsigned second_twiddles = 0, outer_twiddles = 0;  // four-step only: pass B's, and the whole column's
  };
  void dispatch_axis(const fast::AxisRoute& route, const Tables& tables, unsigned buffer, Direction direction);
  /// One fast_fft.comp dispatch of `pass` on the image (`image`, the SSBO being transformed) or
  /// the scratch (AxisPass::on_scratch, binding 0); a Bluestein pass also binds the other buffer
  /// (binding 2) and its tables, a four-step pass its output (binding 5) and the column's table.
  void dispatch_fft(const fast::AxisRoute& route, const fast::AxisPass& pass, const Tables& tables, unsigned image);
  unsigned make_table(const std::vector<Complex>& table);
  /// The program of `plan`, with `mode` (e.g. fast::bluestein_in) defined as 1 where given.
  ProgramKey key(const fast::AxisPlan& plan, const char* mode = nullptr) const;
  void release_tables();

  ProgramCache& programs_;
  DispatchTimers* timers_;
  fast::Tuning tuning_;
  fast::DeviceLimits limits_;
  std::uint64_t max_block_ = 0;  // GL_MAX_SHADER_STORAGE_BLOCK_SIZE
  std::size_t width_ = 0, height_ = 0;
  std::optional<fast::AxisRoute> rows_, cols_;
  Tables row_tables_, col_tables_;
  unsigned scratch_ = 0;  // GLuint; Bluestein: max over the Bluestein axes of L x lines vec2; four-step: the image's size
  std::uint64_t extra_bytes_ = 0;
};

}  // namespace fftscope::detail
