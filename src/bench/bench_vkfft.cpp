// VkFFT (Debian's libvkfft-dev, header-only) through its OpenCL backend.
#define VKFFT_BACKEND 3
#include "bench/bench_opencl.h"
#include "bench/bench.h"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
#include <vkFFT.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include <stdexcept>

namespace fftscope::bench::detail {
namespace {

class VkfftImplementation final : public Implementation {
 public:
  VkfftImplementation(BenchSize size, const std::string& selector) : session_(selector), size_(size) {
    bytes_ = size.width * size.height * sizeof(Complex);
    buffer_ = session_.make_buffer(bytes_);
    pristine_ = session_.make_buffer(bytes_);
    cl_mem mem = buffer_.get();
    buffer_handle_ = mem;
    VkFFTConfiguration config = {};
    config.FFTdim = 2;
    config.size[0] = size.width;
    config.size[1] = size.height;
    config.device = &session_.device.device;
    context_handle_ = session_.context.get();
    queue_handle_ = session_.queue.get();
    config.context = &context_handle_;
    config.platform = &session_.device.platform;
    config.buffer = &buffer_handle_;
    buffer_size_ = bytes_;
    config.bufferSize = &buffer_size_;
    const VkFFTResult res = initializeVkFFT(&app_, config);
    if (res != VKFFT_SUCCESS) throw std::runtime_error("VkFFT: initializeVkFFT failed with code " + std::to_string(res));
    initialized_ = true;
  }
  ~VkfftImplementation() override {
    if (initialized_) deleteVkFFT(&app_);
  }
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
      VkFFTLaunchParams params = {};
      params.commandQueue = &queue_handle_;
      params.buffer = &buffer_handle_;
      const VkFFTResult res = VkFFTAppend(&app_, -1, &params);
      if (res != VKFFT_SUCCESS) throw std::runtime_error("VkFFT: VkFFTAppend failed with code " + std::to_string(res));
    }

  ClSession session_;
  BenchSize size_;
  std::size_t bytes_ = 0;
  std::uint64_t buffer_size_ = 0;
  cl_detail::Mem buffer_, pristine_;
  cl_mem buffer_handle_ = nullptr;
  cl_context context_handle_ = nullptr;
  cl_command_queue queue_handle_ = nullptr;
  VkFFTApplication app_ = {};
  bool initialized_ = false;
};

}  // namespace

std::unique_ptr<Implementation> make_vkfft(BenchSize size, const std::string& cl_device) {
  return std::make_unique<VkfftImplementation>(size, cl_device);
}

}  // namespace fftscope::bench::detail
