// clFFT (Debian's libclfft-dev), the library the seeds' generation of GPU FFTs compared against.
#include <clFFT.h>

#include <mutex>
#include <stdexcept>

#include "bench/bench.h"
#include "bench/bench_opencl.h"

namespace fftscope::bench::detail {
namespace {

void check_fft(clfftStatus status, const char* what) {
  if (status != CLFFT_SUCCESS) throw std::runtime_error(std::string("clFFT: ") + what + " failed with code " + std::to_string(status));
}

// clfftSetup/clfftTeardown are process-wide; set up once and leave it for the process.
void setup_once() {
  static std::once_flag flag;
  std::call_once(flag, [] {
    clfftSetupData data;
    check_fft(clfftInitSetupData(&data), "clfftInitSetupData");
    check_fft(clfftSetup(&data), "clfftSetup");
  });
}

class ClfftImplementation final : public Implementation {
 public:
  ClfftImplementation(BenchSize size, const std::string& selector) : session_(selector), size_(size) {
    setup_once();
    bytes_ = size.width * size.height * sizeof(Complex);
    buffer_ = session_.make_buffer(bytes_);
    pristine_ = session_.make_buffer(bytes_);
    const std::size_t lengths[2] = {size.width, size.height};
    check_fft(clfftCreateDefaultPlan(&plan_, session_.context.get(), CLFFT_2D, lengths), "clfftCreateDefaultPlan");
    check_fft(clfftSetPlanPrecision(plan_, CLFFT_SINGLE), "clfftSetPlanPrecision");
    check_fft(clfftSetLayout(plan_, CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED), "clfftSetLayout");
    check_fft(clfftSetResultLocation(plan_, CLFFT_INPLACE), "clfftSetResultLocation");
    cl_command_queue q = session_.queue.get();
    check_fft(clfftBakePlan(plan_, 1, &q, nullptr, nullptr), "clfftBakePlan");
  }
  ~ClfftImplementation() override { clfftDestroyPlan(&plan_); }
  std::string device() const override { return session_.device_name; }
  std::string timer() const override { return "cl profiling markers around the launch"; }
  void upload(const ComplexImage& input) override {
    cl_detail::check(clEnqueueWriteBuffer(session_.queue.get(), pristine_.get(), CL_TRUE, 0, bytes_, input.data.data(), 0,
                                          nullptr, nullptr),
                     "clEnqueueWriteBuffer");
  }
  std::vector<double> time_runs(int warmup, int repeats) override {
    return session_.time_runs(warmup, repeats, pristine_.get(), buffer_.get(), bytes_, [&] { enqueue_forward(); });
  }
  ComplexImage result() override {
    cl_detail::check(clEnqueueCopyBuffer(session_.queue.get(), pristine_.get(), buffer_.get(), 0, 0, bytes_, 0, nullptr,
                                         nullptr),
                     "clEnqueueCopyBuffer");
    enqueue_forward();
    ComplexImage out(size_.width, size_.height);
    cl_detail::check(clEnqueueReadBuffer(session_.queue.get(), buffer_.get(), CL_TRUE, 0, bytes_, out.data.data(), 0,
                                         nullptr, nullptr),
                     "clEnqueueReadBuffer");
    return out;
  }

 private:
  void enqueue_forward() {
      cl_command_queue q = session_.queue.get();
      cl_mem mem = buffer_.get();
      check_fft(clfftEnqueueTransform(plan_, CLFFT_FORWARD, 1, &q, 0, nullptr, nullptr, &mem, nullptr, nullptr),
                "clfftEnqueueTransform");
    }

  ClSession session_;
  BenchSize size_;
  std::size_t bytes_ = 0;
  cl_detail::Mem buffer_, pristine_;
  clfftPlanHandle plan_ = 0;
};

}  // namespace

std::unique_ptr<Implementation> make_clfft(BenchSize size, const std::string& cl_device) {
  return std::make_unique<ClfftImplementation>(size, cl_device);
}

}  // namespace fftscope::bench::detail
