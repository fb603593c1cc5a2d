// Measured planning's choices kept across runs, as FFTW keeps its wisdom: which of a size's
// candidate layouts measured fastest on a device, so the next run takes it without timing them
// again (BackendOptions::measure_fast_plans).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace fftscope {

/// One line per choice, "KEY<TAB>INDEX": KEY names the device, what was planned (an axis or the
/// display path, and the size) and a hash of the candidates' identities, so a changed candidate
/// list or driver misses instead of reusing a stale index. Lines that do not parse are ignored.
class PlanWisdom {
 public:
  /// Reads `path` if it exists; empty: kept in memory only.
  explicit PlanWisdom(std::string path = {});

  /// $FFTSCOPE_PLAN_CACHE (empty: none), else $XDG_CACHE_HOME/fftscope/plans.tsv, else
  /// $HOME/.cache/fftscope/plans.tsv, else "" (memory only).
  static std::string default_path();
  /// A key for the choice among `candidates` (their identities, in order, joined by newlines).
  static std::string key(const std::string& device, const std::string& what, const std::string& candidates);

  std::optional<std::size_t> find(const std::string& key) const;
  /// Keeps the choice and rewrites the file atomically (temporary file, rename; its folder made
  /// if missing). A cache: a file that cannot be written is left as it was, silently.
  void remember(const std::string& key, std::size_t index);

  const std::string& path() const { return path_; }
  /// Lookups that found a choice (for tests and diagnostics).
  std::size_t hits() const { return hits_; }

 private:
  std::string path_;
  std::map<std::string, std::size_t> choices_;
  mutable std::size_t hits_ = 0;
};

}  // namespace fftscope
