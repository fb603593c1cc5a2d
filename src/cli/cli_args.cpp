#include "cli/cli_args.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "core/errors.h"

namespace fftscope::cli {

std::optional<std::string> ParsedArgs::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string ParsedArgs::get_or(const std::string& name, const std::string& fallback) const {
  return get(name).value_or(fallback);
}

namespace {

const OptionSpec* find_option(const CommandSpec& spec, const std::string& word) {
  for (const OptionSpec& o : spec.options) {
    if (word == o.name || (!o.short_name.empty() && word == o.short_name)) return &o;
  }
  return nullptr;
}

std::string join(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) out += (i ? sep : "") + words[i];
  return out;
}

}  // namespace

ParsedArgs parse_args(const CommandSpec& spec, std::span<const std::string> args) {
  ParsedArgs parsed;
  // --help wins over everything else, so "fft --help" works without an INPUT.
  for (const std::string& a : args) {
    if (a == "--") break;
    if (a == "--help" || a == "-h") {
      parsed.help = true;
      return parsed;
    }
  }

  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (options_done || word.empty() || word[0] != '-' || word == "-") {
      parsed.positionals_.push_back(word);
      continue;
    }
    if (word == "--") {
      options_done = true;
      continue;
    }
    std::string name = word;
    std::optional<std::string> inline_value;
    if (auto eq = word.find('='); word.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = word.substr(0, eq);
      inline_value = word.substr(eq + 1);
    }
    const OptionSpec* option = find_option(spec, name);
    if (option == nullptr) throw UsageError("unknown option '" + name + "'");
    if (option->value_name.empty()) {
      if (inline_value) throw UsageError("option '" + option->name + "' takes no value");
      parsed.values_[option->name] = "";
      continue;
    }
    if (inline_value) {
      parsed.values_[option->name] = *inline_value;
    } else if (i + 1 < args.size()) {
      parsed.values_[option->name] = args[++i];
    } else {
      throw UsageError("option '" + option->name + "' needs a value (" + option->value_name + ")");
    }
  }

  if (parsed.positionals_.size() < spec.positionals.size()) {
    throw UsageError("missing " + spec.positionals[parsed.positionals_.size()]);
  }
  if (parsed.positionals_.size() > spec.positionals.size()) {
    throw UsageError("unexpected argument '" + parsed.positionals_[spec.positionals.size()] + "'");
  }
  return parsed;
}

void print_help(const CommandSpec& spec, std::ostream& out) {
  out << "usage: fftscope-cli " << spec.name;
  for (const std::string& p : spec.positionals) out << ' ' << p;
  if (!spec.options.empty()) out << " [options]";
  out << "\n\n" << spec.summary << "\n";
  if (!spec.options.empty()) {
    out << "\noptions:\n";
    std::vector<std::string> left;
    std::size_t width = 0;
    for (const OptionSpec& o : spec.options) {
      std::string l = o.short_name.empty() ? o.name : o.short_name + ", " + o.name;
      if (!o.value_name.empty()) l += ' ' + o.value_name;
      width = std::max(width, l.size());
      left.push_back(std::move(l));
    }
    for (std::size_t i = 0; i < spec.options.size(); ++i) {
      out << "  " << left[i] << std::string(width - left[i].size() + 2, ' ') << spec.options[i].help << '\n';
    }
  }
  if (!spec.details.empty()) out << '\n' << spec.details << '\n';
}

std::uint64_t parse_integer(const std::string& text, const std::string& what, std::uint64_t min,
                            std::uint64_t max) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
    throw UsageError(what + ": '" + text + "' is not a non-negative integer");
  }
  if (ec == std::errc::result_out_of_range || value < min || value > max) {
    throw UsageError(what + ": " + text + " is out of range (expected " + std::to_string(min) + ".." +
                     std::to_string(max) + ")");
  }
  return value;
}

std::pair<std::size_t, std::size_t> parse_size(const std::string& text, std::size_t max_pixels) {
  const auto x = text.find_first_of("xX");
  const std::string bad = "--size: '" + text + "' is not a size (expected WxH, e.g. 1024x768, or N for NxN)";
  std::uint64_t w = 0, h = 0;
  try {
    if (x == std::string::npos) {
      w = h = parse_integer(text, "--size", 1, std::numeric_limits<std::uint32_t>::max());
    } else {
      w = parse_integer(text.substr(0, x), "--size", 1, std::numeric_limits<std::uint32_t>::max());
      h = parse_integer(text.substr(x + 1), "--size", 1, std::numeric_limits<std::uint32_t>::max());
    }
  } catch (const UsageError&) {
    throw UsageError(bad);
  }
  if (w * h > max_pixels) {
    throw UsageError("--size: " + text + " is " + std::to_string(w * h) + " pixels, over the limit of " +
                     std::to_string(max_pixels) + " (raise it with --max-pixels)");
  }
  return {static_cast<std::size_t>(w), static_cast<std::size_t>(h)};
}

const std::string& require_one_of(const std::string& value, const std::string& what,
                                  const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    throw UsageError(what + ": unknown value '" + value + "' (expected " + join(allowed, ", ") + ")");
  }
  return value;
}

}  // namespace fftscope::cli
