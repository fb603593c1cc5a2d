// The plan against independent computations: factor products, the digit-reverse permutation
// from its closed form, twiddle angles, and Bluestein's tables against a brute-force DFT.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/errors.h"
#include "core/plan.h"
#include "support/reference.h"

namespace fftscope {
namespace {

bool is_prime(std::uint64_t p) {
  if (p < 2) return false;
  for (std::uint64_t d = 2; d * d <= p; ++d)
    if (p % d == 0) return false;
  return true;
}

// Closed form of the digit reverse for decimation in time with radices r0 (first stage) ...:
// position n = d0 + r0 (d1 + r1 (d2 + ...)) holds input element sum_s d_s * N / (r0 ... r_s).
std::uint32_t closed_form_digit_reverse(std::uint32_t n, const std::vector<std::uint32_t>& radices) {
  std::uint64_t total = 1;
  for (auto r : radices) total *= r;
  std::uint64_t k = 0, prefix = 1;
  for (auto r : radices) {
    prefix *= r;
    k += (n % r) * (total / prefix);
    n /= r;
  }
  return static_cast<std::uint32_t>(k);
}

TEST(Plan, RadicesMultiplyToNAndAreAllowed) {
  for (std::uint32_t max_p2 : {2u, 4u, 8u}) {
    for (std::size_t n = 1; n <= 5000; ++n) {
      const auto radices = factorize(n, {max_p2});
      std::uint64_t product = 1;
      for (auto r : radices) {
        product *= r;
        const bool small = r == 2 || r == 3 || r == 5 || r == 7 || r == 11 || r == 13 || (r == 4 && max_p2 >= 4) ||
                           (r == 8 && max_p2 == 8);
        EXPECT_TRUE(small || (r > 13 && is_prime(r))) << "n=" << n << " radix " << r;
      }
      EXPECT_EQ(product, n) << "n=" << n;
    }
  }
}

TEST(Plan, SeedsExampleAndDefaults) {
  EXPECT_EQ(factorize(1), std::vector<std::uint32_t>{});
  EXPECT_EQ(factorize(4096), std::vector<std::uint32_t>(6, 4));
  EXPECT_EQ(factorize(4096, {2}), std::vector<std::uint32_t>(12, 2));
  EXPECT_EQ(factorize(8 * 4 * 4 * 3 * 2, {8}), (std::vector<std::uint32_t>{8, 8, 4, 3}));
  EXPECT_EQ(factorize(2 * 1009), (std::vector<std::uint32_t>{2, 1009}));
  EXPECT_THROW(factorize(0), UsageError);
}

TEST(Plan, StageSpansFollowTheSeeds) {
  const Plan1D plan = make_plan(8 * 4 * 4 * 3 * 2, {8});
  std::uint32_t span = 1;
  for (const RadixStage& s : plan.stages) {
    EXPECT_EQ(s.span, span);
    EXPECT_EQ(s.ni, s.span * s.radix);
    span *= s.radix;
  }
  EXPECT_EQ(span, plan.n);
}

TEST(Plan, DigitReverseIsAPermutationAndMatchesClosedForm) {
  for (std::size_t n : {1, 2, 6, 8, 12, 30, 64, 105, 128, 210, 360, 1000, 1024, 2310, 4096, 4913, 2 * 1009}) {
    for (std::uint32_t max_p2 : {2u, 4u, 8u}) {
      const Plan1D plan = make_plan(n, {max_p2});
      const auto radices = plan.radices();
      ASSERT_EQ(plan.digit_reverse.size(), n);
      std::vector<bool> seen(n, false);
      for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t k = plan.digit_reverse[i];
        ASSERT_LT(k, n);
        EXPECT_FALSE(seen[k]) << "n=" << n << " duplicate " << k;
        seen[k] = true;
        EXPECT_EQ(k, closed_form_digit_reverse(i, radices)) << "n=" << n << " i=" << i;
      }
    }
  }
}

TEST(Plan, IndexMapsAreInverse) {
  for (std::uint32_t nx : {1u, 2u, 4u, 12u, 60u})
    for (std::uint32_t ny : {2u, 3u, 4u, 5u, 7u, 13u}) {
      const std::uint32_t ni = nx * ny;
      for (std::uint32_t n = 0; n < 3 * ni; ++n) {
        const std::uint32_t k = map_n_to_k(n, nx, ny);
        EXPECT_EQ(map_k_to_n(k, nx, ny), n);
        EXPECT_EQ(k / ni, n / ni);  // stays in its block
      }
    }
}

TEST(Plan, TwiddlesAreExpOfMinus2PiNxKyOverNi) {
  const Plan1D plan = make_plan(360);
  for (const RadixStage& s : plan.stages) {
    const auto twiddles = stage_twiddles(s);
    ASSERT_EQ(twiddles.size(), std::size_t{s.span} * s.radix);
    for (const Twiddle& t : twiddles) {
      const std::complex<double> expected = std::exp(std::complex<double>(0, -2.0 * std::numbers::pi * t.nx * t.ky / s.ni));
      const Complex got = twiddle_value(t.angle, Direction::forward);
      EXPECT_NEAR(got.real(), expected.real(), 1e-7);
      EXPECT_NEAR(got.imag(), expected.imag(), 1e-7);
      const Complex inv = twiddle_value(t.angle, Direction::inverse);
      EXPECT_NEAR(inv.imag(), -expected.imag(), 1e-7);
    }
  }
}

TEST(Plan, BluesteinTablesMatchBruteForce) {
  const Plan1D plan = make_plan(17);
  ASSERT_EQ(plan.stages.size(), 1u);
  const RadixStage& s = plan.stages[0];
  ASSERT_EQ(s.kind, StageKind::bluestein);
  const BluesteinTables& t = s.bluestein;
  EXPECT_EQ(t.m, 64u);  // smallest power of two >= 2 * 17 - 1
  for (std::uint32_t j = 0; j < 17; ++j) {
    const double angle = -std::numbers::pi * j * j / 17.0;
    EXPECT_NEAR(std::abs(t.chirp[j] - std::polar(1.0, angle)), 0.0, 1e-12);
  }
  std::vector<std::complex<double>> b(t.m, 0.0);
  for (std::uint32_t j = 0; j < 17; ++j) {
    b[j] = std::conj(t.chirp[j]);
    if (j) b[t.m - j] = std::conj(t.chirp[j]);
  }
  const auto expected = test::brute_force_dft(b, Direction::forward);
  EXPECT_LT(test::relative_l2_error(t.filter_spectrum, expected), 1e-13);
}

TEST(Plan, JsonHasTheDocumentedKeys) {
  const std::string json = plan_to_json(make_plan(12));
  for (const char* key : {"\"n\": 12", "\"radices\": [4, 3]", "\"stages\"", "\"digit_reverse\": [", "\"twiddles\""})
    EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
}

}  // namespace
}  // namespace fftscope
