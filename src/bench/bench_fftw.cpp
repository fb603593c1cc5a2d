// FFTW on the CPU, single precision, timed by the host clock. Planned as its users plan for
// repeated transforms (FFTW_MEASURE), once on one thread and once on all hardware threads, keeping
// the faster: FFTW_ESTIMATE on 16 threads (the H200 machine, thirty-sixth session) took 2.9 ms at
// 256^2 and 102 ms at 4096^2; on a 2-core machine FFTW_MEASURE ran 3x faster than FFTW_ESTIMATE
// at 256^2 to 2048^2, and a second thread made 256^2 slower (docs/performance.md).
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "bench/bench.h"

namespace fftscope::bench::detail {
namespace {

std::mutex planner_mutex;  // FFTW's planner is not thread-safe

class FftwImplementation final : public Implementation {
 public:
  explicit FftwImplementation(BenchSize size) : size_(size) {
    const std::size_t n = size.width * size.height;
    data_ = static_cast<fftwf_complex*>(fftwf_malloc(sizeof(fftwf_complex) * n));
    if (!data_) throw std::runtime_error("FFTW: out of memory");
    std::lock_guard lock(planner_mutex);
    static const bool threads_ready = fftwf_init_threads() != 0;
    const int all_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Measuring overwrites the array; planning is not timed, but a large size's measuring could
    // outlast the sweep, so each plan gets about this long (past it, FFTW plans the rest of the
    // transform by estimate).
    fftwf_set_timelimit(planning_seconds);
    double best_us = 0;
    std::vector<int> thread_counts{1};
    if (threads_ready && all_threads > 1) thread_counts.push_back(all_threads);
    for (const int threads : thread_counts) {
      if (threads_ready) fftwf_plan_with_nthreads(threads);
      fftwf_plan plan = fftwf_plan_dft_2d(static_cast<int>(size.height), static_cast<int>(size.width), data_, data_,
                                          FFTW_FORWARD, FFTW_MEASURE);
      if (!plan) continue;
      std::memset(static_cast<void*>(data_), 0, sizeof(fftwf_complex) * n);
      const double us = median_us(plan);
      if (!plan_ || us < best_us) {
        if (plan_) fftwf_destroy_plan(plan_);
        plan_ = plan;
        threads_ = threads;
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
    return "CPU, " + std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads") + ", FFTW_MEASURE";
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
  static constexpr double planning_seconds = 10.0;

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
  int threads_ = 1;
};

}  // namespace

std::unique_ptr<Implementation> make_fftw(BenchSize size) { return std::make_unique<FftwImplementation>(size); }

}  // namespace fftscope::bench::detail
