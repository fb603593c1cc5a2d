// libFuzzer target: the GUI's settings file (settings.ini) as the GUI reads it at start-up.
// load_settings never throws; whatever the file holds, the values must be usable: a UI scale of
// 0 (unset) or within [0.5, 4], at most max_recent non-empty recent paths. Then the settings must
// survive a save and a load unchanged (what the GUI writes as they change).

#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gui/settings_store.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

std::string make_config_home() {
  // tmpfs where there is one: save_settings fsyncs, which on a disk would dominate the run.
  std::string dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm/fftscope-fuzz-settings-XXXXXX"
                                                     : "/tmp/fftscope-fuzz-settings-XXXXXX";
  check(::mkdtemp(dir.data()) != nullptr);
  ::setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
  return dir + "/fftscope";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string folder = make_config_home();
  static const bool made = [] {
    std::filesystem::create_directories(folder);
    return true;
  }();
  (void)made;
  {
    std::ofstream out(folder + "/settings.ini", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const fftscope::gui::StoredSettings s = fftscope::gui::load_settings();
  check(s.ui_scale == 0 || (s.ui_scale >= 0.5f && s.ui_scale <= 4.0f));
  check(s.recent_files.size() <= fftscope::gui::StoredSettings::max_recent);
  for (const auto& r : s.recent_files) check(!r.empty());

  fftscope::gui::save_settings(s);
  const fftscope::gui::StoredSettings again = fftscope::gui::load_settings();
  check(again.recent_files == s.recent_files);
  check(again.light_theme == s.light_theme);
  check(std::fabs(again.ui_scale - s.ui_scale) <= 1e-5f * s.ui_scale);
  return 0;
}
