// FFTW on the CPU, single precision, timed by the host clock. Planned as its users plan for
// repeated transforms (FFTW_MEASURE), once on one thread and once on all hardware threads, keeping
// the faster: FFTW_ESTIMATE on 16 threads (the H200 machine, thirty-sixth session) took 2.9 ms at
// 256^2 and 102 ms at 4096^2; on a 2-core machine FFTW_MEASURE ran 3x faster than FFTW_ESTIMATE
// at 256^2 to 2048^2, and a second thread made 256^2 slower (docs/performance.md). Each plan gets
// SweepOptions::fftw_planning_ms, and the entry says where the planning reached that limit: given
// 10 s, the H200's FFTW_MEASURE ran at FFTW_ESTIMATE's speed at 4096^2 (102 ms) and 8192^2 (664
// ms); given 60 s, its planning ended by itself and ran 11.9 and 82.1 ms (thirty-eighth session).
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <vector>

#include "bench/bench.h"

namespace fftscope::bench::detail {
namespace {

std::mutex planner_mutex;  // FFTW's planner is not thread-safe
// The (height, width, threads) plans whose planning reached its limit in this process: FFTW's
// wisdom hands a later plan of the same transform what that planning found, at once.
std::set<std::tuple<std::size_t, std::size_t, int>> plans_cut_short;

class FftwImplementation final : public Implementation {
 public:
  FftwImplementation(BenchSize size, int planning_ms) : size_(size), planning_seconds_(planning_ms / 1000.0) {
    const std::size_t n = size.width * size.height;
    data_ = static_cast<fftwf_complex*>(fftwf_malloc(sizeof(fftwf_complex) * n));
    if (!data_) throw std::runtime_error("FFTW: out of memory");
    std::lock_guard lock(planner_mutex);
    static const bool threads_ready = fftwf_init_threads() != 0;
    const int all_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Measuring overwrites the array; planning is not timed, but a large size's measuring could
    // outlast the sweep, so each plan gets about planning_seconds_ (past it, FFTW plans the rest
    // of the transform by estimate; it does not say whether it did, so the planning's own time
    // tells).
    fftwf_set_timelimit(planning_seconds_);
    double best_us = 0;
    std::vector<int> thread_counts{1};
    if (threads_ready && all_threads > 1) thread_counts.push_back(all_threads);
    for (const int threads : thread_counts) {
      if (threads_ready) fftwf_plan_with_nthreads(threads);
      const auto planning_start = std::chrono::steady_clock::now();
      fftwf_plan plan = fftwf_plan_dft_2d(static_cast<int>(size.height), static_cast<int>(size.width), data_, data_,
                                          FFTW_FORWARD, FFTW_MEASURE);
      const auto problem = std::tuple{size.height, size.width, threads};
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - planning_start).count() >= planning_seconds_)
        plans_cut_short.insert(problem);
      const bool reached_limit = plans_cut_short.count(problem) != 0;
      if (!plan) continue;
      std::memset(static_cast<void*>(data_), 0, sizeof(fftwf_complex) * n);
      const double us = median_us(plan);
      if (!plan_ || us < best_us) {
        if (plan_) fftwf_destroy_plan(plan_);
        plan_ = plan;
        threads_ = threads;
        planning_reached_limit_ = reached_limit;
        best_us = us;
      } else {
        fftwf_destroy_plan(plan);
      }
    }
    fftwf_set_timelimit(FFTW_NO_TIMELIMIT);
    if (!plan_) {
      fftwf_free(data_);
      throw std::runtime_error("FFTW: could not plan");
    }
  }
  ~FftwImplementation() override {
    fftwf_destroy_plan(plan_);
    fftwf_free(data_);
  }
  std::string device() const override {
    std::string text = "CPU, " + std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads") + ", FFTW_MEASURE";
    if (planning_reached_limit_) {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", planning_seconds_);
      text += std::string(", planning stopped at its ") + limit + " s limit";
    }
    return text;
  }
  std::string timer() const override { return "host clock"; }
  void upload(const ComplexImage& input) override { pristine_ = input; }
  std::vector<double> time_runs(int warmup, int repeats) override {
    std::vector<double> us;
    for (int i = 0; i < warmup + repeats; ++i) {
      restore();
      const double t = execute_us(plan_);
      if (i >= warmup) us.push_back(t);
    }
    return us;
  }
  ComplexImage result() override {
    restore();
    fftwf_execute(plan_);
    ComplexImage out(size_.width, size_.height);
    std::memcpy(static_cast<void*>(out.data.data()), data_, sizeof(fftwf_complex) * out.data.size());
    return out;
  }

 private:
  static double execute_us(fftwf_plan plan) {
    const auto t0 = std::chrono::steady_clock::now();
    fftwf_execute(plan);
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  }
  // The median of enough runs to fill about 50 ms (3 to 51): small sizes' single runs vary by
  // more than one thread count from the other.
  static double median_us(fftwf_plan plan) {
    const double first_us = std::max(1.0, execute_us(plan));
    const int runs = static_cast<int>(std::clamp(50'000.0 / first_us, 3.0, 51.0));
    std::vector<double> us;
    for (int i = 0; i < runs; ++i) us.push_back(execute_us(plan));
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
  }
  void restore() { std::memcpy(data_, pristine_.data.data(), sizeof(fftwf_complex) * pristine_.data.size()); }

  BenchSize size_;
  ComplexImage pristine_;
  fftwf_complex* data_ = nullptr;
  fftwf_plan plan_ = nullptr;
  double planning_seconds_;
  int threads_ = 1;
  bool planning_reached_limit_ = false;
};

}  // namespace

std::unique_ptr<Implementation> make_fftw(BenchSize size, int planning_ms) {
  return std::make_unique<FftwImplementation>(size, planning_ms);
}

}  // namespace fftscope::bench::detail
