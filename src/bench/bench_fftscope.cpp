// fftscope's own backends in the sweep, through the same Backend interface the GUI uses. A run's
// time is its span (BackendOptions::time_spans), as the sweep times the libraries around their
// whole call: on OpenCL between two markers, the fast path's dispatches enqueued without
// profiling events as the libraries' are (on the H100 the events cost a 4096^2 transform 10 us of
// GPU time, a 256^2 one 12); on GL one GL_TIME_ELAPSED query around the fast path's dispatches,
// which then have no query each (the sum of per-dispatch queries read 15.9 us at 256^2 where one
// query around both read 13.6, 300.6 against 298.5 at 4096^2), host-measured where the driver
// gives no GPU time (marked so in the timer column). The teaching variants keep their
// per-dispatch records (on GL with no span: their time is the sum of their dispatches).
#include <cstdio>
#include <map>
#include <stdexcept>

#include "backend/backend.h"
#include "bench/bench.h"

namespace fftscope::bench::detail {

FftscopeRuns fftscope_runs(const std::vector<TimingRecord>& records) {
  std::map<std::uint64_t, double> dispatches, spans;  // by execution, in order
  FftscopeRuns runs;
  for (const TimingRecord& r : records) {
    if (r.execution == 0) continue;
    runs.host_measured = runs.host_measured || r.host_measured;
    if (r.kernel == transform_span_kernel) {
      spans[r.execution] = r.milliseconds;
      runs.span_note = r.note;
      continue;
    }
    dispatches[r.execution] += r.milliseconds;
  }
  // With spans the fast paths' dispatches record nothing (BackendOptions::time_spans).
  runs.spans = !spans.empty();
  for (const auto& [execution, ms] : runs.spans ? spans : dispatches) {
    runs.ms.push_back(ms);
    runs.dispatch_ms.push_back(dispatches.count(execution) ? dispatches[execution] : 0.0);
  }
  return runs;
}

std::string fftscope_timer(const FftscopeRuns& runs, std::size_t first_measured) {
  if (!runs.spans)
    return runs.host_measured ? "host clock around each dispatch (driver timer unusable)" : "GPU timers, sum of dispatches";
  std::string text = runs.host_measured ? std::string("host clock around each transform (driver timer unusable)")
                                        : "span of each transform: " + runs.span_note;
  std::vector<double> sums;
  for (std::size_t i = first_measured; i < runs.dispatch_ms.size(); ++i)
    if (runs.dispatch_ms[i] > 0) sums.push_back(runs.dispatch_ms[i]);
  if (sums.empty()) return text + " (its dispatches untimed)";
  char sum[64];
  std::snprintf(sum, sizeof sum, " (sum of its dispatches: %.1f us)", median(sums) * 1000.0);
  return text + sum;
}

namespace {

class FftscopeImplementation final : public Implementation {
 public:
  FftscopeImplementation(const std::string& backend, const std::string& variant, BenchSize size,
                         const std::string& cl_device, bool measure_fast_plans)
      : plan_(make_plan_2d(size.width, size.height)),
        variant_(parse_variant(variant)),
        planning_(measure_fast_plans && variant_ == KernelVariant::fast ? "; plans measured at prepare" : "") {
    BackendOptions options;
    options.cl_device = cl_device;
    options.time_spans = true;
    options.measure_fast_plans = measure_fast_plans;
    backend_ = make_backend(parse_backend(backend), options);
    backend_->prepare(plan_, variant_);
  }
  std::string device() const override { return backend_->device_name(); }
  std::string timer() const override { return timer_ + planning_; }
  std::string plan() const override { return backend_->fast_plan_description(); }
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
    backend_->finish();  // every timer is ready after it (Backend::finish: why not download)
    FftscopeRuns all = fftscope_runs(backend_->take_timings());
    if (all.ms.size() != static_cast<std::size_t>(2 * runs))
      throw std::runtime_error("fftscope: expected timings of " + std::to_string(2 * runs) + " executions, got " +
                               std::to_string(all.ms.size()));
    // Executions alternate forward, inverse; keep the measured forward ones.
    FftscopeRuns forward = all;
    forward.ms.clear();
    forward.dispatch_ms.clear();
    std::vector<double> us;
    for (std::size_t i = 0; i < all.ms.size(); i += 2) {
      forward.ms.push_back(all.ms[i]);
      forward.dispatch_ms.push_back(all.dispatch_ms[i]);
      if (i / 2 >= static_cast<std::size_t>(warmup)) us.push_back(all.ms[i] * 1000.0);
    }
    timer_ = fftscope_timer(forward, static_cast<std::size_t>(warmup));
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
  std::string timer_ = "GPU timers";
  std::string planning_;  // said after the timer where the fast plans were measured
};

}  // namespace

std::unique_ptr<Implementation> make_fftscope(const std::string& backend, const std::string& variant, BenchSize size,
                                              const std::string& cl_device, bool measure_fast_plans) {
  return std::make_unique<FftscopeImplementation>(backend, variant, size, cl_device, measure_fast_plans);
}

}  // namespace fftscope::bench::detail
