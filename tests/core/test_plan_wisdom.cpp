// Measured planning's wisdom: choices survive a reload from the file, keys tell devices, sizes
// and candidate lists apart, lines that do not parse are ignored, and a file that cannot be
// written leaves the choices in memory without an error (a cache).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "core/plan_wisdom.h"

namespace fftscope {
namespace {

namespace fs = std::filesystem;

fs::path fresh_folder(const char* name) {
  const fs::path dir = fs::temp_directory_path() / (std::string("fftscope_wisdom_") + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

TEST(PlanWisdom, ChoicesSurviveAReloadAndKeysTellCandidatesApart) {
  const fs::path dir = fresh_folder("reload");
  const std::string path = (dir / "sub" / "plans.tsv").string();  // the folders are made
  const std::string a = PlanWisdom::key("cl: GPU A", "rows 4096x4096", "route 1\nroute 2\n");
  const std::string b = PlanWisdom::key("cl: GPU A", "cols 4096x4096", "route 1\nroute 2\n");
  const std::string other_list = PlanWisdom::key("cl: GPU A", "rows 4096x4096", "route 1\nroute 3\n");
  const std::string other_device = PlanWisdom::key("cl: GPU B", "rows 4096x4096", "route 1\nroute 2\n");
  EXPECT_NE(a, b);
  EXPECT_NE(a, other_list);
  EXPECT_NE(a, other_device);
  EXPECT_EQ(a, PlanWisdom::key("cl: GPU A", "rows 4096x4096", "route 1\nroute 2\n"));
  // A device name with a tab or newline cannot break the one-line format.
  EXPECT_EQ(PlanWisdom::key("x\ty\nz", "w", "").find_first_of("\t\n"), std::string::npos);
  {
    PlanWisdom wisdom(path);
    EXPECT_FALSE(wisdom.find(a).has_value());
    wisdom.remember(a, 2);
    wisdom.remember(b, 0);
    wisdom.remember(a, 1);  // measured again: the later choice stands
    EXPECT_EQ(wisdom.find(a), 1u);
  }
  PlanWisdom reloaded(path);
  EXPECT_EQ(reloaded.find(a), 1u);
  EXPECT_EQ(reloaded.find(b), 0u);
  EXPECT_FALSE(reloaded.find(other_list).has_value());
  EXPECT_EQ(reloaded.hits(), 2u);
  // No temporary left beside the file.
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir / "sub")) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
  fs::remove_all(dir);
}

TEST(PlanWisdom, LinesThatDoNotParseAreIgnored) {
  const fs::path dir = fresh_folder("junk");
  fs::create_directories(dir);
  const std::string path = (dir / "plans.tsv").string();
  std::ofstream(path) << "no tab here\n\t3\nkey\t\nkey\tx7\nkey\t99999999999\ngood key\t4\n";
  PlanWisdom wisdom(path);
  EXPECT_EQ(wisdom.find("good key"), 4u);
  EXPECT_FALSE(wisdom.find("key").has_value());
  EXPECT_FALSE(wisdom.find("").has_value());
  fs::remove_all(dir);
}

TEST(PlanWisdom, AnUnwritableFileKeepsTheChoicesInMemory) {
  const fs::path dir = fresh_folder("unwritable");
  fs::create_directories(dir / "plans.tsv");  // a folder where the file should be
  PlanWisdom wisdom((dir / "plans.tsv").string());
  EXPECT_NO_THROW(wisdom.remember("k", 3));
  EXPECT_EQ(wisdom.find("k"), 3u);
  PlanWisdom memory_only;
  memory_only.remember("k", 1);
  EXPECT_EQ(memory_only.find("k"), 1u);
  fs::remove_all(dir);
}

TEST(PlanWisdom, DefaultPathFollowsTheEnvironment) {
  const char* saved = std::getenv("FFTSCOPE_PLAN_CACHE");
  const std::string keep = saved ? saved : "";
  ::setenv("FFTSCOPE_PLAN_CACHE", "/tmp/x/plans.tsv", 1);
  EXPECT_EQ(PlanWisdom::default_path(), "/tmp/x/plans.tsv");
  ::setenv("FFTSCOPE_PLAN_CACHE", "", 1);
  EXPECT_EQ(PlanWisdom::default_path(), "");  // set but empty: memory only
  ::unsetenv("FFTSCOPE_PLAN_CACHE");
  ::setenv("XDG_CACHE_HOME", "/tmp/cache", 1);
  EXPECT_EQ(PlanWisdom::default_path(), "/tmp/cache/fftscope/plans.tsv");
  ::unsetenv("XDG_CACHE_HOME");
  if (saved) ::setenv("FFTSCOPE_PLAN_CACHE", keep.c_str(), 1);
}

}  // namespace
}  // namespace fftscope
