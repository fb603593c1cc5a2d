#include "backend/cl/cl_backend.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <numbers>
#include <sstream>

#include "backend/cl/cl_fast_display.h"
#include "backend/cl/cl_fast_path.h"
#include "backend/cl/cl_runtime.h"
#include "core/errors.h"
#include "core/plan_wisdom.h"
#ifdef FFTSCOPE_CL_WITH_GL
#include <CL/cl_gl.h>

#include "backend/cl/cl_gl_interop.h"
#endif

namespace fftscope::cl_kernels {
std::span<const EmbeddedFile> embedded_kernels();
}

namespace fftscope {
namespace {

using namespace cl_detail;

/// Geometry of a batch of 1D transforms in one buffer: element i of line l is at
/// l * dist + i * stride.
struct Lines {
  cl_uint n = 0, count = 0, stride = 1, dist = 0;
};

/// Per-stage device tables of a Bluestein stage.
struct BluesteinDevice {
  Mem chirp, filter, inner_table;
};

/// Device tables of one axis plan.
struct AxisDevice {
  Mem digit_reverse;
  std::map<std::size_t, BluesteinDevice> bluestein;  ///< by stage index
};

cl_uint u32(std::size_t v) {
  assert(v <= 0xFFFFFFFFu && "size does not fit the kernels' 32-bit indices");
  return static_cast<cl_uint>(v);
}
std::size_t round_up(std::size_t v, std::size_t m) { return (v + m - 1) / m * m; }

template <typename T>
void set_arg(cl_kernel k, cl_uint index, const T& value) {
  check(clSetKernelArg(k, index, sizeof(T), &value), "clSetKernelArg");
}
template <typename... Args>
void set_args(cl_kernel k, const Args&... args) {
  cl_uint index = 0;
  (set_arg(k, index++, args), ...);
}

bool is_dedicated_radix(std::uint32_t r) { return r == 2 || r == 3 || r == 4 || r == 5 || r == 7; }

constexpr int transpose_tile = 16;
constexpr int generic_max_radix = 16;

class ClBackendImpl final : public ClBackend {
 public:
  explicit ClBackendImpl(const BackendOptions& options)
      : time_spans_(options.time_spans),
        wisdom_(options.measure_fast_plans ? std::make_unique<PlanWisdom>(PlanWisdom::default_path()) : nullptr) {
    found_ = choose_device(options.cl_device);
    create_context(options);
    cl_int err = CL_SUCCESS;
    queue_ = Queue(clCreateCommandQueue(context_.get(), found_.device, CL_QUEUE_PROFILING_ENABLE, &err));
    check(err, "clCreateCommandQueue");
    programs_ = std::make_unique<ProgramCache>(context_.get(), found_.device,
                                               SourceFiles(cl_kernels::embedded_kernels(), options.source_dir));
    fast_ = make_fast_path();
    real_display_ = make_real_display();
    const std::size_t max_wg = device_value<std::size_t>(found_.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    reduce_wg_ = 256;
    while (reduce_wg_ > max_wg) reduce_wg_ /= 2;
    if (const char* env = std::getenv("FFTSCOPE_CL_COLUMNS")) {
      const std::string v = env;
      if (v == "transpose") column_pass_ = ClColumnPass::transpose;
      else if (v == "strided") column_pass_ = ClColumnPass::strided;
      else throw UsageError("FFTSCOPE_CL_COLUMNS must be 'strided' or 'transpose', not '" + v + "'");
    }
  }

  ~ClBackendImpl() override {
    if (queue_) clFinish(queue_.get());
  }

  BackendKind kind() const override { return BackendKind::cl; }

  std::string device_name() const override {
    return found_.platform_name + " / " + found_.name + " (" + device_string(found_.device, CL_DEVICE_VERSION) +
           ", driver " + device_string(found_.device, CL_DRIVER_VERSION) + ")";
  }

  DeviceMemoryLimit memory_limit() const override {
    DeviceMemoryLimit limit;
    cl_ulong total = 0, max_alloc = 0;
    if (clGetDeviceInfo(found_.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(total), &total, nullptr) == CL_SUCCESS)
      limit.total = total;
    if (clGetDeviceInfo(found_.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc), &max_alloc, nullptr) == CL_SUCCESS)
      limit.max_allocation = max_alloc;
    limit.total_source = "CL_DEVICE_GLOBAL_MEM_SIZE of " + found_.name;
    limit.allocation_source = "CL_DEVICE_MAX_MEM_ALLOC_SIZE of " + found_.name;
    return limit;
  }

  std::string interop_path() const override { return interop_path_; }
  void set_column_pass(ClColumnPass pass) override { column_pass_ = pass; }
  ClColumnPass column_pass() const override { return column_pass_; }
  std::size_t program_count() const override { return programs_->program_count(); }

  void prepare(const Plan2D& plan, KernelVariant variant) override {
    refresh_programs();
    const bool same_plan = prepared_ && plan_.width() == plan.width() && plan_.height() == plan.height() &&
                           plan_.rows.radices() == plan.rows.radices() &&
                           plan_.cols.radices() == plan.cols.radices();
    variant_ = variant;
    if (!same_plan) {
      plan_ = plan;
      const std::size_t bytes = std::max<std::size_t>(1, plan.width() * plan.height()) * sizeof(Complex);
      buffers_[0] = make_buffer(CL_MEM_READ_WRITE, bytes);
      buffers_[1] = make_buffer(CL_MEM_READ_WRITE, bytes);
      current_ = 0;
      rows_ = make_axis(plan.rows);
      cols_ = make_axis(plan.cols);
      display_ = {};
      prepared_ = true;
    }
    // Build what execute() will need now, so a broken kernel surfaces here.
    radix_kernel_name_check();
    prepare_fast_path();
  }

  void upload(const ComplexImage& image) override {
    assert(prepared_ && "prepare() before upload()");
    assert(image.width == plan_.width() && image.height == plan_.height() && "image size must match the plan");
    current_ = 0;
    if (image.data.empty()) return;
    // Transfers are not timing records (as in the GL backend): callers time them on the host.
    check(clEnqueueWriteBuffer(queue_.get(), buffers_[0].get(), CL_TRUE, 0, image.data.size() * sizeof(Complex),
                               image.data.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer (upload)");
  }

  void execute(Direction direction, StageStop stop) override {
    assert(prepared_ && "prepare() before execute()");
    if (refresh_programs()) radix_kernel_name_check();
    const std::size_t w = plan_.width(), h = plan_.height();
    if (w == 0 || h == 0) return;
    const ExecutionScope execution(*this);
    {
      const SpanScope span(*this, current_execution_);
      enqueue_transform(direction, stop);
    }
    finish_submit();
  }

  // The transform's dispatches (execute's, without its execution number and span).
  void enqueue_transform(Direction direction, StageStop stop) {
    const std::size_t w = plan_.width(), h = plan_.height();
    const float sign = direction == Direction::forward ? 1.0f : -1.0f;
    // The fast variant runs whole axes in one dispatch each; a stop inside an axis, or a size it
    // does not support, takes the fused stage pipeline instead.
    if (variant_ == KernelVariant::fast && fast_ready_ && stop.is_done()) {
      // Timing spans: the dispatches without profiling events, whose cost on NVIDIA's OpenCL
      // would be in the span (BackendOptions::time_spans).
      for (FastDispatch& d : fast_->enqueue(current(), direction, !time_spans_)) {
        d.record.execution = current_execution_;
        if (d.event) pending_.push_back({std::move(d.event), std::move(d.record)});
      }
      return;
    }

    const int row_last = (!stop.is_done() && stop.axis == Axis::rows) ? stop.stage : -1;
    run_axis(Axis::rows, plan_.rows, rows_, Lines{u32(w), u32(h), 1, u32(w)}, row_last, sign);
    if (!stop.is_done() && stop.axis == Axis::rows) return;

    const int col_last = stop.is_done() ? -1 : stop.stage;
    if (column_pass_ == ClColumnPass::strided) {
      run_axis(Axis::cols, plan_.cols, cols_, Lines{u32(h), u32(w), u32(w), 1}, col_last, sign);
    } else {
      transpose(u32(w), u32(h));
      run_axis(Axis::cols, plan_.cols, cols_, Lines{u32(h), u32(w), 1, u32(h)}, col_last, sign);
      transpose(u32(h), u32(w));
    }
  }

  ComplexImage download() override {
    assert(prepared_ && "prepare() before download()");
    ComplexImage out(plan_.width(), plan_.height());
    if (out.data.empty()) return out;
    check(clEnqueueReadBuffer(queue_.get(), buffers_[current_].get(), CL_TRUE, 0, out.data.size() * sizeof(Complex),
                              out.data.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer (download)");
    return out;
  }

  void finish() override { check(clFinish(queue_.get()), "clFinish"); }

  std::string fast_plan_description() const override {
    if (variant_ != KernelVariant::fast || !fast_ready_) return {};
    if (fast_->fused()) return "both axes in one dispatch, each as " + fast_->route(Axis::cols).describe();
    return fast_->route(Axis::rows).describe() + "; " + fast_->route(Axis::cols).describe();
  }

  std::vector<TimingRecord> take_timings() override {
    std::vector<TimingRecord> out;
    while (!pending_.empty()) {
      Pending& p = pending_.front();
      cl_int status = CL_QUEUED;
      check(clGetEventInfo(p.event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
            "clGetEventInfo");
      if (status > CL_COMPLETE) break;  // not finished yet: a later call returns it
      if (status == CL_COMPLETE) {
        cl_ulong queued = 0, submit = 0, start = 0, end = 0;
        clGetEventProfilingInfo(p.event.get(), CL_PROFILING_COMMAND_QUEUED, sizeof(queued), &queued, nullptr);
        clGetEventProfilingInfo(p.event.get(), CL_PROFILING_COMMAND_SUBMIT, sizeof(submit), &submit, nullptr);
        clGetEventProfilingInfo(p.event.get(), CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr);
        clGetEventProfilingInfo(p.event.get(), CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr);
        if (p.span_start) {
          cl_ulong begin = 0;
          clGetEventProfilingInfo(p.span_start.get(), CL_PROFILING_COMMAND_END, sizeof(begin), &begin, nullptr);
          p.record.milliseconds = end > begin ? static_cast<double>(end - begin) * 1e-6 : 0.0;
          out.push_back(std::move(p.record));
          pending_.pop_front();
          continue;
        }
        p.record.milliseconds = end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
        std::ostringstream note;
        note.precision(4);
        // The profiling timestamps before `start`: time waiting in the queue and in the driver.
        note << "queued->submit->start " << (submit >= queued ? static_cast<double>(submit - queued) * 1e-6 : 0.0)
             << " + " << (start >= submit ? static_cast<double>(start - submit) * 1e-6 : 0.0) << " ms";
        if (!p.record.note.empty()) p.record.note += "; ";
        p.record.note += note.str();
      } else {
        p.record.note += std::string(p.record.note.empty() ? "" : "; ") + "failed: " + error_name(status);
      }
      out.push_back(std::move(p.record));
      pending_.pop_front();
    }
    for (TimingRecord& r : host_records_) out.push_back(std::move(r));
    host_records_.clear();
    return out;
  }

  RgbaImage render_display(const SpectrumSettings& settings) override {
    assert(prepared_ && "prepare() before render_display()");
    RgbaImage out(plan_.width(), plan_.height());
    if (out.data.empty()) return out;
    compute_display(settings);
    check(clEnqueueReadBuffer(queue_.get(), display_.rgba.get(), CL_TRUE, 0, out.data.size(), out.data.data(), 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer (display)");
    return out;
  }

  bool render_to_gl_texture(std::uint32_t texture, const SpectrumSettings& settings) override {
#ifdef FFTSCOPE_CL_WITH_GL
    if (!prepared_ || plan_.width() == 0 || plan_.height() == 0 || !gl_reachable()) return false;
    compute_display(settings);
    return deliver_to_gl(display_.rgba.get(), texture, plan_.width(), plan_.height());
#else
    (void)texture;
    (void)settings;
    return false;
#endif
  }

  // The real-input display path (issue 6): ClFastDisplay where it takes the size, else the
  // image as complex data through the fast variant, then the display kernels.
  RealDisplayPath real_display_path(std::size_t width, std::size_t height) const override {
    if (!real_display_->supports(width, height)) return RealDisplayPath::fallback;
    return real_display_->fused_plans(width, height) ? RealDisplayPath::fused : RealDisplayPath::routed;
  }
  void upload_real(const RealImage& image) override {
    real_through_display_ = false;
    real_display_done_ = false;
    if (real_display_->supports(image.width, image.height)) {
      try {
        real_display_->prepare(image.width, image.height);
        real_through_display_ = true;
      } catch (const BackendError& e) {
        if (std::string(e.what()).find("--- build log ---") != std::string::npos) throw;
      }
    }
    if (real_through_display_) return real_display_->upload(image);
    prepare(make_plan_2d(image.width, image.height), KernelVariant::fast);
    ComplexImage complex(image.width, image.height);
    for (std::size_t i = 0; i < image.data.size(); ++i) complex.data[i] = {image.data[i], 0.0f};
    // Kept apart from the transform's buffers, which it runs in place on: each display copies it
    // into them first (execute_real_display).
    real_fallback_image_ = complex.data.empty()
                               ? Mem()
                               : make_buffer(CL_MEM_READ_ONLY, complex.data.size() * sizeof(Complex), complex.data.data());
  }
  void execute_real_display(const SpectrumSettings& settings, bool previous_range) override {
    if (!real_through_display_) {
      if (!prepared_) throw BackendError("OpenCL: execute_real_display() before upload_real()");
      if (refresh_programs()) radix_kernel_name_check();
      // The display kernels count with the transform, inside its span (BackendOptions::time_spans).
      const ExecutionScope execution(*this);
      {
        const SpanScope span(*this, current_execution_);
        current_ = 0;
        if (real_fallback_image_)
          check(clEnqueueCopyBuffer(queue_.get(), real_fallback_image_.get(), current(), 0, 0,
                                    plan_.width() * plan_.height() * sizeof(Complex), 0, nullptr, nullptr),
                "clEnqueueCopyBuffer (real display fallback)");
        enqueue_transform(Direction::forward, StageStop::done());
        compute_display(settings);
        // Under spans the span is the run's one record, as where the fast path runs alone.
        if (time_spans_)
          std::erase_if(pending_, [&](const auto& p) { return p.record.execution == current_execution_; });
      }
      finish_submit();
    } else {
      const std::uint64_t execution = ++executions_;
      const SpanScope span(*this, execution);
      for (FastDispatch& d : real_display_->enqueue_display(settings, previous_range, !time_spans_)) {
        d.record.execution = execution;
        if (d.event) pending_.push_back({std::move(d.event), std::move(d.record)});
      }
      finish_submit();
    }
    real_display_done_ = true;
  }
  bool real_display_to_gl_texture(std::uint32_t texture) override {
#ifdef FFTSCOPE_CL_WITH_GL
    if (!real_display_done_ || !gl_reachable()) return false;
    if (real_through_display_) return deliver_to_gl(real_display_->rgba(), texture, real_display_->width(), real_display_->height());
    return deliver_to_gl(display_.rgba.get(), texture, plan_.width(), plan_.height());
#else
    (void)texture;
    return false;
#endif
  }
  RgbaImage download_real_display() override {
    if (!real_display_done_) throw BackendError("OpenCL: download_real_display() before execute_real_display()");
    if (real_through_display_) return real_display_->download_rgba();
    RgbaImage out(plan_.width(), plan_.height());
    check(clEnqueueReadBuffer(queue_.get(), display_.rgba.get(), CL_TRUE, 0, out.data.size(), out.data.data(), 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer (display)");
    return out;
  }

 private:
#ifdef FFTSCOPE_CL_WITH_GL
  // A GL texture can be filled: shared with this context, or a GL context current for the host copy.
  bool gl_reachable() const { return gl_shared_ || gl_ready(); }
  // Copies `rgba` (w x h RGBA8 on the device) into the GL texture: through a shared image where
  // the device has cl_khr_gl_sharing, else read back and uploaded; the copy is its own record
  // ("display_copy_shared", "display_copy_host").
  bool deliver_to_gl(cl_mem rgba, std::uint32_t texture, std::size_t w, std::size_t h) {
    if (gl_shared_) {
      cl_mem image = gl_image(texture);
      gl_finish();  // GL must be done with the texture before CL acquires it
      const auto t0 = std::chrono::steady_clock::now();
      check(clEnqueueAcquireGLObjects(queue_.get(), 1, &image, 0, nullptr, nullptr), "clEnqueueAcquireGLObjects");
      const std::size_t origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
      cl_event ev = nullptr;
      check(clEnqueueCopyBufferToImage(queue_.get(), rgba, image, 0, origin, region, 0, nullptr, &ev),
            "clEnqueueCopyBufferToImage (display)");
      check(clEnqueueReleaseGLObjects(queue_.get(), 1, &image, 0, nullptr, nullptr), "clEnqueueReleaseGLObjects");
      // Without cl_khr_gl_event a clFinish is the portable way to hand the texture back to GL.
      check(clFinish(queue_.get()), "clFinish (display)");
      TimingRecord rec;
      rec.kernel = "display_copy_shared";
      rec.axis = Axis::cols;
      rec.global_size = {u32(w), u32(h), 1};
      rec.bytes = w * h * 8;
      const double host_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      rec.note = "interop: " + interop_path_ + ", acquire+copy+release+finish host " + std::to_string(host_ms) + " ms";
      pending_.push_back({Event(ev), std::move(rec)});
      return true;
    }
    // Wait for the display kernels first so that this row times the delivery alone.
    check(clFinish(queue_.get()), "clFinish (display)");
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::uint8_t> pixels(w * h * 4);
    check(clEnqueueReadBuffer(queue_.get(), rgba, CL_TRUE, 0, pixels.size(), pixels.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer (display)");
    gl_upload_rgba(texture, w, h, pixels.data());
    TimingRecord rec;
    rec.kernel = "display_copy_host";
    rec.axis = Axis::cols;
    rec.global_size = {u32(w), u32(h), 1};
    rec.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    rec.bytes = pixels.size() * 2;  // device -> host, host -> GL
    rec.host_measured = true;
    rec.note = "interop: " + interop_path_ + " (device -> host read, host -> GL texture upload)";
    host_records_.push_back(std::move(rec));
    return true;
  }
#endif

  struct Pending {
    Event event;
    TimingRecord record;
    Event span_start = Event();  // a span record (BackendOptions::time_spans): the marker before; `event` the one after
  };
  struct DisplayBuffers {
    Mem values, partials, range, lut, rgba;
    int lut_colormap = -1;
    std::size_t partial_groups = 0;
  };

  void create_context(const BackendOptions& options) {
    cl_int err = CL_SUCCESS;
    interop_path_ = "none (built without GL)";
#ifdef FFTSCOPE_CL_WITH_GL
    interop_path_ = "host copy (no GL context given)";
    if (options.use_current_gl_context) {
      if (!has_extension(found_.device, "cl_khr_gl_sharing")) {
        interop_path_ = "host copy (device has no cl_khr_gl_sharing)";
      } else {
        std::string why;
        std::vector<cl_context_properties> props = current_gl_share_properties(found_.platform, why);
        if (props.empty()) {
          interop_path_ = "host copy (" + why + ")";
        } else {
          // With no --cl-device, share with the device that drives the GL context.
          if (cl_device_id gl_device = gl_context_device(found_.platform, props);
              gl_device && gl_device != found_.device && options.cl_device.empty()) {
            for (const FoundDevice& d : find_devices())
              if (d.device == gl_device) found_ = d;
          }
          context_ = Context(clCreateContext(props.data(), 1, &found_.device, nullptr, nullptr, &err));
          if (err == CL_SUCCESS) {
            gl_shared_ = true;
            interop_path_ = has_extension(found_.device, "cl_khr_gl_event")
                                ? "cl_khr_gl_sharing (cl_khr_gl_event present; synchronised by glFinish/clFinish)"
                                : "cl_khr_gl_sharing (glFinish/clFinish)";
            return;
          }
          interop_path_ = std::string("host copy (sharing context failed: ") + error_name(err) + ")";
        }
      }
      try_external_memory();
    }
#else
    (void)options;
#endif
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           reinterpret_cast<cl_context_properties>(found_.platform), 0};
    context_ = Context(clCreateContext(props, 1, &found_.device, nullptr, nullptr, &err));
    check(err, "clCreateContext");
  }

  /// Hook for cl_khr_external_memory + GL_EXT_memory_object_fd (see the TODO in
  /// cl_gl_interop.h: both import only, so Vulkan would have to allocate); not implemented, the
  /// host copy stays in use and the path says what the device offers.
  void try_external_memory() {
    if (has_extension(found_.device, "cl_khr_external_memory_opaque_fd"))
      interop_path_ += "; cl_khr_external_memory_opaque_fd present but not used (import-only, TODO)";
  }

  Mem make_buffer(cl_mem_flags flags, std::size_t bytes, const void* host = nullptr) {
    // Refused with the sizes named: a driver answers CL_INVALID_BUFFER_SIZE, or fails later.
    if (const auto max_alloc = device_value<cl_ulong>(found_.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE); bytes > max_alloc)
      throw BackendError("OpenCL: a buffer of " + format_bytes(bytes) + " is more than " + found_.name +
                         " allows (CL_DEVICE_MAX_MEM_ALLOC_SIZE " + format_bytes(max_alloc) + ")");
    cl_int err = CL_SUCCESS;
    Mem m(clCreateBuffer(context_.get(), flags | (host ? CL_MEM_COPY_HOST_PTR : 0), std::max<std::size_t>(bytes, 1),
                         const_cast<void*>(host), &err));
    check(err, "clCreateBuffer");
    return m;
  }

  AxisDevice make_axis(const Plan1D& plan) {
    AxisDevice a;
    a.digit_reverse = make_buffer(CL_MEM_READ_ONLY, plan.digit_reverse.size() * sizeof(cl_uint),
                                  plan.digit_reverse.empty() ? nullptr : plan.digit_reverse.data());
    for (std::size_t s = 0; s < plan.stages.size(); ++s) {
      const RadixStage& st = plan.stages[s];
      if (st.kind != StageKind::bluestein) continue;
      const BluesteinTables& t = st.bluestein;
      const std::vector<Complex> chirp(t.chirp.begin(), t.chirp.end());
      const std::vector<Complex> filter(t.filter_spectrum.begin(), t.filter_spectrum.end());
      BluesteinDevice b;
      b.chirp = make_buffer(CL_MEM_READ_ONLY, chirp.size() * sizeof(Complex), chirp.data());
      b.filter = make_buffer(CL_MEM_READ_ONLY, filter.size() * sizeof(Complex), filter.data());
      b.inner_table = make_buffer(CL_MEM_READ_ONLY, t.inner->digit_reverse.size() * sizeof(cl_uint),
                                  t.inner->digit_reverse.data());
      a.bluestein.emplace(s, std::move(b));
    }
    return a;
  }

  bool fused() const { return variant_ == KernelVariant::fused || variant_ == KernelVariant::fast; }
  ProgramKey radix_program() const {
    return {"radix.cl", std::string("-D FUSED_TWIDDLE=") + (fused() ? "1" : "0") +
                            " -D GENERIC_MAX_RADIX=" + std::to_string(generic_max_radix)};
  }
  ProgramKey twiddle_program() const {
    return {"twiddle.cl", std::string("-D TWIDDLE_OPTIMIZED=") + (variant_ == KernelVariant::plain ? "0" : "1")};
  }

  /// Drops the programs when a --kernel-dir file changed (they rebuild on next use).
  std::unique_ptr<ClFastDisplay> make_real_display() {
    const fast::Tuning tuning = fast::tuning_from_env();
    return std::make_unique<ClFastDisplay>(context_.get(), found_.device, queue_.get(), *programs_, tuning,
                                           measuring(fast::measure_display_candidates(tuning, false)));
  }

  std::unique_ptr<ClFastPath> make_fast_path() {
    const fast::Tuning tuning = fast::tuning_from_env();
    return std::make_unique<ClFastPath>(context_.get(), found_.device, queue_.get(), *programs_, tuning,
                                        measuring(fast::measure_candidates(tuning, false)));
  }

  /// BackendOptions::measure_fast_plans: these candidates, the choices kept in wisdom_ under
  /// this device's name; else none.
  fast::Measuring measuring(std::vector<fast::Tuning> candidates) const {
    if (!wisdom_) return {};
    return {std::move(candidates), wisdom_.get(), "cl: " + device_name()};
  }

  bool refresh_programs() {
    if (!programs_->refresh()) return false;
    local_sizes_.clear();  // kernel handles are gone; a new one may reuse an address
    // The fast path keeps kernel handles from the cache: start it afresh.
    fast_ = make_fast_path();
    real_display_ = make_real_display();
    real_through_display_ = real_display_done_ = false;  // the image must be uploaded again
    if (prepared_) prepare_fast_path();
    return true;
  }

  /// Readies the fast path for the fast variant where the size allows it. A build failure of
  /// fast_fft.cl is an error like any other; a layout the compiled kernel cannot run falls back.
  void prepare_fast_path() {
    fast_ready_ = false;
    if (variant_ != KernelVariant::fast || !fast_->supports(plan_.width(), plan_.height())) return;
    try {
      fast_->prepare(plan_.width(), plan_.height());
      fast_ready_ = true;
    } catch (const BackendError& e) {
      if (std::string(e.what()).find("--- build log ---") != std::string::npos) throw;
    }
  }

  void radix_kernel_name_check() {
    programs_->kernel(radix_program(), "radix_generic");
    programs_->kernel({"digit_reverse.cl", ""}, "digit_reverse");
    if (!fused()) programs_->kernel(twiddle_program(), "twiddle");
  }

  std::size_t local_size(cl_kernel k) {
    auto it = local_sizes_.find(k);
    if (it != local_sizes_.end()) return it->second;
    std::size_t max = 0;
    check(clGetKernelWorkGroupInfo(k, found_.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(max), &max, nullptr),
          "clGetKernelWorkGroupInfo");
    std::size_t local = 64;
    while (local > max && local > 1) local /= 2;
    return local_sizes_[k] = local;
  }

  /// Enqueues a 1D range of `items` work items (rounded up to the work-group size; the kernels
  /// return early beyond `items`) and keeps its event for the timings.
  void dispatch(cl_kernel k, std::size_t items, TimingRecord rec) {
    const std::size_t local = local_size(k);
    const std::size_t global = round_up(std::max<std::size_t>(items, 1), local);
    cl_event ev = nullptr;
    const cl_int err = clEnqueueNDRangeKernel(queue_.get(), k, 1, nullptr, &global, &local, 0, nullptr, &ev);
    check(err, ("clEnqueueNDRangeKernel(" + rec.kernel + ")").c_str());
    rec.execution = current_execution_;
    pending_.push_back({Event(ev), std::move(rec)});
    trim_pending();
  }
  void dispatch_2d(cl_kernel k, std::size_t x, std::size_t y, std::size_t lx, std::size_t ly, TimingRecord rec) {
    const std::size_t global[2] = {round_up(x, lx), round_up(y, ly)}, local[2] = {lx, ly};
    cl_event ev = nullptr;
    check(clEnqueueNDRangeKernel(queue_.get(), k, 2, nullptr, global, local, 0, nullptr, &ev),
          ("clEnqueueNDRangeKernel(" + rec.kernel + ")").c_str());
    rec.execution = current_execution_;
    pending_.push_back({Event(ev), std::move(rec)});
    trim_pending();
  }
  // A caller that never takes its timings must not grow the list without bound.
  void trim_pending() {
    if (pending_.size() > 100000) pending_.pop_front();
  }

  void finish_submit() { check(clFlush(queue_.get()), "clFlush"); }

  TimingRecord stamped(TimingRecord r) const {
    r.execution = current_execution_;
    return r;
  }
  // Every dispatch enqueued while it lives is stamped with a new execution's number.
  struct ExecutionScope {
    ClBackendImpl& backend;
    explicit ExecutionScope(ClBackendImpl& b) : backend(b) { backend.current_execution_ = ++backend.executions_; }
    ~ExecutionScope() { backend.current_execution_ = 0; }
    ExecutionScope(const ExecutionScope&) = delete;
    ExecutionScope& operator=(const ExecutionScope&) = delete;
  };

  // BackendOptions::time_spans: a marker before the scope's dispatches and one after them, kept
  // as a span record of `execution` (also when the scope ends by an exception: the markers are
  // harmless then).
  struct SpanScope {
    ClBackendImpl& backend;
    std::uint64_t execution;
    Event start;
    SpanScope(ClBackendImpl& b, std::uint64_t e) : backend(b), execution(e) {
      if (!backend.time_spans_) return;
      cl_event ev = nullptr;
      check(clEnqueueMarkerWithWaitList(backend.queue_.get(), 0, nullptr, &ev), "clEnqueueMarkerWithWaitList");
      start = Event(ev);
    }
    ~SpanScope() {
      if (!start) return;
      cl_event ev = nullptr;
      if (clEnqueueMarkerWithWaitList(backend.queue_.get(), 0, nullptr, &ev) != CL_SUCCESS) return;
      TimingRecord r;
      r.kernel = transform_span_kernel;
      r.execution = execution;
      r.note = "OpenCL markers before and after its dispatches";
      backend.pending_.push_back({Event(ev), std::move(r), std::move(start)});
    }
  };

  static TimingRecord record(const std::string& kernel, Axis axis, int stage, std::uint32_t radix,
                             std::uint32_t gx, std::uint32_t gy, std::uint64_t bytes, std::string note = {}) {
    TimingRecord r;
    r.kernel = kernel;
    r.axis = axis;
    r.stage = stage;
    r.radix = radix;
    r.global_size = {gx, gy, 1};
    r.bytes = bytes;
    r.note = std::move(note);
    return r;
  }

  cl_mem current() const { return buffers_[current_].get(); }
  cl_mem other() const { return buffers_[1 - current_].get(); }

  void run_axis(Axis axis, const Plan1D& plan, const AxisDevice& tables, Lines g, int last, float sign) {
    const std::size_t elements = std::size_t{g.n} * g.count;
    if (g.n > 1) {
      cl_kernel k = programs_->kernel({"digit_reverse.cl", ""}, "digit_reverse");
      set_args(k, current(), other(), tables.digit_reverse.get(), g.n, g.count, g.stride, g.dist);
      dispatch(k, elements, record("digit_reverse", axis, -1, 0, g.n, g.count, elements * 20));
      current_ = 1 - current_;
    }
    const int stage_count = static_cast<int>(plan.stages.size());
    const int stop = last < 0 ? stage_count : std::min(last, stage_count);
    for (int s = 0; s < stop; ++s) {
      const std::size_t si = static_cast<std::size_t>(s);
      if (plan.stages[si].kind == StageKind::bluestein)
        run_bluestein(axis, plan, si, tables.bluestein.at(si), g, sign);
      else
        run_stage(axis, plan, si, s, current(), g, sign, {});
    }
    if (stop == stage_count && sign < 0 && g.n > 1) {
      cl_kernel k = programs_->kernel({"scale.cl", ""}, "scale");
      set_args(k, current(), u32(elements), 1.0f / static_cast<float>(g.n));
      dispatch(k, elements, record("scale", axis, -1, 0, u32(elements), 1, elements * 16));
    }
  }

  /// One butterfly stage s of `plan` on `data` (lines g); record_stage and the kernel-name
  /// prefix label the timings (Bluestein's inner FFTs: "bluestein_fft_", "bluestein_ifft_").
  void run_stage(Axis axis, const Plan1D& plan, std::size_t s, int record_stage, cl_mem data, Lines g, float sign,
                 const std::string& prefix) {
    const RadixStage& st = plan.stages[s];
    const std::uint32_t r = st.radix;
    const cl_uint per_line = g.n / r;
    const std::size_t butterflies = std::size_t{per_line} * g.count;
    const std::uint64_t bytes = std::uint64_t{g.n} * g.count * 16;
    const std::string rs = std::to_string(r);
    if (st.span == 1 && g.stride == 1 && g.dist == g.n && is_dedicated_radix(r)) {
      // The seeds' first-stage kernel: contiguous vector loads, no twiddles.
      const std::string name = "radix_" + rs + "_first_stage";
      cl_kernel k = programs_->kernel(radix_program(), name);
      set_args(k, data, u32(butterflies), sign);
      dispatch(k, butterflies, record(prefix + name, axis, record_stage, r, per_line, g.count, bytes));
      return;
    }
    const float exp_const = static_cast<float>(-2.0 * std::numbers::pi / st.ni);
    if (!fused() && st.span > 1) {
      cl_kernel k = programs_->kernel(twiddle_program(), "twiddle");
      set_args(k, data, cl_uint{st.span}, cl_uint{r}, cl_uint{st.ni}, g.n, g.count, g.stride, g.dist, sign, exp_const);
      const std::string name = variant_ == KernelVariant::plain ? "twiddle_plain" : "twiddle_optimized";
      dispatch(k, std::size_t{g.n} * g.count, record(prefix + name, axis, record_stage, r, g.n, g.count, bytes));
    }
    const bool dedicated = is_dedicated_radix(r);
    const std::string kernel_name = dedicated ? "radix_" + rs : "radix_generic";
    cl_kernel k = programs_->kernel(radix_program(), kernel_name);
    set_args(k, data, cl_uint{st.span}, cl_uint{st.ni}, per_line, g.count, g.stride, g.dist, sign, exp_const);
    if (!dedicated) set_arg(k, 9, cl_uint{r});
    const std::string label = prefix + "radix_" + rs + (fused() ? "_fused" : "");
    dispatch(k, butterflies,
             record(label, axis, record_stage, r, per_line, g.count, bytes, dedicated ? "" : "generic radix"));
  }

  /// A Bluestein stage: premultiply (twiddle, chirp, gather) into scratch, forward m-point FFT,
  /// filter (and gather), forward FFT of the conjugate, postmultiply back into the buffer.
  void run_bluestein(Axis axis, const Plan1D& plan, std::size_t s, const BluesteinDevice& tables, Lines g,
                     float sign) {
    const RadixStage& st = plan.stages[s];
    const cl_uint p = st.radix, m = st.bluestein.m;
    const cl_uint per_line = g.n / p;
    const cl_uint batch = u32(std::size_t{per_line} * g.count);
    const std::size_t scratch_bytes = std::size_t{batch} * m * sizeof(Complex);
    if (scratch_bytes > scratch_bytes_) {
      scratch_a_ = make_buffer(CL_MEM_READ_WRITE, scratch_bytes);
      scratch_b_ = make_buffer(CL_MEM_READ_WRITE, scratch_bytes);
      scratch_bytes_ = scratch_bytes;
    }
    const int stage = static_cast<int>(s);
    const std::size_t bm = std::size_t{batch} * m;
    const ProgramKey program{"bluestein.cl", ""};
    cl_mem data = current();

    cl_kernel pre = programs_->kernel(program, "bluestein_premultiply");
    set_args(pre, data, scratch_a_.get(), tables.chirp.get(), tables.inner_table.get(), p, m, cl_uint{st.span},
             cl_uint{st.ni}, per_line, batch, g.stride, g.dist, sign);
    dispatch(pre, bm,
             record("bluestein_premultiply", axis, stage, p, m, batch, std::uint64_t{batch} * (p * 24 + m * 12)));

    const Plan1D& inner = *st.bluestein.inner;
    const Lines ig{m, batch, 1, m};
    for (std::size_t i = 0; i < inner.stages.size(); ++i)
      run_stage(axis, inner, i, stage, scratch_a_.get(), ig, 1.0f, "bluestein_fft_");

    cl_kernel filt = programs_->kernel(program, "bluestein_convolve");
    set_args(filt, scratch_a_.get(), scratch_b_.get(), tables.filter.get(), tables.inner_table.get(), m, batch);
    dispatch(filt, bm, record("bluestein_convolve", axis, stage, p, m, batch, std::uint64_t{batch} * m * 28));

    for (std::size_t i = 0; i < inner.stages.size(); ++i)
      // The inverse m-point FFT, run forward on conjugated data (see bluestein.cl).
      run_stage(axis, inner, i, stage, scratch_b_.get(), ig, 1.0f, "bluestein_ifft_");

    cl_kernel post = programs_->kernel(program, "bluestein_postmultiply");
    set_args(post, scratch_b_.get(), data, tables.chirp.get(), p, m, cl_uint{st.span}, cl_uint{st.ni}, per_line, batch,
             g.stride, g.dist, sign);
    dispatch(post, std::size_t{batch} * p,
             record("bluestein_postmultiply", axis, stage, p, p, batch, std::uint64_t{batch} * p * 24));
  }

  /// current (height rows of width) -> other (width rows of height), then swap.
  void transpose(cl_uint width, cl_uint height) {
    cl_kernel k = programs_->kernel({"transpose.cl", "-D TILE=" + std::to_string(transpose_tile)}, "transpose");
    set_args(k, current(), other(), width, height);
    dispatch_2d(k, width, height, transpose_tile, transpose_tile,
                record("transpose", Axis::cols, -1, 0, width, height, std::uint64_t{width} * height * 16));
    current_ = 1 - current_;
  }

  void compute_display(const SpectrumSettings& settings) {
    const std::size_t w = plan_.width(), h = plan_.height(), count = w * h;
    if (!display_.values) {
      display_.values = make_buffer(CL_MEM_READ_WRITE, count * sizeof(float));
      display_.rgba = make_buffer(CL_MEM_READ_WRITE, count * 4);
      display_.partial_groups = range_reduce_groups(count, reduce_wg_);
      display_.partials = make_buffer(CL_MEM_READ_WRITE, display_.partial_groups * 2 * sizeof(float));
      display_.range = make_buffer(CL_MEM_READ_WRITE, 2 * sizeof(float));
      display_.lut = make_buffer(CL_MEM_READ_ONLY, 256 * 4);
      display_.lut_colormap = -1;
    }
    if (display_.lut_colormap != static_cast<int>(settings.colormap)) {
      std::vector<std::uint8_t> lut(256 * 4, 255);
      const auto& table = colormap_table(settings.colormap);
      for (std::size_t i = 0; i < 256; ++i)
        for (std::size_t c = 0; c < 3; ++c) lut[4 * i + c] = table[i][c];
      check(clEnqueueWriteBuffer(queue_.get(), display_.lut.get(), CL_TRUE, 0, lut.size(), lut.data(), 0, nullptr,
                                 nullptr),
            "clEnqueueWriteBuffer (colormap)");
      display_.lut_colormap = static_cast<int>(settings.colormap);
    }
    const ProgramKey program{"display.cl", "-D REDUCE_WG=" + std::to_string(reduce_wg_)};
    const cl_uint cw = u32(w), ch = u32(h), shift = settings.shift ? 1 : 0;
    const cl_uint component = static_cast<cl_uint>(settings.component);
    const cl_uint log_scale = settings.scale == SpectrumScale::log ? 1 : 0;

    cl_kernel values = programs_->kernel(program, "display_values");
    set_args(values, current(), display_.values.get(), cw, ch, shift, component, log_scale);
    dispatch_2d(values, w, h, 16, 4, record("spectrum_values", Axis::cols, -1, 0, cw, ch, count * 12, "display"));

    if (settings.auto_range) {
      cl_kernel partial = programs_->kernel(program, "display_range_partial");
      set_args(partial, display_.values.get(), u32(count), display_.partials.get());
      const std::size_t global = display_.partial_groups * reduce_wg_;
      cl_event ev = nullptr;
      check(clEnqueueNDRangeKernel(queue_.get(), partial, 1, nullptr, &global, &reduce_wg_, 0, nullptr, &ev),
            "clEnqueueNDRangeKernel(display_range_partial)");
      pending_.push_back({Event(ev), stamped(record("minmax_reduce", Axis::cols, -1, 0, u32(global), 1, count * 4, "display"))});
      cl_kernel final_k = programs_->kernel(program, "display_range_final");
      set_args(final_k, display_.partials.get(), u32(display_.partial_groups), display_.range.get());
      check(clEnqueueNDRangeKernel(queue_.get(), final_k, 1, nullptr, &reduce_wg_, &reduce_wg_, 0, nullptr, &ev),
            "clEnqueueNDRangeKernel(display_range_final)");
      pending_.push_back({Event(ev), stamped(record("minmax_reduce_partials", Axis::cols, -1, 0, u32(reduce_wg_), 1,
                                                    display_.partial_groups * 8 + 8, "display"))});
    }
    cl_kernel colorize = programs_->kernel(program, "display_colorize");
    const cl_uint hue = settings.component == SpectrumComponent::phase_hue ? 1 : 0;
    const cl_uint use_range = settings.auto_range ? 1 : 0;
    set_args(colorize, display_.values.get(), current(), display_.range.get(), display_.lut.get(),
             display_.rgba.get(), cw, ch, shift, hue, use_range, settings.range_min, settings.range_max, settings.gain);
    dispatch_2d(colorize, w, h, 16, 4,
                record("spectrum_colorize", Axis::cols, -1, 0, cw, ch, count * (8 + (hue ? 8 : 0)), "display"));
  }

#ifdef FFTSCOPE_CL_WITH_GL
  cl_mem gl_image(std::uint32_t texture) {
    auto it = gl_images_.find(texture);
    if (it != gl_images_.end() && it->second.width == plan_.width() && it->second.height == plan_.height())
      return it->second.image.get();
    cl_int err = CL_SUCCESS;
    Mem image(clCreateFromGLTexture(context_.get(), CL_MEM_WRITE_ONLY, gl_texture_2d, 0, texture, &err));
    check(err, "clCreateFromGLTexture");
    GlImage& entry = gl_images_[texture];
    entry = {std::move(image), plan_.width(), plan_.height()};
    return entry.image.get();
  }
  struct GlImage {
    Mem image;
    std::size_t width = 0, height = 0;
  };
  std::map<std::uint32_t, GlImage> gl_images_;
#endif

  FoundDevice found_;
  Context context_;
  Queue queue_;
  std::unique_ptr<ProgramCache> programs_;
  std::unique_ptr<ClFastPath> fast_;
  std::unique_ptr<ClFastDisplay> real_display_;  // the real-input display path (issue 6)
  bool real_through_display_ = false, real_display_done_ = false;
  bool fast_ready_ = false;
  std::string interop_path_;
  bool gl_shared_ = false;
  ClColumnPass column_pass_ = ClColumnPass::strided;
  bool time_spans_ = false;
  std::unique_ptr<PlanWisdom> wisdom_;  // BackendOptions::measure_fast_plans: the choices kept; else null
  std::size_t reduce_wg_ = 256;

  bool prepared_ = false;
  Plan2D plan_;
  KernelVariant variant_ = KernelVariant::fused;
  Mem buffers_[2];
  Mem real_fallback_image_;  // the real display's complex fallback: the uploaded image, kept
  int current_ = 0;
  AxisDevice rows_, cols_;
  Mem scratch_a_, scratch_b_;
  std::size_t scratch_bytes_ = 0;
  DisplayBuffers display_;

  std::map<cl_kernel, std::size_t> local_sizes_;
  std::deque<Pending> pending_;
  std::vector<TimingRecord> host_records_;
  std::uint64_t executions_ = 0;         // execute() calls so far
  std::uint64_t current_execution_ = 0;  // the one running now, 0 outside execute()
};

}  // namespace

std::unique_ptr<Backend> make_cl_backend(const BackendOptions& options) {
  return std::make_unique<ClBackendImpl>(options);
}

std::vector<DeviceInfo> list_cl_devices() {
  std::vector<DeviceInfo> out;
  for (const FoundDevice& d : find_devices()) {
    std::ostringstream detail;
    detail << d.platform_name << ", " << device_string(d.device, CL_DEVICE_VERSION) << ", "
           << (d.gpu ? "GPU" : "non-GPU") << ", " << d.compute_units << " compute units";
    for (const char* ext : {"cl_khr_gl_sharing", "cl_khr_gl_event", "cl_khr_external_memory",
                            "cl_khr_external_memory_opaque_fd"})
      if (has_extension(d.device, ext)) detail << ", " << ext;
    out.push_back({BackendKind::cl, d.id, d.name, detail.str(), true});
  }
  return out;
}

}  // namespace fftscope
