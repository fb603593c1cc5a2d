// The column pass's memory pattern without the FFT, for fast_probe_gl and fast_probe_cl
// (FFTSCOPE_GL_STRIDED=1 / FFTSCOPE_CL_STRIDED=1): groups of T work-items take C neighbouring
// columns by R rows spaced S rows apart of an image of row pitch P and negate them in place,
// B values loaded before they are stored. The same body runs in both APIs, so the two tell a
// cost of strided access in one API (address mapping, page size) from the kernels' own.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace fftscope::test {

struct StridedCase {
  unsigned pitch, height, columns, rows, spacing, threads;
  /// 0: in place; else the values go to a second buffer (the API's source defines OUT), rows
  /// this many apart (1: the group's neighbouring rows, as read where spacing is 1).
  unsigned out_spacing = 0;
  unsigned batch = 16;

  unsigned values() const { return columns * rows / threads; }
  unsigned groups() const { return (pitch / columns) * (height / rows); }
  double bytes_moved() const { return 2.0 * 8.0 * groups() * columns * rows; }
  std::string describe() const {
    return "pitch " + std::to_string(pitch) + " rows " + std::to_string(height) + ": " + std::to_string(columns) +
           " columns x " + std::to_string(rows) + " rows spaced " + std::to_string(spacing) + ", " +
           std::to_string(threads) + " per group, " + std::to_string(std::min(batch, values())) + " in flight" +
           (out_spacing == 0 ? std::string(", in place") : ", into a second buffer spaced " + std::to_string(out_spacing));
  }
};

// 8192²'s column pass (every row, 8 columns) against the tiles of a column FFT split in two
// passes through the buffer (64 columns × 64 rows 128 apart; then 32 columns × 128 neighbouring
// rows, and the same written 64 apart), at 4096² and 8192².
// Then the four-step passes' patterns in place and into a second buffer (the scratch): pass A
// (32 columns x 64 rows 128 apart, same places), pass B as built (16 columns x 128 neighbouring
// rows written 64 apart) and with its rows written where they were read, at 8192^2 and at
// 8192 x 4096 (half the footprint); then whole rows (a row pass's pattern) in place and into a
// second buffer; last, whole rows in place at 1024^2, 2048^2 and 4096^2 (L2-resident or not).
inline std::vector<StridedCase> strided_cases() {
  return {{4096, 4096, 8, 4096, 1, 512},       {8192, 8192, 8, 8192, 1, 512},       {8192, 8192, 16, 8192, 1, 512},
          {8192, 8192, 64, 64, 128, 256},      {8192, 8192, 32, 64, 128, 256},      {8192, 8192, 32, 128, 1, 256},
          {8192, 8192, 32, 128, 64, 256},      {8192, 8192, 16, 128, 64, 256},      {8192, 8192, 64, 128, 64, 512},
          {4096, 4096, 64, 64, 64, 256},       {4096, 4096, 32, 64, 1, 256},        {8192, 4096, 64, 64, 64, 256},
          {8192, 8192, 32, 64, 128, 256, 128}, {8192, 8192, 16, 128, 1, 256, 64},   {8192, 8192, 16, 128, 1, 256, 1},
          {8192, 8192, 16, 128, 1, 256},       {8192, 4096, 32, 64, 64, 256, 64},   {8192, 4096, 16, 64, 1, 128, 64},
          {8192, 4096, 16, 64, 1, 128, 1},     {8192, 8192, 8192, 1, 1, 512},       {8192, 8192, 8192, 1, 1, 512, 1},
          // whole rows in place where the image fits the L2 (H100: 50 MB), against 4096^2 above
          {1024, 1024, 1024, 1, 1, 512},       {2048, 2048, 2048, 1, 1, 512},       {4096, 4096, 4096, 1, 1, 512}};
}

// 4096^2's column pass as 2, 4, 8 or 16 columns per group of every row, 16 to 64 values in
// flight per invocation, beside whole rows (FFTSCOPE_GL_STRIDED=columns).
inline std::vector<StridedCase> column_pattern_cases() {
  return {{4096, 4096, 8, 4096, 1, 512},         {4096, 4096, 8, 4096, 1, 512, 0, 64},  {4096, 4096, 4, 4096, 1, 256, 0, 64},
          {4096, 4096, 4, 4096, 1, 512, 0, 32},  {4096, 4096, 4, 4096, 1, 1024, 0, 16}, {4096, 4096, 16, 4096, 1, 512, 0, 32},
          {4096, 4096, 16, 4096, 1, 1024, 0, 64}, {4096, 4096, 2, 4096, 1, 256, 0, 32},  {4096, 4096, 4096, 1, 1, 512}};
}

// The kernel body; the API's source defines LANE (local id), GROUP (group id), VEC2, D (the
// buffer), OUT (the second buffer) and UNROLL before it.
inline std::string strided_body(const StridedCase& c) {
  const unsigned batch = std::min(c.batch, c.values());
  const auto u = [](unsigned v) { return std::to_string(v) + "u"; };
  const auto rows_at = [&](unsigned spacing) {
    return spacing == 1 ? "(block * " + u(c.rows) + " + m)" : "(block + m * " + u(spacing) + ")";
  };
  const std::string row_of_m = rows_at(c.spacing);
  const std::string out_row = rows_at(c.out_spacing == 0 ? c.spacing : c.out_spacing);
  const std::string target = c.out_spacing == 0 ? "D" : "OUT";
  return " uint lane = LANE, g = GROUP;\n uint col = (g % " + u(c.pitch / c.columns) + ") * " + u(c.columns) +
         ";\n uint block = g / " + u(c.pitch / c.columns) + ";\n for (uint i0 = 0u; i0 < " + u(c.values()) +
         "; i0 += " + u(batch) + ") {\n  VEC2 v[" + std::to_string(batch) + "];\n  UNROLL\n  for (uint j = 0u; j < " +
         u(batch) + "; ++j) { uint e = lane + (i0 + j) * " + u(c.threads) + "; uint m = e / " + u(c.columns) +
         "; v[j] = D[" + row_of_m + " * " + u(c.pitch) + " + col + e % " + u(c.columns) +
         "]; }\n  UNROLL\n  for (uint j = 0u; j < " + u(batch) + "; ++j) { uint e = lane + (i0 + j) * " + u(c.threads) +
         "; uint m = e / " + u(c.columns) + "; " + target + "[" + out_row + " * " + u(c.pitch) + " + col + e % " +
         u(c.columns) + "] = -v[j]; }\n }\n";
}

}  // namespace fftscope::test
