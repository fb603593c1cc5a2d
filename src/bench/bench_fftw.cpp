// FFTW on the CPU, single precision, all hardware threads, timed by the host clock.
#include <fftw3.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

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
    if (threads_ready) fftwf_plan_with_nthreads(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    plan_ = fftwf_plan_dft_2d(static_cast<int>(size.height), static_cast<int>(size.width), data_, data_, FFTW_FORWARD,
                              FFTW_ESTIMATE);
    if (!plan_) throw std::runtime_error("FFTW: could not plan");
  }
  ~FftwImplementation() override {
    fftwf_destroy_plan(plan_);
    fftwf_free(data_);
  }
  std::string device() const override {
    return "CPU, " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads";
  }
  std::string timer() const override { return "host clock"; }
  void upload(const ComplexImage& input) override { pristine_ = input; }
  std::vector<double> time_runs(int warmup, int repeats) override {
    std::vector<double> us;
    for (int i = 0; i < warmup + repeats; ++i) {
      restore();
      const auto t0 = std::chrono::steady_clock::now();
      fftwf_execute(plan_);
      const double t = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
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
  void restore() { std::memcpy(data_, pristine_.data.data(), sizeof(fftwf_complex) * pristine_.data.size()); }

  BenchSize size_;
  ComplexImage pristine_;
  fftwf_complex* data_ = nullptr;
  fftwf_plan plan_ = nullptr;
};

}  // namespace

std::unique_ptr<Implementation> make_fftw(BenchSize size) { return std::make_unique<FftwImplementation>(size); }

}  // namespace fftscope::bench::detail
