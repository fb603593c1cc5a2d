// fftscope-cli fft: the full 2D spectrum of INPUT as a complex64 NPY array.

#include <iostream>

#include "cli/cli_common.h"
#include "cli/commands.h"

namespace fftscope::cli {

CommandSpec fft_spec() {
  CommandSpec spec;
  spec.name = "fft";
  spec.summary = "Writes the 2D DFT of INPUT (unshifted) as a complex64 NPY array of shape (height, width).";
  spec.positionals = {"INPUT"};
  spec.options = {
      {"--output", "-o", "OUT.npy", "output file (required)"},
      {"--inverse", "", "", "inverse transform, scaled by 1/(width*height)"},
  };
  for (auto& o : input_option_specs()) spec.options.push_back(o);
  spec.options.push_back(max_radix_option_spec());
  for (auto& o : backend_option_specs()) spec.options.push_back(o);
  spec.details =
      "INPUT is an image (any format stb_image reads; values in [0, 1]) or an NPY file holding a\n"
      "2D float32 or complex64 array in C order. Rows are transformed first, then columns.";
  return spec;
}

int run_fft(const ParsedArgs& args) {
  const std::string input_path = args.positional(0);
  const std::string output_path = require_output(args, ".npy");
  const ImageLoadOptions load_options = parse_load_options(args);
  const PlanOptions plan_options = parse_plan_options(args);
  const BackendChoice choice = parse_backend_choice(args);
  const Direction direction = args.has("--inverse") ? Direction::inverse : Direction::forward;

  const ComplexImage input = load_cli_input(input_path, load_options);
  auto backend = open_backend(choice);
  const Plan2D plan = make_plan_2d(input.width, input.height, plan_options);
  const ComplexImage result = transform_checked(*backend, plan, input, input_path, direction, choice.variant);

  write_output(output_path, [&] { write_npy(output_path, result); });
  std::cout << "wrote " << output_path << " (complex64, " << result.height << " x " << result.width << ", "
            << to_string(direction) << ", backend " << to_string(choice.kind) << ")\n";
  return 0;
}

}  // namespace fftscope::cli
