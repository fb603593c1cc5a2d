#include "backend/gl/gl_fast_path.h"

#include <glad/gl.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "core/plan_wisdom.h"

namespace fftscope::detail {

std::uint64_t max_storage_block() {
  GLint64 bytes = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &bytes);
  return bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0;
}

void bind_data_texture(unsigned texture) {
  // fast_fft.comp's layout(binding = 15): GL 4.3 guarantees compute shaders 16 texture units.
  constexpr GLuint data_texture_unit = 15;
  glActiveTexture(GL_TEXTURE0 + data_texture_unit);
  glBindTexture(GL_TEXTURE_BUFFER, texture);
  glActiveTexture(GL_TEXTURE0);
}

void BufferTexture::attach(unsigned buffer) {
  reset();
  // GL 4.3 calls (the backend runs on 4.3 contexts too): no direct state access.
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_BUFFER, texture);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RG32F, buffer);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  id_ = texture;
}

void BufferTexture::reset() {
  if (id_ != 0) glDeleteTextures(1, &id_);
  id_ = 0;
}

std::uint64_t max_texture_buffer_texels() {
  GLint64 texels = 0;
  glGetInteger64v(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
  return texels > 0 ? static_cast<std::uint64_t>(texels) : 0;
}

namespace {

/// Whether a pass may read its data through the texture (fast_fft.comp's TEX_INPUT, whose
/// #error says the same): a direct or four-step pass (not Bluestein nor row pairs) that reads
/// the image or the output, not the scratch, none of whose invocations reads what its own
/// dispatch stored.
bool texture_input_pass(const fast::AxisPass& pass, const ProgramKey& key) {
  const bool mode_ok = !pass.mode || pass.mode == fast::output_buffer || pass.mode == fast::four_step_a ||
                       pass.mode == fast::four_step_b;
  if (!mode_ok || pass.on_scratch) return false;
  for (const char* name : {"SPLIT_GLOBAL", "TILE_IN", "TILE_OUT", "ROW_PAIRS", "R2C_SPLIT", "DISPLAY_ROWS",
                           "UNPACK_PAIRS"}) {
    const auto it = key.defines.find(name);
    if (it != key.defines.end() && it->second != "0") return false;
  }
  return true;
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

namespace {
/// `v` as a GLSL float literal that reads back as the same float (the shortest such digits).
std::string glsl_float(float v) {
  char digits[64];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  std::string text(digits, end);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";  // "1" would be an int
  return "(" + text + ")";
}
}  // namespace

ProgramKey fast_program_key(const fast::AxisPlan& plan, const char* mode,
                            const std::vector<std::pair<std::string, std::string>>& defines, float conj_sign,
                            float scale) {
  ProgramKey k{"fast_fft.comp", {}, plan.threads, 1};
  for (const auto& [name, value] : plan.defines()) k.defines[name] = value;
  if (mode) k.defines.emplace(mode, "1");
  for (const auto& [name, value] : defines) k.defines[name] = value;
  k.defines["CONJ_SIGN"] = glsl_float(conj_sign);
  k.defines["OUT_SCALE"] = glsl_float(scale);
  return k;
}

GlFastAxis::GlFastAxis(ProgramCache& programs, DispatchTimers* timers, const fast::AxisRoute& route,
                       std::uint64_t lines, fast::PassLayout layout, std::string name, bool texture_inputs)
    : programs_(&programs), timers_(timers), route_(route), layout_(layout) {
  if (layout_ == fast::PassLayout::both_axes)
    throw std::logic_error("GlFastAxis: GL runs each axis in its own dispatch (fast::gl_default_tuning)");
  if (route_.plan.radices.empty()) return;  // length 1: nothing to do
  forward_passes_ = fast::layout_passes(route_, lines, Direction::forward, layout_, name);
  inverse_passes_ = fast::layout_passes(route_, lines, Direction::inverse, layout_, std::move(name));
  description_ = route_.describe();
  const auto key = [&](const fast::AxisPass& pass) {
    return fast_program_key(fast::pass_plan(route_, pass), pass.mode, pass.defines, pass.conj_sign, pass.scale);
  };
  for (const fast::AxisPass& pass : forward_passes_) forward_keys_.push_back(key(pass));
  for (const fast::AxisPass& pass : inverse_passes_) inverse_keys_.push_back(key(pass));
  // Texture inputs for the whole axis or not at all (a direct route has one pass a direction).
  reads_by_texture_ = texture_inputs;
  for (std::size_t i = 0; i < forward_passes_.size(); ++i)
    reads_by_texture_ = reads_by_texture_ && texture_input_pass(forward_passes_[i], forward_keys_[i]);
  if (reads_by_texture_)
    for (auto* keys : {&forward_keys_, &inverse_keys_})
      for (ProgramKey& k : *keys) k.defines["TEX_INPUT"] = "1";
  // The forward programs compile now, so a shader error surfaces here rather than in the first
  // dispatch; the inverse ones (the same source and modes, other constants) at their first use.
  for (const ProgramKey& k : forward_keys_) programs_->get(k);
  twiddles_ = make_table(fast::twiddle_table(route_.plan.n));
  if (route_.four_step()) {
    second_twiddles_ = make_table(fast::twiddle_table(route_.second->n));
    outer_twiddles_ = make_table(fast::twiddle_table(route_.n));
  }
  if (route_.bluestein()) {
    const fast::BluesteinFloatTables bluestein = fast::bluestein_tables(route_.n, route_.l);
    chirp_ = make_table(bluestein.chirp);
    filter_ = make_table(bluestein.filter);
  }
  if (route_.fold != 0 && route_.plan.axis == Axis::rows) {
    std::vector<Complex> w = fast::twiddle_table(route_.fold);
    w.resize(route_.fold / 2);  // w_H^n for the rows n < H/2 that form the differences
    fold_twiddles_ = make_table(w);
  }
  if (route_.swap && route_.plan.axis == Axis::rows) {
    const std::vector<std::uint32_t> pairs = route_.swap->pairs();
    table_bytes_ += pairs.size() * sizeof(std::uint32_t);
    row_pairs_ = make_storage_buffer(pairs.size() * sizeof(std::uint32_t), pairs.data(), GL_STATIC_DRAW);
  }
}

GlFastAxis::~GlFastAxis() {
  for (unsigned* id : {&twiddles_, &chirp_, &filter_, &second_twiddles_, &outer_twiddles_, &row_pairs_, &fold_twiddles_})
    if (*id) glDeleteBuffers(1, id);
}

void dispatch_fast_groups(DispatchTimers* timers, Axis axis, std::uint32_t threads, std::uint64_t groups,
                          const std::string& name, std::uint64_t bytes, const std::string& note,
                          unsigned barriers) {
  const auto gx = static_cast<GLuint>(std::min<std::uint64_t>(groups, 65535));
  const auto gy = static_cast<GLuint>((groups + gx - 1) / gx);
  const bool timed = timers && timers->enabled();
  if (timed) {
    TimingRecord record;
    record.kernel = name;
    record.axis = axis;
    record.stage = -1;
    record.radix = 0;
    record.global_size = {gx * threads, gy, 1};
    record.bytes = bytes;
    record.note = note;
    timers->begin(std::move(record));
  }
  glDispatchCompute(gx, gy, 1);
  if (timed) timers->end();
  glMemoryBarrier(barriers);
}

unsigned make_storage_buffer(std::size_t bytes, const void* data, unsigned usage) {
  GLuint id = 0;
  glGenBuffers(1, &id);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(bytes), data, usage);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return id;
}

unsigned GlFastAxis::make_table(const std::vector<Complex>& table) {
  table_bytes_ += table.size() * sizeof(Complex);
  return make_storage_buffer(table.size() * sizeof(Complex), table.data(), GL_STATIC_DRAW);
}

unsigned GlFastAxis::program_id() const { return forward_keys_.empty() ? 0 : programs_->get(forward_keys_.front()).id; }

unsigned GlFastAxis::read_barrier() const {
  return reads_by_texture_ ? GL_TEXTURE_FETCH_BARRIER_BIT : GL_SHADER_STORAGE_BARRIER_BIT;
}

void GlFastAxis::dispatch_pass(const fast::AxisPass& pass, const ProgramKey& key, unsigned data, unsigned image,
                               unsigned output, unsigned data_texture, unsigned barriers) const {
  const fast::AxisPlan& p = fast::pass_plan(route_, pass);
  const bool four_step = route_.four_step();
  Program& program = programs_->get(key);
  glUseProgram(program.id);
  const auto lines = static_cast<GLuint>(pass.lines);
  glUniform1ui(program.location("u_lines"), lines);
  glUniform1ui(program.location("u_row_pitch"), pass.in_pitch);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, data);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, pass.second && four_step ? second_twiddles_ : twiddles_);
  if (four_step) {
    glUniform1ui(program.location("u_out_pitch"), pass.out_pitch);
    glUniform1ui(program.location("u_block_lines"), pass.block_lines);
    glUniform1ui(program.location("u_block_shift"), pass.block_shift);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, output);
    if (!pass.second) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, outer_twiddles_);
  } else if (route_.bluestein()) {
    glUniform1ui(program.location("u_bluestein_n"), route_.n);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, image);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, chirp_);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, filter_);
  } else if (pass.mode == fast::output_buffer) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, output);
  }
  if (row_pairs_) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 7, row_pairs_);
  if (fold_twiddles_) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 8, fold_twiddles_);
  if (reads_by_texture_) bind_data_texture(data_texture);

  dispatch_fast_groups(timers_, p.axis, p.threads, pass.groups != 0 ? pass.groups : p.groups(lines), pass.name, pass.bytes,
                       description_, barriers);
}

void GlFastAxis::dispatch(unsigned image, unsigned output, unsigned scratch, Direction direction) const {
  dispatch(image, output, scratch, direction, 0, 0, GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlFastAxis::dispatch(unsigned image, unsigned output, unsigned scratch, Direction direction,
                          unsigned image_texture, unsigned output_texture, unsigned barrier_after) const {
  if (route_.plan.radices.empty()) return;  // length 1: nothing to do
  if (reads_by_texture_ && (image_texture == 0 || output_texture == 0))
    throw std::logic_error("GlFastAxis: an axis that reads by texture needs the image's and the output's textures");
  // Four-step: pass A image -> scratch, pass B scratch -> output (AxisRoute::swap: A image ->
  // output, B on the output);
  // Bluestein: in image -> scratch, out scratch -> image.
  const bool forward = direction == Direction::forward;
  const std::vector<fast::AxisPass>& passes = forward ? forward_passes_ : inverse_passes_;
  const std::vector<ProgramKey>& keys = forward ? forward_keys_ : inverse_keys_;
  // Between an axis's own passes the next reads what the one before stored: by texture where the
  // axis does (four-step on the image and the output), else through the storage buffer.
  for (std::size_t i = 0; i < passes.size(); ++i)
    dispatch_pass(passes[i], keys[i],
                  passes[i].on_scratch ? scratch : passes[i].on_output ? output : image,
                  passes[i].image_is_output ? output : image, passes[i].to_scratch ? scratch : output,
                  passes[i].on_output ? output_texture : image_texture,
                  i + 1 < passes.size() ? read_barrier() : barrier_after);
}

GlFastPath::GlFastPath(ProgramCache& programs, DispatchTimers* timers, fast::Tuning tuning,
                       fast::Measuring measure)
    : programs_(programs),
      timers_(timers),
      tuning_(tuning),
      measure_(std::move(measure)),
      limits_(fast_limits()),
      max_block_(max_storage_block()),
      max_texels_(max_texture_buffer_texels()) {}

GlFastPath::~GlFastPath() { release(); }

void GlFastPath::release() {
  rows_.reset();
  cols_.reset();
  if (scratch_) glDeleteBuffers(1, &scratch_);
  scratch_ = 0;
  extra_bytes_ = 0;
}

std::optional<fast::ImageRoutes> GlFastPath::routes(std::size_t width, std::size_t height,
                                                    const fast::Tuning& tuning) const {
  auto routes = fast::route_image(width, height, limits_, tuning);
  if (!routes) return std::nullopt;
  // GL guarantees 65535 groups per dimension; the shader flattens x and y.
  const std::uint64_t most =
      std::max(routes->rows.plan.groups(height), routes->cols.plan.groups(routes->cols.dispatched_lines(width)));
  if (most > std::uint64_t{65535} * 65535) return std::nullopt;
  if (max_block_ != 0 && routes->scratch_elements() * sizeof(Complex) > max_block_) return std::nullopt;
  return routes;
}

bool GlFastPath::supports(std::size_t width, std::size_t height) const {
  return routes(width, height, tuning_).has_value();
}

namespace {

/// A GL buffer deleted with its owner.
struct ScopedBuffer {
  GLuint id = 0;
  explicit ScopedBuffer(std::uint64_t bytes) {
    if (bytes != 0) id = make_storage_buffer(bytes, nullptr, GL_DYNAMIC_COPY);
  }
  ~ScopedBuffer() {
    if (id) glDeleteBuffers(1, &id);
  }
  ScopedBuffer(const ScopedBuffer&) = delete;
  ScopedBuffer& operator=(const ScopedBuffer&) = delete;
};

}  // namespace

bool texture_inputs_on(Axis axis, const fast::Tuning& tuning, const fast::AxisRoute* route, std::uint64_t texels,
                       std::uint64_t max_texels) {
  if (texels > max_texels) return false;
  if (axis == Axis::rows) return (tuning.texture_inputs & 1u) != 0;
  if ((tuning.texture_inputs & 2u) == 0 || !route) return false;
  if (route->four_step()) return tuning.texture_four_step != 0;
  if (route->fold != 0 && tuning.texture_folded_columns == 0) return false;
  return tuning.texture_columns_max_length == 0 || route->n <= tuning.texture_columns_max_length;
}

fast::AxisRoute GlFastPath::fastest(Axis axis, std::size_t width, std::size_t height, const fast::AxisRoute& planned) {
  const auto distinct = fast::distinct_axis_routes(axis, planned, tuning_, measure_.candidates,
                                                   [&](const fast::Tuning& t) { return routes(width, height, fast::unfolded(t)); });
  if (distinct.size() == 1) return planned;
  const auto [what, identities] = fast::axis_choice(axis, width, height, distinct);
  const std::string key = PlanWisdom::key(measure_.device, what, identities);
  if (measure_.wisdom)
    if (const auto known = measure_.wisdom->find(key); known && *known < distinct.size()) return distinct[*known].first;

  const fast::PlanningClock clock(what, distinct.size());
  const std::uint64_t lines = axis == Axis::rows ? height : width;
  // Timing needs device memory beside the caller's image; where it cannot be had (a GL error
  // while timing), the planned route stands, as without measuring. A route that fails to
  // compile throws only if it is the planned one, as prepare() would without measuring.
  const ScopedBuffer data(std::uint64_t{width} * height * sizeof(Complex));
  const BufferTexture data_texture(data.id);
  const GLuint zero = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, data.id);
  glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  if (glGetError() != GL_NO_ERROR) return planned;
  // Every route made once and kept (tables are small; they share one scratch, since their
  // dispatches run one after another) and run once (NVIDIA's driver may finish a compile at the
  // first dispatch); the GPU then kept busy until its clocks are steady, and each candidate timed
  // beside the planned route (paired_median_ms).
  std::vector<std::optional<GlFastAxis>> axes(distinct.size());
  std::uint64_t scratch_elements = 0;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    try {
      axes[i].emplace(programs_, nullptr, distinct[i].first, lines, fast::PassLayout::in_place, std::string{},
                      texture_inputs_on(axis, tuning_, &distinct[i].first, std::uint64_t{width} * height, max_texels_));
    } catch (const BackendError&) {
      if (i == 0) throw;
      continue;
    }
    scratch_elements = std::max(scratch_elements, distinct[i].first.scratch_elements(lines));
  }
  const ScopedBuffer scratch(scratch_elements * sizeof(Complex));
  // Each followed by its own reads' barrier, as the candidates follow one another (on zeros).
  const auto run = [&](std::size_t i) {
    axes[i]->dispatch(data.id, data.id, scratch.id, Direction::forward, data_texture.id(), data_texture.id(),
                      axes[i]->read_barrier());
  };
  for (std::size_t i = 1; i < axes.size(); ++i)
    if (axes[i]) run(i);
  glFinish();
  const auto planned_run = [&] { run(0); };
  fast::FastestBeside choice(what, planned.describe(), warm_until_steady(planned_run));
  for (std::size_t i = 1; i < axes.size(); ++i)
    if (axes[i]) choice.record(i, paired_median_ms(planned_run, [&] { run(i); }), distinct[i].first.describe());
  if (measure_.wisdom) measure_.wisdom->remember(key, choice.best());
  return distinct[choice.best()].first;
}

void GlFastPath::prepare(std::size_t width, std::size_t height) {
  if (rows_ && cols_ && width == width_ && height == height_) return;
  release();
  width_ = height_ = 0;
  // Measured planning times each axis on its own, in place: unfolded, the fold applied to the
  // choice (fast::fold_columns, with the other joint rules).
  auto image = routes(width, height, measure_.enabled() ? fast::unfolded(tuning_) : tuning_);
  if (!image)
    throw BackendError("OpenGL fast path: " + std::to_string(width) + "x" + std::to_string(height) +
                       " is not supported (no layout fits shared memory, or over 32-bit indices or the largest "
                       "shader storage block)");
  if (measure_.enabled()) {
    image->rows = fastest(Axis::rows, width, height, image->rows);
    image->cols = fastest(Axis::cols, width, height, image->cols);
    fast::pair_rows_with_columns(*image, limits_, tuning_);  // each axis was chosen on its own
    fast::tile_columns(*image, tuning_);
    fast::fold_columns(*image, limits_, tuning_);
  }
  rows_.emplace(programs_, timers_, image->rows, height, fast::PassLayout::in_place, std::string{},
                texture_inputs_on(Axis::rows, tuning_, &image->rows, std::uint64_t{width} * height, max_texels_));
  cols_.emplace(programs_, timers_, image->cols, image->cols.dispatched_lines(width), fast::PassLayout::in_place,
                std::string{}, texture_inputs_on(Axis::cols, tuning_, &image->cols, std::uint64_t{width} * height, max_texels_));
  const std::uint64_t scratch = image->scratch_elements();
  if (scratch > 0) scratch_ = make_storage_buffer(scratch * sizeof(Complex), nullptr, GL_DYNAMIC_COPY);
  extra_bytes_ = scratch * sizeof(Complex) + rows_->table_bytes() + cols_->table_bytes();
  width_ = width;
  height_ = height;
}

unsigned GlFastPath::dispatch(unsigned buffer, unsigned buffer_texture, Direction direction, unsigned barrier_after,
                              unsigned spare, unsigned spare_texture) {
  if (!rows_ || !cols_) throw BackendError("OpenGL fast path: dispatch() before prepare()");
  if (folds()) {
    if (spare == 0 || spare == buffer) throw std::logic_error("GlFastPath: a folded size needs a second buffer");
    glMemoryBarrier(rows_->read_barrier());
    rows_->dispatch(buffer, spare, scratch_, direction, buffer_texture, spare_texture, cols_->read_barrier());
    cols_->dispatch(spare, spare, scratch_, direction, spare_texture, spare_texture, barrier_after);
    return spare;
  }
  // In-place four-step columns leave the rows swapped in pairs, which the rows' pass undoes
  // (fast::pair_rows_with_columns): then the columns go first.
  const bool columns_first = rows_->route().swap.has_value();
  const GlFastAxis& first = columns_first ? *cols_ : *rows_;
  const GlFastAxis& second = columns_first ? *rows_ : *cols_;
  // Whatever stored into the buffer last may have left only the barrier its own next reader
  // needed. After this path's own transform this repeats the barrier just issued (the sweep's
  // times, run456, include it).
  glMemoryBarrier(first.read_barrier());
  first.dispatch(buffer, buffer, scratch_, direction, buffer_texture, buffer_texture, second.read_barrier());
  second.dispatch(buffer, buffer, scratch_, direction, buffer_texture, buffer_texture, barrier_after);
  return buffer;
}

void GlFastPath::dispatch(unsigned buffer, Direction direction) {
  const BufferTexture texture(buffer);
  if (!folds()) {
    dispatch(buffer, texture.id(), direction, GL_SHADER_STORAGE_BARRIER_BIT);
    return;
  }
  const GLsizeiptr bytes = static_cast<GLsizeiptr>(std::uint64_t{width_} * height_ * sizeof(Complex));
  const ScopedBuffer spare(static_cast<std::uint64_t>(bytes));
  const BufferTexture spare_texture(spare.id);
  dispatch(buffer, texture.id(), direction, GL_BUFFER_UPDATE_BARRIER_BIT, spare.id, spare_texture.id());
  glBindBuffer(GL_COPY_READ_BUFFER, spare.id);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, bytes);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

}  // namespace fftscope::detail
