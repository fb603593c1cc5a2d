#pragma once
// Per-kernel timing records: the same shape for every backend, so every view shows them alike.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "types.h"

namespace fftscope {

/// One kernel dispatch (or copy) and how long it took.
struct TimingRecord {
  std::string kernel;      ///< e.g. "digit_reverse", "radix_4", "twiddle_optimized", "transpose"
  Axis axis = Axis::rows;
  int stage = -1;          ///< plan stage index, or -1 for work outside the stages
  std::uint32_t radix = 0;  ///< 0 where no radix applies
  std::array<std::uint32_t, 3> global_size{1, 1, 1};  ///< work items (GL: invocations) per dimension
  double milliseconds = 0;
  std::uint64_t bytes = 0;  ///< bytes read + written by the dispatch, counted from its code
  bool host_measured = false;  ///< true: host clock around a finish, not a GPU timer
  std::string note;         ///< e.g. the interop path of a display copy
  /// Which execute() call of the backend produced the record, counting from 1; 0 for work done
  /// outside execute() (display, copies). Lets a caller group a run's dispatches.
  std::uint64_t execution = 0;

  /// Effective bandwidth in GB/s (1e9 bytes), 0 when no time was measured.
  double gigabytes_per_second() const {
    return milliseconds > 0 ? static_cast<double>(bytes) / (milliseconds * 1e6) : 0.0;
  }
};

/// Summary of repeated measurements of one kernel.
struct TimingSummary {
  TimingRecord last;
  double min_ms = 0, median_ms = 0, max_ms = 0;
  std::size_t count = 0;
};

/// Groups records that name the same dispatch (kernel, axis, stage, radix) in first-seen order.
std::vector<TimingSummary> summarize_timings(const std::vector<TimingRecord>& records);

double median(std::vector<double> values);

/// CSV with a header row (kernel, axis, stage, radix, global_x/y/z, count, min/median/max/last_ms,
/// bytes, gb_per_s, host_measured, note); gb_per_s is bytes over the median time.
std::string timings_to_csv(const std::vector<TimingSummary>& rows);
/// A JSON array of objects with the CSV's fields (global_size as [x, y, z]); inf/NaN become null.
std::string timings_to_json(const std::vector<TimingSummary>& rows);

}  // namespace fftscope
