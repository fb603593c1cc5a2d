// fast_probe_gl: times the OpenGL fast path per axis (GL_TIME_ELAPSED queries, median of many
// runs after warm-up) in a headless EGL context, and checks the forward result against FFTW
// (double). A measurement tool, not a test:  fast_probe_gl [--runs N] WxH...
#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "backend/gl/gl_context.h"
#include "backend/gl/gl_fast_path.h"
#include "core/timing.h"
#include "support/reference.h"

using namespace fftscope;
using namespace fftscope::detail;

int main(int argc, char** argv) {
  int runs = 50;
  std::vector<std::pair<std::size_t, std::size_t>> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else {
      std::size_t w = 0, h = 0;
      if (std::sscanf(a.c_str(), "%zux%zu", &w, &h) == 2) sizes.emplace_back(w, h);
    }
  }
  if (sizes.empty()) sizes = {{4096, 4096}};
  try {
    auto context = EglContext::create();
    context->make_current();
    std::printf("GL: %s (%s)\n", current_gl_description().c_str(), context->platform().c_str());
    const char* dir = std::getenv("FFTSCOPE_SHADER_DIR");
    ProgramCache programs(SourceFiles({}, dir ? dir : FFTSCOPE_TEST_SOURCE_DIR "/shaders"), "#version 430 core");
    DispatchTimers timers(DispatchTimers::Mode::gpu);
    std::printf("%-11s %10s %10s %10s %9s %9s %11s\n", "size", "rows_us", "cols_us", "total_us", "rows_GB/s",
                "cols_GB/s", "rel_l2_err");
    for (auto [w, h] : sizes) {
      GlFastPath fast_path(programs, &timers);
      if (!fast_path.supports(w, h)) {
        std::printf("%zux%zu: not supported\n", w, h);
        continue;
      }
      fast_path.prepare(w, h);
      std::printf("plan: %s\nplan: %s\n", fast_path.plan(Axis::rows).describe().c_str(),
                  fast_path.plan(Axis::cols).describe().c_str());
      // FFTSCOPE_GL_DUMP=dir: write each program's binary (NVIDIA's holds its assembly text).
      if (const char* dump = std::getenv("FFTSCOPE_GL_DUMP")) {
        for (Axis axis : {Axis::rows, Axis::cols}) {
          const GLuint id = fast_path.program_id(axis);
          GLint length = 0;
          glGetProgramiv(id, GL_PROGRAM_BINARY_LENGTH, &length);
          std::vector<char> binary(static_cast<std::size_t>(std::max(length, 0)));
          GLenum format = 0;
          if (length > 0) glGetProgramBinary(id, length, nullptr, &format, binary.data());
          const std::string path = std::string(dump) + "/" + to_string(axis) + "_" + std::to_string(w) + "x" +
                                   std::to_string(h) + ".bin";
          if (FILE* f = std::fopen(path.c_str(), "wb")) {
            std::fwrite(binary.data(), 1, binary.size(), f);
            std::fclose(f);
          }
        }
      }
      const auto input = test::random_complex(w * h, w + 7 * h);
      std::vector<Complex> data = test::to_float(input);
      const auto bytes = static_cast<GLsizeiptr>(data.size() * sizeof(Complex));
      GLuint buffer = 0;
      glGenBuffers(1, &buffer);
      glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
      glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, data.data(), GL_DYNAMIC_COPY);
      fast_path.dispatch(buffer, Direction::forward);
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
      glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
      glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, bytes, data.data());
      const double error = test::relative_l2_error(data, test::fftw_2d(input, w, h, Direction::forward));
      // Warm-up by time, not count: the GPU's clocks ramp up over a fraction of a second, and
      // a short warm-up on an idle GPU measured up to 1.7x slower.
      {
        GlFastPath untimed(programs, nullptr);
        untimed.prepare(w, h);
        const auto start = std::chrono::steady_clock::now();
        while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1000)) {
          untimed.dispatch(buffer, Direction::forward);
          untimed.dispatch(buffer, Direction::inverse);
          glFinish();
        }
      }
      timers.take();
      std::vector<double> rows_ms, cols_ms, total_ms;
      for (int r = 0; r < runs + 20; ++r) {
        fast_path.dispatch(buffer, Direction::forward);
        fast_path.dispatch(buffer, Direction::inverse);  // keeps the values bounded
      }
      glFinish();
      std::vector<TimingRecord> records = timers.take();
      for (int tries = 0; tries < 100 && records.size() < static_cast<std::size_t>(4 * (runs + 20)); ++tries) {
        glFinish();
        auto more = timers.take();
        records.insert(records.end(), more.begin(), more.end());
      }
      // Forward dispatches only (every other pair), after the warm-up.
      for (std::size_t i = 0; i + 1 < records.size(); i += 4) {
        if (i / 4 < 20) continue;
        rows_ms.push_back(records[i].milliseconds);
        cols_ms.push_back(records[i + 1].milliseconds);
        total_ms.push_back(records[i].milliseconds + records[i + 1].milliseconds);
      }
      // Host clock around many transforms (no queries), as a check on the GL timer: the
      // average of forward and inverse, dispatch overhead included.
      GlFastPath untimed(programs, nullptr);
      untimed.prepare(w, h);
      glFinish();
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < runs; ++r) {
        untimed.dispatch(buffer, Direction::forward);
        untimed.dispatch(buffer, Direction::inverse);
      }
      glFinish();
      const double wall_us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / (2.0 * runs);
      glDeleteBuffers(1, &buffer);
      const double b = 2.0 * static_cast<double>(w * h * sizeof(Complex));
      const double rm = median(rows_ms), cm = median(cols_ms);
      std::printf("%-11s %10.1f %10.1f %10.1f %9.0f %9.0f %11.2e  wall %.1f us/transform%s\n",
                  (std::to_string(w) + "x" + std::to_string(h)).c_str(), rm * 1e3, cm * 1e3, median(total_ms) * 1e3,
                  b / (rm * 1e6), b / (cm * 1e6), error, wall_us,
                  records.empty() || records[0].host_measured ? " (host-timed)" : "");
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fast_probe_gl: %s\n", e.what());
    return 1;
  }
  return 0;
}
