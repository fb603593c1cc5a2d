#include "gui/widgets.h"

#include "gui/readout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fftscope::gui {

ImVec2 fit_size(const Texture& texture, ImVec2 avail) {
  if (!texture.valid() || texture.width() == 0 || texture.height() == 0) return {0, 0};
  const float aspect = static_cast<float>(texture.width()) / static_cast<float>(texture.height());
  float w = std::max(avail.x, 16.0f), h = w / aspect;
  if (h > avail.y && avail.y > 16.0f) {
    h = avail.y;
    w = h * aspect;
  }
  return {w, h};
}

namespace {

void uv_window(const ViewTransform& view, ImVec2& uv0, ImVec2& uv1) {
  const float half = 0.5f / view.zoom;
  uv0 = {view.cx - half, view.cy - half};
  uv1 = {view.cx + half, view.cy + half};
}

void clamp_view(ViewTransform& view) {
  view.zoom = std::clamp(view.zoom, 1.0f, 64.0f);
  const float half = 0.5f / view.zoom;
  view.cx = std::clamp(view.cx, half, 1.0f - half);
  view.cy = std::clamp(view.cy, half, 1.0f - half);
}

}  // namespace

ImageViewResult image_view(const char* id, const Texture& texture, ViewTransform& view, ImVec2 size) {
  ImageViewResult r;
  if (!texture.valid()) {
    ImGui::TextDisabled("(no image)");
    return r;
  }
  const ImVec2 shown = fit_size(texture, size);
  clamp_view(view);
  ImVec2 uv0, uv1;
  uv_window(view, uv0, uv1);
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  ImGui::Image(texture.imgui_id(), shown, uv0, uv1);
  r.min = pos;
  r.max = {pos.x + shown.x, pos.y + shown.y};
  // An invisible button on top takes the mouse so dragging does not move the window.
  ImGui::SetCursorScreenPos(pos);
  ImGui::PushID(id);
  ImGui::InvisibleButton("##image", shown,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                             ImGuiButtonFlags_MouseButtonMiddle);
  ImGui::PopID();
  r.hovered = ImGui::IsItemHovered();
  const ImGuiIO& io = ImGui::GetIO();
  auto mouse_uv = [&](ImVec2 m) {
    const float fx = (m.x - r.min.x) / std::max(1.0f, shown.x);
    const float fy = (m.y - r.min.y) / std::max(1.0f, shown.y);
    return ImVec2(uv0.x + fx * (uv1.x - uv0.x), uv0.y + fy * (uv1.y - uv0.y));
  };
  if (r.hovered) {
    const ImVec2 uv = mouse_uv(io.MousePos);
    // The same mapping the readout tests check (readout.h).
    const auto texel = screen_to_texel(io.MousePos.x, io.MousePos.y, r.min.x, r.min.y, r.max.x, r.max.y, view,
                                       texture.width(), texture.height());
    if (texel) {
      r.tx = texel->first;
      r.ty = texel->second;
    } else {
      r.hovered = false;
    }
    if (io.MouseWheel != 0.0f) {
      // Zoom about the cursor: the texture point under it stays put.
      const float factor = io.MouseWheel > 0 ? 1.25f : 0.8f;
      const float new_zoom = std::clamp(view.zoom * factor, 1.0f, 64.0f);
      const float k = view.zoom / new_zoom;
      view.cx = uv.x + (view.cx - uv.x) * k;
      view.cy = uv.y + (view.cy - uv.y) * k;
      view.zoom = new_zoom;
    }
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle)) {
      view.cx -= io.MouseDelta.x / shown.x / view.zoom;
      view.cy -= io.MouseDelta.y / shown.y / view.zoom;
    }
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Right)) view = ViewTransform{};
    r.clicked = ImGui::IsMouseClicked(ImGuiMouseButton_Left);
    r.left_down = ImGui::IsMouseDown(ImGuiMouseButton_Left);
  }
  clamp_view(view);
  return r;
}

ImVec2 texel_to_screen(const Texture& texture, const ViewTransform& view, const ImageViewResult& r, float x,
                       float y) {
  ImVec2 uv0, uv1;
  uv_window(view, uv0, uv1);
  const float u = (x + 0.5f) / static_cast<float>(std::max<std::size_t>(1, texture.width()));
  const float v = (y + 0.5f) / static_cast<float>(std::max<std::size_t>(1, texture.height()));
  return {r.min.x + (u - uv0.x) / (uv1.x - uv0.x) * (r.max.x - r.min.x),
          r.min.y + (v - uv0.y) / (uv1.y - uv0.y) * (r.max.y - r.min.y)};
}

void colour_bar(Colormap colormap, SpectrumComponent component, float lo, float hi, float height) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = 18.0f * ImGui::GetIO().FontGlobalScale;
  const int steps = 128;
  for (int i = 0; i < steps; ++i) {
    const float t = 1.0f - static_cast<float>(i) / static_cast<float>(steps - 1);  // top = high
    std::array<std::uint8_t, 3> c{};
    if (component == SpectrumComponent::phase_hue) c = hsv_to_rgb8(t, 1.0f, 1.0f);
    else c = colormap_rgb(colormap, t);
    const float y0 = p.y + height * static_cast<float>(i) / steps;
    const float y1 = p.y + height * static_cast<float>(i + 1) / steps + 1.0f;
    dl->AddRectFilled({p.x, y0}, {p.x + w, y1}, IM_COL32(c[0], c[1], c[2], 255));
  }
  dl->AddRect(p, {p.x + w, p.y + height}, ImGui::GetColorU32(ImGuiCol_Border));
  char buf[64];
  const float th = ImGui::GetTextLineHeight();
  const auto label = [&](float y, float value) {
    std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(value));
    dl->AddText({p.x + w + 4.0f, y}, ImGui::GetColorU32(ImGuiCol_Text), buf);
  };
  if (component == SpectrumComponent::phase_hue) {
    dl->AddText({p.x + w + 4.0f, p.y}, ImGui::GetColorU32(ImGuiCol_Text), "+pi");
    dl->AddText({p.x + w + 4.0f, p.y + height - th}, ImGui::GetColorU32(ImGuiCol_Text), "-pi");
  } else {
    label(p.y, hi);
    label(p.y + 0.5f * (height - th), 0.5f * (lo + hi));
    label(p.y + height - th, lo);
  }
  ImGui::Dummy({w + 70.0f, height});
}

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

}  // namespace fftscope::gui
