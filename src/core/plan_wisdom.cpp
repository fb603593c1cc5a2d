#include "core/plan_wisdom.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/image_io.h"

namespace fftscope {

namespace {

// FNV-1a, 64 bits: the same on every machine and compiler (std::hash is not).
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// Keys hold no tab or newline, so each choice stays one line.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

PlanWisdom::PlanWisdom(std::string path) : path_(std::move(path)) {
  if (path_.empty()) return;
  std::ifstream in(path_);
  for (std::string line; std::getline(in, line);) {
    const auto tab = line.rfind('\t');
    if (tab == std::string::npos || tab == 0 || tab + 1 >= line.size()) continue;
    const std::string index = line.substr(tab + 1);
    if (index.find_first_not_of("0123456789") != std::string::npos || index.size() > 6) continue;
    choices_[line.substr(0, tab)] = static_cast<std::size_t>(std::stoul(index));
  }
}

std::string PlanWisdom::default_path() {
  if (const char* env = std::getenv("FFTSCOPE_PLAN_CACHE")) return env;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/fftscope/plans.tsv";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/fftscope/plans.tsv";
  return {};
}

std::string PlanWisdom::key(const std::string& device, const std::string& what, const std::string& candidates) {
  std::ostringstream k;
  k << one_line(device) << " | " << one_line(what) << " | " << std::hex << fnv1a(candidates);
  return k.str();
}

std::optional<std::size_t> PlanWisdom::find(const std::string& key) const {
  const auto it = choices_.find(key);
  if (it == choices_.end()) return std::nullopt;
  ++hits_;
  return it->second;
}

void PlanWisdom::remember(const std::string& key, std::size_t index) {
  choices_[key] = index;
  if (path_.empty()) return;
  std::string text;
  for (const auto& [k, i] : choices_) text += k + '\t' + std::to_string(i) + '\n';
  try {
    std::error_code ec;
    const auto folder = std::filesystem::path(path_).parent_path();
    if (!folder.empty()) std::filesystem::create_directories(folder, ec);
    write_file_atomic(path_, std::vector<std::uint8_t>(text.begin(), text.end()));
  } catch (const std::exception&) {
    // A cache: the choices stay in memory for this run.
  }
}

}  // namespace fftscope
