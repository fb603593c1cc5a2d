// The timers panel: one row per kernel dispatch from the backend's timing records (summarized
// by the core), a history graph of the total per run, host- vs GPU-measured marks, pause,
// reset, export, and the kernel-variant comparison.

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "core/image_io.h"
#include "gui/app.h"
#include "gui/variant_table.h"
#include "gui/widgets.h"

namespace fftscope::gui {

namespace {

std::string dispatch_size(const TimingRecord& r) {
  std::string s = std::to_string(r.global_size[0]);
  if (r.global_size[1] > 1 || r.global_size[2] > 1) s += "x" + std::to_string(r.global_size[1]);
  if (r.global_size[2] > 1) s += "x" + std::to_string(r.global_size[2]);
  return s;
}

void export_text(AppState& app, const std::string& name, const std::string& text) {
  const std::string path = app.export_dir + "/" + name;
  try {
    write_file_atomic(path, std::vector<std::uint8_t>(text.begin(), text.end()));
    app.status = "Wrote " + path;
  } catch (const std::exception& e) {
    app.status = e.what();
  }
}

}  // namespace

void draw_timers_panel(AppState& app) {
  ImGui::Checkbox("pause (Space)", &app.timers_paused);
  ImGui::SameLine();
  if (ImGui::Button("reset")) {
    app.timing_history.clear();
    app.run_totals_ms.clear();
  }
  ImGui::SameLine();
  ImGui::Checkbox("run every frame", &app.run_continuously);
  ImGui::SameLine();
  if (ImGui::Button("run 20 times")) app.pending_runs += 20;
  ImGui::SameLine();
  const std::vector<TimingRecord> records(app.timing_history.begin(), app.timing_history.end());
  const std::vector<TimingSummary> rows = summarize_timings(records);
  if (ImGui::Button("export CSV")) export_text(app, "fftscope_timings.csv", timings_to_csv(rows));
  ImGui::SameLine();
  if (ImGui::Button("export JSON")) export_text(app, "fftscope_timings.json", timings_to_json(rows));
  ImGui::SameLine();
  ImGui::TextDisabled("%s, %s kernels, %zu records", to_string(app.backend_kind).c_str(),
                      to_string(app.variant).c_str(), records.size());

  if (!app.run_totals_ms.empty()) {
    const float hi = *std::max_element(app.run_totals_ms.begin(), app.run_totals_ms.end());
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "total per batch: last %.3f ms, max %.3f ms",
                  static_cast<double>(app.run_totals_ms.back()), static_cast<double>(hi));
    // Bars, not lines: one bar per batch of records, visible from the first run on.
    ImGui::PlotHistogram("##history", app.run_totals_ms.data(), static_cast<int>(app.run_totals_ms.size()), 0,
                         overlay, 0.0f, hi * 1.25f, ImVec2(ImGui::GetContentRegionAvail().x, 90.0f * app.ui_scale));
  } else {
    ImGui::TextDisabled("No timings yet (the backend reports them after it runs).");
  }

  double total_median = 0;
  for (const TimingSummary& s : rows) total_median += s.median_ms;
  const float table_h = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() * 8.0f;
  if (ImGui::BeginTable("timings", 12,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_Resizable,
                        ImVec2(0, std::max(120.0f, table_h)))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // The kernel's name is the widest cell (fast_rows_display, fast_cols_real_a(64 of 8192), Bluestein's
    // fast_rows(L=...)): three shares of the width, so names stay readable beside eleven numbers.
    ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    for (const char* h : {"axis", "stage", "radix", "dispatch", "last ms", "min ms", "median ms", "max ms"})
      ImGui::TableSetupColumn(h, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("GB/s (bytes)", ImGuiTableColumnFlags_WidthStretch, 1.5f);
    for (const char* h : {"share", "clock"}) ImGui::TableSetupColumn(h, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (const TimingSummary& s : rows) {
      const TimingRecord& r = s.last;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.kernel.c_str());
      if (!r.note.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.note.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(to_string(r.axis).c_str());
      ImGui::TableNextColumn();
      if (r.stage >= 0) ImGui::Text("%d", r.stage);
      else ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      if (r.radix > 0) ImGui::Text("%u", r.radix);
      else ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(dispatch_size(r).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", r.milliseconds);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", s.min_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", s.median_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", s.max_ms);
      ImGui::TableNextColumn();
      const double gbps = s.median_ms > 0 ? static_cast<double>(r.bytes) / (s.median_ms * 1e6) : 0.0;
      ImGui::Text("%.2f (%.2f MB)", gbps, static_cast<double>(r.bytes) / 1e6);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f%%", total_median > 0 ? 100.0 * s.median_ms / total_median : 0.0);
      ImGui::TableNextColumn();
      if (r.host_measured) ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "host x%zu", s.count);
      else ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.4f, 1.0f), "GPU x%zu", s.count);
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("GB/s = bytes read + written by the dispatch (counted from its code) / median time. "
                      "host: host clock around a finish; GPU: timer queries/events.");

  ImGui::Separator();
  const bool comparing = app.variants_job.valid();
  if (ImGui::Button(comparing ? "comparing..." : "compare kernel variants") && !comparing) compare_variants(app, 5);
  help_marker("Runs the forward transform 5 times with each variant (plain, optimized twiddle, fused, fast) "
              "on the current backend, on the worker thread; one row per dispatch (kernel, axis, stage, radix), "
              "one median-time column per variant, and the totals.");
  const VariantTable& t = app.variant_table;
  if (t.variants.empty()) return;
  ImGui::SameLine();
  if (ImGui::Button("export variants CSV")) export_text(app, "fftscope_variants.csv", variant_table_csv(t));
  ImGui::SameLine();
  if (ImGui::Button("export variants JSON")) export_text(app, "fftscope_variants.json", variant_table_json(t));
  const int columns = 4 + static_cast<int>(t.variants.size());
  if (ImGui::BeginTable("variants", columns,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_SizingStretchProp,
                        ImVec2(0, std::max(120.0f, ImGui::GetContentRegionAvail().y)))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // Explicit weights: on the table's first frame stretch columns have no measured contents yet,
    // and without weights they start out a few pixels wide.
    ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    for (const char* h : {"axis", "stage", "radix"}) ImGui::TableSetupColumn(h, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    std::vector<std::string> names;
    for (KernelVariant v : t.variants) names.push_back(to_string(v) + " ms");
    for (const std::string& n : names) ImGui::TableSetupColumn(n.c_str(), ImGuiTableColumnFlags_WidthStretch, 2.0f);
    ImGui::TableHeadersRow();
    // Totals first, so the comparison is visible without scrolling.
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("total");
    for (int i = 0; i < 3; ++i) ImGui::TableNextColumn();
    for (std::size_t v = 0; v < t.variants.size(); ++v) {
      ImGui::TableNextColumn();
      if (!t.errors[v].empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "failed");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.errors[v].c_str());
      } else {
        ImGui::Text("%.4f %s", t.totals_ms[v], t.host_measured[v] ? "(host)" : "(GPU)");
      }
    }
    for (const VariantRow& r : t.rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.kernel.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(to_string(r.axis).c_str());
      ImGui::TableNextColumn();
      if (r.stage >= 0) ImGui::Text("%d", r.stage);
      else ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      if (r.radix > 0) ImGui::Text("%u", r.radix);
      else ImGui::TextDisabled("-");
      for (const auto& m : r.median_ms) {
        ImGui::TableNextColumn();
        if (m) ImGui::Text("%.4f", *m);
        else ImGui::TextDisabled("-");
      }
    }
    ImGui::EndTable();
  }
}

}  // namespace fftscope::gui
