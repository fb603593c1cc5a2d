// The real-input display entries of the sweep (issue 6), fftscope's side: a real image in, the
// shifted log-magnitude display out, through Backend::execute_real_display. A run's time is
// taken as for fftscope's complex entries (fftscope_runs: OpenCL markers around the run, one
// GL_TIME_ELAPSED query around it on GL); its dispatches record nothing then (each one's time:
// the window's timers panel, or `bench --backend gl|cl --real-display`).
#include <fftw3.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "backend/backend.h"
#include "bench/bench.h"
#include "core/preprocess.h"
#include "core/timing.h"

namespace fftscope::bench::detail {
namespace {

class FftscopeDisplay final : public Implementation {
 public:
  FftscopeDisplay(const std::string& backend, BenchSize size, const std::string& cl_device, bool measure_fast_plans)
      : size_(size), settings_(fixed_range_settings(size.width, size.height)), timer_note_(measure_fast_plans ? "; plans measured at prepare" : "") {
    BackendOptions options;
    options.cl_device = cl_device;
    options.time_spans = true;
    options.measure_fast_plans = measure_fast_plans;
    backend_ = make_backend(parse_backend(backend), options);
    const RealDisplayPath path = backend_->real_display_path(size.width, size.height);
    if (path == RealDisplayPath::none)
      throw std::runtime_error("fftscope " + backend + ": no real display path");
    // Sizes the fused passes do not plan (a prime factor above 13) take the routed passes (or,
    // where those do not plan either, the complex transform and the display kernels), timed as
    // one span all the same.
    if (path == RealDisplayPath::routed)
      timer_note_ += "; routed (the complex path's routes on the half spectrum, then a colouring pass)";
    if (path == RealDisplayPath::fallback) timer_note_ += "; the complex fallback (transform, then display kernels)";
    // FFTSCOPE_BENCH_DISPLAY_AUTO=1: auto range (previous frame's, atomics in the column pass).
    if (const char* env = std::getenv("FFTSCOPE_BENCH_DISPLAY_AUTO"); env && std::string(env) == "1")
      settings_.auto_range = true;
  }
  std::string device() const override { return backend_->device_name(); }
  std::string timer() const override { return timer_ + timer_note_; }
  void upload(const ComplexImage& input) override { backend_->upload_real(crop_real(input, input.width, input.height)); }
  std::vector<double> time_runs(int warmup, int repeats) override {
    backend_->take_timings();
    const int runs = warmup + repeats;
    for (int i = 0; i < runs; ++i) backend_->execute_real_display(settings_, true);
    backend_->finish();  // every timer is ready after it (Backend::finish: why not a download)
    const FftscopeRuns all = fftscope_runs(backend_->take_timings());
    if (all.ms.size() != static_cast<std::size_t>(runs))
      throw std::runtime_error("fftscope display: expected timings of " + std::to_string(runs) + " executions, got " +
                               std::to_string(all.ms.size()));
    timer_ = fftscope_timer(all, static_cast<std::size_t>(warmup));
    std::vector<double> us;
    for (std::size_t i = static_cast<std::size_t>(warmup); i < all.ms.size(); ++i) us.push_back(all.ms[i] * 1000.0);
    return us;
  }
  ComplexImage result() override { throw std::logic_error("fftscope display: no complex result (use self_check)"); }
  std::optional<double> self_check(const ComplexImage& input) override {
    backend_->execute_real_display(settings_);
    const RgbaImage got = backend_->download_real_display();
    backend_->take_timings();
    return display_error(got, input, settings_);
  }

 private:
  BenchSize size_;
  SpectrumSettings settings_;
  std::unique_ptr<Backend> backend_;
  std::string timer_ = "GPU timers";
  std::string timer_note_;  ///< said after the timer: plans measured at prepare, the fallback path
};

}  // namespace

double display_error(const RgbaImage& got, const ComplexImage& input, const SpectrumSettings& settings) {
  const std::size_t w = input.width, h = input.height, n = w * h;
  if (got.width != w || got.height != h || got.data.size() != n * 4) return 1.0;
  auto* buf = static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * n));
  for (std::size_t i = 0; i < n; ++i) {
    buf[i][0] = input.data[i].real();
    buf[i][1] = 0.0;
  }
  fftw_plan plan = fftw_plan_dft_2d(static_cast<int>(h), static_cast<int>(w), buf, buf, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  ComplexImage spectrum(w, h);
  for (std::size_t i = 0; i < n; ++i)
    spectrum.data[i] = {static_cast<float>(buf[i][0]), static_cast<float>(buf[i][1])};
  fftw_free(buf);
  const RgbaImage want = render_spectrum(spectrum, settings);
  // Colour index of each table entry (first occurrence), to compare colours as map steps.
  std::map<std::array<std::uint8_t, 3>, int> index;
  const auto& table = colormap_table(settings.colormap);
  for (int i = 255; i >= 0; --i) index[table[static_cast<std::size_t>(i)]] = i;
  std::size_t off = 0;
  for (std::size_t p = 0; p < n; ++p) {
    const auto a = index.find({got.data[4 * p], got.data[4 * p + 1], got.data[4 * p + 2]});
    const auto b = index.find({want.data[4 * p], want.data[4 * p + 1], want.data[4 * p + 2]});
    if (a == index.end() || b == index.end() || std::abs(a->second - b->second) > 1 || got.data[4 * p + 3] != 255) ++off;
  }
  return static_cast<double>(off) / static_cast<double>(n);
}

std::unique_ptr<Implementation> make_fftscope_display(const std::string& backend, BenchSize size,
                                                      const std::string& cl_device, bool measure_fast_plans) {
  return std::make_unique<FftscopeDisplay>(backend, size, cl_device, measure_fast_plans);
}

}  // namespace fftscope::bench::detail
