#include "bench/bench_opencl.h"

#include <algorithm>
#include <cmath>

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

cl_detail::Mem ClSession::make_buffer(std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_detail::Mem mem(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err));
  cl_detail::check(err, "clCreateBuffer");
  return mem;
}

ClLibrary::ClLibrary(BenchSize size, const std::string& selector)
    : session_(selector), size_(size), bytes_(size.width * size.height * sizeof(Complex)) {
  buffer_ = session_.make_buffer(bytes_);
  pristine_ = session_.make_buffer(bytes_);
}

void ClLibrary::upload(const ComplexImage& input) {
  cl_detail::check(clEnqueueWriteBuffer(session_.queue.get(), pristine_.get(), CL_TRUE, 0, bytes_, input.data.data(), 0,
                                        nullptr, nullptr),
                   "clEnqueueWriteBuffer");
}

void ClLibrary::restore() {
  cl_detail::check(
      clEnqueueCopyBuffer(session_.queue.get(), pristine_.get(), buffer_.get(), 0, 0, bytes_, 0, nullptr, nullptr),
      "clEnqueueCopyBuffer");
}

std::vector<double> ClLibrary::time_runs(int warmup, int repeats) {
  const cl_command_queue queue = session_.queue.get();
  std::vector<cl_detail::Event> markers;
  for (int i = 0; i < warmup + repeats; ++i) {
    restore();
    for (int side = 0; side < 2; ++side) {
      if (side == 1) enqueue_forward();
      cl_event marker = nullptr;
      cl_detail::check(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker), "clEnqueueMarkerWithWaitList");
      markers.emplace_back(marker);
    }
  }
  cl_detail::check(clFinish(queue), "clFinish");
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

ComplexImage ClLibrary::run_and_read(cl_mem output) {
  restore();
  enqueue_forward();
  ComplexImage out(size_.width, size_.height);
  cl_detail::check(
      clEnqueueReadBuffer(session_.queue.get(), output, CL_TRUE, 0, bytes_, out.data.data(), 0, nullptr, nullptr),
      "clEnqueueReadBuffer");
  return out;
}

ComplexImage ClLibrary::result() { return run_and_read(buffer_.get()); }

namespace {

// The copy-bandwidth reference: clEnqueueCopyBuffer of the array into a second buffer (one read
// and one write, what each axis pass of a one-pass-per-axis FFT moves), timed as the libraries.
class ClCopy final : public ClLibrary {
 public:
  ClCopy(BenchSize size, const std::string& selector) : ClLibrary(size, selector) {
    target_ = session_.make_buffer(bytes_);
  }
  // The copy checks itself: the largest difference from the input, relative to its largest value
  // (0 for a true copy).
  std::optional<double> self_check(const ComplexImage& input) override {
    const ComplexImage out = run_and_read(target_.get());
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < input.data.size(); ++i) {
      worst = std::max<double>(worst, std::abs(out.data[i] - input.data[i]));
      scale = std::max<double>(scale, std::abs(input.data[i]));
    }
    return scale > 0 ? worst / scale : worst;
  }

 private:
  void enqueue_forward() override {
    cl_detail::check(
        clEnqueueCopyBuffer(session_.queue.get(), buffer_.get(), target_.get(), 0, 0, bytes_, 0, nullptr, nullptr),
        "clEnqueueCopyBuffer");
  }
  cl_detail::Mem target_;
};

}  // namespace

std::unique_ptr<Implementation> make_cl_copy(BenchSize size, const std::string& cl_device) {
  return std::make_unique<ClCopy>(size, cl_device);
}

}  // namespace fftscope::bench::detail
