#include "backend/gl/gl_fast_path.h"

#include <glad/gl.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"

namespace fftscope::detail {
namespace {

std::uint64_t max_storage_block() {
  GLint64 bytes = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &bytes);
  return bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0;
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
    : programs_(programs), timers_(timers), tuning_(tuning), limits_(fast_limits()), max_block_(max_storage_block()) {}

GlFastPath::~GlFastPath() { release_tables(); }

void GlFastPath::release_tables() {
  for (Tables* t : {&row_tables_, &col_tables_})
    for (unsigned* id : {&t->twiddles, &t->chirp, &t->filter, &t->second_twiddles, &t->outer_twiddles}) {
      if (*id) glDeleteBuffers(1, id);
      *id = 0;
    }
  if (scratch_) glDeleteBuffers(1, &scratch_);
  scratch_ = 0;
  extra_bytes_ = 0;
}

unsigned GlFastPath::make_table(const std::vector<Complex>& table) {
  GLuint id = 0;
  glGenBuffers(1, &id);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(table.size() * sizeof(Complex)), table.data(),
               GL_STATIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  extra_bytes_ += table.size() * sizeof(Complex);
  return id;
}

std::optional<fast::ImageRoutes> GlFastPath::routes(std::size_t width, std::size_t height) const {
  auto routes = fast::route_image(width, height, limits_, tuning_);
  if (!routes) return std::nullopt;
  // GL guarantees 65535 groups per dimension; the shader flattens x and y.
  const std::uint64_t most = std::max(routes->rows.plan.groups(height), routes->cols.plan.groups(width));
  if (most > std::uint64_t{65535} * 65535) return std::nullopt;
  if (max_block_ != 0 && routes->scratch_elements() * sizeof(Complex) > max_block_) return std::nullopt;
  return routes;
}

bool GlFastPath::supports(std::size_t width, std::size_t height) const { return routes(width, height).has_value(); }

ProgramKey GlFastPath::key(const fast::AxisPlan& plan, const char* mode) const {
  ProgramKey k{"fast_fft.comp", {}, plan.threads, 1};
  for (const auto& [name, value] : plan.defines()) k.defines[name] = value;
  if (mode) k.defines.emplace(mode, "1");
  return k;
}

void GlFastPath::prepare(std::size_t width, std::size_t height) {
  if (rows_ && cols_ && width == width_ && height == height_) return;
  release_tables();
  rows_.reset();
  cols_.reset();
  width_ = height_ = 0;
  const auto image = routes(width, height);
  if (!image)
    throw BackendError("OpenGL fast path: " + std::to_string(width) + "x" + std::to_string(height) +
                       " is not supported (no layout fits shared memory, or over 32-bit indices or the largest "
                       "shader storage block)");
  const fast::AxisRoute* rows = &image->rows;
  const fast::AxisRoute* cols = &image->cols;
  // Compile now, so a shader error surfaces here rather than in the first dispatch.
  for (const fast::AxisRoute* route : {rows, cols}) {
    if (route->plan.radices.empty()) continue;
    if (route->four_step()) {
      programs_.get(key(route->plan, fast::four_step_a));
      programs_.get(key(*route->second, fast::four_step_b));
      continue;
    }
    if (!route->bluestein()) {
      programs_.get(key(route->plan));
      continue;
    }
    programs_.get(key(route->plan, fast::bluestein_in));
    programs_.get(key(route->plan, fast::bluestein_out));
  }
  const std::uint64_t scratch = image->scratch_elements();
  if (scratch > 0) {
    glGenBuffers(1, &scratch_);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, scratch_);
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(scratch * sizeof(Complex)), nullptr, GL_DYNAMIC_COPY);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    extra_bytes_ += scratch * sizeof(Complex);
  }
  for (auto [route, tables] : {std::pair{rows, &row_tables_}, std::pair{cols, &col_tables_}}) {
    tables->twiddles = make_table(fast::twiddle_table(route->plan.n));
    if (route->four_step()) {
      tables->second_twiddles = make_table(fast::twiddle_table(route->second->n));
      tables->outer_twiddles = make_table(fast::twiddle_table(route->n));
    }
    if (route->bluestein()) {
      const fast::BluesteinFloatTables bluestein = fast::bluestein_tables(route->n, route->l);
      tables->chirp = make_table(bluestein.chirp);
      tables->filter = make_table(bluestein.filter);
    }
  }
  rows_ = image->rows;
  cols_ = image->cols;
  width_ = width;
  height_ = height;
}

void GlFastPath::dispatch_fft(const fast::AxisRoute& route, const fast::AxisPass& pass, const Tables& tables,
                              unsigned image) {
  const fast::AxisPlan& p = fast::pass_plan(route, pass);
  const bool four_step = route.four_step();
  Program& program = programs_.get(key(p, pass.mode));
  glUseProgram(program.id);
  const auto lines = static_cast<GLuint>(pass.lines);
  glUniform1ui(program.location("u_lines"), lines);
  glUniform1ui(program.location("u_row_pitch"), pass.in_pitch);
  glUniform1f(program.location("u_conj_sign"), pass.conj_sign);
  glUniform1f(program.location("u_scale"), pass.scale);
  // Binding 0: the buffer the pass works on; the other one (if its mode has one) beside it.
  const unsigned data = pass.on_scratch ? scratch_ : image, other = pass.on_scratch ? image : scratch_;
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, data);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, pass.second && four_step ? tables.second_twiddles : tables.twiddles);
  if (four_step) {
    glUniform1ui(program.location("u_out_pitch"), pass.out_pitch);
    glUniform1ui(program.location("u_block_lines"), pass.block_lines);
    glUniform1ui(program.location("u_block_shift"), pass.block_shift);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, other);
    if (!pass.second) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, tables.outer_twiddles);
  } else if (route.bluestein()) {
    glUniform1ui(program.location("u_bluestein_n"), route.n);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, other);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, tables.chirp);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, tables.filter);
  }

  const std::uint64_t groups = p.groups(lines);
  const auto gx = static_cast<GLuint>(std::min<std::uint64_t>(groups, 65535));
  const auto gy = static_cast<GLuint>((groups + gx - 1) / gx);
  TimingRecord record;
  record.kernel = pass.name;
  record.axis = p.axis;
  record.stage = -1;
  record.radix = 0;
  record.global_size = {gx * p.threads, gy, 1};
  record.bytes = pass.bytes;
  record.note = route.describe();
  if (timers_) timers_->begin(std::move(record));
  glDispatchCompute(gx, gy, 1);
  if (timers_) timers_->end();
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlFastPath::dispatch_axis(const fast::AxisRoute& route, const Tables& tables, unsigned buffer,
                               Direction direction) {
  if (route.plan.radices.empty()) return;  // length 1: nothing to do
  const std::uint64_t lines = route.plan.axis == Axis::rows ? height_ : width_;
  for (const fast::AxisPass& pass : fast::axis_passes(route, lines, direction)) dispatch_fft(route, pass, tables, buffer);
}

void GlFastPath::dispatch(unsigned buffer, Direction direction) {
  if (!rows_ || !cols_) throw BackendError("OpenGL fast path: dispatch() before prepare()");
  dispatch_axis(*rows_, row_tables_, buffer, direction);
  dispatch_axis(*cols_, col_tables_, buffer, direction);
}

}  // namespace fftscope::detail
