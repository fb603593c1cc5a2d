#include "backend/gl/gl_timers.h"

#include <glad/gl.h>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace fftscope::detail {
namespace {
// No real dispatch finishes in under 100 ns (launch alone takes microseconds); a batch of such
// readings means the driver's timer does not measure anything.
constexpr GLuint64 kMeaningfulNs = 100;
constexpr std::size_t kMaxPending = 16384;

double median_of(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}
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

Warming warm_until_steady(const std::function<void()>& work, double min_ms) {
  constexpr int kBatch = 16;
  GLuint queries[kBatch];
  glGenQueries(kBatch, queries);
  glFinish();
  // Each batch's median, or -1 where the queries measure nothing (llvmpipe) or GL failed.
  const Warming out = fftscope::warm_until_steady(
      [&] {
        for (GLuint q : queries) {
          glBeginQuery(GL_TIME_ELAPSED, q);
          work();
          glEndQuery(GL_TIME_ELAPSED);
        }
        std::vector<double> ms;
        bool meaningful = true;
        for (GLuint q : queries) {
          GLuint64 ns = 0;
          glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
          if (ns < kMeaningfulNs) meaningful = false;
          ms.push_back(static_cast<double>(ns) * 1e-6);
        }
        if (!meaningful || glGetError() != GL_NO_ERROR) return -1.0;
        return median_of(std::move(ms));
      },
      min_ms, 5000, 0.03);
  glDeleteQueries(kBatch, queries);
  return out;
}

PairedTimes paired_median_ms(const std::function<void()>& base, const std::function<void()>& candidate, int pairs) {
  constexpr std::size_t kInFlight = 2;
  const std::function<void()>* works[2] = {&base, &candidate};
  PairedTimes out;
  if (pairs < 1) return out;

  glFinish();
  std::deque<GLsync> fences;
  run_untimed_pairs([&] {
    base();
    candidate();
    fences.push_back(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
    while (fences.size() > kInFlight) {
      glClientWaitSync(fences.front(), GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64{10'000'000'000});
      glDeleteSync(fences.front());
      fences.pop_front();
    }
  });
  for (GLsync f : fences) glDeleteSync(f);

  std::vector<GLuint> queries(2 * static_cast<std::size_t>(pairs));
  glGenQueries(static_cast<GLsizei>(queries.size()), queries.data());
  for (int pair = 0; pair < pairs; ++pair)
    for (int k = 0; k < 2; ++k) {
      const int which = (pair + k) % 2;  // base first in even pairs, the candidate first in odd ones
      glBeginQuery(GL_TIME_ELAPSED, queries[2 * pair + which]);
      (*works[which])();
      glEndQuery(GL_TIME_ELAPSED);
    }
  glFinish();
  std::vector<double> ms[2];
  bool meaningful = true;
  for (std::size_t q = 0; q < queries.size(); ++q) {
    GLuint64 ns = 0;
    glGetQueryObjectui64v(queries[q], GL_QUERY_RESULT, &ns);
    if (ns < kMeaningfulNs) meaningful = false;
    ms[q % 2].push_back(static_cast<double>(ns) * 1e-6);
  }
  glDeleteQueries(static_cast<GLsizei>(queries.size()), queries.data());
  if (!meaningful) {
    ms[0].clear();
    ms[1].clear();
    for (int pair = 0; pair < pairs; ++pair)
      for (int k = 0; k < 2; ++k) {
        const int which = (pair + k) % 2;
        glFinish();
        const auto start = std::chrono::steady_clock::now();
        (*works[which])();
        glFinish();
        ms[which].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      }
  }
  if (glGetError() != GL_NO_ERROR) return out;
  out.base_ms = median_of(ms[0]);
  out.candidate_ms = median_of(ms[1]);
  return out;
}

}  // namespace fftscope::detail
