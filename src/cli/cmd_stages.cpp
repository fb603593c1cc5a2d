// fftscope-cli stages: the 2D buffer after stage K of the pipeline along one axis.

#include <iostream>

#include "cli/cli_common.h"
#include "cli/commands.h"

namespace fftscope::cli {

CommandSpec stages_spec() {
  CommandSpec spec;
  spec.name = "stages";
  spec.summary = "Writes the buffer after stage K of the FFT pipeline along one axis (complex64 NPY).";
  spec.positionals = {"INPUT"};
  spec.options = {
      {"--stage", "", "K", "0 = after the digit-reverse gather, 1..S = after the K-th radix stage (required)"},
      {"--output", "-o", "OUT.npy", "output file (required)"},
      {"--axis", "", "rows|cols", "rows (default) or cols; for cols the rows are fully transformed first"},
      {"--inverse", "", "", "run the inverse pipeline (scaled by 1/N only once the axis is complete)"},
  };
  for (auto& o : input_option_specs()) spec.options.push_back(o);
  spec.options.push_back(max_radix_option_spec());
  for (auto& o : backend_option_specs()) spec.options.push_back(o);
  spec.details =
      "S is the number of radix stages of the axis's plan ('fftscope-cli plan N' lists them); K = S is\n"
      "that axis fully transformed. The output has the shape of the input, (height, width).";
  return spec;
}

int run_stages(const ParsedArgs& args) {
  const std::string input_path = args.positional(0);
  auto stage_text = args.get("--stage");
  if (!stage_text) throw UsageError("missing --stage K");
  // Range-checked against the plan below, once the input size is known.
  const std::uint64_t stage = parse_integer(*stage_text, "--stage", 0, 1u << 20);
  const std::string output_path = require_output(args, ".npy");
  const Axis axis = require_one_of(args.get_or("--axis", "rows"), "--axis", {"rows", "cols"}) == "rows"
                        ? Axis::rows
                        : Axis::cols;
  const ImageLoadOptions load_options = parse_load_options(args);
  const PlanOptions plan_options = parse_plan_options(args);
  const BackendChoice choice = parse_backend_choice(args);
  const Direction direction = args.has("--inverse") ? Direction::inverse : Direction::forward;

  const ComplexImage input = load_cli_input(input_path, load_options);
  const Plan2D plan = make_plan_2d(input.width, input.height, plan_options);
  const Plan1D& axis_plan = axis == Axis::rows ? plan.rows : plan.cols;
  const std::size_t stage_count = axis_plan.stage_count();
  if (stage > stage_count) {
    throw UsageError("--stage " + std::to_string(stage) + " is out of range: the " + to_string(axis) +
                     " of " + input_path + " have length " + std::to_string(axis_plan.n) + " and " +
                     std::to_string(stage_count) + " stage(s), so K must be in 0.." + std::to_string(stage_count));
  }

  auto backend = open_backend(choice);
  StageStop stop;
  stop.axis = axis;
  stop.stage = static_cast<int>(stage);
  const ComplexImage result = transform_checked(*backend, plan, input, input_path, direction, choice.variant, stop);

  write_output(output_path, [&] { write_npy(output_path, result); });
  std::cout << "wrote " << output_path << " (complex64, " << result.height << " x " << result.width << ", "
            << to_string(axis) << " after stage " << stage << " of " << stage_count << ", "
            << to_string(direction) << ", backend " << to_string(choice.kind) << ")\n";
  return 0;
}

}  // namespace fftscope::cli
