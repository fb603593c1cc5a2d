// A stand-in for the CUDA runtime, cuFFT, the driver API and NVRTC, so that CI (no NVIDIA GPU)
// runs bench_cufft.cpp's own code: what it loads, how it times, how it checks and cleans up.
// Built as one shared library that the tests reach under the real libraries' file names
// (symlinks in one folder on LD_LIBRARY_PATH; the loader maps the one file once). "Device"
// memory is host memory, events read the host clock, and the transforms are FFTW's in double
// precision, rounded to float, which the bench then checks like any other entry's. Kernel
// launches fail (nothing here runs CUDA C), so the display entry reports an error.
#include <fftw3.h>

#include <chrono>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <vector>

namespace {

std::mutex guard;
std::set<void*> live;    // what cudaMalloc handed out and cudaFree has not taken back
std::set<void*> events, modules, programs;  // created and not yet destroyed or unloaded
int malloc_calls = 0;
int fail_at_call = 0;    // 0: never; n: the n-th cudaMalloc from now fails
struct Plan {
  int rows = 0, cols = 0, type = 0;
};
std::map<int, Plan> plans;
int next_plan = 1;

constexpr int cuda_success = 0;
constexpr int cuda_error_invalid_value = 1;
constexpr int cuda_error_memory_allocation = 2;
constexpr int cufft_invalid_plan = 1;
constexpr int cufft_c2c = 0x29;
constexpr int cufft_r2c = 0x2a;
constexpr int cuda_error_not_supported = 801;

using Clock = std::chrono::steady_clock;

// Created, destroyed, loaded and unloaded objects are tracked in a set each: taking back one that
// is not there (twice, or never made) fails, as the real calls do.
void* made(std::set<void*>& held, void* object) {
  std::lock_guard<std::mutex> lock(guard);
  held.insert(object);
  return object;
}
bool taken_back(std::set<void*>& held, void* object) {
  std::lock_guard<std::mutex> lock(guard);
  return held.erase(object) == 1;
}

}  // namespace

extern "C" {

// Test hooks. What the caller still holds: allocations, events, plans, modules, NVRTC programs.
int fake_cuda_live_objects() {
  std::lock_guard<std::mutex> lock(guard);
  return static_cast<int>(live.size() + events.size() + plans.size() + modules.size() + programs.size());
}
void fake_cuda_fail_malloc(int nth) {
  std::lock_guard<std::mutex> lock(guard);
  malloc_calls = 0;
  fail_at_call = nth;
}

// Runtime API.
int cudaMalloc(void** p, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(guard);
  if (fail_at_call > 0 && ++malloc_calls == fail_at_call) return cuda_error_memory_allocation;
  *p = std::malloc(bytes ? bytes : 1);
  if (!*p) return cuda_error_memory_allocation;
  live.insert(*p);
  return cuda_success;
}
int cudaFree(void* p) {
  std::lock_guard<std::mutex> lock(guard);
  if (p && live.erase(p) == 0) return cuda_error_invalid_value;  // a double or foreign free
  std::free(p);
  return cuda_success;
}
int cudaMemcpy(void* dst, const void* src, std::size_t bytes, int) {
  std::memmove(dst, src, bytes);
  return cuda_success;
}
int cudaEventCreate(void** e) {
  *e = made(events, new Clock::time_point());
  return cuda_success;
}
int cudaEventRecord(void* e, void*) {
  *static_cast<Clock::time_point*>(e) = Clock::now();
  return cuda_success;
}
int cudaEventSynchronize(void*) { return cuda_success; }
int cudaEventElapsedTime(float* ms, void* start, void* end) {
  *ms = std::chrono::duration<float, std::milli>(*static_cast<Clock::time_point*>(end) -
                                                 *static_cast<Clock::time_point*>(start))
            .count();
  return cuda_success;
}
int cudaEventDestroy(void* e) {
  if (!taken_back(events, e)) return cuda_error_invalid_value;
  delete static_cast<Clock::time_point*>(e);
  return cuda_success;
}
int cudaDeviceSynchronize() { return cuda_success; }
const char* cudaGetErrorString(int code) {
  switch (code) {
    case cuda_success: return "no error";
    case cuda_error_memory_allocation: return "out of memory";
    default: return "unrecognized error code";
  }
}

// cuFFT.
int cufftPlan2d(int* handle, int rows, int cols, int type) {
  if (rows <= 0 || cols <= 0 || (type != cufft_c2c && type != cufft_r2c)) return cufft_invalid_plan;
  std::lock_guard<std::mutex> lock(guard);
  *handle = next_plan++;
  plans[*handle] = {rows, cols, type};
  return 0;
}
int cufftDestroy(int handle) {
  std::lock_guard<std::mutex> lock(guard);
  return plans.erase(handle) ? 0 : cufft_invalid_plan;
}
int cufftExecC2C(int handle, void* in, void* out, int direction) {
  Plan plan;
  {
    std::lock_guard<std::mutex> lock(guard);
    if (!plans.count(handle) || plans[handle].type != cufft_c2c || direction != -1) return cufft_invalid_plan;
    plan = plans[handle];
  }
  const std::size_t n = static_cast<std::size_t>(plan.rows) * static_cast<std::size_t>(plan.cols);
  const auto* src = static_cast<const std::complex<float>*>(in);
  std::vector<std::complex<double>> data(src, src + n);
  auto* buffer = reinterpret_cast<fftw_complex*>(data.data());
  std::lock_guard<std::mutex> lock(guard);  // FFTW's planner is not thread-safe
  fftw_plan p = fftw_plan_dft_2d(plan.rows, plan.cols, buffer, buffer, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  auto* dst = static_cast<std::complex<float>*>(out);
  for (std::size_t i = 0; i < n; ++i) dst[i] = std::complex<float>(data[i]);
  return 0;
}
int cufftExecR2C(int handle, void* in, void* out) {
  Plan plan;
  {
    std::lock_guard<std::mutex> lock(guard);
    if (!plans.count(handle) || plans[handle].type != cufft_r2c) return cufft_invalid_plan;
    plan = plans[handle];
  }
  const std::size_t n = static_cast<std::size_t>(plan.rows) * static_cast<std::size_t>(plan.cols);
  const std::size_t half = static_cast<std::size_t>(plan.rows) * static_cast<std::size_t>(plan.cols / 2 + 1);
  const auto* src = static_cast<const float*>(in);
  std::vector<double> real(src, src + n);
  std::vector<std::complex<double>> spectrum(half);
  std::lock_guard<std::mutex> lock(guard);
  fftw_plan p = fftw_plan_dft_r2c_2d(plan.rows, plan.cols, real.data(),
                                     reinterpret_cast<fftw_complex*>(spectrum.data()), FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  auto* dst = static_cast<std::complex<float>*>(out);
  for (std::size_t i = 0; i < half; ++i) dst[i] = std::complex<float>(spectrum[i]);
  return 0;
}

// Driver API.
int cuInit(unsigned) { return 0; }
int cuDeviceGet(int* device, int ordinal) {
  *device = ordinal;
  return 0;
}
int cuDeviceGetName(char* name, int length, int) {
  std::strncpy(name, "fake CUDA device (tests)", static_cast<std::size_t>(length) - 1);
  return 0;
}
int cuModuleLoadData(void** module, const void*) {
  *module = made(modules, new int(0));
  return 0;
}
int cuModuleGetFunction(void** function, void* module, const char*) {
  *function = module;
  return 0;
}
int cuModuleUnload(void* module) {
  if (!taken_back(modules, module)) return cuda_error_invalid_value;
  delete static_cast<int*>(module);
  return 0;
}
int cuLaunchKernel(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                   void**) {
  return cuda_error_not_supported;
}

// NVRTC: "compiles" to a placeholder that only cuModuleLoadData above accepts.
int nvrtcCreateProgram(void** program, const char*, const char*, int, const char* const*, const char* const*) {
  *program = made(programs, new int(0));
  return 0;
}
int nvrtcCompileProgram(void*, int, const char* const*) { return 0; }
int nvrtcGetPTXSize(void*, std::size_t* size) {
  *size = sizeof("fake ptx");
  return 0;
}
int nvrtcGetPTX(void*, char* ptx) {
  std::memcpy(ptx, "fake ptx", sizeof("fake ptx"));
  return 0;
}
int nvrtcGetProgramLogSize(void*, std::size_t* size) {
  *size = 1;
  return 0;
}
int nvrtcGetProgramLog(void*, char* log) {
  log[0] = '\0';
  return 0;
}
int nvrtcDestroyProgram(void** program) {
  if (!taken_back(programs, *program)) return cuda_error_invalid_value;
  delete static_cast<int*>(*program);
  *program = nullptr;
  return 0;
}

}  // extern "C"
