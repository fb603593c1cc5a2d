// The compute pipeline behind the window: source -> preprocess -> plan -> backend forward ->
// display, plus the filter/inverse and stage-stepper branches, each redone only when dirty.

#include <glad/gl.h>
// glad first: GLFW must not pull in a system GL header.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <type_traits>

#include "core/errors.h"
#include "gui/app.h"
#include "gui/compute_worker.h"

#ifndef FFTSCOPE_SOURCE_DIR
#define FFTSCOPE_SOURCE_DIR ""
#endif

namespace fftscope::gui {

void mark_source_dirty(AppState& app) { app.dirty_source = true; }
void mark_input_dirty(AppState& app) { app.dirty_input = true; }
void mark_display_dirty(AppState& app) {
  app.dirty_display = true;
  app.dirty_filter = true;  // the filtered spectrum is drawn with the display settings
}

void drop_files(AppState& app, const std::vector<std::string>& paths) {
  if (!paths.empty()) app.pending_drop = paths.front();
}

namespace {

void start_load(AppState& app, AppState::LoadRequest request) {
  app.loading = request;
  app.load_stale = false;
  app.load_job = std::async(std::launch::async, [request] {
    AppState::LoadResult r;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      ImageLoadOptions lo;
      lo.channel = request.channel;
      r.image = load_image(request.path, lo);
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  });
}

void apply_load(AppState& app, AppState::LoadResult&& r) {
  const AppState::LoadRequest& request = app.loading;
  if (!r.error.empty()) {
    // The previous image and every setting stay; a first image that fails leaves the synthetic one.
    app.status = "Cannot load: " + r.error;
    std::fprintf(stderr, "fftscope: %s\n", app.status.c_str());
    if (request.initial) {
      app.initial_load_failed = true;
      if (app.source.data.empty()) {
        app.use_synthetic = true;
        app.dirty_source = true;
      }
    }
    return;
  }
  app.source = std::move(r.image);
  app.image_path = request.path;
  app.path_field = request.path;
  app.use_synthetic = false;
  app.guided_text.clear();
  app.status = "Loaded " + request.path + " (" + std::to_string(app.source.width) + "x" +
               std::to_string(app.source.height) + ")";
  app.dirty_source = false;
  app.dirty_input = true;
  if (app.options.screenshot.empty()) {
    add_recent(app.stored, request.path);
    try {
      save_settings(app.stored);
    } catch (const std::exception&) {
      // Not being able to remember recent files is no reason to refuse the image.
    }
  }
}

// Applies a decode that landed (unless a later request or source change overrides it) and
// starts the queued one; never waits.
void collect_load(AppState& app) {
  if (!app.load_job.valid() || app.load_job.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  AppState::LoadResult r = app.load_job.get();
  app.longest_decode_s = std::max(app.longest_decode_s, r.seconds);
  ++app.decodes;
  if (!app.load_queued && !app.load_stale) apply_load(app, std::move(r));
  if (app.load_queued) {
    AppState::LoadRequest next = std::move(*app.load_queued);
    app.load_queued.reset();
    start_load(app, std::move(next));
  }
}

}  // namespace

void load_image_source(AppState& app, const std::string& path, bool initial) {
  AppState::LoadRequest request{path, app.channel, initial};
  app.dirty_source = false;  // this request overrides a synthetic change made in the same frame
  if (app.load_job.valid()) app.load_queued = std::move(request);
  else start_load(app, std::move(request));
}

bool image_loading(const AppState& app) { return app.load_job.valid() || app.load_queued.has_value(); }

/// What the worker keeps between jobs; only jobs (on the worker thread) touch it.
struct WorkerData {
  RealImage input;
  Plan2D plan;
  ComplexImage spectrum;
  const Backend* spectrum_on = nullptr;  ///< the backend whose device buffer holds `spectrum`
  const Backend* input_on = nullptr;     ///< the backend whose real display path holds `input` (upload_real)
};

void delete_fence(void* fence) {
  if (fence) glDeleteSync(static_cast<GLsync>(fence));
}

WorkerTexture& WorkerTexture::operator=(WorkerTexture&& o) noexcept {
  delete_fence(fence);
  rgba = std::move(o.rgba);
  texture = std::move(o.texture);
  fence = std::exchange(o.fence, nullptr);
  return *this;
}

WorkerTexture::~WorkerTexture() { delete_fence(fence); }

namespace {

constexpr std::size_t max_timing_history = 4000;
constexpr std::size_t max_run_totals = 300;

RealImage crop(const RealImage& image, std::size_t width, std::size_t height) {
  RealImage out(std::min(width, image.width), std::min(height, image.height));
  for (std::size_t y = 0; y < out.height; ++y)
    for (std::size_t x = 0; x < out.width; ++x) out.at(x, y) = image.at(x, y);
  return out;
}

// A backend computing in the worker's context may leave bindings behind; the next texture
// update there must read from memory.
void restore_worker_gl_state(bool has_context) {
  if (!has_context) return;
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glUseProgram(0);
}

// On the worker: uploads a host rendering into a new texture in the shared context (smooth:
// as the view it is for), fenced; without a context the UI thread uploads it.
WorkerTexture prepare_texture(RgbaImage rgba, bool smooth, bool has_context) {
  WorkerTexture t;
  if (!has_context || rgba.width == 0 || rgba.height == 0) {
    t.rgba = std::move(rgba);
    return t;
  }
  t.texture = std::make_unique<Texture>(smooth);
  t.texture->upload(rgba);
  t.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFlush();  // so the UI context's check of the fence can see it signal
  return t;
}

// The fast variant's display: the real image through the backend's fused real-input display
// path (execute_real_display: its columns, then rows that write the pixels; issue 6), delivered
// into `back` (GL: a copy on the device; OpenCL: as render_to_gl_texture delivers); sizes with a
// prime factor above 13 take its routed passes. The path taken (fused or routed), or none where
// neither takes the image or it cannot reach GL.
RealDisplayPath fused_display(Backend& backend, WorkerData& data, const SpectrumSettings& settings, Texture& back) {
  const RealDisplayPath path = backend.real_display_path(data.input.width, data.input.height);
  if (path != RealDisplayPath::fused && path != RealDisplayPath::routed) return RealDisplayPath::none;
  if (data.input_on != &backend) {
    backend.upload_real(data.input);
    data.input_on = &backend;
  }
  backend.execute_real_display(settings);
  return backend.real_display_to_gl_texture(back.id()) ? path : RealDisplayPath::none;
}

// Renders the display of data.spectrum on the worker: on the device into `back` where the
// backend can (then fenced; the fast variant through the fused real-input path), else on the
// host.
AppState::DisplayResult make_display(Backend& backend, WorkerData& data, const SpectrumSettings& settings,
                                     KernelVariant variant, Texture* back, void* ui_fence, bool has_context) {
  AppState::DisplayResult d;
  const RealImage values = spectrum_values(data.spectrum, settings);
  d.range = spectrum_range(values, settings);
  if (has_context && back && backend.kind() != BackendKind::cpu) {
    // The UI's frames that sampled `back` (the previous front texture) come first.
    if (ui_fence) glWaitSync(static_cast<GLsync>(ui_fence), 0, GL_TIMEOUT_IGNORED);
    back->ensure(data.spectrum.width, data.spectrum.height);
    const RealDisplayPath taken =
        variant == KernelVariant::fast ? fused_display(backend, data, settings, *back) : RealDisplayPath::none;
    d.fused = taken != RealDisplayPath::none;
    d.routed = taken == RealDisplayPath::routed;
    if (d.fused) {
      d.gpu_rendered = true;
    } else {
      if (data.spectrum_on != &backend) {
        backend.prepare(data.plan, KernelVariant::fused);
        backend.upload(data.spectrum);
        data.spectrum_on = &backend;
      }
      d.gpu_rendered = backend.render_to_gl_texture(back->id(), settings);
    }
    restore_worker_gl_state(has_context);
    if (d.gpu_rendered) {
      glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
      back->update_mipmaps();
      d.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      glFlush();  // so the UI context's wait on the fence can finish
    }
  }
  delete_fence(ui_fence);
  if (!d.gpu_rendered) d.host = prepare_texture(render_spectrum(data.spectrum, settings), false, has_context);
  return d;
}

// Everything the filter branch needs from the UI thread's state (small settings only).
struct FilterJobInput {
  KernelVariant variant = KernelVariant::fused;
  FilterSettings filter;
  SpectrumSettings display;  ///< with the unfiltered range fixed
  std::size_t source_width = 0, source_height = 0;
  bool shift = true;
  bool stretch = true;
};

AppState::FilterResult compute_filter(Backend& backend, WorkerData& data, const FilterJobInput& in, bool has_context) {
  AppState::FilterResult r;
  const std::size_t w = data.spectrum.width, h = data.spectrum.height;
  const RealImage original = crop(data.input, in.source_width, in.source_height);
  r.mask = filter_mask(w, h, in.filter);
  r.filtered = data.spectrum;
  apply_mask(r.filtered, r.mask);
  r.mask_rgba = prepare_texture(gray_to_rgba(in.shift ? fftshift(r.mask) : r.mask), false, has_context);
  r.filtered_rgba = prepare_texture(render_spectrum(r.filtered, in.display), false, has_context);
  data.spectrum_on = nullptr;  // the inverse overwrites the device buffer
  const ComplexImage back = run_transform(backend, data.plan, r.filtered, Direction::inverse, in.variant);
  r.inverse = crop_real(back, original.width, original.height);
  r.difference = RealImage(r.inverse.width, r.inverse.height);
  for (std::size_t i = 0; i < r.difference.data.size(); ++i) {
    r.difference.data[i] = original.data[i] - r.inverse.data[i];
    r.difference_max = std::max(r.difference_max, std::abs(r.difference.data[i]));
  }
  RealImage shown(r.difference.width, r.difference.height);
  // Full contrast for real differences, but float rounding noise (~1e-7) stays flat grey.
  const float scale = 0.5f / std::max(r.difference_max, 1.0f / 255.0f);
  for (std::size_t i = 0; i < shown.data.size(); ++i) shown.data[i] = 0.5f + r.difference.data[i] * scale;
  r.difference_rgba = prepare_texture(gray_to_rgba(shown), true, has_context);
  const auto [lo_it, hi_it] = std::minmax_element(r.inverse.data.begin(), r.inverse.data.end());
  r.inverse_lo = lo_it != r.inverse.data.end() ? *lo_it : 0.0f;
  r.inverse_hi = hi_it != r.inverse.data.end() ? *hi_it : 1.0f;
  if (in.stretch && r.inverse_hi > r.inverse_lo) {
    // A high- or band-pass result has zero mean: clamping to [0, 1] would hide half of it.
    RealImage stretched = r.inverse;
    const float k = 1.0f / (r.inverse_hi - r.inverse_lo);
    for (float& v : stretched.data) v = (v - r.inverse_lo) * k;
    r.inverse_rgba = prepare_texture(gray_to_rgba(stretched), true, has_context);
  } else {
    r.inverse_rgba = prepare_texture(gray_to_rgba(r.inverse), true, has_context);
  }
  r.timings = backend.take_timings();
  return r;
}

FilterJobInput filter_job_input(const AppState& app) {
  FilterJobInput in;
  in.variant = app.variant;
  in.source_width = app.source.width;
  in.source_height = app.source.height;
  in.filter = app.filter;
  // The filtered spectrum keeps the unfiltered range, so removed bins look dark, not rescaled.
  in.display = app.spectrum_settings;
  in.display.auto_range = false;
  in.display.range_min = app.spectrum_range.first;
  in.display.range_max = app.spectrum_range.second;
  in.shift = app.spectrum_settings.shift;
  in.stretch = app.stretch_inverse;
  return in;
}

// Uploads a host rendering on the UI thread, keeping the longest upload for the test mode's report.
void upload_timed(AppState& app, Texture& texture, const RgbaImage& image) {
  const auto t0 = std::chrono::steady_clock::now();
  texture.upload(image);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (s > app.longest_upload_s) {
    app.longest_upload_s = s;
    app.longest_upload_w = image.width;
    app.longest_upload_h = image.height;
  }
}

// Shows a host rendering: uploaded here without a worker context, else queued until the
// worker's upload has finished (land_textures).
void show_texture(AppState& app, Texture& view, WorkerTexture&& t) {
  if (t.texture) app.textures_waiting.emplace_back(&view, std::move(t));
  else upload_timed(app, view, t.rgba);
}

// Swaps in the worker's textures whose fences have signalled, in order; never waits.
void land_textures(AppState& app) {
  while (!app.textures_waiting.empty()) {
    auto& [view, t] = app.textures_waiting.front();
    const GLenum state = glClientWaitSync(static_cast<GLsync>(t.fence), GL_SYNC_FLUSH_COMMANDS_BIT, 0);
    if (state == GL_TIMEOUT_EXPIRED) return;
    swap(*view, *t.texture);
    app.textures_waiting.pop_front();  // the old texture goes here, on the UI thread
  }
}

bool texture_waiting_for(const AppState& app, const Texture& view) {
  for (const auto& w : app.textures_waiting)
    if (w.first == &view) return true;
  return false;
}

void apply_filter_result(AppState& app, AppState::FilterResult&& r) {
  show_texture(app, app.mask_tex, std::move(r.mask_rgba));
  show_texture(app, app.filtered_tex, std::move(r.filtered_rgba));
  show_texture(app, app.inverse_tex, std::move(r.inverse_rgba));
  show_texture(app, app.difference_tex, std::move(r.difference_rgba));
  app.mask = std::move(r.mask);
  app.filtered = std::move(r.filtered);
  app.inverse = std::move(r.inverse);
  app.difference = std::move(r.difference);
  app.difference_max = r.difference_max;
  app.inverse_lo = r.inverse_lo;
  app.inverse_hi = r.inverse_hi;
}

void append_timings(AppState& app, std::vector<TimingRecord>& records) {
  if (app.timers_paused || records.empty()) return;
  double total = 0;
  for (TimingRecord& r : records) {
    total += r.milliseconds;
    app.timing_history.push_back(std::move(r));
  }
  while (app.timing_history.size() > max_timing_history) app.timing_history.pop_front();
  app.run_totals_ms.push_back(static_cast<float>(total));
  if (app.run_totals_ms.size() > max_run_totals)
    app.run_totals_ms.erase(app.run_totals_ms.begin(),
                            app.run_totals_ms.begin() + static_cast<long>(app.run_totals_ms.size() - max_run_totals));
}

template <typename T>
bool ready(const std::future<T>& f) {
  return f.valid() && f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

// A fence in the UI's context after the frames that may still sample spectrum_back, for the
// worker to wait on before writing it; none without a shared context.
void* ui_fence(const AppState& app) {
  if (!app.worker->has_shared_context() || app.backend_kind == BackendKind::cpu) return nullptr;
  void* f = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFlush();
  return f;
}

// Shows a display result: a host rendering is uploaded; a device one is swapped in once its
// fence has signalled (checked without blocking; until then the previous display stays).
bool apply_display(AppState& app, AppState::DisplayResult& d) {
  if (d.gpu_rendered) {
    if (texture_waiting_for(app, app.spectrum_tex)) return false;  // an older host rendering lands first
    const GLenum state = glClientWaitSync(static_cast<GLsync>(d.fence), GL_SYNC_FLUSH_COMMANDS_BIT, 0);
    if (state == GL_TIMEOUT_EXPIRED) return false;
    delete_fence(d.fence);
    d.fence = nullptr;
    swap(app.spectrum_tex, app.spectrum_back);
  } else {
    show_texture(app, app.spectrum_tex, std::move(d.host));
  }
  app.spectrum_range = d.range;
  app.gpu_rendered_display = d.gpu_rendered;
  app.fused_display = d.fused;
  app.routed_display = d.routed;
  return true;
}

void collect_backend_start(AppState& app) {
  if (!ready(app.backend_job)) return;
  try {
    app.device_name = app.backend_job.get();
    app.backend_kind = app.backend_requested;
  } catch (const std::exception& e) {
    app.backend_error = "The " + to_string(app.backend_requested) + " backend could not start: " + e.what() +
                        "\nUsing the CPU backend instead; image and settings are kept.";
    std::fprintf(stderr, "fftscope: %s\n", app.backend_error.c_str());
    if (app.backend_requested != BackendKind::cpu) {
      app.backend_requested = BackendKind::cpu;
      app.backend_job = app.worker->start_backend(BackendKind::cpu, {});
    }
  }
}

void run_dirty(AppState& app, double now) {
  collect_backend_start(app);
  if (app.dirty_source) {
    app.dirty_source = false;
    if (app.use_synthetic) {
      app.synthetic_pending = true;  // made by the forward job, on the worker
      app.dirty_input = true;
      // The latest change wins over a file still being decoded.
      app.load_queued.reset();
      app.load_stale = app.load_job.valid();
    } else if (!app.image_path.empty() || image_loading(app)) {
      // Another channel (or back to the file): decoded again on the loader thread; the
      // previous source stays until it lands.
      load_image_source(app, image_loading(app) ? (app.load_queued ? app.load_queued->path : app.loading.path)
                                                : app.image_path);
    }
  }
  if (app.dirty_input) {
    app.dirty_input = false;
    app.dirty_forward = true;
  }

  // --- collect what the worker finished (get() rethrows a job's error) ---
  if (app.display_waiting && apply_display(app, *app.display_waiting)) app.display_waiting.reset();
  if (ready(app.forward_job)) {
    AppState::ForwardResult r = app.forward_job.get();
    if (r.synthetic) app.source = std::move(r.source);
    app.input = std::move(r.input);
    app.plan = std::move(r.plan);
    app.spectrum = std::move(r.spectrum);
    append_timings(app, r.timings);
    app.last_job_s = now - app.job_started;
    show_texture(app, app.source_tex, std::move(r.input_rgba));
    app.dirty_filter = app.dirty_stages = true;
    if (r.has_display && !apply_display(app, r.display)) app.display_waiting = std::move(r.display);
  }
  if (ready(app.display_job)) {
    AppState::DisplayResult d = app.display_job.get();
    if (!apply_display(app, d)) app.display_waiting = std::move(d);
    app.dirty_filter = true;  // the filtered spectrum is drawn with the display settings
  }
  if (ready(app.filter_job)) {
    AppState::FilterResult r = app.filter_job.get();
    append_timings(app, r.timings);
    apply_filter_result(app, std::move(r));
  }
  if (ready(app.stages_job)) {
    AppState::StagesResult r = app.stages_job.get();
    append_timings(app, r.timings);
    app.stage_buffer = std::move(r.buffer);
    app.stage_before = std::move(r.before);
    app.stage_k = r.k;
    show_texture(app, app.stage_tex, std::move(r.rgba));
  }
  if (ready(app.variants_job)) app.variant_table = app.variants_job.get();
  land_textures(app);

  // --- submit new work: at most one job of each kind, built from the latest settings ---
  if (app.backend_job.valid()) return;  // new jobs wait for the backend being started
  ComputeWorker& worker = *app.worker;
  const bool has_context = worker.has_shared_context();
  const bool display_busy = app.forward_job.valid() || app.display_job.valid() || app.display_waiting.has_value();
  const bool want_forward = app.dirty_forward || app.synthetic_pending || app.run_continuously || app.pending_runs > 0;
  const bool have_source = app.use_synthetic || !app.source.data.empty();  // none while the first file decodes
  if (want_forward && have_source && !display_busy && !app.filter_job.valid() && !app.stages_job.valid()) {
    if (app.pending_runs > 0) --app.pending_runs;
    if (!app.worker->busy()) app.job_started = now;
    std::optional<SyntheticSettings> synth;
    if (app.use_synthetic) synth = app.synthetic;
    app.synthetic_pending = false;
    app.forward_job = worker.submit([data = app.worker_data, synth,
                                     source = app.use_synthetic ? RealImage{} : app.source, pre = app.preprocess,
                                     variant = app.variant, settings = app.spectrum_settings,
                                     back = &app.spectrum_back, fence = ui_fence(app), has_context](Backend& b) {
      AppState::ForwardResult r;
      try {
        if (synth) {
          r.source = make_synthetic(*synth);
          r.synthetic = true;
        }
        data->input = preprocess(synth ? r.source : source, pre);
        data->plan = make_plan_2d(data->input.width, data->input.height);
        data->spectrum_on = nullptr;
        data->input_on = nullptr;
        data->spectrum = run_transform(b, data->plan, to_complex(data->input), Direction::forward, variant);
        data->spectrum_on = b.kind() == BackendKind::cpu ? nullptr : &b;
        r.display = make_display(b, *data, settings, variant, back, fence, has_context);
        r.timings = b.take_timings();  // the display's dispatches with the transform's
        r.input_rgba = prepare_texture(gray_to_rgba(data->input), true, has_context);
      } catch (...) {
        delete_fence(fence);
        data->spectrum_on = nullptr;
        restore_worker_gl_state(has_context);
        throw;
      }
      r.has_display = true;
      r.input = data->input;
      r.plan = data->plan;
      r.spectrum = data->spectrum;
      return r;
    });
    app.dirty_forward = false;
    app.dirty_display = false;  // the forward job renders the display too
    return;
  }
  const bool have_spectrum = !app.spectrum.data.empty() && !app.forward_job.valid();
  if (app.dirty_display && have_spectrum && !display_busy) {
    if (!app.worker->busy()) app.job_started = now;
    app.display_job = worker.submit([data = app.worker_data, settings = app.spectrum_settings, variant = app.variant,
                                     back = &app.spectrum_back, fence = ui_fence(app), has_context](Backend& b) {
      try {
        return make_display(b, *data, settings, variant, back, fence, has_context);
      } catch (...) {
        delete_fence(fence);
        data->spectrum_on = nullptr;
        restore_worker_gl_state(has_context);
        throw;
      }
    });
    app.dirty_display = false;
  }
  if (app.dirty_filter && app.panel == Panel::filter && have_spectrum && !app.display_job.valid() &&
      !app.filter_job.valid()) {
    app.filter_job = worker.submit([data = app.worker_data, in = filter_job_input(app), has_context](Backend& b) {
      struct Restore {
        bool c;
        ~Restore() { restore_worker_gl_state(c); }
      } restore{has_context};
      return compute_filter(b, *data, in, has_context);
    });
    app.dirty_filter = false;
  }
  if (app.dirty_stages && app.panel == Panel::stages && have_spectrum && !app.stages_job.valid()) {
    app.stages_job = worker.submit([data = app.worker_data, axis = app.stage_axis, k = app.stage_k,
                                    variant = app.variant, colormap = app.spectrum_settings.colormap,
                                    has_context](Backend& b) {
      struct Restore {
        bool c;
        ~Restore() { restore_worker_gl_state(c); }
      } restore{has_context};
      AppState::StagesResult r;
      const Plan1D& axis_plan = axis == Axis::rows ? data->plan.rows : data->plan.cols;
      r.k = std::clamp(k, 0, static_cast<int>(axis_plan.stage_count()));
      const ComplexImage input = to_complex(data->input);
      data->spectrum_on = nullptr;
      r.buffer = run_transform(b, data->plan, input, Direction::forward, variant, StageStop{axis, r.k});
      if (r.k >= 1)
        r.before = run_transform(b, data->plan, input, Direction::forward, variant, StageStop{axis, r.k - 1});
      SpectrumSettings s;
      s.shift = false;  // intermediate buffers are shown in memory order
      s.colormap = colormap;
      r.rgba = prepare_texture(render_spectrum(r.buffer, s), false, has_context);
      r.timings = b.take_timings();
      return r;
    });
    app.dirty_stages = false;
  }
  if (app.sel_x < 0 || app.sel_y < 0) {  // a default pick away from the corner, where little happens
    app.sel_x = static_cast<int>(app.input.width / 3);
    app.sel_y = static_cast<int>(app.input.height / 2);
  }
  if (!app.input.data.empty()) {
    app.sel_x = std::clamp(app.sel_x, 0, static_cast<int>(app.input.width) - 1);
    app.sel_y = std::clamp(app.sel_y, 0, static_cast<int>(app.input.height) - 1);
  }
}

BackendOptions backend_options(const AppState& app, BackendKind kind) {
  BackendOptions o;
  o.measure_fast_plans = app.options.measure_fast_plans;
  if (kind == BackendKind::gl) o.source_dir = app.options.shader_dir;
  if (kind == BackendKind::cl) o.source_dir = app.options.kernel_dir;
  return o;
}

}  // namespace

void drain_jobs(AppState& app) {
  auto drop = [](auto& f) {
    if (!f.valid()) return;
    f.wait();
    try {
      auto r = f.get();
      if constexpr (std::is_same_v<decltype(r), AppState::ForwardResult>) delete_fence(r.display.fence);
      if constexpr (std::is_same_v<decltype(r), AppState::DisplayResult>) delete_fence(r.fence);
    } catch (const std::exception&) {
      // The job belonged to a backend being replaced; its error no longer matters.
    }
  };
  drop(app.forward_job);
  drop(app.display_job);
  drop(app.filter_job);
  drop(app.stages_job);
  drop(app.variants_job);
  if (app.display_waiting) {
    delete_fence(app.display_waiting->fence);
    app.display_waiting.reset();
  }
  if (app.backend_job.valid()) app.backend_job.wait();
}

void switch_backend(AppState& app, BackendKind kind) {
  // Results of jobs in flight belong to the old backend: wait for them and drop them.
  drain_jobs(app);
  if (app.backend_job.valid()) {
    try {
      app.backend_job.get();
    } catch (const std::exception&) {
    }
  }
  if (!app.worker_data) app.worker_data = std::make_shared<WorkerData>();
  app.backend_requested = kind;
  app.backend_job = app.worker->start_backend(kind, backend_options(app, kind));
  app.dirty_forward = app.dirty_display = app.dirty_filter = app.dirty_stages = true;
  app.timing_history.clear();
  app.run_totals_ms.clear();
  app.variant_table = VariantTable{};
}

void wait_for_backend(AppState& app) {
  while (app.backend_job.valid()) {
    app.backend_job.wait();
    collect_backend_start(app);  // a failed start queues the CPU backend's
  }
}

bool pipeline_busy(const AppState& app) {
  return image_loading(app) || !app.textures_waiting.empty() || app.backend_job.valid() || app.forward_job.valid() || app.display_job.valid() || app.filter_job.valid() ||
         app.stages_job.valid() || app.variants_job.valid() || app.display_waiting.has_value() || app.dirty_forward ||
         app.dirty_display || (app.panel == Panel::filter && app.dirty_filter) ||
         (app.panel == Panel::stages && app.dirty_stages);
}

void update_pipeline(AppState& app) {
  if (!app.pending_drop.empty()) {
    const std::string path = std::move(app.pending_drop);
    app.pending_drop.clear();
    load_image_source(app, path);
  }
  collect_load(app);
  const double now = glfwGetTime();
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      run_dirty(app, now);
      return;
    } catch (const InputError& e) {
      // A source the transform cannot take: say so and go back to the synthetic image.
      app.status = std::string("Cannot load: ") + e.what();
      app.use_synthetic = true;
      app.dirty_source = true;
    } catch (const UsageError& e) {
      app.status = std::string("Invalid setting: ") + e.what();
      return;
    } catch (const std::exception& e) {
      if (app.backend_kind == BackendKind::cpu) {
        app.backend_error = std::string("The CPU backend failed: ") + e.what();
        std::fprintf(stderr, "fftscope: %s\n", app.backend_error.c_str());
        return;
      }
      const std::string failed = to_string(app.backend_kind);
      const std::string device = app.device_name;
      switch_backend(app, BackendKind::cpu);
      app.backend_error = "The " + failed + " backend (" + device + ") failed: " + e.what() +
                          "\nFell back to the CPU backend; image and settings are kept.";
      std::fprintf(stderr, "fftscope: %s\n", app.backend_error.c_str());
    }
  }
}

void compare_variants(AppState& app, int repeats) {
  if (app.variants_job.valid() || app.backend_job.valid()) return;
  app.variants_job = app.worker->submit([data = app.worker_data, repeats,
                                         has_context = app.worker->has_shared_context()](Backend& b) {
    struct Restore {
      bool c;
      ~Restore() { restore_worker_gl_state(c); }
    } restore{has_context};
    (void)b.take_timings();  // what was measured before stays out of the comparison
    data->spectrum_on = nullptr;
    const ComplexImage input = to_complex(data->input);
    std::vector<std::pair<KernelVariant, std::vector<TimingSummary>>> runs;
    std::vector<std::string> errors;
    for (KernelVariant v : {KernelVariant::plain, KernelVariant::optimized, KernelVariant::fused, KernelVariant::fast}) {
      std::vector<TimingRecord> records;
      std::string error;
      try {
        for (int i = 0; i < repeats; ++i) {
          run_transform(b, data->plan, input, Direction::forward, v);
          for (TimingRecord& r : b.take_timings()) records.push_back(std::move(r));
        }
        (void)b.download();  // a finish, so late GPU timer queries are ready
        for (TimingRecord& r : b.take_timings()) records.push_back(std::move(r));
      } catch (const std::exception& e) {
        error = e.what();
        records.clear();
      }
      runs.emplace_back(v, summarize_timings(records));
      errors.push_back(error);
    }
    VariantTable t = align_variants(runs);
    t.errors = errors;
    return t;
  });
}

std::vector<std::string> find_samples() {
  namespace fs = std::filesystem;
  std::vector<fs::path> dirs;
  if (std::string(FFTSCOPE_SOURCE_DIR).size() > 0) dirs.emplace_back(fs::path(FFTSCOPE_SOURCE_DIR) / "assets");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back(exe.parent_path() / ".." / "share" / "fftscope" / "assets");
    dirs.push_back(exe.parent_path() / "assets");
  }
  static const std::set<std::string> extensions{".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".ppm", ".tga", ".gif"};
  std::vector<std::string> found;
  std::set<std::string> names;
  for (const fs::path& dir : dirs) {
    if (!fs::is_directory(dir, ec)) continue;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (it.depth() > 2 || !it->is_regular_file(ec)) continue;
      std::string ext = it->path().extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (!extensions.count(ext)) continue;
      if (!names.insert(it->path().filename().string()).second) continue;  // first folder wins
      found.push_back(fs::canonical(it->path(), ec).string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace fftscope::gui
