#pragma once
// The kernel-variant comparison of the timers panel as a table: the same transform run with
// each variant, its dispatches aligned row by row. Pure data, no ImGui, so the tests link it.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "core/timing.h"

namespace fftscope::gui {

/// One dispatch (kernel, axis, stage, radix) and its median time under each variant.
struct VariantRow {
  std::string kernel;
  Axis axis = Axis::rows;
  int stage = -1;  ///< plan stage, -1 outside the stages
  std::uint32_t radix = 0;
  std::vector<std::optional<double>> median_ms;  ///< one per variant; empty: not dispatched by it
  std::vector<std::size_t> count;                ///< measurements behind each median (0: none)
};

/// Rows in pipeline order: per axis (in order of first appearance), the dispatches before the
/// axis's stages, then stage by stage, then those after; within one such step, first-seen order
/// (variant by variant). totals[v] = sum of variant v's medians (ms).
struct VariantTable {
  std::vector<KernelVariant> variants;
  std::vector<VariantRow> rows;
  std::vector<double> totals_ms;
  std::vector<std::string> errors;  ///< per variant, "" when it ran
  std::vector<bool> host_measured;  ///< per variant: any of its dispatches host-timed
};

/// Aligns per-variant timing summaries (as summarize_timings gives them, in dispatch order).
VariantTable align_variants(const std::vector<std::pair<KernelVariant, std::vector<TimingSummary>>>& runs);

/// CSV: kernel,axis,stage,radix,<variant>_ms... one row per dispatch, then a "total" row;
/// an empty cell where a variant has no such dispatch.
std::string variant_table_csv(const VariantTable& table);
/// JSON: {"variants": [...], "rows": [{"kernel", "axis", "stage", "radix", "median_ms": {variant: ms|null}}],
/// "totals_ms": {variant: ms}, "errors": {variant: "..."}}.
std::string variant_table_json(const VariantTable& table);

}  // namespace fftscope::gui
