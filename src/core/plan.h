#pragma once
// The FFT plan: everything a user may inspect about how a length-N transform is computed.
//
// The pipeline is the seeds' mixed-radix decimation in time: a digit-reverse gather, then one
// radix stage per factor of N. Stage s has radix Ny = radices[s], span Nx = the product of the
// earlier radices and Ni = Nx * Ny. Its butterflies take the Ny elements n, n + Nx, ...,
// n + (Ny - 1) * Nx with n = (kx % Nx) + (kx / Nx) * Ni, multiply element j by the twiddle
// exp(-+2 pi i * j * nx / Ni) with nx = n % Nx, and replace them by their length-Ny DFT.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "types.h"

namespace fftscope {

/// How a stage computes its length-Ny butterflies.
enum class StageKind {
  butterfly,  ///< a dedicated or generic small-radix DFT (radix <= 13)
  bluestein,  ///< a prime radix > 13 computed as a chirp-z convolution of length bluestein_m
};

struct Plan1D;

/// Bluestein's tables for a prime radix p, for the forward direction. A butterfly's forward DFT
/// of inputs a_j is X_k = chirp_k * conv_k, where conv = inverse_fft_m(fft_m(u) * filter_spectrum)
/// (the inverse scaled by 1/m) and u_j = a_j * chirp_j zero-padded to m. The inverse direction
/// runs the same on conjugated inputs and conjugates the outputs.
struct BluesteinTables {
  std::uint32_t m = 0;  ///< convolution length >= 2p - 1 (the planner's: the smallest power of two)
  std::vector<std::complex<double>> chirp;  ///< p values exp(-i pi j^2 / p), j = 0..p-1
  /// m values: the forward DFT of b, b_j = conj(chirp_j) for j < p, b_{m-j} = conj(chirp_j), else 0.
  std::vector<std::complex<double>> filter_spectrum;
  std::shared_ptr<const Plan1D> inner;  ///< the power-of-two plan of length m
};

/// One radix stage of a 1D plan.
struct RadixStage {
  std::uint32_t radix = 0;  ///< Ny: butterfly size
  std::uint32_t span = 0;   ///< Nx: distance between butterfly inputs (product of earlier radices)
  std::uint32_t ni = 0;     ///< Ni = Nx * Ny: length of the sub-transforms this stage completes
  StageKind kind = StageKind::butterfly;
  BluesteinTables bluestein;  ///< filled when kind == bluestein

  std::size_t butterfly_count(std::size_t n) const { return n / radix; }
};

/// One twiddle factor of a stage, for butterfly input j (= ky in the seeds) of butterfly column nx.
struct Twiddle {
  std::uint32_t nx = 0;
  std::uint32_t ky = 0;
  double angle = 0;  ///< forward angle in radians: -2 pi nx ky / Ni (the inverse uses +angle)
};

/// Which radices the factorization may use.
struct PlanOptions {
  /// Largest power-of-two radix: 2 (pure radix-2), 4 (the seeds' default) or 8.
  std::uint32_t max_power_of_two_radix = 4;
};

/// A complete plan for a length-n 1D transform.
struct Plan1D {
  std::size_t n = 0;
  std::vector<RadixStage> stages;          ///< in execution order
  std::vector<std::uint32_t> digit_reverse;  ///< after the gather, element i holds input[digit_reverse[i]]

  std::size_t stage_count() const { return stages.size(); }
  std::vector<std::uint32_t> radices() const;
  bool uses_bluestein() const;
};

/// A 2D plan: rows are transformed first (length = width), then columns (length = height).
struct Plan2D {
  Plan1D rows;
  Plan1D cols;
  std::size_t width() const { return rows.n; }
  std::size_t height() const { return cols.n; }
};

/// Bluestein's tables for an n-point DFT as a cyclic convolution of length m >= 2n - 1 (the
/// planner's stages: m the power of two; the GPU fast path: a 7-smooth m, fast::route_axis).
/// `inner` is the plan of length m.
BluesteinTables make_bluestein_tables(std::uint32_t n, std::uint32_t m);

/// Largest radix handled by a direct butterfly; larger prime factors go through Bluestein.
inline constexpr std::uint32_t max_butterfly_radix = 13;

/// Factorizes n (>= 1) into radix stages. n = 1 gives no stages. Throws UsageError for n = 0.
std::vector<std::uint32_t> factorize(std::size_t n, const PlanOptions& options = {});

/// Builds the plan for length n: stages, digit-reverse table and Bluestein tables.
Plan1D make_plan(std::size_t n, const PlanOptions& options = {});
Plan2D make_plan_2d(std::size_t width, std::size_t height, const PlanOptions& options = {});

/// The seeds' index map between two stages: input index n of a stage with span nx_span and
/// radix ny to its output index k.
std::uint32_t map_n_to_k(std::uint32_t n, std::uint32_t nx_span, std::uint32_t ny);
/// The inverse map (output index k back to input index n).
std::uint32_t map_k_to_n(std::uint32_t k, std::uint32_t nx_span, std::uint32_t ny);

/// The digit-reverse gather table for the given radices (seeds' iteration of map_n_to_k).
std::vector<std::uint32_t> digit_reverse_table(const std::vector<std::uint32_t>& radices);

/// The digits of index i in the mixed radices (least significant first, radices in stage order).
std::vector<std::uint32_t> mixed_radix_digits(std::uint32_t i, const std::vector<std::uint32_t>& radices);

/// Every twiddle of stage s, ordered by nx then ky (Nx * Ny entries; all zero angles at s = 0).
std::vector<Twiddle> stage_twiddles(const RadixStage& stage);

/// exp(i * angle) evaluated in double precision, with the sign for the direction.
Complex twiddle_value(double forward_angle, Direction direction);

/// A human-readable description of the plan (stages, digit-reverse, twiddles), as `plan N` prints.
std::string describe_plan(const Plan1D& plan, bool with_twiddles = true);
/// The same content as JSON: n, radices, stages[{radix, nx, ny, ni, kind}], digit_reverse,
/// twiddles[stage][{nx, ky, angle, re, im}].
std::string plan_to_json(const Plan1D& plan);

}  // namespace fftscope
