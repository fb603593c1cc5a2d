// The left column: image or synthetic source, preprocessing (size rule, padding, window,
// channel), backend and kernel variant, guided presets, exports.

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>

#include "core/image_io.h"
#include "gui/app.h"
#include "gui/widgets.h"

namespace fftscope::gui {

namespace {

template <typename Enum, std::size_t N>
bool enum_combo(const char* label, Enum& value, const Enum (&values)[N], const char* const (&names)[N]) {
  bool changed = false;
  std::size_t current = 0;
  for (std::size_t i = 0; i < N; ++i)
    if (values[i] == value) current = i;
  if (ImGui::BeginCombo(label, names[current])) {
    for (std::size_t i = 0; i < N; ++i) {
      if (ImGui::Selectable(names[i], i == current)) {
        changed = values[i] != value;
        value = values[i];
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

bool slider_size(const char* label, std::size_t& value, int lo, int hi) {
  int v = static_cast<int>(value);
  if (!ImGui::SliderInt(label, &v, lo, hi)) return false;
  value = static_cast<std::size_t>(std::max(lo, v));
  return true;
}

void draw_synthetic(AppState& app) {
  SyntheticSettings& s = app.synthetic;
  bool changed = false;
  static const SyntheticKind kinds[] = {SyntheticKind::grating, SyntheticKind::impulse, SyntheticKind::rectangle,
                                        SyntheticKind::checkerboard};
  static const char* const names[] = {"grating", "impulse", "rectangle", "checkerboard"};
  changed |= enum_combo("pattern", s.kind, kinds, names);
  changed |= slider_size("width", s.width, 8, 1024);
  changed |= slider_size("height", s.height, 8, 1024);
  switch (s.kind) {
    case SyntheticKind::grating:
      changed |= ImGui::SliderFloat("frequency", &s.frequency, 0.0f, 0.5f, "%.4f c/px");
      help_marker("Cycles per pixel. The two dots sit at +-f from the centre; 0.5 is the Nyquist limit.");
      changed |= ImGui::SliderFloat("angle", &s.angle_degrees, -180.0f, 180.0f, "%.1f deg");
      break;
    case SyntheticKind::impulse:
      changed |= slider_size("x", s.offset_x, 0, static_cast<int>(s.width) - 1);
      changed |= slider_size("y", s.offset_y, 0, static_cast<int>(s.height) - 1);
      break;
    case SyntheticKind::rectangle:
      changed |= slider_size("centre x", s.offset_x, 0, static_cast<int>(s.width) - 1);
      changed |= slider_size("centre y", s.offset_y, 0, static_cast<int>(s.height) - 1);
      changed |= slider_size("box width", s.rect_width, 1, static_cast<int>(s.width));
      changed |= slider_size("box height", s.rect_height, 1, static_cast<int>(s.height));
      break;
    case SyntheticKind::checkerboard:
      changed |= slider_size("cell", s.cell, 1, 128);
      break;
  }
  if (changed) mark_source_dirty(app);
}

void draw_file_source(AppState& app) {
  ImGui::SetNextItemWidth(-60.0f * app.ui_scale);
  const bool enter = ImGui::InputText("##path", &app.path_field, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Load") || enter) && !app.path_field.empty()) load_image_source(app, app.path_field);
  ImGui::TextDisabled("(or drop an image on the window)");
  if (!app.stored.recent_files.empty() && ImGui::BeginCombo("recent", "choose...")) {
    for (const std::string& r : app.stored.recent_files)
      if (ImGui::Selectable(r.c_str())) load_image_source(app, r);
    ImGui::EndCombo();
  }
  if (!app.image_path.empty() && !app.use_synthetic)
    ImGui::TextWrapped("%s", std::filesystem::path(app.image_path).filename().string().c_str());
  if (image_loading(app)) {
    const std::string& next = app.load_queued ? app.load_queued->path : app.loading.path;
    ImGui::TextWrapped("loading %s...", std::filesystem::path(next).filename().string().c_str());
  }
}

}  // namespace

void draw_source_panel(AppState& app) {
  ImGui::PushItemWidth(-90.0f * app.ui_scale);
  if (ImGui::CollapsingHeader("Source", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (!app.samples.empty()) {
      ImGui::TextUnformatted("Samples:");
      const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
      for (std::size_t i = 0; i < app.samples.size(); ++i) {
        const std::string name = std::filesystem::path(app.samples[i]).stem().string();
        // Flow the buttons like words: next to the previous one while it fits.
        const float w = ImGui::CalcTextSize(name.c_str()).x + 2.0f * ImGui::GetStyle().FramePadding.x;
        if (i > 0 && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w < right) ImGui::SameLine();
        if (ImGui::SmallButton(name.c_str())) load_image_source(app, app.samples[i]);
      }
    }
    int mode = app.use_synthetic ? 0 : 1;
    if (ImGui::RadioButton("synthetic", &mode, 0) && !app.use_synthetic) {
      app.use_synthetic = true;
      mark_source_dirty(app);
    }
    ImGui::SameLine();
    if (ImGui::RadioButton("image file", &mode, 1) && app.use_synthetic) {
      if (!app.image_path.empty()) {
        app.use_synthetic = false;
        mark_source_dirty(app);
      }
    }
    if (app.use_synthetic) {
      draw_synthetic(app);
    } else {
      static const Channel channels[] = {Channel::luma, Channel::r, Channel::g, Channel::b};
      static const char* const names[] = {"luma", "R", "G", "B"};
      if (enum_combo("channel", app.channel, channels, names)) mark_source_dirty(app);
    }
    ImGui::Separator();
    draw_file_source(app);
  }

  if (ImGui::CollapsingHeader("Size, padding, window", ImGuiTreeNodeFlags_DefaultOpen)) {
    PreprocessSettings& p = app.preprocess;
    bool changed = false;
    static const SizeRule rules[] = {SizeRule::exact, SizeRule::smooth, SizeRule::power_of_two};
    static const char* const rule_names[] = {"exact (mixed radix)", "pad to 2*3*5*7-smooth", "pad to power of 2"};
    changed |= enum_combo("size", p.size_rule, rules, rule_names);
    static const PadMode pads[] = {PadMode::zeros, PadMode::mean, PadMode::mirror};
    static const char* const pad_names[] = {"zeros", "mean", "mirror"};
    if (p.size_rule != SizeRule::exact) changed |= enum_combo("padding", p.pad, pads, pad_names);
    static const WindowKind windows[] = {WindowKind::none, WindowKind::hann, WindowKind::tukey};
    static const char* const window_names[] = {"none", "Hann", "Tukey"};
    changed |= enum_combo("window", p.window, windows, window_names);
    help_marker("A window tapers the image to zero at its borders, removing the bright cross that the "
                "jump between opposite edges puts through the centre of the spectrum.");
    if (p.window == WindowKind::tukey) changed |= ImGui::SliderFloat("taper", &p.tukey_alpha, 0.0f, 1.0f, "%.2f");
    if (changed) mark_input_dirty(app);
    ImGui::Text("image %zux%zu -> FFT %zux%zu", app.source.width, app.source.height, app.input.width,
                app.input.height);
    auto radices = [](const Plan1D& plan) {
      std::string s;
      for (std::uint32_t r : plan.radices()) {
        if (!s.empty()) s += 'x';
        s += std::to_string(r);
      }
      return s.empty() ? std::string("1") : s;
    };
    ImGui::TextWrapped("rows: %s%s", radices(app.plan.rows).c_str(), app.plan.rows.uses_bluestein() ? " (Bluestein)" : "");
    ImGui::TextWrapped("cols: %s%s", radices(app.plan.cols).c_str(), app.plan.cols.uses_bluestein() ? " (Bluestein)" : "");
  }

  if (ImGui::CollapsingHeader("Backend", ImGuiTreeNodeFlags_DefaultOpen)) {
    const std::vector<BackendKind> kinds = compiled_backends();
    if (ImGui::BeginCombo("backend", to_string(app.backend_kind).c_str())) {
      for (BackendKind k : kinds) {
        const char* label = k == BackendKind::gl ? "gl (OpenGL compute)" : k == BackendKind::cl ? "cl (OpenCL)" : "cpu";
        if (ImGui::Selectable(label, k == app.backend_kind) && k != app.backend_kind) switch_backend(app, k);
      }
      ImGui::EndCombo();
    }
    ImGui::TextWrapped("device: %s%s", app.backend_job.valid() ? "(starting) " : "", app.device_name.c_str());
    static const KernelVariant variants[] = {KernelVariant::plain, KernelVariant::optimized, KernelVariant::fused,
                                             KernelVariant::fast};
    static const char* const variant_names[] = {"plain", "optimized twiddle", "fused", "fast"};
    if (enum_combo("kernels", app.variant, variants, variant_names)) app.dirty_forward = true;
    ImGui::TextDisabled("display: %s", app.routed_display ? "the fast path's real-input display, routed through Bluestein"
                                       : app.fused_display ? "the fast path's fused real-input display"
                                       : app.gpu_rendered_display ? "filled by the backend"
                                                                  : "rendered on the host");
    help_marker("'fused real-input display' (fast kernels): the image itself through two dispatches, "
                "fast_cols_real (its columns) and fast_rows_display (rows that write the shifted, coloured "
                "pixels), then display_copy (or OpenCL's display_copy_*) into the view's texture, rows in Timers; "
                "a prime factor above 13 routes the same display through Bluestein's passes, display_unpack "
                "and display_half. "
                "'filled by the backend': the backend wrote the spectrum texture "
                "from the spectrum (render_to_gl_texture: on the device, or its own copy path; see its rows "
                "in Timers). 'rendered on the host': the core's render_spectrum of the downloaded spectrum.");
    ImGui::TextDisabled("last transform %.1f ms (worker thread)%s", app.last_job_s * 1000.0,
                        pipeline_busy(app) ? "  computing..." : "");
  }

  if (ImGui::CollapsingHeader("Export")) {
    ImGui::InputText("folder", &app.export_dir);
    auto try_write = [&app](const char* what, auto&& fn) {
      const std::string path = app.export_dir + "/" + what;
      try {
        fn(path);
        app.status = "Wrote " + path;
      } catch (const std::exception& e) {
        app.status = e.what();
      }
    };
    if (ImGui::Button("spectrum PNG"))
      try_write("fftscope_spectrum.png", [&](const std::string& p) { write_png(p, render_spectrum(app.spectrum, app.spectrum_settings)); });
    ImGui::SameLine();
    if (ImGui::Button("complex NPY"))
      try_write("fftscope_spectrum.npy", [&](const std::string& p) { write_npy(p, app.spectrum); });
    if (ImGui::Button("inverse PNG")) {
      if (app.inverse.data.empty()) app.status = "Open the Filter & inverse panel first.";
      else try_write("fftscope_inverse.png", [&](const std::string& p) { write_png(p, gray_to_rgba(app.inverse)); });
    }
    ImGui::SameLine();
    if (ImGui::Button("screenshot")) app.want_screenshot = true;
    if (ImGui::Button("timings CSV"))
      try_write("fftscope_timings.csv", [&](const std::string& p) {
        const std::string text = timings_to_csv(summarize_timings({app.timing_history.begin(), app.timing_history.end()}));
        write_file_atomic(p, std::vector<std::uint8_t>(text.begin(), text.end()));
      });
    ImGui::SameLine();
    if (ImGui::Button("timings JSON"))
      try_write("fftscope_timings.json", [&](const std::string& p) {
        const std::string text = timings_to_json(summarize_timings({app.timing_history.begin(), app.timing_history.end()}));
        write_file_atomic(p, std::vector<std::uint8_t>(text.begin(), text.end()));
      });
  }
  ImGui::PopItemWidth();
  if (!app.guided_text.empty()) {
    ImGui::Separator();
    ImGui::TextWrapped("%s", app.guided_text.c_str());
  }
  if (!app.status.empty()) {
    ImGui::Separator();
    ImGui::TextWrapped("%s", app.status.c_str());
  }
}

}  // namespace fftscope::gui
