#pragma once
// The OpenCL session the library benchmarks share: a context and a profiling queue on the device
// the CL backend would choose, and a span timer built from markers around the enqueued work.

#include <functional>
#include <string>
#include <vector>

#include "backend/cl/cl_runtime.h"

namespace fftscope::bench::detail {

struct ClSession {
  cl_detail::FoundDevice device;
  cl_detail::Context context;
  cl_detail::Queue queue;
  std::string device_name;

  explicit ClSession(const std::string& selector);
  /// Queues warmup + repeats runs of `enqueue` back to back, each preceded by a copy of
  /// `pristine` into `work` (untimed), and returns the repeats' device times in microseconds:
  /// from the end of a marker before the run to the end of one after it (profiling timestamps,
  /// so gaps between the library's kernels count).
  std::vector<double> time_runs(int warmup, int repeats, cl_mem pristine, cl_mem work, std::size_t bytes,
                                const std::function<void()>& enqueue);
  cl_detail::Mem make_buffer(std::size_t bytes);
};

}  // namespace fftscope::bench::detail
