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
  /// Off: begin/end do nothing (used while precompiling).
  void set_enabled(bool enabled) { enabled_ = enabled; }

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

/// For measured planning: the median time of `timed` calls of `work` after `untimed` ones, each
/// between glFinish calls, by a GL_TIME_ELAPSED query around it, or by the host clock where the
/// query reads under 100 ns (llvmpipe's compute dispatches); negative where a GL error was raised meanwhile
/// (such as no memory for the work's buffers).
double median_finished_ms(const std::function<void()>& work, int untimed = 2, int timed = 5);

}  // namespace fftscope::detail
