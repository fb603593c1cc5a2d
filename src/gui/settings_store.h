#pragma once
// What the GUI remembers between runs: recent files, UI scale, theme. Stored as key=value lines
// in $XDG_CONFIG_HOME/fftscope/settings.ini ($HOME/.config/fftscope when XDG_CONFIG_HOME is unset).

#include <string>
#include <vector>

namespace fftscope::gui {

struct StoredSettings {
  std::vector<std::string> recent_files;  ///< most recent first, at most max_recent
  float ui_scale = 0;                     ///< 0: not set
  bool light_theme = false;
  static constexpr std::size_t max_recent = 10;
};

/// The folder settings live in ("" when neither XDG_CONFIG_HOME nor HOME is set).
std::string config_dir();
/// Reads the settings; a missing or unreadable file gives the defaults (never throws).
StoredSettings load_settings();
/// Writes them atomically, creating the folder. Throws OutputError.
void save_settings(const StoredSettings& settings);
/// Moves (or adds) path to the front of the recent list.
void add_recent(StoredSettings& settings, const std::string& path);

}  // namespace fftscope::gui
