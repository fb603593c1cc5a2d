#pragma once
// A small hand-written argument parser for fftscope-cli: each subcommand declares its
// positionals and options once, and the same declaration drives parsing and --help.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace fftscope::cli {

/// One option of a subcommand. A flag has an empty value_name.
struct OptionSpec {
  std::string name;        ///< long form, e.g. "--output"
  std::string short_name;  ///< e.g. "-o", or empty
  std::string value_name;  ///< e.g. "OUT.npy"; empty for a flag
  std::string help;
};

/// Everything the parser and the help text need to know about a subcommand.
struct CommandSpec {
  std::string name;                      ///< e.g. "fft"
  std::string summary;                   ///< one line for the command list
  std::vector<std::string> positionals;  ///< required positional arguments, e.g. {"INPUT"}
  std::vector<OptionSpec> options;
  std::string details;                   ///< extra paragraphs printed after the options
};

/// The result of parsing one subcommand's arguments.
class ParsedArgs {
 public:
  bool help = false;  ///< --help / -h was given (nothing else was validated)

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  /// The value of an option that takes one, if given (the last occurrence wins).
  std::optional<std::string> get(const std::string& name) const;
  std::string get_or(const std::string& name, const std::string& fallback) const;
  const std::string& positional(std::size_t i) const { return positionals_.at(i); }

 private:
  friend ParsedArgs parse_args(const CommandSpec& spec, std::span<const std::string> args);
  std::map<std::string, std::string> values_;  // flags map to ""
  std::vector<std::string> positionals_;
};

/// Parses `args` (the words after the subcommand). Accepts "--opt VALUE", "--opt=VALUE",
/// "-o VALUE" and "--" (end of options). Throws UsageError for unknown options, a missing
/// value, a value given to a flag, and missing or extra positionals.
ParsedArgs parse_args(const CommandSpec& spec, std::span<const std::string> args);

/// Prints "usage: fftscope-cli NAME ..." and the option table.
void print_help(const CommandSpec& spec, std::ostream& out);

/// Parses a decimal integer in [min, max]; throws UsageError naming `what` otherwise.
std::uint64_t parse_integer(const std::string& text, const std::string& what, std::uint64_t min,
                            std::uint64_t max);

/// Parses "WxH" (or "N" for N x N) with both sides >= 1 and W * H <= max_pixels; throws
/// UsageError otherwise. Returns {width, height}.
std::pair<std::size_t, std::size_t> parse_size(const std::string& text, std::size_t max_pixels);

/// Throws UsageError unless `value` is one of `allowed`; returns it.
const std::string& require_one_of(const std::string& value, const std::string& what,
                                  const std::vector<std::string>& allowed);

}  // namespace fftscope::cli
