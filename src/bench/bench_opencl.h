#pragma once
// What the OpenCL libraries in the sweep (VkFFT, clFFT) share: a context and a profiling queue on
// the device the CL backend would choose, a work buffer restored from a pristine copy before each
// run, and device timing from markers around the library's launch.

#include <string>
#include <vector>

#include "backend/cl/cl_runtime.h"
#include "bench/bench.h"

namespace fftscope::bench::detail {

struct ClSession {
  cl_detail::FoundDevice device;
  cl_detail::Context context;
  cl_detail::Queue queue;
  std::string device_name;

  explicit ClSession(const std::string& selector);
  cl_detail::Mem make_buffer(std::size_t bytes);
};

/// An in-place complex-to-complex library on one OpenCL buffer; subclasses enqueue the forward
/// transform of `buffer_`.
class ClLibrary : public Implementation {
 public:
  ClLibrary(BenchSize size, const std::string& selector);
  std::string device() const override { return session_.device_name; }
  std::string timer() const override { return "cl profiling markers around the launch"; }
  void upload(const ComplexImage& input) override;
  /// Runs are queued back to back, each after an untimed copy pristine -> work; a run's time is
  /// from the end of a marker before the launch to the end of one after it (so gaps between the
  /// library's kernels count).
  std::vector<double> time_runs(int warmup, int repeats) override;
  ComplexImage result() override;

 protected:
  virtual void enqueue_forward() = 0;
  void restore();
  /// One more run on the restored input, and `output` (width x height float2) read back.
  ComplexImage run_and_read(cl_mem output);

  ClSession session_;
  BenchSize size_;
  std::size_t bytes_ = 0;
  cl_detail::Mem buffer_, pristine_;
};

}  // namespace fftscope::bench::detail
