#pragma once
// The OpenCL session the library benchmarks share: a context and a profiling queue on the device
// the CL backend would choose, and a span timer built from markers around the enqueued work.

#include <functional>
#include <string>

#include "backend/cl/cl_runtime.h"

namespace fftscope::bench::detail {

struct ClSession {
  cl_detail::FoundDevice device;
  cl_detail::Context context;
  cl_detail::Queue queue;
  std::string device_name;

  explicit ClSession(const std::string& selector);
  /// Device time from the end of a marker enqueued before `enqueue` to the end of one after it,
  /// in microseconds (profiling timestamps, so launch gaps between kernels are included).
  double span_us(const std::function<void()>& enqueue);
  cl_detail::Mem make_buffer(std::size_t bytes);
};

}  // namespace fftscope::bench::detail
