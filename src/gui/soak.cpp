#include "gui/soak.h"

#include <glad/gl.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace fftscope::gui {

namespace {

// Each block of 7 steps visits the 7 sizes with one backend and one kernel variant; backends
// (3) and variants (4) change per block, so 84 steps see every (backend, variant, size).
constexpr int steps_per_backend = 7;

struct Size {
  std::size_t w, h;
};
// Powers of two, mixed radix, a prime (Bluestein) and a wide strip.
constexpr Size sizes[] = {{64, 64}, {96, 80}, {256, 256}, {200, 150}, {127, 61}, {512, 384}, {33, 300}};

}  // namespace

long resident_kib() {
  std::ifstream in("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  if (!(in >> pages_total >> pages_resident)) return 0;
  return pages_resident * (sysconf(_SC_PAGESIZE) / 1024);
}

std::string gpu_memory_report() {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  bool nvx = false, ati = false;
  for (GLint i = 0; i < n; ++i) {
    const auto* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (!e) continue;
    const std::string name = e;
    nvx = nvx || name == "GL_NVX_gpu_memory_info";
    ati = ati || name == "GL_ATI_meminfo";
  }
  char buf[160];
  if (nvx) {
    GLint total_kib = 0, available_kib = 0;
    glGetIntegerv(0x9048, &total_kib);      // GL_GPU_MEMORY_INFO_TOTAL_AVAILABLE_MEMORY_NVX
    glGetIntegerv(0x9049, &available_kib);  // GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX
    std::snprintf(buf, sizeof buf, "GPU free %d MiB of %d MiB (GL_NVX_gpu_memory_info)", available_kib / 1024,
                  total_kib / 1024);
    return buf;
  }
  if (ati) {
    GLint info[4] = {};
    glGetIntegerv(0x87FC, info);  // GL_TEXTURE_FREE_MEMORY_ATI: free KiB first
    std::snprintf(buf, sizeof buf, "GPU texture memory free %d MiB (GL_ATI_meminfo)", info[0] / 1024);
    return buf;
  }
  return "";
}

int soak_round_steps() {
  const int backends = static_cast<int>(compiled_backends().size());
  const int blocks = backends % 4 == 0 ? backends : backends * (backends % 2 == 0 ? 2 : 4);  // lcm(backends, 4)
  return steps_per_backend * blocks;
}

void soak_step(AppState& app, int step) {
  const std::vector<BackendKind> kinds = compiled_backends();
  const BackendKind kind = kinds[static_cast<std::size_t>(step / steps_per_backend) % kinds.size()];
  // A backend that failed to start stays replaced by the CPU one until its turn comes again.
  if (step % steps_per_backend == 0 && kind != app.backend_requested) switch_backend(app, kind);
  app.panel = all_panels[static_cast<std::size_t>(step) % std::size(all_panels)];
  app.select_panel = true;
  // Every third step a sample (when there are any), else a synthetic source of the step's size.
  if (step % 3 == 0 && !app.samples.empty()) {
    load_image_source(app, app.samples[static_cast<std::size_t>(step / 2) % app.samples.size()]);
  } else {
    static const SyntheticKind kinds_s[] = {SyntheticKind::grating, SyntheticKind::impulse, SyntheticKind::rectangle,
                                            SyntheticKind::checkerboard};
    const Size size = sizes[static_cast<std::size_t>(step % steps_per_backend) % std::size(sizes)];
    app.use_synthetic = true;
    app.synthetic.kind = kinds_s[static_cast<std::size_t>(step / 3) % std::size(kinds_s)];
    app.synthetic.width = size.w;
    app.synthetic.height = size.h;
    app.synthetic.offset_x = size.w / 2;
    app.synthetic.offset_y = size.h / 2;
    app.synthetic.rect_width = std::max<std::size_t>(1, size.w / 8);
    app.synthetic.rect_height = std::max<std::size_t>(1, size.h / 16);
    app.synthetic.frequency = 0.05f + 0.01f * static_cast<float>(step % 17);
    app.synthetic.angle_degrees = static_cast<float>((step * 37) % 180);
    mark_source_dirty(app);
  }
  static const Colormap maps[] = {Colormap::gray, Colormap::viridis, Colormap::inferno, Colormap::magma,
                                  Colormap::twilight};
  static const SpectrumComponent comps[] = {SpectrumComponent::magnitude, SpectrumComponent::phase,
                                            SpectrumComponent::real, SpectrumComponent::imaginary,
                                            SpectrumComponent::phase_hue};
  app.spectrum_settings.colormap = maps[static_cast<std::size_t>(step) % std::size(maps)];
  app.spectrum_settings.component = comps[static_cast<std::size_t>(step / 5) % std::size(comps)];
  app.spectrum_settings.shift = step % 3 != 0;
  static const FilterPreset presets[] = {FilterPreset::low_pass, FilterPreset::high_pass, FilterPreset::band_pass,
                                         FilterPreset::notch, FilterPreset::wedge};
  app.filter.preset = presets[static_cast<std::size_t>(step / 6) % std::size(presets)];
  static const WindowKind windows[] = {WindowKind::none, WindowKind::hann, WindowKind::tukey};
  app.preprocess.window = windows[static_cast<std::size_t>(step / 4) % std::size(windows)];
  app.stage_axis = step % 4 < 2 ? Axis::rows : Axis::cols;
  app.stage_k = step % 5;
  app.variant = static_cast<KernelVariant>(step / steps_per_backend % 4);
  mark_input_dirty(app);
  mark_display_dirty(app);
  app.dirty_stages = true;
}

}  // namespace fftscope::gui
