// The compute pipeline behind the window: source -> preprocess -> plan -> backend forward ->
// display, plus the filter/inverse and stage-stepper branches, each redone only when dirty.

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "core/errors.h"
#include "gui/app.h"

#ifndef FFTSCOPE_SOURCE_DIR
#define FFTSCOPE_SOURCE_DIR ""
#endif

namespace fftscope::gui {

namespace {

constexpr std::size_t max_timing_history = 4000;
constexpr std::size_t max_run_totals = 300;

}  // namespace

void mark_source_dirty(AppState& app) { app.dirty_source = true; }
void mark_input_dirty(AppState& app) { app.dirty_input = true; }
void mark_display_dirty(AppState& app) {
  app.dirty_display = true;
  app.dirty_filter = true;  // the filtered spectrum is drawn with the display settings
}

void switch_backend(AppState& app, BackendKind kind) {
  BackendOptions options;
  options.use_current_gl_context = true;  // the GL backend computes in the window's context
  try {
    app.backend = make_backend(kind, options);
    app.backend_kind = kind;
  } catch (const std::exception& e) {
    app.backend_error = "The " + to_string(kind) + " backend could not start: " + e.what() +
                        "\nUsing the CPU backend instead.";
    std::fprintf(stderr, "fftscope: %s\n", app.backend_error.c_str());
    app.backend = make_backend(BackendKind::cpu, options);
    app.backend_kind = BackendKind::cpu;
  }
  // Results of jobs in flight belong to the old backend: wait for them and drop them.
  if (app.forward_job.valid()) app.forward_job.wait();
  if (app.filter_job.valid()) app.filter_job.wait();
  app.forward_job = {};
  app.filter_job = {};
  app.device_holds_spectrum = false;
  app.dirty_forward = app.dirty_display = app.dirty_filter = app.dirty_stages = true;
  app.timing_history.clear();
  app.run_totals_ms.clear();
  app.variant_results.clear();
}

bool load_image_source(AppState& app, const std::string& path) {
  try {
    ImageLoadOptions lo;
    lo.channel = app.channel;
    app.source = load_image(path, lo);
    app.image_path = path;
    app.path_field = path;
    app.use_synthetic = false;
    app.guided_text.clear();
    app.status = "Loaded " + path + " (" + std::to_string(app.source.width) + "x" +
                 std::to_string(app.source.height) + ")";
    app.dirty_source = false;
    app.dirty_input = true;
    if (app.options.screenshot.empty()) {
      add_recent(app.stored, path);
      try {
        save_settings(app.stored);
      } catch (const std::exception&) {
        // Not being able to remember recent files is no reason to refuse the image.
      }
    }
    return true;
  } catch (const std::exception& e) {
    app.status = std::string("Cannot load: ") + e.what();
    std::fprintf(stderr, "fftscope: %s\n", app.status.c_str());
    return false;
  }
}

void collect_timings(AppState& app) {
  if (!app.backend) return;
  std::vector<TimingRecord> records = app.backend->take_timings();
  if (records.empty() || app.timers_paused) return;
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

namespace {

RealImage crop(const RealImage& image, std::size_t width, std::size_t height) {
  RealImage out(std::min(width, image.width), std::min(height, image.height));
  for (std::size_t y = 0; y < out.height; ++y)
    for (std::size_t x = 0; x < out.width; ++x) out.at(x, y) = image.at(x, y);
  return out;
}

// Everything the filter branch computes, ready to upload; built without touching AppState so
// it can run on the worker.
struct FilterJobInput {
  Plan2D plan;
  KernelVariant variant = KernelVariant::fused;
  ComplexImage spectrum;
  RealImage original;  ///< the transformed input, cropped to the image size
  FilterSettings filter;
  SpectrumSettings display;  ///< with the unfiltered range fixed
  bool shift = true;
  bool stretch = true;
};

AppState::FilterResult compute_filter(Backend& backend, const FilterJobInput& in) {
  AppState::FilterResult r;
  const std::size_t w = in.spectrum.width, h = in.spectrum.height;
  r.mask = filter_mask(w, h, in.filter);
  r.filtered = in.spectrum;
  apply_mask(r.filtered, r.mask);
  r.mask_rgba = gray_to_rgba(in.shift ? fftshift(r.mask) : r.mask);
  r.filtered_rgba = render_spectrum(r.filtered, in.display);
  const ComplexImage back = run_transform(backend, in.plan, r.filtered, Direction::inverse, in.variant);
  r.inverse = crop_real(back, in.original.width, in.original.height);
  r.difference = RealImage(r.inverse.width, r.inverse.height);
  for (std::size_t i = 0; i < r.difference.data.size(); ++i) {
    r.difference.data[i] = in.original.data[i] - r.inverse.data[i];
    r.difference_max = std::max(r.difference_max, std::abs(r.difference.data[i]));
  }
  RealImage shown(r.difference.width, r.difference.height);
  // Full contrast for real differences, but float rounding noise (~1e-7) stays flat grey.
  const float scale = 0.5f / std::max(r.difference_max, 1.0f / 255.0f);
  for (std::size_t i = 0; i < shown.data.size(); ++i) shown.data[i] = 0.5f + r.difference.data[i] * scale;
  r.difference_rgba = gray_to_rgba(shown);
  const auto [lo_it, hi_it] = std::minmax_element(r.inverse.data.begin(), r.inverse.data.end());
  r.inverse_lo = lo_it != r.inverse.data.end() ? *lo_it : 0.0f;
  r.inverse_hi = hi_it != r.inverse.data.end() ? *hi_it : 1.0f;
  if (in.stretch && r.inverse_hi > r.inverse_lo) {
    // A high- or band-pass result has zero mean: clamping to [0, 1] would hide half of it.
    RealImage stretched = r.inverse;
    const float k = 1.0f / (r.inverse_hi - r.inverse_lo);
    for (float& v : stretched.data) v = (v - r.inverse_lo) * k;
    r.inverse_rgba = gray_to_rgba(stretched);
  } else {
    r.inverse_rgba = gray_to_rgba(r.inverse);
  }
  return r;
}

FilterJobInput filter_job_input(const AppState& app) {
  FilterJobInput in;
  in.plan = app.plan;
  in.variant = app.variant;
  in.spectrum = app.spectrum;
  in.original = crop(app.input, app.source.width, app.source.height);
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

void apply_filter_result(AppState& app, AppState::FilterResult&& r) {
  app.mask_tex.upload(r.mask_rgba);
  app.filtered_tex.upload(r.filtered_rgba);
  app.inverse_tex.upload(r.inverse_rgba);
  app.difference_tex.upload(r.difference_rgba);
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
  app.run_totals_ms.push_back(static_cast<float>(total));
}

void run_stages(AppState& app) {
  const Plan1D& axis_plan = app.stage_axis == Axis::rows ? app.plan.rows : app.plan.cols;
  const int stages = static_cast<int>(axis_plan.stage_count());
  app.stage_k = std::clamp(app.stage_k, 0, stages);
  const ComplexImage input = to_complex(app.input);
  app.stage_buffer = run_transform(*app.backend, app.plan, input, Direction::forward, app.variant,
                                   StageStop{app.stage_axis, app.stage_k});
  if (app.stage_k >= 1)
    app.stage_before = run_transform(*app.backend, app.plan, input, Direction::forward, app.variant,
                                     StageStop{app.stage_axis, app.stage_k - 1});
  else
    app.stage_before = ComplexImage{};
  app.device_holds_spectrum = false;
  SpectrumSettings s;
  s.shift = false;  // intermediate buffers are shown in memory order
  s.colormap = app.spectrum_settings.colormap;
  app.stage_tex.upload(render_spectrum(app.stage_buffer, s));
  if (app.sel_x < 0 || app.sel_y < 0) {  // a default pick away from the corner, where little happens
    app.sel_x = static_cast<int>(app.input.width / 3);
    app.sel_y = static_cast<int>(app.input.height / 2);
  }
  app.sel_x = std::clamp(app.sel_x, 0, static_cast<int>(app.input.width) - 1);
  app.sel_y = std::clamp(app.sel_y, 0, static_cast<int>(app.input.height) - 1);
}

void run_dirty(AppState& app) {
  if (app.dirty_source) {
    if (app.use_synthetic) {
      app.source = make_synthetic(app.synthetic);
    } else {
      ImageLoadOptions lo;
      lo.channel = app.channel;
      app.source = load_image(app.image_path, lo);
    }
    app.dirty_source = false;
    app.dirty_input = true;
  }
  if (app.dirty_input) {
    app.input = preprocess(app.source, app.preprocess);
    app.plan = make_plan_2d(app.input.width, app.input.height);
    app.dirty_input = false;
    app.dirty_forward = app.dirty_source_tex = true;
  }
  if (app.dirty_source_tex) {
    app.source_tex.upload(gray_to_rgba(app.input));
    app.dirty_source_tex = false;
  }
  const bool want_forward = app.dirty_forward || app.run_continuously || app.pending_runs > 0;
  if (app.backend_kind == BackendKind::cpu) {
    // The CPU transform runs on a worker with its own CPU backend, so a large image does not
    // freeze the window; the previous spectrum stays on screen until the new one arrives. A
    // change made meanwhile starts the next job when this one is collected (latest wins).
    if (app.forward_job.valid() &&
        app.forward_job.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      AppState::ForwardResult result = app.forward_job.get();  // rethrows the worker's error
      app.spectrum = std::move(result.spectrum);
      append_timings(app, result.timings);
      app.device_holds_spectrum = false;
      app.dirty_display = app.dirty_filter = app.dirty_stages = true;
    }
    if (want_forward && !app.forward_job.valid()) {
      if (app.pending_runs > 0) --app.pending_runs;
      if (!app.worker_backend) app.worker_backend = make_backend(BackendKind::cpu);
      app.forward_job = std::async(std::launch::async, [backend = app.worker_backend, plan = app.plan,
                                                        input = to_complex(app.input), variant = app.variant] {
        AppState::ForwardResult r;
        r.spectrum = run_transform(*backend, plan, input, Direction::forward, variant);
        r.timings = backend->take_timings();
        return r;
      });
      app.dirty_forward = false;
    }
  } else if (want_forward) {
    if (app.pending_runs > 0) --app.pending_runs;
    app.backend->prepare(app.plan, app.variant);
    app.backend->upload(to_complex(app.input));
    app.backend->execute(Direction::forward);
    app.spectrum = app.backend->download();
    app.device_holds_spectrum = true;
    if (app.dirty_forward) app.dirty_display = app.dirty_filter = app.dirty_stages = true;
    app.dirty_forward = false;
  }
  // Until a spectrum of the current size exists (first job still running) there is nothing
  // to show or filter; the flags stay set.
  const bool spectrum_current = app.spectrum.width == app.input.width && app.spectrum.height == app.input.height &&
                                !app.spectrum.data.empty();
  if (app.dirty_display && !app.spectrum.data.empty()) {
    app.spectrum_values_img = spectrum_values(app.spectrum, app.spectrum_settings);
    app.spectrum_range = spectrum_range(app.spectrum_values_img, app.spectrum_settings);
    app.spectrum_tex.ensure(app.spectrum.width, app.spectrum.height);
    app.gpu_rendered_display = false;
    if (app.backend_kind != BackendKind::cpu) {
      if (!app.device_holds_spectrum) {
        app.backend->prepare(app.plan, app.variant);
        app.backend->upload(app.spectrum);
        app.device_holds_spectrum = true;
      }
      app.gpu_rendered_display = app.backend->render_to_gl_texture(app.spectrum_tex.id(), app.spectrum_settings);
      // The backend wrote through image stores; make them visible to ImGui's texture fetches.
      if (app.gpu_rendered_display) {
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
        app.spectrum_tex.update_mipmaps();
      }
    }
    if (!app.gpu_rendered_display) app.spectrum_tex.upload(render_spectrum(app.spectrum, app.spectrum_settings));
    app.dirty_display = false;
  }
  if (app.backend_kind == BackendKind::cpu) {
    // The inverse of a large image takes a while on the CPU: the worker does it too.
    if (app.filter_job.valid() && app.filter_job.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      AppState::FilterResult result = app.filter_job.get();
      append_timings(app, result.timings);
      apply_filter_result(app, std::move(result));
    }
    if (app.dirty_filter && app.panel == Panel::filter && spectrum_current && !app.filter_job.valid()) {
      if (!app.filter_backend) app.filter_backend = make_backend(BackendKind::cpu);
      app.filter_job = std::async(std::launch::async, [backend = app.filter_backend, in = filter_job_input(app)] {
        AppState::FilterResult r = compute_filter(*backend, in);
        r.timings = backend->take_timings();
        return r;
      });
      app.dirty_filter = false;
    }
  } else if (app.dirty_filter && app.panel == Panel::filter && spectrum_current) {
    apply_filter_result(app, compute_filter(*app.backend, filter_job_input(app)));
    app.device_holds_spectrum = false;
    app.dirty_filter = false;
  }
  if (app.dirty_stages && app.panel == Panel::stages) {
    run_stages(app);
    app.dirty_stages = false;
  }
}

}  // namespace

namespace {

// The GL backend computes in the window's context; whatever binding it leaves behind must not
// redirect the GUI's own texture uploads and read-backs (a bound pixel buffer would).
void restore_gui_gl_state() {
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glUseProgram(0);
}

}  // namespace

bool pipeline_busy(const AppState& app) {
  return app.forward_job.valid() || app.filter_job.valid() || app.dirty_forward || app.dirty_display ||
         (app.panel == Panel::filter && app.dirty_filter) || (app.panel == Panel::stages && app.dirty_stages);
}

void update_pipeline(AppState& app) {
  struct RestoreOnExit {
    ~RestoreOnExit() { restore_gui_gl_state(); }
  } restore;
  if (!app.pending_drop.empty()) {
    const std::string path = std::move(app.pending_drop);
    app.pending_drop.clear();
    load_image_source(app, path);
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      run_dirty(app);
      return;
    } catch (const InputError& e) {
      // A source that cannot be read: say so and go back to the synthetic image.
      app.status = std::string("Cannot load: ") + e.what();
      app.use_synthetic = true;
      app.dirty_source = true;
    } catch (const UsageError& e) {
      app.status = std::string("Invalid setting: ") + e.what();
      return;
    } catch (const std::exception& e) {
      if (app.backend_kind == BackendKind::cpu) {
        app.backend_error = std::string("The CPU backend failed: ") + e.what();
        return;
      }
      const std::string failed = to_string(app.backend_kind);
      const std::string device = app.backend ? app.backend->device_name() : "";
      switch_backend(app, BackendKind::cpu);
      app.backend_error = "The " + failed + " backend (" + device + ") failed: " + e.what() +
                          "\nFell back to the CPU backend; image and settings are kept.";
      std::fprintf(stderr, "fftscope: %s\n", app.backend_error.c_str());
    }
  }
}

void compare_variants(AppState& app, int repeats) {
  app.variant_results.clear();
  collect_timings(app);  // keep what was measured so far out of the comparison
  const ComplexImage input = to_complex(app.input);
  for (KernelVariant v : {KernelVariant::plain, KernelVariant::optimized, KernelVariant::fused, KernelVariant::fast}) {
    VariantResult result;
    result.variant = v;
    try {
      std::vector<TimingRecord> records;
      for (int i = 0; i < repeats; ++i) {
        run_transform(*app.backend, app.plan, input, Direction::forward, v);
        for (TimingRecord& r : app.backend->take_timings()) records.push_back(std::move(r));
      }
      (void)app.backend->download();  // a finish, so late GPU timer queries are ready
      for (TimingRecord& r : app.backend->take_timings()) records.push_back(std::move(r));
      for (const TimingSummary& s : summarize_timings(records)) {
        result.total_median_ms += s.median_ms;
        result.dispatches += 1;
        result.host_measured = result.host_measured || s.last.host_measured;
      }
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    app.variant_results.push_back(result);
  }
  app.device_holds_spectrum = false;
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
