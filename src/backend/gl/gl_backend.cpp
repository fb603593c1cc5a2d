#include "backend/gl/gl_backend.h"

#include <glad/egl.h>
#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <optional>
#include <variant>

#include "backend/gl/gl_context.h"
#include "backend/gl/gl_fast_display.h"
#include "backend/gl/gl_fast_path.h"
#include "backend/gl/gl_programs.h"
#include "backend/gl/gl_timers.h"
#include "backend/gl/gl_shaders.h"
#include "core/errors.h"
#include "core/plan_wisdom.h"

namespace fftscope {
namespace detail {
namespace {

// Whether `texture` is a complete GL_RGBA8 2D texture whose level 0 is w x h: imageStore to an
// incomplete texture is silently dropped, and a mutable texture with only level 0 is complete
// only without a mipmap filter (or with GL_TEXTURE_MAX_LEVEL 0).
bool imageable_rgba8_texture(std::uint32_t texture, std::size_t w, std::size_t h) {
  GLint previous = 0, tw = 0, th = 0, format = 0, immutable = 0, min_filter = 0, max_level = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  glBindTexture(GL_TEXTURE_2D, texture);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &tw);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &th);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &min_filter);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, &max_level);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  const bool mipmap_filter = min_filter != GL_NEAREST && min_filter != GL_LINEAR;
  const bool complete = immutable != 0 || !mipmap_filter || max_level == 0;
  return glGetError() == GL_NO_ERROR && static_cast<std::size_t>(tw) == w && static_cast<std::size_t>(th) == h &&
         format == GL_RGBA8 && complete;
}


GlProcLoader current_context_loader = nullptr;

std::string gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_CONTEXT_LOST: return "GL_CONTEXT_LOST";
    default: return "GL error " + std::to_string(e);
  }
}

/// glGetGraphicsResetStatus (GL 4.5, else ARB_robustness), GL_NO_ERROR where neither exists.
GLenum graphics_reset_status() {
  if (glad_glGetGraphicsResetStatus != nullptr) return glad_glGetGraphicsResetStatus();
  if (glad_glGetGraphicsResetStatusARB != nullptr) return glad_glGetGraphicsResetStatusARB();
  return GL_NO_ERROR;
}

std::string reset_name(GLenum status) {
  switch (status) {
    case GL_GUILTY_CONTEXT_RESET: return "GL_GUILTY_CONTEXT_RESET";
    case GL_INNOCENT_CONTEXT_RESET: return "GL_INNOCENT_CONTEXT_RESET";
    case GL_UNKNOWN_CONTEXT_RESET: return "GL_UNKNOWN_CONTEXT_RESET";
    default: return "reset status " + std::to_string(status);
  }
}

/// A buffer object; storage is (re)made by allocate().
class GlBuffer {
 public:
  GlBuffer() = default;
  ~GlBuffer() { reset(); }
  GlBuffer(const GlBuffer&) = delete;
  GlBuffer& operator=(const GlBuffer&) = delete;

  void allocate(std::size_t bytes, const void* data = nullptr) {
    if (id_ == 0) glGenBuffers(1, &id_);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
    // Zero-sized storage is legal but cannot be bound as an SSBO range; keep one element.
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(std::max<std::size_t>(bytes, 16)), nullptr,
                 GL_DYNAMIC_COPY);
    if (data != nullptr && bytes > 0) glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(bytes), data);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    bytes_ = bytes;
  }
  void upload(const void* data, std::size_t bytes) {
    assert(bytes <= bytes_ && "upload larger than the buffer");
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(bytes), data);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  }
  void download(void* data, std::size_t bytes) const {
    assert(bytes <= bytes_ && "download larger than the buffer");
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(bytes), data);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  }
  void reset() {
    if (id_ != 0) glDeleteBuffers(1, &id_);
    id_ = 0;
    bytes_ = 0;
  }
  GLuint id() const { return id_; }
  std::size_t bytes() const { return bytes_; }

 private:
  GLuint id_ = 0;
  std::size_t bytes_ = 0;
};

/// Where the lines of one transform pass live (see shaders/common.glsl).
struct LineLayout {
  std::uint32_t length = 0;       // N
  std::uint32_t lines = 0;        // batch
  std::uint32_t elem_stride = 1;  // between elements of a line
  std::uint32_t line_stride = 0;  // between lines
};

struct BluesteinBuffers {
  GlBuffer chirp;   // p vec2, forward
  GlBuffer filter;  // m vec2, forward
  GlBuffer table;   // m uint: digit-reverse of the inner plan
};

struct AxisBuffers {
  GlBuffer digit_reverse;
  std::vector<std::unique_ptr<BluesteinBuffers>> bluestein;  // per stage; null for butterflies
};

using UniformValue = std::variant<std::uint32_t, float>;

/// One compute dispatch, as the pipeline describes it.
struct Dispatch {
  ProgramKey key;
  std::vector<std::pair<const char*, UniformValue>> uniforms;
  std::vector<std::pair<GLuint, GLuint>> buffers;  // (binding, buffer)
  std::uint64_t items = 0;                          // u_items; groups = ceil(items / local size)
  std::optional<std::array<std::uint32_t, 2>> groups;  // explicit group counts instead
  std::vector<float> dft_w;                         // generic radix roots, (re, im) pairs
  TimingRecord record;
};

std::vector<std::uint32_t> radices_of(const Plan1D& plan) { return plan.radices(); }

std::vector<float> to_vec2_floats(const std::vector<std::complex<double>>& values) {
  std::vector<float> out;
  out.reserve(values.size() * 2);
  for (const auto& v : values) {
    out.push_back(static_cast<float>(v.real()));
    out.push_back(static_cast<float>(v.imag()));
  }
  return out;
}

bool dedicated_radix(std::uint32_t r) { return r == 2 || r == 3 || r == 4 || r == 5 || r == 7 || r == 8; }

const char* sign_define(Direction d) { return d == Direction::forward ? "-1.0" : "1.0"; }
double sign_of(Direction d) { return d == Direction::forward ? -1.0 : 1.0; }

class GlBackend final : public Backend {
 public:
  GlBackend(const BackendOptions& options, const GlBackendTuning& tuning) : tuning_(tuning) {
    time_spans_ = options.time_spans;
    if (tuning_.local_size == 0 || tuning_.local_size > 1024 || (tuning_.local_size & (tuning_.local_size - 1)) != 0)
      throw UsageError("GL local size must be a power of two <= 1024");
    if (options.use_current_gl_context) {
      load_gl_for_current_context(current_context_loader);
    } else {
      context_ = EglContext::create();
    }
    name_ = current_gl_description();
    if (context_) name_ += " (" + context_->platform() + ")";
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const std::string r = renderer ? renderer : "";
    if (options.measure_fast_plans) wisdom_ = std::make_unique<PlanWisdom>(PlanWisdom::default_path());
    DispatchTimers::Mode mode = (r.find("llvmpipe") != std::string::npos || r.find("softpipe") != std::string::npos)
                                    ? DispatchTimers::Mode::host
                                    : DispatchTimers::Mode::gpu;
    if (const char* t = std::getenv("FFTSCOPE_GL_TIMER")) {
      if (std::string(t) == "host") mode = DispatchTimers::Mode::host;
      if (std::string(t) == "gpu") mode = DispatchTimers::Mode::gpu;
    }
    timers_ = std::make_unique<DispatchTimers>(mode);
    programs_ = std::make_unique<ProgramCache>(SourceFiles(gl_shaders::shader_files(), options.source_dir), "#version 430 core");
    const fast::Tuning display_tuning = fast::tuning_from_env(fast::gl_default_tuning());
    real_display_ = std::make_unique<GlFastDisplay>(*programs_, timers_.get(), display_tuning,
                                                    measuring(fast::measure_display_candidates(display_tuning, true)));
    GLint64 limit = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &limit);
    max_ssbo_bytes_ = static_cast<std::uint64_t>(limit);
    drain_errors();
  }

  ~GlBackend() override {
    // GL objects die with the context they were made in: make ours current first (the members
    // are destroyed after this body, the context last).
    try {
      if (context_) context_->make_current();
    } catch (const BackendError&) {
      // Nothing to clean up in a context we cannot reach; destroying it frees its objects.
    }
  }

  BackendKind kind() const override { return BackendKind::gl; }
  std::string device_name() const override { return name_; }

  DeviceMemoryLimit memory_limit() const override {
    DeviceMemoryLimit limit;
    limit.max_allocation = max_ssbo_bytes_;
    limit.allocation_source = "GL_MAX_SHADER_STORAGE_BLOCK_SIZE";
    try {
      if (context_) context_->make_current();
    } catch (const BackendError&) {
      return limit;
    }
    // Both extensions answer in KiB: what is free now (NVIDIA), the free buffer pool (AMD).
    GLint kib[4] = {0, 0, 0, 0};
    if (GLAD_GL_NVX_gpu_memory_info) {
      glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, kib);
      limit.total_source = "GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX";
    } else if (GLAD_GL_ATI_meminfo) {
      glGetIntegerv(GL_VBO_FREE_MEMORY_ATI, kib);
      limit.total_source = "GL_VBO_FREE_MEMORY_ATI";
    }
    if (glGetError() == GL_NO_ERROR && kib[0] > 0) {
      limit.total = static_cast<std::uint64_t>(kib[0]) * 1024;
    } else {
      // No figure from the driver (llvmpipe, whose buffers live in host memory): physical RAM.
      limit.total = physical_memory_bytes();
      limit.total_source = "physical RAM; the GL driver reports no memory size";
    }
    return limit;
  }

  void prepare(const Plan2D& plan, KernelVariant variant) override {
    enter();
    const bool same_shape = prepared_ && plan_.width() == plan.width() && plan_.height() == plan.height() &&
                            radices_of(plan_.rows) == radices_of(plan.rows) &&
                            radices_of(plan_.cols) == radices_of(plan.cols);
    prepared_ = false;
    plan_ = plan;
    variant_ = variant;
    if (!same_shape) allocate();
    check_errors("prepare (buffers)");
    prepared_ = true;
    // A shader error leaves the backend prepared: once the file is fixed, execute() recompiles.
    programs_->reload_if_changed();
    precompile();
    prepare_fast_path();
    check_errors("prepare");
  }

  void upload(const ComplexImage& image) override {
    enter();
    assert(prepared_ && "prepare before upload");
    assert(image.width == plan_.width() && image.height == plan_.height() && "image size must match the plan");
    data_[0].upload(image.data.data(), image.data.size() * sizeof(Complex));
    current_ = 0;
    check_errors("upload");
  }

  void execute(Direction direction, StageStop stop) override {
    enter(false);  // dispatch_transform settles the owed barrier where the pipeline runs
    assert(prepared_ && "prepare before execute");
    programs_->reload_if_changed();
    const ExecutionScope execution(*timers_, ++executions_);
    dispatch_transform(direction, stop, time_spans_);
    glUseProgram(0);
    check_errors("execute");
  }

  // The transform's dispatches (execute's, without its execution number): the fast variant runs
  // whole axes in one dispatch each (in place), inside a span where `span`; a stop inside an
  // axis, or a size it does not support, takes the fused stage pipeline instead.
  void dispatch_transform(Direction direction, StageStop stop, bool span) {
    if (variant_ == KernelVariant::fast && fast_ready_ && stop.is_done()) {
      const SpanScope scope(*timers_, span);
      // The next reader is most often the fast path again (the benchmark; forward then inverse),
      // which issues the barrier its own reads need first; the storage barrier, which costs the
      // next dispatch its instruction caches on NVIDIA (fast::Tuning::texture_inputs), is owed to
      // whatever else comes next (enter()).
      // A folded size (GlFastPath::folds) leaves the result in the other buffer, which becomes
      // the current one, as the pipeline's ping-pong passes do.
      const GLuint result = fast_->dispatch(current(), data_texture_[current_].id(), direction,
                                            GL_TEXTURE_FETCH_BARRIER_BIT, other(), data_texture_[1 - current_].id());
      if (result != current()) flip();
      owed_barrier_ = GL_SHADER_STORAGE_BARRIER_BIT;
    } else {
      settle_barrier();
      run_pipeline(direction, stop);
    }
  }

  ComplexImage download() override {
    enter();
    assert(prepared_ && "prepare before download");
    ComplexImage out(plan_.width(), plan_.height());
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    data_[current_].download(out.data.data(), out.data.size() * sizeof(Complex));
    check_errors("download");
    return out;
  }

  void finish() override {
    enter();
    glFinish();
    check_errors("finish");
  }

  std::string fast_plan_description() const override {
    if (variant_ != KernelVariant::fast || !fast_ready_) return {};
    return fast_->route(Axis::rows).describe() + "; " + fast_->route(Axis::cols).describe();
  }

  std::vector<TimingRecord> take_timings() override {
    enter();
    return timers_->take();
  }

  bool render_to_gl_texture(std::uint32_t texture, const SpectrumSettings& settings) override;

  // The real-input display path (issue 6): GlFastDisplay where it takes the size, else the image
  // as complex data through the fast variant, then render_to_gl_texture into a texture of ours.
  RealDisplayPath real_display_path(std::size_t width, std::size_t height) const override {
    if (!real_display_->supports(width, height)) return RealDisplayPath::fallback;
    return real_display_->fused_plans(width, height) ? RealDisplayPath::fused : RealDisplayPath::routed;
  }
  void upload_real(const RealImage& image) override {
    enter();
    real_through_display_ = real_display_->supports(image.width, image.height);
    real_display_done_ = false;
    if (real_through_display_) {
      real_display_->prepare(image.width, image.height);
      real_display_->upload(image);
      return check_errors("upload_real");
    }
    prepare(make_plan_2d(image.width, image.height), KernelVariant::fast);
    ComplexImage complex(image.width, image.height);
    for (std::size_t i = 0; i < image.data.size(); ++i) complex.data[i] = {image.data[i], 0.0f};
    // Kept apart from the transform's buffers, which it runs in place on: each display copies it
    // into them first (execute_real_display).
    real_fallback_image_.allocate(complex.data.size() * sizeof(Complex), complex.data.data());
    check_errors("upload_real");
  }
  void execute_real_display(const SpectrumSettings& settings, bool previous_range) override {
    enter();
    if (real_through_display_) {
      programs_->reload_if_changed();
      {
        const ExecutionScope execution(*timers_, ++executions_);
        const SpanScope span(*timers_, time_spans_);
        real_display_->dispatch_display(settings, previous_range);
      }
      glUseProgram(0);
      check_errors("execute_real_display");
    } else {
      if (!prepared_) throw BackendError("OpenGL: execute_real_display() before upload_real()");
      programs_->reload_if_changed();
      const unsigned texture = real_display_->fallback_texture(plan_.width(), plan_.height());
      bool drawn = false;
      {
        // The display dispatches count with the transform, inside its span (BackendOptions::time_spans).
        const ExecutionScope execution(*timers_, ++executions_);
        const SpanScope span(*timers_, time_spans_);
        current_ = 0;
        glBindBuffer(GL_COPY_READ_BUFFER, real_fallback_image_.id());
        glBindBuffer(GL_COPY_WRITE_BUFFER, current());
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                            static_cast<GLsizeiptr>(real_fallback_image_.bytes()));
        glBindBuffer(GL_COPY_READ_BUFFER, 0);
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        dispatch_transform(Direction::forward, StageStop::done(), false);
        drawn = render_to_gl_texture(texture, settings);
      }
      glUseProgram(0);
      check_errors("execute_real_display");
      if (!drawn) throw BackendError("OpenGL: the display of the real image (complex fallback) failed");
    }
    real_display_done_ = true;
  }
  RgbaImage download_real_display() override {
    enter();
    if (!real_display_done_) throw BackendError("OpenGL: download_real_display() before execute_real_display()");
    RgbaImage out = real_through_display_ ? real_display_->download_rgba() : real_display_->download_fallback();
    check_errors("download_real_display");
    return out;
  }
  bool real_display_to_gl_texture(std::uint32_t texture) override {
    enter();
    if (!real_display_done_) return false;
    // The fused path's pixels (a buffer), or the complex fallback's texture (plan-sized).
    if (real_through_display_) {
      if (!imageable_rgba8_texture(texture, real_display_->width(), real_display_->height()))
        throw BackendError("OpenGL: real_display_to_gl_texture needs a complete GL_RGBA8 texture of the image's size");
      real_display_->copy_to_texture(texture);
    } else {
      // The fallback's imageStore writes before the copy reads them.
      glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      glCopyImageSubData(real_display_->fallback_texture_id(), GL_TEXTURE_2D, 0, 0, 0, 0, texture, GL_TEXTURE_2D, 0, 0,
                         0, 0, static_cast<GLsizei>(plan_.width()), static_cast<GLsizei>(plan_.height()), 1);
    }
    check_errors("real_display_to_gl_texture (a GL_RGBA8 texture of the image's size)");
    return true;
  }

 private:
  // Every entry point but execute() settles the barrier a fast transform left owed.
  void enter(bool settle = true) {
    if (context_) context_->make_current();
    drain_errors();
    if (settle) settle_barrier();
  }
  void settle_barrier() {
    if (owed_barrier_ != 0) glMemoryBarrier(owed_barrier_);
    owed_barrier_ = 0;
  }
  static void drain_errors() {
    for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
    }
  }
  // A lost context (driver reset, GPU hang) may show only in the reset status, not in glGetError.
  static void check_errors(const std::string& where) {
    const GLenum e = glGetError();
    const GLenum reset = graphics_reset_status();
    if (e == GL_NO_ERROR && reset == GL_NO_ERROR) return;
    std::string what = e != GL_NO_ERROR ? gl_error_name(e) : "";
    if (reset != GL_NO_ERROR) what += (what.empty() ? "" : "; ") + std::string("the context was lost (") + reset_name(reset) + ")";
    throw BackendError("OpenGL backend: " + where + " failed: " + what);
  }

  std::uint64_t executions_ = 0;  // execute() calls so far; stamps the timing records
  bool time_spans_ = false;        // BackendOptions::time_spans

  // Stamps every timing record while it lives with `execution`.
  struct ExecutionScope {
    DispatchTimers& timers;
    ExecutionScope(DispatchTimers& t, std::uint64_t execution) : timers(t) { timers.set_execution(execution); }
    ~ExecutionScope() { timers.set_execution(0); }
    ExecutionScope(const ExecutionScope&) = delete;
    ExecutionScope& operator=(const ExecutionScope&) = delete;
  };

  // BackendOptions::time_spans: one record (GL_TIME_ELAPSED, or the host clock where that
  // measures nothing) around the fast path's dispatches, which then record nothing themselves:
  // GL allows one such query at a time, and one per dispatch cost a 256^2 transform 2.3 us
  // (H100: 15.9 us summed over its two dispatches, 13.6 in one query around both).
  struct SpanScope {
    DispatchTimers& timers;
    bool on;
    SpanScope(DispatchTimers& t, bool enabled) : timers(t), on(enabled) {
      if (!on) return;
      TimingRecord r;
      r.kernel = transform_span_kernel;
      r.note = "one GL_TIME_ELAPSED query around its dispatches";
      timers.begin(std::move(r));
      timers.set_enabled(false);
    }
    ~SpanScope() {
      if (!on) return;
      timers.set_enabled(true);
      timers.end();
    }
    SpanScope(const SpanScope&) = delete;
    SpanScope& operator=(const SpanScope&) = delete;
  };

  void allocate();
  void precompile();
  /// Readies the fast path (shaders/fast_fft.comp) for the fast variant where the size allows.
  /// BackendOptions::measure_fast_plans: these candidates, the choices kept in wisdom_ under
  /// this context's renderer and version; else none.
  fast::Measuring measuring(std::vector<fast::Tuning> candidates) const {
    if (!wisdom_) return {};
    return {std::move(candidates), wisdom_.get(), "gl: " + name_};
  }

  void prepare_fast_path() {
    fast_ready_ = false;
    if (variant_ != KernelVariant::fast) return;
    if (!fast_) {
      const fast::Tuning tuning = fast::tuning_from_env(fast::gl_default_tuning());
      fast_ = std::make_unique<GlFastPath>(*programs_, timers_.get(), tuning,
                                           measuring(fast::measure_candidates(tuning, true)));
    }
    if (!fast_->supports(plan_.width(), plan_.height())) return;
    fast_->prepare(plan_.width(), plan_.height());  // a compile error throws, like any shader's
    fast_ready_ = true;
  }
  void run_pipeline(Direction direction, StageStop stop);
  void run_axis(Axis axis, const Plan1D& plan, const LineLayout& layout, Direction direction, int last_stage,
                AxisBuffers& buffers);
  void run_butterfly_stage(Axis axis, int stage_index, const RadixStage& stage, const LineLayout& layout,
                           Direction direction, float scale, GLuint buffer, const std::string& prefix);
  void run_bluestein_stage(Axis axis, int stage_index, const RadixStage& stage, const LineLayout& layout,
                           Direction direction, float scale, BluesteinBuffers& tables);
  void transpose(std::uint32_t width, std::uint32_t height, const char* name);
  void run(Dispatch d);
  ProgramKey key(const char* shader) const {
    ProgramKey k;
    k.shader = shader;
    k.local_x = tuning_.local_size;
    return k;
  }
  static void add_layout(Dispatch& d, const LineLayout& l) {
    d.uniforms.push_back({"u_line_length", l.length});
    d.uniforms.push_back({"u_elem_stride", l.elem_stride});
    d.uniforms.push_back({"u_line_stride", l.line_stride});
  }
  GLuint other() const { return data_[1 - current_].id(); }
  GLuint current() const { return data_[current_].id(); }
  void flip() { current_ = 1 - current_; }

  GlBackendTuning tuning_;
  std::unique_ptr<EglContext> context_;
  std::unique_ptr<ProgramCache> programs_;
  std::unique_ptr<DispatchTimers> timers_;
  std::unique_ptr<PlanWisdom> wisdom_;  // BackendOptions::measure_fast_plans: the choices kept; else null
  std::unique_ptr<GlFastPath> fast_;  // the fast variant's whole-axis kernels (issue 6)
  std::unique_ptr<GlFastDisplay> real_display_;  // the real-input display path (issue 6)
  bool real_through_display_ = false, real_display_done_ = false;
  bool fast_ready_ = false;
  std::string name_;
  std::uint64_t max_ssbo_bytes_ = 0;

  Plan2D plan_;
  KernelVariant variant_ = KernelVariant::fused;
  bool prepared_ = false;
  bool dry_run_ = false;  // precompile: fetch programs, dispatch nothing

  GlBuffer data_[2];  // ping-pong image buffers, W x H vec2 row-major
  BufferTexture data_texture_[2];  // over data_ (made again with their storage), for the fast path's texture inputs
  GLbitfield owed_barrier_ = 0;      // barrier bits a fast transform left to whatever reads next
  GlBuffer real_fallback_image_;  // the real display's complex fallback: the uploaded image, kept
  int current_ = 0;   // which of data_ holds the image
  AxisBuffers rows_, cols_;
  GlBuffer scratch_[2];  // Bluestein: batch x m each

  // Spectrum display.
  GlBuffer values_, partials_, range_, lut_;
  std::optional<Colormap> lut_colormap_;
};

void GlBackend::allocate() {
  const std::size_t w = plan_.width(), h = plan_.height();
  const std::uint64_t image_bytes = std::uint64_t{w} * h * sizeof(Complex);
  if (w * h >= (std::size_t{1} << 31)) throw BackendError("OpenGL backend: image too large (32-bit indices)");
  std::uint64_t scratch_elems = 0;
  auto bluestein_size = [&](const Plan1D& p, std::size_t lines) {
    for (const RadixStage& s : p.stages)
      if (s.kind == StageKind::bluestein)
        scratch_elems = std::max<std::uint64_t>(scratch_elems, std::uint64_t{lines} * (p.n / s.radix) * s.bluestein.m);
  };
  bluestein_size(plan_.rows, h);
  bluestein_size(plan_.cols, w);
  const std::uint64_t largest = std::max(image_bytes, scratch_elems * sizeof(Complex));
  if (largest > max_ssbo_bytes_ || scratch_elems >= (std::uint64_t{1} << 31))
    throw BackendError("OpenGL backend: a " + std::to_string(w) + "x" + std::to_string(h) + " plan needs a " +
                       std::to_string(largest >> 20) + " MiB buffer; this GL allows " +
                       std::to_string(max_ssbo_bytes_ >> 20) + " MiB per shader storage block");
  data_[0].allocate(image_bytes);
  data_[1].allocate(image_bytes);
  for (int i = 0; i < 2; ++i) data_texture_[i].attach(data_[i].id());
  current_ = 0;
  for (auto* axis : {&rows_, &cols_}) {
    const Plan1D& p = axis == &rows_ ? plan_.rows : plan_.cols;
    axis->digit_reverse.allocate(p.digit_reverse.size() * 4, p.digit_reverse.data());
    axis->bluestein.clear();
    for (const RadixStage& s : p.stages) {
      if (s.kind != StageKind::bluestein) {
        axis->bluestein.push_back(nullptr);
        continue;
      }
      auto b = std::make_unique<BluesteinBuffers>();
      const std::vector<float> chirp = to_vec2_floats(s.bluestein.chirp);
      const std::vector<float> filter = to_vec2_floats(s.bluestein.filter_spectrum);
      b->chirp.allocate(chirp.size() * 4, chirp.data());
      b->filter.allocate(filter.size() * 4, filter.data());
      b->table.allocate(s.bluestein.inner->digit_reverse.size() * 4, s.bluestein.inner->digit_reverse.data());
      axis->bluestein.push_back(std::move(b));
    }
  }
  scratch_[0].allocate(scratch_elems * sizeof(Complex));
  scratch_[1].allocate(scratch_elems * sizeof(Complex));
  values_.reset();
}

void GlBackend::precompile() {
  // Run the pipeline without dispatching, so every program this plan needs is compiled now and
  // a shader error surfaces from prepare() rather than midway through a transform.
  const int saved = current_;
  dry_run_ = true;
  try {
    run_pipeline(Direction::forward, StageStop::done());
    run_pipeline(Direction::inverse, StageStop::done());
  } catch (...) {
    dry_run_ = false;
    current_ = saved;
    throw;
  }
  dry_run_ = false;
  current_ = saved;
}

void GlBackend::run(Dispatch d) {
  Program& program = programs_->get(d.key);
  if (dry_run_) return;
  glUseProgram(program.id);
  const int items_loc = program.location("u_items");
  if (items_loc >= 0) glUniform1ui(items_loc, static_cast<GLuint>(d.items));
  for (const auto& [name, value] : d.uniforms) {
    const int loc = program.location(name);
    if (loc < 0) continue;  // the compiler dropped it in this variant
    if (std::holds_alternative<std::uint32_t>(value))
      glUniform1ui(loc, std::get<std::uint32_t>(value));
    else
      glUniform1f(loc, std::get<float>(value));
  }
  if (!d.dft_w.empty()) {
    const int loc = program.location("u_dft_w");
    if (loc >= 0) glUniform2fv(loc, static_cast<GLsizei>(d.dft_w.size() / 2), d.dft_w.data());
  }
  for (const auto& [binding, buffer] : d.buffers) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer);

  std::uint32_t gx = 0, gy = 0;
  if (d.groups) {
    gx = (*d.groups)[0];
    gy = (*d.groups)[1];
  } else {
    const std::uint64_t groups = (d.items + d.key.local_x - 1) / d.key.local_x;
    if (groups == 0) return;
    // GL guarantees 65535 groups per dimension: spread the rest over y (common.glsl flattens).
    gx = static_cast<std::uint32_t>(std::min<std::uint64_t>(groups, 65535));
    const std::uint64_t y = (groups + gx - 1) / gx;
    if (y > 65535) throw BackendError("OpenGL backend: dispatch of " + std::to_string(d.items) + " items is too large");
    gy = static_cast<std::uint32_t>(y);
  }
  timers_->begin(std::move(d.record));
  glDispatchCompute(gx, gy, 1);
  timers_->end();
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlBackend::run_pipeline(Direction direction, StageStop stop) {
  const auto w = static_cast<std::uint32_t>(plan_.width());
  const auto h = static_cast<std::uint32_t>(plan_.height());
  if (w == 0 || h == 0) return;
  const bool stop_in_rows = !stop.is_done() && stop.axis == Axis::rows;
  run_axis(Axis::rows, plan_.rows, {w, h, 1, w}, direction, stop_in_rows ? stop.stage : -1, rows_);
  if (stop_in_rows) return;
  const int col_last = stop.is_done() ? -1 : stop.stage;
  if (tuning_.columns == GlColumnMode::transpose && w > 1 && h > 1) {
    // Distinct names, so per-kernel summaries count both transposes.
    transpose(w, h, "transpose");  // now h x w: column x is the contiguous line x
    run_axis(Axis::cols, plan_.cols, {h, w, 1, h}, direction, col_last, cols_);
    transpose(h, w, "transpose_back");
  } else {
    run_axis(Axis::cols, plan_.cols, {h, w, w, 1}, direction, col_last, cols_);
  }
}

void GlBackend::transpose(std::uint32_t width, std::uint32_t height, const char* name) {
  constexpr std::uint32_t tile = 16;
  Dispatch d;
  d.key = key("transpose.comp");
  d.key.local_x = d.key.local_y = tile;
  d.key.defines = {{"TILE", std::to_string(tile)}};
  d.uniforms = {{"u_width", width}, {"u_height", height}};
  d.buffers = {{0, current()}, {1, other()}};
  d.groups = std::array<std::uint32_t, 2>{(width + tile - 1) / tile, (height + tile - 1) / tile};
  d.record.kernel = name;
  d.record.axis = Axis::cols;
  d.record.global_size = {width, height, 1};
  d.record.bytes = std::uint64_t{width} * height * 16;
  run(std::move(d));
  flip();
}

void GlBackend::run_axis(Axis axis, const Plan1D& plan, const LineLayout& layout, Direction direction,
                         int last_stage, AxisBuffers& buffers) {
  Dispatch d;
  d.key = key("digit_reverse.comp");
  add_layout(d, layout);
  d.buffers = {{0, current()}, {1, other()}, {2, buffers.digit_reverse.id()}};
  d.items = std::uint64_t{layout.length} * layout.lines;
  d.record.kernel = "digit_reverse";
  d.record.axis = axis;
  d.record.global_size = {layout.length, layout.lines, 1};
  d.record.bytes = d.items * (8 + 8 + 4);
  run(std::move(d));
  flip();

  const int count = static_cast<int>(plan.stages.size());
  const int stop = last_stage < 0 ? count : std::min(last_stage, count);
  for (int s = 0; s < stop; ++s) {
    const RadixStage& stage = plan.stages[static_cast<std::size_t>(s)];
    // The inverse is scaled by 1/N inside the last stage's stores (the CPU scales after it).
    const float scale = (direction == Direction::inverse && s == count - 1) ? 1.0f / static_cast<float>(plan.n) : 1.0f;
    if (stage.kind == StageKind::bluestein)
      run_bluestein_stage(axis, s, stage, layout, direction, scale, *buffers.bluestein[static_cast<std::size_t>(s)]);
    else
      run_butterfly_stage(axis, s, stage, layout, direction, scale, current(), "");
  }
}

void GlBackend::run_butterfly_stage(Axis axis, int stage_index, const RadixStage& stage, const LineLayout& layout,
                                    Direction direction, float scale, GLuint buffer, const std::string& prefix) {
  const std::uint32_t r = stage.radix;
  const bool first = stage.span == 1;
  const bool fused = variant_ == KernelVariant::fused || variant_ == KernelVariant::fast;
  const auto exp_const = static_cast<float>(sign_of(direction) * 2.0 * std::numbers::pi / stage.ni);
  const std::uint64_t elements = std::uint64_t{layout.length} * layout.lines;

  if (!first && !fused) {
    const bool plain = variant_ == KernelVariant::plain;
    Dispatch t;
    t.key = key("twiddle.comp");
    t.key.defines = {{plain ? "TWIDDLE_PLAIN" : "TWIDDLE_OPTIMIZED", "1"}, {"DIRECTION_SIGN", sign_define(direction)}};
    add_layout(t, layout);
    t.uniforms.push_back({"u_nx", stage.span});
    t.uniforms.push_back({"u_ny", r});
    t.uniforms.push_back({"u_ni", stage.ni});
    t.uniforms.push_back({"u_exp_const", exp_const});
    t.buffers = {{0, buffer}};
    t.items = elements;
    t.record.kernel = prefix + (plain ? "twiddle_plain" : "twiddle_optimized");
    t.record.axis = axis;
    t.record.stage = stage_index;
    t.record.radix = r;
    t.record.global_size = {layout.length, layout.lines, 1};
    t.record.bytes = elements * 16;
    run(std::move(t));
  }

  Dispatch d;
  d.key = key("radix_stage.comp");
  d.key.defines = {{"RADIX", std::to_string(r)},
                   {"DIRECTION_SIGN", sign_define(direction)},
                   {"FIRST_STAGE", first ? "1" : "0"},
                   {"FUSED_TWIDDLE", fused && !first ? "1" : "0"}};
  add_layout(d, layout);
  d.uniforms.push_back({"u_nx", stage.span});
  d.uniforms.push_back({"u_ni", stage.ni});
  d.uniforms.push_back({"u_exp_const", exp_const});
  d.uniforms.push_back({"u_scale", scale});
  if (!dedicated_radix(r)) {
    for (std::uint32_t m = 0; m < r; ++m) {
      const double a = sign_of(direction) * 2.0 * std::numbers::pi * m / r;
      d.dft_w.push_back(static_cast<float>(std::cos(a)));
      d.dft_w.push_back(static_cast<float>(std::sin(a)));
    }
  }
  d.buffers = {{0, buffer}};
  d.items = elements / r;
  d.record.kernel = prefix + "radix_" + std::to_string(r) + (first ? "_first_stage" : fused ? "_fused" : "");
  d.record.axis = axis;
  d.record.stage = stage_index;
  d.record.radix = r;
  d.record.global_size = {layout.length / r, layout.lines, 1};
  d.record.bytes = elements * 16;
  if (!dedicated_radix(r)) d.record.note = "generic odd radix";
  run(std::move(d));
}

void GlBackend::run_bluestein_stage(Axis axis, int stage_index, const RadixStage& stage, const LineLayout& layout,
                                    Direction direction, float scale, BluesteinBuffers& tables) {
  const std::uint32_t p = stage.radix, m = stage.bluestein.m;
  const Plan1D& inner = *stage.bluestein.inner;
  const std::uint64_t batch = std::uint64_t{layout.lines} * (layout.length / p);
  const auto exp_const = static_cast<float>(sign_of(direction) * 2.0 * std::numbers::pi / stage.ni);
  auto record = [&](const std::string& kernel, std::uint64_t items, std::uint64_t bytes) {
    TimingRecord r;
    r.kernel = kernel;
    r.axis = axis;
    r.stage = stage_index;
    r.radix = p;
    r.global_size = {static_cast<std::uint32_t>(items / batch), static_cast<std::uint32_t>(batch), 1};
    r.bytes = bytes;
    return r;
  };

  Dispatch pre;
  pre.key = key("bluestein_premultiply.comp");
  pre.key.defines = {{"DIRECTION_SIGN", sign_define(direction)}};
  add_layout(pre, layout);
  pre.uniforms.push_back({"u_p", p});
  pre.uniforms.push_back({"u_m", m});
  pre.uniforms.push_back({"u_nx", stage.span});
  pre.uniforms.push_back({"u_ni", stage.ni});
  pre.uniforms.push_back({"u_exp_const", exp_const});
  pre.buffers = {{0, current()}, {1, scratch_[0].id()}, {2, tables.chirp.id()}, {3, tables.table.id()}};
  pre.items = batch * m;
  pre.record = record("bluestein_premultiply", pre.items, batch * (m * (8 + 4) + p * (8 + 8)));
  run(std::move(pre));

  // The inner power-of-two FFTs run on scratch rows of length m; their digit-reverse gathers
  // are folded into the premultiply and convolve kernels.
  const LineLayout inner_layout{m, static_cast<std::uint32_t>(batch), 1, m};
  // Records name the inner stage: summaries group by (kernel, axis, outer stage, radix).
  for (std::size_t i = 0; i < inner.stages.size(); ++i)
    run_butterfly_stage(axis, stage_index, inner.stages[i], inner_layout, Direction::forward, 1.0f, scratch_[0].id(),
                        "bluestein_fft_stage" + std::to_string(i) + "_");

  Dispatch conv;
  conv.key = key("bluestein_convolve.comp");
  conv.key.defines = {{"DIRECTION_SIGN", sign_define(direction)}};
  conv.uniforms.push_back({"u_m", m});
  conv.buffers = {{0, scratch_[0].id()}, {1, scratch_[1].id()}, {2, tables.filter.id()}, {3, tables.table.id()}};
  conv.items = batch * m;
  conv.record = record("bluestein_convolve", conv.items, batch * m * (8 + 8 + 8 + 4));
  run(std::move(conv));

  for (std::size_t i = 0; i < inner.stages.size(); ++i)
    run_butterfly_stage(axis, stage_index, inner.stages[i], inner_layout, Direction::inverse, 1.0f, scratch_[1].id(),
                        "bluestein_ifft_stage" + std::to_string(i) + "_");

  Dispatch post;
  post.key = key("bluestein_postmultiply.comp");
  post.key.defines = {{"DIRECTION_SIGN", sign_define(direction)}};
  add_layout(post, layout);
  post.uniforms.push_back({"u_p", p});
  post.uniforms.push_back({"u_m", m});
  post.uniforms.push_back({"u_nx", stage.span});
  post.uniforms.push_back({"u_ni", stage.ni});
  post.uniforms.push_back({"u_scale", scale / static_cast<float>(m)});
  post.buffers = {{0, current()}, {1, scratch_[1].id()}, {2, tables.chirp.id()}};
  post.items = batch * p;
  post.record = record("bluestein_postmultiply", post.items, batch * p * (8 + 8 + 8));
  run(std::move(post));
}

bool GlBackend::render_to_gl_texture(std::uint32_t texture, const SpectrumSettings& settings) {
  enter();
  if (!prepared_) return false;
  const auto w = static_cast<std::uint32_t>(plan_.width());
  const auto h = static_cast<std::uint32_t>(plan_.height());
  if (w == 0 || h == 0) return false;

  if (!imageable_rgba8_texture(texture, w, h)) {
    assert(false &&
           "render_to_gl_texture needs a complete GL_RGBA8 texture of the plan's size (glTexStorage2D with 1 "
           "level, or GL_TEXTURE_MIN_FILTER GL_LINEAR/GL_NEAREST)");
    return false;
  }
  programs_->reload_if_changed();

  const std::uint64_t items = std::uint64_t{w} * h;
  if (values_.bytes() != items * 4) values_.allocate(items * 4);
  constexpr std::uint32_t reduce_group = 256;
  const auto partial_count = static_cast<std::uint32_t>(range_reduce_groups(items, reduce_group));
  if (partials_.bytes() == 0) {
    partials_.allocate(1024 * 8);
    range_.allocate(8);
  }
  if (!lut_colormap_ || *lut_colormap_ != settings.colormap) {
    std::array<std::uint32_t, 256> packed{};
    const auto& table = colormap_table(settings.colormap);
    for (std::size_t i = 0; i < 256; ++i)
      packed[i] = table[i][0] | (std::uint32_t{table[i][1]} << 8) | (std::uint32_t{table[i][2]} << 16);
    lut_.allocate(sizeof(packed), packed.data());
    lut_colormap_ = settings.colormap;
  }

  Dispatch v;
  v.key = key("spectrum_values.comp");
  v.uniforms = {{"u_width", w},
                {"u_height", h},
                {"u_shift", settings.shift ? 1u : 0u},
                {"u_log", settings.scale == SpectrumScale::log ? 1u : 0u},
                {"u_component", static_cast<std::uint32_t>(settings.component)}};
  v.buffers = {{0, current()}, {1, values_.id()}};
  v.items = items;
  v.record.kernel = "spectrum_values";
  v.record.axis = Axis::cols;
  v.record.global_size = {w, h, 1};
  v.record.bytes = items * (8 + 4);
  v.record.note = "display";
  run(std::move(v));

  if (settings.auto_range) {
    Dispatch r1;
    r1.key = key("minmax_reduce.comp");
    r1.key.local_x = reduce_group;
    r1.key.defines = {{"REDUCE_PARTIALS", "0"}, {"GROUP_SIZE", std::to_string(reduce_group)}};
    r1.buffers = {{0, values_.id()}, {1, partials_.id()}};
    r1.items = items;
    r1.groups = std::array<std::uint32_t, 2>{partial_count, 1};
    r1.record.kernel = "minmax_reduce";
    r1.record.axis = Axis::cols;
    r1.record.global_size = {partial_count * reduce_group, 1, 1};
    r1.record.bytes = items * 4 + partial_count * 8;
    r1.record.note = "display";
    run(std::move(r1));
    Dispatch r2;
    r2.key = key("minmax_reduce.comp");
    r2.key.local_x = reduce_group;
    r2.key.defines = {{"REDUCE_PARTIALS", "1"}, {"GROUP_SIZE", std::to_string(reduce_group)}};
    r2.buffers = {{0, partials_.id()}, {1, range_.id()}};
    r2.items = partial_count;
    r2.groups = std::array<std::uint32_t, 2>{1, 1};
    r2.record.kernel = "minmax_reduce_partials";
    r2.record.axis = Axis::cols;
    r2.record.global_size = {reduce_group, 1, 1};
    r2.record.bytes = partial_count * 8 + 8;
    r2.record.note = "display";
    run(std::move(r2));
  }

  Dispatch c;
  c.key = key("spectrum_colorize.comp");
  c.uniforms = {{"u_width", w},
                {"u_height", h},
                {"u_shift", settings.shift ? 1u : 0u},
                {"u_phase_hue", settings.component == SpectrumComponent::phase_hue ? 1u : 0u},
                {"u_auto_range", settings.auto_range ? 1u : 0u},
                {"u_lo", settings.range_min},
                {"u_hi", settings.range_max},
                {"u_gain", settings.gain}};
  c.buffers = {{0, values_.id()}, {1, current()}, {2, lut_.id()}, {3, range_.id()}};
  c.items = items;
  c.record.kernel = "spectrum_colorize";
  c.record.axis = Axis::cols;
  c.record.global_size = {w, h, 1};
  c.record.bytes = items * (4 + 4) + (settings.component == SpectrumComponent::phase_hue ? items * 8 : 0);
  c.record.note = "display";
  glBindImageTexture(0, texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  run(std::move(c));
  glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);  // the caller's texture is not left bound
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                  GL_FRAMEBUFFER_BARRIER_BIT);
  glUseProgram(0);
  check_errors("render_to_gl_texture");
  return true;
}

}  // namespace
}  // namespace detail

void set_current_context_gl_loader(GlProcLoader loader) { detail::current_context_loader = loader; }

std::unique_ptr<Backend> make_gl_backend(const BackendOptions& options) {
  GlBackendTuning tuning;
  if (const char* c = std::getenv("FFTSCOPE_GL_COLUMNS")) {
    if (std::string(c) == "strided") tuning.columns = GlColumnMode::strided;
    if (std::string(c) == "transpose") tuning.columns = GlColumnMode::transpose;
  }
  return make_gl_backend(options, tuning);
}

std::unique_ptr<Backend> make_gl_backend(const BackendOptions& options, const GlBackendTuning& tuning) {
  return std::make_unique<detail::GlBackend>(options, tuning);
}

std::vector<DeviceInfo> list_gl_devices() {
  // Put back an EGL context the caller had current (a GLX one cannot be seen from here).
  const EGLDisplay previous_display = eglGetCurrentDisplay != nullptr ? eglGetCurrentDisplay() : EGL_NO_DISPLAY;
  const EGLContext previous_context = previous_display != EGL_NO_DISPLAY ? eglGetCurrentContext() : EGL_NO_CONTEXT;
  const EGLSurface previous_draw = previous_display != EGL_NO_DISPLAY ? eglGetCurrentSurface(EGL_DRAW) : EGL_NO_SURFACE;
  const EGLSurface previous_read = previous_display != EGL_NO_DISPLAY ? eglGetCurrentSurface(EGL_READ) : EGL_NO_SURFACE;
  auto context = detail::EglContext::create();
  DeviceInfo info;
  info.backend = BackendKind::gl;
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  info.name = renderer ? renderer : "unknown renderer";
  info.detail = std::string("OpenGL ") + (version ? version : "?") + ", " + context->platform();
  context->release();
  if (previous_context != EGL_NO_CONTEXT) eglMakeCurrent(previous_display, previous_draw, previous_read, previous_context);
  return {info};
}

}  // namespace fftscope
