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

namespace {

// The image buffer: glBufferData(GL_DYNAMIC_COPY) as the backend does, or, with
// FFTSCOPE_GL_BUFFER=storage, immutable storage (where the driver places it is then its choice
// for a buffer the host never maps).
GLuint make_buffer(GLsizeiptr bytes, const void* data) {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const char* kind = std::getenv("FFTSCOPE_GL_BUFFER");
  if (kind && std::string(kind) == "storage")
    glBufferStorage(GL_SHADER_STORAGE_BUFFER, bytes, data, GL_DYNAMIC_STORAGE_BIT);
  else
    glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, data, GL_DYNAMIC_COPY);
  return buffer;
}

// What a plain compute copy reaches in this context (one vec2 or vec4 per invocation), and
// glCopyBufferSubData: the GL side's own copy bandwidth, to compare with OpenCL's.
void measure_copy(GLsizeiptr bytes, int runs) {
  const GLuint src = make_buffer(bytes, nullptr), dst = make_buffer(bytes, nullptr);
  GLuint query = 0;
  glGenQueries(1, &query);
  auto timed = [&](auto&& work) {
    for (int i = 0; i < 20; ++i) work();
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
      glBeginQuery(GL_TIME_ELAPSED, query);
      work();
      glEndQuery(GL_TIME_ELAPSED);
      GLuint64 ns = 0;
      glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
      ms.push_back(static_cast<double>(ns) * 1e-6);
    }
    return median(ms);
  };
  for (const char* type : {"vec2", "vec4"}) {
    const std::string text = std::string("#version 430 core\nlayout(local_size_x = 256) in;\n") +
                             "layout(std430, binding = 0) readonly buffer S { " + type + " s[]; };\n" +
                             "layout(std430, binding = 1) writeonly buffer D { " + type + " d[]; };\n" +
                             "void main() { uint i = gl_GlobalInvocationID.y * 65535u * 256u + gl_GlobalInvocationID.x;"
                             " if (i < uint(s.length())) d[i] = s[i]; }\n";
    const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    const char* src_text = text.c_str();
    glShaderSource(shader, 1, &src_text, nullptr);
    glCompileShader(shader);
    const GLuint program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    const auto elems = static_cast<GLuint>(bytes / (type[3] == '2' ? 8 : 16));
    const GLuint groups = (elems + 255) / 256, gx = std::min<GLuint>(groups, 65535), gy = (groups + gx - 1) / gx;
    const double ms = timed([&] {
      glUseProgram(program);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, src);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, dst);
      glDispatchCompute(gx, gy, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    });
    std::printf("GL compute copy (%s) %lld MB: %.1f us, %.0f GB/s (read + write)\n", type,
                static_cast<long long>(bytes >> 20), ms * 1e3, 2.0 * static_cast<double>(bytes) / (ms * 1e6));
    glDeleteProgram(program);
    glDeleteShader(shader);
  }
  const double ms = timed([&] {
    glBindBuffer(GL_COPY_READ_BUFFER, src);
    glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, bytes);
  });
  std::printf("glCopyBufferSubData %lld MB: %.1f us, %.0f GB/s (read + write)\n", static_cast<long long>(bytes >> 20),
              ms * 1e3, 2.0 * static_cast<double>(bytes) / (ms * 1e6));
  glDeleteQueries(1, &query);
  glDeleteBuffers(1, &src);
  glDeleteBuffers(1, &dst);
}

}  // namespace

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
    if (std::getenv("FFTSCOPE_GL_COPY")) measure_copy(GLsizeiptr{128} << 20, runs);
    std::printf("%-11s %10s %10s %10s %9s %9s %11s\n", "size", "rows_us", "cols_us", "total_us", "rows_GB/s",
                "cols_GB/s", "rel_l2_err");
    for (auto [w, h] : sizes) {
      GlFastPath fast_path(programs, &timers);
      if (!fast_path.supports(w, h)) {
        std::printf("%zux%zu: not supported\n", w, h);
        continue;
      }
      fast_path.prepare(w, h);
      std::printf("plan: %s\nplan: %s\n", fast_path.route(Axis::rows).describe().c_str(),
                  fast_path.route(Axis::cols).describe().c_str());
      // Timed dispatches per transform: one per axis, two for a Bluestein axis, none for length 1.
      const auto passes = [&](Axis axis) -> std::size_t {
        const auto& route = fast_path.route(axis);
        return route.plan.radices.empty() ? 0 : route.bluestein() ? 2 : 1;
      };
      const std::size_t per = passes(Axis::rows) + passes(Axis::cols);
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
      const GLuint buffer = make_buffer(bytes, data.data());
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
      for (int tries = 0; tries < 100 && records.size() < 2 * per * static_cast<std::size_t>(runs + 20); ++tries) {
        glFinish();
        auto more = timers.take();
        records.insert(records.end(), more.begin(), more.end());
      }
      // Forward transforms only (every other one), after the warm-up; per axis, the sum of its
      // dispatches.
      for (std::size_t i = 0; per > 0 && i + per <= records.size(); i += 2 * per) {
        if (i / (2 * per) < 20) continue;
        double row_t = 0, col_t = 0;
        for (std::size_t j = i; j < i + per; ++j)
          (records[j].axis == Axis::rows ? row_t : col_t) += records[j].milliseconds;
        rows_ms.push_back(row_t);
        cols_ms.push_back(col_t);
        total_ms.push_back(row_t + col_t);
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
