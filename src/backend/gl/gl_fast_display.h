#pragma once
// The OpenGL real-input display path (issue 6): the GLSL twin of cl_fast_display.h. A real
// W x H image becomes its shifted, colour-mapped spectrum display in two dispatches of
// shaders/fast_fft.comp: the image's complex pair columns (an odd W's last is (x_W-1, 0); padded
// to a multiple of 4: fast::display_pair_columns, the image uploaded that way) into Z (GlFastAxis: the fast path's
// route for such columns, four-step ones through a scratch), then the rows ky <= H/2 of the
// 2D FFT unpacked from Z, writing whole display rows (row ky and its Hermitian mirror row) as
// RGBA8 pixels into a buffer, row-major (shaders/fast_epilogue.glsl, DISPLAY_ROWS; a texture's
// block-linear layout took these row-wise stores at about 60 % of a buffer's speed on the H100,
// docs/fast_path.md), from which copy_to_texture() fills a GL texture on the device. Also the
// R2C half spectrum. An axis the fused passes do not plan (a prime factor above 13) is routed
// (fast::plan_real_display): the pair columns by the complex path's route for them (GlFastAxis,
// Bluestein's), or the rows ky <= H/2 taken apart from Z by display_unpack.comp, transformed by
// theirs and coloured by display_half.comp; the other axis keeps its fused pass. Internal to the GL backend; the caller's GL context must be
// current.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/gl/gl_fast_path.h"
#include "backend/gl/gl_programs.h"
#include "core/fast_plan.h"
#include "backend/gl/gl_timers.h"
#include "core/spectrum.h"
#include "core/types.h"

namespace fftscope::detail {

class GlFastDisplay {
 public:
  /// Borrows the backend's program cache and timers (timers may be null: no records).
  /// `measure` (candidates from fast::measure_display_candidates; none: plan with `tuning`
  /// alone): prepare() times the display path under each of these tunings that plans it
  /// differently and keeps the fastest, or takes the choice its wisdom remembers.
  GlFastDisplay(ProgramCache& programs, DispatchTimers* timers,
                fast::Tuning tuning = fast::tuning_from_env(fast::gl_default_tuning()),
                fast::Measuring measure = {});
  ~GlFastDisplay();
  GlFastDisplay(const GlFastDisplay&) = delete;
  GlFastDisplay& operator=(const GlFastDisplay&) = delete;

  /// True when a width x height real image can take this path (width >= 3, height >= 2, and
  /// plans for the fused passes or routes for the routed ones). Never throws.
  bool supports(std::size_t width, std::size_t height) const;
  /// True when an axis of the prepared size takes its routed passes.
  bool routed() const { return routed_rows_.has_value() || (real_cols_ && real_cols_->route().bluestein()); }
  /// True where the fused passes plan both axes (prime factors <= 13, the lines fit): a
  /// supported size that does not routes the other.
  bool fused_plans(std::size_t width, std::size_t height) const;
  /// Plans, compiles the two programs, allocates the buffers; cheap when the
  /// size did not change. Throws BackendError when unsupported or a compile fails.
  void prepare(std::size_t width, std::size_t height);
  /// Copies the image (prepared size, row-major float) to the GPU.
  void upload(const RealImage& image);
  /// Dispatches the columns and the display rows (twice when auto_range needs the range of a new
  /// image first, unless previous_range), timed as "fast_cols_real" (four-step:
  /// "fast_cols_real_a(...)", "fast_cols_real_b(...)") / "fast_rows_display". Routed columns:
  /// Bluestein's "fast_cols_real(L=...)", "fast_cols_real_inv(...)" (the image only read); routed
  /// rows, in place of "fast_rows_display": "display_unpack", the rows ("fast_rows_half", or
  /// Bluestein's two) and "display_half" (twice where the fused rows run twice).
  void dispatch_display(const SpectrumSettings& settings, bool previous_range = false);
  /// Dispatches the R2C rows and plain columns: the half spectrum ((W/2 + 1) x H vec2) of the
  /// 2D R2C transform, read with download_half(). Needs an even W, its W/2-point rows whole in shared memory;
  /// throws BackendError otherwise.
  void dispatch_half_spectrum();

  /// How copy_to_texture fills a texture: by 16 x 16 tiles (shaders/pixels_to_texture.comp), by
  /// a pixel-unpack upload, or whichever of the two the first copy after prepare() times faster
  /// (H100: the tiles 13.7 / 74-162 / 268 us at 1920 x 1080 / 4096^2 / 8192^2 where the upload took
  /// 171 / 1 331 / 5 303; llvmpipe: the upload 7 us at 256^2, the tiles 536). The measured
  /// choice takes the upload where the tiles' shader does not build; forced tiles then throw.
  enum class TextureCopy { measure, tiles, upload };
  /// Copies the display (W x H RGBA8, row y = display row y) into level 0 of `texture`, a
  /// complete GL_RGBA8 2D texture of at least that size, on the device (timed as "display_copy").
  void copy_to_texture(unsigned texture);
  /// copy_to_texture's way from now on (tests; the default: measure, again at each new size).
  void set_texture_copy(TextureCopy way) { texture_copy_setting_ = texture_copy_ = way; }
  /// The way the copies take now (`measure` until the first copy at this size).
  TextureCopy texture_copy() const { return texture_copy_; }
  /// The buffer the display is written to (W x H RGBA8, packUnorm4x8, row-major).
  unsigned pixel_buffer() const { return pixels_; }
  std::size_t width() const { return width_; }
  std::size_t height() const { return height_; }
  RgbaImage download_rgba();
  ComplexImage download_half();

  /// A W x H GL_RGBA8 texture kept for the backend's complex fallback (prime factors above 13), made or
  /// remade at that size; and its contents read back.
  unsigned fallback_texture(std::size_t width, std::size_t height);
  unsigned fallback_texture_id() const { return fallback_texture_; }
  RgbaImage download_fallback();

  /// The half-spectrum path's plans (prepare() first, and that path supported).
  const fast::AxisPlan& row_plan() const { return *rows_; }
  const fast::AxisPlan& col_plan() const { return *cols_; }
  /// The display path's plans (prepare() first): the columns' route (direct, or four-step
  /// through a scratch), the display rows' plan.
  const fast::AxisRoute& column_route() const { return real_cols_->route(); }
  const fast::AxisPlan& display_row_plan() const { return *display_rows_; }
  /// The routed display's rows (prepare() first, and W with a prime factor above 13).
  const fast::AxisRoute& routed_row_route() const { return routed_rows_->route(); }
  /// Whether the prepared display's columns (which read the image) or display rows (which read
  /// Z) read their input through a buffer texture (fast::Tuning::texture_inputs,
  /// texture_four_step, texture_display_rows_max_length; never Bluestein's, the routed rows or
  /// four-step columns through the scratch).
  bool reads_by_texture(Axis axis) const {
    return axis == Axis::cols ? real_cols_ && real_cols_->reads_by_texture() : rows_by_texture_;
  }
  /// Both passes' descriptions: the columns' route and the display rows' plan (routed: the rows'
  /// route).
  std::string describe() const;

 private:
  using Defines = std::vector<std::pair<std::string, std::string>>;
  ProgramKey key(const fast::AxisPlan& plan, const Defines& extra) const;
  /// The display rows' program for `settings`, which are compile-time constants there
  /// (DISPLAY_FLAGS; the real and imaginary parts read their component from the uniform
  /// u_component); its key is remade only when they change.
  Program& display_rows_program(const SpectrumSettings& settings);
  /// Dispatches `plan`'s `program` (its own uniforms already set by the caller), the group count
  /// from `lines`, then glMemoryBarrier(`barriers`); its timing record (where timed) says `note`.
  void dispatch(const fast::AxisPlan& plan, Program& program, const std::string& note, std::size_t lines,
                std::size_t row_pitch, const char* name, std::uint64_t bytes, unsigned barriers);
  void release();
  /// The display's passes under `tuning` where this context takes them (group counts, the
  /// largest storage block).
  std::optional<fast::DisplayPasses> passes(std::size_t width, std::size_t height, const fast::Tuning& tuning) const;
  /// The fastest of the measure tunings that plan the display path differently (the base
  /// first), each timed beside the base by paired_median_ms on a zero image with a fixed range
  /// (the lowest ratio wins); or the one the wisdom remembers. Only the base tuning's compile
  /// failure throws.
  fast::Tuning fastest_tuning(std::size_t width, std::size_t height);

  ProgramCache& programs_;
  DispatchTimers* timers_;
  fast::Tuning base_;    // as given (split_global 0)
  fast::Tuning tuning_;  // the prepared size's: base_, or the measured fastest
  fast::Measuring measure_;
  fast::DeviceLimits limits_;
  std::uint64_t max_block_ = 0;   // GL_MAX_SHADER_STORAGE_BLOCK_SIZE
  std::uint64_t max_texels_ = 0;  // GL_MAX_TEXTURE_BUFFER_SIZE
  std::size_t width_ = 0, height_ = 0;
  std::optional<fast::AxisPlan> rows_, cols_;               // half spectrum: R2C rows, columns
  std::optional<GlFastAxis> real_cols_;         // display: the columns into Z (four-step through col_scratch_)
  std::optional<fast::AxisPlan> display_rows_;  // display: rows to pixels
  std::optional<GlFastAxis> routed_rows_;       // routed display: the rows ky <= H/2 in place in y_
  ProgramKey display_rows_key_;                 // its program for display_rows_flags_ and its description,
  unsigned display_rows_flags_ = ~0u;           // made per prepare or change of settings, not per frame
  std::string display_rows_note_;
  // GLuint objects.
  unsigned real_ = 0, z_ = 0, y_ = 0, col_scratch_ = 0, half_ = 0, lut_ = 0, ranges_[2] = {0, 0}, row_twiddles_ = 0,
           split_twiddles_ = 0, display_twiddles_ = 0, half_col_twiddles_ = 0, pixels_ = 0, fallback_texture_ = 0;
  // Buffer textures over real_ and z_ where the columns (which read real_, and four-step ones z_
  // too) or the display rows (z_) read by texture (fast::Tuning::texture_inputs), else none.
  BufferTexture real_texture_, z_texture_;
  bool rows_by_texture_ = false;
  std::size_t fallback_width_ = 0, fallback_height_ = 0;
  int lut_colormap_ = -1;
  int acc_ = 0;
  bool range_known_ = false;
  TextureCopy texture_copy_setting_ = TextureCopy::measure, texture_copy_ = TextureCopy::measure;
  int range_key_ = -1;
};

}  // namespace fftscope::detail
