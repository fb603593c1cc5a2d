// The GUI's pure logic: the hover readout (cursor -> texel -> bin -> frequency, period,
// orientation, |F|, arg F) against closed forms, and the kernel-variant table's alignment.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "backend/backend.h"
#include "gui/app.h"
#include "gui/readout.h"
#include "gui/variant_table.h"

namespace fftscope::gui {
namespace {

constexpr double pi = std::numbers::pi;

// cos(2 pi (kx x / W + ky y / H) + phase): its DFT is W H / 2 e^{+-i phase} at +-(kx, ky), 0 elsewhere.
ComplexImage grating_spectrum(std::size_t w, std::size_t h, int kx, int ky, double phase) {
  ComplexImage img(w, h);
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x)
      img.at(x, y) = Complex(static_cast<float>(std::cos(2 * pi * (kx * double(x) / double(w) + ky * double(y) / double(h)) + phase)), 0.0f);
  auto cpu = make_backend(BackendKind::cpu);
  return run_transform(*cpu, make_plan_2d(w, h), img, Direction::forward);
}

TEST(HoverReadout, GratingPeakGivesItsFrequencyPeriodAngleAndPhase) {
  const std::size_t w = 256, h = 192;
  const int kx = 16, ky = -12;
  const double phase = 0.7;
  const ComplexImage spec = grating_spectrum(w, h, kx, ky, phase);
  // The brightest displayed texel in the shifted view, among those right of the centre column.
  int best_x = 0, best_y = 0;
  float best = -1;
  for (std::size_t ty = 0; ty < h; ++ty)
    for (std::size_t tx = w / 2 + 1; tx < w; ++tx) {
      const float m = std::abs(spec.at(ifftshift_index(tx, w), ifftshift_index(ty, h)));
      if (m > best) best = m, best_x = int(tx), best_y = int(ty);
    }
  EXPECT_EQ(best_x, int(w / 2) + kx);  // the shifted display puts DC at (W/2, H/2)
  EXPECT_EQ(best_y, int(h / 2) + ky);
  const BinReadout r = bin_readout(spec, true, best_x, best_y);
  EXPECT_EQ(r.kx, kx);
  EXPECT_EQ(r.ky, ky);
  const double fx = double(kx) / double(w), fy = double(ky) / double(h);
  EXPECT_NEAR(r.fx, fx, 1e-12);
  EXPECT_NEAR(r.fy, fy, 1e-12);
  EXPECT_NEAR(r.f, std::hypot(fx, fy), 1e-12);
  EXPECT_NEAR(r.period_px, 1.0 / std::hypot(fx, fy), 1e-9);  // 1 / sqrt(1/256 + 1/256) = 11.31 px
  EXPECT_NEAR(r.orientation_deg, std::atan2(fy, fx) * 180.0 / pi, 1e-9);  // -45 deg
  EXPECT_NEAR(r.orientation_deg, -45.0, 1e-9);
  EXPECT_NEAR(r.stripes_deg, 45.0, 1e-9);
  EXPECT_NEAR(r.magnitude, double(w * h) / 2.0, 1e-3 * double(w * h));
  EXPECT_NEAR(r.phase_rad, phase, 1e-3);
  EXPECT_FALSE(r.dc);
  // The mirror peak: negative frequency, conjugate phase, opposite wave vector.
  const BinReadout m = bin_readout(spec, true, int(w / 2) - kx, int(h / 2) - ky);
  EXPECT_EQ(m.kx, -kx);
  EXPECT_EQ(m.ky, -ky);
  EXPECT_NEAR(m.phase_rad, -phase, 1e-3);
  EXPECT_NEAR(m.orientation_deg, 135.0, 1e-9);
  // Unshifted display: the same bin sits at its memory position.
  const BinReadout u = bin_readout(spec, false, kx, int(h) + ky);
  EXPECT_EQ(u.kx, kx);
  EXPECT_EQ(u.ky, ky);
  EXPECT_NEAR(u.phase_rad, phase, 1e-3);
  // DC and the text the panel shows.
  const BinReadout dc = bin_readout(spec, true, int(w / 2), int(h / 2));
  EXPECT_TRUE(dc.dc);
  EXPECT_EQ(dc.x, 0u);
  EXPECT_EQ(dc.y, 0u);
  const std::string text = format_readout(r);
  EXPECT_NE(text.find("k = (16, -12)"), std::string::npos) << text;
  EXPECT_NE(text.find("period 11.31 px"), std::string::npos) << text;
  EXPECT_NE(text.find("orientation -45.0 deg"), std::string::npos) << text;
}

TEST(HoverReadout, NyquistBinIsPositiveHalf) {
  const ComplexImage spec = grating_spectrum(8, 6, 4, 3, 0.0);  // (-1)^(x+y): all energy at Nyquist
  const BinReadout r = bin_readout(spec, false, 4, 3);
  EXPECT_EQ(r.kx, 4);
  EXPECT_EQ(r.ky, 3);
  EXPECT_NEAR(r.fx, 0.5, 1e-12);
  EXPECT_NEAR(r.fy, 0.5, 1e-12);
  EXPECT_NEAR(r.magnitude, 48.0, 1e-3);  // cos(pi (x + y)) has no e^{-i...} twin: W H, not W H / 2
}

TEST(HoverReadout, ScreenToTexelFollowsZoomAndPan) {
  // A 256 x 192 texture drawn at (100, 50)-(612, 434): 2 screen pixels per texel at zoom 1.
  ViewTransform view;
  auto t = screen_to_texel(100.0f + 2 * 37 + 1, 50.0f + 2 * 90 + 1, 100, 50, 612, 434, view, 256, 192);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->first, 37);
  EXPECT_EQ(t->second, 90);
  EXPECT_FALSE(screen_to_texel(99.0f, 60.0f, 100, 50, 612, 434, view, 256, 192));
  EXPECT_FALSE(screen_to_texel(612.0f, 60.0f, 100, 50, 612, 434, view, 256, 192));
  // Zoom 4 about texture point (0.75, 0.25): the view's centre shows texel (192, 48), and one
  // texel spans 8 screen pixels.
  view.zoom = 4.0f;
  view.cx = 0.75f;
  view.cy = 0.25f;
  t = screen_to_texel(356.0f + 1, 242.0f + 1, 100, 50, 612, 434, view, 256, 192);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->first, 192);
  EXPECT_EQ(t->second, 48);
  t = screen_to_texel(356.0f + 8 * 5 + 1, 242.0f - 8 * 3 + 1, 100, 50, 612, 434, view, 256, 192);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->first, 197);
  EXPECT_EQ(t->second, 45);
}

TimingSummary summary(const std::string& kernel, Axis axis, int stage, std::uint32_t radix, double ms) {
  TimingSummary s;
  s.last.kernel = kernel;
  s.last.axis = axis;
  s.last.stage = stage;
  s.last.radix = radix;
  s.median_ms = ms;
  s.count = 3;
  return s;
}

TEST(VariantTable, AlignsDispatchesByKernelAxisStageRadix) {
  using enum Axis;
  // The dispatch sequences the GL backend reports for a 64 x 48 transform (rows 4x4x4, cols 4x4x3).
  const std::vector<TimingSummary> plain{
      summary("digit_reverse", rows, -1, 0, 1.0), summary("radix_4_first_stage", rows, 0, 4, 2.0),
      summary("twiddle_plain", rows, 1, 4, 3.0),  summary("radix_4", rows, 1, 4, 4.0),
      summary("transpose", cols, -1, 0, 5.0),     summary("digit_reverse", cols, -1, 0, 6.0),
      summary("radix_4_first_stage", cols, 0, 4, 7.0), summary("twiddle_plain", cols, 1, 3, 8.0),
      summary("radix_3", cols, 1, 3, 9.0),        summary("transpose_back", cols, -1, 0, 10.0)};
  const std::vector<TimingSummary> optimized{
      summary("digit_reverse", rows, -1, 0, 1.5), summary("radix_4_first_stage", rows, 0, 4, 2.5),
      summary("twiddle_optimized", rows, 1, 4, 0.5), summary("radix_4", rows, 1, 4, 4.5),
      summary("transpose", cols, -1, 0, 5.5),     summary("digit_reverse", cols, -1, 0, 6.5),
      summary("radix_4_first_stage", cols, 0, 4, 7.5), summary("twiddle_optimized", cols, 1, 3, 0.25),
      summary("radix_3", cols, 1, 3, 9.5),        summary("transpose_back", cols, -1, 0, 10.5)};
  const std::vector<TimingSummary> fused{
      summary("digit_reverse", rows, -1, 0, 1.25), summary("radix_4_first_stage", rows, 0, 4, 2.25),
      summary("radix_4_fused", rows, 1, 4, 6.0),   summary("transpose", cols, -1, 0, 5.25),
      summary("digit_reverse", cols, -1, 0, 6.25), summary("radix_4_first_stage", cols, 0, 4, 7.25),
      summary("radix_3_fused", cols, 1, 3, 11.0),  summary("transpose_back", cols, -1, 0, 10.25)};
  const std::vector<TimingSummary> fast{summary("fast_rows", rows, -1, 0, 0.75), summary("fast_cols", cols, -1, 0, 0.5)};
  const VariantTable t = align_variants({{KernelVariant::plain, plain},
                                         {KernelVariant::optimized, optimized},
                                         {KernelVariant::fused, fused},
                                         {KernelVariant::fast, fast}});
  ASSERT_EQ(t.variants.size(), 4u);
  // Distinct (kernel, axis, stage, radix): 4 + 2 rows-axis extras, and the same for columns.
  const std::vector<std::string> expected_kernels{
      "digit_reverse", "fast_rows", "radix_4_first_stage", "twiddle_plain", "radix_4", "twiddle_optimized",
      "radix_4_fused", "transpose", "digit_reverse", "fast_cols", "radix_4_first_stage", "twiddle_plain",
      "radix_3", "twiddle_optimized", "radix_3_fused", "transpose_back"};
  ASSERT_EQ(t.rows.size(), expected_kernels.size());
  for (std::size_t i = 0; i < t.rows.size(); ++i) EXPECT_EQ(t.rows[i].kernel, expected_kernels[i]) << "row " << i;
  // A shared dispatch has one cell per variant that runs it, in the right column.
  const VariantRow& radix4 = t.rows[4];
  EXPECT_EQ(radix4.axis, Axis::rows);
  EXPECT_EQ(radix4.stage, 1);
  ASSERT_TRUE(radix4.median_ms[0] && radix4.median_ms[1]);
  EXPECT_DOUBLE_EQ(*radix4.median_ms[0], 4.0);
  EXPECT_DOUBLE_EQ(*radix4.median_ms[1], 4.5);
  EXPECT_FALSE(radix4.median_ms[2]);
  EXPECT_FALSE(radix4.median_ms[3]);
  // digit_reverse of the rows and of the columns are different rows.
  EXPECT_EQ(t.rows[0].axis, Axis::rows);
  EXPECT_EQ(t.rows[8].axis, Axis::cols);
  ASSERT_TRUE(t.rows[8].median_ms[2]);
  EXPECT_DOUBLE_EQ(*t.rows[8].median_ms[2], 6.25);
  EXPECT_EQ(t.rows[7].kernel, "transpose");
  EXPECT_EQ(t.rows[7].axis, Axis::cols);
  // Totals: each variant's medians summed.
  EXPECT_DOUBLE_EQ(t.totals_ms[0], 55.0);
  EXPECT_DOUBLE_EQ(t.totals_ms[1], 48.75);
  EXPECT_DOUBLE_EQ(t.totals_ms[2], 49.5);
  EXPECT_DOUBLE_EQ(t.totals_ms[3], 1.25);
  // Every cell of every input appears exactly once.
  std::size_t cells = 0;
  for (const VariantRow& r : t.rows)
    for (const auto& m : r.median_ms) cells += m.has_value();
  EXPECT_EQ(cells, plain.size() + optimized.size() + fused.size() + fast.size());
}

TEST(VariantTable, ExportsCsvAndJson) {
  VariantTable t = align_variants({{KernelVariant::plain, {summary("radix_2", Axis::rows, 0, 2, 1.5)}},
                                   {KernelVariant::fast, {summary("fast_rows", Axis::rows, -1, 0, 0.25)}}});
  t.errors = {"", ""};
  EXPECT_EQ(variant_table_csv(t),
            "kernel,axis,stage,radix,plain_ms,fast_ms\n"
            "fast_rows,rows,-1,0,,0.25\n"
            "radix_2,rows,0,2,1.5,\n"
            "total,,,,1.5,0.25\n");
  // A kernel name with a comma and a quote stays one field.
  VariantTable named = align_variants({{KernelVariant::fast, {summary("fast_rows(L=8960, \"chirp\")", Axis::rows, -1, 0, 0.5)}}});
  named.errors = {""};
  EXPECT_EQ(variant_table_csv(named),
            "kernel,axis,stage,radix,fast_ms\n"
            "\"fast_rows(L=8960, \"\"chirp\"\")\",rows,-1,0,0.5\n"
            "total,,,,0.5\n");
  t.errors[1] = "fast: \"no device\"";
  const std::string json = variant_table_json(t);
  EXPECT_NE(json.find("{\"kernel\": \"radix_2\", \"axis\": \"rows\", \"stage\": 0, \"radix\": 2, \"median_ms\": "
                      "{\"plain\": 1.5, \"fast\": null}}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"totals_ms\": {\"plain\": 1.5, \"fast\": null}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"fast\": \"fast: \\\"no device\\\"\""), std::string::npos) << json;
}

}  // namespace
}  // namespace fftscope::gui
