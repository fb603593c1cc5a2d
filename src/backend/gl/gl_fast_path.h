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
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/fast_plan.h"
#include "backend/gl/gl_programs.h"
#include "backend/gl/gl_timers.h"
#include "core/types.h"

namespace fftscope::detail {

/// A new shader storage buffer of `bytes` holding `data` (null: undefined contents) with the GL
/// `usage` hint (GL_STATIC_DRAW, GL_DYNAMIC_COPY, ...), unbound after; the caller deletes it.
unsigned make_storage_buffer(std::size_t bytes, const void* data, unsigned usage);
/// Dispatches `groups` work-groups of `threads` invocations (spread over x and y, at most 65535
/// each) with the program and uniforms already set, then glMemoryBarrier(`barriers`); a timing
/// record (`axis`, `name`, `bytes`, `note`) only where `timers` is given and on, so a dispatch
/// inside a span (BackendOptions::time_spans) builds none.
void dispatch_fast_groups(DispatchTimers* timers, Axis axis, std::uint32_t threads, std::uint64_t groups,
                          const std::string& name, std::uint64_t bytes, const std::string& note, unsigned barriers);

/// GL_MAX_SHADER_STORAGE_BLOCK_SIZE of the current context (0 where it says nothing).
std::uint64_t max_storage_block();

/// A buffer texture (GL_RG32F: one vec2 a texel) over the whole of one buffer, for the fast
/// passes' texture inputs (fast::Tuning::texture_inputs), deleted with its owner. Make one per
/// buffer and keep it: pointing a texture at another buffer before each dispatch made every pass
/// about 100x slower on NVIDIA's driver (H100, run238).
class BufferTexture {
 public:
  BufferTexture() = default;
  explicit BufferTexture(unsigned buffer) { attach(buffer); }
  ~BufferTexture() { reset(); }
  BufferTexture(const BufferTexture&) = delete;
  BufferTexture& operator=(const BufferTexture&) = delete;
  /// A new texture over `buffer` (whose storage was made again, say), the old one deleted.
  void attach(unsigned buffer);
  void reset();
  unsigned id() const { return id_; }  // GLuint; 0: none

 private:
  unsigned id_ = 0;
};
/// Binds `texture` (a BufferTexture's id) where a TEX_INPUT pass of fast_fft.comp reads it.
void bind_data_texture(unsigned texture);

/// GL_MAX_TEXTURE_BUFFER_SIZE of the current context, in texels (0 where it says nothing).
std::uint64_t max_texture_buffer_texels();

/// Whether the passes of `axis` (`route`'s lines; the display rows' need none) over a buffer of
/// `texels` vec2 read it through a buffer texture: fast::Tuning::texture_inputs (bit 0 rows,
/// bit 1 columns), direct columns only up to texture_columns_max_length points, four-step ones
/// only with texture_four_step, folded ones only with texture_folded_columns, and the buffer
/// within GL_MAX_TEXTURE_BUFFER_SIZE (`max_texels`).
bool texture_inputs_on(Axis axis, const fast::Tuning& tuning, const fast::AxisRoute* route, std::uint64_t texels,
                       std::uint64_t max_texels);

/// What the current context allows one work-group of the fast path (shared memory,
/// invocations) and, where the driver says (GL_NV_shader_thread_group), its multiprocessors.
fast::DeviceLimits fast_limits();

/// One axis of the fast path: the programs and tables of its route (direct, Bluestein or
/// four-step) and its dispatches. GlFastPath's rows and columns, and GlFastDisplay's columns.
class GlFastAxis {
 public:
  /// Compiles the route's programs (errors surface here) and uploads its tables. `lines`: lines
  /// of the axis; `layout`: in place or out of place (the last pass stores into an output buffer
  /// and the image is only read; GL runs no both-axes layout: std::logic_error); `name`: the
  /// timing records' stem (default fast_rows / fast_cols); `texture_inputs`: the route's passes
  /// read their data through buffer textures over the image and the output, where every pass may
  /// (a direct route in place or into the output, four-step on the image and the output; not
  /// through the scratch, Bluestein or row pairs: texture_inputs_on decides from the tuning,
  /// other routes ignore it). Throws BackendError.
  GlFastAxis(ProgramCache& programs, DispatchTimers* timers, const fast::AxisRoute& route, std::uint64_t lines,
             fast::PassLayout layout = fast::PassLayout::in_place, std::string name = {},
             bool texture_inputs = false);
  ~GlFastAxis();
  GlFastAxis(const GlFastAxis&) = delete;
  GlFastAxis& operator=(const GlFastAxis&) = delete;

  /// Dispatches the passes on the SSBO `image` into `output` (the image itself unless out of
  /// place), through `scratch` (route().scratch_elements(lines) values; 0 when that is 0), each
  /// timed. Where the axis reads by texture (reads_by_texture()), `image_texture` and
  /// `output_texture` are buffer textures over `image` and `output` (BufferTexture; the
  /// same one in place; in-place four-step pass B reads the output). Each pass is followed by
  /// the barrier its next pass reads after, the last one by `barrier_after` (GL barrier bits:
  /// those of whatever reads the output next; GL_SHADER_STORAGE_BARRIER_BIT where unknown).
  void dispatch(unsigned image, unsigned output, unsigned scratch, Direction direction, unsigned image_texture,
                unsigned output_texture, unsigned barrier_after) const;
  /// The same without texture inputs (std::logic_error where the axis reads by texture), each
  /// pass followed by a shader-storage barrier.
  void dispatch(unsigned image, unsigned output, unsigned scratch, Direction direction) const;
  /// True when the passes read the image through a buffer texture (TEX_INPUT): the barrier
  /// before them is then GL_TEXTURE_FETCH_BARRIER_BIT, else GL_SHADER_STORAGE_BARRIER_BIT.
  bool reads_by_texture() const { return reads_by_texture_; }
  /// The barrier bits the first pass needs after shader stores into its input.
  unsigned read_barrier() const;
  const fast::AxisRoute& route() const { return route_; }
  /// The GL program of the first pass, for diagnostics such as binaries (0: no pass, length 1).
  unsigned program_id() const;
  /// Bytes of the tables (twiddles, Bluestein's chirp and filter).
  std::uint64_t table_bytes() const { return table_bytes_; }

 private:
  /// One fast_fft.comp dispatch of `pass` (its program: `key`) on `data` (binding 0); a Bluestein
  /// pass also binds the image (binding 2) and its tables, a four-step or out-of-place pass its
  /// output (binding 5) and pass A the column's table.
  void dispatch_pass(const fast::AxisPass& pass, const ProgramKey& key, unsigned data, unsigned image,
                     unsigned output, unsigned data_texture, unsigned barriers) const;
  unsigned make_table(const std::vector<Complex>& table);

  ProgramCache* programs_;
  DispatchTimers* timers_;
  fast::AxisRoute route_;
  fast::PassLayout layout_ = fast::PassLayout::in_place;
  // The passes of each direction and the route's description, made once (dispatch() runs per
  // frame).
  std::vector<fast::AxisPass> forward_passes_, inverse_passes_;
  std::vector<ProgramKey> forward_keys_, inverse_keys_;  // pass i's program in each direction
  std::string description_;
  bool reads_by_texture_ = false;
  // GLuint buffers; chirp and filter: Bluestein only; second and outer: four-step only (pass
  // B's, and the whole column's); row pairs: rows in swapped pairs only (AxisRoute::swap).
  unsigned twiddles_ = 0, chirp_ = 0, filter_ = 0, second_twiddles_ = 0, outer_twiddles_ = 0, row_pairs_ = 0,
           fold_twiddles_ = 0;
  std::uint64_t table_bytes_ = 0;
};

/// The program of `plan` on the fast path for a pass with `conj_sign` and `scale` (AxisPass:
/// fast_fft.comp's compile-time CONJ_SIGN and OUT_SCALE; the forward direction's by default),
/// `mode` (e.g. fast::bluestein_in) defined as 1 where given, and `defines` (AxisPass::defines).
ProgramKey fast_program_key(const fast::AxisPlan& plan, const char* mode = nullptr,
                            const std::vector<std::pair<std::string, std::string>>& defines = {},
                            float conj_sign = 1.0f, float scale = 1.0f);

class GlFastPath {
 public:
  /// Borrows the backend's program cache and timers (timers may be null: no records). Reads
  /// the device limits from the current context.
  /// `measure` (candidates from fast::measure_candidates; none: plan with `tuning` alone):
  /// prepare() times the distinct routes these tunings give each axis and keeps the fastest, or
  /// takes the choice its wisdom remembers.
  GlFastPath(ProgramCache& programs, DispatchTimers* timers,
             fast::Tuning tuning = fast::tuning_from_env(fast::gl_default_tuning()), fast::Measuring measure = {});
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
  /// scratch and the tables once). Where an axis reads by texture
  /// (fast_axis(axis).reads_by_texture()), `buffer_texture` is a buffer texture over `buffer` (a
  /// BufferTexture, made once). A barrier for its reads comes first (whatever stored into the
  /// buffer before), the one for the second axis's reads between the axes, and `barrier_after`
  /// (GL barrier bits: for whatever reads the buffer next) last: GL_TEXTURE_FETCH_BARRIER_BIT
  /// where that is this fast path again. Where the prepared size folds the columns into the
  /// rows (folds()), the rows store into `spare` (a second buffer of the image's size, with
  /// `spare_texture` over it) and the columns run there: the result is in `spare`, and `buffer`
  /// holds the rows' input still. Returns the buffer that holds the result.
  unsigned dispatch(unsigned buffer, unsigned buffer_texture, Direction direction, unsigned barrier_after,
                    unsigned spare = 0, unsigned spare_texture = 0);
  /// The same in place, through a buffer texture of its own made for this call (and, where the
  /// size folds, a second buffer, copied back), followed by a shader-storage barrier: for tests
  /// and one-off transforms (a texture made per call costs what run238 measured; see
  /// BufferTexture).
  void dispatch(unsigned buffer, Direction direction);
  /// True where the prepared size takes the columns' first radix-2 step in the rows pass
  /// (fast::AxisRoute::fold): dispatch() then needs a second buffer and leaves the result there.
  bool folds() const { return rows_ && rows_->route().fold != 0; }

  /// The prepared plan of an axis (prepare() first): its fast_fft.comp pass, of length L for a
  /// Bluestein axis.
  const fast::AxisPlan& plan(Axis axis) const { return route(axis).plan; }
  /// The prepared route of an axis (direct, Bluestein with its padded length, or four-step).
  const fast::AxisRoute& route(Axis axis) const { return fast_axis(axis).route(); }
  /// The GL program object of an axis (prepare() first; a Bluestein axis: its forward pass), for
  /// diagnostics such as binaries.
  unsigned program_id(Axis axis) const { return fast_axis(axis).program_id(); }
  /// Bytes of device memory the fast path holds for the prepared size beyond the image: the
  /// tables and the scratch.
  std::uint64_t extra_bytes() const { return extra_bytes_; }
  /// One prepared axis (prepare() first) and the scratch its passes use (0: none), for probes
  /// that run one axis's passes alone (fast_probe_gl's FFTSCOPE_GL_PM).
  const GlFastAxis& fast_axis(Axis axis) const { return axis == Axis::rows ? *rows_ : *cols_; }
  unsigned scratch() const { return scratch_; }
  /// The prepared size (0 x 0 before prepare()).
  std::size_t width() const { return width_; }
  std::size_t height() const { return height_; }

 private:
  /// Both axes' routes under `tuning`, where this context takes them (group counts, the largest
  /// storage block).
  std::optional<fast::ImageRoutes> routes(std::size_t width, std::size_t height, const fast::Tuning& tuning) const;
  /// The fastest of the distinct routes the measure tunings give `axis` (`planned` first), each
  /// timed beside `planned` by paired_median_ms on a zeroed image (the lowest ratio wins); or the
  /// one the wisdom remembers for the same candidates here. Candidates that fail to compile are
  /// passed over.
  fast::AxisRoute fastest(Axis axis, std::size_t width, std::size_t height, const fast::AxisRoute& planned);
  void release();

  ProgramCache& programs_;
  DispatchTimers* timers_;
  fast::Tuning tuning_;
  fast::Measuring measure_;
  fast::DeviceLimits limits_;
  std::uint64_t max_block_ = 0;  // GL_MAX_SHADER_STORAGE_BLOCK_SIZE
  std::uint64_t max_texels_ = 0;  // GL_MAX_TEXTURE_BUFFER_SIZE
  std::size_t width_ = 0, height_ = 0;
  std::optional<GlFastAxis> rows_, cols_;
  unsigned scratch_ = 0;  // GLuint; Bluestein: max over the Bluestein axes of L x lines vec2; four-step: the image's size
  std::uint64_t extra_bytes_ = 0;
};

}  // namespace fftscope::detail
