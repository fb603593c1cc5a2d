#include "core/plan.h"

#include <cassert>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/cpu_fft.h"
#include "core/errors.h"

namespace fftscope {

std::vector<std::uint32_t> Plan1D::radices() const {
  std::vector<std::uint32_t> r;
  r.reserve(stages.size());
  for (const RadixStage& s : stages) r.push_back(s.radix);
  return r;
}

bool Plan1D::uses_bluestein() const {
  for (const RadixStage& s : stages)
    if (s.kind == StageKind::bluestein) return true;
  return false;
}

std::vector<std::uint32_t> factorize(std::size_t n, const PlanOptions& options) {
  if (n == 0) throw UsageError("FFT length must be at least 1");
  if (n > 0xFFFFFFFFu / 16) throw UsageError("FFT length " + std::to_string(n) + " is too large");
  const std::uint32_t p2 = options.max_power_of_two_radix;
  if (p2 != 2 && p2 != 4 && p2 != 8) throw UsageError("max power-of-two radix must be 2, 4 or 8");

  std::vector<std::uint32_t> radices;
  int twos = 0;
  while (n % 2 == 0) {
    n /= 2;
    ++twos;
  }
  const int p2_log = p2 == 8 ? 3 : p2 == 4 ? 2 : 1;
  for (; twos >= p2_log; twos -= p2_log) radices.push_back(p2);
  // The leftover power of two (less than p2) becomes one stage.
  if (twos > 0) radices.push_back(1u << twos);

  for (std::uint32_t p : {3u, 5u, 7u, 11u, 13u}) {
    while (n % p == 0) {
      radices.push_back(p);
      n /= p;
    }
  }
  // What is left has only prime factors above 13: each becomes one Bluestein stage.
  for (std::size_t p = 17; p * p <= n; p += 2) {
    while (n % p == 0) {
      radices.push_back(static_cast<std::uint32_t>(p));
      n /= p;
    }
  }
  if (n > 1) radices.push_back(static_cast<std::uint32_t>(n));
  return radices;
}

std::uint32_t map_n_to_k(std::uint32_t n, std::uint32_t nx_span, std::uint32_t ny) {
  const std::uint64_t ni = std::uint64_t{nx_span} * ny;
  const std::uint64_t k = (std::uint64_t{n} * ny) % ni + (n / nx_span) % ny + ni * (n / ni);
  return static_cast<std::uint32_t>(k);
}

std::uint32_t map_k_to_n(std::uint32_t k, std::uint32_t nx_span, std::uint32_t ny) {
  const std::uint64_t ni = std::uint64_t{nx_span} * ny;
  const std::uint64_t ky = k % ny;
  const std::uint64_t kx = k / ny;
  return static_cast<std::uint32_t>((kx % nx_span) + (kx / nx_span) * ni + ky * nx_span);
}

std::vector<std::uint32_t> digit_reverse_table(const std::vector<std::uint32_t>& radices) {
  std::uint64_t n_total = 1;
  for (std::uint32_t r : radices) n_total *= r;
  std::vector<std::uint32_t> table(n_total);
  for (std::uint32_t n = 0; n < n_total; ++n) {
    std::uint32_t k = n;
    if (!radices.empty()) {
      std::uint32_t nx = radices[0];
      for (std::size_t s = 1; s < radices.size(); ++s) {
        k = map_n_to_k(k, nx, radices[s]);
        nx *= radices[s];
      }
    }
    table[n] = k;
  }
  return table;
}

std::vector<std::uint32_t> mixed_radix_digits(std::uint32_t i, const std::vector<std::uint32_t>& radices) {
  std::vector<std::uint32_t> digits;
  digits.reserve(radices.size());
  for (std::uint32_t r : radices) {
    digits.push_back(i % r);
    i /= r;
  }
  return digits;
}

namespace {

std::uint32_t next_power_of_two(std::uint64_t v) {
  std::uint64_t p = 1;
  while (p < v) p <<= 1;
  return static_cast<std::uint32_t>(p);
}

}  // namespace

BluesteinTables make_bluestein_tables(std::uint32_t p, std::uint32_t m) {
  BluesteinTables t;
  t.m = m;
  t.chirp.resize(p);
  for (std::uint64_t j = 0; j < p; ++j) {
    // j^2 mod 2p keeps the angle small, so the chirp stays accurate for large p.
    const double angle = -std::numbers::pi * static_cast<double>((j * j) % (2ull * p)) / p;
    t.chirp[j] = std::polar(1.0, angle);
  }
  std::vector<std::complex<double>> b(t.m, 0.0);
  b[0] = std::conj(t.chirp[0]);
  for (std::uint32_t j = 1; j < p; ++j) {
    b[j] = std::conj(t.chirp[j]);
    b[t.m - j] = std::conj(t.chirp[j]);
  }
  auto inner = std::make_shared<Plan1D>(make_plan(t.m));
  std::vector<std::complex<double>> scratch(t.m);
  cpu::transform_row<double>(*inner, Direction::forward, b.data(), scratch.data());
  t.filter_spectrum = std::move(b);
  t.inner = std::move(inner);
  return t;
}

Plan1D make_plan(std::size_t n, const PlanOptions& options) {
  Plan1D plan;
  plan.n = n;
  const std::vector<std::uint32_t> radices = factorize(n, options);
  std::uint32_t span = 1;
  for (std::uint32_t r : radices) {
    RadixStage stage;
    stage.radix = r;
    stage.span = span;
    stage.ni = span * r;
    if (r > max_butterfly_radix) {
      stage.kind = StageKind::bluestein;
      stage.bluestein = make_bluestein_tables(r, next_power_of_two(2ull * r - 1));
    }
    plan.stages.push_back(std::move(stage));
    span *= r;
  }
  plan.digit_reverse = digit_reverse_table(radices);
  return plan;
}

Plan2D make_plan_2d(std::size_t width, std::size_t height, const PlanOptions& options) {
  return Plan2D{make_plan(width, options), make_plan(height, options)};
}

std::vector<Twiddle> stage_twiddles(const RadixStage& stage) {
  std::vector<Twiddle> twiddles;
  twiddles.reserve(std::size_t{stage.span} * stage.radix);
  for (std::uint32_t nx = 0; nx < stage.span; ++nx) {
    for (std::uint32_t ky = 0; ky < stage.radix; ++ky) {
      // Reducing nx * ky modulo Ni first keeps the angle in (-2 pi, 0].
      const std::uint64_t prod = (std::uint64_t{nx} * ky) % stage.ni;
      twiddles.push_back({nx, ky, -2.0 * std::numbers::pi * static_cast<double>(prod) / stage.ni});
    }
  }
  return twiddles;
}

Complex twiddle_value(double forward_angle, Direction direction) {
  const double a = direction == Direction::forward ? forward_angle : -forward_angle;
  return {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))};
}

namespace {
const char* kind_name(StageKind kind) { return kind == StageKind::bluestein ? "bluestein" : "butterfly"; }
}  // namespace

std::string describe_plan(const Plan1D& plan, bool with_twiddles) {
  std::ostringstream out;
  out << "N = " << plan.n << ", " << plan.stages.size() << " stage(s), radices:";
  for (const RadixStage& s : plan.stages) out << ' ' << s.radix;
  out << "\n\nstage  radix(Ny)  span(Nx)  Ni        kind\n";
  for (std::size_t i = 0; i < plan.stages.size(); ++i) {
    const RadixStage& s = plan.stages[i];
    out << i << "      " << s.radix << "          " << s.span << "         " << s.ni << "         "
        << kind_name(s.kind);
    if (s.kind == StageKind::bluestein) out << " (convolution length " << s.bluestein.m << ")";
    out << '\n';
  }
  out << "\ndigit-reverse (position n holds input element digit_reverse[n]):\n";
  for (std::size_t i = 0; i < plan.digit_reverse.size(); ++i)
    out << "  " << i << " <- " << plan.digit_reverse[i] << '\n';
  if (with_twiddles) {
    out << "\ntwiddles exp(i * angle), forward angle = -2 pi nx ky / Ni:\n";
    for (std::size_t i = 0; i < plan.stages.size(); ++i) {
      out << "stage " << i << " (Nx = " << plan.stages[i].span << ", Ny = " << plan.stages[i].radix << ")\n";
      for (const Twiddle& t : stage_twiddles(plan.stages[i])) {
        out << "  nx=" << t.nx << " ky=" << t.ky << " angle=" << t.angle << " w=(" << std::cos(t.angle)
            << ", " << std::sin(t.angle) << ")\n";
      }
    }
  }
  return out.str();
}

std::string plan_to_json(const Plan1D& plan) {
  std::ostringstream out;
  out.precision(17);
  out << "{\n  \"n\": " << plan.n << ",\n  \"radices\": [";
  for (std::size_t i = 0; i < plan.stages.size(); ++i) out << (i ? ", " : "") << plan.stages[i].radix;
  out << "],\n  \"stages\": [";
  for (std::size_t i = 0; i < plan.stages.size(); ++i) {
    const RadixStage& s = plan.stages[i];
    out << (i ? "," : "") << "\n    {\"radix\": " << s.radix << ", \"nx\": " << s.span << ", \"ny\": " << s.radix
        << ", \"ni\": " << s.ni << ", \"kind\": \"" << kind_name(s.kind) << "\"";
    if (s.kind == StageKind::bluestein) out << ", \"bluestein_m\": " << s.bluestein.m;
    out << "}";
  }
  out << "\n  ],\n  \"digit_reverse\": [";
  for (std::size_t i = 0; i < plan.digit_reverse.size(); ++i) out << (i ? ", " : "") << plan.digit_reverse[i];
  out << "],\n  \"twiddles\": [";
  for (std::size_t i = 0; i < plan.stages.size(); ++i) {
    out << (i ? "," : "") << "\n    [";
    bool first = true;
    for (const Twiddle& t : stage_twiddles(plan.stages[i])) {
      out << (first ? "" : ", ") << "{\"nx\": " << t.nx << ", \"ky\": " << t.ky << ", \"angle\": " << t.angle
          << ", \"re\": " << std::cos(t.angle) << ", \"im\": " << std::sin(t.angle) << "}";
      first = false;
    }
    out << "]";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

}  // namespace fftscope
