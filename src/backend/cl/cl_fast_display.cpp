#include "backend/cl/cl_fast_display.h"

#include <algorithm>
#include <climits>
#include <optional>
#include <string>

#include "core/errors.h"
#include "core/plan_wisdom.h"

namespace fftscope::cl_detail {
namespace {

Mem make_buffer(cl_context context, cl_mem_flags flags, std::size_t bytes, const void* host = nullptr) {
  cl_int err = CL_SUCCESS;
  Mem m(clCreateBuffer(context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes, const_cast<void*>(host), &err));
  check(err, "clCreateBuffer(fast display)");
  return m;
}

Mem twiddle_buffer(cl_context context, std::uint32_t n, std::size_t count) {
  std::vector<Complex> table = fast::twiddle_table(n);
  table.resize(count);
  return make_buffer(context, CL_MEM_READ_ONLY, table.size() * sizeof(Complex), table.data());
}

constexpr cl_int empty_range[2] = {INT_MAX, INT_MIN};

}  // namespace

ClFastDisplay::ClFastDisplay(cl_context context, cl_device_id device, cl_command_queue queue, ProgramCache& programs,
                             fast::Tuning tuning, fast::Measuring measure)
    : context_(context),
      device_(device),
      queue_(queue),
      programs_(programs),
      base_(fast::cl_tuning(tuning)),
      measure_(fast::cl_measuring(std::move(measure))) {
  base_.split_global = 0;  // the display epilogue follows the split through registers only
  tuning_ = base_;
  // The display epilogue's range needs 8 bytes of local memory beside the lines.
  limits_ = fast_limits(device);
  limits_.local_bytes -= 16;
  max_alloc_ = device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
}

bool ClFastDisplay::supports(std::size_t width, std::size_t height) const {
  return passes(width, height, base_).has_value();
}

bool ClFastDisplay::fused_plans(std::size_t width, std::size_t height) const {
  const auto p = passes(width, height, base_);
  return p && p->fused();
}

std::optional<fast::DisplayPasses> ClFastDisplay::passes(std::size_t width, std::size_t height,
                                                         const fast::Tuning& tuning) const {
  auto p = fast::plan_real_display(width, height, limits_, tuning);
  if (p && max_alloc_ != 0 && p->scratch_elements(width, height) * sizeof(Complex) > max_alloc_) return std::nullopt;
  return p;
}

std::string ClFastDisplay::describe() const {
  return column_route().describe() + "; " +
         (routed_rows_ ? routed_rows_->route().describe() + "; coloured by display_half" : display_rows_->describe());
}

cl_kernel ClFastDisplay::build_display_rows(cl_uint flags) {
  std::string options = display_options_;
  if (tuning_.display_constant_flags != 0) options += " -D DISPLAY_FLAGS=" + std::to_string(flags);
  display_kernel_flags_ = flags;
  return build(*display_rows_, options.c_str());
}

cl_kernel ClFastDisplay::build(const fast::AxisPlan& plan, const char* extra) {
  cl_kernel kernel = programs_.kernel(fast_program_key(plan, extra), "fast_fft");
  std::size_t kernel_max = 0;
  check(clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max, nullptr),
        "clGetKernelWorkGroupInfo");
  if (kernel_max < plan.threads)
    throw BackendError("OpenCL fast display: " + plan.describe() + " needs " + std::to_string(plan.threads) +
                       " work-items per group, the compiled kernel allows " + std::to_string(kernel_max));
  return kernel;
}

void ClFastDisplay::prepare(std::size_t width, std::size_t height) {
  if (display_kernel_ && width == width_ && height == height_) return;
  row_kernel_ = display_kernel_ = unpack_kernel_ = nullptr;
  real_cols_.reset();
  routed_rows_.reset();
  display_rows_.reset();
  if (!supports(width, height))
    throw BackendError("OpenCL fast display: " + std::to_string(width) + "x" + std::to_string(height) +
                       " is not supported (a width under 3, a height under 2, or more than 2^30 pixels)");
  tuning_ = measure_.enabled() ? fastest_tuning(width, height) : base_;
  // Each axis fused where it plans, else routed (a prime factor above 13).
  auto planned = passes(width, height, tuning_);
  if (!planned) {  // a measured tuning this device does not take: supports() took the base
    tuning_ = base_;
    planned = passes(width, height, tuning_);
  }
  const fast::DisplayPasses& plan = *planned;
  rows_ = fast::plan_r2c_rows(width, height, limits_, tuning_);  // the half spectrum's, built on first use
  cols_ = fast::plan_half_columns(width, height, limits_, tuning_);
  const std::size_t pairs = fast::display_pair_columns(width);
  const ClDeviceQueue device{context_, device_, queue_, &programs_};
  real_cols_.emplace(device, plan.cols, pairs, tuning_, limits_, fast::PassLayout::out_of_place, "fast_cols_real");
  display_rows_ = plan.rows;
  display_options_.clear();
  if (display_rows_) {
    for (const auto& [name, value] : fast::display_rows_defines(width, height, *display_rows_, tuning_))
      display_options_ += " -D " + name + "=" + value;
    // With the settings as constants, built for the default ones (the window's first frame).
    display_kernel_ = build_display_rows(display_flags(SpectrumSettings{}));
    display_twiddles_ = twiddle_buffer(context_, display_rows_->n, display_rows_->n);
  } else {
    routed_rows_.emplace(device, *plan.routed_rows, height / 2 + 1, tuning_, limits_, fast::PassLayout::in_place,
                         "fast_rows_half");
    const ProgramKey key{"display_half.cl", " -D N=" + std::to_string(width) + " -D PAIR_ROWS=" + std::to_string(height)};
    unpack_kernel_ = programs_.kernel(key, "display_unpack");
    display_kernel_ = programs_.kernel(key, "display_half");
    y_ = make_buffer(context_, CL_MEM_READ_WRITE, width * (height / 2 + 1) * sizeof(Complex));
  }
  const std::uint64_t scratch = plan.scratch_elements(width, height);
  real_ = make_buffer(context_, CL_MEM_READ_ONLY, pairs * height * sizeof(Complex));
  z_ = make_buffer(context_, CL_MEM_READ_WRITE, pairs * height * sizeof(Complex));
  col_scratch_ = scratch > 0 ? make_buffer(context_, CL_MEM_READ_WRITE, scratch * sizeof(Complex)) : Mem();
  half_ = Mem();
  rgba_ = make_buffer(context_, CL_MEM_READ_WRITE, width * height * 4);
  lut_ = make_buffer(context_, CL_MEM_READ_ONLY, 256 * 4);
  for (Mem& r : ranges_) r = make_buffer(context_, CL_MEM_READ_WRITE, sizeof empty_range, empty_range);
  lut_colormap_ = -1;
  acc_ = 0;
  range_known_ = false;
  width_ = width;
  height_ = height;
}

fast::Tuning ClFastDisplay::fastest_tuning(std::size_t width, std::size_t height) {
  const std::vector<fast::Tuning> distinct =
      fast::distinct_display_tunings(width, height, limits_, base_, measure_.candidates);
  if (distinct.size() == 1) return base_;
  const auto [what, identities] = fast::display_choice(width, height, limits_, distinct);
  const std::string key = PlanWisdom::key(measure_.device, what, identities);
  if (measure_.wisdom)
    if (const auto known = measure_.wisdom->find(key); known && *known < distinct.size()) return distinct[*known];

  const fast::PlanningClock clock(what, distinct.size());
  const RealImage zeros(width, height);
  const SpectrumSettings settings = fixed_range_settings(width, height);
  // As GL's: every candidate display built, prepared and run once (its programs then cached), at
  // most two displays alive at a time, each a whole display's buffers; the base (which throws as
  // prepare() would without measuring) then keeps the device busy until its clocks are steady,
  // and each candidate, made again, is timed beside it. Where the base cannot be run or timed (no
  // device memory), it stands; a candidate that fails is passed over.
  const auto ready = [&](ClFastDisplay& display) {
    try {
      display.prepare(width, height);
      display.upload(zeros);
      display.enqueue_display(settings, true);
      check(clFinish(queue_), "clFinish(display planning)");
      return true;
    } catch (const BackendError&) {
      return false;
    }
  };
  std::vector<bool> compiled(distinct.size(), false);
  for (std::size_t i = 1; i < distinct.size(); ++i) {
    try {
      ClFastDisplay candidate(context_, device_, queue_, programs_, distinct[i]);
      compiled[i] = ready(candidate);
    } catch (const BackendError&) {
    }
  }
  ClFastDisplay planned(context_, device_, queue_, programs_, base_);
  planned.prepare(width, height);
  if (!ready(planned)) return base_;
  const PlanningWork planned_work = [&] { return planned.enqueue_display(settings, true); };
  std::size_t best_index = 0;
  try {
    fast::FastestBeside choice(what, planned.describe(), warm_until_steady(queue_, device_, planned_work));
    for (std::size_t i = 1; i < distinct.size(); ++i) {
      if (!compiled[i]) continue;
      try {
        ClFastDisplay candidate(context_, device_, queue_, programs_, distinct[i]);
        if (ready(candidate))
          choice.record(i, paired_event_ms(queue_, planned_work, [&] { return candidate.enqueue_display(settings, true); }),
                        candidate.describe());
      } catch (const BackendError&) {
        // this candidate could not be made again or timed: passed over
      }
    }
    best_index = choice.best();
  } catch (const BackendError&) {
    return base_;
  }
  const fast::Tuning best = distinct[best_index];
  if (measure_.wisdom) measure_.wisdom->remember(key, best_index);
  return best;
}

void ClFastDisplay::upload(const RealImage& image) {
  if (!display_kernel_ || image.width != width_ || image.height != height_)
    throw BackendError("OpenCL fast display: upload() of a " + std::to_string(image.width) + "x" +
                       std::to_string(image.height) + " image without prepare() for that size");
  std::vector<float> padded;
  const std::span<const float> pairs = fast::display_pairs_image(image, padded);
  check(clEnqueueWriteBuffer(queue_, real_.get(), CL_TRUE, 0, pairs.size_bytes(), pairs.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer (real image)");
  range_known_ = false;
}

void ClFastDisplay::set_common_args(cl_kernel kernel, cl_mem data, cl_mem twiddles, std::size_t lines,
                                    std::size_t row_pitch) {
  const cl_uint l = static_cast<cl_uint>(lines), pitch = static_cast<cl_uint>(row_pitch);
  const cl_float one = 1.0f;
  check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &data), "clSetKernelArg(display data)");
  check(clSetKernelArg(kernel, 1, sizeof(cl_mem), &twiddles), "clSetKernelArg(display twiddles)");
  check(clSetKernelArg(kernel, 2, sizeof(cl_uint), &l), "clSetKernelArg(display lines)");
  check(clSetKernelArg(kernel, 3, sizeof(cl_uint), &pitch), "clSetKernelArg(display row_pitch)");
  check(clSetKernelArg(kernel, 4, sizeof(cl_float), &one), "clSetKernelArg(display conj_sign)");
  check(clSetKernelArg(kernel, 5, sizeof(cl_float), &one), "clSetKernelArg(display scale)");
}

FastDispatch ClFastDisplay::enqueue(cl_kernel kernel, const fast::AxisPlan& p, std::size_t lines, const char* name,
                                    std::uint64_t bytes, bool events) {
  const std::uint64_t groups = p.groups(lines);
  const std::uint64_t gx = groups <= 65535 ? groups : 65535;
  const std::uint64_t gy = (groups + gx - 1) / gx;
  return launch(kernel, {static_cast<std::size_t>(gx * p.threads), static_cast<std::size_t>(gy)}, p.threads, p.axis,
                name, bytes, p.describe(), events);
}

FastDispatch ClFastDisplay::launch(cl_kernel kernel, std::array<std::size_t, 2> global, std::size_t local, Axis axis,
                                   const char* name, std::uint64_t bytes, std::string note, bool events) {
  const std::size_t local_size[2] = {local, 1};
  cl_event ev = nullptr;
  check(clEnqueueNDRangeKernel(queue_, kernel, 2, nullptr, global.data(), local_size, 0, nullptr,
                               events ? &ev : nullptr),
        (std::string("clEnqueueNDRangeKernel(") + name + ")").c_str());
  FastDispatch d{Event(ev), {}};
  d.record.kernel = name;
  d.record.axis = axis;
  d.record.stage = -1;
  d.record.radix = 0;
  d.record.global_size = {static_cast<std::uint32_t>(global[0]), static_cast<std::uint32_t>(global[1]), 1};
  d.record.bytes = bytes;
  d.record.note = std::move(note);
  return d;
}

std::vector<FastDispatch> ClFastDisplay::enqueue_display(const SpectrumSettings& settings, bool previous_range,
                                                         bool events) {
  if (!display_kernel_) throw BackendError("OpenCL fast display: enqueue_display() before prepare()");
  if (lut_colormap_ != static_cast<int>(settings.colormap)) {
    std::vector<std::uint8_t> lut(256 * 4, 255);
    const auto& table = colormap_table(settings.colormap);
    for (std::size_t i = 0; i < 256; ++i)
      for (std::size_t c = 0; c < 3; ++c) lut[4 * i + c] = table[i][c];
    check(clEnqueueWriteBuffer(queue_, lut_.get(), CL_TRUE, 0, lut.size(), lut.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer (display colormap)");
    lut_colormap_ = static_cast<int>(settings.colormap);
  }
  const std::size_t pixels = width_ * height_;
  const int key = static_cast<int>(settings.component) * 2 + (settings.scale == SpectrumScale::log ? 1 : 0);
  if (key != range_key_) range_known_ = false;
  range_key_ = key;

  std::vector<FastDispatch> out;
  // This frame's range accumulator, emptied where the rows fold into it (auto range only: one
  // command less per frame otherwise).
  if (settings.auto_range)
    check(clEnqueueWriteBuffer(queue_, ranges_[acc_].get(), CL_FALSE, 0, sizeof empty_range, empty_range, 0, nullptr,
                               nullptr),
          "clEnqueueWriteBuffer (display range)");
  // Columns: the real image read as its pair columns, their FFTs Z into z_ (the image stays).
  const std::size_t pairs = fast::display_pair_columns(width_);
  real_cols_->enqueue(real_.get(), z_.get(), col_scratch_.get(), Direction::forward, out, events);
  const std::size_t half_items = width_ * (height_ / 2 + 1);
  // One work-item per item of the rows ky <= H/2 (display_half.cl's kernels).
  const auto enqueue_items = [&](cl_kernel kernel, const char* name, std::uint64_t bytes, const char* note) {
    constexpr std::size_t group = 256;
    out.push_back(launch(kernel, {(half_items + group - 1) / group * group, 1}, group, Axis::rows, name, bytes, note,
                         events));
  };
  if (routed_rows_) {
    // The rows ky <= H/2 of the column FFTs taken apart from Z into y_, then their FFTs there.
    cl_mem z = z_.get(), y = y_.get();
    const cl_uint pitch = static_cast<cl_uint>(pairs);
    check(clSetKernelArg(unpack_kernel_, 0, sizeof(cl_mem), &z), "clSetKernelArg(unpack z)");
    check(clSetKernelArg(unpack_kernel_, 1, sizeof(cl_mem), &y), "clSetKernelArg(unpack y)");
    check(clSetKernelArg(unpack_kernel_, 2, sizeof pitch, &pitch), "clSetKernelArg(unpack pitch)");
    enqueue_items(unpack_kernel_, "display_unpack", (pairs * height_ + half_items) * sizeof(Complex),
                  "the rows ky <= H/2 of the column FFTs, from Z");
    routed_rows_->enqueue(y, y, col_scratch_.get(), Direction::forward, out, events);
  }

  const cl_uint flags = display_flags(settings);
  if (!routed_rows_ && tuning_.display_constant_flags != 0 && flags != display_kernel_flags_)
    display_kernel_ = build_display_rows(flags);
  const cl_float lo = settings.range_min, hi = settings.range_max, gain = settings.gain;
  cl_mem rgba = rgba_.get(), lut = lut_.get();
  // Rows ky <= H/2 of the 2D FFT from Z, each written as its display row and its mirror row.
  const auto rows = [&] {
    cl_mem in = ranges_[1 - acc_].get(), accumulate = ranges_[acc_].get(), y = y_.get();
    cl_uint index = 1;  // display_half's first buffer; the fused rows' is 6 (fast_fft.cl)
    if (routed_rows_) {
      check(clSetKernelArg(display_kernel_, 0, sizeof(cl_mem), &y), "clSetKernelArg(display_half spectrum)");
    } else {
      set_common_args(display_kernel_, z_.get(), display_twiddles_.get(), height_ / 2 + 1, pairs);
      index = 6;
    }
    for (cl_mem m : {rgba, lut, in, accumulate})
      check(clSetKernelArg(display_kernel_, index++, sizeof(cl_mem), &m), "clSetKernelArg(display buffers)");
    check(clSetKernelArg(display_kernel_, index++, sizeof flags, &flags), "clSetKernelArg(display flags)");
    for (cl_float v : {lo, hi, gain})
      check(clSetKernelArg(display_kernel_, index++, sizeof v, &v), "clSetKernelArg(display range)");
    if (routed_rows_)
      enqueue_items(display_kernel_, "display_half", half_items * sizeof(Complex) + pixels * 4,
                    "each bin of the rows ky <= H/2 and its mirror");
    else
      out.push_back(enqueue(display_kernel_, *display_rows_, height_ / 2 + 1, "fast_rows_display",
                            (height_ / 2 + 1) * width_ * 8 + pixels * 4, events));
    acc_ = 1 - acc_;  // this frame's range is the next frame's
  };
  if (settings.auto_range && !range_known_ && !previous_range) {
    // The range of this image is not known yet: one pass to find it (its pixels are redrawn).
    rows();
    check(clEnqueueWriteBuffer(queue_, ranges_[acc_].get(), CL_FALSE, 0, sizeof empty_range, empty_range, 0, nullptr,
                               nullptr),
          "clEnqueueWriteBuffer (display range)");
  }
  rows();
  range_known_ = settings.auto_range;
  return out;
}

std::vector<FastDispatch> ClFastDisplay::enqueue_half_spectrum() {
  if (!display_kernel_) throw BackendError("OpenCL fast display: enqueue_half_spectrum() before prepare()");
  if (!rows_ || !cols_)
    throw BackendError("OpenCL fast display: no half-spectrum plan for " + std::to_string(width_) + "x" +
                       std::to_string(height_) + " (an even width whose W/2-point rows fit local memory whole)");
  const std::size_t half_w = width_ / 2 + 1;
  if (!row_kernel_) {
    row_kernel_ = build(*rows_, " -D R2C_SPLIT=1");
    half_ = make_buffer(context_, CL_MEM_READ_WRITE, half_w * height_ * sizeof(Complex));
    row_twiddles_ = twiddle_buffer(context_, rows_->n, rows_->n);
    half_col_twiddles_ = twiddle_buffer(context_, cols_->n, cols_->n);
    split_twiddles_ = twiddle_buffer(context_, static_cast<std::uint32_t>(width_), half_w);  // w_W^k, k <= W/2
  }
  std::vector<FastDispatch> out;
  cl_mem half = half_.get(), split = split_twiddles_.get();
  // The image's rows lie display_pair_columns pairs apart (upload).
  set_common_args(row_kernel_, real_.get(), row_twiddles_.get(), height_, fast::display_pair_columns(width_));
  check(clSetKernelArg(row_kernel_, 6, sizeof(cl_mem), &half), "clSetKernelArg(r2c out)");
  check(clSetKernelArg(row_kernel_, 7, sizeof(cl_mem), &split), "clSetKernelArg(r2c split twiddles)");
  out.push_back(enqueue(row_kernel_, *rows_, height_, "fast_r2c_rows", width_ * height_ * 4 + half_w * height_ * 8));
  cl_kernel cols = build(*cols_, "");
  set_common_args(cols, half_.get(), half_col_twiddles_.get(), half_w, half_w);
  out.push_back(enqueue(cols, *cols_, half_w, "fast_cols", half_w * height_ * 16));
  return out;
}

RgbaImage ClFastDisplay::download_rgba() {
  RgbaImage out(width_, height_);
  check(clEnqueueReadBuffer(queue_, rgba_.get(), CL_TRUE, 0, out.data.size(), out.data.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer (display)");
  return out;
}

ComplexImage ClFastDisplay::download_half() {
  ComplexImage out(width_ / 2 + 1, height_);
  check(clEnqueueReadBuffer(queue_, half_.get(), CL_TRUE, 0, out.data.size() * sizeof(Complex), out.data.data(), 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer (half spectrum)");
  return out;
}

}  // namespace fftscope::cl_detail
