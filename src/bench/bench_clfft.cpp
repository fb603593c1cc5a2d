// clFFT (Debian's libclfft-dev), the library the seeds' generation of GPU FFTs compared against.
#include <clFFT.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "bench/bench_opencl.h"

namespace fftscope::bench::detail {
namespace {

void check_fft(clfftStatus status, const char* what) {
  if (status != CLFFT_SUCCESS)
    throw std::runtime_error(std::string("clFFT: ") + what + " failed with code " + std::to_string(status));
}

// clfftSetup/clfftTeardown are process-wide: set up once, tear down at exit.
void setup_once() {
  static std::once_flag flag;
  std::call_once(flag, [] {
    clfftSetupData data;
    check_fft(clfftInitSetupData(&data), "clfftInitSetupData");
    check_fft(clfftSetup(&data), "clfftSetup");
    std::atexit([] { clfftTeardown(); });
  });
}

class ClfftImplementation final : public ClLibrary {
 public:
  ClfftImplementation(BenchSize size, const std::string& selector) : ClLibrary(size, selector) {
    setup_once();
    const std::size_t lengths[2] = {size.width, size.height};
    check_fft(clfftCreateDefaultPlan(&plan_, session_.context.get(), CLFFT_2D, lengths), "clfftCreateDefaultPlan");
    check_fft(clfftSetPlanPrecision(plan_, CLFFT_SINGLE), "clfftSetPlanPrecision");
    check_fft(clfftSetLayout(plan_, CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED), "clfftSetLayout");
    check_fft(clfftSetResultLocation(plan_, CLFFT_INPLACE), "clfftSetResultLocation");
    cl_command_queue q = session_.queue.get();
    check_fft(clfftBakePlan(plan_, 1, &q, nullptr, nullptr), "clfftBakePlan");
  }
  ~ClfftImplementation() override { clfftDestroyPlan(&plan_); }

 private:
  void enqueue_forward() override {
    cl_command_queue q = session_.queue.get();
    cl_mem mem = buffer_.get();
    check_fft(clfftEnqueueTransform(plan_, CLFFT_FORWARD, 1, &q, 0, nullptr, nullptr, &mem, nullptr, nullptr),
              "clfftEnqueueTransform");
  }

  clfftPlanHandle plan_ = 0;
};

}  // namespace

std::unique_ptr<Implementation> make_clfft(BenchSize size, const std::string& cl_device) {
  return std::make_unique<ClfftImplementation>(size, cl_device);
}

}  // namespace fftscope::bench::detail
