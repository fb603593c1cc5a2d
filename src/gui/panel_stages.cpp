// The stage stepper: the 2D buffer after K radix stages of the rows or columns pass (run on the
// selected backend with a StageStop), a plot of one row or column, and the butterfly that
// produced a picked element with the stage's formula and its actual numbers.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "gui/app.h"
#include "gui/widgets.h"

namespace fftscope::gui {

namespace {

std::string stage_label(const Plan1D& plan, int k) {
  const int stages = static_cast<int>(plan.stage_count());
  if (k == 0) return "after digit-reverse";
  const RadixStage& st = plan.stages[static_cast<std::size_t>(k - 1)];
  std::string s = "after stage " + std::to_string(k - 1) + " (radix " + std::to_string(st.radix) +
                  (st.kind == StageKind::bluestein ? ", Bluestein" : "") + ")";
  if (k == stages) s += " = done";
  return s;
}

// Value of the buffer at position i along the picked row or column.
Complex line_value(const AppState& app, const ComplexImage& buffer, std::size_t i) {
  return app.stage_axis == Axis::rows ? buffer.at(i, static_cast<std::size_t>(app.sel_y))
                                      : buffer.at(static_cast<std::size_t>(app.sel_x), i);
}

void draw_plot(AppState& app, float width, float height) {
  const ComplexImage& b = app.stage_buffer;
  if (b.data.empty()) return;
  const std::size_t n = app.stage_axis == Axis::rows ? b.width : b.height;
  static std::vector<float> values;
  values.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Complex v = line_value(app, b, i);
    values[i] = app.plot_kind == 0 ? v.real() : app.plot_kind == 1 ? v.imag() : std::abs(v);
  }
  const char* kinds[] = {"real", "imaginary", "magnitude"};
  ImGui::SetNextItemWidth(140.0f * app.ui_scale);
  ImGui::Combo("plot", &app.plot_kind, kinds, 3);
  ImGui::SameLine();
  if (app.stage_axis == Axis::rows) ImGui::Text("row y = %d", app.sel_y);
  else ImGui::Text("column x = %d", app.sel_x);
  ImGui::PlotLines("##line", values.data(), static_cast<int>(n), 0, nullptr, FLT_MAX, FLT_MAX, ImVec2(width, height));
}

void draw_butterfly(AppState& app, const Plan1D& plan) {
  const std::size_t i = static_cast<std::size_t>(app.stage_axis == Axis::rows ? app.sel_x : app.sel_y);
  if (app.stage_k == 0) {
    ImGui::TextWrapped("After the digit-reverse gather, element %zu holds input element %u "
                       "(see the Digit reverse panel).",
                       i, i < plan.digit_reverse.size() ? plan.digit_reverse[i] : 0u);
    return;
  }
  const RadixStage& st = plan.stages[static_cast<std::size_t>(app.stage_k - 1)];
  const std::size_t nx_span = st.span, ny = st.radix, ni = st.ni;
  const std::size_t nx = i % nx_span;
  const std::size_t n = (i / ni) * ni + nx;
  ImGui::Text("Stage %d: radix Ny = %zu, span Nx = %zu, Ni = %zu%s", app.stage_k - 1, ny, nx_span, ni,
              st.kind == StageKind::bluestein ? " (computed by Bluestein's chirp-z)" : "");
  ImGui::TextWrapped("Element %zu belongs to the butterfly n = %zu (nx = n mod Nx = %zu), inputs n + j*Nx", i, n, nx);
  ImGui::TextWrapped("X[n + k*Nx] = sum_j x[n + j*Nx] * exp(-2 pi i j nx / Ni) * exp(-2 pi i j k / Ny),  j, k = 0..%zu",
                     ny - 1);
  if (app.stage_before.data.empty()) return;
  // Recompute the butterfly from the inputs in double precision: the table shows whether the
  // backend's outputs follow the formula (the error column).
  std::vector<std::complex<double>> twiddled(ny);
  for (std::size_t j = 0; j < ny; ++j) {
    const Complex x = line_value(app, app.stage_before, n + j * nx_span);
    const double a = -2.0 * std::numbers::pi * static_cast<double>(j * nx) / static_cast<double>(ni);
    twiddled[j] = std::complex<double>(x.real(), x.imag()) * std::polar(1.0, a);
  }
  if (ImGui::BeginTable("butterfly", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit,
                        ImVec2(0, ImGui::GetContentRegionAvail().y))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("j = k");
    ImGui::TableSetupColumn("position");
    ImGui::TableSetupColumn("input x");
    ImGui::TableSetupColumn("twiddle");
    ImGui::TableSetupColumn("output X");
    ImGui::TableSetupColumn("|X - formula|");
    ImGui::TableHeadersRow();
    for (std::size_t j = 0; j < ny; ++j) {
      std::complex<double> expect = 0;
      for (std::size_t m = 0; m < ny; ++m)
        expect += twiddled[m] * std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>((m * j) % ny) / static_cast<double>(ny));
      const std::size_t pos = n + j * nx_span;
      const Complex x = line_value(app, app.stage_before, pos);
      const Complex X = line_value(app, app.stage_buffer, pos);
      const double a = -2.0 * std::numbers::pi * static_cast<double>(j * nx) / static_cast<double>(ni);
      ImGui::TableNextRow();
      if (pos == i) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(200, 120, 40, 90));
      ImGui::TableNextColumn();
      ImGui::Text("%zu", j);
      ImGui::TableNextColumn();
      ImGui::Text("%zu", pos);
      ImGui::TableNextColumn();
      ImGui::Text("%.4g %+.4gi", static_cast<double>(x.real()), static_cast<double>(x.imag()));
      ImGui::TableNextColumn();
      ImGui::Text("%.4f %+.4fi", std::cos(a), std::sin(a));
      ImGui::TableNextColumn();
      ImGui::Text("%.4g %+.4gi", static_cast<double>(X.real()), static_cast<double>(X.imag()));
      ImGui::TableNextColumn();
      ImGui::Text("%.2e", std::abs(std::complex<double>(X.real(), X.imag()) - expect));
    }
    ImGui::EndTable();
  }
}

}  // namespace

void draw_stages_panel(AppState& app) {
  int axis = app.stage_axis == Axis::rows ? 0 : 1;
  bool changed = ImGui::RadioButton("rows pass", &axis, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("columns pass (rows done)", &axis, 1);
  if (changed) {
    app.stage_axis = axis == 0 ? Axis::rows : Axis::cols;
    app.dirty_stages = true;
  }
  const Plan1D& plan = app.stage_axis == Axis::rows ? app.plan.rows : app.plan.cols;
  const int stages = static_cast<int>(plan.stage_count());
  app.stage_k = std::clamp(app.stage_k, 0, stages);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(160.0f * app.ui_scale);
  if (ImGui::SliderInt("K", &app.stage_k, 0, stages, "K = %d")) app.dirty_stages = true;
  ImGui::SameLine();
  if (ImGui::ArrowButton("prev", ImGuiDir_Left) && app.stage_k > 0) {
    --app.stage_k;
    app.dirty_stages = true;
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("next", ImGuiDir_Right) && app.stage_k < stages) {
    ++app.stage_k;
    app.dirty_stages = true;
  }
  ImGui::SameLine();
  ImGui::TextUnformatted(stage_label(plan, app.stage_k).c_str());
  ImGui::SameLine();
  std::string radices;
  for (std::uint32_t r : plan.radices()) radices += (radices.empty() ? "" : " x ") + std::to_string(r);
  ImGui::TextDisabled("(length %zu = %s)", plan.n, radices.empty() ? "1" : radices.c_str());

  // The buffers are recomputed at the start of the next frame after a change (or after this tab
  // opens); until then they may belong to another plan, so nothing indexes into them.
  if (app.dirty_stages || app.stage_buffer.width != app.input.width || app.stage_buffer.height != app.input.height ||
      app.sel_x < 0 || app.sel_y < 0) {
    ImGui::TextDisabled("computing...");
    return;
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float left = avail.x * 0.5f;
  ImGui::BeginChild("stage_image", ImVec2(left, 0), false);
  ImGui::TextUnformatted("buffer |x| (log), memory order; click an element");
  const ImageViewResult r = image_view("stage", app.stage_tex, app.stage_view, ImGui::GetContentRegionAvail());
  if (r.clicked) {
    app.sel_x = r.tx;
    app.sel_y = r.ty;
    app.has_selection = true;
  }
  if (app.stage_tex.valid()) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const auto mark = [&](float x, float y, ImU32 col) {
      const ImVec2 c = texel_to_screen(app.stage_tex, app.stage_view, r, x, y);
      dl->AddRect({c.x - 3, c.y - 3}, {c.x + 3, c.y + 3}, col, 0.0f, 0, 1.5f);
    };
    if (app.stage_k >= 1) {
      const RadixStage& st = plan.stages[static_cast<std::size_t>(app.stage_k - 1)];
      const std::size_t i = static_cast<std::size_t>(app.stage_axis == Axis::rows ? app.sel_x : app.sel_y);
      const std::size_t n = (i / st.ni) * st.ni + i % st.span;
      for (std::size_t j = 0; j < st.radix; ++j) {
        const float p = static_cast<float>(n + j * st.span);
        if (app.stage_axis == Axis::rows) mark(p, static_cast<float>(app.sel_y), IM_COL32(60, 200, 255, 255));
        else mark(static_cast<float>(app.sel_x), p, IM_COL32(60, 200, 255, 255));
      }
    }
    mark(static_cast<float>(app.sel_x), static_cast<float>(app.sel_y), IM_COL32(255, 140, 0, 255));
  }
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("stage_detail", ImVec2(0, 0), false);
  draw_plot(app, ImGui::GetContentRegionAvail().x, 160.0f * app.ui_scale);
  ImGui::Separator();
  draw_butterfly(app, plan);
  ImGui::EndChild();
}

}  // namespace fftscope::gui
