#include "backend/cl/cl_fast_path.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/errors.h"

namespace fftscope::cl_detail {
namespace {

std::string define_options(const fast::AxisPlan& plan) {
  std::string options;
  for (const auto& [name, value] : plan.defines()) options += " -D " + name + "=" + value;
  // Extra build options for measurements, e.g. "-cl-nv-verbose" (ptxas register report).
  if (const char* extra = std::getenv("FFTSCOPE_CL_FAST_OPTIONS")) options += std::string(" ") + extra;
  return options;
}

}  // namespace

fast::DeviceLimits fast_limits(cl_device_id device) {
  fast::DeviceLimits limits;
  limits.local_bytes = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  limits.max_threads = static_cast<std::uint32_t>(device_value<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  limits.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  return limits;
}

ClFastPath::ClFastPath(cl_context context, cl_device_id device, cl_command_queue queue, ProgramCache& programs,
                       fast::Tuning tuning)
    : context_(context),
      device_(device),
      queue_(queue),
      programs_(programs),
      tuning_(tuning),
      limits_(fast_limits(device)) {}

std::optional<fast::AxisPlan> ClFastPath::plan_for(Axis axis, std::size_t n, std::size_t lines) const {
  if (n == 0 || lines == 0 || n > (1u << 30) || lines > (1u << 30)) return std::nullopt;
  return fast::plan_axis(axis, static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(lines), limits_, tuning_);
}

bool ClFastPath::supports(std::size_t width, std::size_t height) const {
  // 32-bit indices in the kernel.
  if (width * height >= (std::size_t{1} << 31)) return false;
  return plan_for(Axis::rows, width, height).has_value() && plan_for(Axis::cols, height, width).has_value();
}

ClFastPath::AxisState ClFastPath::make_axis(const fast::AxisPlan& plan, std::size_t lines) {
  AxisState state;
  state.plan = plan;
  if (plan.radices.empty()) return state;  // length 1: nothing to do
  state.kernel = programs_.kernel({"fast_fft.cl", define_options(plan)}, "fast_fft");
  // The compiler may allow fewer work-items per group than planned (NVIDIA: a kernel using
  // more than 128 registers runs at most 256).
  std::size_t kernel_max = 0;
  check(clGetKernelWorkGroupInfo(state.kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max,
                                 nullptr),
        "clGetKernelWorkGroupInfo");
  if (kernel_max < plan.threads) {
    // Plan again within what this kernel allows, once; a second refusal is an error (the
    // backend then runs the fused pipeline).
    if (std::getenv("FFTSCOPE_CL_FAST_OPTIONS"))
      std::fprintf(stderr, "OpenCL fast path: %s: the compiled kernel allows %zu work-items; planning again\n",
                   plan.describe().c_str(), kernel_max);
    fast::Tuning smaller = tuning_;
    smaller.max_threads = static_cast<std::uint32_t>(kernel_max / 32 * 32);
    const auto again = smaller.max_threads >= 32
                           ? fast::plan_axis(plan.axis, plan.n, static_cast<std::uint32_t>(lines), limits_, smaller)
                           : std::nullopt;
    if (!again || again->threads > kernel_max)
      throw BackendError("OpenCL fast path: " + plan.describe() + " needs " + std::to_string(plan.threads) +
                         " work-items per group, the compiled kernel allows " + std::to_string(kernel_max));
    state.plan = *again;
    state.kernel = programs_.kernel({"fast_fft.cl", define_options(*again)}, "fast_fft");
    check(clGetKernelWorkGroupInfo(state.kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max,
                                   nullptr),
          "clGetKernelWorkGroupInfo");
    if (kernel_max < again->threads)
      throw BackendError("OpenCL fast path: " + again->describe() + " needs " + std::to_string(again->threads) +
                         " work-items per group, the compiled kernel allows " + std::to_string(kernel_max));
  }
  const std::vector<Complex> table = fast::twiddle_table(plan.n);
  cl_int err = CL_SUCCESS;
  state.twiddles = Mem(clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, table.size() * sizeof(Complex),
                                      const_cast<Complex*>(table.data()), &err));
  check(err, "clCreateBuffer(fast twiddles)");
  return state;
}

void ClFastPath::prepare(std::size_t width, std::size_t height) {
  if (row_state_ && col_state_ && width == width_ && height == height_) return;
  row_state_.reset();
  col_state_.reset();
  rows_ = plan_for(Axis::rows, width, height);
  cols_ = plan_for(Axis::cols, height, width);
  if (!rows_ || !cols_ || !supports(width, height))
    throw BackendError("OpenCL fast path: " + std::to_string(width) + "x" + std::to_string(height) +
                       " is not supported (a prime factor above 13, or no layout fits local memory)");
  row_state_ = make_axis(*rows_, height);
  col_state_ = make_axis(*cols_, width);
  rows_ = row_state_->plan;
  cols_ = col_state_->plan;
  width_ = width;
  height_ = height;
}

void ClFastPath::enqueue_axis(AxisState& axis, cl_mem data, Direction direction, std::vector<FastDispatch>& out) {
  const fast::AxisPlan& p = axis.plan;
  if (!axis.kernel) return;
  const cl_uint lines = static_cast<cl_uint>(p.axis == Axis::rows ? height_ : width_);
  const cl_uint row_pitch = static_cast<cl_uint>(width_);
  const cl_float conj_sign = direction == Direction::forward ? 1.0f : -1.0f;
  const cl_float scale = direction == Direction::forward ? 1.0f : static_cast<cl_float>(1.0 / p.n);
  cl_mem tw = axis.twiddles.get();
  check(clSetKernelArg(axis.kernel, 0, sizeof(cl_mem), &data), "clSetKernelArg(fast data)");
  check(clSetKernelArg(axis.kernel, 1, sizeof(cl_mem), &tw), "clSetKernelArg(fast twiddles)");
  check(clSetKernelArg(axis.kernel, 2, sizeof(cl_uint), &lines), "clSetKernelArg(fast lines)");
  check(clSetKernelArg(axis.kernel, 3, sizeof(cl_uint), &row_pitch), "clSetKernelArg(fast row_pitch)");
  check(clSetKernelArg(axis.kernel, 4, sizeof(cl_float), &conj_sign), "clSetKernelArg(fast conj_sign)");
  check(clSetKernelArg(axis.kernel, 5, sizeof(cl_float), &scale), "clSetKernelArg(fast scale)");

  // Groups over two dimensions where one would pass 65535 (some drivers' limit for dim 0 /
  // GL's; harmless elsewhere).
  const std::uint64_t groups = p.groups(lines);
  const std::uint64_t gx = groups <= 65535 ? groups : 65535;
  const std::uint64_t gy = (groups + gx - 1) / gx;
  const std::size_t global[2] = {static_cast<std::size_t>(gx * p.threads), static_cast<std::size_t>(gy)};
  const std::size_t local[2] = {p.threads, 1};
  cl_event ev = nullptr;
  const std::string name = p.axis == Axis::rows ? "fast_rows" : "fast_cols";
  check(clEnqueueNDRangeKernel(queue_, axis.kernel, 2, nullptr, global, local, 0, nullptr, &ev),
        ("clEnqueueNDRangeKernel(" + name + ")").c_str());
  FastDispatch d{Event(ev), {}};
  d.record.kernel = name;
  d.record.axis = p.axis;
  d.record.stage = -1;
  d.record.radix = 0;
  d.record.global_size = {static_cast<std::uint32_t>(global[0]), static_cast<std::uint32_t>(global[1]), 1};
  d.record.bytes = std::uint64_t{width_} * height_ * sizeof(Complex) * 2;
  d.record.note = p.describe();
  out.push_back(std::move(d));
}

std::vector<FastDispatch> ClFastPath::enqueue(cl_mem data, Direction direction) {
  if (!row_state_ || !col_state_) throw BackendError("OpenCL fast path: enqueue() before prepare()");
  std::vector<FastDispatch> out;
  enqueue_axis(*row_state_, data, direction, out);
  enqueue_axis(*col_state_, data, direction, out);
  return out;
}

}  // namespace fftscope::cl_detail
