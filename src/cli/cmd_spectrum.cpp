// fftscope-cli spectrum: the spectrum of INPUT rendered as a PNG (by default the shifted
// log-magnitude in gray, as the GUI shows it).

#include <algorithm>
#include <iostream>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "core/spectrum.h"

namespace fftscope::cli {

CommandSpec spectrum_spec() {
  CommandSpec spec;
  spec.name = "spectrum";
  spec.summary = "Writes the spectrum of INPUT as an RGBA PNG of the same size.";
  spec.positionals = {"INPUT"};
  spec.options = {
      {"--output", "-o", "OUT.png", "output file (required)"},
      {"--no-shift", "", "", "keep the zero frequency at the top-left corner (no fftshift)"},
      {"--scale", "", "log|linear", "log shows log(1 + |X|) (default), linear shows |X|"},
      {"--colormap", "", "NAME", "gray (default), viridis, inferno, magma or twilight"},
      {"--component", "", "NAME", "magnitude (default), phase, real, imaginary or phase-hue"},
  };
  for (auto& o : input_option_specs()) spec.options.push_back(o);
  spec.options.push_back(max_radix_option_spec());
  for (auto& o : backend_option_specs()) spec.options.push_back(o);
  spec.details =
      "The colour range spans the values of the whole image. phase shows arg(X) in [-pi, pi] and\n"
      "ignores --scale; phase-hue shows the phase as hue and the log magnitude as brightness.";
  return spec;
}

int run_spectrum(const ParsedArgs& args) {
  const std::string input_path = args.positional(0);
  const std::string output_path = require_output(args, ".png");
  const ImageLoadOptions load_options = parse_load_options(args);
  const PlanOptions plan_options = parse_plan_options(args);
  const BackendChoice choice = parse_backend_choice(args);

  SpectrumSettings settings;
  settings.shift = !args.has("--no-shift");
  settings.scale = require_one_of(args.get_or("--scale", "log"), "--scale", {"log", "linear"}) == "log"
                       ? SpectrumScale::log
                       : SpectrumScale::linear;
  if (auto c = args.get("--colormap")) settings.colormap = parse_colormap(*c);
  if (auto c = args.get("--component")) {
    std::string name = *c;
    std::replace(name.begin(), name.end(), '-', '_');  // the CLI spells it phase-hue, the core phase_hue
    try {
      settings.component = parse_component(name);
    } catch (const UsageError&) {
      throw UsageError("--component: unknown value '" + *c +
                       "' (expected magnitude, phase, real, imaginary or phase-hue)");
    }
  }

  const ComplexImage input = load_cli_input(input_path, load_options);
  auto backend = open_backend(choice);
  const Plan2D plan = make_plan_2d(input.width, input.height, plan_options);
  const ComplexImage spectrum = transform_checked(*backend, plan, input, input_path, Direction::forward, choice.variant);
  const RgbaImage picture = render_spectrum(spectrum, settings);

  write_output(output_path, [&] { write_png(output_path, picture); });
  std::cout << "wrote " << output_path << " (" << picture.width << " x " << picture.height << ", "
            << to_string(settings.component) << ", " << (settings.scale == SpectrumScale::log ? "log" : "linear")
            << ", " << to_string(settings.colormap) << (settings.shift ? ", shifted" : ", unshifted")
            << ", backend " << to_string(choice.kind) << ")\n";
  return 0;
}

}  // namespace fftscope::cli
