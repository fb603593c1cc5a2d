#include "backend/backend.h"

#include <cassert>

#include "backend/cpu/cpu_backend.h"
#include "core/errors.h"
#ifdef FFTSCOPE_HAVE_GL
#include "backend/gl/gl_backend.h"
#endif
#ifdef FFTSCOPE_HAVE_CL
#include "backend/cl/cl_backend.h"
#endif

namespace fftscope {

std::string to_string(BackendKind kind) {
  switch (kind) {
    case BackendKind::cpu: return "cpu";
    case BackendKind::gl: return "gl";
    case BackendKind::cl: return "cl";
  }
  return "?";
}

BackendKind parse_backend(const std::string& name) {
  if (name == "cpu") return BackendKind::cpu;
  if (name == "gl") return BackendKind::gl;
  if (name == "cl") return BackendKind::cl;
  throw UsageError("unknown backend '" + name + "' (expected cpu, gl or cl)");
}

std::string to_string(KernelVariant variant) {
  switch (variant) {
    case KernelVariant::plain: return "plain";
    case KernelVariant::optimized: return "optimized";
    case KernelVariant::fused: return "fused";
    case KernelVariant::fast: return "fast";
  }
  return "?";
}

KernelVariant parse_variant(const std::string& name) {
  if (name == "plain") return KernelVariant::plain;
  if (name == "optimized") return KernelVariant::optimized;
  if (name == "fused") return KernelVariant::fused;
  if (name == "fast") return KernelVariant::fast;
  throw UsageError("unknown kernel variant '" + name + "' (expected plain, optimized, fused or fast)");
}

std::string to_string(RealDisplayPath path) {
  switch (path) {
    case RealDisplayPath::none: return "none";
    case RealDisplayPath::fused: return "fused";
    case RealDisplayPath::routed: return "routed";
    case RealDisplayPath::fallback: return "fallback";
  }
  return "?";
}

void Backend::upload_real(const RealImage&) {
  throw BackendError("the " + to_string(kind()) + " backend has no real-input display path");
}
void Backend::execute_real_display(const SpectrumSettings&, bool) {
  throw BackendError("the " + to_string(kind()) + " backend has no real-input display path");
}
RgbaImage Backend::download_real_display() {
  throw BackendError("the " + to_string(kind()) + " backend has no real-input display path");
}

std::vector<BackendKind> compiled_backends() {
  std::vector<BackendKind> kinds{BackendKind::cpu};
#ifdef FFTSCOPE_HAVE_GL
  kinds.push_back(BackendKind::gl);
#endif
#ifdef FFTSCOPE_HAVE_CL
  kinds.push_back(BackendKind::cl);
#endif
  return kinds;
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> devices;
  devices.push_back({BackendKind::cpu, "", "host CPU", "threads: core stage pipeline", true});
  auto add = [&devices](BackendKind kind, auto&& list) {
    try {
      for (DeviceInfo& d : list()) devices.push_back(std::move(d));
    } catch (const std::exception& e) {
      devices.push_back({kind, "", "(unavailable)", e.what(), false});
    }
  };
#ifdef FFTSCOPE_HAVE_GL
  add(BackendKind::gl, list_gl_devices);
#endif
#ifdef FFTSCOPE_HAVE_CL
  add(BackendKind::cl, list_cl_devices);
#endif
  (void)add;
  return devices;
}

std::unique_ptr<Backend> make_backend(BackendKind kind, const BackendOptions& options) {
  switch (kind) {
    case BackendKind::cpu: return make_cpu_backend(options);
    case BackendKind::gl:
#ifdef FFTSCOPE_HAVE_GL
      return make_gl_backend(options);
#else
      throw BackendError("the OpenGL backend is not compiled into this build (FFTSCOPE_WITH_GL=OFF)");
#endif
    case BackendKind::cl:
#ifdef FFTSCOPE_HAVE_CL
      return make_cl_backend(options);
#else
      throw BackendError("the OpenCL backend is not compiled into this build (FFTSCOPE_WITH_CL=OFF)");
#endif
  }
  throw BackendError("unknown backend");
}

ComplexImage run_transform(Backend& backend, const Plan2D& plan, const ComplexImage& input,
                           Direction direction, KernelVariant variant, StageStop stop) {
  assert(input.width == plan.width() && input.height == plan.height() && "input size must match the plan");
  backend.prepare(plan, variant);
  backend.upload(input);
  backend.execute(direction, stop);
  return backend.download();
}

}  // namespace fftscope
