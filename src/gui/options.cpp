#include "gui/options.h"

#include <charconv>

#include "core/errors.h"

namespace fftscope::gui {

std::string to_string(Panel panel) {
  switch (panel) {
    case Panel::spectrum: return "spectrum";
    case Panel::filter: return "filter";
    case Panel::stages: return "stages";
    case Panel::digit_reverse: return "digit-reverse";
    case Panel::twiddles: return "twiddles";
    case Panel::timers: return "timers";
  }
  return "?";
}

Panel parse_panel(const std::string& name) {
  for (Panel p : all_panels)
    if (to_string(p) == name) return p;
  throw UsageError("unknown panel '" + name +
                   "' (expected spectrum, filter, stages, digit-reverse, twiddles or timers)");
}

const char* panel_title(Panel panel) {
  switch (panel) {
    case Panel::spectrum: return "Spectrum";
    case Panel::filter: return "Filter & inverse";
    case Panel::stages: return "Stage stepper";
    case Panel::digit_reverse: return "Digit reverse";
    case Panel::twiddles: return "Twiddles";
    case Panel::timers: return "Timers";
  }
  return "?";
}

namespace {

int parse_int(const std::string& flag, const std::string& value, int lo, int hi) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc{} || ptr != value.data() + value.size() || v < lo || v > hi)
    throw UsageError(flag + " expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     "], got '" + value + "'");
  return v;
}

float parse_float(const std::string& flag, const std::string& value, float lo, float hi) {
  try {
    std::size_t used = 0;
    const float v = std::stof(value, &used);
    if (used == value.size() && v >= lo && v <= hi) return v;
  } catch (const std::exception&) {
  }
  throw UsageError(flag + " expects a number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                   "], got '" + value + "'");
}

}  // namespace

GuiOptions parse_gui_options(const std::vector<std::string>& args) {
  GuiOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "-h" || a == "--help") o.help = true;
    else if (a == "--backend") o.backend = parse_backend(value());
    else if (a == "--variant") o.variant = parse_variant(value());
    else if (a == "--planning") {
      const std::string& v = value();
      if (v != "estimate" && v != "measure") throw UsageError("--planning expects estimate or measure, got '" + v + "'");
      o.measure_fast_plans = v == "measure";
    }
    else if (a == "--screenshot") o.screenshot = value();
    else if (a == "--frames") o.frames = parse_int(a, value(), 1, 100000);
    else if (a == "--panel") o.panel = parse_panel(value());
    else if (a == "--stage") o.stage = parse_int(a, value(), -1, 64);
    else if (a == "--dump-spectrum") o.dump_spectrum = value();
    else if (a == "--compare-variants") o.compare_variants = true;
    else if (a == "--shader-dir") o.shader_dir = value();
    else if (a == "--kernel-dir") o.kernel_dir = value();
    else if (a == "--drop") o.drops.push_back(value());
    else if (a == "--soak") o.soak = parse_int(a, value(), 1, 10000000);
    else if (a == "--soak-warmup") o.soak_warmup = parse_int(a, value(), 1, 1000000);
    else if (a == "--soak-rss-mb") o.soak_rss_mb = parse_float(a, value(), 1.0f, 100000.0f);
    else if (a == "--mouse") {
      const std::string& v = value();
      const auto c = v.find(',');
      if (c == std::string::npos) throw UsageError("--mouse expects X,Y, got '" + v + "'");
      o.mouse_x = parse_int(a, v.substr(0, c), 0, 16384);
      o.mouse_y = parse_int(a, v.substr(c + 1), 0, 16384);
    }
    else if (a == "--source") o.synthetic = parse_synthetic(value());
    else if (a == "--colormap") o.spectrum.colormap = parse_colormap(value());
    else if (a == "--component") o.spectrum.component = parse_component(value());
    else if (a == "--linear") o.spectrum.scale = SpectrumScale::linear;
    else if (a == "--no-shift") o.spectrum.shift = false;
    else if (a == "--size-rule") o.preprocess.size_rule = parse_size_rule(value());
    else if (a == "--pad") o.preprocess.pad = parse_pad_mode(value());
    else if (a == "--window") o.preprocess.window = parse_window(value());
    else if (a == "--filter") o.filter = parse_filter_preset(value());
    else if (a == "--ui-scale") o.ui_scale = parse_float(a, value(), 0.5f, 4.0f);
    else if (a == "--light") o.light_theme = true;
    else if (a == "--window-size" || a == "--source-size") {
      const std::string& v = value();
      const auto x = v.find('x');
      if (x == std::string::npos) throw UsageError(a + " expects WxH, got '" + v + "'");
      if (a == "--window-size") {
        o.width = parse_int(a, v.substr(0, x), 320, 8192);
        o.height = parse_int(a, v.substr(x + 1), 240, 8192);
      } else {
        o.synthetic_width = static_cast<std::size_t>(parse_int(a, v.substr(0, x), 1, 8192));
        o.synthetic_height = static_cast<std::size_t>(parse_int(a, v.substr(x + 1), 1, 8192));
      }
    } else if (!a.empty() && a[0] == '-') throw UsageError("unknown option '" + a + "' (see --help)");
    else if (o.image.empty()) o.image = a;
    else throw UsageError("more than one IMAGE given: '" + o.image + "' and '" + a + "'");
  }
  return o;
}

std::string gui_usage() {
  return R"(usage: fftscope [IMAGE] [options]

Shows the 2D FFT of IMAGE (or of a synthetic source) live, stage by stage, with kernel timings.

  --backend gl|cl|cpu      compute backend (default: gl where built, else cpu; falls back to cpu)
  --variant plain|optimized|fused|fast   kernel variant (default fused)
  --planning estimate|measure   the fast variant's layouts: built in (default), or timed per
                           axis on this GPU when a size is first prepared, keeping the fastest
  --source grating|impulse|rectangle|checkerboard   start with a synthetic image
  --source-size WxH        its size (default 256x256)
  --size-rule exact|smooth|pow2   --pad zeros|mean|mirror   --window none|hann|tukey
  --colormap gray|viridis|inferno|magma|twilight   --component magnitude|phase|real|imaginary|phase_hue
  --linear  --no-shift     spectrum scale and centring
  --filter none|lowpass|highpass|bandpass|notch|wedge
  --ui-scale S  --light  --window-size WxH
  --shader-dir DIR  --kernel-dir DIR   read GLSL / OpenCL sources from DIR (recompiled when changed)

Test mode (renders N frames, waits for background results, writes the whole window to a PNG, exits):
  --screenshot OUT.png --frames N [--panel spectrum|filter|stages|digit-reverse|twiddles|timers]
  [--stage K] [--dump-spectrum SPEC.png  (the spectrum texture as shown, for the tests)]
  [--mouse X,Y  (cursor position, to show hover readouts)] [--compare-variants]
  [--drop PATH  (as if PATH were dropped on the window at frame 1; repeatable: frames 2, 3, ...)]
  The test mode prints frame times (max while the worker computes) and the longest job.

Soak (issue 7): --soak FRAMES [--soak-rss-mb MB (default 64)] [--soak-warmup STEPS] [--screenshot OUT.png]
  cycles samples and synthetic sources, sizes, every backend that starts, panels and display
  settings for FRAMES frames; prints host RSS (and GPU memory where the driver tells) after the
  warm-up (default: one full period, 84 steps, every backend x variant x size) and at the end;
  exit 1 when RSS grew by more than MB.

Exit codes: 0 ok, 1 soak memory growth over the bound, 2 usage, 3 bad input, 4 no display / backend, 5 output failed.
)";
}

}  // namespace fftscope::gui
