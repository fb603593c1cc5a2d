// fast_probe_cl: times the OpenCL fast path per axis on the chosen device (GPU profiling events,
// median of many runs after warm-up), checks the forward result against FFTW (double), and
// prints the plans and, where the driver gives one, the build log (FFTSCOPE_CL_FAST_OPTIONS=
// -cl-nv-verbose shows registers and spills on NVIDIA). A measurement tool, not a test:
//   fast_probe_cl [--device SEL] [--runs N] WxH...
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "backend/cl/cl_fast_display.h"
#include "backend/cl/cl_fast_path.h"
#include "core/timing.h"
#include "api_probe_kernels.h"
#include "pm_stretches.h"
#include "strided_probe.h"
#include "support/reference.h"

using namespace fftscope;
using namespace fftscope::cl_detail;

namespace {

double event_ms(cl_event ev) {
  cl_ulong start = 0, end = 0;
  check(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr), "start");
  check(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr), "end");
  return static_cast<double>(end - start) * 1e-6;
}

void print_build_log(cl_kernel kernel, cl_device_id device) {
  if (!kernel) return;
  cl_program program = nullptr;
  check(clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, nullptr), "clGetKernelInfo");
  std::size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (!log.empty()) std::printf("  build log:\n%s\n", log.c_str());
}

// Event times (µs) of `runs` launches of `kernel`, after 20 untimed ones.
std::vector<double> kernel_times_us(cl_command_queue queue, cl_kernel kernel, std::size_t global, std::size_t local,
                                    int runs) {
  std::vector<double> us;
  for (int r = 0; r < runs + 20; ++r) {
    cl_event ev = nullptr;
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, &ev), "enqueue");
    check(clWaitForEvents(1, &ev), "wait");
    if (r >= 20) us.push_back(event_ms(ev) * 1e3);
    clReleaseEvent(ev);
  }
  return us;
}

// FFTSCOPE_CL_STRIDED=1: strided_probe.h's access patterns in OpenCL.
void measure_strided(cl_context context, cl_device_id device, cl_command_queue queue, int runs) {
  for (const test::StridedCase& c : test::strided_cases()) {
    const std::string text = "#define LANE get_local_id(0)\n#define GROUP get_group_id(0)\n#define VEC2 float2\n"
                             "#define UNROLL _Pragma(\"unroll\")\n__kernel __attribute__((reqd_work_group_size(" +
                             std::to_string(c.threads) + ", 1, 1))) void negate(__global float2* restrict D, __global float2* restrict OUT) {\n" +
                             test::strided_body(c) + "}\n";
    cl_int err = CL_SUCCESS;
    const char* src = text.c_str();
    Program program(clCreateProgramWithSource(context, 1, &src, nullptr, &err));
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(program.get(), 1, &device, "", nullptr, nullptr), "clBuildProgram (strided)");
    Kernel kernel(clCreateKernel(program.get(), "negate", &err));
    check(err, "clCreateKernel");
    Mem buffer(clCreateBuffer(context, CL_MEM_READ_WRITE, std::size_t{c.pitch} * c.height * 8, nullptr, &err));
    check(err, "clCreateBuffer");
    Mem second(c.out_spacing ? clCreateBuffer(context, CL_MEM_READ_WRITE, std::size_t{c.pitch} * c.height * 8, nullptr, &err)
                             : nullptr);
    check(err, "clCreateBuffer");
    cl_mem mem = buffer.get(), out = c.out_spacing ? second.get() : buffer.get();
    check(clSetKernelArg(kernel.get(), 0, sizeof mem, &mem), "clSetKernelArg");
    check(clSetKernelArg(kernel.get(), 1, sizeof out, &out), "clSetKernelArg");
    const std::size_t global = std::size_t{c.groups()} * c.threads, local = c.threads;
    const std::vector<double> us = kernel_times_us(queue, kernel.get(), global, local, runs);
    const double m = median(us);
    std::printf("CL strided: %s: %.1f us, %.0f GB/s\n", c.describe().c_str(), m, c.bytes_moved() / (m * 1e3));
  }
}

// FFTSCOPE_CL_EMPTY=1: the event time of a kernel that does nothing, over 1 group and over 8
// groups per compute unit (what a dispatch costs before it touches memory), and of a kernel
// that reads and writes 64 KiB.
void measure_empty(cl_context context, cl_device_id device, cl_command_queue queue, int runs) {
  const char* text =
      "__kernel void empty(__global float2* d, uint n) { uint i = get_global_id(0); if (i >= n) return; d[i] = -d[i]; }\n";
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context, 1, &text, nullptr, &err));
  check(err, "clCreateProgramWithSource");
  check(clBuildProgram(program.get(), 1, &device, "", nullptr, nullptr), "clBuildProgram (empty)");
  Kernel kernel(clCreateKernel(program.get(), "empty", &err));
  check(err, "clCreateKernel");
  Mem buffer(clCreateBuffer(context, CL_MEM_READ_WRITE, 65536, nullptr, &err));
  check(err, "clCreateBuffer");
  cl_mem mem = buffer.get();
  check(clSetKernelArg(kernel.get(), 0, sizeof mem, &mem), "clSetKernelArg");
  const cl_uint units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  struct Case {
    std::size_t global;
    cl_uint n;
    const char* what;
  };
  for (const Case c : {Case{256, 0, "1 group, no access"}, Case{std::size_t{256} * 8 * units, 0, "8 groups per unit, no access"},
                       Case{8192, 8192, "32 groups, 64 KiB read and written"}}) {
    check(clSetKernelArg(kernel.get(), 1, sizeof c.n, &c.n), "clSetKernelArg");
    const std::size_t local = 256;
    const std::vector<double> us = kernel_times_us(queue, kernel.get(), c.global, local, runs);
    std::printf("CL kernel, %s: %.2f us (event start to end, median)\n", c.what, median(us));
  }
}

// The OpenCL C side of api_probe_kernels.h's macros, built as kernel "probe" with `arguments`;
// nullptr (and the build log printed) when it does not build.
Kernel build_api_probe_kernel(cl_context context, cl_device_id device, const std::string& arguments,
                              const std::string& defines, const char* body) {
  const std::string text =
      "#define KERNEL_HEAD __kernel __attribute__((reqd_work_group_size(256, 1, 1))) void probe(" + arguments +
      ", const uint N)\n#define LID ((uint)get_local_id(0))\n#define GID ((uint)get_group_id(0))\n"
      "#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE)\n#define UNROLL _Pragma(\"unroll\")\n"
      "#define VEC2 float2\n#define MAKE2(x, y) ((float2)(x, y))\n" +
      defines + body;
  const char* source = text.c_str();
  const char* options = std::getenv("FFTSCOPE_CL_FAST_OPTIONS");
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context, 1, &source, nullptr, &err));
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(program.get(), 1, &device, options ? options : "", nullptr, nullptr) != CL_SUCCESS) {
    std::string log(1 << 16, '\0');
    clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
    std::printf("probe kernel failed to build (%s): %s\n", defines.c_str(), log.c_str());
    return Kernel();
  }
  Kernel kernel(clCreateKernel(program.get(), "probe", &err));
  check(err, "clCreateKernel");
  if (options) print_build_log(kernel.get(), device);
  return kernel;
}

// Sets the kernel's buffer arguments in order, then the uint n after them.
void set_probe_arguments(cl_kernel kernel, std::initializer_list<cl_mem> buffers, cl_uint n) {
  cl_uint index = 0;
  for (cl_mem buffer : buffers) check(clSetKernelArg(kernel, index++, sizeof buffer, &buffer), "clSetKernelArg");
  check(clSetKernelArg(kernel, index, sizeof n, &n), "clSetKernelArg");
}

// FFTSCOPE_CL_MICRO: api_probe_kernels.h's small kernels (see fast_probe_gl's FFTSCOPE_GL_MICRO).
void measure_micro(cl_context context, cl_device_id device, cl_command_queue queue, int runs) {
  std::vector<std::uint32_t> table = test::micro_chase_table();
  cl_int err = CL_SUCCESS;
  Mem data(clCreateBuffer(context, CL_MEM_READ_WRITE, 65536, nullptr, &err));
  check(err, "clCreateBuffer");
  Mem tab(clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, table.size() * sizeof(std::uint32_t),
                         table.data(), &err));
  check(err, "clCreateBuffer");
  const cl_uint units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  for (int kind = 0; kind < 3; ++kind) {
    Kernel kernel = build_api_probe_kernel(context, device, "__global float* d, __global const uint* restrict t",
                                           "#define KIND " + std::to_string(kind) + "\n#define LOCAL_DECL __local float s[256];\n",
                                           test::micro_body());
    if (!kernel) continue;
    for (const cl_uint n : {4096u, 16384u}) {
      set_probe_arguments(kernel.get(), {data.get(), tab.get()}, n);
      const double time = median(kernel_times_us(queue, kernel.get(), std::size_t{256} * units, 256, runs));
      std::printf("CL micro, %s, n=%u: %.1f us, %.2f ns per iteration\n", test::micro_names[kind], n, time, time * 1e3 / n);
    }
  }
}

// The program binary of `kernel` (NVIDIA's is PTX) into `path`, to read the compiler's code.
void dump_program_binary(cl_kernel kernel, const std::string& path) {
  cl_program program = nullptr;
  check(clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, nullptr), "clGetKernelInfo");
  std::size_t size = 0;
  check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), "binary sizes");
  std::vector<unsigned char> binary(size);
  unsigned char* data = binary.data();
  check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr), "binaries");
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(binary.data(), 1, binary.size(), f);
    std::fclose(f);
  }
}

// FFTSCOPE_CL_LADDER: api_probe_kernels.h's ladder at 4096^2 (see fast_probe_gl's FFTSCOPE_GL_LADDER);
// =residency / =phases also reports each step's residency or phases (NVIDIA only: the records
// read the multiprocessor and its clock through inline PTX). FFTSCOPE_CL_DUMP=dir: each step's PTX.
void measure_ladder(cl_context context, cl_device_id device, cl_command_queue queue, int runs, const std::string& mode) {
  constexpr cl_uint n = 4096;
  const std::size_t bytes = std::size_t{n} * n * 8;
  std::vector<float> twiddles = test::ladder_twiddles();
  cl_int err = CL_SUCCESS;
  Mem src(clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err));
  check(err, "clCreateBuffer");
  Mem dst(clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err));
  check(err, "clCreateBuffer");
  Mem tw(clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, twiddles.size() * sizeof(float), twiddles.data(), &err));
  check(err, "clCreateBuffer");
  const std::size_t record_bytes = 16 + sizeof(test::PhaseRecord) * (n / 4) * 2;
  Mem records(clCreateBuffer(context, CL_MEM_READ_WRITE, record_bytes, nullptr, &err));
  check(err, "clCreateBuffer");
  const std::string arguments =
      "__global const float2* restrict src_, __global float2* restrict dst_, __global const float2* restrict tw";
  const std::string pointers =
      "#ifdef STRONG_LOADS\n#define src ((volatile __global const float2*)src_)\n#else\n#define src src_\n#endif\n"
      "#ifdef STRONG_STORES\n#define dst ((volatile __global float2*)dst_)\n#else\n#define dst dst_\n#endif\n";
  int record_groups = mode == "residency" ? 1 : mode == "phases" ? 2 : 0;
  const std::string recording =
      "uint sm_id(void) { uint r; asm volatile(\"mov.u32 %0, %%smid;\" : \"=r\"(r)); return r; }\n"
      "uint sm_clock(void) { uint r; asm volatile(\"mov.u32 %0, %%clock;\" : \"=r\"(r)); return r; }\n"
      "#define SM_ID sm_id()\n#define SM_CLOCK() sm_clock()\n#define TAKE_SLOT() atomic_inc(&rec[0])\n"
      "#define NUM_GROUPS ((uint)get_num_groups(0))\n#define RECORD_GROUPS " + std::to_string(record_groups) + "\n";
  if (record_groups && device_string(device, CL_DEVICE_VENDOR).find("NVIDIA") == std::string::npos) {
    std::printf("CL ladder %s: needs NVIDIA's OpenCL (inline PTX); not recorded\n", mode.c_str());
    record_groups = 0;
  }
  const char* dump = std::getenv("FFTSCOPE_CL_DUMP");
  for (int step = 0; step <= 3; ++step) {
    const std::string defines = "#define STEP " + std::to_string(step) + "\n#define LOCAL_DECL __local float2 sh[4096];\n" +
                                test::ladder_extra_defines() + pointers;
    Kernel kernel = build_api_probe_kernel(context, device, arguments, defines, test::ladder_body());
    if (!kernel) continue;
    if (dump) dump_program_binary(kernel.get(), std::string(dump) + "/ladder_step" + std::to_string(step) + ".ptx");
    set_probe_arguments(kernel.get(), {src.get(), dst.get(), tw.get()}, n);
    std::printf("CL ladder 4096^2, step %d: %.1f us\n", step,
                median(kernel_times_us(queue, kernel.get(), std::size_t{n} / 4 * 256, 256, runs)));
    if (!record_groups) continue;
    Kernel recorded = build_api_probe_kernel(context, device, arguments + ", __global uint* rec", recording + defines,
                                             test::ladder_body());
    if (!recorded) continue;
    set_probe_arguments(recorded.get(), {src.get(), dst.get(), tw.get(), records.get()}, n);
    // Each launch takes its slots afresh: the count is zeroed before it, and the last launch's records are read.
    // FFTSCOPE_CL_LAUNCH=pairs: two launches back to back in each wait (the second's records and time read), as
    // fast_probe_gl's FFTSCOPE_GL_DISPATCH=twice.
    const bool pairs = std::getenv("FFTSCOPE_CL_LAUNCH") && std::string(std::getenv("FFTSCOPE_CL_LAUNCH")) == "pairs";
    std::vector<double> us;
    const std::size_t global = std::size_t{n} / 4 * 256, local = 256;
    for (int r = 0; r < runs + 20; ++r) {
      const cl_uint zero = 0;
      check(clEnqueueFillBuffer(queue, records.get(), &zero, sizeof zero, 0, 16, 0, nullptr, nullptr), "fill");
      cl_event ev = nullptr;
      for (int launch = 0; launch < (pairs ? 2 : 1); ++launch) {
        if (ev) clReleaseEvent(ev);
        check(clEnqueueNDRangeKernel(queue, recorded.get(), 1, nullptr, &global, &local, 0, nullptr, &ev), "enqueue");
      }
      check(clWaitForEvents(1, &ev), "wait");
      if (r >= 20) us.push_back(event_ms(ev) * 1e3);
      clReleaseEvent(ev);
    }
    char what[96];
    std::snprintf(what, sizeof what, "CL ladder step %d (%.1f us with the records)", step, median(us));
    const std::size_t record_words = record_groups == 2 ? 8 : 4;
    std::vector<std::uint32_t> words(std::size_t{n} / 4 * record_words);
    check(clEnqueueReadBuffer(queue, records.get(), CL_TRUE, 16 + (pairs ? words.size() * sizeof words[0] : 0),
                              words.size() * sizeof words[0], words.data(), 0, nullptr, nullptr),
          "read");
    test::report_records(what, record_groups, words);
  }
}

// FFTSCOPE_CL_PM=N: pm_stretches.h's stretches of OpenCL's fast passes, each axis's own passes
// alone, without profiling events.
void pm_segments(cl_command_queue queue, const ClFastPath& fast_path, cl_mem buffer, std::size_t width,
                 std::size_t height, int n) {
  const ClFastAxis& rows = fast_path.fast_axis(Axis::rows);
  const ClFastAxis& cols = fast_path.fast_axis(Axis::cols);
  std::vector<FastDispatch> dispatches;
  test::pm_stretches(
      width, height, n,
      [&](bool with_rows, bool with_cols, bool inverse) {
        const Direction direction = inverse ? Direction::inverse : Direction::forward;
        if (with_rows) rows.enqueue(buffer, buffer, fast_path.scratch(), direction, dispatches, false);
        if (with_cols) cols.enqueue(buffer, buffer, fast_path.scratch(), direction, dispatches, false);
        dispatches.clear();
      },
      [&] { check(clFinish(queue), "clFinish"); });
}

}  // namespace

// FFTSCOPE_CL_DISPLAY=1: the real-input display path (ClFastDisplay) instead of the complex
// transform: per-dispatch medians (fixed range, log magnitude, gray) and, with
// FFTSCOPE_CL_FAST_OPTIONS, the display rows' build log.
void measure_display(cl_context context, cl_device_id device, cl_command_queue queue, ProgramCache& programs,
                     const std::vector<std::pair<std::size_t, std::size_t>>& sizes, int runs) {
  for (auto [w, h] : sizes) {
    ClFastDisplay display(context, device, queue, programs);
    if (!display.supports(w, h)) {
      std::printf("%zux%zu: display not supported\n", w, h);
      continue;
    }
    display.prepare(w, h);
    std::printf("display %zux%zu: %s\n", w, h, display.describe().c_str());
    if (std::getenv("FFTSCOPE_CL_FAST_OPTIONS") && !display.routed()) {
      std::string options;
      for (const auto& [name, value] : fast::display_rows_defines(w, h, display.display_row_plan(), fast::tuning_from_env()))
        options += " -D " + name + "=" + value;
      print_build_log(programs.kernel(fast_program_key(display.display_row_plan(), options), "fast_fft"),
                      device);
    }
    RealImage image(w, h);
    const auto values = test::random_complex(w * h, w + h);
    for (std::size_t i = 0; i < w * h; ++i) image.data[i] = static_cast<float>(values[i].real());
    display.upload(image);
    SpectrumSettings settings;
    settings.auto_range = false;
    settings.range_max = static_cast<float>(std::log1p(static_cast<double>(w * h)));
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1000)) {
      display.enqueue_display(settings, true);
      check(clFinish(queue), "clFinish");
    }
    std::vector<std::pair<std::string, std::vector<double>>> passes;
    std::vector<double> total;
    for (int r = 0; r < runs; ++r) {
      auto d = display.enqueue_display(settings, true);
      check(clFinish(queue), "clFinish");
      passes.resize(d.size());
      double sum = 0;
      for (std::size_t j = 0; j < d.size(); ++j) {
        passes[j].first = d[j].record.kernel;
        passes[j].second.push_back(event_ms(d[j].event.get()));
        sum += passes[j].second.back();
      }
      total.push_back(sum);
    }
    for (auto& [name, ms] : passes) std::printf("  %-32s %9.1f us\n", name.c_str(), median(ms) * 1e3);
    std::printf("  %-32s %9.1f us\n", "total", median(total) * 1e3);
  }
}

int main(int argc, char** argv) {
  std::string selector;
  int runs = 50;
  std::vector<std::pair<std::size_t, std::size_t>> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) {
      selector = argv[++i];
    } else if (a == "--runs" && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else {
      std::size_t w = 0, h = 0;
      if (std::sscanf(a.c_str(), "%zux%zu", &w, &h) == 2) sizes.emplace_back(w, h);
    }
  }
  if (sizes.empty()) sizes = {{4096, 4096}};
  try {
    const FoundDevice dev = choose_device(selector);
    std::printf("device: %s (%s)\n", dev.name.c_str(), dev.platform_name.c_str());
    {
      char text[4096] = {};
      clGetDeviceInfo(dev.device, CL_DEVICE_OPENCL_C_VERSION, sizeof text - 1, text, nullptr);
      std::printf("OpenCL C: %s\n", text);
      std::size_t size = 0;
      // OpenCL 3.0's query and its cl_name_version entries (a 4-byte version, a 64-byte name),
      // spelled out: the project builds against the 1.2 headers (cl_runtime.h).
      if (clGetDeviceInfo(dev.device, 0x106F /* CL_DEVICE_OPENCL_C_FEATURES */, 0, nullptr, &size) == CL_SUCCESS) {
        std::vector<char> raw(size);
        clGetDeviceInfo(dev.device, 0x106F, size, raw.data(), nullptr);
        std::printf("OpenCL C features:");
        for (std::size_t at = 0; at + 68 <= size; at += 68) std::printf(" %s", raw.data() + at + 4);
        std::printf("\n");
      }
    }
    cl_int err = CL_SUCCESS;
    Context context(clCreateContext(nullptr, 1, &dev.device, nullptr, nullptr, &err));
    check(err, "clCreateContext");
    Queue queue(clCreateCommandQueue(context.get(), dev.device, CL_QUEUE_PROFILING_ENABLE, &err));
    check(err, "clCreateCommandQueue");
    const char* dir = std::getenv("FFTSCOPE_KERNEL_DIR");
    ProgramCache programs(context.get(), dev.device, SourceFiles({}, dir ? dir : FFTSCOPE_TEST_SOURCE_DIR "/kernels"));

    // Copy bandwidth of the largest size, as the limit line (bytes read + written).
    std::size_t largest = 0;
    for (auto [w, h] : sizes) largest = std::max(largest, w * h);
    {
      const std::size_t bytes = largest * sizeof(Complex);
      Mem a(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err));
      Mem b(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err));
      const cl_uint zero = 0;
      check(clEnqueueFillBuffer(queue.get(), a.get(), &zero, sizeof zero, 0, bytes, 0, nullptr, nullptr), "fill");
      std::vector<double> ms;
      for (int r = 0; r < runs + 20; ++r) {
        cl_event ev = nullptr;
        check(clEnqueueCopyBuffer(queue.get(), a.get(), b.get(), 0, 0, bytes, 0, nullptr, &ev), "copy");
        check(clWaitForEvents(1, &ev), "wait");
        if (r >= 5) ms.push_back(event_ms(ev));
        clReleaseEvent(ev);
      }
      const double m = median(ms);
      std::printf("copy %zu MB: %.1f us, %.0f GB/s (read + write)\n", bytes >> 20, m * 1e3, 2.0 * static_cast<double>(bytes) / (m * 1e6));
    }

    if (std::getenv("FFTSCOPE_CL_STRIDED")) measure_strided(context.get(), dev.device, queue.get(), runs);
    if (std::getenv("FFTSCOPE_CL_EMPTY")) measure_empty(context.get(), dev.device, queue.get(), runs);
    if (std::getenv("FFTSCOPE_CL_MICRO")) measure_micro(context.get(), dev.device, queue.get(), runs);
    if (const char* ladder = std::getenv("FFTSCOPE_CL_LADDER"))
      measure_ladder(context.get(), dev.device, queue.get(), runs, ladder);
    if (std::getenv("FFTSCOPE_CL_DISPLAY")) {
      measure_display(context.get(), dev.device, queue.get(), programs, sizes, runs);
      return 0;
    }
    std::printf("%-11s %10s %10s %10s %9s %9s %11s\n", "size", "rows_us", "cols_us", "total_us", "rows_GB/s",
                "cols_GB/s", "rel_l2_err");
    for (auto [w, h] : sizes) {
      ClFastPath fast_path(context.get(), dev.device, queue.get(), programs);
      if (!fast_path.supports(w, h)) {
        std::printf("%zux%zu: not supported\n", w, h);
        continue;
      }
      fast_path.prepare(w, h);
      std::printf("plan: %s\nplan: %s\n", fast_path.route(Axis::rows).describe().c_str(),
                  fast_path.route(Axis::cols).describe().c_str());
      if (std::getenv("FFTSCOPE_CL_FAST_OPTIONS")) {
        print_build_log(fast_path.kernel(Axis::rows), dev.device);
        print_build_log(fast_path.kernel(Axis::cols), dev.device);
      }
      // FFTSCOPE_CL_DUMP=dir: write each axis's program binary (NVIDIA's is PTX), as
      // fast_probe_gl's FFTSCOPE_GL_DUMP, to compare the two compilers' code.
      if (const char* dump = std::getenv("FFTSCOPE_CL_DUMP")) {
        for (Axis axis : {Axis::rows, Axis::cols})
          dump_program_binary(fast_path.kernel(axis), std::string(dump) + "/" + to_string(axis) + "_" + std::to_string(w) +
                                                          "x" + std::to_string(h) + ".ptx");
      }
      const auto input = test::random_complex(w * h, w + 7 * h);
      std::vector<Complex> data = test::to_float(input);
      Mem buffer(clCreateBuffer(context.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(Complex),
                                data.data(), &err));
      check(err, "clCreateBuffer");
      // Accuracy first, on the data as uploaded.
      fast_path.enqueue(buffer.get(), Direction::forward);
      check(clEnqueueReadBuffer(queue.get(), buffer.get(), CL_TRUE, 0, data.size() * sizeof(Complex), data.data(), 0,
                                nullptr, nullptr),
            "read");
      const double error =
          w * h <= (std::size_t{1} << 26) ? test::relative_l2_error(data, test::fftw_2d(input, w, h, Direction::forward)) : -1;
      if (const char* pm = std::getenv("FFTSCOPE_CL_PM")) {
        std::printf("%zux%zu rel_l2_err %.3g\n", w, h, error);
        if (fast_path.fused())
          std::printf("%zux%zu: both axes in one dispatch, no stretches of one axis\n", w, h);
        else
          pm_segments(queue.get(), fast_path, buffer.get(), w, h, std::atoi(pm));
        continue;
      }
      // Timing on the (now transformed, non-zero) data: repeated forward transforms.
      // Warm-up by time, not count: the GPU's clocks ramp up over a fraction of a second.
      {
        const auto start = std::chrono::steady_clock::now();
        while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1000)) {
          fast_path.enqueue(buffer.get(), Direction::forward);
          fast_path.enqueue(buffer.get(), Direction::inverse);
          check(clFinish(queue.get()), "clFinish");
        }
      }
      std::vector<double> rows_ms, cols_ms, total_ms;
      std::vector<std::pair<std::string, std::vector<double>>> passes;  // per dispatch
      for (int r = 0; r < runs + 20; ++r) {
        auto d = fast_path.enqueue(buffer.get(), Direction::forward);
        check(clFinish(queue.get()), "clFinish");
        if (r < 20) continue;
        passes.resize(d.size());
        for (std::size_t j = 0; j < d.size(); ++j) {
          passes[j].first = d[j].record.kernel;
          passes[j].second.push_back(event_ms(d[j].event.get()));
        }
        // Per axis, the sum of its dispatches (a Bluestein axis has two).
        double row_t = 0, col_t = 0;
        for (auto& x : d) (x.record.axis == Axis::rows ? row_t : col_t) += event_ms(x.event.get());
        rows_ms.push_back(row_t);
        cols_ms.push_back(col_t);
        total_ms.push_back(row_t + col_t);
        // Keep values bounded: an inverse brings them back.
        fast_path.enqueue(buffer.get(), Direction::inverse);
      }
      // Host clock around many transforms (no per-dispatch waits), as a check on the events.
      check(clFinish(queue.get()), "clFinish");
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < runs; ++r) {
        fast_path.enqueue(buffer.get(), Direction::forward);
        fast_path.enqueue(buffer.get(), Direction::inverse);
      }
      check(clFinish(queue.get()), "clFinish");
      const double wall_us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / (2.0 * runs);
      // The transform's span on the device, as the sweep times it and the OpenCL libraries: from
      // the end of a marker before it to the end of one after it (launch gaps included), its
      // dispatches without profiling events (BackendOptions::time_spans).
      std::vector<double> span_ms;
      for (int r = 0; r < runs + 20; ++r) {
        cl_event before = nullptr, after = nullptr;
        check(clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, &before), "marker");
        fast_path.enqueue(buffer.get(), Direction::forward, false);
        check(clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, &after), "marker");
        fast_path.enqueue(buffer.get(), Direction::inverse);
        check(clFinish(queue.get()), "clFinish");
        cl_ulong begin_ns = 0, end_ns = 0;
        check(clGetEventProfilingInfo(before, CL_PROFILING_COMMAND_END, sizeof begin_ns, &begin_ns, nullptr), "end");
        check(clGetEventProfilingInfo(after, CL_PROFILING_COMMAND_END, sizeof end_ns, &end_ns, nullptr), "end");
        if (r >= 20) span_ms.push_back(static_cast<double>(end_ns - begin_ns) * 1e-6);
        clReleaseEvent(before);
        clReleaseEvent(after);
      }
      // The same span with the queue held: every run's commands are enqueued behind a user event
      // and released at once, so the device never waits for the host between them (host
      // pacing is what the markers' floor at small sizes may be). And a copy timed alike.
      std::vector<double> held_ms, held_copy_ms;
      {
        Mem second(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, data.size() * sizeof(Complex), nullptr, &err));
        check(err, "clCreateBuffer");
        for (int pass = 0; pass < 2; ++pass) {
          cl_event gate = clCreateUserEvent(context.get(), &err);
          check(err, "clCreateUserEvent");
          std::vector<cl_event> marks;
          for (int r = 0; r < runs + 20; ++r) {
            cl_event before = nullptr, after = nullptr;
            check(clEnqueueMarkerWithWaitList(queue.get(), r == 0 ? 1 : 0, r == 0 ? &gate : nullptr, &before), "marker");
            if (pass == 0) fast_path.enqueue(buffer.get(), Direction::forward, false);
            else check(clEnqueueCopyBuffer(queue.get(), buffer.get(), second.get(), 0, 0, data.size() * sizeof(Complex), 0, nullptr, nullptr), "copy");
            check(clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, &after), "marker");
            if (pass == 0) fast_path.enqueue(buffer.get(), Direction::inverse, false);
            marks.push_back(before);
            marks.push_back(after);
          }
          check(clSetUserEventStatus(gate, CL_COMPLETE), "clSetUserEventStatus");
          check(clFinish(queue.get()), "clFinish");
          for (int r = 20; r < runs + 20; ++r) {
            cl_ulong begin_ns = 0, end_ns = 0;
            check(clGetEventProfilingInfo(marks[2 * r], CL_PROFILING_COMMAND_END, sizeof begin_ns, &begin_ns, nullptr), "end");
            check(clGetEventProfilingInfo(marks[2 * r + 1], CL_PROFILING_COMMAND_END, sizeof end_ns, &end_ns, nullptr), "end");
            (pass == 0 ? held_ms : held_copy_ms).push_back(static_cast<double>(end_ns - begin_ns) * 1e-6);
          }
          for (cl_event e : marks) clReleaseEvent(e);
          clReleaseEvent(gate);
        }
      }
      std::printf("  held queue: span %.1f us, copy %.1f us\n", median(held_ms) * 1e3, median(held_copy_ms) * 1e3);
      const double bytes = 2.0 * static_cast<double>(w * h * sizeof(Complex));
      const double rm = rows_ms.empty() ? 0 : median(rows_ms), cm = cols_ms.empty() ? 0 : median(cols_ms);
      std::printf("%-11s %10.1f %10.1f %10.1f %9.0f %9.0f %11.2e  wall %.1f us/transform, span %.1f us\n",
                  (std::to_string(w) + "x" + std::to_string(h)).c_str(), rm * 1e3, cm * 1e3, median(total_ms) * 1e3,
                  rm > 0 ? bytes / (rm * 1e6) : 0, cm > 0 ? bytes / (cm * 1e6) : 0, error, wall_us,
                  median(span_ms) * 1e3);
      if (passes.size() > 2)  // a Bluestein or four-step axis: each pass on its own
        for (auto& [name, ms] : passes) std::printf("  pass %-44s %10.1f us\n", name.c_str(), median(ms) * 1e3);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fast_probe_cl: %s\n", e.what());
    return 1;
  }
  return 0;
}
