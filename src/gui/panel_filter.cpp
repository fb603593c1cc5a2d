// The filter panel: presets and painted pass/stop strokes (the core mirrors them to the
// conjugate position), the filtered spectrum, the mask, the inverse and its difference.

#include <imgui.h>

#include <cmath>

#include "core/filter.h"
#include "gui/app.h"
#include "gui/widgets.h"

namespace fftscope::gui {

namespace {

constexpr std::size_t max_strokes = 400;

bool draw_filter_controls(AppState& app) {
  FilterSettings& f = app.filter;
  bool changed = false;
  static const FilterPreset presets[] = {FilterPreset::none,      FilterPreset::low_pass, FilterPreset::high_pass,
                                         FilterPreset::band_pass, FilterPreset::notch,    FilterPreset::wedge};
  static const char* const names[] = {"none (paint only)", "low-pass", "high-pass", "band-pass", "notch", "orientation wedge"};
  int current = 0;
  for (int i = 0; i < 6; ++i)
    if (presets[i] == f.preset) current = i;
  ImGui::SetNextItemWidth(170.0f * app.ui_scale);
  if (ImGui::Combo("preset", &current, names, 6)) {
    f.preset = presets[current];
    changed = true;
  }
  const float w = 150.0f * app.ui_scale;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::SliderFloat("soft edge", &f.softness, 0.0f, 0.1f, "%.3f c/px");
  switch (f.preset) {
    case FilterPreset::low_pass:
    case FilterPreset::high_pass:
      ImGui::SameLine();
      ImGui::SetNextItemWidth(w);
      changed |= ImGui::SliderFloat("cutoff", &f.cutoff, 0.0f, 0.71f, "%.3f c/px");
      break;
    case FilterPreset::band_pass:
      ImGui::SameLine();
      ImGui::SetNextItemWidth(w);
      changed |= ImGui::SliderFloat("inner", &f.cutoff, 0.0f, 0.71f, "%.3f c/px");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(w);
      changed |= ImGui::SliderFloat("outer", &f.cutoff_high, 0.0f, 0.71f, "%.3f c/px");
      break;
    case FilterPreset::notch:
      ImGui::SameLine();
      ImGui::SetNextItemWidth(w);
      changed |= ImGui::SliderFloat("fx", &f.notch_fx, -0.5f, 0.5f, "%.3f");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(w);
      changed |= ImGui::SliderFloat("fy", &f.notch_fy, -0.5f, 0.5f, "%.3f");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(w);
      changed |= ImGui::SliderFloat("radius", &f.notch_radius, 0.001f, 0.2f, "%.3f");
      break;
    case FilterPreset::wedge:
      ImGui::SameLine();
      ImGui::SetNextItemWidth(w);
      changed |= ImGui::SliderFloat("angle", &f.wedge_angle_degrees, -90.0f, 90.0f, "%.1f deg");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(w);
      changed |= ImGui::SliderFloat("opening", &f.wedge_width_degrees, 1.0f, 180.0f, "%.1f deg");
      break;
    case FilterPreset::none: break;
  }
  int mode = app.paint_pass ? 1 : 0;
  ImGui::TextUnformatted("paint:");
  ImGui::SameLine();
  if (ImGui::RadioButton("stop", &mode, 0)) app.paint_pass = false;
  ImGui::SameLine();
  if (ImGui::RadioButton("pass", &mode, 1)) app.paint_pass = true;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  ImGui::SliderFloat("brush", &app.brush_radius, 0.002f, 0.1f, "%.3f c/px");
  ImGui::SameLine();
  if (ImGui::Button("clear strokes")) {
    f.strokes.clear();
    changed = true;
  }
  ImGui::SameLine();
  ImGui::TextDisabled("%zu strokes (mirrored to -f automatically)", f.strokes.size());
  return changed;
}

}  // namespace

void draw_filter_panel(AppState& app) {
  if (draw_filter_controls(app)) app.dirty_filter = true;
  draw_spectrum_settings(app);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 box((avail.x - ImGui::GetStyle().ItemSpacing.x) / 2.0f,
                   std::max(48.0f, (avail.y - 2.0f * line - line * 2.5f) / 2.0f - ImGui::GetStyle().ItemSpacing.y));

  ImGui::BeginGroup();
  ImGui::TextUnformatted("filtered spectrum (paint here; same range as unfiltered)");
  const ImageViewResult r = image_view("filtered", app.filtered_tex, app.filter_view, box);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextUnformatted("mask (white = pass)");
  image_view("mask", app.mask_tex, app.filter_view, box);
  ImGui::EndGroup();
  ImGui::BeginGroup();
  ImGui::Text("inverse [%.3g, %.3g]", static_cast<double>(app.inverse_lo), static_cast<double>(app.inverse_hi));
  ImGui::SameLine();
  if (ImGui::Checkbox("stretch", &app.stretch_inverse)) app.dirty_filter = true;
  ViewTransform plain;
  image_view("inverse", app.inverse_tex, plain, box);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::Text("original - inverse (grey = 0, white = +%.3g)", static_cast<double>(app.difference_max));
  ViewTransform plain2;
  image_view("difference", app.difference_tex, plain2, box);
  ImGui::EndGroup();

  if (r.hovered && app.spectrum.width > 0) {
    const std::size_t w = app.spectrum.width, h = app.spectrum.height;
    const bool shift = app.spectrum_settings.shift;
    const std::size_t x = shift ? ifftshift_index(static_cast<std::size_t>(r.tx), w) : static_cast<std::size_t>(r.tx);
    const std::size_t y = shift ? ifftshift_index(static_cast<std::size_t>(r.ty), h) : static_cast<std::size_t>(r.ty);
    const float fx = bin_frequency(x, w), fy = bin_frequency(y, h);
    // Brush outline (and its mirror) in screen space: radius in bins times the view scale.
    const float px_per_bin = (r.max.x - r.min.x) / static_cast<float>(w) * app.filter_view.zoom;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 col = app.paint_pass ? IM_COL32(80, 255, 80, 255) : IM_COL32(255, 80, 80, 255);
    dl->AddCircle(ImGui::GetIO().MousePos, app.brush_radius * static_cast<float>(w) * px_per_bin, col, 32, 1.5f);
    if (r.left_down && app.filter.strokes.size() < max_strokes) {
      bool far = true;
      if (!app.filter.strokes.empty()) {
        const FilterStroke& last = app.filter.strokes.back();
        far = std::hypot(last.fx - fx, last.fy - fy) > app.brush_radius / 3.0f || last.pass != app.paint_pass;
      }
      if (far) {
        app.filter.strokes.push_back(FilterStroke{fx, fy, app.brush_radius, app.paint_pass});
        app.dirty_filter = true;
      }
    }
    const std::size_t i = y * w + x;
    ImGui::Text("mask %.3f at f = (%.4f, %.4f) c/px", static_cast<double>(i < app.mask.data.size() ? app.mask.data[i] : 1.0f),
                static_cast<double>(fx), static_cast<double>(fy));
  } else {
    ImGui::TextDisabled("Left-drag on the filtered spectrum paints; wheel zooms (both spectrum views).");
  }
}

}  // namespace fftscope::gui
