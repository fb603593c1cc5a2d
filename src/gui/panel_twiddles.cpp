// The twiddle view: per stage, the table (nx, ky, angle, value) computed by the core in double
// precision (what the kernels use), and a unit-circle plot marking the selected butterfly's twiddles.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "gui/app.h"

namespace fftscope::gui {

namespace {

void draw_unit_circle(const std::vector<Twiddle>& twiddles, std::uint32_t nx, float size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float radius = size * 0.42f;
  const ImVec2 c{p.x + size / 2, p.y + size / 2};
  const ImU32 axis_col = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddLine({c.x - radius * 1.1f, c.y}, {c.x + radius * 1.1f, c.y}, axis_col);
  dl->AddLine({c.x, c.y - radius * 1.1f}, {c.x, c.y + radius * 1.1f}, axis_col);
  dl->AddCircle(c, radius, ImGui::GetColorU32(ImGuiCol_Text), 96, 1.0f);
  dl->AddText({c.x + radius * 1.1f - 14.0f, c.y + 2.0f}, axis_col, "Re");
  dl->AddText({c.x + 4.0f, c.y - radius * 1.1f}, axis_col, "Im");
  const std::size_t stride = std::max<std::size_t>(1, twiddles.size() / 8192);  // keep the draw list small
  for (std::size_t i = 0; i < twiddles.size(); i += stride) {
    const double a = twiddles[i].angle;
    dl->AddCircleFilled({c.x + radius * static_cast<float>(std::cos(a)), c.y - radius * static_cast<float>(std::sin(a))},
                        2.0f, IM_COL32(90, 160, 255, 160));
  }
  for (const Twiddle& t : twiddles) {
    if (t.nx != nx) continue;
    const ImVec2 q{c.x + radius * static_cast<float>(std::cos(t.angle)), c.y - radius * static_cast<float>(std::sin(t.angle))};
    dl->AddLine(c, q, IM_COL32(255, 140, 0, 255), 2.0f);
    dl->AddCircleFilled(q, 5.0f, IM_COL32(255, 140, 0, 255));
    const std::string label = "j=" + std::to_string(t.ky);
    dl->AddText({q.x + 6.0f, q.y - 6.0f}, ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
  }
  ImGui::Dummy({size, size});
}

}  // namespace

void draw_twiddles_panel(AppState& app) {
  int axis = app.tw_axis == Axis::rows ? 0 : 1;
  if (ImGui::RadioButton("rows", &axis, 0)) app.tw_axis = Axis::rows;
  ImGui::SameLine();
  if (ImGui::RadioButton("columns", &axis, 1)) app.tw_axis = Axis::cols;
  const Plan1D& plan = app.tw_axis == Axis::rows ? app.plan.rows : app.plan.cols;
  if (plan.stage_count() == 0) {
    ImGui::TextUnformatted("Length 1: no stages, no twiddles.");
    return;
  }
  app.tw_stage = std::clamp(app.tw_stage, 0, static_cast<int>(plan.stage_count()) - 1);
  const RadixStage& st = plan.stages[static_cast<std::size_t>(app.tw_stage)];
  ImGui::SameLine();
  ImGui::SetNextItemWidth(200.0f * app.ui_scale);
  ImGui::SliderInt("stage", &app.tw_stage, 0, static_cast<int>(plan.stage_count()) - 1);
  app.tw_nx = std::clamp(app.tw_nx, 0, static_cast<int>(st.span) - 1);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(200.0f * app.ui_scale);
  ImGui::SliderInt("butterfly nx", &app.tw_nx, 0, static_cast<int>(st.span) - 1);
  ImGui::SameLine();
  if (ImGui::Button("from stage stepper") && app.stage_k >= 1) {
    app.tw_axis = app.stage_axis;
    const Plan1D& sp = app.stage_axis == Axis::rows ? app.plan.rows : app.plan.cols;
    app.tw_stage = std::min(app.stage_k - 1, static_cast<int>(sp.stage_count()) - 1);
    const std::size_t i = static_cast<std::size_t>(app.stage_axis == Axis::rows ? app.sel_x : app.sel_y);
    app.tw_nx = static_cast<int>(i % sp.stages[static_cast<std::size_t>(app.tw_stage)].span);
  }
  ImGui::Text("Stage %d: radix Ny = %u, span Nx = %u, Ni = %u. Twiddle of input j of butterfly column nx: "
              "exp(-2 pi i * j * nx / Ni) (forward; the inverse conjugates).",
              app.tw_stage, st.radix, st.span, st.ni);
  const std::vector<Twiddle> twiddles = stage_twiddles(st);

  const float plot = std::min(ImGui::GetContentRegionAvail().y, ImGui::GetContentRegionAvail().x * 0.45f);
  ImGui::BeginChild("circle", ImVec2(plot, plot), false);
  draw_unit_circle(twiddles, static_cast<std::uint32_t>(app.tw_nx), plot - 8.0f);
  ImGui::EndChild();
  ImGui::SameLine();
  if (ImGui::BeginTable("twiddles", 5,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("nx");
    ImGui::TableSetupColumn("ky (j)");
    ImGui::TableSetupColumn("angle (rad)");
    ImGui::TableSetupColumn("angle (deg)");
    ImGui::TableSetupColumn("value");
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(twiddles.size()));
    while (clipper.Step()) {
      for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
        const Twiddle& t = twiddles[static_cast<std::size_t>(r)];
        const Complex v = twiddle_value(t.angle, Direction::forward);
        ImGui::TableNextRow();
        if (static_cast<int>(t.nx) == app.tw_nx) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(200, 120, 40, 90));
        ImGui::TableNextColumn();
        ImGui::Text("%u", t.nx);
        ImGui::TableNextColumn();
        ImGui::Text("%u", t.ky);
        ImGui::TableNextColumn();
        ImGui::Text("%.6f", t.angle);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", t.angle * 180.0 / std::numbers::pi);
        ImGui::TableNextColumn();
        ImGui::Text("%.6f %+.6fi", static_cast<double>(v.real()), static_cast<double>(v.imag()));
      }
    }
    ImGui::EndTable();
  }
}

}  // namespace fftscope::gui
