#include "backend/gl/gl_fast_path.h"

#include <glad/gl.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/errors.h"

namespace fftscope::detail {
namespace {

std::optional<fast::AxisPlan> plan_for(Axis axis, std::size_t n, std::size_t lines, const fast::DeviceLimits& limits,
                                       const fast::Tuning& tuning) {
  if (n == 0 || lines == 0 || n > (1u << 30) || lines > (1u << 30)) return std::nullopt;
  return fast::plan_axis(axis, static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(lines), limits, tuning);
}

unsigned make_table(std::uint32_t n) {
  const std::vector<Complex> table = fast::twiddle_table(n);
  GLuint id = 0;
  glGenBuffers(1, &id);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(table.size() * sizeof(Complex)), table.data(),
               GL_STATIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return id;
}

}  // namespace

fast::DeviceLimits fast_limits() {
  GLint shared = 0, invocations = 0, size_x = 0;
  glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared);
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
  glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &size_x);
  fast::DeviceLimits limits;
  limits.local_bytes = static_cast<std::uint64_t>(std::max(shared, 0));
  limits.max_threads = static_cast<std::uint32_t>(std::max(0, std::min(invocations, size_x)));
  if (GLAD_GL_NV_shader_thread_group) {
    constexpr GLenum sm_count_nv = 0x933B;  // GL_SM_COUNT_NV
    GLint sms = 0;
    glGetIntegerv(sm_count_nv, &sms);
    if (glGetError() == GL_NO_ERROR && sms > 0) limits.compute_units = static_cast<std::uint32_t>(sms);
  }
  return limits;
}

GlFastPath::GlFastPath(ProgramCache& programs, DispatchTimers* timers, fast::Tuning tuning)
    : programs_(programs), timers_(timers), tuning_(tuning), limits_(fast_limits()) {}

GlFastPath::~GlFastPath() { release_tables(); }

void GlFastPath::release_tables() {
  if (row_twiddles_) glDeleteBuffers(1, &row_twiddles_);
  if (col_twiddles_) glDeleteBuffers(1, &col_twiddles_);
  row_twiddles_ = col_twiddles_ = 0;
}

bool GlFastPath::supports(std::size_t width, std::size_t height) const {
  if (width * height >= (std::size_t{1} << 31)) return false;  // 32-bit indices in the shader
  // GL guarantees 65535 groups per dimension; the shader flattens x and y.
  const auto rows = plan_for(Axis::rows, width, height, limits_, tuning_);
  const auto cols = plan_for(Axis::cols, height, width, limits_, tuning_);
  if (!rows || !cols) return false;
  const std::uint64_t most = std::max(rows->groups(height), cols->groups(width));
  return most <= std::uint64_t{65535} * 65535;
}

ProgramKey GlFastPath::key(const fast::AxisPlan& plan) const {
  ProgramKey k;
  k.shader = "fast_fft.comp";
  for (const auto& [name, value] : plan.defines()) k.defines[name] = value;
  k.local_x = plan.threads;
  k.local_y = 1;
  return k;
}

void GlFastPath::prepare(std::size_t width, std::size_t height) {
  if (rows_ && cols_ && width == width_ && height == height_) return;
  release_tables();
  rows_.reset();
  cols_.reset();
  if (!supports(width, height))
    throw BackendError("OpenGL fast path: " + std::to_string(width) + "x" + std::to_string(height) +
                       " is not supported (a prime factor above 13, or no layout fits shared memory)");
  auto rows = plan_for(Axis::rows, width, height, limits_, tuning_);
  auto cols = plan_for(Axis::cols, height, width, limits_, tuning_);
  // Compile now, so a shader error surfaces here rather than in the first dispatch.
  if (!rows->radices.empty()) programs_.get(key(*rows));
  if (!cols->radices.empty()) programs_.get(key(*cols));
  row_twiddles_ = make_table(rows->n);
  col_twiddles_ = make_table(cols->n);
  rows_ = rows;
  cols_ = cols;
  width_ = width;
  height_ = height;
}

void GlFastPath::dispatch_axis(const fast::AxisPlan& p, unsigned twiddles, unsigned buffer, Direction direction) {
  if (p.radices.empty()) return;  // length 1: nothing to do
  Program& program = programs_.get(key(p));
  glUseProgram(program.id);
  const auto lines = static_cast<GLuint>(p.axis == Axis::rows ? height_ : width_);
  glUniform1ui(program.location("u_lines"), lines);
  glUniform1ui(program.location("u_row_pitch"), static_cast<GLuint>(width_));
  glUniform1f(program.location("u_conj_sign"), direction == Direction::forward ? 1.0f : -1.0f);
  glUniform1f(program.location("u_scale"), direction == Direction::forward ? 1.0f : static_cast<float>(1.0 / p.n));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, twiddles);

  const std::uint64_t groups = p.groups(lines);
  const auto gx = static_cast<GLuint>(std::min<std::uint64_t>(groups, 65535));
  const auto gy = static_cast<GLuint>((groups + gx - 1) / gx);
  TimingRecord record;
  record.kernel = p.axis == Axis::rows ? "fast_rows" : "fast_cols";
  record.axis = p.axis;
  record.stage = -1;
  record.radix = 0;
  record.global_size = {gx * p.threads, gy, 1};
  record.bytes = std::uint64_t{width_} * height_ * sizeof(Complex) * 2;
  record.note = p.describe();
  if (timers_) timers_->begin(std::move(record));
  glDispatchCompute(gx, gy, 1);
  if (timers_) timers_->end();
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlFastPath::dispatch(unsigned buffer, Direction direction) {
  if (!rows_ || !cols_) throw BackendError("OpenGL fast path: dispatch() before prepare()");
  dispatch_axis(*rows_, row_twiddles_, buffer, direction);
  dispatch_axis(*cols_, col_twiddles_, buffer, direction);
}

}  // namespace fftscope::detail
