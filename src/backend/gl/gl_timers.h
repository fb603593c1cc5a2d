#pragma once
// Per-dispatch timers for the GL backend: GL_TIME_ELAPSED queries read back when ready, or host
// time around glFinish where the driver's timer is meaningless. Internal to the GL backend.

#include <chrono>
#include <deque>
#include <functional>
#include <vector>

#include "core/timing.h"

namespace fftscope::detail {

class DispatchTimers {
 public:
  enum class Mode {
    gpu,   ///< GL_TIME_ELAPSED query around each dispatch, collected without stalling
    host,  ///< glFinish, host clock, dispatch, glFinish (stalls: every record host_measured)
  };
  explicit DispatchTimers(Mode mode) : mode_(mode) {}
  ~DispatchTimers();
  DispatchTimers(const DispatchTimers&) = delete;
  DispatchTimers& operator=(const DispatchTimers&) = delete;

  Mode mode() const { return mode_; }
  /// Off: begin/end do nothing (inside a span: BackendOptions::time_spans).
  void set_enabled(bool enabled) { enabled_ = enabled; }
  bool enabled() const { return enabled_; }

  /// Around one dispatch; `record` has everything but the time. Keeps at most 16384 records
  /// not yet taken (the oldest are dropped).
  void begin(TimingRecord record);
  /// Stamps the records of later begin() calls with this execute() number (0: outside execute).
  void set_execution(std::uint64_t execution) { execution_ = execution; }
  void end();

  /// The records whose times are known, in dispatch order; later ones wait for a later call.
  /// GPU queries that all read under 100 ns for a batch of 4 or more switch this timer to host
  /// mode for the dispatches that follow (those records carry note "gpu timer meaningless").
  std::vector<TimingRecord> take();

 private:
  struct Pending {
    TimingRecord record;
    unsigned query = 0;  // GLuint; 0 for host-measured records
  };
  unsigned acquire_query();

  Mode mode_;
  bool enabled_ = true;
  std::uint64_t execution_ = 0;
  bool open_ = false;
  std::deque<Pending> pending_;
  std::vector<unsigned> free_queries_;
  std::vector<unsigned> all_queries_;
  std::chrono::steady_clock::time_point host_start_{};
};

/// For measured planning, after every candidate has been compiled and run once: `work` in
/// batches of 16 calls queued back to back, each in a GL_TIME_ELAPSED query, until two batches in
/// a row have medians within 3 % and at least `min_ms` have passed (at most 5 s; core's
/// warm_until_steady). Warming::batch_ms: the last batch's median, negative where the GPU timer
/// measures nothing (llvmpipe, which needs no warming).
Warming warm_until_steady(const std::function<void()>& work, double min_ms = 1000);

/// For measured planning, after warm_until_steady: `base` and `candidate` timed side by side, so
/// that a clock that changes meanwhile changes both. Untimed pairs first, for at least 20 ms,
/// queued back to back (fences keep two in flight); then `pairs` pairs, the order alternating, each
/// call inside a GL_TIME_ELAPSED query. Where the queries read under 100 ns (llvmpipe's compute
/// dispatches), each call is timed again on the host between glFinish calls.
PairedTimes paired_median_ms(const std::function<void()>& base, const std::function<void()>& candidate,
                             int pairs = 11);

}  // namespace fftscope::detail
