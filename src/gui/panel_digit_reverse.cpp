// The digit-reverse view for the current row (or column) length: each input index n, its
// digits in the plan's mixed radices, the digits reversed, and the position k it is gathered
// to; an arrow diagram for small N and a searchable table for any N.

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <charconv>
#include <string>

#include "gui/app.h"

namespace fftscope::gui {

namespace {

std::string join_digits(const std::vector<std::uint32_t>& digits, bool reversed) {
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    const std::uint32_t d = reversed ? digits[digits.size() - 1 - i] : digits[i];
    if (!s.empty()) s += ' ';
    s += std::to_string(d);
  }
  return s;
}

void draw_arrows(const Plan1D& plan, const std::vector<std::uint32_t>& k_of_n, int highlight, float height) {
  const std::size_t n = plan.n;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float width = std::min(ImGui::GetContentRegionAvail().x, 420.0f);
  const float step = height / static_cast<float>(std::max<std::size_t>(n, 1));
  const float xl = p.x + 40.0f, xr = p.x + width - 40.0f;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  dl->AddText({xl - 30.0f, p.y - ImGui::GetTextLineHeight()}, text, "n");
  dl->AddText({xr + 10.0f, p.y - ImGui::GetTextLineHeight()}, text, "k");
  for (std::size_t i = 0; i < n; ++i) {
    const float yl = p.y + (static_cast<float>(i) + 0.5f) * step;
    const float yr = p.y + (static_cast<float>(k_of_n[i]) + 0.5f) * step;
    const bool hot = static_cast<int>(i) == highlight;
    const ImU32 col = hot ? IM_COL32(255, 140, 0, 255) : IM_COL32(90, 160, 255, 200);
    dl->AddLine({xl, yl}, {xr, yr}, col, hot ? 3.0f : 1.2f);
    dl->AddCircleFilled({xl, yl}, 2.5f, col);
    dl->AddTriangleFilled({xr, yr}, {xr - 7.0f, yr - 3.5f}, {xr - 7.0f, yr + 3.5f}, col);
    if (step >= ImGui::GetTextLineHeight() * 0.8f) {
      const std::string a = std::to_string(i), b = std::to_string(i);
      dl->AddText({xl - 30.0f, yl - ImGui::GetTextLineHeight() / 2}, text, a.c_str());
      dl->AddText({xr + 10.0f, yl - ImGui::GetTextLineHeight() / 2}, text, b.c_str());
    }
  }
  ImGui::Dummy({width, height});
}

}  // namespace

void draw_digit_reverse_panel(AppState& app) {
  int axis = app.dr_axis == Axis::rows ? 0 : 1;
  if (ImGui::RadioButton("row length", &axis, 0)) app.dr_axis = Axis::rows;
  ImGui::SameLine();
  if (ImGui::RadioButton("column length", &axis, 1)) app.dr_axis = Axis::cols;
  const Plan1D& plan = app.dr_axis == Axis::rows ? app.plan.rows : app.plan.cols;
  const std::vector<std::uint32_t> radices = plan.radices();
  ImGui::SameLine();
  ImGui::Text("N = %zu = %s", plan.n, [&] {
    std::string s;
    for (std::uint32_t r : radices) s += (s.empty() ? "" : " x ") + std::to_string(r);
    return s.empty() ? std::string("1") : s;
  }().c_str());
  if (plan.n == 0) return;
  // k_of_n: position k that input n is gathered to (the plan stores the gather direction).
  std::vector<std::uint32_t> k_of_n(plan.n);
  for (std::size_t k = 0; k < plan.digit_reverse.size(); ++k) k_of_n[plan.digit_reverse[k]] = static_cast<std::uint32_t>(k);

  ImGui::SetNextItemWidth(160.0f * ImGui::GetIO().FontGlobalScale * 2.0f);
  ImGui::InputTextWithHint("##search", "search n or k", &app.dr_search);
  int wanted = -1;
  if (!app.dr_search.empty()) {
    int v = 0;
    const auto [ptr, ec] = std::from_chars(app.dr_search.data(), app.dr_search.data() + app.dr_search.size(), v);
    if (ec == std::errc{} && ptr == app.dr_search.data() + app.dr_search.size()) wanted = v;
  }
  ImGui::SameLine();
  ImGui::TextDisabled("digits are written least significant first");

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool diagram = plan.n <= 64;
  if (diagram) {
    ImGui::BeginChild("arrows", ImVec2(std::min(avail.x * 0.45f, 440.0f), 0), false);
    ImGui::Dummy({1, ImGui::GetTextLineHeight()});
    draw_arrows(plan, k_of_n, wanted, ImGui::GetContentRegionAvail().y - 4.0f);
    ImGui::EndChild();
    ImGui::SameLine();
  }
  std::vector<std::uint32_t> rows;
  for (std::uint32_t n = 0; n < plan.n; ++n) {
    if (wanted < 0 || static_cast<int>(n) == wanted || static_cast<int>(k_of_n[n]) == wanted) rows.push_back(n);
  }
  // The gather reverses digits: n written in the radices in reverse stage order (the last
  // stage's radix least significant) has digits d; k written in stage order has the digits of d
  // in reverse. The last column checks this against the plan's table.
  const std::vector<std::uint32_t> reversed_radices(radices.rbegin(), radices.rend());
  const auto radix_list = [](const std::vector<std::uint32_t>& r) {
    std::string s;
    for (std::uint32_t v : r) s += (s.empty() ? "" : ",") + std::to_string(v);
    return s;
  };
  const std::string n_header = "digits of n (radices " + radix_list(reversed_radices) + ")";
  const std::string k_header = "reversed = digits of k (radices " + radix_list(radices) + ")";
  if (ImGui::BeginTable("digits", 5,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("n (input)");
    ImGui::TableSetupColumn(n_header.c_str());
    ImGui::TableSetupColumn(k_header.c_str());
    ImGui::TableSetupColumn("k (position)");
    ImGui::TableSetupColumn("check");
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rows.size()));
    while (clipper.Step()) {
      for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
        const std::uint32_t n = rows[static_cast<std::size_t>(r)];
        const std::vector<std::uint32_t> dn = mixed_radix_digits(n, reversed_radices);
        const std::vector<std::uint32_t> dk = mixed_radix_digits(k_of_n[n], radices);
        const bool ok = std::equal(dn.rbegin(), dn.rend(), dk.begin(), dk.end());
        ImGui::TableNextRow();
        if (static_cast<int>(n) == wanted || static_cast<int>(k_of_n[n]) == wanted)
          ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(200, 120, 40, 90));
        ImGui::TableNextColumn();
        ImGui::Text("%u", n);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(join_digits(dn, false).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(join_digits(dk, false).c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%u", k_of_n[n]);
        ImGui::TableNextColumn();
        if (ok) ImGui::TextUnformatted("ok");
        else ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "not reversed");
      }
    }
    ImGui::EndTable();
  }
}

}  // namespace fftscope::gui
