#pragma once
// A private copy of the project's shaders/ folder, for tests that break, remove or edit a shader
// and load the rest from disk (ProgramCache's shader folder). Needs FFTSCOPE_TEST_SOURCE_DIR.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace fftscope::test {

/// shaders/ of the source tree ($FFTSCOPE_SOURCE_DIR where set, as on the GPU machine).
inline std::filesystem::path shader_source_dir() {
  const char* root = std::getenv("FFTSCOPE_SOURCE_DIR");
  return std::filesystem::path(root ? root : FFTSCOPE_TEST_SOURCE_DIR) / "shaders";
}

/// shaders/ copied into a fresh temporary folder named by `tag`, without the file `except`.
inline std::filesystem::path copy_shaders(const std::string& tag, const std::string& except = "") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("fftscope_gl_shaders_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(shader_source_dir()))
    if (e.path().filename() != except) fs::copy_file(e.path(), dir / e.path().filename());
  return dir;
}

}  // namespace fftscope::test
