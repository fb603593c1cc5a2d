// fftscope's own backends in the sweep, through the same Backend interface the GUI uses. A run's
// time is the sum of its dispatches' GPU timer records (host-measured where the driver gives no
// GPU time, and then marked so in the timer column): launch gaps between dispatches are not in it.
#include <map>
#include <stdexcept>

#include "backend/backend.h"
#include "bench/bench.h"

namespace fftscope::bench::detail {
namespace {

class FftscopeImplementation final : public Implementation {
 public:
  FftscopeImplementation(const std::string& backend, const std::string& variant, BenchSize size,
                         const std::string& cl_device)
      : plan_(make_plan_2d(size.width, size.height)), variant_(parse_variant(variant)) {
    BackendOptions options;
    options.cl_device = cl_device;
    backend_ = make_backend(parse_backend(backend), options);
    backend_->prepare(plan_, variant_);
  }
  std::string device() const override { return backend_->device_name(); }
  std::string timer() const override {
    return host_measured_ ? "host clock around each dispatch (driver timer unusable)" : "GPU timers, sum of dispatches";
  }
  void upload(const ComplexImage& input) override {
    input_ = input;
    backend_->upload(input);
  }
  std::vector<double> time_runs(int warmup, int repeats) override {
    backend_->take_timings();
    // Each timed forward transform is followed by an untimed inverse (scaled by 1/N), which brings
    // the data back to the input without the host stepping in between runs.
    const int runs = warmup + repeats;
    for (int i = 0; i < runs; ++i) {
      backend_->execute(Direction::forward);
      backend_->execute(Direction::inverse);
    }
    backend_->download();  // waits for the device: every timer is ready after it
    std::map<std::uint64_t, double> ms_by_execution;
    for (const TimingRecord& r : backend_->take_timings()) {
      if (r.execution == 0) continue;
      ms_by_execution[r.execution] += r.milliseconds;
      host_measured_ = host_measured_ || r.host_measured;
    }
    if (ms_by_execution.size() != static_cast<std::size_t>(2 * runs))
      throw std::runtime_error("fftscope: expected timings of " + std::to_string(2 * runs) + " executions, got " +
                               std::to_string(ms_by_execution.size()));
    std::vector<double> us;
    int index = 0;
    for (const auto& [execution, ms] : ms_by_execution) {
      // Executions alternate forward, inverse; keep the measured forward ones.
      if (index % 2 == 0 && index / 2 >= warmup) us.push_back(ms * 1000.0);
      ++index;
    }
    return us;
  }
  ComplexImage result() override {
    backend_->upload(input_);
    backend_->execute(Direction::forward);
    ComplexImage out = backend_->download();
    backend_->take_timings();
    return out;
  }

 private:
  Plan2D plan_;
  KernelVariant variant_;
  std::unique_ptr<Backend> backend_;
  ComplexImage input_;
  bool host_measured_ = false;
};

}  // namespace

std::unique_ptr<Implementation> make_fftscope(const std::string& backend, const std::string& variant, BenchSize size,
                                              const std::string& cl_device) {
  return std::make_unique<FftscopeImplementation>(backend, variant, size, cl_device);
}

}  // namespace fftscope::bench::detail
