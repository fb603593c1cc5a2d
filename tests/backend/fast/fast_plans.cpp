// fast_plans: the fast path's plans without a GPU (a developer's tool, not a test). For each size
// it prints what the planner gives the complex path's rows and columns (on OpenCL, also where both
// axes run in one dispatch) and the real display's rows and columns, under GL's or OpenCL's default tuning with FFTSCOPE_FAST_TUNING's overrides, for
// an NVIDIA H100/H200 (48 KiB of shared memory, 1 024 invocations, 132 multiprocessors, and for
// OpenCL 65 536 registers per multiprocessor, as its NVIDIA extension reports) unless --limits
// says otherwise. With --audit it lists, for every knob whose default differs between the
// two APIs, the sizes whose plans change when the API takes the other's value: which of an API's
// rules a measurement at those sizes would test (docs/fast_path.md, forty-fifth session); not the
// device facts, nor on GL the register bounds it cannot state (TuningKnob::Kind).
//
//   fast_plans [--cl] [--limits BYTES,THREADS,UNITS[,REGISTERS]] [--audit] WxH...
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/fast_plan.h"

namespace fast = fftscope::fast;

namespace {

struct Size {
  std::uint32_t width = 0, height = 0;
  std::string name() const { return std::to_string(width) + "x" + std::to_string(height); }
};

// The four passes a size plans, by their identities (every #define and the register bound); on
// OpenCL, a square image whose axes run in one dispatch (fast::fused_route) has that one for both.
std::vector<std::string> pass_identities(const Size& s, const fast::DeviceLimits& limits, const fast::Tuning& t,
                                         bool cl) {
  std::vector<std::string> out(4, "none");
  if (const auto image = fast::route_image(s.width, s.height, limits, t)) {
    out[0] = fast::route_identity(image->rows);
    out[1] = fast::route_identity(image->cols);
    if (const auto fused = cl ? fast::fused_route(*image, t) : std::nullopt)
      out[0] = out[1] = "one dispatch: " + fast::route_identity(*fused);
  }
  // The display's passes as the backends plan them (rows routed where the fused rows do not plan).
  if (const auto display = fast::plan_real_display(s.width, s.height, limits, t)) {
    out[2] = display->rows ? fast::display_rows_identity(s.width, s.height, *display->rows, t)
                           : "routed: " + fast::route_identity(*display->routed_rows);
    out[3] = fast::route_identity(display->cols);
  }
  return out;
}

void print_plans(const Size& s, const fast::DeviceLimits& limits, const fast::Tuning& t, bool cl) {
  std::printf("== %s %s\n", s.name().c_str(), cl ? "OpenCL" : "GL");
  const auto image = fast::route_image(s.width, s.height, limits, t);
  std::printf("rows:  %s\n", image ? image->rows.describe().c_str() : "none (the fused pipeline)");
  std::printf("cols:  %s\n", image ? image->cols.describe().c_str() : "none (the fused pipeline)");
  if (const auto fused = cl && image ? fast::fused_route(*image, t) : std::nullopt)
    std::printf("both axes in one dispatch, each as: %s\n", fused->describe().c_str());
  const auto display = fast::plan_real_display(s.width, s.height, limits, t);
  const std::string rows = !display              ? "none"
                           : display->rows       ? display->rows->describe()
                                                 : "routed: " + display->routed_rows->describe();
  std::printf("drows: %s\n", rows.c_str());
  std::printf("dcols: %s\n", display ? display->cols.describe().c_str() : "none");
}

void audit(const std::vector<Size>& sizes, const fast::DeviceLimits& limits, const fast::Tuning& base,
           const fast::Tuning& other, bool cl) {
  static const char* const kPass[] = {"rows", "cols", "display rows", "display cols"};
  std::vector<std::vector<std::string>> planned;
  for (const Size& s : sizes) planned.push_back(pass_identities(s, limits, base, cl));
  for (const fast::TuningKnob& knob : fast::tuning_knobs()) {
    using Kind = fast::TuningKnob::Kind;
    if (knob.kind == Kind::device || (knob.kind == Kind::opencl && !cl) || (knob.kind == Kind::gl && cl) ||
        knob.get(base) == knob.get(other))
      continue;
    fast::Tuning t = base;
    knob.set(t, knob.get(other));
    if (cl) t = fast::cl_tuning(t);  // what OpenCL's kernels cannot take stays off
    std::string changed;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const auto ids = pass_identities(sizes[i], limits, t, cl);
      std::string passes;
      for (std::size_t p = 0; p < ids.size(); ++p)
        if (ids[p] != planned[i][p]) {
          if (!passes.empty()) passes += ", ";
          passes += kPass[p];
        }
      if (!passes.empty()) changed.append(" ").append(sizes[i].name()).append(" (").append(passes).append(")");
    }
    std::printf("%s=%llu:%s\n", knob.name, static_cast<unsigned long long>(knob.get(other)),
                changed.empty() ? " no plan changes" : changed.c_str());
  }
}

int usage() {
  std::fprintf(stderr, "usage: fast_plans [--cl] [--limits BYTES,THREADS,UNITS[,REGISTERS]] [--audit] WxH...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool cl = false, audit_knobs = false, limits_given = false;
  fast::DeviceLimits limits{48 * 1024, 1024, 132};
  std::vector<Size> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--cl") {
      cl = true;
    } else if (arg == "--audit") {
      audit_knobs = true;
    } else if (arg == "--limits" && i + 1 < argc) {
      unsigned long long bytes = 0;
      unsigned threads = 0, units = 0, registers = 0;
      if (std::sscanf(argv[++i], "%llu,%u,%u,%u", &bytes, &threads, &units, &registers) < 3) return usage();
      limits = fast::DeviceLimits{bytes, threads, units, registers};
      limits_given = true;
    } else {
      Size s;
      if (std::sscanf(arg.c_str(), "%ux%u", &s.width, &s.height) != 2 || s.width == 0 || s.height == 0) return usage();
      sizes.push_back(s);
    }
  }
  if (sizes.empty()) return usage();
  if (cl && !limits_given) limits.unit_registers = 65536;  // cl_fast_path.cpp reads it on NVIDIA
  // As the backends take them: OpenCL's with cl_tuning applied (cl_fast_path.cpp).
  const fast::Tuning gl = fast::tuning_from_env(fast::gl_default_tuning());
  const fast::Tuning opencl = fast::cl_tuning(fast::tuning_from_env(fast::Tuning{}));
  if (audit_knobs) {
    audit(sizes, limits, cl ? opencl : gl, cl ? gl : opencl, cl);
    return 0;
  }
  for (const Size& s : sizes) print_plans(s, limits, cl ? opencl : gl, cl);
  return 0;
}
