// cuFFT, loaded at run time with dlopen so that fftscope needs no CUDA at build or link time and
// works with whichever CUDA runtime the machine has. Only the stable C entry points are used.
#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <stdexcept>
#include <vector>

#include "bench/bench.h"
#include "core/preprocess.h"

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

void* open_first(std::span<const char* const> names) {
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
  cufftResult (*exec_r2c)(cufftHandle, void*, void*);
  cufftResult (*destroy)(cufftHandle);
  const char* (*error_string)(cudaError_t) = nullptr;
  std::string device_name = "CUDA device";

  CudaApi() {
    cudart = open_first(cudart_names);
    cufft = open_first(cufft_names);
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
    exec_r2c = symbol<decltype(exec_r2c)>(cufft, "cufftExecR2C");
    destroy = symbol<decltype(destroy)>(cufft, "cufftDestroy");
    error_string = reinterpret_cast<decltype(error_string)>(dlsym(cudart, "cudaGetErrorString"));
    // Without the driver every runtime call fails with a bare code (35, "insufficient driver").
    driver = open_first(cuda_driver_names);
    if (!driver) throw std::runtime_error("cuFFT: libcuda.so.1 not found (no NVIDIA driver)");
    // The driver API gives the device name without depending on cudaDeviceProp's layout.
    {
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

/// A CUDA runtime call's result, named by the runtime where it can (cuFFT's codes have no such call).
void check(const CudaApi& api, cudaError_t code, const char* what) {
  if (code == 0) return;
  const char* name = api.error_string ? api.error_string(code) : nullptr;
  throw std::runtime_error(std::string("cuFFT: ") + what + " failed with code " + std::to_string(code) +
                           (name ? std::string(" (") + name + ")" : std::string()));
}

/// What one cuFFT entry holds on the GPU: its allocations, its plan and its timing events, all
/// released by the destructor, which also runs where the entry's constructor throws halfway (a
/// second cudaMalloc out of memory at a large size), so the sweep goes on with nothing left behind.
struct CudaResources {
  CudaApi api;
  std::vector<void*> buffers;
  std::optional<cufftHandle> plan;
  std::vector<cudaEvent_t> events;

  CudaResources() = default;
  CudaResources(const CudaResources&) = delete;
  CudaResources& operator=(const CudaResources&) = delete;
  ~CudaResources() {
    for (cudaEvent_t e : events) api.event_destroy(e);
    if (plan) api.destroy(*plan);
    for (void* p : buffers) api.free(p);
  }
  void* allocate(std::size_t bytes) {
    void* p = nullptr;
    check(api, api.malloc(&p, bytes), "cudaMalloc");
    buffers.push_back(p);
    return p;
  }
  /// A 2D plan of `type` for a width x height image (cufftPlan2d takes the slowest dimension first).
  cufftHandle plan_2d(BenchSize size, int type, const char* what) {
    cufftHandle h = 0;
    check(api.plan_2d(&h, static_cast<int>(size.height), static_cast<int>(size.width), type), what);
    plan = h;
    return h;
  }
};

/// Times warmup + repeats runs of `timed` between a pair of CUDA events each (`before` runs
/// ahead of each pair, untimed). All runs are queued before any is read back, so the GPU stays
/// busy throughout. Returns the repeats' times in microseconds; the entry's events grow as needed.
template <typename Before, typename Timed>
std::vector<double> time_with_events(CudaResources& cuda, int warmup, int repeats, Before before, Timed timed) {
  CudaApi& api = cuda.api;
  std::vector<cudaEvent_t>& events = cuda.events;
  const std::size_t runs = static_cast<std::size_t>(warmup + repeats);
  while (events.size() < 2 * runs) {
    cudaEvent_t e = nullptr;
    check(api, api.event_create(&e), "cudaEventCreate");
    events.push_back(e);
  }
  for (std::size_t i = 0; i < runs; ++i) {
    before();
    check(api, api.event_record(events[2 * i], nullptr), "cudaEventRecord");
    timed();
    check(api, api.event_record(events[2 * i + 1], nullptr), "cudaEventRecord");
  }
  check(api, api.event_synchronize(events[2 * runs - 1]), "cudaEventSynchronize");
  std::vector<double> us;
  for (std::size_t i = static_cast<std::size_t>(warmup); i < runs; ++i) {
    float ms = 0;
    check(api, api.event_elapsed(&ms, events[2 * i], events[2 * i + 1]), "cudaEventElapsedTime");
    us.push_back(ms * 1000.0);
  }
  return us;
}

class CufftImplementation final : public Implementation {
 public:
  explicit CufftImplementation(BenchSize size)
      : size_(size),
        bytes_(size.width * size.height * sizeof(Complex)),
        pristine_(cuda_.allocate(bytes_)),
        buffer_(cuda_.allocate(bytes_)),
        plan_(cuda_.plan_2d(size, CUFFT_C2C, "cufftPlan2d")) {}
  std::string device() const override { return cuda_.api.device_name; }
  std::string timer() const override { return "cuda events around cufftExecC2C"; }
  void upload(const ComplexImage& input) override {
    check(cuda_.api, cuda_.api.memcpy(pristine_, input.data.data(), bytes_, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  std::vector<double> time_runs(int warmup, int repeats) override {
    return time_with_events(cuda_, warmup, repeats, [&] { restore(); }, [&] { transform(); });
  }
  ComplexImage result() override {
    restore();
    transform();
    ComplexImage out(size_.width, size_.height);
    check(cuda_.api, cuda_.api.memcpy(out.data.data(), buffer_, bytes_, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return out;
  }

 private:
  void restore() {
    check(cuda_.api, cuda_.api.memcpy(buffer_, pristine_, bytes_, cudaMemcpyDeviceToDevice), "cudaMemcpy");
  }
  void transform() { check(cuda_.api.exec_c2c(plan_, buffer_, buffer_, CUFFT_FORWARD), "cufftExecC2C"); }

  CudaResources cuda_;  // first: what follows is allocated from it, and it outlives them
  BenchSize size_;
  std::size_t bytes_;
  void* pristine_;
  void* buffer_;
  cufftHandle plan_;
};

// The display pass of the cuFFT baseline (issue 6), compiled at run time by NVRTC: display pixel
// (x, y) shows bin ifftshift(x, y) of the R2C half spectrum (bins past W/2 as the conjugate of
// their Hermitian mirror), log(1 + |X|) mapped by t = (v - lo) / (hi - lo) to the 256-entry LUT.
// One gather per pixel: the separate shift + log-magnitude + colormap pass the issue compares to.
constexpr const char* display_kernel_source = R"(
extern "C" __global__ void r2c_display(const float2* half, const uchar4* lut, uchar4* rgba, int w, int h,
                                       float lo, float hi) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const int sx = (x + w - w / 2) % w, sy = (y + h - h / 2) % h;
  const int hw = w / 2 + 1;
  float2 v = sx < hw ? half[sy * hw + sx] : half[((h - sy) % h) * hw + (w - sx)];
  const float m = log1pf(hypotf(v.x, v.y));
  float t = hi > lo ? (m - lo) / (hi - lo) : 0.0f;
  t = isnan(t) ? 0.0f : fminf(fmaxf(t, 0.0f), 1.0f);
  const uchar4 c = lut[(int)floorf(t * 255.0f + 0.5f)];
  rgba[y * w + x] = make_uchar4(c.x, c.y, c.z, 255);
}
)";

using nvrtcProgram = void*;
using CUmodule = void*;
using CUfunction = void*;

/// NVRTC and the driver API's module calls, loaded at run time like cuFFT.
struct RtcApi {
  void* nvrtc = nullptr;
  void* driver = nullptr;
  int (*create)(nvrtcProgram*, const char*, const char*, int, const char* const*, const char* const*);
  int (*compile)(nvrtcProgram, int, const char* const*);
  int (*ptx_size)(nvrtcProgram, std::size_t*);
  int (*ptx)(nvrtcProgram, char*);
  int (*log_size)(nvrtcProgram, std::size_t*);
  int (*log)(nvrtcProgram, char*);
  int (*destroy)(nvrtcProgram*);
  int (*module_load)(CUmodule*, const void*);
  int (*module_function)(CUfunction*, CUmodule, const char*);
  int (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                void**);
  int (*module_unload)(CUmodule);

  /// `opened_driver`: the one CudaApi opened (it refuses to exist without one).
  explicit RtcApi(void* opened_driver) : driver(opened_driver) {
    nvrtc = open_first(nvrtc_names);
    if (!nvrtc) throw std::runtime_error("cuFFT display: libnvrtc not found (NVRTC compiles the display kernel)");
    create = symbol<decltype(create)>(nvrtc, "nvrtcCreateProgram");
    compile = symbol<decltype(compile)>(nvrtc, "nvrtcCompileProgram");
    ptx_size = symbol<decltype(ptx_size)>(nvrtc, "nvrtcGetPTXSize");
    ptx = symbol<decltype(ptx)>(nvrtc, "nvrtcGetPTX");
    log_size = symbol<decltype(log_size)>(nvrtc, "nvrtcGetProgramLogSize");
    log = symbol<decltype(log)>(nvrtc, "nvrtcGetProgramLog");
    destroy = symbol<decltype(destroy)>(nvrtc, "nvrtcDestroyProgram");
    module_load = symbol<decltype(module_load)>(driver, "cuModuleLoadData");
    module_function = symbol<decltype(module_function)>(driver, "cuModuleGetFunction");
    launch = symbol<decltype(launch)>(driver, "cuLaunchKernel");
    module_unload = symbol<decltype(module_unload)>(driver, "cuModuleUnload");
  }

  /// PTX of `source` for NVRTC's default virtual architecture (the driver JIT-compiles it for the
  /// device, Hopper included). Throws with NVRTC's log.
  std::string compile_ptx(const char* source, const char* name) {
    nvrtcProgram program = nullptr;
    if (create(&program, source, name, 0, nullptr, nullptr) != 0) throw std::runtime_error("nvrtcCreateProgram failed");
    const int result = compile(program, 0, nullptr);
    std::size_t size = 0;
    if (result != 0) {
      log_size(program, &size);
      std::string text(size, '\0');
      log(program, text.data());
      destroy(&program);
      throw std::runtime_error("cuFFT display: NVRTC failed (" + std::to_string(result) + "): " + text);
    }
    ptx_size(program, &size);
    std::string code(size, '\0');
    ptx(program, code.data());
    destroy(&program);
    return code;
  }
};

constexpr int CUFFT_R2C = 0x2a;

/// A module the driver loaded, unloaded when its owner goes (also where the owner's constructor
/// throws after loading it).
class LoadedModule {
 public:
  LoadedModule(const RtcApi& rtc, const std::string& ptx) : rtc_(rtc) {
    check(rtc_.module_load(&module_, ptx.data()), "cuModuleLoadData");
  }
  LoadedModule(const LoadedModule&) = delete;
  LoadedModule& operator=(const LoadedModule&) = delete;
  ~LoadedModule() { rtc_.module_unload(module_); }
  CUfunction function(const char* name) const {
    CUfunction f = nullptr;
    check(rtc_.module_function(&f, module_, name), "cuModuleGetFunction");
    return f;
  }

 private:
  const RtcApi& rtc_;
  CUmodule module_ = nullptr;
};

class CufftR2cDisplay final : public Implementation {
 public:
  explicit CufftR2cDisplay(BenchSize size)
      : size_(size),
        settings_(fixed_range_settings(size.width, size.height)),
        real_(cuda_.allocate(size.width * size.height * sizeof(float))),
        half_(cuda_.allocate((size.width / 2 + 1) * size.height * sizeof(Complex))),
        rgba_(cuda_.allocate(size.width * size.height * 4)),
        lut_(cuda_.allocate(256 * 4)),
        plan_(cuda_.plan_2d(size, CUFFT_R2C, "cufftPlan2d(R2C)")),
        // cudaMalloc made the runtime's primary context current: the driver calls use it.
        module_(rtc_, rtc_.compile_ptx(display_kernel_source, "r2c_display.cu")),
        function_(module_.function("r2c_display")) {
    std::vector<std::uint8_t> lut(256 * 4, 255);
    const auto& table = colormap_table(settings_.colormap);
    for (std::size_t i = 0; i < 256; ++i)
      for (std::size_t c = 0; c < 3; ++c) lut[4 * i + c] = table[i][c];
    check(cuda_.api, cuda_.api.memcpy(lut_, lut.data(), lut.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  std::string device() const override { return cuda_.api.device_name; }
  std::string timer() const override { return "cuda events around cufftExecR2C + display kernel"; }
  void upload(const ComplexImage& input) override {
    const RealImage real = crop_real(input, input.width, input.height);
    check(cuda_.api, cuda_.api.memcpy(real_, real.data.data(), real.data.size() * sizeof(float), cudaMemcpyHostToDevice),
          "cudaMemcpy");
  }
  std::vector<double> time_runs(int warmup, int repeats) override {
    // R2C out of place leaves the real input as it was: nothing to restore between runs.
    return time_with_events(cuda_, warmup, repeats, [] {}, [&] { run_once(); });
  }
  ComplexImage result() override { throw std::logic_error("cuFFT display: no complex result (use self_check)"); }
  std::optional<double> self_check(const ComplexImage& input) override {
    run_once();
    RgbaImage got(size_.width, size_.height);
    check(cuda_.api, cuda_.api.memcpy(got.data.data(), rgba_, got.data.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return display_error(got, input, settings_);
  }

 private:
  void run_once() {
    check(cuda_.api.exec_r2c(plan_, real_, half_), "cufftExecR2C");
    int w = static_cast<int>(size_.width), h = static_cast<int>(size_.height);
    float lo = settings_.range_min, hi = settings_.range_max;
    void* args[] = {&half_, &lut_, &rgba_, &w, &h, &lo, &hi};
    const unsigned bx = 32, by = 8;
    check(rtc_.launch(function_, static_cast<unsigned>((size_.width + bx - 1) / bx),
                      static_cast<unsigned>((size_.height + by - 1) / by), 1,
                      bx, by, 1, 0, nullptr, args, nullptr),
          "cuLaunchKernel(r2c_display)");
  }

  // In this order: each member is made from those above it, and goes before them.
  CudaResources cuda_;
  RtcApi rtc_{cuda_.api.driver};
  BenchSize size_;
  SpectrumSettings settings_;
  void* real_;
  void* half_;
  void* rgba_;
  void* lut_;
  cufftHandle plan_;
  LoadedModule module_;
  CUfunction function_;
};

}  // namespace

std::unique_ptr<Implementation> make_cufft(BenchSize size) { return std::make_unique<CufftImplementation>(size); }
std::unique_ptr<Implementation> make_cufft_r2c_display(BenchSize size) {
  return std::make_unique<CufftR2cDisplay>(size);
}

}  // namespace fftscope::bench::detail
