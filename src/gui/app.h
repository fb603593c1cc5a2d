#pragma once
// The visualizer's state and its compute pipeline. The pipeline only calls the core and the
// selected backend; each stage is redone only when one of its inputs changed (dirty flags).

#include <deque>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "core/filter.h"
#include "core/image_io.h"
#include "core/plan.h"
#include "core/preprocess.h"
#include "core/spectrum.h"
#include "core/timing.h"
#include "gui/options.h"
#include "gui/settings_store.h"
#include "gui/texture.h"

struct GLFWwindow;

namespace fftscope::gui {

/// Zoom and pan of an image view; centre in texture coordinates [0, 1].
struct ViewTransform {
  float zoom = 1.0f;
  float cx = 0.5f, cy = 0.5f;
};

/// Kernel variant comparison: one row per variant.
struct VariantResult {
  KernelVariant variant = KernelVariant::fused;
  double total_median_ms = 0;  ///< sum over dispatches of each dispatch's median time
  std::size_t dispatches = 0;
  bool host_measured = false;
  std::string error;
};

struct AppState {
  GuiOptions options;
  StoredSettings stored;
  GLFWwindow* window = nullptr;

  // --- source ---
  bool use_synthetic = true;
  SyntheticSettings synthetic;
  std::string image_path;           ///< loaded image ("" when synthetic)
  std::string path_field;           ///< the path text field
  Channel channel = Channel::luma;
  std::vector<std::string> samples;  ///< bundled sample images found at start
  std::string pending_drop;          ///< a path dropped on the window, loaded next frame
  PreprocessSettings preprocess;

  // --- backend ---
  std::unique_ptr<Backend> backend;
  BackendKind backend_kind = BackendKind::cpu;
  KernelVariant variant = KernelVariant::fused;
  std::string backend_error;  ///< last failure, shown in a banner until dismissed

  // --- background forward transform (CPU backend): the window keeps drawing meanwhile ---
  struct ForwardResult {
    ComplexImage spectrum;
    std::vector<TimingRecord> timings;
  };
  std::shared_ptr<Backend> worker_backend;  ///< a CPU backend used only by the forward job
  std::future<ForwardResult> forward_job;   ///< valid while a job runs or waits to be collected
  /// The filter branch's results (host images and their RGBA renderings, ready to upload).
  struct FilterResult {
    RealImage mask;
    ComplexImage filtered;
    RealImage inverse, difference;
    float difference_max = 0, inverse_lo = 0, inverse_hi = 1;
    RgbaImage mask_rgba, filtered_rgba, inverse_rgba, difference_rgba;
    std::vector<TimingRecord> timings;
  };
  std::shared_ptr<Backend> filter_backend;  ///< a CPU backend used only by the filter job
  std::future<FilterResult> filter_job;

  // --- results (host copies) ---
  RealImage source;   ///< loaded or synthetic image, original size
  RealImage input;    ///< after window + padding: what is transformed
  Plan2D plan;
  ComplexImage spectrum;  ///< forward FFT of input, unshifted
  RealImage spectrum_values_img;  ///< display values (shifted when settings.shift)
  std::pair<float, float> spectrum_range{0.0f, 1.0f};
  bool device_holds_spectrum = false;
  bool gpu_rendered_display = false;  ///< the spectrum texture was filled by the backend
  SpectrumSettings spectrum_settings;
  ViewTransform spectrum_view;

  // --- filter ---
  FilterSettings filter;
  bool paint_pass = false;
  float brush_radius = 0.02f;
  RealImage mask;
  ComplexImage filtered;
  RealImage inverse, difference;
  float difference_max = 0;
  bool stretch_inverse = true;  ///< show the inverse min..max as black..white (else clamp [0, 1])
  float inverse_lo = 0, inverse_hi = 1;
  ViewTransform filter_view;

  // --- stage stepper ---
  Axis stage_axis = Axis::rows;
  int stage_k = 0;
  ComplexImage stage_buffer, stage_before;  ///< after K stages, after K - 1 (K >= 1)
  int sel_x = -1, sel_y = -1;  ///< picked element; -1: not picked yet (a default is chosen)
  bool has_selection = false;
  int plot_kind = 2;  ///< 0 real, 1 imaginary, 2 magnitude
  ViewTransform stage_view;

  // --- digit reverse / twiddles ---
  Axis dr_axis = Axis::rows;
  std::string dr_search;
  Axis tw_axis = Axis::rows;
  int tw_stage = 1000;  ///< clamped: starts at the last stage, where the twiddles are most varied
  int tw_nx = 1;

  // --- timers ---
  std::deque<TimingRecord> timing_history;  ///< newest last, capped
  std::vector<float> run_totals_ms;         ///< total of each batch of records, for the graph
  bool timers_paused = false;
  bool run_continuously = false;
  int pending_runs = 0;  ///< forward transforms still to run for timing ("run N times")
  std::vector<VariantResult> variant_results;

  // --- textures ---
  Texture source_tex, inverse_tex, difference_tex;
  Texture spectrum_tex{false}, mask_tex{false}, filtered_tex{false}, stage_tex{false};

  // --- dirty flags: each stage of the pipeline reruns only when set ---
  bool dirty_source = true, dirty_input = true, dirty_forward = true, dirty_display = true;
  bool dirty_filter = true, dirty_stages = true, dirty_source_tex = true;

  // --- UI ---
  Panel panel = Panel::spectrum;
  bool select_panel = true;  ///< force the tab of `panel` open on the next frame
  float ui_scale = 1.0f;
  bool light_theme = false;
  bool rebuild_style = true;
  std::string status;   ///< last export / load message
  std::string guided_text;  ///< explanation of the active guided preset
  std::string export_dir = ".";
  bool want_screenshot = false;  ///< interactive "save screenshot" request
  int frame = 0;
  double last_pipeline_s = 0;      ///< duration of the last pipeline run that did work
  double last_pipeline_end = 0;    ///< glfwGetTime() when it ended
  bool pipeline_deferred = false;  ///< this frame skipped a pending update (throttled while dragging)
};

/// Runs the window until closed (or, in test mode, for options.frames frames). Returns an exit code.
int run_app(const GuiOptions& options);

// --- pipeline (pipeline.cpp) ---
/// Creates the backend of that kind; on failure records the message and falls back to CPU.
void switch_backend(AppState& app, BackendKind kind);
/// Reruns whatever is dirty. Backend failures fall back to CPU and rerun.
void update_pipeline(AppState& app);
/// True while a background job runs or a visible result is still to be computed.
bool pipeline_busy(const AppState& app);
/// Marks the source changed (everything downstream reruns).
void mark_source_dirty(AppState& app);
void mark_input_dirty(AppState& app);
void mark_display_dirty(AppState& app);
/// Loads an image file as the source; errors go to app.status. Returns success.
bool load_image_source(AppState& app, const std::string& path);
/// Moves the timing records of the backend into the history (unless paused).
void collect_timings(AppState& app);
/// Runs the forward transform once per kernel variant (a few times each) and fills variant_results.
void compare_variants(AppState& app, int repeats);
/// The bundled sample images: <source dir>/assets and <exe dir>/../share/fftscope/assets.
std::vector<std::string> find_samples();

// --- panels (one file each) ---
void draw_source_panel(AppState& app);
void draw_spectrum_panel(AppState& app);
/// The display-settings row (shift, scale, component, colormap, range, gain); true when changed.
bool draw_spectrum_settings(AppState& app);
/// Text readout of the spectrum bin shown at texel (tx, ty) of the spectrum texture.
void spectrum_readout(const AppState& app, int tx, int ty);
void draw_filter_panel(AppState& app);
void draw_stages_panel(AppState& app);
void draw_digit_reverse_panel(AppState& app);
void draw_twiddles_panel(AppState& app);
void draw_timers_panel(AppState& app);

}  // namespace fftscope::gui
