#pragma once
// The sizes and split cases both fast-path suites (test_fast_cl, test_fast_gl) run, kept in one
// place so the two backends are always checked on the same list.

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <tuple>

#include "core/types.h"

namespace fftscope::test {

struct FastSize {
  std::size_t width, height;
};
using FastCase = std::tuple<FastSize, Direction>;

/// Powers of two, 2·3·5·7-smooth, odd (13 x 11), long thin lines, both directions.
inline auto fast_cases() {
  return ::testing::Combine(::testing::Values(FastSize{8, 8}, FastSize{64, 32}, FastSize{256, 256}, FastSize{1000, 8},
                                              FastSize{30, 210}, FastSize{1024, 1024}, FastSize{13, 11},
                                              FastSize{16, 4096}, FastSize{8192, 8}),
                            ::testing::Values(Direction::forward, Direction::inverse));
}

inline std::string fast_case_name(const ::testing::TestParamInfo<FastCase>& info) {
  const FastSize size = std::get<0>(info.param);
  return std::to_string(size.width) + "x" + std::to_string(size.height) + "_" + to_string(std::get<1>(info.param));
}

/// Lines longer than a 4096-byte local-memory cap (512 elements), so both axes split in 2:
/// through registers (default) or through the buffer, twiddles as powers of one table entry
/// (default) or all from the table.
struct FastSplitCase {
  std::size_t width, height;
  bool through_buffer, twiddle_powers;
};
inline constexpr std::size_t fast_split_local_bytes = 4096;
inline constexpr FastSplitCase fast_split_cases[] = {{512, 960, false, true}, {960, 512, false, false}, {960, 512, true, true}};

}  // namespace fftscope::test
