// --shader-dir: shaders read from a folder are used, a broken one gives a BackendError naming
// the file and line with the driver's log, and fixing the file makes the next prepare work.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>


#include "gl_test_util.h"
#include "support/reference.h"
#include "support/shader_copy.h"

namespace fftscope {
namespace {

namespace fs = std::filesystem;

using test::copy_shaders;
using test::shader_source_dir;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Replaces the first occurrence of `from` in file p; returns the 1-based line it was on.
int replace_in_file(const fs::path& p, const std::string& from, const std::string& to) {
  std::string text = read(p);
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  text.replace(at, from.size(), to);
  // A later modification time than the copy's, even on coarse-grained file systems.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::ofstream(p, std::ios::trunc) << text;
  fs::last_write_time(p, fs::file_time_type::clock::now() + std::chrono::seconds(2));
  return line;
}

TEST(GlShaderDir, BrokenShaderGivesCleanErrorNamingFileAndLine) {
  const fs::path dir = copy_shaders("broken");
  const int line = replace_in_file(dir / "radix_stage.comp", "dft(c);", "dft(c) this is not glsl;");
  BackendOptions options;
  options.source_dir = dir.string();
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend, options);
  try {
    backend->prepare(make_plan_2d(16, 16), KernelVariant::fused);
    ADD_FAILURE() << "a broken shader compiled";
  } catch (const BackendError& e) {
    const std::string message = e.what();
    const std::string where = (dir / "radix_stage.comp").string() + ":" + std::to_string(line);
    EXPECT_EQ(message.rfind(where, 0), 0u) << "message should start with " << where << ":\n" << message;
    EXPECT_NE(message.find("RADIX"), std::string::npos) << message;  // the prepended defines
    std::printf("the error a student sees:\n%s\n", message.c_str());
  }
  fs::remove_all(dir);
}

TEST(GlShaderDir, ErrorInIncludedFileNamesThatFile) {
  const fs::path dir = copy_shaders("include");
  const int line = replace_in_file(dir / "common.glsl", "uint element_address(uint line, uint i) {",
                                   "uint element_address(uint line, uint i) { undefined_name;");
  BackendOptions options;
  options.source_dir = dir.string();
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend, options);
  try {
    backend->prepare(make_plan_2d(8, 8), KernelVariant::fused);
    ADD_FAILURE() << "a broken include compiled";
  } catch (const BackendError& e) {
    const std::string where = (dir / "common.glsl").string() + ":" + std::to_string(line);
    EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0u) << e.what();
  }
  fs::remove_all(dir);
}

TEST(GlShaderDir, EditedShaderIsRecompiled) {
  const fs::path dir = copy_shaders("edit");
  BackendOptions options;
  options.source_dir = dir.string();
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend, options);
  const Plan2D plan = make_plan_2d(8, 4);
  ComplexImage input(8, 4);
  input.data = test::to_float(test::random_complex(32, 4));
  const ComplexImage good = run_transform(*backend, plan, input, Direction::forward);
  const auto expected = test::fftw_2d(test::to_double(input.data), 8, 4, Direction::forward);
  ASSERT_LT(test::relative_l2_error(good.data, expected), test::float_fft_tolerance(32));

  // A student's edit: the radix kernels now store twice the result. The next execute must
  // pick it up without a new backend.
  replace_in_file(dir / "radix_stage.comp", "= u_scale * c[j];", "= 2.0 * u_scale * c[j];");
  backend->upload(input);
  backend->execute(Direction::forward);
  const ComplexImage edited = backend->download();
  EXPECT_GT(test::relative_l2_error(edited.data, expected), 0.5);

  // A broken edit: a clean BackendError from execute, and the backend stays usable.
  replace_in_file(dir / "radix_stage.comp", "dft(c);", "dft(c) );");
  EXPECT_THROW(backend->execute(Direction::forward), BackendError);
  std::ofstream(dir / "radix_stage.comp", std::ios::trunc) << read(shader_source_dir() / "radix_stage.comp");
  fs::last_write_time(dir / "radix_stage.comp", fs::file_time_type::clock::now() + std::chrono::seconds(4));
  const ComplexImage fixed = run_transform(*backend, plan, input, Direction::forward);
  EXPECT_LT(test::relative_l2_error(fixed.data, expected), test::float_fft_tolerance(32));
  fs::remove_all(dir);
}

TEST(GlShaderDir, MissingShaderFileIsABackendError) {
  const fs::path dir = copy_shaders("missing");
  fs::remove(dir / "twiddle.comp");
  BackendOptions options;
  options.source_dir = dir.string();
  FFTSCOPE_GL_BACKEND_OR_SKIP(backend, options);
  try {
    backend->prepare(make_plan_2d(16, 16), KernelVariant::plain);
    ADD_FAILURE() << "prepare without twiddle.comp succeeded";
  } catch (const BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("twiddle.comp"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fftscope
