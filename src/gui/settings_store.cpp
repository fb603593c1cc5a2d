#include "gui/settings_store.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "core/image_io.h"

namespace fftscope::gui {

std::string config_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/fftscope";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/fftscope";
  return "";
}

StoredSettings load_settings() {
  StoredSettings s;
  const std::string dir = config_dir();
  if (dir.empty()) return s;
  std::ifstream in(dir + "/settings.ini");
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    try {
      if (key == "recent" && !value.empty() && s.recent_files.size() < StoredSettings::max_recent)
        s.recent_files.push_back(value);
      else if (key == "ui_scale") {
        // "nan" parses and passes std::clamp unchanged (found by fuzz/fuzz_settings); keep the default.
        if (const float v = std::stof(value); std::isfinite(v)) s.ui_scale = std::clamp(v, 0.5f, 4.0f);
      }
      else if (key == "theme") s.light_theme = value == "light";
    } catch (const std::exception&) {
      // A hand-edited bad value keeps its default.
    }
  }
  return s;
}

void save_settings(const StoredSettings& s) {
  const std::string dir = config_dir();
  if (dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OutputError("cannot create " + dir + ": " + ec.message());
  std::string text = "# fftscope GUI settings\n";
  if (s.ui_scale > 0) text += "ui_scale=" + std::to_string(s.ui_scale) + "\n";
  text += std::string("theme=") + (s.light_theme ? "light" : "dark") + "\n";
  for (const std::string& r : s.recent_files) text += "recent=" + r + "\n";
  write_file_atomic(dir + "/settings.ini", std::vector<std::uint8_t>(text.begin(), text.end()));
}

void add_recent(StoredSettings& s, const std::string& path) {
  std::string abs = path;
  std::error_code ec;
  if (auto p = std::filesystem::absolute(path, ec); !ec) abs = p.lexically_normal().string();
  s.recent_files.erase(std::remove(s.recent_files.begin(), s.recent_files.end(), abs), s.recent_files.end());
  s.recent_files.insert(s.recent_files.begin(), abs);
  if (s.recent_files.size() > StoredSettings::max_recent) s.recent_files.resize(StoredSettings::max_recent);
}

}  // namespace fftscope::gui
