// The device memory limit (issue 7): what each backend reports, checked against the API queried
// here independently, and the refusal of a transform that does not fit, computed from the real
// device's figures without allocating it.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <fstream>
#include <sstream>
#include <string>

#include "backend/backend.h"
#include "core/errors.h"
#include "core/plan.h"
#include "core/validate.h"
#include "support/gpu_skip.h"

#ifdef FFTSCOPE_HAVE_CL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <vector>
#endif
#ifdef FFTSCOPE_HAVE_GL
#include <glad/gl.h>
#endif

namespace fftscope {
namespace {

// InputError, one line, the file named, and every fragment in `says`.
std::string expect_refusal(const std::function<void()>& call, const std::string& name,
                           std::initializer_list<std::string> says) {
  try {
    call();
    ADD_FAILURE() << "not refused";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_NE(m.find("'" + name + "'"), std::string::npos) << m;
    for (const std::string& s : says) EXPECT_NE(m.find(s), std::string::npos) << "no '" << s << "' in: " << m;
    return m;
  }
  return "";
}

// MemTotal from /proc/meminfo, in bytes: the kernel's own figure, read another way than sysconf.
std::uint64_t meminfo_total() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (in >> key >> kib >> unit)
    if (key == "MemTotal:") return kib * 1024;
  return 0;
}

TEST(DeviceMemory, EstimateNamesTheLargestBuffer) {
  // A power-of-two size: the largest buffer is one complex64 image.
  EXPECT_EQ(estimate_transform_memory(1024, 512).largest_buffer, 8ull * 1024 * 512);
  // 1021 (prime) rows use Bluestein: m = 2048 padded points per line, 8 lines: 8 * 2048 * 8 bytes
  // of scratch, while the image is 8 * 1021 * 8. The estimate must name the scratch.
  const MemoryEstimate e = estimate_transform_memory(1021, 8);
  EXPECT_EQ(e.largest_buffer, 8ull * 2048 * 8);
  EXPECT_GT(e.largest_buffer, 8ull * 1021 * 8);
}

TEST(DeviceMemory, RefusesAtTheFirstByteOverEitherLimit) {
  const MemoryEstimate e = estimate_transform_memory(512, 256);
  DeviceMemoryLimit limit{e.bytes, e.largest_buffer, "test total", "test allocation"};
  EXPECT_NO_THROW(check_device_memory(512, 256, limit, "a.png"));  // exactly at both limits
  limit.max_allocation = e.largest_buffer - 1;
  expect_refusal([&] { check_device_memory(512, 256, limit, "a.png"); }, "a.png",
                 {"512 x 256", "a 1.0 MiB buffer", "largest allocation of 1048575 bytes", "(test allocation)"});
  limit.max_allocation = 0;  // unknown: not checked
  limit.total = e.bytes - 1;
  expect_refusal([&] { check_device_memory(512, 256, limit, "a.png"); }, "a.png",
                 {"of device memory", "device's limit", "(test total)"});
  EXPECT_NO_THROW(check_device_memory(512, 256, DeviceMemoryLimit{}, "a.png"));  // nothing known
}

TEST(DeviceMemory, PhysicalRamIsTheKernelsFigure) {
  const std::uint64_t ram = physical_memory_bytes();
  ASSERT_GT(ram, 0u);
  EXPECT_EQ(ram, meminfo_total());
  const DeviceMemoryLimit cpu = make_backend(BackendKind::cpu)->memory_limit();
  EXPECT_EQ(cpu.total, ram);
  EXPECT_EQ(cpu.total_source, "physical RAM");
}

#ifdef FFTSCOPE_HAVE_CL
// The device the backend chose, found again through the OpenCL API by its name.
cl_device_id find_cl_device(const std::string& backend_name) {
  cl_uint platforms = 0;
  if (clGetPlatformIDs(0, nullptr, &platforms) != CL_SUCCESS || platforms == 0) return nullptr;
  std::vector<cl_platform_id> ids(platforms);
  clGetPlatformIDs(platforms, ids.data(), nullptr);
  for (cl_platform_id p : ids) {
    cl_uint n = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS) continue;
    std::vector<cl_device_id> devices(n);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, devices.data(), nullptr);
    for (cl_device_id d : devices) {
      char name[512] = {};
      clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
      if (backend_name.find(std::string(" / ") + name + " (") != std::string::npos) return d;
    }
  }
  return nullptr;
}

TEST(DeviceMemory, OpenClReportsTheDevicesFiguresAndRefusesABufferOverMaxAlloc) {
  std::unique_ptr<Backend> backend;
  try {
    backend = make_backend(BackendKind::cl);
  } catch (const BackendError& e) {
    FFTSCOPE_GPU_UNAVAILABLE(e.what());
  }
  cl_device_id device = find_cl_device(backend->device_name());
  ASSERT_NE(device, nullptr) << backend->device_name();
  cl_ulong global = 0, max_alloc = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr), CL_SUCCESS);
  const DeviceMemoryLimit limit = backend->memory_limit();
  EXPECT_EQ(limit.total, global);
  EXPECT_EQ(limit.max_allocation, max_alloc);
  EXPECT_NE(limit.allocation_source.find("CL_DEVICE_MAX_MEM_ALLOC_SIZE"), std::string::npos);
  std::printf("[ device ] %s: CL_DEVICE_GLOBAL_MEM_SIZE %s, CL_DEVICE_MAX_MEM_ALLOC_SIZE %s\n",
              backend->device_name().c_str(), format_bytes(global).c_str(), format_bytes(max_alloc).c_str());

  // Power-of-two sizes (no Bluestein: the largest buffer is the image): p elements is the largest
  // power of two within max_alloc, so 16384 x (p / 16384) fits in one buffer and twice the rows
  // does not.
  std::uint64_t p = 1;
  while (p * 2 * 8 <= max_alloc) p *= 2;
  const std::size_t w = 16384;
  const std::size_t h = static_cast<std::size_t>(2 * p / w);
  ASSERT_GT(8ull * w * h, max_alloc);
  ASSERT_EQ(estimate_transform_memory(w, h).largest_buffer, 8ull * w * h);
  const std::string refusal =
      expect_refusal([&] { check_device_memory(w, h, limit, "big.npy"); }, "big.npy",
                     {std::to_string(w) + " x " + std::to_string(h), "largest allocation", "CL_DEVICE_MAX_MEM_ALLOC_SIZE"});
  std::printf("[ refused ] %s\n", refusal.c_str());
  // Half the rows passes the allocation check (it may still be over the total).
  DeviceMemoryLimit allocation_only = limit;
  allocation_only.total = 0;
  EXPECT_NO_THROW(check_device_memory(w, h / 2, allocation_only, "big.npy"));

  // The backend itself refuses such a plan before clCreateBuffer (the message is ours, with the
  // sizes; a driver would answer CL_INVALID_BUFFER_SIZE or fail later). Nothing is allocated:
  // the image buffer is the first one made.
  const Plan2D plan = make_plan_2d(w, h);
  try {
    backend->prepare(plan, KernelVariant::fused);
    ADD_FAILURE() << "prepare() of a " << w << " x " << h << " plan was not refused";
  } catch (const BackendError& e) {
    const std::string m = e.what();
    std::printf("[ prepare ] %s\n", m.c_str());
    EXPECT_NE(m.find("CL_DEVICE_MAX_MEM_ALLOC_SIZE"), std::string::npos) << m;
    EXPECT_NE(m.find(format_bytes(8ull * w * h)), std::string::npos) << m;
  }
}
#endif

#ifdef FFTSCOPE_HAVE_GL
TEST(DeviceMemory, OpenGlReportsItsBlockLimitAndAMemoryFigure) {
  std::unique_ptr<Backend> backend;
  try {
    backend = make_backend(BackendKind::gl);
  } catch (const BackendError& e) {
    FFTSCOPE_GPU_UNAVAILABLE(e.what());
  }
  const DeviceMemoryLimit limit = backend->memory_limit();
  // The headless backend leaves its context current: ask GL here, directly.
  GLint64 block = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
  EXPECT_EQ(limit.max_allocation, static_cast<std::uint64_t>(block));
  std::printf("[ device ] %s: total %s (%s), largest buffer %s\n", backend->device_name().c_str(),
              format_bytes(limit.total).c_str(), limit.total_source.c_str(), format_bytes(limit.max_allocation).c_str());
  if (GLAD_GL_NVX_gpu_memory_info) {
    GLint kib = 0;
    glGetIntegerv(GL_GPU_MEMORY_INFO_DEDICATED_VIDMEM_NVX, &kib);
    EXPECT_GT(limit.total, 0u);
    EXPECT_LE(limit.total, static_cast<std::uint64_t>(kib) * 1024);  // what is free now <= all of it
  } else if (!GLAD_GL_ATI_meminfo) {
    EXPECT_EQ(limit.total, meminfo_total());  // llvmpipe: its buffers live in host memory
    EXPECT_NE(limit.total_source.find("physical RAM"), std::string::npos);
  }
}
#endif

}  // namespace
}  // namespace fftscope
