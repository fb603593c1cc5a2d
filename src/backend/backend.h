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
};

/// A compute backend. Errors are thrown as BackendError (with compiler logs where relevant);
/// bad arguments (sizes that do not match the plan) are programmer errors and assert.
class Backend {
 public:
  virtual ~Backend() = default;

  virtual BackendKind kind() const = 0;
  /// Device and driver, as shown to the user (e.g. "llvmpipe (LLVM 15.0.6, 256 bits), Mesa 22.3").
  virtual std::string device_name() const = 0;

  /// Makes buffers and programs ready for this plan and variant; cheap if nothing changed.
  virtual void prepare(const Plan2D& plan, KernelVariant variant) = 0;
  /// Uploads a width x height image matching the prepared plan.
  virtual void upload(const ComplexImage& image) = 0;
  /// Transforms the uploaded data in place on the device, stopping where `stop` says.
  virtual void execute(Direction direction, StageStop stop = StageStop::done()) = 0;
  /// Copies the current device buffer back.
  virtual ComplexImage download() = 0;
  /// Timing records of the dispatches since the last call, in dispatch order. GPU timers that
  /// are not ready yet are returned by a later call.
  virtual std::vector<TimingRecord> take_timings() = 0;

  /// Writes the display of the current buffer into an RGBA8 GL texture of the plan's size
  /// (fftshift, scale, component, colormap) without a trip through the host, where the backend
  /// can. Returns false where it cannot (the caller then renders on the host).
  virtual bool render_to_gl_texture(std::uint32_t /*texture*/, const SpectrumSettings& /*settings*/) {
    return false;
  }
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
