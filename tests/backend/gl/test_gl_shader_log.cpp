// Compile-log locations of every driver family map back to the file and its own line (no GL).
#include <gtest/gtest.h>

#include "backend/gl/gl_programs.h"

namespace fftscope {
namespace {

using detail::map_shader_log;

const std::vector<std::string> origins{"<prepended #defines>", "dir/radix_stage.comp", "dir/common.glsl"};

TEST(GlShaderLog, MesaLocations) {
  std::string first;
  const std::string out = map_shader_log(
      "0:100055(9): error: syntax error\n0:200012(3): error: `x' undeclared\n", origins, first);
  EXPECT_EQ(first, "dir/radix_stage.comp:55");
  EXPECT_EQ(out, "dir/radix_stage.comp:55(9): error: syntax error\ndir/common.glsl:12(3): error: `x' undeclared\n");
}

TEST(GlShaderLog, NvidiaLocations) {
  std::string first;
  const std::string out = map_shader_log("2(200007) : error C1008: undefined variable \"x\"\n", origins, first);
  EXPECT_EQ(first, "dir/common.glsl:7");
  EXPECT_EQ(out, "dir/common.glsl:7 : error C1008: undefined variable \"x\"\n");
}

TEST(GlShaderLog, AmdLocationsAndPreamble) {
  std::string first;
  const std::string out = map_shader_log("ERROR: 0:3: 'RADIX' : redefinition\nERROR: 1 compilation errors.", origins, first);
  EXPECT_EQ(first, "<prepended #defines>:3");
  EXPECT_EQ(out, "ERROR: <prepended #defines>:3: 'RADIX' : redefinition\nERROR: 1 compilation errors.");
}

TEST(GlShaderLog, NoLocationLeavesLogAlone) {
  std::string first;
  EXPECT_EQ(map_shader_log("link failed: too many uniforms", origins, first), "link failed: too many uniforms");
  EXPECT_TRUE(first.empty());
}

}  // namespace
}  // namespace fftscope
