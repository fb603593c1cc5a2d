#pragma once
// fftscope-cli's subcommands: one file each (cmd_<name>.cpp). Each declares its CommandSpec
// (options and help) and a run function that returns the exit code or throws one of the
// exceptions of core/errors.h, which main() maps to exit codes.

#include <span>
#include <string>
#include <vector>

#include "cli/cli_args.h"

namespace fftscope::cli {

/// A subcommand: its declaration and what it does with the parsed arguments.
struct Command {
  CommandSpec (*spec)();
  int (*run)(const ParsedArgs& args);
};

CommandSpec fft_spec();
int run_fft(const ParsedArgs& args);

CommandSpec spectrum_spec();
int run_spectrum(const ParsedArgs& args);

CommandSpec plan_spec();
int run_plan(const ParsedArgs& args);

CommandSpec stages_spec();
int run_stages(const ParsedArgs& args);

CommandSpec bench_spec();
int run_bench(const ParsedArgs& args);

CommandSpec devices_spec();
int run_devices(const ParsedArgs& args);

/// Every subcommand, in the order `fftscope-cli --help` lists them.
std::span<const Command> commands();

}  // namespace fftscope::cli
