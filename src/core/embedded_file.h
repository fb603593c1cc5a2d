#pragma once
// Text files baked into the binary at build time (see cmake/embed.cmake), and a loader that
// serves them from the embedded copy or, while iterating, from a folder on disk.

#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace fftscope {

struct EmbeddedFile {
  std::string_view name;  ///< file name without folder, e.g. "radix_4.comp"
  std::string_view text;
};

/// Serves source files by name: from `dir` when it is set (reading each file again when its
/// modification time changes), else from the embedded set.
class SourceFiles {
 public:
  SourceFiles(std::span<const EmbeddedFile> embedded, std::string dir);

  /// The text of `name`. Throws BackendError naming the file when it is missing.
  std::string text(const std::string& name) const;
  /// Where `name` comes from, for messages: "<dir>/<name>" or "embedded:<name>".
  std::string origin(const std::string& name) const;
  /// True when a file in `dir` changed since the last call (always false when embedded).
  bool changed_since_last_check();
  bool from_disk() const { return !dir_.empty(); }

 private:
  std::span<const EmbeddedFile> embedded_;
  std::string dir_;
  std::map<std::string, std::filesystem::file_time_type> seen_;
};

}  // namespace fftscope
