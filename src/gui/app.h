#pragma once
// The visualizer's state and its compute pipeline. The pipeline only calls the core and the
// selected backend; each stage is redone only when one of its inputs changed (dirty flags).

#include <deque>
#include <future>
#include <memory>
#include <optional>
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
#include "gui/variant_table.h"

struct GLFWwindow;

namespace fftscope::gui {

/// Zoom and pan of an image view; centre in texture coordinates [0, 1].
struct ViewTransform {
  float zoom = 1.0f;
  float cx = 0.5f, cy = 0.5f;
};

/// A host-rendered image on its way to a texture. With the worker's shared context the worker
/// uploads it into a texture of its own (`texture`, behind `fence`) and the UI swaps that in once
/// the fence has signalled, so a large upload never stalls a frame; without one, `rgba` is
/// uploaded by the UI thread.
struct WorkerTexture {
  RgbaImage rgba;                    ///< when texture is null
  std::unique_ptr<Texture> texture;  ///< filled on the worker (shared object)
  void* fence = nullptr;             ///< GLsync of the worker's context after the upload
  WorkerTexture() = default;
  WorkerTexture(WorkerTexture&& o) noexcept
      : rgba(std::move(o.rgba)), texture(std::move(o.texture)), fence(std::exchange(o.fence, nullptr)) {}
  WorkerTexture& operator=(WorkerTexture&& o) noexcept;
  ~WorkerTexture();
};

struct WorkerData;  // pipeline.cpp
class ComputeWorker;

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
  /// An image file to decode (off the UI thread: decoding a large file takes seconds).
  struct LoadRequest {
    std::string path;
    Channel channel = Channel::luma;
    bool initial = false;  ///< the command line's IMAGE (a failure there is exit code 3 in test mode)
  };
  struct LoadResult {
    RealImage image;
    std::string error;  ///< empty: decoded
    double seconds = 0;  ///< decode wall time on the loader thread
  };
  std::future<LoadResult> load_job;        ///< the decode in flight (its own thread: std::async)
  LoadRequest loading;                     ///< what load_job decodes
  std::optional<LoadRequest> load_queued;  ///< requested while one was in flight: the latest only
  bool load_stale = false;                 ///< a later source change overrides the decode in flight
  bool initial_load_failed = false;        ///< the command line's image could not be read
  double longest_decode_s = 0;
  int decodes = 0;
  double longest_upload_s = 0;  ///< the longest texture upload made on the UI thread
  std::size_t longest_upload_w = 0, longest_upload_h = 0;
  bool synthetic_pending = false;    ///< the synthetic source changed; the next forward job makes it
  PreprocessSettings preprocess;

  // --- backend ---
  std::unique_ptr<Backend> backend;
  BackendKind backend_kind = BackendKind::cpu;
  KernelVariant variant = KernelVariant::fused;
  std::string backend_error;  ///< last failure, shown in a banner until dismissed

  // --- the worker: every backend call runs there (compute_worker.h); the window keeps drawing ---
  std::unique_ptr<ComputeWorker> worker;
  std::string device_name;                 ///< of the backend the worker runs
  std::future<std::string> backend_job;    ///< a backend being started (device name or error)
  BackendKind backend_requested = BackendKind::cpu;
  /// What the worker keeps between jobs (its copy of input, plan, spectrum); touched only by jobs.
  std::shared_ptr<WorkerData> worker_data;
  struct DisplayResult {
    std::pair<float, float> range{0.0f, 1.0f};
    bool gpu_rendered = false;  ///< written into spectrum_back on the device, behind `fence`
    bool fused = false;         ///< by the fast variant's fused real-input display (execute_real_display)
    bool routed = false;        ///< ... through its routed passes (a prime factor above 13: Bluestein)
    void* fence = nullptr;      ///< GLsync of the worker's context (shared objects)
    WorkerTexture host;         ///< host rendering when not gpu_rendered
  };
  struct ForwardResult {
    bool synthetic = false;
    RealImage source;  ///< the synthetic source the job made
    RealImage input;
    Plan2D plan;
    ComplexImage spectrum;
    std::vector<TimingRecord> timings;
    bool has_display = false;
    DisplayResult display;
    WorkerTexture input_rgba;  ///< the transformed input, for the source view
  };
  std::future<ForwardResult> forward_job;   ///< valid while a job runs or waits to be collected
  std::future<DisplayResult> display_job;
  std::optional<DisplayResult> display_waiting;  ///< collected, its fence not yet signalled
  /// Textures the worker filled, each swapped into its view (in order) once its fence has signalled.
  std::deque<std::pair<Texture*, WorkerTexture>> textures_waiting;
  /// The filter branch's results (host images and their RGBA renderings, ready to upload).
  struct FilterResult {
    RealImage mask;
    ComplexImage filtered;
    RealImage inverse, difference;
    float difference_max = 0, inverse_lo = 0, inverse_hi = 1;
    WorkerTexture mask_rgba, filtered_rgba, inverse_rgba, difference_rgba;
    std::vector<TimingRecord> timings;
  };
  std::future<FilterResult> filter_job;
  struct StagesResult {
    ComplexImage buffer, before;
    int k = 0;
    WorkerTexture rgba;
    std::vector<TimingRecord> timings;
  };
  std::future<StagesResult> stages_job;
  std::future<VariantTable> variants_job;
  double job_started = 0;  ///< glfwGetTime() when the oldest job in flight was submitted

  // --- results (host copies) ---
  RealImage source;   ///< loaded or synthetic image, original size
  RealImage input;    ///< after window + padding: what is transformed
  Plan2D plan;
  ComplexImage spectrum;  ///< forward FFT of input, unshifted
  RealImage spectrum_values_img;  ///< display values (shifted when settings.shift)
  std::pair<float, float> spectrum_range{0.0f, 1.0f};
  bool gpu_rendered_display = false;  ///< the spectrum texture was filled by the backend
  bool fused_display = false;         ///< ... by the fast variant's fused real-input display path
  bool routed_display = false;        ///< ... through its routed passes (a prime factor above 13)
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
  VariantTable variant_table;  ///< the last kernel-variant comparison (empty: none yet)

  // --- textures ---
  Texture source_tex, inverse_tex, difference_tex;
  Texture spectrum_tex{false}, spectrum_back{false};  ///< shown / written by the worker, swapped behind a fence
  Texture mask_tex{false}, filtered_tex{false}, stage_tex{false};

  // --- dirty flags: each stage of the pipeline reruns only when set ---
  bool dirty_source = true, dirty_input = true, dirty_forward = true, dirty_display = true;
  bool dirty_filter = true, dirty_stages = true;

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
  double last_job_s = 0;  ///< submit-to-result time of the last forward transform
};

/// Runs the window until closed (or, in test mode, for options.frames frames). Returns an exit code.
int run_app(const GuiOptions& options);

// --- pipeline (pipeline.cpp) ---
/// Starts the backend of that kind on the worker; on failure records the message and falls back
/// to CPU (once the start has been collected by update_pipeline or wait_for_backend).
void switch_backend(AppState& app, BackendKind kind);
/// Reruns whatever is dirty. Backend failures fall back to CPU and rerun.
void update_pipeline(AppState& app);
/// True while a background job runs or a visible result is still to be computed.
bool pipeline_busy(const AppState& app);
/// Marks the source changed (everything downstream reruns).
void mark_source_dirty(AppState& app);
void mark_input_dirty(AppState& app);
void mark_display_dirty(AppState& app);
/// What the window's drop callback calls (and --drop): the first path is loaded next frame.
void drop_files(AppState& app, const std::vector<std::string>& paths);
/// Asks for an image file as the source: it is decoded on a loader thread while the window keeps
/// drawing the previous source ("loading ..." shows meanwhile); update_pipeline applies it when
/// it lands, or on failure puts a one-line message in app.status (and stderr) and keeps the
/// previous image and settings. A later request replaces one not yet started (latest wins).
void load_image_source(AppState& app, const std::string& path, bool initial = false);
/// True while an image file is being decoded (or waits to be).
bool image_loading(const AppState& app);
/// Starts the kernel-variant comparison on the worker (each variant `repeats` times); the
/// result lands in variant_table.
void compare_variants(AppState& app, int repeats);
/// Blocks until the backend being started is running (or has fallen back); for start-up.
void wait_for_backend(AppState& app);
/// Waits for every job in flight and drops its result (before a backend switch, at exit).
void drain_jobs(AppState& app);
/// Deletes a GLsync kept as void* (nullptr: nothing).
void delete_fence(void* fence);
/// The bundled sample images: <source dir>/assets and <exe dir>/../share/fftscope/assets.
std::vector<std::string> find_samples();

// --- panels (one file each) ---
void draw_source_panel(AppState& app);
void draw_spectrum_panel(AppState& app);
/// The display-settings row (shift, scale, component, colormap, range, gain); true when changed.
bool draw_spectrum_settings(AppState& app);
/// Text readout of the spectrum bin shown at texel (tx, ty) of the spectrum texture (readout.h).
void spectrum_readout(const AppState& app, int tx, int ty);
void draw_filter_panel(AppState& app);
void draw_stages_panel(AppState& app);
void draw_digit_reverse_panel(AppState& app);
void draw_twiddles_panel(AppState& app);
void draw_timers_panel(AppState& app);

}  // namespace fftscope::gui
