#include "backend/cl/cl_fast_path.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/errors.h"

namespace fftscope::cl_detail {

std::string fast_build_options(const fast::AxisPlan& plan, const std::string& extra) {
  std::string options;
  for (const auto& [name, value] : plan.defines()) options += " -D " + name + "=" + value;
  options += extra;
  if (const char* env = std::getenv("FFTSCOPE_CL_FAST_OPTIONS")) options += std::string(" ") + env;
  return options;
}

namespace {
std::string mode_option(const char* mode) { return std::string(" -D ") + mode + "=1"; }
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
      limits_(fast_limits(device)),
      max_alloc_(device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE)) {}

std::optional<fast::ImageRoutes> ClFastPath::routes(std::size_t width, std::size_t height) const {
  auto routes = fast::route_image(width, height, limits_, tuning_);
  if (routes && max_alloc_ != 0 && routes->scratch_elements() * sizeof(Complex) > max_alloc_) return std::nullopt;
  return routes;
}

bool ClFastPath::supports(std::size_t width, std::size_t height) const { return routes(width, height).has_value(); }

Mem ClFastPath::upload_table(const std::vector<Complex>& table, const char* what) {
  cl_int err = CL_SUCCESS;
  Mem mem(clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, table.size() * sizeof(Complex),
                         const_cast<Complex*>(table.data()), &err));
  check(err, what);
  extra_bytes_ += table.size() * sizeof(Complex);
  return mem;
}

std::size_t ClFastPath::build_kernels(AxisState& state) {
  const fast::AxisRoute& route = state.route;
  const fast::AxisPlan& plan = route.plan;
  if (route.four_step()) {
    state.kernel =
        programs_.kernel({"fast_fft.cl", fast_build_options(plan, mode_option(fast::four_step_a))}, "fast_fft");
    state.kernel_out =
        programs_.kernel({"fast_fft.cl", fast_build_options(*route.second, mode_option(fast::four_step_b))}, "fast_fft");
  } else {
    const bool bluestein = route.bluestein();
    state.kernel = programs_.kernel(
        {"fast_fft.cl", fast_build_options(plan, bluestein ? mode_option(fast::bluestein_in) : "")}, "fast_fft");
    state.kernel_out =
        bluestein ? programs_.kernel({"fast_fft.cl", fast_build_options(plan, mode_option(fast::bluestein_out))}, "fast_fft")
                  : nullptr;
  }
  std::size_t fewest = 0;
  for (cl_kernel k : {state.kernel, state.kernel_out}) {
    if (!k) continue;
    std::size_t kernel_max = 0;
    check(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max, nullptr),
          "clGetKernelWorkGroupInfo");
    fewest = fewest == 0 ? kernel_max : std::min(fewest, kernel_max);
  }
  return fewest;
}

ClFastPath::AxisState ClFastPath::make_axis(const fast::AxisRoute& route, std::size_t lines) {
  AxisState state;
  state.route = route;
  const fast::AxisPlan& plan = route.plan;
  if (plan.radices.empty()) return state;  // length 1: nothing to do
  // The compiler may allow fewer work-items per group than planned (NVIDIA: a kernel using
  // more than 128 registers runs at most 256).
  const auto most_threads = [](const fast::AxisRoute& r) {
    return std::max(r.plan.threads, r.four_step() ? r.second->threads : 0u);
  };
  std::size_t kernel_max = build_kernels(state);
  if (kernel_max < most_threads(route)) {
    // Plan again within what this kernel allows, once; a second refusal is an error (the
    // backend then runs the fused pipeline).
    if (std::getenv("FFTSCOPE_CL_FAST_OPTIONS"))
      std::fprintf(stderr, "OpenCL fast path: %s: the compiled kernel allows %zu work-items; planning again\n",
                   route.describe().c_str(), kernel_max);
    fast::Tuning smaller = tuning_;
    smaller.max_threads = static_cast<std::uint32_t>(kernel_max / 32 * 32);
    const auto n = static_cast<std::uint32_t>(lines);
    std::optional<fast::AxisRoute> again;
    if (smaller.max_threads >= 32) {
      if (route.four_step()) {
        again = fast::plan_four_step(route.n, n, limits_, smaller);
      } else if (auto p = route.bluestein() ? fast::plan_bluestein_axis(plan.axis, route.n, plan.n, n, limits_, smaller)
                                            : fast::plan_axis(plan.axis, plan.n, n, limits_, smaller)) {
        again = route;
        again->plan = *p;
      }
    }
    if (!again || most_threads(*again) > kernel_max)
      throw BackendError("OpenCL fast path: " + route.describe() + " needs " + std::to_string(most_threads(route)) +
                         " work-items per group, the compiled kernel allows " + std::to_string(kernel_max));
    state.route = *again;
    kernel_max = build_kernels(state);
    if (kernel_max < most_threads(*again))
      throw BackendError("OpenCL fast path: " + state.route.describe() + " needs " +
                         std::to_string(most_threads(*again)) + " work-items per group, the compiled kernel allows " +
                         std::to_string(kernel_max));
  }
  state.twiddles = upload_table(fast::twiddle_table(state.route.plan.n), "clCreateBuffer(fast twiddles)");
  if (state.route.four_step()) {
    state.second_twiddles = upload_table(fast::twiddle_table(state.route.second->n), "clCreateBuffer(fast twiddles)");
    state.outer_twiddles = upload_table(fast::twiddle_table(route.n), "clCreateBuffer(fast four-step twiddles)");
  }
  if (route.bluestein()) {
    const fast::BluesteinFloatTables tables = fast::bluestein_tables(route.n, route.l);
    state.chirp = upload_table(tables.chirp, "clCreateBuffer(fast Bluestein chirp)");
    state.filter = upload_table(tables.filter, "clCreateBuffer(fast Bluestein filter)");
  }
  return state;
}

void ClFastPath::prepare(std::size_t width, std::size_t height) {
  if (row_state_ && col_state_ && width == width_ && height == height_) return;
  row_state_.reset();
  col_state_.reset();
  scratch_.reset();
  extra_bytes_ = 0;
  width_ = height_ = 0;
  const auto image = routes(width, height);
  if (!image)
    throw BackendError("OpenCL fast path: " + std::to_string(width) + "x" + std::to_string(height) +
                       " is not supported (no layout fits local memory, or over 32-bit indices or the largest "
                       "allocation)");
  auto row_state = make_axis(image->rows, height);
  auto col_state = make_axis(image->cols, width);
  const std::uint64_t scratch = image->scratch_elements();
  if (scratch > 0) {
    cl_int err = CL_SUCCESS;
    scratch_ = Mem(clCreateBuffer(context_, CL_MEM_READ_WRITE, scratch * sizeof(Complex), nullptr, &err));
    check(err, "clCreateBuffer(fast scratch)");
    extra_bytes_ += scratch * sizeof(Complex);
  }
  row_state_ = std::move(row_state);
  col_state_ = std::move(col_state);
  width_ = width;
  height_ = height;
}

namespace {
// Groups over two dimensions where one would pass 65535 (some drivers' limit for dim 0 / GL's;
// harmless elsewhere).
std::array<std::size_t, 2> group_grid(std::uint64_t groups) {
  const std::uint64_t gx = groups <= 65535 ? groups : 65535;
  return {static_cast<std::size_t>(gx), static_cast<std::size_t>((groups + gx - 1) / gx)};
}
template <typename T>
void set_arg(cl_kernel k, cl_uint index, const T& value) {
  check(clSetKernelArg(k, index, sizeof(T), &value), "clSetKernelArg(fast)");
}
}  // namespace

void ClFastPath::enqueue_fft(const AxisState& axis, const fast::AxisPass& pass, cl_mem image,
                             std::vector<FastDispatch>& out) {
  const fast::AxisPlan& p = fast::pass_plan(axis.route, pass);
  cl_kernel kernel = pass.second ? axis.kernel_out : axis.kernel;
  const auto lines = static_cast<cl_uint>(pass.lines);
  cl_mem tw = pass.second && axis.route.four_step() ? axis.second_twiddles.get() : axis.twiddles.get();
  set_arg(kernel, 0, pass.on_scratch ? scratch_.get() : image);
  set_arg(kernel, 1, tw);
  set_arg(kernel, 2, lines);
  set_arg(kernel, 3, static_cast<cl_uint>(pass.in_pitch));
  set_arg(kernel, 4, cl_float{pass.conj_sign});
  set_arg(kernel, 5, cl_float{pass.scale});

  const auto [gx, gy] = group_grid(p.groups(lines));
  const std::size_t global[2] = {gx * p.threads, gy};
  const std::size_t local[2] = {p.threads, 1};
  cl_event ev = nullptr;
  check(clEnqueueNDRangeKernel(queue_, kernel, 2, nullptr, global, local, 0, nullptr, &ev),
        ("clEnqueueNDRangeKernel(" + pass.name + ")").c_str());
  FastDispatch d{Event(ev), {}};
  d.record.kernel = pass.name;
  d.record.axis = p.axis;
  d.record.stage = -1;
  d.record.radix = 0;
  d.record.global_size = {static_cast<std::uint32_t>(global[0]), static_cast<std::uint32_t>(global[1]), 1};
  d.record.bytes = pass.bytes;
  d.record.note = axis.route.describe();
  out.push_back(std::move(d));
}

void ClFastPath::enqueue_axis(AxisState& axis, cl_mem data, Direction direction, std::vector<FastDispatch>& out) {
  const fast::AxisRoute& route = axis.route;
  if (!axis.kernel) return;
  const std::uint64_t lines = route.plan.axis == Axis::rows ? height_ : width_;
  const auto passes = fast::axis_passes(route, lines, direction);
  // Argument 6 onwards: Bluestein's image, chirp, filter and n; four-step's output buffer (the
  // one the pass does not work on), pitches, blocks and the column's twiddles.
  for (const fast::AxisPass& pass : passes) {
    cl_kernel k = pass.second ? axis.kernel_out : axis.kernel;
    if (route.four_step()) {
      set_arg(k, 6, pass.on_scratch ? data : scratch_.get());
      set_arg(k, 7, static_cast<cl_uint>(pass.out_pitch));
      set_arg(k, 8, static_cast<cl_uint>(pass.block_lines));
      set_arg(k, 9, static_cast<cl_uint>(pass.block_shift));
      set_arg(k, 10, axis.outer_twiddles.get());
    } else if (route.bluestein()) {
      set_arg(k, 6, data);
      set_arg(k, 7, axis.chirp.get());
      set_arg(k, 8, axis.filter.get());
      set_arg(k, 9, static_cast<cl_uint>(route.n));
    }
    enqueue_fft(axis, pass, data, out);
  }
}

std::vector<FastDispatch> ClFastPath::enqueue(cl_mem data, Direction direction) {
  if (!row_state_ || !col_state_) throw BackendError("OpenCL fast path: enqueue() before prepare()");
  std::vector<FastDispatch> out;
  enqueue_axis(*row_state_, data, direction, out);
  enqueue_axis(*col_state_, data, direction, out);
  return out;
}

}  // namespace fftscope::cl_detail
