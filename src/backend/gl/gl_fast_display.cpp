#include "backend/gl/gl_fast_display.h"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <map>
#include <string>
#include <vector>

#include "backend/gl/gl_fast_path.h"
#include "core/errors.h"
#include "core/plan_wisdom.h"

namespace fftscope::detail {
namespace {

// A frame's range as order-preserving ints (min, max), padded to the 16 bytes of a std140 block.
constexpr GLint empty_range[4] = {INT_MAX, INT_MIN, 0, 0};

GLuint twiddle_buffer(std::uint32_t n, std::size_t count) {
  std::vector<Complex> table = fast::twiddle_table(n);
  table.resize(count);
  return make_storage_buffer(table.size() * sizeof(Complex), table.data(), GL_STATIC_DRAW);
}

void write_buffer(GLuint id, std::size_t bytes, const void* data) {
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(bytes), data);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}


GLuint make_texture(std::size_t width, std::size_t height) {
  GLuint id = 0;
  glGenTextures(1, &id);
  glBindTexture(GL_TEXTURE_2D, id);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, static_cast<GLsizei>(width), static_cast<GLsizei>(height));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  return id;
}

void read_buffer(GLuint id, std::size_t bytes, void* out) {
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(bytes), out);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

// A flat dispatch of `items` invocations (display_unpack.comp, display_half.comp: common.glsl's
// invocation_index over x and y groups), timed as `name`.
constexpr std::uint32_t flat_group = 256;
void dispatch_items(DispatchTimers* timers, std::uint64_t items, const std::string& name, std::uint64_t bytes,
                    const std::string& note, unsigned barriers) {
  dispatch_fast_groups(timers, Axis::rows, flat_group, (items + flat_group - 1) / flat_group, name, bytes, note,
                       barriers);
}

// After the passes that colour the pixels: the range they folded in is the next frame's, read as
// a uniform block (display_pixels.glsl) and emptied by glBufferSubData. Whoever reads the pixels
// (download_rgba, copy_to_texture) puts its own barrier before it. No storage bit: on NVIDIA's
// driver it empties the instruction caches (fast_fft.comp's TEX_INPUT).
constexpr unsigned after_pixels_barrier = GL_UNIFORM_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT;

ProgramKey flat_key(const char* shader, std::map<std::string, std::string> defines = {}) {
  ProgramKey k;
  k.shader = shader;
  k.defines = std::move(defines);
  k.local_x = flat_group;
  return k;
}

// display_unpack.comp takes its sizes as uniforms: one program for every size, its key made once.
const ProgramKey& unpack_key() {
  static const ProgramKey key = flat_key("display_unpack.comp");
  return key;
}

RgbaImage read_texture(GLuint texture, std::size_t width, std::size_t height) {
  RgbaImage out(width, height);
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out.data.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  return out;
}

}  // namespace

GlFastDisplay::GlFastDisplay(ProgramCache& programs, DispatchTimers* timers, fast::Tuning tuning,
                             fast::Measuring measure)
    : programs_(programs),
      timers_(timers),
      base_(tuning),
      measure_(std::move(measure)),
      max_block_(max_storage_block()),
      max_texels_(max_texture_buffer_texels()) {
  base_.split_global = 0;  // the display epilogue follows the split through registers only
  tuning_ = base_;
  // The display epilogue's range needs 8 bytes of shared memory beside the lines.
  limits_ = fast_limits();
  limits_.local_bytes = limits_.local_bytes > 16 ? limits_.local_bytes - 16 : 0;
}

GlFastDisplay::~GlFastDisplay() {
  release();
  if (fallback_texture_) glDeleteTextures(1, &fallback_texture_);
}

void GlFastDisplay::release() {
  real_cols_.reset();
  routed_rows_.reset();
  display_rows_.reset();
  for (unsigned* id : {&real_, &z_, &y_, &col_scratch_, &half_, &lut_, &ranges_[0], &ranges_[1], &row_twiddles_,
                       &split_twiddles_, &display_twiddles_, &half_col_twiddles_, &pixels_}) {
    if (*id) glDeleteBuffers(1, id);
    *id = 0;
  }
  real_texture_.reset();
  z_texture_.reset();
  rows_by_texture_ = false;
}

bool GlFastDisplay::supports(std::size_t width, std::size_t height) const {
  return passes(width, height, base_).has_value();
}

bool GlFastDisplay::fused_plans(std::size_t width, std::size_t height) const {
  const auto p = passes(width, height, base_);
  return p && p->fused();
}

std::optional<fast::DisplayPasses> GlFastDisplay::passes(std::size_t width, std::size_t height,
                                                         const fast::Tuning& tuning) const {
  auto p = fast::plan_real_display(width, height, limits_, tuning);
  if (!p) return std::nullopt;
  // GL guarantees 65535 groups per dimension; the shaders flatten x and y.
  const std::uint64_t most = std::max(p->cols.plan.groups(fast::display_pair_columns(width)),
                                      p->rows ? p->rows->groups(height / 2 + 1)
                                              : p->routed_rows->plan.groups(height / 2 + 1));
  if (most > std::uint64_t{65535} * 65535) return std::nullopt;
  if (max_block_ != 0 && p->scratch_elements(width, height) * sizeof(Complex) > max_block_) return std::nullopt;
  return p;
}

fast::Tuning GlFastDisplay::fastest_tuning(std::size_t width, std::size_t height) {
  const std::vector<fast::Tuning> distinct =
      fast::distinct_display_tunings(width, height, limits_, base_, measure_.candidates);
  if (distinct.size() == 1) return base_;
  const auto [what, identities] = fast::display_choice(width, height, limits_, distinct);
  const std::string key = PlanWisdom::key(measure_.device, what, identities);
  if (measure_.wisdom)
    if (const auto known = measure_.wisdom->find(key); known && *known < distinct.size()) return distinct[*known];

  const fast::PlanningClock clock(what, distinct.size());
  const RealImage zeros(width, height);
  const SpectrumSettings settings = fixed_range_settings(width, height);
  // As GlFastPath::fastest (every candidate compiled and run once, the GPU kept busy until its
  // clocks are steady, each candidate timed beside the base), but a candidate is a whole display's
  // buffers: each is made for its first run and made again for its timing, so that at most two
  // displays are alive at a time.
  const auto prepared = [&](GlFastDisplay& display) {
    if (!display.supports(width, height)) return false;
    try {
      display.prepare(width, height);
    } catch (const BackendError&) {
      return false;
    }
    display.upload(zeros);
    return true;
  };
  std::vector<bool> compiled(distinct.size(), false);
  for (std::size_t i = 1; i < distinct.size(); ++i) {
    GlFastDisplay candidate(programs_, nullptr, distinct[i]);
    compiled[i] = prepared(candidate);
    if (compiled[i]) candidate.dispatch_display(settings, true);
    glFinish();
  }
  GlFastDisplay planned(programs_, nullptr, base_);
  planned.prepare(width, height);  // throws as prepare() would without measuring
  planned.upload(zeros);
  const auto describe = [](const GlFastDisplay& d) { return d.describe(); };
  const auto planned_run = [&] { planned.dispatch_display(settings, true); };
  fast::FastestBeside choice(what, describe(planned), warm_until_steady(planned_run));
  for (std::size_t i = 1; i < distinct.size(); ++i) {
    GlFastDisplay candidate(programs_, nullptr, distinct[i]);
    if (compiled[i] && prepared(candidate))
      choice.record(i, paired_median_ms(planned_run, [&] { candidate.dispatch_display(settings, true); }),
                    describe(candidate));
  }
  if (measure_.wisdom) measure_.wisdom->remember(key, choice.best());
  return distinct[choice.best()];
}

ProgramKey GlFastDisplay::key(const fast::AxisPlan& plan, const Defines& extra) const {
  return fast_program_key(plan, nullptr, extra);  // every display pass runs forward
}

std::string GlFastDisplay::describe() const {
  return column_route().describe() + "; " +
         (routed_rows_ ? routed_rows_->route().describe() + "; coloured by display_half" : display_rows_->describe());
}

Program& GlFastDisplay::display_rows_program(const SpectrumSettings& settings) {
  // The real and imaginary parts take their component from a uniform (15 in DISPLAY_FLAGS): as
  // a constant, NVIDIA's GLSL compiler drew some of their bins wrong (fast_epilogue.glsl).
  const bool one_part = settings.component == SpectrumComponent::real || settings.component == SpectrumComponent::imaginary;
  const unsigned flags = one_part ? (display_flags(settings) | 0xF0u) : display_flags(settings);
  if (flags != display_rows_flags_ && routed_rows_) {
    display_rows_key_ = flat_key("display_half.comp", {{"N", std::to_string(width_)},
                                                       {"PAIR_ROWS", std::to_string(height_)},
                                                       {"DISPLAY_FLAGS", std::to_string(flags)}});
    display_rows_flags_ = flags;
  } else if (flags != display_rows_flags_) {
    Defines defines = fast::display_rows_defines(width_, height_, *display_rows_, tuning_, real_cols_->route().swap);
    defines.emplace_back("DISPLAY_FLAGS", std::to_string(flags));
    if (rows_by_texture_) defines.emplace_back("TEX_INPUT", "1");
    display_rows_key_ = key(*display_rows_, defines);
    display_rows_flags_ = flags;
  }
  return programs_.get(display_rows_key_);
}

void GlFastDisplay::prepare(std::size_t width, std::size_t height) {
  if (pixels_ && width == width_ && height == height_) return;
  release();
  rows_.reset();
  cols_.reset();
  if (!supports(width, height))
    throw BackendError("OpenGL fast display: " + std::to_string(width) + "x" + std::to_string(height) +
                       " is not supported (a width under 3, a height under 2, or more than 2^30 pixels)");
  tuning_ = measure_.enabled() ? fastest_tuning(width, height) : base_;
  width_ = width;
  height_ = height;
  const std::size_t pairs = fast::display_pair_columns(width);
  // Each axis fused where it plans, else routed (a prime factor above 13).
  auto planned = passes(width, height, tuning_);
  if (!planned) {  // a measured tuning this context does not take: supports() took the base
    tuning_ = base_;
    planned = passes(width, height, tuning_);
  }
  const fast::DisplayPasses& plan = *planned;
  const std::uint64_t texels = std::uint64_t{pairs} * height;  // the image's and Z's
  real_cols_.emplace(programs_, timers_, plan.cols, pairs, fast::PassLayout::out_of_place, "fast_cols_real",
                     texture_inputs_on(Axis::cols, tuning_, &plan.cols, texels, max_texels_));
  display_rows_ = plan.rows;
  if (display_rows_) {
    display_rows_note_ = display_rows_->describe();
    display_twiddles_ = twiddle_buffer(display_rows_->n, display_rows_->n);
  } else {
    routed_rows_.emplace(programs_, timers_, *plan.routed_rows, height / 2 + 1, fast::PassLayout::in_place,
                         "fast_rows_half");
    programs_.get(unpack_key());
    display_rows_note_ = "each bin of the rows ky <= H/2 and its mirror";
    y_ = make_storage_buffer(width * (height / 2 + 1) * sizeof(Complex), nullptr, GL_DYNAMIC_COPY);
  }
  const std::uint64_t scratch = plan.scratch_elements(width, height);
  real_ = make_storage_buffer(pairs * height * sizeof(Complex), nullptr, GL_DYNAMIC_DRAW);
  z_ = make_storage_buffer(pairs * height * sizeof(Complex), nullptr, GL_DYNAMIC_COPY);
  // Each pass's input read through a buffer texture where the tuning says (the fast path's
  // texture_inputs: bit 1 the columns, which read the image, and four-step ones Z too; bit 0 the
  // display rows, which read Z, up to texture_display_rows_max_length points).
  const bool rows_by_texture = display_rows_ && texture_inputs_on(Axis::rows, tuning_, nullptr, texels, max_texels_) &&
                               (tuning_.texture_display_rows_max_length == 0 ||
                                width <= tuning_.texture_display_rows_max_length);
  if (real_cols_->reads_by_texture()) real_texture_.attach(real_);
  if (rows_by_texture || real_cols_->reads_by_texture()) z_texture_.attach(z_);
  rows_by_texture_ = rows_by_texture;
  display_rows_flags_ = ~0u;
  display_rows_program(SpectrumSettings{});  // compile now: errors surface here
  if (scratch > 0) col_scratch_ = make_storage_buffer(scratch * sizeof(Complex), nullptr, GL_DYNAMIC_COPY);
  lut_ = make_storage_buffer(256 * 4, nullptr, GL_DYNAMIC_DRAW);
  for (unsigned& r : ranges_) r = make_storage_buffer(sizeof empty_range, empty_range, GL_DYNAMIC_COPY);
  // Written by the GPU, read back or copied into a texture. GL_DYNAMIC_READ rather than _COPY:
  // the H100 then ran the next frame's columns faster at 8192^2 (pass A 259 -> 237 us; other
  // sizes and other hints as _COPY, docs/fast_path.md). The whole 8192^2 display: 743 -> 720 us
  // alone, 740 -> 732 after another GL instance in the process. Clearing every buffer as it is
  // made lost 12-15 us (docs/performance.md, run446); one buffer holding the real image, Z and
  // the pixels lost 21-33 us alone, 6-15 in company (run447).
  pixels_ = make_storage_buffer(width * height * 4, nullptr, GL_DYNAMIC_READ);
  rows_ = fast::plan_r2c_rows(width, height, limits_, tuning_);  // the half-spectrum path's, compiled on first use
  cols_ = fast::plan_half_columns(width, height, limits_, tuning_);
  lut_colormap_ = -1;
  acc_ = 0;
  range_known_ = false;
  texture_copy_ = texture_copy_setting_;  // measured again at a new size
}


unsigned GlFastDisplay::fallback_texture(std::size_t width, std::size_t height) {
  if (fallback_texture_ && (width != fallback_width_ || height != fallback_height_)) {
    glDeleteTextures(1, &fallback_texture_);
    fallback_texture_ = 0;
  }
  if (!fallback_texture_) fallback_texture_ = make_texture(width, height);
  fallback_width_ = width;
  fallback_height_ = height;
  return fallback_texture_;
}

RgbaImage GlFastDisplay::download_fallback() { return read_texture(fallback_texture_, fallback_width_, fallback_height_); }

void GlFastDisplay::upload(const RealImage& image) {
  if (!pixels_ || image.width != width_ || image.height != height_)
    throw BackendError("OpenGL fast display: upload() of a " + std::to_string(image.width) + "x" +
                       std::to_string(image.height) + " image without prepare() for that size");
  std::vector<float> padded;
  const std::span<const float> pairs = fast::display_pairs_image(image, padded);
  write_buffer(real_, pairs.size_bytes(), pairs.data());
  range_known_ = false;
}

void GlFastDisplay::dispatch(const fast::AxisPlan& p, Program& program, const std::string& note, std::size_t lines,
                             std::size_t row_pitch, const char* name, std::uint64_t bytes, unsigned barriers) {
  glUseProgram(program.id);
  glUniform1ui(program.location("u_lines"), static_cast<GLuint>(lines));
  glUniform1ui(program.location("u_row_pitch"), static_cast<GLuint>(row_pitch));
  dispatch_fast_groups(timers_, p.axis, p.threads, p.groups(lines), name, bytes, note, barriers);
}

void GlFastDisplay::dispatch_display(const SpectrumSettings& settings, bool previous_range) {
  if (!pixels_) throw BackendError("OpenGL fast display: dispatch_display() before prepare()");
  if (lut_colormap_ != static_cast<int>(settings.colormap)) {
    std::vector<std::uint32_t> lut(256);
    const auto& table = colormap_table(settings.colormap);
    for (std::size_t i = 0; i < 256; ++i)
      lut[i] = std::uint32_t{table[i][0]} | (std::uint32_t{table[i][1]} << 8) | (std::uint32_t{table[i][2]} << 16);
    write_buffer(lut_, lut.size() * 4, lut.data());
    lut_colormap_ = static_cast<int>(settings.colormap);
  }
  const std::size_t pixels = width_ * height_;
  const int range_key = static_cast<int>(settings.component) * 2 + (settings.scale == SpectrumScale::log ? 1 : 0);
  if (range_key != range_key_) range_known_ = false;
  range_key_ = range_key;

  // This frame's range accumulator, emptied where the rows fold into it (auto range only).
  if (settings.auto_range) write_buffer(ranges_[acc_], sizeof empty_range, empty_range);
  // Columns: the real image read as its pair columns, their FFTs Z into z_ (the image stays;
  // nothing but uploads writes it, so no barrier before its reads). Then the barrier Z's next
  // reader needs: the display rows' (texture or storage), or display_unpack's.
  const unsigned z_barrier = rows_by_texture_ ? GL_TEXTURE_FETCH_BARRIER_BIT : GL_SHADER_STORAGE_BARRIER_BIT;
  real_cols_->dispatch(real_, z_, col_scratch_, Direction::forward, real_texture_.id(), z_texture_.id(), z_barrier);
  if (routed_rows_) {
    // The rows ky <= H/2 of the column FFTs taken apart from Z into y_, then their FFTs there.
    const std::size_t half_items = width_ * (height_ / 2 + 1);
    Program& unpack = programs_.get(unpack_key());
    glUseProgram(unpack.id);
    glUniform1ui(unpack.location("u_items"), static_cast<GLuint>(half_items));
    glUniform1ui(unpack.location("u_width"), static_cast<GLuint>(width_));
    glUniform1ui(unpack.location("u_height"), static_cast<GLuint>(height_));
    glUniform1ui(unpack.location("u_pitch"), static_cast<GLuint>(fast::display_pair_columns(width_)));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, z_);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, y_);
    dispatch_items(timers_, half_items, "display_unpack",
                   (fast::display_pair_columns(width_) * height_ + half_items) * sizeof(Complex),
                   "the rows ky <= H/2 of the column FFTs, from Z", GL_SHADER_STORAGE_BARRIER_BIT);
    routed_rows_->dispatch(y_, y_, col_scratch_, Direction::forward);
  }

  // Rows ky <= H/2 of the 2D FFT from Z, each written as its display row and its mirror row.
  const auto rows = [&] {
    Program& program = display_rows_program(settings);
    glUseProgram(program.id);
    // Only the real- and imaginary-part programs have it (else location -1: GL ignores the call).
    glUniform1ui(program.location("u_component"), static_cast<GLuint>(settings.component));
    glUniform1f(program.location("u_lo"), settings.range_min);
    glUniform1f(program.location("u_hi"), settings.range_max);
    glUniform1f(program.location("u_gain"), settings.gain);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, lut_);
    glBindBufferBase(GL_UNIFORM_BUFFER, 3, ranges_[1 - acc_]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, ranges_[acc_]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, pixels_);
    if (routed_rows_) {
      const std::size_t half_items = width_ * (height_ / 2 + 1);
      glUniform1ui(program.location("u_items"), static_cast<GLuint>(half_items));
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, y_);
      dispatch_items(timers_, half_items, "display_half", half_items * sizeof(Complex) + pixels * 4,
                     display_rows_note_, after_pixels_barrier);
    } else {
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, z_);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, display_twiddles_);
      if (rows_by_texture_) bind_data_texture(z_texture_.id());
      dispatch(*display_rows_, program, display_rows_note_, height_ / 2 + 1, fast::display_pair_columns(width_),
               "fast_rows_display", (height_ / 2 + 1) * width_ * 8 + pixels * 4, after_pixels_barrier);
    }
    acc_ = 1 - acc_;  // this frame's range is the next frame's
  };
  if (settings.auto_range && !range_known_ && !previous_range) {
    // The range of this image is not known yet: one pass to find it (its pixels are redrawn).
    rows();
    write_buffer(ranges_[acc_], sizeof empty_range, empty_range);
  }
  rows();
  range_known_ = settings.auto_range;
}

void GlFastDisplay::dispatch_half_spectrum() {
  if (!pixels_) throw BackendError("OpenGL fast display: dispatch_half_spectrum() before prepare()");
  if (!rows_ || !cols_)
    throw BackendError("OpenGL fast display: no half-spectrum plan for " + std::to_string(width_) + "x" +
                       std::to_string(height_) + " (an even width whose W/2-point rows fit shared memory whole)");
  const std::size_t half_w = width_ / 2 + 1;
  if (!half_) {
    half_ = make_storage_buffer(half_w * height_ * sizeof(Complex), nullptr, GL_DYNAMIC_COPY);
    row_twiddles_ = twiddle_buffer(rows_->n, rows_->n);
    half_col_twiddles_ = twiddle_buffer(cols_->n, cols_->n);
    split_twiddles_ = twiddle_buffer(static_cast<std::uint32_t>(width_), half_w);
  }
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, real_);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, row_twiddles_);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, half_);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, split_twiddles_);
  // The image's rows lie display_pair_columns pairs apart (upload).
  dispatch(*rows_, programs_.get(key(*rows_, {{"R2C_SPLIT", "1"}})), rows_->describe(), height_,
           fast::display_pair_columns(width_),
           "fast_r2c_rows", width_ * height_ * 4 + half_w * height_ * 8, GL_SHADER_STORAGE_BARRIER_BIT);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, half_);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, half_col_twiddles_);
  // Whoever reads the half spectrum (download_half) puts its own barrier before it.
  dispatch(*cols_, programs_.get(key(*cols_, {})), cols_->describe(), half_w, half_w, "fast_cols",
           half_w * height_ * 16, GL_SHADER_STORAGE_BARRIER_BIT);
}

RgbaImage GlFastDisplay::download_rgba() {
  RgbaImage out(width_, height_);
  read_buffer(pixels_, out.data.size(), out.data.data());
  return out;
}

ComplexImage GlFastDisplay::download_half() {
  ComplexImage out(width_ / 2 + 1, height_);
  read_buffer(half_, out.data.size() * sizeof(Complex), out.data.data());
  return out;
}

void GlFastDisplay::copy_to_texture(unsigned texture) {
  // The display rows' stores before either copy reads them.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT);
  static const ProgramKey tiles_key = [] {
    ProgramKey k;
    k.shader = "pixels_to_texture.comp";
    k.local_x = 16;
    k.local_y = 16;
    return k;
  }();
  const auto tiles = [&] {
    Program& program = programs_.get(tiles_key);
    glUseProgram(program.id);
    glUniform1ui(program.location("u_width"), static_cast<GLuint>(width_));
    glUniform1ui(program.location("u_height"), static_cast<GLuint>(height_));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, pixels_);
    glBindImageTexture(0, texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glDispatchCompute(static_cast<GLuint>((width_ + 15) / 16), static_cast<GLuint>((height_ + 15) / 16), 1);
  };
  const auto upload = [&] {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixels_);
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(width_), static_cast<GLsizei>(height_), GL_RGBA,
                    GL_UNSIGNED_BYTE, nullptr);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  };
  if (texture_copy_ == TextureCopy::measure) {
    // Each way once to warm it (the tiles' program compiles), then once timed on the host.
    const auto seconds = [](const auto& copy) {
      glFinish();
      const auto start = std::chrono::steady_clock::now();
      copy();
      glFinish();
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    try {
      seconds(tiles);
    } catch (const BackendError&) {
      texture_copy_ = TextureCopy::upload;  // the tiles' shader does not build: the upload needs none
    }
    if (texture_copy_ == TextureCopy::measure) {
      seconds(upload);
      texture_copy_ = seconds(tiles) < seconds(upload) ? TextureCopy::tiles : TextureCopy::upload;
    }
  }
  // Its own timing record, as OpenCL's delivery has ("display_copy_shared" / "_host").
  if (timers_) {
    TimingRecord record;
    record.kernel = "display_copy";
    record.axis = Axis::cols;
    record.stage = -1;
    record.global_size = {static_cast<std::uint32_t>(width_), static_cast<std::uint32_t>(height_), 1};
    record.bytes = width_ * height_ * 8;
    record.note = texture_copy_ == TextureCopy::tiles ? "into the texture by 16 x 16 tiles" : "pixel-unpack upload";
    timers_->begin(std::move(record));
  }
  if (texture_copy_ == TextureCopy::tiles) tiles(); else upload();
  if (timers_) timers_->end();
  // Whoever samples or copies the texture next sees the stores.
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

}  // namespace fftscope::detail
