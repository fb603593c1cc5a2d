#include "backend/gl/gl_timers.h"

#include <glad/gl.h>

#include <algorithm>
#include <cassert>

namespace fftscope::detail {
namespace {
// No real dispatch finishes in under 100 ns (launch alone takes microseconds); a batch of such
// readings means the driver's timer does not measure anything.
constexpr GLuint64 kMeaningfulNs = 100;
constexpr std::size_t kMaxPending = 16384;
}  // namespace

DispatchTimers::~DispatchTimers() {
  if (!all_queries_.empty()) glDeleteQueries(static_cast<GLsizei>(all_queries_.size()), all_queries_.data());
}

unsigned DispatchTimers::acquire_query() {
  if (free_queries_.empty()) {
    GLuint q = 0;
    glGenQueries(1, &q);
    all_queries_.push_back(q);
    return q;
  }
  const unsigned q = free_queries_.back();
  free_queries_.pop_back();
  return q;
}

void DispatchTimers::begin(TimingRecord record) {
  if (!enabled_) return;
  assert(!open_ && "DispatchTimers::begin called twice without end");
  // A caller that never takes its timings must not make them pile up: drop the oldest. (Reusing
  // a query whose result is still pending is legal; that result is simply discarded.)
  while (pending_.size() >= kMaxPending) {
    if (pending_.front().query != 0) free_queries_.push_back(pending_.front().query);
    pending_.pop_front();
  }
  open_ = true;
  record.execution = execution_;
  Pending p{std::move(record), 0};
  if (mode_ == Mode::gpu) {
    p.query = acquire_query();
    glBeginQuery(GL_TIME_ELAPSED, p.query);
  } else {
    glFinish();  // earlier work must not be counted
    p.record.host_measured = true;
    host_start_ = std::chrono::steady_clock::now();
  }
  pending_.push_back(std::move(p));
}

void DispatchTimers::end() {
  if (!enabled_) return;
  assert(open_ && "DispatchTimers::end without begin");
  open_ = false;
  Pending& p = pending_.back();
  if (p.query != 0) {
    glEndQuery(GL_TIME_ELAPSED);
  } else {
    glFinish();
    p.record.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start_).count();
  }
}

std::vector<TimingRecord> DispatchTimers::take() {
  std::vector<TimingRecord> out;
  bool all_tiny = true;
  std::size_t gpu_read = 0;
  while (!pending_.empty() && !(open_ && pending_.size() == 1)) {
    Pending& p = pending_.front();
    if (p.query != 0) {
      GLint available = GL_FALSE;
      glGetQueryObjectiv(p.query, GL_QUERY_RESULT_AVAILABLE, &available);
      if (available != GL_TRUE) break;  // in order: the rest are not ready either
      GLuint64 ns = 0;
      glGetQueryObjectui64v(p.query, GL_QUERY_RESULT, &ns);
      free_queries_.push_back(p.query);
      p.record.milliseconds = static_cast<double>(ns) * 1e-6;
      ++gpu_read;
      if (ns >= kMeaningfulNs) all_tiny = false;
    }
    out.push_back(std::move(p.record));
    pending_.pop_front();
  }
  if (mode_ == Mode::gpu && gpu_read >= 4 && all_tiny) {
    // Drivers without a real GPU clock (llvmpipe) answer 0 or 1 ns: time on the host from now on.
    for (TimingRecord& r : out)
      if (!r.host_measured) r.note = r.note.empty() ? "gpu timer meaningless" : r.note + "; gpu timer meaningless";
    mode_ = Mode::host;
  }
  return out;
}

double median_finished_ms(const std::function<void()>& work, int untimed, int timed) {
  GLuint query = 0;
  glGenQueries(1, &query);
  std::vector<double> ms;
  for (int run = 0; run < untimed + timed; ++run) {
    glFinish();
    const auto start = std::chrono::steady_clock::now();
    glBeginQuery(GL_TIME_ELAPSED, query);
    work();
    glEndQuery(GL_TIME_ELAPSED);
    glFinish();
    const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    GLuint64 ns = 0;
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
    if (run >= untimed) ms.push_back(ns >= kMeaningfulNs ? static_cast<double>(ns) * 1e-6 : host_ms);
  }
  glDeleteQueries(1, &query);
  if (glGetError() != GL_NO_ERROR || ms.empty()) return -1;
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

}  // namespace fftscope::detail
