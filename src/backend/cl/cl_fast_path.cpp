#include "backend/cl/cl_fast_path.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/errors.h"
#include "core/plan_wisdom.h"

namespace fftscope::cl_detail {

namespace {
std::string fast_build_options(const fast::AxisPlan& plan, const std::string& extra) {
  std::string options;
  for (const auto& [name, value] : plan.defines()) options += " -D " + name + "=" + value;
  options += extra;
  if (const char* env = std::getenv("FFTSCOPE_CL_FAST_OPTIONS")) options += std::string(" ") + env;
  return options;
}

std::string mode_option(const char* mode) { return std::string(" -D ") + mode + "=1"; }
}  // namespace

namespace {
double summed_event_ms(const std::vector<FastDispatch>& dispatches) {
  double sum = 0;
  for (const FastDispatch& d : dispatches) sum += event_milliseconds(d.event.get());
  return sum;
}
}  // namespace

Warming warm_until_steady(cl_command_queue queue, cl_device_id device, const PlanningWork& work) {
  constexpr int kBatch = 16;
  const bool gpu = (device_value<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0;
  return fftscope::warm_until_steady(
      [&] {
        std::vector<std::vector<FastDispatch>> runs;
        for (int i = 0; i < kBatch; ++i) runs.push_back(work());
        check(clFinish(queue), "clFinish(fast planning warm-up)");
        std::vector<double> ms;
        for (const auto& run : runs) ms.push_back(summed_event_ms(run));
        return median(std::move(ms));
      },
      gpu ? 1000 : 0, 5000, 0.03);
}

PairedTimes paired_event_ms(cl_command_queue queue, const PlanningWork& base, const PlanningWork& candidate,
                            int pairs) {
  const PlanningWork* works[2] = {&base, &candidate};
  PairedTimes out;
  if (pairs < 1) return out;
  run_untimed_pairs([&] {
    base();
    candidate();
    check(clFinish(queue), "clFinish(fast planning)");
  });
  std::vector<double> ms[2];
  for (int pair = 0; pair < pairs; ++pair) {
    std::vector<FastDispatch> runs[2];
    for (int k = 0; k < 2; ++k) {
      const int which = (pair + k) % 2;  // base first in even pairs, the candidate first in odd ones
      runs[which] = (*works[which])();
    }
    check(clFinish(queue), "clFinish(fast planning)");
    for (int which = 0; which < 2; ++which) ms[which].push_back(summed_event_ms(runs[which]));
  }
  out.base_ms = median(std::move(ms[0]));
  out.candidate_ms = median(std::move(ms[1]));
  return out;
}

ProgramKey fast_program_key(const fast::AxisPlan& plan, const std::string& extra) {
  return {"fast_fft.cl", fast_build_options(plan, extra), plan.max_registers};
}

fast::DeviceLimits fast_limits(cl_device_id device) {
  fast::DeviceLimits limits;
  limits.local_bytes = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  limits.max_threads = static_cast<std::uint32_t>(device_value<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  limits.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  // The register file a group may fill, where the program binary is PTX and can be bounded.
  constexpr cl_device_info registers_per_block_nv = 0x4002;  // cl_nv_device_attribute_query
  cl_uint registers = 0;
  if (has_extension(device, "cl_nv_device_attribute_query") &&
      clGetDeviceInfo(device, registers_per_block_nv, sizeof registers, &registers, nullptr) == CL_SUCCESS)
    limits.unit_registers = registers;
  return limits;
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

ClFastAxis::ClFastAxis(const ClDeviceQueue& device, const fast::AxisRoute& route, std::uint64_t lines,
                       const fast::Tuning& tuning, const fast::DeviceLimits& limits, fast::PassLayout layout,
                       std::string name)
    : device_(device), route_(route), lines_(lines), layout_(layout) {
  if (route_.swap) throw std::logic_error("ClFastAxis: the OpenCL kernel has no row pairs (fast::cl_tuning)");
  if (route_.plan.radices.empty()) return;  // length 1: nothing to do
  // The compiler may allow fewer work-items per group than planned (NVIDIA: a kernel using
  // more than 128 registers runs at most 256).
  const auto most_threads = [](const fast::AxisRoute& r) {
    return std::max(r.plan.threads, r.four_step() ? r.second->threads : 0u);
  };
  std::size_t kernel_max = build_kernels();
  if (kernel_max < most_threads(route_)) {
    // Plan again within what this kernel allows, once; a second refusal is an error (the
    // backend then runs the fused pipeline).
    if (std::getenv("FFTSCOPE_CL_FAST_OPTIONS"))
      std::fprintf(stderr, "OpenCL fast path: %s: the compiled kernel allows %zu work-items; planning again\n",
                   route_.describe().c_str(), kernel_max);
    fast::Tuning smaller = tuning;
    smaller.max_threads = static_cast<std::uint32_t>(kernel_max / 32 * 32);
    const auto n = static_cast<std::uint32_t>(lines);
    const fast::AxisPlan& plan = route_.plan;
    std::optional<fast::AxisRoute> again;
    if (smaller.max_threads >= 32) {
      if (route_.four_step()) {
        again = fast::plan_four_step(route_.n, n, limits, smaller);
        // route_axis's unsplit columns: groups that divide the width, 32 columns or more.
        if (!again) again = fast::plan_four_step(route_.n, n, limits, smaller, 32);
      } else if (auto p = route_.bluestein() ? fast::plan_bluestein_axis(plan.axis, route_.n, plan.n, n, limits, smaller)
                                             : fast::plan_axis(plan.axis, plan.n, n, limits, smaller)) {
        again = route_;
        again->plan = *p;
      }
    }
    if (!again || most_threads(*again) > kernel_max)
      throw BackendError("OpenCL fast path: " + route_.describe() + " needs " + std::to_string(most_threads(route_)) +
                         " work-items per group, the compiled kernel allows " + std::to_string(kernel_max));
    route_ = *again;
    kernel_max = build_kernels();
    if (kernel_max < most_threads(route_))
      throw BackendError("OpenCL fast path: " + route_.describe() + " needs " + std::to_string(most_threads(route_)) +
                         " work-items per group, the compiled kernel allows " + std::to_string(kernel_max));
  }
  twiddles_ = upload_table(fast::twiddle_table(route_.plan.n), "clCreateBuffer(fast twiddles)");
  if (route_.four_step()) {
    second_twiddles_ = upload_table(fast::twiddle_table(route_.second->n), "clCreateBuffer(fast twiddles)");
    outer_twiddles_ = upload_table(fast::twiddle_table(route_.n), "clCreateBuffer(fast four-step twiddles)");
  }
  if (route_.bluestein()) {
    const fast::BluesteinFloatTables tables = fast::bluestein_tables(route_.n, route_.l);
    chirp_ = upload_table(tables.chirp, "clCreateBuffer(fast Bluestein chirp)");
    filter_ = upload_table(tables.filter, "clCreateBuffer(fast Bluestein filter)");
  }
  forward_passes_ = fast::layout_passes(route_, lines_, Direction::forward, layout_, name);
  inverse_passes_ = fast::layout_passes(route_, lines_, Direction::inverse, layout_, std::move(name));
  description_ = route_.describe();
  if (layout_ == fast::PassLayout::both_axes) {
    description_ = "rows then columns in one dispatch, each as " + description_;
    const cl_uint zero[3] = {0, 0, 0};
    cl_int err = CL_SUCCESS;
    fused_sync_ = Mem(clCreateBuffer(device_.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero,
                                     const_cast<cl_uint*>(zero), &err));
    check(err, "clCreateBuffer(fast fused counters)");
  }
}

Mem ClFastAxis::upload_table(const std::vector<Complex>& table, const char* what) {
  cl_int err = CL_SUCCESS;
  Mem mem(clCreateBuffer(device_.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, table.size() * sizeof(Complex),
                         const_cast<Complex*>(table.data()), &err));
  check(err, what);
  table_bytes_ += table.size() * sizeof(Complex);
  return mem;
}

std::size_t ClFastAxis::build_kernels() {
  // The kernels of the passes (their modes are the same in both directions).
  kernel_ = kernel_out_ = nullptr;
  for (const fast::AxisPass& pass : fast::layout_passes(route_, lines_, Direction::forward, layout_)) {
    std::string options = pass.mode ? mode_option(pass.mode) : "";
    for (const auto& [name, value] : pass.defines) options += " -D " + name + "=" + value;
    cl_kernel k = device_.programs->kernel(fast_program_key(fast::pass_plan(route_, pass), options), "fast_fft");
    (pass.second ? kernel_out_ : kernel_) = k;
  }
  std::size_t fewest = 0;
  for (cl_kernel k : {kernel_, kernel_out_}) {
    if (!k) continue;
    std::size_t kernel_max = 0;
    check(clGetKernelWorkGroupInfo(k, device_.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max,
                                   nullptr),
          "clGetKernelWorkGroupInfo");
    fewest = fewest == 0 ? kernel_max : std::min(fewest, kernel_max);
  }
  return fewest;
}

void ClFastAxis::enqueue_pass(const fast::AxisPass& pass, cl_mem data, std::vector<FastDispatch>& out,
                              bool events) const {
  const fast::AxisPlan& p = fast::pass_plan(route_, pass);
  cl_kernel kernel = pass.second ? kernel_out_ : kernel_;
  const auto lines = static_cast<cl_uint>(pass.lines);
  set_arg(kernel, 0, data);
  set_arg(kernel, 1, pass.second && route_.four_step() ? second_twiddles_.get() : twiddles_.get());
  set_arg(kernel, 2, lines);
  set_arg(kernel, 3, static_cast<cl_uint>(pass.in_pitch));
  set_arg(kernel, 4, cl_float{pass.conj_sign});
  set_arg(kernel, 5, cl_float{pass.scale});

  const auto [gx, gy] = group_grid(p.groups(lines) * pass.phases);
  const std::size_t global[2] = {gx * p.threads, gy};
  const std::size_t local[2] = {p.threads, 1};
  cl_event ev = nullptr;
  check(clEnqueueNDRangeKernel(device_.queue, kernel, 2, nullptr, global, local, 0, nullptr, events ? &ev : nullptr),
        ("clEnqueueNDRangeKernel(" + pass.name + ")").c_str());
  FastDispatch d{Event(ev), {}};
  d.record.kernel = pass.name;
  d.record.axis = p.axis;
  d.record.stage = -1;
  d.record.radix = 0;
  d.record.global_size = {static_cast<std::uint32_t>(global[0]), static_cast<std::uint32_t>(global[1]), 1};
  d.record.bytes = pass.bytes;
  d.record.note = description_;
  out.push_back(std::move(d));
}

void ClFastAxis::enqueue(cl_mem image, cl_mem output, cl_mem scratch, Direction direction,
                         std::vector<FastDispatch>& out, bool events) const {
  if (!kernel_) return;
  // Argument 6 onwards: the output buffer of a direct pass out of place; Bluestein's image,
  // chirp, filter and n; four-step's output buffer (A: the scratch, B: the output), pitches,
  // blocks and the column's twiddles.
  for (const fast::AxisPass& pass : direction == Direction::forward ? forward_passes_ : inverse_passes_) {
    cl_kernel k = pass.second ? kernel_out_ : kernel_;
    if (route_.four_step()) {
      set_arg(k, 6, pass.to_scratch ? scratch : output);
      set_arg(k, 7, static_cast<cl_uint>(pass.out_pitch));
      set_arg(k, 8, static_cast<cl_uint>(pass.block_lines));
      set_arg(k, 9, static_cast<cl_uint>(pass.block_shift));
      set_arg(k, 10, outer_twiddles_.get());
    } else if (route_.bluestein()) {
      set_arg(k, 6, pass.image_is_output ? output : image);
      set_arg(k, 7, chirp_.get());
      set_arg(k, 8, filter_.get());
      set_arg(k, 9, static_cast<cl_uint>(route_.n));
    } else if (pass.mode == fast::output_buffer) {
      set_arg(k, 6, pass.to_scratch ? scratch : output);
    } else if (layout_ == fast::PassLayout::both_axes) {
      set_arg(k, 6, fused_sync_.get());
    }
    enqueue_pass(pass, pass.on_scratch ? scratch : image, out, events);
  }
}

ClFastPath::ClFastPath(cl_context context, cl_device_id device, cl_command_queue queue, ProgramCache& programs,
                       fast::Tuning tuning, fast::Measuring measure)
    : device_{context, device, queue, &programs},
      tuning_(fast::cl_tuning(tuning)),
      measure_(fast::cl_measuring(std::move(measure))),
      limits_(fast_limits(device)),
      max_alloc_(device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE)) {}

std::optional<fast::ImageRoutes> ClFastPath::routes(std::size_t width, std::size_t height,
                                                    const fast::Tuning& tuning) const {
  auto routes = fast::route_image(width, height, limits_, tuning);
  if (routes && max_alloc_ != 0 && routes->scratch_elements() * sizeof(Complex) > max_alloc_) return std::nullopt;
  return routes;
}

bool ClFastPath::supports(std::size_t width, std::size_t height) const {
  return routes(width, height, tuning_).has_value();
}

fast::AxisRoute ClFastPath::fastest(Axis axis, std::size_t width, std::size_t height, const fast::AxisRoute& planned) {
  const auto distinct = fast::distinct_axis_routes(axis, planned, tuning_, measure_.candidates,
                                                   [&](const fast::Tuning& t) { return routes(width, height, t); });
  if (distinct.size() == 1) return planned;
  const auto [what, identities] = fast::axis_choice(axis, width, height, distinct);
  const std::string key = PlanWisdom::key(measure_.device, what, identities);
  if (measure_.wisdom)
    if (const auto known = measure_.wisdom->find(key); known && *known < distinct.size()) return distinct[*known].first;

  const fast::PlanningClock clock(what, distinct.size());
  const std::uint64_t lines = axis == Axis::rows ? height : width;
  // Timing needs device memory beside the caller's image; where it cannot be had, the planned
  // route stands (as without measuring). A route that fails to build throws only if it is the
  // planned one, as prepare() would without measuring.
  cl_int err = CL_SUCCESS;
  const std::size_t bytes = width * height * sizeof(Complex);
  Mem data(clCreateBuffer(device_.context, CL_MEM_READ_WRITE, bytes, nullptr, &err));
  const cl_uint zero = 0;
  if (err != CL_SUCCESS ||
      clEnqueueFillBuffer(device_.queue, data.get(), &zero, sizeof zero, 0, bytes, 0, nullptr, nullptr) != CL_SUCCESS)
    return planned;
  // Every route built (the planned one throws as prepare() would without measuring; another that
  // fails is passed over) and run once, all sharing one scratch (they run one after another); the
  // device then kept busy with the planned route until its clocks are steady, and each candidate
  // timed beside it. Where the planned route cannot be run or timed, it stands.
  std::vector<std::optional<ClFastAxis>> axes(distinct.size());
  std::uint64_t scratch_elements = 0;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    try {
      axes[i].emplace(device_, distinct[i].first, lines, *distinct[i].second, limits_);
    } catch (const BackendError&) {
      if (i == 0) throw;
      continue;
    }
    scratch_elements = std::max(scratch_elements, distinct[i].first.scratch_elements(lines));
  }
  Mem scratch;
  if (scratch_elements > 0) {
    scratch = Mem(clCreateBuffer(device_.context, CL_MEM_READ_WRITE, scratch_elements * sizeof(Complex), nullptr, &err));
    if (err != CL_SUCCESS) return planned;
  }
  const auto work = [&](std::size_t i) -> PlanningWork {
    return [&, i] {
      std::vector<FastDispatch> dispatches;
      axes[i]->enqueue(data.get(), data.get(), scratch.get(), Direction::forward, dispatches, true);
      return dispatches;
    };
  };
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (!axes[i]) continue;
    try {
      work(i)();
      check(clFinish(device_.queue), "clFinish(fast planning)");
    } catch (const BackendError&) {
      if (i == 0) return planned;
      axes[i].reset();
    }
  }
  std::size_t best_index = 0;
  try {
    fast::FastestBeside choice(what, planned.describe(), warm_until_steady(device_.queue, device_.device, work(0)));
    for (std::size_t i = 1; i < axes.size(); ++i) {
      if (!axes[i]) continue;
      try {
        choice.record(i, paired_event_ms(device_.queue, work(0), work(i)), distinct[i].first.describe());
      } catch (const BackendError&) {
        // this candidate could not be timed: passed over
      }
    }
    best_index = choice.best();
  } catch (const BackendError&) {
    return planned;
  }
  const fast::AxisRoute best = distinct[best_index].first;
  if (measure_.wisdom) measure_.wisdom->remember(key, best_index);
  return best;
}

void ClFastPath::prepare(std::size_t width, std::size_t height) {
  if (cols_ && width == width_ && height == height_) return;
  rows_.reset();
  cols_.reset();
  scratch_.reset();
  extra_bytes_ = 0;
  width_ = height_ = 0;
  auto image = routes(width, height, tuning_);
  if (!image)
    throw BackendError("OpenCL fast path: " + std::to_string(width) + "x" + std::to_string(height) +
                       " is not supported (no layout fits local memory, or over 32-bit indices or the largest "
                       "allocation)");
  if (const auto fused = fast::fused_route(*image, tuning_)) {
    cols_.emplace(device_, *fused, width, tuning_, limits_, fast::PassLayout::both_axes);
    extra_bytes_ = cols_->table_bytes();
  } else {
    if (measure_.enabled()) {
      image->rows = fastest(Axis::rows, width, height, image->rows);
      image->cols = fastest(Axis::cols, width, height, image->cols);
      fast::tile_columns(*image, tuning_);  // each axis was chosen on its own
    }
    ClFastAxis rows(device_, image->rows, height, tuning_, limits_);
    ClFastAxis cols(device_, image->cols, width, tuning_, limits_);
    const std::uint64_t scratch = image->scratch_elements();
    if (scratch > 0) {
      cl_int err = CL_SUCCESS;
      scratch_ = Mem(clCreateBuffer(device_.context, CL_MEM_READ_WRITE, scratch * sizeof(Complex), nullptr, &err));
      check(err, "clCreateBuffer(fast scratch)");
    }
    extra_bytes_ = scratch * sizeof(Complex) + rows.table_bytes() + cols.table_bytes();
    rows_ = std::move(rows);
    cols_ = std::move(cols);
  }
  width_ = width;
  height_ = height;
}

std::vector<FastDispatch> ClFastPath::enqueue(cl_mem data, Direction direction, bool events) {
  if (!cols_) throw BackendError("OpenCL fast path: enqueue() before prepare()");
  std::vector<FastDispatch> out;
  if (rows_) rows_->enqueue(data, data, scratch_.get(), direction, out, events);
  cols_->enqueue(data, data, scratch_.get(), direction, out, events);
  return out;
}

}  // namespace fftscope::cl_detail
