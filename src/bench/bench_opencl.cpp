#include "bench/bench_opencl.h"

namespace fftscope::bench::detail {

ClSession::ClSession(const std::string& selector) : device(cl_detail::choose_device(selector)) {
  cl_int err = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device.platform), 0};
  context = cl_detail::Context(clCreateContext(props, 1, &device.device, nullptr, nullptr, &err));
  cl_detail::check(err, "clCreateContext");
  queue = cl_detail::Queue(clCreateCommandQueue(context.get(), device.device, CL_QUEUE_PROFILING_ENABLE, &err));
  cl_detail::check(err, "clCreateCommandQueue");
  device_name = device.platform_name + " / " + device.name;
}

std::vector<double> ClSession::time_runs(int warmup, int repeats, cl_mem pristine, cl_mem work, std::size_t bytes,
                                         const std::function<void()>& enqueue) {
  std::vector<cl_detail::Event> markers;
  for (int i = 0; i < warmup + repeats; ++i) {
    cl_detail::check(clEnqueueCopyBuffer(queue.get(), pristine, work, 0, 0, bytes, 0, nullptr, nullptr),
                     "clEnqueueCopyBuffer");
    for (int side = 0; side < 2; ++side) {
      if (side == 1) enqueue();
      cl_event marker = nullptr;
      cl_detail::check(clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, &marker), "clEnqueueMarkerWithWaitList");
      markers.emplace_back(marker);
    }
  }
  cl_detail::check(clFinish(queue.get()), "clFinish");
  std::vector<double> us;
  for (int i = warmup; i < warmup + repeats; ++i) {
    cl_ulong t0 = 0, t1 = 0;
    cl_detail::check(clGetEventProfilingInfo(markers[2 * i].get(), CL_PROFILING_COMMAND_END, sizeof t0, &t0, nullptr),
                     "clGetEventProfilingInfo");
    cl_detail::check(clGetEventProfilingInfo(markers[2 * i + 1].get(), CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr),
                     "clGetEventProfilingInfo");
    us.push_back(static_cast<double>(t1 - t0) * 1e-3);
  }
  return us;
}

cl_detail::Mem ClSession::make_buffer(std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_detail::Mem mem(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err));
  cl_detail::check(err, "clCreateBuffer");
  return mem;
}

}  // namespace fftscope::bench::detail
