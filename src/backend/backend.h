#pragma once
// The one interface every compute backend implements: plan-granular, so a caller can upload
// once, execute (optionally stopping after any stage), download, and read per-kernel timings.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cpu_fft.h"
#include "core/plan.h"
#include "core/spectrum.h"
#include "core/timing.h"
#include "core/types.h"
#include "core/validate.h"

namespace fftscope {

enum class BackendKind { cpu, gl, cl };
std::string to_string(BackendKind kind);
BackendKind parse_backend(const std::string& name);  ///< throws UsageError

/// Which kernels run the stages (the seeds' comparisons; `fast` is the one-pass-per-axis path).
enum class KernelVariant {
  plain,      ///< twiddle kernel computing ky through map_n_to_k, then a radix kernel
  optimized,  ///< twiddle kernel with ky = (n / Nx) % Ny and the angle constant passed in, then radix
  fused,      ///< twiddle multiplication inside the radix kernel
  fast,       ///< whole-axis kernels (issue 6); falls back to fused where not available
};
std::string to_string(KernelVariant variant);
KernelVariant parse_variant(const std::string& name);  ///< throws UsageError

/// How a backend is created.
struct BackendOptions {
  /// Read shaders (GL) or kernels (CL) from this folder instead of the embedded copies, and
  /// recompile when a file changes. Empty: embedded.
  std::string source_dir;
  /// GL: use the caller's current context (the GUI's window) instead of a headless EGL one.
  bool use_current_gl_context = false;
  /// CL: "platform:device" indices or a case-insensitive name fragment; empty picks the best GPU.
  std::string cl_device;
  unsigned cpu_threads = 0;  ///< CPU backend: 0 = hardware concurrency
  /// CL: every execute() and execute_real_display() also records its span on the device, from
  /// the end of a marker enqueued before its first dispatch to the end of one after its last
  /// (launch gaps included), as a TimingRecord named `transform_span_kernel`; the fast path's
  /// dispatches then run without profiling events and record nothing themselves (on NVIDIA's
  /// OpenCL the events cost GPU time: H100, a 4096^2 fast transform spans 249.2 us with them,
  /// 239.5 without). GL: the fast path's execute() and the fused execute_real_display() record
  /// one span each, a GL_TIME_ELAPSED query around all their dispatches (host time around glFinish
  /// where the driver's timer measures nothing), and their dispatches record nothing; the
  /// teaching pipeline keeps its per-dispatch records. For benchmarks against libraries timed
  /// around their whole call (the sweep's: OpenCL markers, CUDA events).
  bool time_spans = false;
  /// GL, CL: the fast variant plans each axis by measuring (FFTW_MEASURE's idea): preparing a
  /// size times the distinct layouts fast::measure_candidates gives each axis on the device and
  /// keeps the fastest. Preparing takes longer (a compile and a few transforms per layout; on
  /// GL also at least 1 s of warm-up per axis: docs/fast_path.md says why).
  bool measure_fast_plans = false;
};

/// The kernel name of the span records of BackendOptions::time_spans.
inline constexpr char transform_span_kernel[] = "transform_span";

/// How a backend runs the real-input display path (execute_real_display) at a size.
enum class RealDisplayPath {
  none,      ///< not at all (the default of Backend)
  fused,     ///< the image's columns, then the rows writing the display pixels: two dispatches (issue 6)
  routed,    ///< the same transform by the complex fast path's routes (Bluestein's where a prime
             ///< factor is above 13), an unpacking pass between the axes and a colouring pass after
  fallback,  ///< the real image as complex data through execute(), then the display kernels
};
std::string to_string(RealDisplayPath path);

/// A compute backend. Errors are thrown as BackendError (with compiler logs where relevant);
/// bad arguments (sizes that do not match the plan) are programmer errors and assert.
class Backend {
 public:
  virtual ~Backend() = default;

  virtual BackendKind kind() const = 0;
  /// Device and driver, as shown to the user (e.g. "llvmpipe (LLVM 15.0.6, 256 bits), Mesa 22.3").
  virtual std::string device_name() const = 0;
  /// The device's memory as its API reports it (bytes; 0 = unknown): CL_DEVICE_GLOBAL_MEM_SIZE
  /// and CL_DEVICE_MAX_MEM_ALLOC_SIZE; GL_NVX_gpu_memory_info or GL_ATI_meminfo, else physical
  /// RAM, with GL_MAX_SHADER_STORAGE_BLOCK_SIZE per buffer; the CPU: physical RAM. Never throws.
  virtual DeviceMemoryLimit memory_limit() const {
    return {physical_memory_bytes(), 0, "physical RAM", ""};
  }

  /// Makes buffers and programs ready for this plan and variant; cheap if nothing changed.
  virtual void prepare(const Plan2D& plan, KernelVariant variant) = 0;
  /// Uploads a width x height image matching the prepared plan.
  virtual void upload(const ComplexImage& image) = 0;
  /// Transforms the uploaded data in place on the device, stopping where `stop` says.
  virtual void execute(Direction direction, StageStop stop = StageStop::done()) = 0;
  /// Copies the current device buffer back.
  virtual ComplexImage download() = 0;
  /// Waits until the device has done everything queued so far (its timers are then ready),
  /// copying nothing back. Benchmarks wait so between runs: a wait that copies the image back
  /// leaves the GPU idle long enough for NVIDIA's OpenGL driver to lower its clocks (H100: GL
  /// 4096^2 timed at 1 150 us against 297, docs/performance.md). The CPU backend has nothing
  /// queued.
  virtual void finish() {}
  /// Timing records of the dispatches since the last call, in dispatch order. GPU timers that
  /// are not ready yet are returned by a later call.
  virtual std::vector<TimingRecord> take_timings() = 0;
  /// The prepared fast path's routes, "rows n=...; cols n=..." (fast::AxisRoute::describe; one
  /// dispatch for both axes: "both axes in one dispatch, each as cols n=..."), as the planner
  /// chose them (BackendOptions::measure_fast_plans included); empty where the prepared plan
  /// and variant do not run it.
  virtual std::string fast_plan_description() const { return {}; }

  /// Writes the display of the current buffer into an RGBA8 GL texture of the plan's size
  /// (fftshift, scale, component, colormap) without a trip through the host, where the backend
  /// can. Returns false where it cannot (the caller then renders on the host).
  virtual bool render_to_gl_texture(std::uint32_t /*texture*/, const SpectrumSettings& /*settings*/) {
    return false;
  }

  // The real-input display path (issue 6): a real image in, its shifted, colour-mapped spectrum
  // display (as render_spectrum draws the full complex spectrum) out, computed as a
  // real-to-complex transform whose column pass writes the pixels. Optional; the defaults say
  // "not supported". See docs/fast_path.md.

  /// How execute_real_display would run a width x height image here. Never throws.
  virtual RealDisplayPath real_display_path(std::size_t /*width*/, std::size_t /*height*/) const {
    return RealDisplayPath::none;
  }
  /// Prepares for the image's size (its own buffers and programs; on the fallback path this
  /// prepares the complex pipeline, replacing the plan given to prepare()) and uploads it
  /// (row-major float). Throws BackendError where the path is none or on GPU failure.
  virtual void upload_real(const RealImage& /*image*/);
  /// Computes the display of the uploaded image (RGBA8, width x height, alpha 255). With
  /// settings.auto_range the range of the first call after an upload or a component/scale change
  /// is found by an extra column pass; `previous_range` skips it and colours with the range of
  /// the previous call (video). Timings: "fast_cols_real" and "fast_rows_display" records, all
  /// stamped with one execution number. Throws BackendError.
  virtual void execute_real_display(const SpectrumSettings& /*settings*/, bool /*previous_range*/ = false);
  /// Reads the last execute_real_display result back: RGBA8, top row first. Throws BackendError.
  virtual RgbaImage download_real_display();
  /// Writes the last execute_real_display result into `texture` (GL_RGBA8 of the image's size,
  /// level 0) in the caller's GL context: GL copies its display's pixels on the device; OpenCL
  /// delivers its pixels as render_to_gl_texture does (a shared image where the device has
  /// cl_khr_gl_sharing, else through the host, a timing record either way). False where the
  /// backend has no GL (CPU, OpenCL built without it) or no display yet. Throws BackendError.
  virtual bool real_display_to_gl_texture(std::uint32_t /*texture*/) { return false; }
};

/// One device a backend can run on, as `fftscope-cli devices` lists it.
struct DeviceInfo {
  BackendKind backend = BackendKind::cpu;
  std::string id;      ///< what --cl-device accepts ("platform:device"); empty for cpu and gl
  std::string name;    ///< device name
  std::string detail;  ///< driver / version / extensions of note, or why the backend is unavailable
  bool available = true;
};

/// Every compiled backend's devices; an unavailable API is listed with available = false and
/// the reason in detail. Never throws.
std::vector<DeviceInfo> list_devices();

/// Creates a backend; throws BackendError when its API or device is not available here.
std::unique_ptr<Backend> make_backend(BackendKind kind, const BackendOptions& options = {});

/// The backends compiled into this build (cpu always).
std::vector<BackendKind> compiled_backends();

/// Runs a whole transform through a backend: prepare, upload, execute, download.
ComplexImage run_transform(Backend& backend, const Plan2D& plan, const ComplexImage& input,
                           Direction direction, KernelVariant variant = KernelVariant::fused,
                           StageStop stop = StageStop::done());

}  // namespace fftscope
