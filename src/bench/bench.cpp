#include "bench/bench.h"

#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/errors.h"
#include "core/json.h"
#include "core/timing.h"

namespace fftscope::bench {

std::vector<BenchSize> default_sweep_sizes() {
  std::vector<BenchSize> sizes;
  for (std::size_t n = 256; n <= 8192; n *= 2) sizes.push_back({n, n});
  for (std::size_t n : {1000, 2187, 2401, 3125, 4000}) sizes.push_back({n, n});
  sizes.push_back({1920, 1080});
  sizes.push_back({4099, 4099});  // prime: Bluestein on both axes
  return sizes;
}

std::vector<std::string> implementation_names() {
  std::vector<std::string> names;
  for (const char* backend : {"gl", "cl"})
    for (const char* variant : {"fast", "fused", "optimized", "plain"})
      names.push_back(std::string("fftscope-") + backend + "-" + variant);
  for (const char* lib : {"cufft", "vkfft-opencl", "clfft", "fftw", copy_reference}) names.push_back(lib);
  for (const char* display : {"fftscope-gl-display", "fftscope-cl-display", "cufft-r2c-display"})
    names.push_back(display);
  return names;
}

namespace {

std::unique_ptr<detail::Implementation> make_implementation(const std::string& name, BenchSize size,
                                                            const SweepOptions& options) {
  if (name == "fftscope-gl-display" || name == "fftscope-cl-display")
    return detail::make_fftscope_display(name.substr(9, 2), size, options.cl_device, options.measure_fast_plans);
  if (name == "cufft-r2c-display") return detail::make_cufft_r2c_display(size);
  if (name.rfind("fftscope-", 0) == 0) {
    const std::string rest = name.substr(9);
    const auto dash = rest.find('-');
    const std::string variant = dash == std::string::npos ? "fused" : rest.substr(dash + 1);
    return detail::make_fftscope(rest.substr(0, dash), variant, size, options.cl_device, options.measure_fast_plans);
  }
  if (name == "cufft") return detail::make_cufft(size);
  if (name == "vkfft-opencl") return detail::make_vkfft(size, options.cl_device);
  if (name == "clfft") return detail::make_clfft(size, options.cl_device);
  if (name == "fftw") return detail::make_fftw(size, options.fftw_planning_ms);
  if (name == copy_reference) return detail::make_cl_copy(size, options.cl_device);
  throw UsageError("unknown implementation '" + name + "'");
}

ComplexImage random_input(BenchSize size, std::uint64_t seed) {
  ComplexImage image(size.width, size.height);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (Complex& c : image.data) c = {dist(rng), dist(rng)};
  return image;
}

std::vector<std::complex<double>> fftw_double_reference(const ComplexImage& input) {
  const std::size_t n = input.data.size();
  auto* buf = static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * n));
  for (std::size_t i = 0; i < n; ++i) {
    buf[i][0] = input.data[i].real();
    buf[i][1] = input.data[i].imag();
  }
  static const bool threads_ready = fftw_init_threads() != 0;
  if (threads_ready) fftw_plan_with_nthreads(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  fftw_plan plan = fftw_plan_dft_2d(static_cast<int>(input.height), static_cast<int>(input.width), buf, buf,
                                    FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  std::vector<std::complex<double>> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = {buf[i][0], buf[i][1]};
  fftw_free(buf);
  return out;
}

double relative_error(const ComplexImage& got, const std::vector<std::complex<double>>& ref) {
  if (got.data.size() != ref.size()) return INFINITY;
  double num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    num += std::norm(std::complex<double>(got.data[i]) - ref[i]);
    den += std::norm(ref[i]);
  }
  return std::sqrt(num / den);
}

// Batches of 8 runs (not the entry's), by their fastest.
void warm_entry(detail::Implementation& impl, int min_ms) {
  warm_device(
      [&impl] {
        const std::vector<double> batch = impl.time_runs(0, 8);
        return batch.empty() ? 0.0 : *std::min_element(batch.begin(), batch.end());
      },
      min_ms);
}

BenchEntry measure(const std::string& name, BenchSize size, const ComplexImage& input,
                   const std::vector<std::complex<double>>* reference, const SweepOptions& options) {
  BenchEntry e;
  e.implementation = name;
  e.size = size;
  try {
    auto impl = make_implementation(name, size, options);
    e.device = impl->device();
    impl->upload(input);
    warm_entry(*impl, options.warmup_ms);
    const std::vector<double> times = impl->time_runs(options.warmup, options.repeats);
    e.timer = impl->timer();
    e.plan = impl->plan();
    e.repeats = times.size();
    e.median_us = median(times);
    e.min_us = *std::min_element(times.begin(), times.end());
    e.max_us = *std::max_element(times.begin(), times.end());
    const double n = static_cast<double>(size.width) * static_cast<double>(size.height);
    // One read and one write of the complex64 array per axis pass (the copy: one of each).
    const bool copy = name == copy_reference;
    const double bytes = (copy ? 2.0 : 4.0) * n * sizeof(Complex);
    e.bandwidth_gbs = e.median_us > 0 ? bytes / (e.median_us * 1e3) : 0;
    e.gflops = e.median_us > 0 && !copy ? 5.0 * n * std::log2(n) / (e.median_us * 1e3) : 0;
    if (reference) {
      const auto own = impl->self_check(input);  // the display entries: fraction of pixels off
      e.rel_error = own ? *own : relative_error(impl->result(), *reference);
    }
    e.available = true;
  } catch (const std::exception& ex) {
    e.available = false;
    e.reason = ex.what();
  }
  return e;
}


}  // namespace

namespace detail {

BenchEntry merge_rounds(const std::vector<BenchEntry>& rounds) {
  if (rounds.empty()) throw std::invalid_argument("merge_rounds: no rounds");
  for (const BenchEntry& r : rounds)
    if (!r.available) return r;
  std::vector<std::size_t> order(rounds.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rounds[a].median_us < rounds[b].median_us; });
  BenchEntry kept = rounds[order[(order.size() - 1) / 2]];
  kept.round_medians_us.clear();
  for (const BenchEntry& r : rounds) {
    kept.round_medians_us.push_back(r.median_us);
    kept.rel_error = std::max(kept.rel_error, r.rel_error);
  }
  return kept;
}

}  // namespace detail

std::vector<BenchEntry> run_sweep(const SweepOptions& options,
                                  const std::function<void(const std::vector<BenchEntry>&)>& progress) {
  const std::vector<std::string> names = options.implementations.empty() ? implementation_names() : options.implementations;
  const std::size_t rounds = static_cast<std::size_t>(std::max(1, options.rounds));
  std::vector<BenchEntry> entries;
  std::uint64_t seed = 1;
  for (const BenchSize& size : options.sizes) {
    const ComplexImage input = random_input(size, seed++);
    std::vector<std::complex<double>> reference;
    if (options.check_errors) reference = fftw_double_reference(input);
    // Round after round of every implementation, so that what disturbs one stretch of time
    // (the clocks, another process) does not fall on every round of one implementation.
    std::vector<std::vector<BenchEntry>> measured(names.size());
    for (std::size_t round = 0; round < rounds; ++round)
      for (std::size_t i = 0; i < names.size(); ++i)
        measured[i].push_back(measure(names[i], size, input, options.check_errors ? &reference : nullptr, options));
    for (const auto& rounds_of_one : measured) {
      entries.push_back(detail::merge_rounds(rounds_of_one));
      if (progress) progress(entries);
    }
  }
  return entries;
}

std::string sweep_to_json(const std::vector<BenchEntry>& entries, double copy_bandwidth_gbs) {
  std::ostringstream out;
  out << std::setprecision(6);
  out << "{\n  \"copy_bandwidth_gbs\": " << copy_bandwidth_gbs << ",\n  \"entries\": [";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const BenchEntry& e = entries[i];
    out << (i ? "," : "") << "\n    {\"implementation\": " << json_string(e.implementation) << ", \"device\": "
        << json_string(e.device) << ", \"width\": " << e.size.width << ", \"height\": " << e.size.height
        << ", \"available\": " << (e.available ? "true" : "false");
    if (e.available) {
      out << ", \"timer\": " << json_string(e.timer) << ", \"repeats\": " << e.repeats
          << ", \"median_us\": " << e.median_us << ", \"min_us\": " << e.min_us << ", \"max_us\": " << e.max_us
          << ", \"bandwidth_gbs\": " << e.bandwidth_gbs << ", \"gflops\": " << e.gflops
          << ", \"rel_error\": " << e.rel_error;
      if (!e.plan.empty()) out << ", \"plan\": " << json_string(e.plan);
      if (e.round_medians_us.size() > 1) {
        out << ", \"round_medians_us\": [";
        for (std::size_t r = 0; r < e.round_medians_us.size(); ++r) out << (r ? ", " : "") << e.round_medians_us[r];
        out << "]";
      }
    } else {
      out << ", \"reason\": " << json_string(e.reason);
    }
    out << "}";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

std::string sweep_to_table(const std::vector<BenchEntry>& entries) {
  std::map<std::pair<std::size_t, std::size_t>, double> cufft;
  for (const BenchEntry& e : entries)
    if (e.available && e.implementation == "cufft") cufft[{e.size.width, e.size.height}] = e.median_us;
  // The real-input display entries compare with cuFFT's R2C + display pass instead.
  std::map<std::pair<std::size_t, std::size_t>, double> cufft_display;
  for (const BenchEntry& e : entries)
    if (e.available && e.implementation == "cufft-r2c-display") cufft_display[{e.size.width, e.size.height}] = e.median_us;
  std::map<std::pair<std::size_t, std::size_t>, double> copies;
  for (const BenchEntry& e : entries)
    if (e.available && e.implementation == copy_reference) copies[{e.size.width, e.size.height}] = 2 * e.median_us;
  std::ostringstream out;
  out << std::left << std::setw(12) << "size" << std::setw(24) << "implementation" << std::right << std::setw(12)
      << "median us" << std::setw(10) << "GB/s" << std::setw(10) << "GFLOP/s" << std::setw(11) << "x cuFFT"
      << std::setw(13) << "x 2 copies" << std::setw(11) << "rel err" << "\n";
  for (const BenchEntry& e : entries) {
    std::ostringstream size;
    size << e.size.width << "x" << e.size.height;
    out << std::left << std::setw(12) << size.str() << std::setw(24) << e.implementation << std::right;
    if (!e.available) {
      out << "  unavailable: " << e.reason << "\n";
      continue;
    }
    out << std::fixed << std::setprecision(1) << std::setw(12) << e.median_us << std::setw(10) << e.bandwidth_gbs
        << std::setw(10) << e.gflops;
    const bool display = e.implementation.size() > 8 && e.implementation.ends_with("-display");
    const bool copy = e.implementation == copy_reference;
    const auto& base = display ? cufft_display : cufft;
    const auto it = base.find({e.size.width, e.size.height});
    if (!copy && it != base.end() && it->second > 0)
      out << std::setprecision(2) << std::setw(11) << e.median_us / it->second;
    else
      out << std::setw(11) << "-";
    // Against two passes at the copy bandwidth of the same run (complex transforms only).
    const auto two = copies.find({e.size.width, e.size.height});
    if (!copy && !display && two != copies.end() && two->second > 0)
      out << std::setprecision(2) << std::setw(13) << e.median_us / two->second;
    else
      out << std::setw(13) << "-";
    out << std::scientific << std::setprecision(1) << std::setw(11) << e.rel_error << std::defaultfloat << "\n";
  }
  return out.str();
}

}  // namespace fftscope::bench
