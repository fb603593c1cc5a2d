#include "timing.h"

#include "core/csv.h"
#include "core/json.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <tuple>

namespace fftscope {
namespace detail {
namespace {

bool same_dispatch(const TimingRecord& a, const TimingRecord& b) {
  return std::tie(a.kernel, a.axis, a.stage, a.radix) == std::tie(b.kernel, b.axis, b.stage, b.radix);
}

// Shortest text that reads back to the same double; JSON has no inf/NaN, so those become null.
std::string number(double v, bool json) {
  if (!std::isfinite(v)) return json ? "null" : (std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  for (int precision = 6; precision < 17; ++precision) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, v);
    if (std::strtod(shorter, nullptr) == v) return shorter;
  }
  return buf;
}


// Bandwidth of the median run, so one slow outlier does not define the figure.
double median_gbps(const TimingSummary& row) {
  return row.median_ms > 0 ? static_cast<double>(row.last.bytes) / (row.median_ms * 1e6) : 0.0;
}

}  // namespace
}  // namespace detail

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2;
}

std::vector<TimingSummary> summarize_timings(const std::vector<TimingRecord>& records) {
  std::vector<TimingSummary> rows;
  std::vector<std::vector<double>> samples;
  for (const TimingRecord& r : records) {
    auto it = std::find_if(rows.begin(), rows.end(),
                           [&](const TimingSummary& s) { return detail::same_dispatch(s.last, r); });
    if (it == rows.end()) {
      rows.push_back({});
      samples.emplace_back();
      it = rows.end() - 1;
    }
    it->last = r;
    samples[static_cast<std::size_t>(it - rows.begin())].push_back(r.milliseconds);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& s = samples[i];
    rows[i].count = s.size();
    rows[i].min_ms = *std::min_element(s.begin(), s.end());
    rows[i].max_ms = *std::max_element(s.begin(), s.end());
    rows[i].median_ms = median(s);
  }
  return rows;
}

std::string timings_to_csv(const std::vector<TimingSummary>& rows) {
  std::ostringstream out;
  out << "kernel,axis,stage,radix,global_x,global_y,global_z,count,min_ms,median_ms,max_ms,last_ms,bytes,"
         "gb_per_s,host_measured,note\n";
  for (const TimingSummary& row : rows) {
    const TimingRecord& r = row.last;
    out << csv_field(r.kernel) << ',' << to_string(r.axis) << ',' << r.stage << ',' << r.radix << ','
        << r.global_size[0] << ',' << r.global_size[1] << ',' << r.global_size[2] << ',' << row.count << ','
        << detail::number(row.min_ms, false) << ',' << detail::number(row.median_ms, false) << ','
        << detail::number(row.max_ms, false) << ',' << detail::number(r.milliseconds, false) << ',' << r.bytes
        << ',' << detail::number(detail::median_gbps(row), false) << ',' << (r.host_measured ? "true" : "false")
        << ',' << csv_field(r.note) << '\n';
  }
  return out.str();
}

std::string timings_to_json(const std::vector<TimingSummary>& rows) {
  std::ostringstream out;
  out << "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TimingSummary& row = rows[i];
    const TimingRecord& r = row.last;
    out << (i ? ",\n " : "\n ") << "{\"kernel\": " << json_string(r.kernel)
        << ", \"axis\": " << json_string(to_string(r.axis)) << ", \"stage\": " << r.stage
        << ", \"radix\": " << r.radix << ", \"global_size\": [" << r.global_size[0] << ", " << r.global_size[1]
        << ", " << r.global_size[2] << "], \"count\": " << row.count
        << ", \"min_ms\": " << detail::number(row.min_ms, true)
        << ", \"median_ms\": " << detail::number(row.median_ms, true)
        << ", \"max_ms\": " << detail::number(row.max_ms, true)
        << ", \"last_ms\": " << detail::number(r.milliseconds, true) << ", \"bytes\": " << r.bytes
        << ", \"gb_per_s\": " << detail::number(detail::median_gbps(row), true)
        << ", \"host_measured\": " << (r.host_measured ? "true" : "false")
        << ", \"note\": " << json_string(r.note) << "}";
  }
  out << (rows.empty() ? "]\n" : "\n]\n");
  return out.str();
}

void run_untimed_pairs(const std::function<void()>& pair, double min_ms) {
  const auto start = std::chrono::steady_clock::now();
  for (int runs = 0;; ++runs) {
    const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (runs >= 2 && elapsed >= min_ms) return;
    pair();
  }
}

Warming warm_until_steady(const std::function<double()>& batch, double min_ms, double max_ms, double tolerance) {
  Warming out;
  if (min_ms <= 0) return out;
  const auto start = std::chrono::steady_clock::now();
  double previous = -1;
  for (;;) {
    out.batch_ms = batch();
    out.spent_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (out.batch_ms < 0) break;
    const bool steady = previous > 0 && std::abs(out.batch_ms - previous) <= tolerance * previous;
    if ((steady && out.spent_ms >= min_ms) || out.spent_ms >= max_ms) break;
    previous = out.batch_ms;
  }
  return out;
}

Warming warm_device(const std::function<double()>& batch, double min_ms) {
  return warm_until_steady(batch, min_ms, std::max(8 * min_ms, min_ms + 3000), 0.05);
}

}  // namespace fftscope
