#include "gui/variant_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "core/csv.h"
#include "core/json.h"

namespace fftscope::gui {

namespace {

using Key = std::tuple<std::string, Axis, int, std::uint32_t>;

Key key_of(const TimingRecord& r) { return {r.kernel, r.axis, r.stage, r.radix}; }

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

VariantTable align_variants(const std::vector<std::pair<KernelVariant, std::vector<TimingSummary>>>& runs) {
  VariantTable t;
  const std::size_t nv = runs.size();
  // Sort position of a row: (axis rank, step, first-seen order). step: -1 before the axis's
  // stages, 2*stage for stage dispatches, a large value after them.
  struct Place {
    int axis_rank;
    int step;
    std::size_t seen;
  };
  std::map<Key, std::size_t> index;
  std::vector<Place> places;
  std::map<Axis, int> axis_rank;
  for (std::size_t v = 0; v < nv; ++v) {
    t.variants.push_back(runs[v].first);
    t.totals_ms.push_back(0);
    t.errors.emplace_back();
    t.host_measured.push_back(false);
    std::map<Axis, bool> stages_seen;
    for (const TimingSummary& s : runs[v].second) {
      const TimingRecord& r = s.last;
      if (!axis_rank.count(r.axis)) axis_rank[r.axis] = static_cast<int>(axis_rank.size());
      int step = 0;
      if (r.stage >= 0) {
        step = 2 * r.stage;
        stages_seen[r.axis] = true;
      } else {
        step = stages_seen[r.axis] ? 1 << 20 : -1;
      }
      auto [it, inserted] = index.emplace(key_of(r), t.rows.size());
      if (inserted) {
        VariantRow row;
        row.kernel = r.kernel;
        row.axis = r.axis;
        row.stage = r.stage;
        row.radix = r.radix;
        row.median_ms.assign(nv, std::nullopt);
        row.count.assign(nv, 0);
        t.rows.push_back(std::move(row));
        places.push_back({axis_rank[r.axis], step, places.size()});
      }
      VariantRow& row = t.rows[it->second];
      // The same key twice in one variant's summaries cannot happen (summaries group by it).
      row.median_ms[v] = s.median_ms;
      row.count[v] = s.count;
      t.totals_ms[v] += s.median_ms;
      t.host_measured[v] = t.host_measured[v] || r.host_measured;
    }
  }
  std::vector<std::size_t> order(t.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(places[a].axis_rank, places[a].step, places[a].seen) <
           std::tie(places[b].axis_rank, places[b].step, places[b].seen);
  });
  std::vector<VariantRow> sorted;
  sorted.reserve(order.size());
  for (std::size_t i : order) sorted.push_back(std::move(t.rows[i]));
  t.rows = std::move(sorted);
  return t;
}

std::string variant_table_csv(const VariantTable& t) {
  std::string out = "kernel,axis,stage,radix";
  for (KernelVariant v : t.variants) out += "," + to_string(v) + "_ms";
  out += "\n";
  for (const VariantRow& r : t.rows) {
    out += csv_field(r.kernel) + "," + to_string(r.axis) + "," + std::to_string(r.stage) + "," + std::to_string(r.radix);
    for (const auto& m : r.median_ms) out += "," + (m ? number(*m) : std::string());
    out += "\n";
  }
  out += "total,,,";
  for (std::size_t v = 0; v < t.variants.size(); ++v)
    out += "," + (t.errors[v].empty() ? number(t.totals_ms[v]) : std::string());
  out += "\n";
  return out;
}

std::string variant_table_json(const VariantTable& t) {
  std::string out = "{\"variants\": [";
  for (std::size_t v = 0; v < t.variants.size(); ++v) out += (v ? ", " : "") + json_string(to_string(t.variants[v]));
  out += "],\n \"rows\": [";
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const VariantRow& r = t.rows[i];
    out += std::string(i ? ",\n  " : "\n  ") + "{\"kernel\": " + json_string(r.kernel) +
           ", \"axis\": " + json_string(to_string(r.axis)) + ", \"stage\": " + std::to_string(r.stage) +
           ", \"radix\": " + std::to_string(r.radix) + ", \"median_ms\": {";
    for (std::size_t v = 0; v < t.variants.size(); ++v)
      out += (v ? ", " : "") + json_string(to_string(t.variants[v])) + ": " +
             (r.median_ms[v] ? number(*r.median_ms[v]) : std::string("null"));
    out += "}}";
  }
  out += "],\n \"totals_ms\": {";
  for (std::size_t v = 0; v < t.variants.size(); ++v)
    out += (v ? ", " : "") + json_string(to_string(t.variants[v])) + ": " +
           (t.errors[v].empty() ? number(t.totals_ms[v]) : std::string("null"));
  out += "},\n \"errors\": {";
  for (std::size_t v = 0; v < t.variants.size(); ++v)
    out += (v ? ", " : "") + json_string(to_string(t.variants[v])) + ": " + json_string(t.errors[v]);
  out += "}}\n";
  return out;
}

}  // namespace fftscope::gui
