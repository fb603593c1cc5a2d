#include "support/reference.h"

#include <fftw3.h>

#include <cmath>
#include <cstring>
#include <algorithm>
#include <mutex>
#include <numbers>
#include <random>

namespace fftscope::test {
namespace {

// FFTW's planner is not thread-safe; tests may run plans from several threads.
std::mutex fftw_mutex;

std::vector<ComplexD> run_fftw(const std::vector<ComplexD>& input, int rank, const int* dims, Direction direction) {
  const std::size_t n = input.size();
  std::vector<ComplexD> out(n);
  if (n == 0) return out;
  auto* buf = static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * n));
  std::memcpy(buf, input.data(), sizeof(fftw_complex) * n);
  {
    std::lock_guard lock(fftw_mutex);
    fftw_plan plan = fftw_plan_dft(rank, dims, buf, buf, direction == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD,
                                   FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
  }
  std::memcpy(out.data(), buf, sizeof(fftw_complex) * n);
  fftw_free(buf);
  if (direction == Direction::inverse)
    for (auto& v : out) v /= static_cast<double>(n);
  return out;
}

}  // namespace

std::vector<ComplexD> fftw_1d(const std::vector<ComplexD>& input, Direction direction) {
  const int dims[1] = {static_cast<int>(input.size())};
  return run_fftw(input, 1, dims, direction);
}

std::vector<ComplexD> fftw_2d(const std::vector<ComplexD>& input, std::size_t width, std::size_t height,
                              Direction direction) {
  // FFTW is row-major with the last dimension fastest: dims = {height, width}.
  const int dims[2] = {static_cast<int>(height), static_cast<int>(width)};
  return run_fftw(input, 2, dims, direction);
}

std::vector<ComplexD> brute_force_dft(const std::vector<ComplexD>& input, Direction direction) {
  const std::size_t n = input.size();
  std::vector<ComplexD> out(n);
  const long double sign = direction == Direction::forward ? -1.0L : 1.0L;
  for (std::size_t k = 0; k < n; ++k) {
    long double re = 0, im = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const long double a = sign * 2.0L * std::numbers::pi_v<long double> * static_cast<long double>((j * k) % n) / n;
      const long double c = std::cos(a), s = std::sin(a);
      re += input[j].real() * c - input[j].imag() * s;
      im += input[j].real() * s + input[j].imag() * c;
    }
    if (direction == Direction::inverse) {
      re /= n;
      im /= n;
    }
    out[k] = {static_cast<double>(re), static_cast<double>(im)};
  }
  return out;
}

double relative_l2_error(const std::vector<ComplexD>& a, const std::vector<ComplexD>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    num += std::norm(a[i] - b[i]);
    den += std::norm(b[i]);
  }
  if (a.size() != b.size()) return INFINITY;
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

double relative_l2_error(const std::vector<Complex>& a, const std::vector<ComplexD>& b) {
  return relative_l2_error(to_double(a), b);
}

double max_abs_error(const std::vector<Complex>& a, const std::vector<ComplexD>& b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(ComplexD(a[i]) - b[i]));
  return m;
}

double float_fft_tolerance(std::size_t n, bool bluestein) {
  const double eps = std::ldexp(1.0, -24);
  const double bound = 4.0 * eps * (std::log2(static_cast<double>(std::max<std::size_t>(n, 1))) + 1.0);
  return bluestein ? 4.0 * bound : bound;
}

std::vector<ComplexD> random_complex(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<ComplexD> v(n);
  for (auto& x : v) x = {dist(rng), dist(rng)};
  return v;
}

std::vector<Complex> to_float(const std::vector<ComplexD>& v) {
  std::vector<Complex> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = {static_cast<float>(v[i].real()), static_cast<float>(v[i].imag())};
  return out;
}

std::vector<ComplexD> to_double(const std::vector<Complex>& v) {
  std::vector<ComplexD> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = {v[i].real(), v[i].imag()};
  return out;
}

}  // namespace fftscope::test
