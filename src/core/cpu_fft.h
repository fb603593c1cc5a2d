#pragma once
// The CPU FFT: runs exactly the plan's stage pipeline. It is the reference every GPU backend is
// compared to stage by stage, and the engine of the CPU backend.

#include <complex>
#include <cstddef>

#include "plan.h"
#include "types.h"

namespace fftscope {

/// Where to stop a 2D transform. stage = 0 stops after the digit-reverse gather of `axis`,
/// stage = S (that axis's stage count) after its last radix stage. With axis = cols the rows
/// are fully transformed first. The default runs everything.
struct StageStop {
  Axis axis = Axis::cols;
  int stage = -1;  ///< -1: run to the end

  static StageStop done() { return {}; }
  bool is_done() const { return stage < 0; }
};

namespace cpu {

/// Transforms one contiguous row of plan.n complex values in place, running the digit-reverse
/// gather and then stages 0..last_stage-1 (last_stage = -1 runs them all). The inverse is scaled
/// by 1/n only when every stage ran. `scratch` must hold plan.n values.
template <typename Real>
void transform_row(const Plan1D& plan, Direction direction, std::complex<Real>* row,
                   std::complex<Real>* scratch, int last_stage = -1);

/// Applies one radix stage (twiddles, then butterflies) to a row already in stage-s order.
template <typename Real>
void apply_stage(const Plan1D& plan, std::size_t s, Direction direction, std::complex<Real>* row,
                 std::complex<Real>* scratch);

/// Transforms a 2D image in place: rows, then columns; stops where `stop` says. Rows (and
/// columns) are spread over `threads` threads (0: hardware concurrency).
void transform_2d(const Plan2D& plan, Direction direction, ComplexImage& image,
                  StageStop stop = StageStop::done(), unsigned threads = 0);

/// Convenience: plans and transforms a 1D vector (used by tests and tools).
std::vector<Complex> fft(const std::vector<Complex>& input, Direction direction = Direction::forward);

}  // namespace cpu
}  // namespace fftscope
