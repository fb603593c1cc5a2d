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

double ClSession::span_us(const std::function<void()>& enqueue) {
  cl_event before = nullptr, after = nullptr;
  cl_detail::check(clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, &before), "clEnqueueMarkerWithWaitList");
  cl_detail::Event before_owner(before);
  enqueue();
  cl_detail::check(clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, &after), "clEnqueueMarkerWithWaitList");
  cl_detail::Event after_owner(after);
  cl_detail::check(clWaitForEvents(1, &after), "clWaitForEvents");
  cl_ulong t0 = 0, t1 = 0;
  cl_detail::check(clGetEventProfilingInfo(before, CL_PROFILING_COMMAND_END, sizeof t0, &t0, nullptr), "profiling");
  cl_detail::check(clGetEventProfilingInfo(after, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr), "profiling");
  return static_cast<double>(t1 - t0) * 1e-3;
}

cl_detail::Mem ClSession::make_buffer(std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_detail::Mem mem(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err));
  cl_detail::check(err, "clCreateBuffer");
  return mem;
}

}  // namespace fftscope::bench::detail
