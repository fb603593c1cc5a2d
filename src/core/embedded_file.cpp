#include "core/embedded_file.h"

#include <fstream>
#include <sstream>
#include <system_error>

#include "core/errors.h"

namespace fftscope {

SourceFiles::SourceFiles(std::span<const EmbeddedFile> embedded, std::string dir)
    : embedded_(embedded), dir_(std::move(dir)) {
  changed_since_last_check();
}

std::string SourceFiles::origin(const std::string& name) const {
  return from_disk() ? (std::filesystem::path(dir_) / name).string() : "embedded:" + name;
}

std::string SourceFiles::text(const std::string& name) const {
  if (!from_disk()) {
    for (const EmbeddedFile& f : embedded_)
      if (f.name == name) return std::string(f.text);
    throw BackendError("no embedded source named " + name);
  }
  const std::filesystem::path path = std::filesystem::path(dir_) / name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BackendError(path.string() + ": cannot read source file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool SourceFiles::changed_since_last_check() {
  if (!from_disk()) return false;
  bool changed = false;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    if (!entry.is_regular_file(ec)) continue;
    const auto time = entry.last_write_time(ec);
    if (ec) continue;
    auto [it, inserted] = seen_.try_emplace(entry.path().filename().string(), time);
    if (!inserted && it->second != time) {
      it->second = time;
      changed = true;
    } else if (inserted) {
      changed = true;
    }
  }
  return changed;
}

}  // namespace fftscope
