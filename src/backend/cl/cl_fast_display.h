#pragma once
// The OpenCL real-input display path (issue 6): a real W x H image to its shifted, colour-mapped
// spectrum display in two dispatches of kernels/fast_fft.cl: the columns of the image read as its
// complex pair columns (x_2c + i x_2c+1; an odd W's last is (x_W-1, 0); padded to a multiple of
// 4: fast::display_pair_columns, the image uploaded that way) into a second buffer Z (the fast path's
// route for such columns, ClFastAxis: in two passes through a scratch where it takes four
// steps), then the rows
// ky <= H/2 of the 2D FFT, each unpacked from rows ky and H - ky of Z (UNPACK_PAIRS), ending in
// whole display rows: row ky and its Hermitian mirror row H - ky (kernels/fast_epilogue.cl,
// DISPLAY_ROWS). Also the R2C half spectrum (R2C rows, then columns) for tests and callers that
// want the numbers. An axis the fused passes do not plan (a prime factor above 13) is routed
// (fast::plan_real_display): the pair columns by the complex path's route for them (ClFastAxis,
// Bluestein's), or the rows ky <= H/2 taken apart from Z by kernels/display_half.cl's
// display_unpack, transformed by theirs and coloured by display_half; the other axis keeps its
// fused pass. Internal to the CL backend, which hands it its
// context, queue and programs.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "backend/cl/cl_fast_path.h"
#include "backend/cl/cl_runtime.h"
#include "core/fast_plan.h"
#include "core/spectrum.h"
#include "core/types.h"

namespace fftscope::cl_detail {

class ClFastDisplay {
 public:
  /// Borrows the backend's objects; the queue must have CL_QUEUE_PROFILING_ENABLE for timings.
  /// `measure` (candidates from fast::measure_display_candidates; none: plan with `tuning`
  /// alone): prepare() times the display path under each of these tunings that plans it
  /// differently and keeps the fastest, or takes the choice its wisdom remembers.
  ClFastDisplay(cl_context context, cl_device_id device, cl_command_queue queue, ProgramCache& programs,
                fast::Tuning tuning = fast::tuning_from_env(), fast::Measuring measure = {});

  /// True when a width x height real image can take the display path: width >= 3, height >= 2,
  /// and plans for the fused passes or routes for the routed ones. Never throws.
  bool supports(std::size_t width, std::size_t height) const;
  /// True where the fused passes plan both axes (prime factors <= 13): a supported size that
  /// does not routes the other.
  bool fused_plans(std::size_t width, std::size_t height) const;
  /// True when an axis of the prepared size takes its routed passes.
  bool routed() const { return routed_rows_.has_value() || (real_cols_ && real_cols_->route().bluestein()); }
  /// Plans, builds the two programs and allocates the buffers; cheap when the size did not
  /// change. Throws BackendError when unsupported or a build fails (with the build log).
  void prepare(std::size_t width, std::size_t height);
  /// Copies the image (prepared size, row-major float) to the device. Throws BackendError.
  void upload(const RealImage& image);
  /// Enqueues the columns and the display rows for the uploaded image (see docs/fast_path.md for
  /// how auto_range is handled: `previous_range` colours with the range of the previous frame;
  /// otherwise the rows run twice when the range of this image is not known yet). The RGBA8
  /// result stays on the device (rgba()). Returns the dispatches in order: "fast_cols_real" (or
  /// its four-step passes "fast_cols_real_a(...)", "fast_cols_real_b(...)"), "fast_rows_display"
  /// (twice when the range had to be found first). Routed columns: Bluestein's
  /// "fast_cols_real(L=...)", "fast_cols_real_inv(...)" (the image only read); routed rows, in
  /// place of "fast_rows_display": "display_unpack", the rows ("fast_rows_half", or Bluestein's
  /// two) and "display_half" (twice where the fused rows run twice).
  /// Without `events`: no profiling events (ClFastAxis::enqueue).
  std::vector<FastDispatch> enqueue_display(const SpectrumSettings& settings, bool previous_range = false,
                                            bool events = true);
  /// Enqueues the R2C rows and plain columns: the 2D R2C transform of the uploaded image into
  /// the half-spectrum buffer ((W/2 + 1) x H float2, row-major; read it with download_half()).
  /// Needs an even W whose W/2-point rows fit local memory whole; throws BackendError otherwise.
  std::vector<FastDispatch> enqueue_half_spectrum();

  /// Reads the display back (blocking): W x H RGBA8, top row first.
  RgbaImage download_rgba();
  /// Reads the half spectrum back (blocking): (W/2 + 1) x H complex, row-major.
  ComplexImage download_half();
  /// The device RGBA8 buffer (W x H uchar4) of the last enqueue_display().
  cl_mem rgba() const { return rgba_.get(); }
  std::size_t width() const { return width_; }
  std::size_t height() const { return height_; }

  /// The half-spectrum path's plans (prepare() first, and that path supported): rows of W/2
  /// points, columns of H points over W/2 + 1 lines.
  const fast::AxisPlan& row_plan() const { return *rows_; }
  const fast::AxisPlan& col_plan() const { return *cols_; }
  /// The display path's plans (prepare() first): the columns' route (direct, or four-step
  /// through a scratch), the display rows' plan.
  const fast::AxisRoute& column_route() const { return real_cols_->route(); }
  const fast::AxisPlan& display_row_plan() const { return *display_rows_; }
  /// The routed display's rows (prepare() first, and W with a prime factor above 13).
  const fast::AxisRoute& routed_row_route() const { return routed_rows_->route(); }
  /// Both passes' descriptions: the columns' route and the display rows' plan (routed: the rows'
  /// route).
  std::string describe() const;

 private:
  cl_kernel build(const fast::AxisPlan& plan, const char* extra);
  /// The fused display rows' kernel, with Tuning::display_constant_flags for these flags.
  cl_kernel build_display_rows(cl_uint flags);
  FastDispatch enqueue(cl_kernel kernel, const fast::AxisPlan& plan, std::size_t lines, const char* name,
                       std::uint64_t bytes, bool events = true);
  /// Enqueues `kernel` over `global` work-items in groups of `local` (x), with its timing record.
  FastDispatch launch(cl_kernel kernel, std::array<std::size_t, 2> global, std::size_t local, Axis axis,
                      const char* name, std::uint64_t bytes, std::string note, bool events);
  void set_common_args(cl_kernel kernel, cl_mem data, cl_mem twiddles, std::size_t lines, std::size_t row_pitch);
  /// The fastest of the measure tunings that plan the display path differently (the base
  /// first), each timed by its profiling events on a zero image with a fixed range: the median
  /// of five displays after two untimed; or the one the wisdom remembers. Only the base tuning's
  /// build failure throws.
  fast::Tuning fastest_tuning(std::size_t width, std::size_t height);
  /// The display's passes under `tuning` where the device takes them (the scratch within one
  /// allocation).
  std::optional<fast::DisplayPasses> passes(std::size_t width, std::size_t height, const fast::Tuning& tuning) const;

  cl_context context_;
  cl_device_id device_;
  cl_command_queue queue_;
  ProgramCache& programs_;
  fast::Tuning base_;    // as given (split_global 0)
  fast::Tuning tuning_;  // the prepared size's: base_, or the measured fastest
  fast::Measuring measure_;
  fast::DeviceLimits limits_;
  std::uint64_t max_alloc_ = 0;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE
  std::size_t width_ = 0, height_ = 0;
  std::optional<fast::AxisPlan> rows_, cols_;                // half spectrum: R2C rows, columns
  std::optional<ClFastAxis> real_cols_;  // display: the columns into Z (four-step through col_scratch_)
  std::optional<fast::AxisPlan> display_rows_;  // display: rows to pixels
  std::optional<ClFastAxis> routed_rows_;       // routed display: the rows ky <= H/2 in place in y_
  // The cache's kernels: the half spectrum's rows, the display rows (routed: display_half), the
  // routed display's display_unpack.
  cl_kernel row_kernel_ = nullptr, display_kernel_ = nullptr, unpack_kernel_ = nullptr;
  // The fused display rows' build options, and the flags display_kernel_ was last built for
  // (what it holds as constants with Tuning::display_constant_flags).
  std::string display_options_;
  cl_uint display_kernel_flags_ = 0;
  Mem real_, z_, y_, col_scratch_, half_, rgba_, lut_, ranges_[2], row_twiddles_, split_twiddles_;
  Mem display_twiddles_, half_col_twiddles_;
  int lut_colormap_ = -1;
  int acc_ = 0;              // ranges_[acc_] accumulates the current frame's range
  bool range_known_ = false;  // ranges_[1 - acc_] holds the range of the uploaded image
  int range_key_ = -1;        // component and scale the known range belongs to
};

}  // namespace fftscope::cl_detail
