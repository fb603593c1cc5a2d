// The spectrum panel: display settings, the transformed image next to its spectrum (as the
// selected backend computed and, where it can, rendered it), a colour bar and a hover readout.

#include <imgui.h>

#include <cmath>
#include <numbers>

#include "core/filter.h"
#include "gui/app.h"
#include "gui/readout.h"
#include "gui/widgets.h"

namespace fftscope::gui {

namespace {

template <typename Enum, std::size_t N>
bool combo(const char* label, Enum& value, const Enum (&values)[N], const char* const (&names)[N], float width) {
  std::size_t current = 0;
  for (std::size_t i = 0; i < N; ++i)
    if (values[i] == value) current = i;
  bool changed = false;
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(label, names[current])) {
    for (std::size_t i = 0; i < N; ++i)
      if (ImGui::Selectable(names[i], i == current)) {
        changed = values[i] != value;
        value = values[i];
      }
    ImGui::EndCombo();
  }
  return changed;
}

}  // namespace

/// Display settings row, shared with the filter panel (declared in this file's users).
bool draw_spectrum_settings(AppState& app) {
  SpectrumSettings& s = app.spectrum_settings;
  const float w = 120.0f * app.ui_scale;
  bool changed = ImGui::Checkbox("fftshift", &s.shift);
  ImGui::SameLine();
  static const SpectrumScale scales[] = {SpectrumScale::log, SpectrumScale::linear};
  static const char* const scale_names[] = {"log(1+|x|)", "linear"};
  changed |= combo("##scale", s.scale, scales, scale_names, w);
  ImGui::SameLine();
  static const SpectrumComponent comps[] = {SpectrumComponent::magnitude, SpectrumComponent::phase,
                                            SpectrumComponent::real, SpectrumComponent::imaginary,
                                            SpectrumComponent::phase_hue};
  static const char* const comp_names[] = {"magnitude", "phase", "real", "imaginary", "phase as hue"};
  changed |= combo("##component", s.component, comps, comp_names, w);
  ImGui::SameLine();
  static const Colormap maps[] = {Colormap::gray, Colormap::viridis, Colormap::inferno, Colormap::magma,
                                  Colormap::twilight};
  static const char* const map_names[] = {"gray", "viridis", "inferno", "magma", "twilight"};
  changed |= combo("##colormap", s.colormap, maps, map_names, w);
  ImGui::SameLine();
  if (ImGui::Checkbox("auto range", &s.auto_range)) {
    changed = true;
    if (!s.auto_range) {  // start the fixed range where the auto range was, so nothing jumps
      s.range_min = app.spectrum_range.first;
      s.range_max = app.spectrum_range.second;
    }
  }
  if (!s.auto_range) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(2.0f * w);
    changed |= ImGui::DragFloatRange2("range", &s.range_min, &s.range_max, 0.01f * std::max(1e-3f, std::abs(s.range_max)));
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::SliderFloat("gain", &s.gain, 0.1f, 10.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
  if (changed) mark_display_dirty(app);
  return changed;
}

/// The hover readout of a spectrum bin at displayed texel (tx, ty); shared with the filter panel.
void spectrum_readout(const AppState& app, int tx, int ty) {
  if (app.spectrum.width == 0 || app.spectrum.height == 0) return;
  ImGui::TextUnformatted(format_readout(bin_readout(app.spectrum, app.spectrum_settings.shift, tx, ty)).c_str());
}

void draw_spectrum_panel(AppState& app) {
  draw_spectrum_settings(app);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float readout_h = ImGui::GetTextLineHeightWithSpacing() * 3.5f;
  const float bar_w = 100.0f * app.ui_scale;
  const float img_w = std::max(64.0f, (avail.x - bar_w - 2.0f * ImGui::GetStyle().ItemSpacing.x) / 2.0f);
  const ImVec2 box(img_w, std::max(64.0f, avail.y - readout_h - ImGui::GetTextLineHeightWithSpacing()));

  ImGui::BeginGroup();
  ImGui::Text("input %zux%zu (after window and padding)%s", app.input.width, app.input.height,
              image_loading(app) ? "  loading..." : "");
  ViewTransform plain;
  image_view("source", app.source_tex, plain, box);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::Text("spectrum (%s, %s)%s", to_string(app.spectrum_settings.component).c_str(),
              to_string(app.backend_kind).c_str(), pipeline_busy(app) ? "  computing..." : "");
  const ImageViewResult r = image_view("spectrum", app.spectrum_tex, app.spectrum_view, box);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::Dummy(ImVec2(1, ImGui::GetTextLineHeightWithSpacing()));
  colour_bar(app.spectrum_settings.colormap, app.spectrum_settings.component, app.spectrum_range.first,
             app.spectrum_range.second, std::min(box.y, fit_size(app.spectrum_tex, box).y));
  ImGui::EndGroup();

  if (r.hovered) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 c = texel_to_screen(app.spectrum_tex, app.spectrum_view, r, static_cast<float>(r.tx),
                                     static_cast<float>(r.ty));
    dl->AddCircle(c, 6.0f, IM_COL32(255, 80, 80, 255), 12, 1.5f);
    spectrum_readout(app, r.tx, r.ty);
  } else {
    ImGui::TextDisabled("Hover the spectrum for (kx, ky), cycles/pixel, period, orientation, |F| and arg F.");
    ImGui::TextDisabled("Wheel: zoom  right-drag: pan  right double-click: reset  zoom %.2fx", static_cast<double>(app.spectrum_view.zoom));
  }
}

}  // namespace fftscope::gui
