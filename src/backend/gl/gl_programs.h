#pragma once
// Compute programs built from the shader files, cached by a small key. Internal to the GL backend.

#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/embedded_file.h"

namespace fftscope::detail {

/// What makes one compute program: the shader file, the #define lines prepended to it (one
/// "NAME VALUE" pair per entry, in order) and the work-group size. Nothing else varies.
struct ProgramKey {
  std::string shader;                               ///< e.g. "radix_stage.comp"
  std::map<std::string, std::string> defines;       ///< e.g. {"RADIX", "4"}
  std::uint32_t local_x = 64;
  std::uint32_t local_y = 1;

  auto operator<=>(const ProgramKey&) const = default;
  /// "radix_stage.comp [RADIX=4 FIRST_STAGE=1] 64x1", for messages.
  std::string describe() const;
};

/// Line numbers encode the file: line L of file block k is compiled as k * shader_lines_per_file
/// + L (block 0: the prepended lines, 1: the shader, 2...: its includes). The source-string
/// number of `#line L S` would be the natural place, but Mesa reports 0 whatever S says.
inline constexpr int shader_lines_per_file = 100000;

/// Rewrites the locations in a driver's compile log, "S:LINE(COL)" (Mesa), "S(LINE)" (NVIDIA)
/// or "ERROR: S:LINE:" (AMD, Intel on Windows), to "origin:line" with origins[k] naming line
/// block k; sets `first` (when empty) to the first location found.
std::string map_shader_log(const std::string& log, const std::vector<std::string>& origins, std::string& first);

/// A linked program and its uniform locations (looked up once per name).
struct Program {
  unsigned id = 0;  // GLuint
  std::unordered_map<std::string, int> locations;
  /// Location of a uniform, -1 when the compiler dropped it or it does not exist.
  int location(const std::string& name);
};

/// Compiles on first use and keeps programs until the sources change.
///
/// Source assembly: string 0 is the "#version" line alone; string 1 the local_size layout and
/// the #define lines; string 2 the shader with each `#include "file"` line replaced by that
/// file (recursively) between `#line` directives that give each file its own block of line
/// numbers, which the error message maps back to the file name and line.
class ProgramCache {
 public:
  ProgramCache(SourceFiles files, std::string version_line);
  ~ProgramCache();
  ProgramCache(const ProgramCache&) = delete;
  ProgramCache& operator=(const ProgramCache&) = delete;

  /// The program for `key`, compiled and linked when missing. Throws BackendError naming the
  /// file and line of the first error, with the driver's log and the prepended lines.
  Program& get(const ProgramKey& key);
  /// When the sources are read from a folder and a file changed, drops every program so the
  /// next get() rebuilds from the new text. Returns true when it did.
  bool reload_if_changed();
  void clear();
  std::size_t size() const { return programs_.size(); }
  bool from_disk() const { return files_.from_disk(); }

 private:
  SourceFiles files_;
  std::string version_line_;
  std::map<ProgramKey, Program> programs_;
};

}  // namespace fftscope::detail
