#pragma once
// The command line of the visualizer, including the test mode that renders a few frames (and
// waits for background results), writes the window to a PNG and exits (used by the GUI tests and for the README's screenshots).

#include <optional>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "core/filter.h"
#include "core/preprocess.h"
#include "core/spectrum.h"

namespace fftscope::gui {

/// The panels of the main area, in tab order.
enum class Panel { spectrum, filter, stages, digit_reverse, twiddles, timers };
inline constexpr Panel all_panels[] = {Panel::spectrum, Panel::filter, Panel::stages,
                                       Panel::digit_reverse, Panel::twiddles, Panel::timers};
std::string to_string(Panel panel);            ///< spectrum, filter, stages, digit-reverse, ...
Panel parse_panel(const std::string& name);    ///< throws UsageError
const char* panel_title(Panel panel);          ///< the tab label

struct GuiOptions {
  std::string image;                        ///< IMAGE argument; empty: the synthetic grating
  std::optional<SyntheticKind> synthetic;   ///< --source: start with this synthetic image
  std::size_t synthetic_width = 256, synthetic_height = 256;  ///< --source-size WxH
  std::optional<BackendKind> backend;       ///< --backend; default: gl where compiled, else cpu
  KernelVariant variant = KernelVariant::fused;
  bool measure_fast_plans = false;          ///< --planning measure (BackendOptions::measure_fast_plans)
  std::string screenshot;                   ///< --screenshot OUT.png: test mode
  int frames = 3;                           ///< --frames N (test mode)
  Panel panel = Panel::spectrum;            ///< --panel
  int stage = -1;                           ///< --stage K (stage stepper), -1: done
  std::string dump_spectrum;                ///< --dump-spectrum OUT.png: the spectrum texture
  int mouse_x = -1, mouse_y = -1;           ///< --mouse X,Y: put the cursor there (test mode: hover readouts)
  bool compare_variants = false;            ///< --compare-variants: run the variant comparison at start
  SpectrumSettings spectrum;                ///< --colormap, --component, --linear, --no-shift
  PreprocessSettings preprocess;            ///< --size-rule, --pad, --window
  FilterPreset filter = FilterPreset::none;  ///< --filter
  float ui_scale = 0;                       ///< --ui-scale; 0: from settings / monitor
  int width = 1400, height = 900;           ///< --window-size WxH
  bool light_theme = false;                 ///< --light
  std::string shader_dir;                   ///< --shader-dir: GLSL sources read from disk (GL backend)
  std::string kernel_dir;                   ///< --kernel-dir: OpenCL sources read from disk (CL backend)
  std::vector<std::string> drops;           ///< --drop PATH (repeatable, test mode): dropped on the window at frames 1, 2, ...
  int soak = 0;                             ///< --soak FRAMES: cycle sources, sizes, backends and panels, report memory
  double soak_rss_mb = 64;                  ///< --soak-rss-mb: allowed RSS growth from warm-up to the end
  int soak_warmup = 0;                      ///< --soak-warmup STEPS; 0: one full period of the schedule
  bool help = false;
};

/// Parses argv (without argv[0]). Throws UsageError naming the bad argument.
GuiOptions parse_gui_options(const std::vector<std::string>& args);
/// The --help text.
std::string gui_usage();

}  // namespace fftscope::gui
