// fftscope-cli plan: what the FFT of length N does, stage by stage.

#include <iostream>

#include "cli/cli_common.h"
#include "cli/commands.h"

namespace fftscope::cli {

/// Largest N `plan` accepts: the digit-reverse and twiddle tables it prints grow linearly.
constexpr std::uint64_t max_plan_length = std::uint64_t{1} << 26;

CommandSpec plan_spec() {
  CommandSpec spec;
  spec.name = "plan";
  spec.summary = "Prints the plan of a length-N FFT: its radix stages, digit-reverse order and twiddles.";
  spec.positionals = {"N"};
  spec.options = {
      {"--json", "", "", "print JSON: n, radices, stages[{radix, nx, ny, ni, kind}], digit_reverse, twiddles"},
      {"--no-twiddles", "", "", "leave the twiddle table out of the text output"},
      max_radix_option_spec(),
  };
  spec.details =
      "Stage s has radix Ny, span Nx (the product of the earlier radices) and Ni = Nx * Ny. After the\n"
      "digit-reverse gather, position n holds input element digit_reverse[n]. Twiddle angles are\n"
      "the forward ones, -2 pi nx ky / Ni (the inverse uses +angle).";
  return spec;
}

int run_plan(const ParsedArgs& args) {
  const std::size_t n =
      static_cast<std::size_t>(parse_integer(args.positional(0), "N", 1, max_plan_length));
  const Plan1D plan = make_plan(n, parse_plan_options(args));
  if (args.has("--json")) {
    if (args.has("--no-twiddles")) throw UsageError("--no-twiddles applies to the text output, not --json");
    std::cout << plan_to_json(plan);
  } else {
    std::cout << describe_plan(plan, !args.has("--no-twiddles"));
  }
  return 0;
}

}  // namespace fftscope::cli
