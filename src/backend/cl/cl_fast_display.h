#pragma once
// The OpenCL real-input display path (issue 6): a real W x H image (W even) to its shifted,
// colour-mapped spectrum display in two dispatches of kernels/fast_fft.cl with the epilogues of
// kernels/fast_epilogue.cl: R2C rows (a W/2-point complex FFT of each row read as float2, then
// the real-to-complex split, into a (W/2 + 1) x H half spectrum), then the columns of the half
// spectrum with the display written in place of the complex values (each bin and its Hermitian
// mirror). Internal to the CL backend, which hands it its context, queue and program cache.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "backend/cl/cl_fast_path.h"
#include "backend/cl/cl_runtime.h"
#include "backend/fast_axis_plan.h"
#include "core/spectrum.h"
#include "core/types.h"

namespace fftscope::cl_detail {

class ClFastDisplay {
 public:
  /// Borrows the backend's objects; the queue must have CL_QUEUE_PROFILING_ENABLE for timings.
  ClFastDisplay(cl_context context, cl_device_id device, cl_command_queue queue, ProgramCache& programs,
                fast::Tuning tuning = fast::tuning_from_env());

  /// True when a width x height real image can take this path: width even and >= 4, height >= 2,
  /// the W/2-point rows fit local memory whole (no split) and the columns have a plan. Never throws.
  bool supports(std::size_t width, std::size_t height) const;
  /// Plans, builds the two programs and allocates the buffers; cheap when the size did not
  /// change. Throws BackendError when unsupported or a build fails (with the build log).
  void prepare(std::size_t width, std::size_t height);
  /// Copies the image (prepared size, row-major float) to the device. Throws BackendError.
  void upload(const RealImage& image);
  /// Enqueues the R2C rows and the display columns for the uploaded image (see
  /// docs/fast_path.md for how auto_range is handled: `previous_range` colours with the range of
  /// the previous frame; otherwise the columns run twice when the range of this image is not
  /// known yet). The RGBA8 result stays on the device (rgba()). Returns the dispatches in order:
  /// "fast_r2c_rows", "fast_cols_display" (twice when the range had to be found first).
  std::vector<FastDispatch> enqueue_display(const SpectrumSettings& settings, bool previous_range = false);
  /// Enqueues the R2C rows and plain columns: the 2D R2C transform of the uploaded image into
  /// the half-spectrum buffer ((W/2 + 1) x H float2, row-major; read it with download_half()).
  std::vector<FastDispatch> enqueue_half_spectrum();

  /// Reads the display back (blocking): W x H RGBA8, top row first.
  RgbaImage download_rgba();
  /// Reads the half spectrum back (blocking): (W/2 + 1) x H complex, row-major.
  ComplexImage download_half();
  /// The device RGBA8 buffer (W x H uchar4) of the last enqueue_display().
  cl_mem rgba() const { return rgba_.get(); }

  /// The prepared plans (prepare() first): rows of W/2 points, columns of H points over W/2 + 1 lines.
  const fast::AxisPlan& row_plan() const { return *rows_; }
  const fast::AxisPlan& col_plan() const { return *cols_; }

 private:
  std::optional<fast::AxisPlan> plan_rows(std::size_t width, std::size_t height) const;
  std::optional<fast::AxisPlan> plan_cols(std::size_t width, std::size_t height) const;
  cl_kernel build(const fast::AxisPlan& plan, const char* extra);
  FastDispatch enqueue(cl_kernel kernel, const fast::AxisPlan& plan, std::size_t lines, const char* name,
                       std::uint64_t bytes);
  void set_common_args(cl_kernel kernel, cl_mem data, cl_mem twiddles, std::size_t lines, std::size_t row_pitch);

  cl_context context_;
  cl_device_id device_;
  cl_command_queue queue_;
  ProgramCache& programs_;
  fast::Tuning tuning_;
  fast::DeviceLimits limits_;
  std::size_t width_ = 0, height_ = 0;
  std::optional<fast::AxisPlan> rows_, cols_;
  cl_kernel row_kernel_ = nullptr, display_kernel_ = nullptr;  // owned by the program cache
  Mem real_, half_, rgba_, lut_, ranges_[2], row_twiddles_, col_twiddles_, split_twiddles_;
  int lut_colormap_ = -1;
  int acc_ = 0;              // ranges_[acc_] accumulates the current frame's range
  bool range_known_ = false;  // ranges_[1 - acc_] holds the range of the uploaded image
  int range_key_ = -1;        // component and scale the known range belongs to
};

}  // namespace fftscope::cl_detail
