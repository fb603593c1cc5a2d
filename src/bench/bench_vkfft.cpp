// VkFFT (Debian's libvkfft-dev, header-only) through its OpenCL backend.
#define VKFFT_BACKEND 3
#include "bench/bench_opencl.h"

#include <vkFFT.h>

#include <stdexcept>

namespace fftscope::bench::detail {
namespace {

class VkfftImplementation final : public ClLibrary {
 public:
  VkfftImplementation(BenchSize size, const std::string& selector) : ClLibrary(size, selector) {
    // VkFFT keeps pointers to these handles, so they live in the object.
    buffer_handle_ = buffer_.get();
    context_handle_ = session_.context.get();
    queue_handle_ = session_.queue.get();
    buffer_size_ = bytes_;
    VkFFTConfiguration config = {};
    config.FFTdim = 2;
    config.size[0] = size.width;
    config.size[1] = size.height;
    config.device = &session_.device.device;
    config.context = &context_handle_;
    config.platform = &session_.device.platform;
    config.buffer = &buffer_handle_;
    config.bufferSize = &buffer_size_;
    const VkFFTResult res = initializeVkFFT(&app_, config);
    if (res != VKFFT_SUCCESS) throw std::runtime_error("VkFFT: initializeVkFFT failed with code " + std::to_string(res));
    initialized_ = true;
  }
  ~VkfftImplementation() override {
    if (initialized_) deleteVkFFT(&app_);
  }

 private:
  void enqueue_forward() override {
    VkFFTLaunchParams params = {};
    params.commandQueue = &queue_handle_;
    params.buffer = &buffer_handle_;
    const VkFFTResult res = VkFFTAppend(&app_, -1, &params);
    if (res != VKFFT_SUCCESS) throw std::runtime_error("VkFFT: VkFFTAppend failed with code " + std::to_string(res));
  }

  std::uint64_t buffer_size_ = 0;
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
