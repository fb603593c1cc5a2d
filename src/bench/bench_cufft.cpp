// cuFFT, loaded at run time with dlopen so that fftscope needs no CUDA at build or link time and
// works with whichever CUDA runtime the machine has. Only the stable C entry points are used.
#include <dlfcn.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include "bench/bench.h"

namespace fftscope::bench::detail {
namespace {

using cudaError_t = int;
using cudaEvent_t = void*;
using cufftHandle = int;
using cufftResult = int;
constexpr int cudaMemcpyHostToDevice = 1;
constexpr int cudaMemcpyDeviceToHost = 2;
constexpr int cudaMemcpyDeviceToDevice = 3;
constexpr int CUFFT_C2C = 0x29;
constexpr int CUFFT_FORWARD = -1;

void* open_first(std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (void* h = dlopen(n, RTLD_NOW | RTLD_LOCAL)) return h;
  return nullptr;
}

template <typename Fn>
Fn symbol(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (!p) throw std::runtime_error(std::string("cuFFT: missing symbol ") + name);
  return reinterpret_cast<Fn>(p);
}

struct CudaApi {
  void* cudart = nullptr;
  void* cufft = nullptr;
  void* driver = nullptr;
  cudaError_t (*malloc)(void**, std::size_t);
  cudaError_t (*free)(void*);
  cudaError_t (*memcpy)(void*, const void*, std::size_t, int);
  cudaError_t (*event_create)(cudaEvent_t*);
  cudaError_t (*event_record)(cudaEvent_t, void*);
  cudaError_t (*event_synchronize)(cudaEvent_t);
  cudaError_t (*event_elapsed)(float*, cudaEvent_t, cudaEvent_t);
  cudaError_t (*event_destroy)(cudaEvent_t);
  cudaError_t (*device_synchronize)();
  cufftResult (*plan_2d)(cufftHandle*, int, int, int);
  cufftResult (*exec_c2c)(cufftHandle, void*, void*, int);
  cufftResult (*destroy)(cufftHandle);
  std::string device_name = "CUDA device";

  CudaApi() {
    cudart = open_first({"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"});
    cufft = open_first({"libcufft.so", "libcufft.so.12", "libcufft.so.11", "libcufft.so.10"});
    if (!cudart || !cufft) throw std::runtime_error("cuFFT: libcudart/libcufft not found (no CUDA here)");
    malloc = symbol<decltype(malloc)>(cudart, "cudaMalloc");
    free = symbol<decltype(free)>(cudart, "cudaFree");
    memcpy = symbol<decltype(memcpy)>(cudart, "cudaMemcpy");
    event_create = symbol<decltype(event_create)>(cudart, "cudaEventCreate");
    event_record = symbol<decltype(event_record)>(cudart, "cudaEventRecord");
    event_synchronize = symbol<decltype(event_synchronize)>(cudart, "cudaEventSynchronize");
    event_elapsed = symbol<decltype(event_elapsed)>(cudart, "cudaEventElapsedTime");
    event_destroy = symbol<decltype(event_destroy)>(cudart, "cudaEventDestroy");
    device_synchronize = symbol<decltype(device_synchronize)>(cudart, "cudaDeviceSynchronize");
    plan_2d = symbol<decltype(plan_2d)>(cufft, "cufftPlan2d");
    exec_c2c = symbol<decltype(exec_c2c)>(cufft, "cufftExecC2C");
    destroy = symbol<decltype(destroy)>(cufft, "cufftDestroy");
    // The driver API gives the device name without depending on cudaDeviceProp's layout.
    if ((driver = open_first({"libcuda.so.1", "libcuda.so"}))) {
      auto init = reinterpret_cast<int (*)(unsigned)>(dlsym(driver, "cuInit"));
      auto get = reinterpret_cast<int (*)(int*, int)>(dlsym(driver, "cuDeviceGet"));
      auto name = reinterpret_cast<int (*)(char*, int, int)>(dlsym(driver, "cuDeviceGetName"));
      char buf[256] = {};
      int dev = 0;
      if (init && get && name && init(0) == 0 && get(&dev, 0) == 0 && name(buf, sizeof buf, dev) == 0)
        device_name = buf;
    }
  }
};

void check(int code, const char* what) {
  if (code != 0) throw std::runtime_error(std::string("cuFFT: ") + what + " failed with code " + std::to_string(code));
}

class CufftImplementation final : public Implementation {
 public:
  explicit CufftImplementation(BenchSize size) : size_(size) {
    bytes_ = size.width * size.height * sizeof(Complex);
    check(api_.malloc(&pristine_, bytes_), "cudaMalloc");
    check(api_.malloc(&buffer_, bytes_), "cudaMalloc");
    // cufftPlan2d takes the slowest dimension first.
    check(api_.plan_2d(&plan_, static_cast<int>(size.height), static_cast<int>(size.width), CUFFT_C2C), "cufftPlan2d");
  }
  ~CufftImplementation() override {
    for (cudaEvent_t e : events_) api_.event_destroy(e);
    api_.destroy(plan_);
    api_.free(buffer_);
    api_.free(pristine_);
  }
  std::string device() const override { return api_.device_name; }
  std::string timer() const override { return "cuda events around cufftExecC2C"; }
  void upload(const ComplexImage& input) override {
    check(api_.memcpy(pristine_, input.data.data(), bytes_, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  std::vector<double> time_runs(int warmup, int repeats) override {
    const std::size_t runs = static_cast<std::size_t>(warmup + repeats);
    while (events_.size() < 2 * runs) {
      cudaEvent_t e = nullptr;
      check(api_.event_create(&e), "cudaEventCreate");
      events_.push_back(e);
    }
    // All runs are queued before any is read back, so the GPU stays busy throughout.
    for (std::size_t i = 0; i < runs; ++i) {
      check(api_.memcpy(buffer_, pristine_, bytes_, cudaMemcpyDeviceToDevice), "cudaMemcpy");
      check(api_.event_record(events_[2 * i], nullptr), "cudaEventRecord");
      check(api_.exec_c2c(plan_, buffer_, buffer_, CUFFT_FORWARD), "cufftExecC2C");
      check(api_.event_record(events_[2 * i + 1], nullptr), "cudaEventRecord");
    }
    check(api_.event_synchronize(events_[2 * runs - 1]), "cudaEventSynchronize");
    std::vector<double> us;
    for (std::size_t i = static_cast<std::size_t>(warmup); i < runs; ++i) {
      float ms = 0;
      check(api_.event_elapsed(&ms, events_[2 * i], events_[2 * i + 1]), "cudaEventElapsedTime");
      us.push_back(ms * 1000.0);
    }
    return us;
  }
  ComplexImage result() override {
    check(api_.memcpy(buffer_, pristine_, bytes_, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    check(api_.exec_c2c(plan_, buffer_, buffer_, CUFFT_FORWARD), "cufftExecC2C");
    ComplexImage out(size_.width, size_.height);
    check(api_.memcpy(out.data.data(), buffer_, bytes_, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return out;
  }

 private:
  CudaApi api_;
  BenchSize size_;
  std::size_t bytes_ = 0;
  void* pristine_ = nullptr;
  void* buffer_ = nullptr;
  cufftHandle plan_ = 0;
  std::vector<cudaEvent_t> events_;
};

}  // namespace

std::unique_ptr<Implementation> make_cufft(BenchSize size) { return std::make_unique<CufftImplementation>(size); }

}  // namespace fftscope::bench::detail
