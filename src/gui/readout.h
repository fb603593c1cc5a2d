#pragma once
// The spectrum view's hover readout as pure functions of the cursor, the view and the spectrum
// (no ImGui), so the tests can check them against closed forms.

#include <complex>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "core/types.h"

namespace fftscope::gui {

struct ViewTransform;

/// The texel (x, y) under screen point (sx, sy) of an image of tex_w x tex_h texels drawn at the
/// screen rectangle [min_x, max_x) x [min_y, max_y) with the view's zoom and centre; nullopt
/// when the point is outside the rectangle.
std::optional<std::pair<int, int>> screen_to_texel(float sx, float sy, float min_x, float min_y, float max_x,
                                                   float max_y, const ViewTransform& view, std::size_t tex_w,
                                                   std::size_t tex_h);

/// What the readout says about one bin.
struct BinReadout {
  std::size_t x = 0, y = 0;  ///< bin in memory order (unshifted)
  long kx = 0, ky = 0;       ///< signed frequency index, in (-N/2, N/2]
  double fx = 0, fy = 0;     ///< cycles per pixel (kx / width, ky / height)
  double f = 0;              ///< |(fx, fy)|
  double period_px = 0;      ///< 1 / f; 0 at DC
  double orientation_deg = 0;  ///< angle of the wave vector, atan2(fy, fx), in (-180, 180]
  double stripes_deg = 0;      ///< direction the stripes run: orientation + 90
  std::complex<double> value;  ///< F at the bin
  double magnitude = 0, phase_rad = 0;
  bool dc = false;
};

/// The readout of the bin displayed at texel (tx, ty) (shifted display: centre = DC).
BinReadout bin_readout(const ComplexImage& spectrum, bool shifted, int tx, int ty);
/// Its three text lines, as the panel shows them.
std::string format_readout(const BinReadout& r);

}  // namespace fftscope::gui
