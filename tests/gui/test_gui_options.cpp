// The visualizer's command line and its settings store.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "core/errors.h"
#include "gui/options.h"
#include "gui/settings_store.h"

namespace fftscope::gui {
namespace {

TEST(GuiOptions, ParsesTestMode) {
  const GuiOptions o = parse_gui_options({"img.png", "--backend", "cpu", "--screenshot", "out.png", "--frames", "5",
                                          "--panel", "digit-reverse", "--stage", "2", "--colormap", "viridis",
                                          "--size-rule", "pow2", "--window", "hann", "--window-size", "800x600"});
  EXPECT_EQ(o.image, "img.png");
  ASSERT_TRUE(o.backend.has_value());
  EXPECT_EQ(*o.backend, BackendKind::cpu);
  EXPECT_EQ(o.screenshot, "out.png");
  EXPECT_EQ(o.frames, 5);
  EXPECT_EQ(o.panel, Panel::digit_reverse);
  EXPECT_EQ(o.stage, 2);
  EXPECT_EQ(o.spectrum.colormap, Colormap::viridis);
  EXPECT_EQ(o.preprocess.size_rule, SizeRule::power_of_two);
  EXPECT_EQ(o.preprocess.window, WindowKind::hann);
  EXPECT_EQ(o.width, 800);
  EXPECT_EQ(o.height, 600);
  EXPECT_FALSE(o.measure_fast_plans);
  EXPECT_TRUE(parse_gui_options({"--variant", "fast", "--planning", "measure"}).measure_fast_plans);
  EXPECT_FALSE(parse_gui_options({"--planning", "estimate"}).measure_fast_plans);
}

TEST(GuiOptions, RejectsBadArguments) {
  EXPECT_THROW(parse_gui_options({"--frames"}), UsageError);
  EXPECT_THROW(parse_gui_options({"--frames", "0"}), UsageError);
  EXPECT_THROW(parse_gui_options({"--frames", "3x"}), UsageError);
  EXPECT_THROW(parse_gui_options({"--panel", "nope"}), UsageError);
  EXPECT_THROW(parse_gui_options({"--backend", "vulkan"}), UsageError);
  EXPECT_THROW(parse_gui_options({"--bogus"}), UsageError);
  EXPECT_THROW(parse_gui_options({"a.png", "b.png"}), UsageError);
  EXPECT_THROW(parse_gui_options({"--window-size", "800"}), UsageError);
  EXPECT_THROW(parse_gui_options({"--planning", "patient"}), UsageError);
}

TEST(GuiOptions, PanelNamesRoundTrip) {
  for (Panel p : all_panels) EXPECT_EQ(parse_panel(to_string(p)), p);
}

TEST(SettingsStore, RoundTripsUnderXdgConfigHome) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "fftscope_test_xdg";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(setenv("XDG_CONFIG_HOME", dir.c_str(), 1), 0);
  EXPECT_EQ(config_dir(), (dir / "fftscope").string());
  StoredSettings s = load_settings();  // nothing there yet: defaults
  EXPECT_TRUE(s.recent_files.empty());
  for (int i = 0; i < 12; ++i) add_recent(s, "/tmp/img" + std::to_string(i) + ".png");
  add_recent(s, "/tmp/img5.png");  // moves to the front, no duplicate
  s.ui_scale = 1.5f;
  s.light_theme = true;
  save_settings(s);
  const StoredSettings r = load_settings();
  ASSERT_EQ(r.recent_files.size(), StoredSettings::max_recent);
  EXPECT_EQ(r.recent_files[0], "/tmp/img5.png");
  EXPECT_EQ(r.recent_files[1], "/tmp/img11.png");
  EXPECT_FLOAT_EQ(r.ui_scale, 1.5f);
  EXPECT_TRUE(r.light_theme);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fftscope::gui
