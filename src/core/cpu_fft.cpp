#include "core/cpu_fft.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <thread>

namespace fftscope {
namespace cpu {
namespace detail {

/// Everything a row transform needs that does not depend on the data: twiddle and DFT tables
/// per stage, made once per (plan, direction) in double precision and rounded to Real.
template <typename Real>
struct RowKernel {
  using C = std::complex<Real>;
  struct Stage {
    std::vector<C> twiddles;  ///< Ni values, index nx * Ny + j: exp(sign 2 pi i nx j / Ni)
    std::vector<C> dft;       ///< Ny * Ny values, index k * Ny + j: exp(sign 2 pi i j k / Ny)
    std::vector<C> chirp;     ///< Bluestein only (forward tables; inverse handled by conjugation)
    std::vector<C> filter;
    std::unique_ptr<RowKernel> inner_forward, inner_inverse;
  };
  const Plan1D* plan = nullptr;
  Direction direction = Direction::forward;
  std::vector<Stage> stages;
};

template <typename Real>
RowKernel<Real> make_row_kernel(const Plan1D& plan, Direction direction) {
  using C = std::complex<Real>;
  RowKernel<Real> kernel;
  kernel.plan = &plan;
  kernel.direction = direction;
  const double sign = direction == Direction::forward ? -1.0 : 1.0;
  for (const RadixStage& s : plan.stages) {
    typename RowKernel<Real>::Stage st;
    st.twiddles.resize(s.ni);
    for (std::uint32_t nx = 0; nx < s.span; ++nx)
      for (std::uint32_t j = 0; j < s.radix; ++j) {
        const std::uint64_t prod = (std::uint64_t{nx} * j) % s.ni;
        const double a = sign * 2.0 * std::numbers::pi * static_cast<double>(prod) / s.ni;
        st.twiddles[nx * s.radix + j] = C(static_cast<Real>(std::cos(a)), static_cast<Real>(std::sin(a)));
      }
    if (s.kind == StageKind::butterfly) {
      st.dft.resize(std::size_t{s.radix} * s.radix);
      for (std::uint32_t k = 0; k < s.radix; ++k)
        for (std::uint32_t j = 0; j < s.radix; ++j) {
          const double a = sign * 2.0 * std::numbers::pi * static_cast<double>((j * k) % s.radix) / s.radix;
          st.dft[k * s.radix + j] = C(static_cast<Real>(std::cos(a)), static_cast<Real>(std::sin(a)));
        }
    } else {
      for (const auto& c : s.bluestein.chirp) st.chirp.push_back(C(static_cast<Real>(c.real()), static_cast<Real>(c.imag())));
      for (const auto& c : s.bluestein.filter_spectrum)
        st.filter.push_back(C(static_cast<Real>(c.real()), static_cast<Real>(c.imag())));
      st.inner_forward = std::make_unique<RowKernel<Real>>(make_row_kernel<Real>(*s.bluestein.inner, Direction::forward));
      st.inner_inverse = std::make_unique<RowKernel<Real>>(make_row_kernel<Real>(*s.bluestein.inner, Direction::inverse));
    }
    kernel.stages.push_back(std::move(st));
  }
  return kernel;
}

template <typename Real>
void run_row(const RowKernel<Real>& kernel, std::complex<Real>* row, std::complex<Real>* scratch, int last_stage);

template <typename Real>
void stage_pass(const RowKernel<Real>& kernel, std::size_t s, std::complex<Real>* row) {
  using C = std::complex<Real>;
  const Plan1D& plan = *kernel.plan;
  const RadixStage& stage = plan.stages[s];
  const auto& st = kernel.stages[s];
  const std::uint32_t nx_span = stage.span, ny = stage.radix, ni = stage.ni;
  const std::size_t butterflies = plan.n / ny;

  std::vector<C> in(ny), out(ny);
  std::vector<C> conv, conv_scratch;
  if (stage.kind == StageKind::bluestein) {
    conv.resize(stage.bluestein.m);
    conv_scratch.resize(stage.bluestein.m);
  }
  const bool inverse = kernel.direction == Direction::inverse;

  for (std::size_t kx = 0; kx < butterflies; ++kx) {
    const std::uint32_t nx = static_cast<std::uint32_t>(kx % nx_span);
    const std::size_t n = nx + (kx / nx_span) * ni;
    const C* tw = &st.twiddles[std::size_t{nx} * ny];
    for (std::uint32_t j = 0; j < ny; ++j) in[j] = row[n + j * nx_span] * tw[j];

    if (stage.kind == StageKind::butterfly) {
      if (ny == 2) {
        out[0] = in[0] + in[1];
        out[1] = in[0] - in[1];
      } else {
        for (std::uint32_t k = 0; k < ny; ++k) {
          C acc = in[0];
          const C* w = &st.dft[std::size_t{k} * ny];
          for (std::uint32_t j = 1; j < ny; ++j) acc += in[j] * w[j];
          out[k] = acc;
        }
      }
    } else {
      // Bluestein: the inverse is the forward transform of conjugated data, conjugated.
      const std::uint32_t m = stage.bluestein.m;
      std::fill(conv.begin(), conv.end(), C(0));
      for (std::uint32_t j = 0; j < ny; ++j) conv[j] = (inverse ? std::conj(in[j]) : in[j]) * st.chirp[j];
      run_row(*st.inner_forward, conv.data(), conv_scratch.data(), -1);
      for (std::uint32_t i = 0; i < m; ++i) conv[i] *= st.filter[i];
      run_row(*st.inner_inverse, conv.data(), conv_scratch.data(), -1);
      for (std::uint32_t k = 0; k < ny; ++k) {
        const C x = st.chirp[k] * conv[k];
        out[k] = inverse ? std::conj(x) : x;
      }
    }
    for (std::uint32_t k = 0; k < ny; ++k) row[n + k * nx_span] = out[k];
  }
}

template <typename Real>
void run_row(const RowKernel<Real>& kernel, std::complex<Real>* row, std::complex<Real>* scratch, int last_stage) {
  const Plan1D& plan = *kernel.plan;
  const std::size_t n = plan.n;
  for (std::size_t i = 0; i < n; ++i) scratch[i] = row[plan.digit_reverse[i]];
  std::copy(scratch, scratch + n, row);
  const int stage_count = static_cast<int>(plan.stages.size());
  const int stop = last_stage < 0 ? stage_count : std::min(last_stage, stage_count);
  for (int s = 0; s < stop; ++s) stage_pass(kernel, static_cast<std::size_t>(s), row);
  if (stop == stage_count && kernel.direction == Direction::inverse) {
    const Real scale = Real(1) / static_cast<Real>(n);
    for (std::size_t i = 0; i < n; ++i) row[i] *= scale;
  }
}

/// Runs fn(begin, end) over [0, count) split into contiguous chunks on up to `threads` threads.
template <typename Fn>
void parallel_for(std::size_t count, unsigned threads, Fn fn) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, count)));
  if (threads <= 1) {
    fn(std::size_t{0}, count);
    return;
  }
  std::vector<std::thread> pool;
  const std::size_t chunk = (count + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t begin = t * chunk, end = std::min(count, begin + chunk);
    if (begin >= end) break;
    pool.emplace_back(fn, begin, end);
  }
  for (std::thread& th : pool) th.join();
}

}  // namespace detail

template <typename Real>
void transform_row(const Plan1D& plan, Direction direction, std::complex<Real>* row, std::complex<Real>* scratch,
                   int last_stage) {
  const detail::RowKernel<Real> kernel = detail::make_row_kernel<Real>(plan, direction);
  detail::run_row(kernel, row, scratch, last_stage);
}

template <typename Real>
void apply_stage(const Plan1D& plan, std::size_t s, Direction direction, std::complex<Real>* row,
                 std::complex<Real>* /*scratch*/) {
  assert(s < plan.stages.size() && "stage index out of range");
  const detail::RowKernel<Real> kernel = detail::make_row_kernel<Real>(plan, direction);
  detail::stage_pass(kernel, s, row);
}

template void transform_row<float>(const Plan1D&, Direction, std::complex<float>*, std::complex<float>*, int);
template void transform_row<double>(const Plan1D&, Direction, std::complex<double>*, std::complex<double>*, int);
template void apply_stage<float>(const Plan1D&, std::size_t, Direction, std::complex<float>*, std::complex<float>*);
template void apply_stage<double>(const Plan1D&, std::size_t, Direction, std::complex<double>*, std::complex<double>*);

void transform_2d(const Plan2D& plan, Direction direction, ComplexImage& image, StageStop stop, unsigned threads) {
  assert(image.width == plan.width() && image.height == plan.height() && "image size must match the plan");
  const std::size_t w = image.width, h = image.height;
  if (w == 0 || h == 0) return;

  const int row_last = (!stop.is_done() && stop.axis == Axis::rows) ? stop.stage : -1;
  const detail::RowKernel<float> row_kernel = detail::make_row_kernel<float>(plan.rows, direction);
  detail::parallel_for(h, threads, [&](std::size_t begin, std::size_t end) {
    std::vector<Complex> scratch(w);
    for (std::size_t y = begin; y < end; ++y) detail::run_row(row_kernel, &image.data[y * w], scratch.data(), row_last);
  });
  if (!stop.is_done() && stop.axis == Axis::rows) return;

  const int col_last = stop.is_done() ? -1 : stop.stage;
  const detail::RowKernel<float> col_kernel = detail::make_row_kernel<float>(plan.cols, direction);
  detail::parallel_for(w, threads, [&](std::size_t begin, std::size_t end) {
    std::vector<Complex> column(h), scratch(h);
    for (std::size_t x = begin; x < end; ++x) {
      for (std::size_t y = 0; y < h; ++y) column[y] = image.data[y * w + x];
      detail::run_row(col_kernel, column.data(), scratch.data(), col_last);
      for (std::size_t y = 0; y < h; ++y) image.data[y * w + x] = column[y];
    }
  });
}

std::vector<Complex> fft(const std::vector<Complex>& input, Direction direction) {
  std::vector<Complex> data = input;
  if (data.empty()) return data;
  const Plan1D plan = make_plan(data.size());
  std::vector<Complex> scratch(data.size());
  transform_row<float>(plan, direction, data.data(), scratch.data());
  return data;
}

}  // namespace cpu
}  // namespace fftscope
