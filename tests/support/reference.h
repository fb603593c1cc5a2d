#pragma once
// Independent references for the tests: FFTW in double precision and a brute-force DFT.

#include <complex>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace fftscope::test {

using ComplexD = std::complex<double>;

/// FFTW (double) 1D DFT; inverse is scaled by 1/n like fftscope's.
std::vector<ComplexD> fftw_1d(const std::vector<ComplexD>& input, Direction direction);
/// FFTW (double) 2D DFT of a row-major width x height array; inverse scaled by 1/(w h).
std::vector<ComplexD> fftw_2d(const std::vector<ComplexD>& input, std::size_t width, std::size_t height,
                              Direction direction);
/// O(n^2) DFT in long double, for the smallest sizes and as a check on FFTW itself.
std::vector<ComplexD> brute_force_dft(const std::vector<ComplexD>& input, Direction direction);

/// Relative L2 error ||a - b|| / ||b|| (absolute when ||b|| is 0).
double relative_l2_error(const std::vector<Complex>& a, const std::vector<ComplexD>& b);
double relative_l2_error(const std::vector<ComplexD>& a, const std::vector<ComplexD>& b);
double max_abs_error(const std::vector<Complex>& a, const std::vector<ComplexD>& b);

/// The float32 error bound the FFT tests use: 4 eps (log2 n + 1), eps = 2^-24; Bluestein
/// stages get 4x that, as their chirp convolution is three FFTs deep.
double float_fft_tolerance(std::size_t n, bool bluestein = false);

/// Deterministic pseudo-random complex data in [-1, 1]^2.
std::vector<ComplexD> random_complex(std::size_t n, std::uint64_t seed);
std::vector<Complex> to_float(const std::vector<ComplexD>& v);
std::vector<ComplexD> to_double(const std::vector<Complex>& v);

}  // namespace fftscope::test
