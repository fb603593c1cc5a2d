// fftscope-cli: the headless face of fftscope. It dispatches to one subcommand and maps the
// exceptions of core/errors.h to exit codes, printing one line that names the file and reason.

#include <cstdio>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/errors.h"

#ifndef FFTSCOPE_VERSION
#define FFTSCOPE_VERSION "unknown"
#endif

namespace fftscope::cli {

std::span<const Command> commands() {
  static const Command table[] = {
      {fft_spec, run_fft},     {spectrum_spec, run_spectrum}, {plan_spec, run_plan},
      {stages_spec, run_stages}, {bench_spec, run_bench},     {devices_spec, run_devices},
  };
  return table;
}

namespace {

void print_main_help(std::ostream& out) {
  out << "usage: fftscope-cli COMMAND [arguments] [options]\n"
         "       fftscope-cli COMMAND --help\n\n"
         "Runs fftscope's 2D FFT pipeline (CPU, OpenGL compute or OpenCL) without a window.\n\n"
         "commands:\n";
  for (const Command& c : commands()) {
    const CommandSpec spec = c.spec();
    out << "  " << spec.name << std::string(10 - spec.name.size(), ' ') << spec.summary << '\n';
  }
  out << "\nexit codes: 0 success, 2 bad usage, 3 unreadable or invalid input, 4 backend unavailable,\n"
         "            5 output could not be written, 1 internal error\n";
}

/// Prints "fftscope-cli[ CMD]: MESSAGE" on stderr; a message of several lines (a compiler log)
/// keeps its first line as the summary and the rest below it.
void report(const std::string& where, const std::string& message, const std::string& hint = "") {
  const auto nl = message.find('\n');
  std::cerr << where << ": " << message.substr(0, nl) << hint << '\n';
  if (nl != std::string::npos) std::cerr << message.substr(nl + 1) << (message.back() == '\n' ? "" : "\n");
}

int run(const std::vector<std::string>& argv) {
  if (argv.empty()) {
    print_main_help(std::cerr);
    return exit_usage;
  }
  const std::string& first = argv[0];
  if (first == "--help" || first == "-h") {
    print_main_help(std::cout);
    return exit_ok;
  }
  if (first == "--version") {
    std::cout << "fftscope-cli " << FFTSCOPE_VERSION << '\n';
    return exit_ok;
  }
  std::vector<std::string> rest(argv.begin() + 1, argv.end());
  std::string name = first;
  if (first == "help") {
    if (rest.empty()) {
      print_main_help(std::cout);
      return exit_ok;
    }
    name = rest[0];
    rest = {"--help"};
  }

  const Command* command = nullptr;
  for (const Command& c : commands()) {
    if (c.spec().name == name) command = &c;
  }
  if (command == nullptr) {
    std::string known;
    for (const Command& c : commands()) known += (known.empty() ? "" : ", ") + c.spec().name;
    report("fftscope-cli", std::string(name.rfind("-", 0) == 0 ? "unknown option '" : "unknown command '") + name +
                               "' (commands: " + known + ")",
           "; see 'fftscope-cli --help'");
    return exit_usage;
  }

  const CommandSpec spec = command->spec();
  const std::string where = "fftscope-cli " + spec.name;
  try {
    const ParsedArgs args = parse_args(spec, rest);
    if (args.help) {
      print_help(spec, std::cout);
      return exit_ok;
    }
    return command->run(args);
  } catch (const UsageError& e) {
    report(where, e.what(), "; see 'fftscope-cli " + spec.name + " --help'");
    return exit_usage;
  } catch (const InputError& e) {
    report(where, e.what());
    return exit_bad_input;
  } catch (const BackendError& e) {
    report(where, e.what());
    return exit_backend_unavailable;
  } catch (const OutputError& e) {
    report(where, e.what());
    return exit_output_failed;
  } catch (const std::bad_alloc&) {
    report(where, "out of memory (a smaller input, or a lower --max-pixels, avoids this)");
    return 1;
  } catch (const std::exception& e) {
    report(where, std::string("internal error: ") + e.what());
    return 1;
  }
}

}  // namespace
}  // namespace fftscope::cli

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const int code = fftscope::cli::run(args);
  std::cout.flush();
  return code;
}
