// fftscope's own backends in the sweep, through the same Backend interface the GUI uses. A run's
// time is the sum of its dispatches' GPU timer records (host-measured where the driver gives no
// GPU time, and then marked so in the timer column).
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
    backend_->upload(input);
    backend_->take_timings();
  }
  double run_us() override {
    backend_->execute(Direction::forward);
    // Reading back is the only portable synchronisation point; the copy is outside the timers.
    last_ = backend_->download();
    double ms = 0;
    for (const TimingRecord& r : backend_->take_timings()) {
      ms += r.milliseconds;
      host_measured_ = host_measured_ || r.host_measured;
    }
    return ms * 1000.0;
  }
  ComplexImage result() override { return last_; }

 private:
  Plan2D plan_;
  KernelVariant variant_;
  std::unique_ptr<Backend> backend_;
  ComplexImage last_;
  bool host_measured_ = false;
};

}  // namespace

std::unique_ptr<Implementation> make_fftscope(const std::string& backend, const std::string& variant, BenchSize size,
                                              const std::string& cl_device) {
  return std::make_unique<FftscopeImplementation>(backend, variant, size, cl_device);
}

}  // namespace fftscope::bench::detail
