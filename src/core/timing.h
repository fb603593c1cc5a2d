#pragma once
// Per-kernel timing records: the same shape for every backend, so every view shows them alike.

#include <array>
#include <cstdint>
#include <functional>
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

/// What warm_until_steady did: milliseconds spent (host clock), and the last batch's time as the
/// batch measured it (negative where it could not: llvmpipe's GPU timer, a GL error).
struct Warming {
  double spent_ms = 0;
  double batch_ms = -1;
};

/// Keeps a device busy until its clocks are steady before anything is timed: calls `batch` (a
/// batch of the work to be timed, returning how long it took in milliseconds, or a negative
/// value where it cannot tell) until two batches in a row take within `tolerance` (a fraction)
/// of each other and at least `min_ms` have passed, or until `max_ms` have passed, or a batch
/// measured nothing. A GPU left idle (compiles, host work such as an FFTW reference) runs at
/// idle clocks for a while: NVIDIA's driver held the H100 at 345 MHz for seconds, and a plain
/// 300 ms of warm-up left whole rounds of GL 4096^2 at 728-920 us against 267
/// (docs/performance.md). min_ms <= 0: no warming.
Warming warm_until_steady(const std::function<double()>& batch, double min_ms, double max_ms, double tolerance);

/// Two works timed side by side (measured planning: the planned route and a candidate), each the
/// median of its runs; negative where the timing failed.
struct PairedTimes {
  double base_ms = -1;
  double candidate_ms = -1;
  bool ok() const { return base_ms >= 0 && candidate_ms >= 0; }
};

/// Measured planning's untimed pairs before paired timing: `pair` (the planned work and a
/// candidate, one after the other) run at least twice and for at least `min_ms` (host clock), so
/// that both run in the same state of caches and clocks that the timed pairs will.
void run_untimed_pairs(const std::function<void()>& pair, double min_ms = 20);

/// The benchmarks' warming (the sweep's entries, the one-size bench): warm_until_steady with
/// batches within 5 %, for at least `min_ms` and at most 8 x min_ms or min_ms + 3 s.
Warming warm_device(const std::function<double()>& batch, double min_ms);

/// CSV with a header row (kernel, axis, stage, radix, global_x/y/z, count, min/median/max/last_ms,
/// bytes, gb_per_s, host_measured, note); gb_per_s is bytes over the median time.
std::string timings_to_csv(const std::vector<TimingSummary>& rows);
/// A JSON array of objects with the CSV's fields (global_size as [x, y, z]); inf/NaN become null.
std::string timings_to_json(const std::vector<TimingSummary>& rows);

}  // namespace fftscope
