#include "gui/readout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/spectrum.h"
#include "gui/app.h"

namespace fftscope::gui {

std::optional<std::pair<int, int>> screen_to_texel(float sx, float sy, float min_x, float min_y, float max_x,
                                                   float max_y, const ViewTransform& view, std::size_t tex_w,
                                                   std::size_t tex_h) {
  if (tex_w == 0 || tex_h == 0 || sx < min_x || sy < min_y || sx >= max_x || sy >= max_y) return std::nullopt;
  const float half = 0.5f / view.zoom;
  const float u = view.cx - half + (sx - min_x) / std::max(1.0f, max_x - min_x) * (2.0f * half);
  const float v = view.cy - half + (sy - min_y) / std::max(1.0f, max_y - min_y) * (2.0f * half);
  const int x = std::clamp(static_cast<int>(std::floor(u * static_cast<float>(tex_w))), 0, static_cast<int>(tex_w) - 1);
  const int y = std::clamp(static_cast<int>(std::floor(v * static_cast<float>(tex_h))), 0, static_cast<int>(tex_h) - 1);
  return std::make_pair(x, y);
}

BinReadout bin_readout(const ComplexImage& spectrum, bool shifted, int tx, int ty) {
  BinReadout r;
  const std::size_t w = spectrum.width, h = spectrum.height;
  if (w == 0 || h == 0) return r;
  const auto cx = static_cast<std::size_t>(std::clamp(tx, 0, static_cast<int>(w) - 1));
  const auto cy = static_cast<std::size_t>(std::clamp(ty, 0, static_cast<int>(h) - 1));
  r.x = shifted ? ifftshift_index(cx, w) : cx;
  r.y = shifted ? ifftshift_index(cy, h) : cy;
  // Bins above N/2 are negative frequencies.
  r.kx = static_cast<long>(r.x) - (r.x > w / 2 ? static_cast<long>(w) : 0L);
  r.ky = static_cast<long>(r.y) - (r.y > h / 2 ? static_cast<long>(h) : 0L);
  r.fx = static_cast<double>(r.kx) / static_cast<double>(w);
  r.fy = static_cast<double>(r.ky) / static_cast<double>(h);
  r.f = std::hypot(r.fx, r.fy);
  r.dc = r.kx == 0 && r.ky == 0;
  r.period_px = r.dc ? 0.0 : 1.0 / r.f;
  r.orientation_deg = std::atan2(r.fy, r.fx) * 180.0 / std::numbers::pi;
  r.stripes_deg = r.orientation_deg + 90.0;
  const Complex F = spectrum.at(r.x, r.y);
  r.value = {static_cast<double>(F.real()), static_cast<double>(F.imag())};
  r.magnitude = std::abs(r.value);
  r.phase_rad = std::arg(r.value);
  return r;
}

std::string format_readout(const BinReadout& r) {
  char a[160], b[160], c[200];
  std::snprintf(a, sizeof a, "bin (%zu, %zu)  k = (%ld, %ld)  f = (%.4f, %.4f) cycles/px  |f| = %.4f", r.x, r.y, r.kx,
                r.ky, r.fx, r.fy, r.f);
  if (r.dc)
    std::snprintf(b, sizeof b, "DC: the mean times the pixel count");
  else
    std::snprintf(b, sizeof b, "period %.2f px  orientation %.1f deg (wave vector; stripes run at %.1f deg)",
                  r.period_px, r.orientation_deg, r.stripes_deg);
  std::snprintf(c, sizeof c, "|F| = %.5g   arg F = %.4f rad (%.1f deg)   F = %.5g %+.5gi", r.magnitude, r.phase_rad,
                r.phase_rad * 180.0 / std::numbers::pi, r.value.real(), r.value.imag());
  return std::string(a) + "\n" + b + "\n" + c;
}

}  // namespace fftscope::gui
