#pragma once
// The fast path's plan for one axis (issue 6), shared by the OpenCL and the GL backend and by the
// core's memory estimate (validate.cpp): how many lines a work-group transforms, the Stockham
// radices, the optional decimation-in-frequency split for lines longer than local memory, the
// work-group size, and the #defines that kernels/fast_fft.cl and shaders/fast_fft.comp take;
// and, for lengths it cannot take directly (a prime factor above 13), Bluestein's padded
// length, chirp and filter (route_axis). Header-only, no GPU code: a pure function of the size,
// the device limits and the tuning.

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/plan.h"
#include "core/timing.h"
#include "core/types.h"

namespace fftscope {
class PlanWisdom;
}

namespace fftscope::fast {

/// What the device allows one work-group.
struct DeviceLimits {
  std::uint64_t local_bytes = 48 * 1024;  ///< local (CL) / shared (GL) memory per work-group
  std::uint32_t max_threads = 1024;       ///< work-items (invocations) per work-group
  std::uint32_t compute_units = 0;        ///< multiprocessors (0: unknown)
  /// Registers per multiprocessor that resident work-groups share, where the backend can bound a
  /// kernel's registers (OpenCL on NVIDIA: 65 536, CL_DEVICE_REGISTERS_PER_BLOCK_NV; 0: unknown
  /// or no bound, GL).
  std::uint32_t unit_registers = 0;
};

/// Knobs of the planner; the defaults were chosen for NVIDIA Hopper (see docs/fast_path.md).
struct Tuning {
  std::uint32_t row_elements = 2048;        ///< short rows: group rows until this many elements
  std::uint32_t col_lines = 8;              ///< neighbouring columns per group, at most
  std::uint32_t elements_per_thread = 8;    ///< complex values each work-item holds per stage
  std::uint32_t max_threads = 256;          ///< work-group size cap (NVIDIA: up to 255 registers each)
  std::uint64_t local_bytes_cap = 48 * 1024;  ///< plan as if local memory were at most this
  std::uint32_t max_pre_hold = 64;          ///< registers (complex) for the split's y_q values
  std::uint32_t twiddle_powers = 1;         ///< 1: read w once per butterfly, w^r by multiplication
  /// Each stage reads the next stage's twiddles ahead (with twiddle_powers): 0 never, 1 in split
  /// plans, 2 in every plan. H100, OpenCL: 4096-point columns (split 4 x 1024) 167 -> 154 us,
  /// 8192-point columns 940 -> 834 us; unsplit rows lost up to 6% (2401: 38.7 -> 41.2 us).
  std::uint32_t prefetch_twiddles = 1;
  /// 1: the complex path's rows (row_tuning) read the next stage's twiddles ahead in every plan,
  /// whatever prefetch_twiddles says for the other passes. H100, GL (sixteenth session, rows):
  /// 2048-point 30.9 -> 30.2 us, 2187-point 44.3 -> 42.6, 3125-point 98.3 -> 96.6, 4000-point
  /// 139.5 -> 137.5; the same in every pass lost GL's 4000-point four-step columns (pass A 109 ->
  /// 137) and OpenCL's unsplit rows (2401-point 38.7 -> 41.2), so OpenCL keeps 0.
  std::uint32_t row_prefetch_twiddles = 0;
  /// 1: where the layout allows (AxisPlan::stage0_from_registers), a split's sub-transforms start
  /// from the registers instead of a round trip through local memory. H100: CL 2048-point columns
  /// 25.2 -> 23.2 us, 8192-point rows 538 -> 509; GL 4096-point columns 199 -> 186 (GL 8192-point
  /// columns lost: 2136 -> 2508).
  std::uint32_t stage0_from_registers = 1;
  /// 1: direct split columns whose first stage could read the registers at a group size that is
  /// not a multiple of 32 take that size (the largest dividing both the first stage's step and the
  /// group's elements, from half the group up to max_threads): each sub-transform then skips its
  /// round trip through local memory and two group barriers. H200, forty-second session, per pass
  /// (run350): GL 3125-point columns (5 x 625, 1 024 -> 1 000 invocations) 106.0 -> 89.7 us,
  /// 3024-point (7 x 432, 512 -> 432) 133.2 -> 121.1, 3000-point 88.2 -> 83.2, 2160-point 84.8 ->
  /// 82.4, 1440-point 22.8 -> 21.8, 2401-point 68.7 -> 67.6, 1080-point 18.6 -> 18.0, 4000-point
  /// 157.6 -> 158.5; OpenCL 3125-point (256 -> 250 work-items) 106.8 -> 93.0, 2160-point (256 ->
  /// 180) 68.9 -> 59.6, 3000-point (256 -> 200) 74.0 -> 66.8, 1080-point 17.1 -> 17.2, 1440-point
  /// (256 -> 240) 18.5 -> 19.2, 2187-point (192 -> 162) 44.8 -> 46.6. Not where the count would
  /// hold more than max_pre_hold values (exact_split_max_pre_hold), nor Bluestein's passes.
  std::uint32_t exact_split_threads = 1;
  /// Direct split columns of 4 lines per group, split by other radices than 3, whose first stage
  /// reads the registers (an exact group size) in at least 192 work-items
  /// (detail::exact_hold_min_threads) may hold up to this many values per work-item where
  /// max_pre_hold allows fewer (0: max_pre_hold for all). H100,
  /// OpenCL, columns per pass (run426-run428): 4000-point 145 -> 128 us (4 x 1000 in 200
  /// work-items for 256; 4000^2 in the sweep 249 -> 232), 3430-point 138 -> 125 (5 x 686 in 196),
  /// 3850-point 170 -> 154, 4200-point 245 -> 169 (4 split 4 x 1050 for 2 split 2 x 2100),
  /// 4500-point 283 -> 191, 5000-point 344 -> 260, 4320-, 4800-, 5040-, 5120-point 237 -> 183,
  /// 266 -> 191, 301 -> 227, 398 -> 199 (4 lines for four steps); 3528-point 117 -> 118. It lost
  /// with 84 to 96 values (3600-point 112 -> 301 as 3 x 1200 in 150, 5625-point 431 -> 754,
  /// 7875-point 1004 -> 2497), with 72 in groups of 143 and 180 (2574-point 70 -> 79, 3240-point
  /// 85 -> 96: one group per multiprocessor, so a small one leaves it few warps), and in groups of
  /// 2 lines (8100-point 916 -> 1056, 7560-point 765 -> 791). Where the plan allowed was not exact
  /// (2401-point 60 -> 85, 4802-point 328 -> 533), held 8 lines (2160-point 63 -> 79) or was
  /// Bluestein's (4099^2 1359 -> 2243), it lost too (run426: max_pre_hold 96 for every plan).
  /// Splits by 3 (66 to 78 values in 196 to 242 work-items) mostly lost (run432: 3234-point 124.7
  /// -> 131.6, 3564-point 111.1 -> 127.3, 3744-point 119.4 -> 128.3, 3822-point 171.7 -> 186.2;
  /// 3960-point 139.1 -> 140.0, 3528-point tied; 3993-point 175.2 -> 164.7 won), so they hold
  /// max_pre_hold. run435, the rule's other sizes (against 0): 4356-, 4400-, 4410-, 4480-, 4536-,
  /// 4680-, 4840-, 4860-, 4900-point columns 227-332 -> 156-223 us, all won; 4620-point (5 x 924
  /// (4 3 7 11) in 231) lost, 301.6 -> 411.4 (305-310 -> 411-413 in run442's three rounds).
  /// run444, the last four: 4125-, 4212-, 4235-, 4375-point 264 -> 188, 227 -> 141, 254 -> 226,
  /// 288 -> 204. Of the 25 square sizes it moves, 24 won.
  std::uint32_t exact_split_max_pre_hold = 80;
  /// 16: powers of two as radix-16 stages (4 x 4 in registers), 25: also powers of 5 from 5^4 as
  /// radix-25 stages in unsplit plans (fast_radices), 8: radix 8 at most. H100, OpenCL: 4096^2
  /// 247 -> 237 us (columns (16 16 4) 153 -> 146 us), 1024^2 20.4 -> 19.8; 3125-point rows 77 ->
  /// 60 us with 25; GL lost with both (4096-point columns 185 -> 207 us, 3125-point rows 116 ->
  /// 144), so GL keeps 8.
  std::uint32_t max_radix = 25;
  /// A 2 and a 5 as one radix-10 stage, the lone 3 and a 5 as one radix-15 stage, where that
  /// makes fewer stages (fast_radices): 0 never, 1 in unsplit plans, 2 in every plan. H100,
  /// OpenCL: 4000^2 columns 4 x 1000 (10 10 10) 190 -> 177 us, rows (16 10 5 5) 96 -> 93; 3840 x
  /// 2160 columns 90 -> 84; 1500^2, 1920 x 1080, 2560 x 1440 rows and columns 1-2 us each;
  /// 3000^2 lost 4 us of 156 (docs/fast_path.md).
  std::uint32_t composite_radices = 2;
  /// Local lines without the padding of one element in 16 (LOCAL_PAD 0): then every element's
  /// local index is one computed index plus a constant (fast_fft.comp's lidx_plus), which
  /// NVIDIA's GLSL compiler needs, while the padding keeps strided accesses off each other's
  /// banks. 0: padded; 1: odd lengths unpadded (every radix odd, so every stride odd: the padding
  /// spreads nothing); 2: also columns of lengths that are not powers of two, 4 or more per
  /// group (a warp spans LINES lines, whose stride already spreads the banks); 3: also such
  /// rows, except splits in time and those padded_rows_min_twos keeps padded. H100, 1: GL 2187^2
  /// 114.7 -> 103.3 us, 3125^2 223.6 -> 207.8, 2401^2 133.3 -> 128.7, OpenCL 2187^2 79.9 -> 74.8;
  /// 2 (columns): OpenCL 4000-point 177 -> 162, 3000-point 99 -> 87, GL 2000-point 46 -> 41, but
  /// OpenCL's Bluestein columns of one line per group lost (9216-point 366 -> 512); 3 (rows): GL 6000-point (split 2 x 3000 in
  /// frequency) 305 -> 223, 4000-point 121.5 -> 113.9, 2000-point 35.6 -> 32.1, 1920-point 18.6
  /// -> 20.1, Bluestein's 9216-point in time 446 -> 484; OpenCL's rows lost everywhere
  /// (4000-point 93 -> 132: bank conflicts its compiler does not pay for in index arithmetic).
  std::uint32_t local_unpadded = 2;
  /// 1: power-of-two rows of one line per group whose exchange goes through half the shared
  /// memory (local_halves) keep their M floats unpadded, each index's low five bits XORed with
  /// the next five (AxisPlan::local_layout swizzled), where that lets half as many groups again stay
  /// resident (unit_local_bytes): a permutation that leaves the radix-16 and radix-8 Stockham
  /// exchanges free of bank conflicts as the padding does (counted over the warps' accesses). H200,
  /// GL (thirty-seventh session): 4096-point rows in 16 384 bytes instead of 17 408, three groups
  /// per multiprocessor instead of two, 89.3 -> 79.7 us (4096^2 224.4 -> 214.5, its display 148.3
  /// -> 144.0); 2048-point rows (five groups -> six) lost, 22.4 -> 26.1, and so did OpenCL's rows
  /// exchanged as complex values (2048-point 17.5 -> 18.7, 8192-point 354 -> 360). 0: never.
  /// Rows of a multiple of 32 that is not a power of two were tried swizzled whatever the padding
  /// rules and the residency said (thirty-ninth session; fewer bank cycles by
  /// scripts/bank_conflicts.py) and lost on the H200 (GL, per pass: 4000-point 99.0 -> 131.3 us,
  /// 3200-point 71.0 -> 84.0, 3840-point 57.2 -> 65.1), so that option is gone.
  std::uint32_t swizzled_rows = 0;
  /// 1: the same for columns held 32 or more per group (a warp's lanes then each hold another
  /// column, at the same index): element i of line l at i ^ (l & 31), unpadded, instead of the
  /// padding and a line stride of 1 mod 32 banks, where that lets half as many groups again stay
  /// resident: GL 8192^2's four-step pass B (32 columns of 128 points through the halves, 512
  /// invocations) in 16 384 bytes, three groups per multiprocessor instead of two. H200, GL
  /// (thirty-eighth session, two rounds): that pass 610.9 -> 595.5 us (8192^2 1 000.7 -> 983-986,
  /// its display 687 -> 669), 8192 x 4096's 64 columns of 64 points 306.9 -> 289.6. GL's default;
  /// OpenCL's columns keep 34 816 bytes, which its larger local memory holds anyway. 0: never.
  std::uint32_t swizzled_columns = 0;
  /// With local_unpadded 3, rows stay padded where 2 divides their (sub-)length at least
  /// padded_rows_min_twos times (0: no row) and 5 fewer than unpadded_rows_min_fives times: strides
  /// of 16 points and more meet in the banks unpadded, and only the radix-5-heavy rows gain more
  /// from the shorter index arithmetic. H100, GL, rows padded (run286, run287): won 1920-point
  /// 19.1 -> 17.3 us, 2560-point 29.1 -> 26.8, 4032-point 109.8 -> 105.1, 7168-point (split 2 x
  /// 3584) 240.4 -> 232.7, 3200-point 83.7 -> 81.8, 2160-point 40.0 -> 38.7, 1200-point 18.4 ->
  /// 17.0, 1440-point 17.9 -> 16.8, 1600-point 17.5 -> 16.5, 3584-point 85.8 -> 84.9, 960-point 13.3
  /// -> 12.5, 1280-point 12.5 -> 11.8, 1536-point 18.7 -> 18.0; lost where 5^3 divides (4000-point
  /// 108.2 -> 114.4, 2000-point 30.7 -> 34.4, 3000-point 79.1 -> 81.3, 1000-point 13.8 -> 14.2,
  /// 6000-point split 2 x 3000 213 -> 296) and where fewer than 2^4 do (3430-point 80.9 -> 117.6,
  /// 5400-point 317.7 -> 374.7, 2744-point 63.0 -> 64.6, 1372-point 17.0 -> 17.7, 1400-point 17.4 ->
  /// 17.7); 3840-point lost too (59.1 -> 60.1), 720- and 1080-point within 0.1.
  std::uint32_t padded_rows_min_twos = 0;
  std::uint32_t unpadded_rows_min_fives = 0;
  std::uint32_t split_global = 0;           ///< 1: split through the buffer (DIT), 0: through registers (DIF)
  /// Fewer rows per group while the row pass would have fewer than this many groups per compute
  /// unit (small images: 256^2 rows in groups of 8 were 32 groups for 132 multiprocessors).
  /// Columns keep their groups: narrower column groups measured slower at every size.
  std::uint32_t min_groups_per_unit = 2;
  /// The planner's first round takes no split or a power-of-two split up to this (see plan_axis).
  std::uint32_t first_split_max = 4;
  /// The first round also takes an odd split up to this: 2187-point columns (3^7) ran 13% faster
  /// on the H100 (OpenCL) as 4 lines split 3 x 729 than as 2 lines unsplit; GL lost with the split
  /// by 3 (docs/fast_path.md). Splits by 5 and 7: odd_splits_past_four_columns.
  std::uint32_t first_split_odd_max = 3;
  /// 1: columns whose four lines unsplit exceed the local memory (48 KiB: longer than 1 536 points)
  /// may also split by 5 and 7 in the first round (first_split_odd_max then counts as at least 7,
  /// unless it is 1: no odd split). H100, OpenCL (sixtieth session, run424, run425, per pass):
  /// 2401-point columns 78.1 -> 59.5 us (4 split 7 x 343 for four steps of 49; 2401^2 117.3 -> 98.7
  /// in the sweep beside cuFFT's 117.7, its display 75.8 -> 69.1), 1715-point 45.4 -> 30.0 (8 split 5
  /// x 343 for 2 unsplit), 1750-point 37.8 -> 28.8 (8 split 5 x 350 for 4 split 2 x 875), 3430^2 529
  /// -> 218 (4 split 5 x 686 for 2 split 2 x 1 715, whose rows went into tiles); real display 1715^2
  /// 47.5 -> 39.5, 1750^2 45.6 -> 41.8, 3430^2 202 -> 148. Where four lines fit unsplit it lost or
  /// tied: 1225-point columns 19.4 -> 20.7 (8 split 5 x 245 for 4 unsplit), 875^2's display 18.9 ->
  /// 20.9. The first split by 7 on OpenCL (first sessions) had run 1.8x slower than 2 lines unsplit.
  /// GL keeps its own rules (first_split_odd_min, odd_length_splits): 0.
  std::uint32_t odd_splits_past_four_columns = 1;
  /// Above 1: the first round's odd splits are by at least this radix (GL: 7 alone), of columns
  /// only, in groups of the full col_lines columns, and at least min_groups_per_unit groups per
  /// compute unit where the units are known (one group per multiprocessor holds a split's
  /// registers: fewer leave most of a last wave idle). H100, GL, 8 columns split by 7 (looped)
  /// instead of four steps: 2401^2 127.4 -> 116.3 us (7 x 343), 3584^2 243.4 -> 206.4 (7 x 512);
  /// 2401^2's display columns (1 204 pairs: 151 groups of 8, 1.1 waves) lost, 78.9 -> 84.9, and
  /// 4 columns and rows split by 7 lost at 6125^2 (1 307 -> 1 346 us) and won at 7000^2 (1 856 ->
  /// 1 797; columns only), so neither takes it. Splits by 3 and 5 lost (3000^2 174.8 -> 203.4,
  /// 2560 x 1440 61.7 -> 66.0).
  std::uint32_t first_split_odd_min = 0;
  /// 1: where the first round splits columns, a split of the same group width by any radix up to
  /// 8 (odd ones in groups of the full col_lines only) with fewer Stockham stages replaces the one
  /// the rules above take (the fewest stages, then a power-of-two sub-length, then the smaller
  /// split). H100, GL, columns (run285):
  /// 1080-point 23.8 -> 19.3 us (3 x 360 (8 9 5) for 2 x 540 (4 9 3 5)), 960-point 13.6 -> 12.8,
  /// 1372-point 26.9 -> 25.7, 1400-point 25.3 -> 24.5, 1536-point 25.4 -> 23.1, 2744-point 100.0 ->
  /// 86.8, 5400-point (4 per group) 832 -> 580; 1280-point 14.1 -> 15.0 and 1000-point 14.0 ->
  /// 14.2 lost. Letting equal stage counts replace it lost (3430-point 223 -> 243 as 5 x 686 for
  /// 7 x 490, 3000-point 98 -> 127, 896-point 11.8 -> 13.7), so only fewer do.
  std::uint32_t first_split_fewer_stages = 0;
  /// Unsplit plans whose stages would exchange more than this many bytes of local memory as
  /// complex values exchange real and imaginary parts in turn through half of it
  /// (AxisPlan::local_halves; 0: never). GL's default: NVIDIA's GL keeps about 48 KiB of shared
  /// memory per multiprocessor for compute (one group of 32 KiB resident, two of 24, three of
  /// 16), its OpenCL up to 228, so OpenCL keeps 0. H100, GL: 4096-point rows 140 -> 112 us,
  /// 3125-point rows 146 -> 115; plans already at two groups lost (2048-point rows 33 -> 40), and splits, whose
  /// registers allow one group anyway, gained nothing (4096-point columns 189 -> 194).
  std::uint32_t local_halves_above = 0;
  /// 1: columns whose complex exchange would leave two per group unsplit take four by their
  /// halves (AxisPlan::local_halves: 32-byte row segments instead of 16), whatever
  /// local_halves_above says. Other plans that fit only by their halves lost to the plans they
  /// displaced (H100, GL: 8 columns of 1024 unsplit instead of split 12.6 -> 15.9 us, 2 columns
  /// of 3125 instead of 8 split 150 -> 242, 8192-point rows unsplit 557 -> 670). H100: GL
  /// 2187-point columns 87 -> 75 us, 2401-point 109 -> 98 (GL's default); OpenCL 2187-point
  /// columns 50.4 -> 63.1 us (instead of 4 split 3 x 729), 2401-point 84.0 -> 84.3, so 0.
  std::uint32_t four_columns_by_halves = 0;
  /// 1: columns of odd length with a factor 3 or 5 whose four columns' complex values (unpadded)
  /// exceed the local memory and their floats do not (GL's 48 KiB: 1 537 to 3 072 points) may
  /// split by 3 and 5 in the first round in groups of 4 or more, whatever first_split_odd_min
  /// says, and take none four by their halves (a split by 7 that fits first stays first).
  /// Splits by 7 keep first_split_odd_min's conditions (2401^2's display columns, 151 groups of 8
  /// split by 7, lost on the H100: 78.9 -> 84.9 us), as do even lengths. Measured after split
  /// columns read their first stage from the registers at exact group sizes
  /// (exact_split_threads); H200, GL, per pass (run362, run368): 2187-point columns 57.2 -> 51.8
  /// us (4 split 3 x 729 in 324 invocations for 4 by halves in 1 024; GL 2187^2 88.0 -> 83.2 beside
  /// cuFFT's 73.4 and VkFFT's 83.1), 1875-point 45.1 -> 34.0, 2025-point 50.9 -> 38.1, 1701-point
  /// 39.8 -> 29.1, 1575-point 32.7 -> 30.3, 2835-point 77.5 -> 71.0 (5 x 567 for 7 x 405), 4096 x
  /// 2187's columns 132.3 -> 87.0 (four steps). Shorter lengths, whose unsplit four columns fit
  /// two groups per multiprocessor, won and lost (1215-point 23.8 -> 21.9, 1029-point 16.7 ->
  /// 14.0; 1125-point 19.7 -> 21.7, 1323-point 24.5 -> 26.5, 945-point 14.4 -> 15.1, 729-point
  /// 11.5 -> 11.8), and longer ones lost where four columns do not fit even by their halves
  /// (3969^2's display columns 81.5 -> 120.7 as 4 split 3 x 1 323 for 8 split 7 x 567), so neither
  /// takes it. Even lengths lost or tied (1458-point 28.3 -> 29.4, 3000-point 84 -> 113 as 5 x 600
  /// for 8 x 375, 2430-point 78.0 -> 77.5). The real display's 2187-point columns lost a little
  /// (35.1 -> 35.9).
  std::uint32_t odd_length_splits = 0;
  /// 1: columns of even length with a factor 7, 11 or 13 that would go four by their halves,
  /// unsplit (four_columns_by_halves, local_halves_above), may split by 5 or 7 in the first round
  /// instead, in groups of the full col_lines columns, at least one group per compute unit,
  /// whatever first_split_odd_min says (measured only against those plans and the four steps
  /// route_axis takes for some of them). H100, GL, columns per pass (run426, run433, run434), 8
  /// split by 5 or 7 for 4 by their halves: 1430-point 30.0 -> 28.9 us, 1638-point 40.0 -> 38.5,
  /// 1650-point 36.9 -> 34.1, 1690-point 38.8 -> 33.6, 1694-point 42.1 -> 39.6, 1750-point 42.1 ->
  /// 37.8, 1890-point 47.2 -> 37.7, 1950-point 49.5 -> 46.4, 2002-point 54.5 -> 46.3, 2750-point
  /// 112.5 -> 93.6, 2860-point 126.0 -> 96.9, 1470-point 30.8 -> 30.3; 2058-point 72.0 -> 44.9 (7
  /// x 294 for four steps 42 x 49). The 5-smooth lengths lost a little (2250-point 69.0 -> 69.6,
  /// 2430-point 80.5 -> 82.5: their halves' stages are radix 10, 9, 5 and 3), hence the factor.
  /// Not the real display's columns (route_real_columns), half as many, which lost. Splits by 3
  /// there won and lost (1890-point 47.5 -> 40.0, 2106-point 58.2 -> 54.0; 1470-point 30.7 ->
  /// 31.9, 1782-point 45.0 -> 49.6, 1950-point 49.6 -> 54.9), so they keep first_split_odd_min's.
  std::uint32_t even_columns_odd_splits = 0;
  /// 1: the complex path's power-of-two rows of 2048 points and more take radix-16 stages in
  /// groups of at most 256 whatever max_radix and max_threads say (row_tuning). H100, GL (whose
  /// columns lost with radix 16: 4096-point 185 -> 207 us, and whose other rows lost with 256
  /// invocations: 4000-point 151 -> 171, 2401-point 48 -> 62-80): 8192-point rows 491.6 ->
  /// 428.2, 4096-point 112.2 -> 107.0, 2048-point 32.6 -> 32.1; 1024-point 13.1 -> 13.3 and
  /// 256-point 7.8 -> 8.9 lost, hence the bound. Where local_halves_above is set, those rows also
  /// exchange through half the shared memory from 16 KiB (2048-point rows 30.3 -> 27.1 us).
  std::uint32_t pow2_rows_radix16 = 0;
  /// 1: the complex path's rows whose length 16 divides but is not a power of two take radix-16
  /// stages where those make fewer stages than max_radix's (rows_max_radix, row_tuning). H200, GL,
  /// fortieth session, per pass: 3840-point rows (8 8 4 15) -> (16 16 15) 57.6 -> 46.9 us,
  /// 1920-point (8 8 10 3) -> (16 8 15) 16.2 -> 15.9, 1440-point (8 4 9 5) -> (16 10 9) 15.5 ->
  /// 15.2. Radix 16 wherever 16 divides lost where it kept the stage count: 4000-point (16 10 5 5)
  /// 99.7 -> 108.5, 2000-point 27.7 -> 36.0, 2880-point 53.4 -> 57.3, 5184-point 172.4 -> 241.8
  /// (3200-point 71.1 -> 64.7, 4032-point 104.2 -> 102.3 and 960-point 11.1 -> 10.7 won; no rule
  /// told them apart). The real display's rows keep max_radix: with the rule, GL's 1920 x 1080
  /// display lost 24.9 -> 27.1 us and 1440^2's 26.0 -> 27.0 (3840 x 2160's won, 93.3 -> 89.9).
  std::uint32_t rows_radix16 = 0;
  /// Splits through registers decimate in time instead of in frequency (AxisPlan::split_dit): 0
  /// never; 1 row splits whose first stage reads the registers; 2 row splits and Bluestein's
  /// padded lines (both stored line after line); 3 every split. H100: 8192-point rows (2 x 4096)
  /// 490 -> 391 us on OpenCL, 556 -> 483 on GL; OpenCL 4099^2 (Bluestein, the scratch line after
  /// line) 1593 -> 1440 us with 2; GL's second Bluestein passes lost with 2 (4099-point rows
  /// 366 -> 504 us), so GL keeps 1; direct columns lost on both (OpenCL 8192-point 823 -> 840,
  /// 2048-point 22.4 -> 26.2; GL 4096-point 188 -> 204, 8192-point 2.8 -> 9.6-10 ms).
  std::uint32_t split_dit = 2;
  /// Bluestein's split columns decimate in time, whatever split_dit says, where a group holds at
  /// most this many of them (0: never): their scratch lies line after line, and a split in
  /// frequency stores each sub-transform's outputs P apart, in runs as short as the group's
  /// lines. H100, GL: 4099^2's columns (2 per group, 4 x 2304) 1075 -> 865 us (display 360 ->
  /// 258 for its first pass), 2053^2's (8 per group, 8 x 576) lost, 395 -> 495.
  std::uint32_t bluestein_cols_in_time = 0;
  /// Splits in frequency through registers by at least this radix, in groups of at most
  /// sub_transform_loop_max_threads work-items, run their sub-transforms as one loop
  /// (AxisPlan::sub_transform_loop; 0: never). NVIDIA's GL refetches a long program's
  /// instructions after each storage barrier, and runs long programs slower besides
  /// (docs/fast_path.md, thirtieth session); the loop makes the program about P times shorter.
  /// H100, GL (thirty-first session): 4096-point columns (8 x 512) 163.4 -> 153.5 us, 2048-point
  /// (4 x 512) 37.0 -> 35.6; splits by 2 lost or gained nothing (1024-point columns 12.2 -> 12.4,
  /// 1080-point 24.0 -> 23.8), and 1 024 work-items, held to 64 registers, spill (3125-point
  /// columns, 5 x 625: 120 -> 190). OpenCL runs long programs as fast as short ones, so 0.
  std::uint32_t sub_transform_loop_min_split = 0;
  /// The most work-items a group of such a loop has (sub_transform_loop_min_split): 128 registers
  /// each on NVIDIA hold the loop's values in 512. H100, GL (thirty-fifth session), 640 against
  /// 512, the split columns of 576 it moves: 1440-point (4 x 360) 38.4 -> 35.6 us at 2560 x 1440
  /// (the path 62.6 -> 58.8, its display 55.8 -> 51.5), but 2880-point (8 x 360) 88.2 -> 104.6
  /// (2880^2 143.5 -> 161.3); with splits by 2 and 3 too, 1080-point (3 x 360) 19.4 -> 22.1 and
  /// 720-point (2 x 360) 13.6 -> 15.2. So 512, and 640 a measured-planning candidate.
  std::uint32_t sub_transform_loop_max_threads = 512;
  /// Bluestein splits and the live part of their padded lines (AxisPlan::live_blocks,
  /// live_inputs): 0 never (they run as any split); 1 where the lines fit no other way (pass 1
  /// holds only its live inputs: padded lines of about twice as many points plan); 2 also pass 2
  /// of every split (it accumulates only the live bins). H100, OpenCL: 4099-point rows' second
  /// pass 316 -> 254 us, 8191-point 163 -> 134, 2053-point columns' 136 -> 122; GL lost with 2
  /// (4099-point rows 367 -> 432-453, columns 1080 -> 1500-1580), so GL keeps 1.
  std::uint32_t prune_padding = 2;
  /// 1: where the stage with the most butterflies (b, the smallest radix) would leave more than
  /// a third of its lanes idle in its rounds of T work-items, the group takes as few as keep the
  /// rounds, ceil(b / ceil(b / T)) rounded up to 32 (if the split's registers still allow it).
  /// H100: GL 3125-point rows (5^5, 625 butterflies: 512 -> 320) 115 -> 98 us, CL 2187-point
  /// columns (4 x 729 / 9 = 324: 256 -> 192) 58 -> 50; balanced anyway, plans with fewer idle
  /// lanes lost (CL 2401-point rows, a third idle: 38.2 -> 39.4; GL 2401-point columns 98 -> 101;
  /// CL 1920-point rows 13.3 -> 14.9) and split plans that then held too much changed layout
  /// (CL 4000-point columns 190 -> 257). 0: never.
  std::uint32_t balance_threads = 1;
  /// Split columns whose stage with the most butterflies needs more than one round of
  /// max_threads invocations but fits in one of at most this many take one round (0: never).
  /// H100, GL (sixteenth session): 3125-point columns (8 split 5 x 625, 1 000 butterflies: 512 ->
  /// 1 024 invocations) 150.3 -> 130.2 us (3125^2 247 -> 226), the real display's 4000-point
  /// columns (8 split 8 x 500) the display 269 -> 255; 1000-point columns 15.6 either way.
  /// Unsplit columns lost (4000^2's four-step pass A, 50-point columns, 416 -> 800 invocations:
  /// 4000^2 347 -> 360), and columns already in one round keep it (1 024 invocations for the
  /// 4096-point columns' 512 butterflies: 166.7 -> 189.6). OpenCL keeps 256 (max_threads), so 0.
  std::uint32_t col_one_round_threads = 0;
  /// The same for Bluestein's padded rows (split in time through registers, which hold every
  /// value of the line: more invocations hold fewer each). H100, GL (twenty-third session):
  /// 4099^2's rows (9216 points split 2 x 4608, 576 butterflies in the radix-8 stages: 288 -> 576
  /// invocations) 861 -> 632 us over both passes, 4099^2 1 934 -> 1 704 (measured planning found
  /// it). Other split rows lost or gained nothing (split in frequency, 1 024 invocations: 6144^2
  /// 802 -> 882 us, 8000^2 1 779 -> 1 814, 6000 x 4000 516 -> 521), and so did unsplit ones
  /// (4000-point rows in 1 024 invocations 115 -> 185 us). 0: never.
  std::uint32_t bluestein_row_one_round_threads = 0;
  /// Unsplit rows other than Bluestein's whose widest stage needs more than one round of
  /// invocations take it in one round of at most this many (0: never) where that cuts the
  /// complex values each invocation holds by a third or more (AxisPlan::hold: its registers, so
  /// that more groups fit). H100, GL (thirty-fourth session; registers by
  /// scripts/nvidia_gl_sass.py): 4032-point rows 288 -> 576 invocations 105.9 -> 85.1 us (18 ->
  /// 9 values held, 79 -> 44 registers; 4032 x 3024 250.3 -> 230.7, its display 161.7 -> 140.4),
  /// 2880-point 78.0 -> 58.1 (63 -> 39 registers), 2800-point 57.2 -> 48.1, 3200-point 320 -> 640
  /// 82.3 -> 75.1 (57 -> 42; 3200^2 188.9 -> 180.6). 5184-point rows in 672 lost, 138.6 -> 176.0:
  /// their 49 registers leave one group of 672 per multiprocessor where two of 352 ran, hence
  /// 640. Where the values held stay, one round lost: 1920-point rows 480 -> 640 17.4 -> 19.2,
  /// 3000-point 78.9 -> 100.7 (16 -> 15 values), 3840-point 60.0 -> 85.5, 4000-point 108.2 -> 160.3.
  std::uint32_t row_one_round_threads = 0;
  /// The same for odd lengths (every radix odd, few values and registers: 32-36 measured) where
  /// it puts more invocations on a multiprocessor at once, counted with unit_threads invocations
  /// and unit_local_bytes of local memory per multiprocessor (0: unknown, never). GL's shared
  /// memory holds few such groups (NVIDIA keeps 48 KiB per multiprocessor for compute: three
  /// 3125-point lines through halves, two 2187-point ones). H100, GL: 3125-point rows 320 -> 640
  /// 82.2 -> 74.5 us (3125^2 200.8 -> 193.7, its display 131.2 -> 121.0), 2187-point 512 -> 736
  /// 38.5 -> 37.5 (2187^2 98.3 -> 97.0); the 2187-point display rows through halves (four groups
  /// of 512 at once, two of 736) lost, 67.6 -> 78.8, and keep 512 by this count.
  std::uint32_t odd_row_one_round_threads = 0;
  std::uint32_t unit_threads = 2048;    ///< invocations a multiprocessor runs at once, at most (Hopper)
  std::uint64_t unit_local_bytes = 0;  ///< local memory a multiprocessor gives compute groups (0: unknown)
  /// Columns in two passes through a scratch image (AxisRoute::second, the four-step split
  /// n = a b) on images of at least this many bytes (complex float32) whose direct column plan
  /// needs a split that holds at most four_step_max_direct_lines columns per group, or (GL) has
  /// rows of four_step_min_pitch_bytes or more, or a sub-length that is not a power of two
  /// (four_step_uneven_split); 0: never. Each group then reads row segments of 16-64 columns (a
  /// tile of a rows b apart, then of b neighbouring rows) where the direct split reads 2-8.
  /// H100, OpenCL (2 columns per direct group, 16-byte segments): columns of 8192^2 819 -> 758
  /// us (380 + 378), 4096 x 8192 419 -> 390, 2048 x 8192 220 -> 206; 8192 x 4096 (4 per group)
  /// lost: 280 -> 379, 4096^2 146 -> 196. GL: its strided access collapses once a group's
  /// column touches many 64 KiB rows (8192^2, 8 columns per group: 1.6-3.7 ms against OpenCL's
  /// 0.66; 16 columns 0.45; tiles of 32-64 columns 0.39, as OpenCL's): 8192^2 columns 2.1-5.5
  /// ms -> 1.27, 4096 x 8192 701 -> 439 us, 2048 x 8192 240 -> 213, 8192 x 4096 (8 per group,
  /// 64 KiB rows) 560 -> 393, 4000^2 (split 8 x 500) 259 -> 208; 4096^2 lost (190 -> 207).
  std::uint64_t four_step_min_bytes = 128ull << 20;
  /// Four-step also where the direct split holds more columns, on rows of at least this many
  /// bytes (0: never; see four_step_min_bytes).
  std::uint32_t four_step_min_pitch_bytes = 0;
  /// Four-step also where the direct split's sub-length is not a power of two: 0 never, 1 always,
  /// 2 the real display's columns only (route_real_columns). H100, GL: the complex columns ran
  /// faster direct since the thirty-first session's looped splits (4000^2 301.1 -> 287.6 us,
  /// 3200^2 209.6 -> 192.6, 4000 x 3000 238.0 -> 210.1), the display's did not (8000 x 4000
  /// 439.8 -> 462.9, 4000^2 180.4 -> 181.9), hence 2 there (and rows of 40 KiB for the complex
  /// path's four steps: 6000 x 4000, 48 000-byte rows, 502 us either way). H200, GL complex: 4000^2
  /// won in four steps (span 254 -> 248 us) but 3200^2 and 4000 x 3000 lost (163 -> 167, 190 -> 207).
  std::uint32_t four_step_uneven_split = 0;
  /// Values a four-step pass's group holds, at most: its columns per group are the largest
  /// power of two up to this over the pass's length. H100, OpenCL 8192^2: pass B 378 / 391 us in
  /// groups of 32 / 16, pass A 381 / 380 in 64 / 32. GL (halves) took 2 048 out of place before
  /// its columns were swizzled (pass B's 128-point columns 812 us in groups of 32, 706 in 16) and
  /// 4 096 where swizzled since (8192^2 in place: pass B 392 -> 380 us, pass A 406 -> 400 in the
  /// fifty-first session; out of place in the fifty-second: 4096 x 8192 612-632 -> 595).
  std::uint32_t four_step_elements = 4096;
  std::uint32_t four_step_max_direct_lines = 2;  ///< see four_step_min_bytes
  /// Where four_step_min_bytes asks for four steps but no power-of-two group divides the width
  /// (plan_four_step finds none), direct split columns of at most this many lines per group (1:
  /// 8-byte row segments) go in four steps through groups of the width's nearest divisor
  /// instead; 0: they stay direct. H100, OpenCL, columns per pass (run432): 7865-point 1 376 ->
  /// 1 029 us, 8085-point 1 637 -> 954, 8125-point 1 586 -> 958, 8190-point 1 513 -> 889 (8190 =
  /// 90 x 91 in groups of 30); 8190^2 in the sweep 2 142 -> 1 526 beside cuFFT's 2 384 and VkFFT's 1 797;
  /// 8085^2's real display 1 638 -> 925 (run435). Two lines per group (2) won and lost (run435,
  /// per pass): 4290-point 275 -> 262, 4802-point 325 -> 308, 7500-point 839 -> 777; 5625-point
  /// 431 -> 473, 6250-point 491 -> 549, 7560-point 767 -> 799; 5400, 7000, 8100 tied. So 1, and
  /// 2 a measured-planning candidate. GL takes 2: its two-line split columns (2 x M in up to 992
  /// invocations) moved 350-770 GB/s (read and written; a copy about 2 900), and every one of the
  /// 20 lengths this moves won (H100, GL, columns per pass, run438, run440, run441): 2970-point
  /// 193 -> 143 us, 3250-point 237 -> 171, 4374-point 650 -> 304, 4802-point 923 -> 339,
  /// 5070-point 1 138 -> 439, 5082-point 1 181 -> 423.
  std::uint32_t four_step_divisor_groups = 1;
  /// The same for split columns of up to this many lines per group whose sub-transforms take a
  /// radix-2 stage (M's one factor 2 as a stage of its own: (2 3 7 7 7), (2 7 7 11)); 0: none beyond
  /// four_step_divisor_groups. H100, OpenCL, columns per pass, two lines per group (run437,
  /// run438): 4116-point 455 -> 239 us, 5292-point 631 -> 359, 6174-point 566 -> 486,
  /// 7546-point 1 900 -> 813, where two-line columns without a radix-2 stage won and lost. Of its
  /// 17 lengths 11 won (by 1.1-2.5x: 8008-point 2 046 -> 805, run440), 2 tied and 4 lost by 3-15 %
  /// (6318, 6370, 6534, 7986: direct plans already at 1.1-1.2 TB/s).
  std::uint32_t four_step_radix2_divisor_groups = 2;
  /// The same for split columns of up to this many lines per group on images of at least
  /// large_four_step_divisor_min_bytes (0: none). GL's 4-line split columns of the large images
  /// ran far below the copy speed; H100, GL, columns per pass (run437-run439): 5145-point 547 ->
  /// 433 us, 5292-point 623 -> 396, 5500-point 675 -> 392, 6174-point 1 283 -> 541, 7128-point
  /// 1 397-1 564 -> 849-869, 7560-point 1 837-1 885 -> 1 056, 8100-point 4 402 -> 1 300,
  /// 8190-point 4 074-4 797 -> 1 325; smaller images lost (2916-point 109 -> 132, 3564-point
  /// 162 -> 208, 4860-point 495 -> 592).
  std::uint32_t large_four_step_divisor_groups = 0;
  std::uint64_t large_four_step_divisor_min_bytes = 200ull << 20;
  /// 1: the four-step passes exchange through half the shared memory (AxisPlan::local_halves,
  /// GLSL only), so more groups stay resident.
  std::uint32_t four_step_halves = 0;
  /// Four-step also where the direct column plan is unsplit, on images of at least this many
  /// bytes whose direct groups hold at most four_step_max_direct_lines columns, if both passes
  /// take at least 32 columns per group (256-byte row segments); 0: never. H100, 2401^2 (49 x
  /// 49, groups of 49): OpenCL columns (2 per direct group) 83.6 -> 78.5 us, GL (4 by halves)
  /// 95.7 -> 88.9; passes with fewer columns lost (2187 = 27 x 81, pass B 27 columns: OpenCL
  /// 50.0 -> 65.4, GL 74.4 -> 79.8; 3125 = 25 x 125: 120 -> 142, 150 -> 159). The real
  /// display's columns compare the image's complex bytes, twice Z's (route_real_columns).
  std::uint64_t four_step_unsplit_min_bytes = 32ull << 20;
  /// On images of at least this many bytes (complex float32; the real display: its pair
  /// columns), four-step columns n = a b with b a multiple of a run both passes in place,
  /// pass B storing its bins in an order that leaves the rows swapped in pairs (RowSwap), and the
  /// rows then transform each pair, each row's transform stored in its partner's place (the
  /// columns run first; pair_rows_with_columns); 0: never (image -> scratch -> image). GL only:
  /// its passes between two 512 MiB buffers run at 2.0 TB/s where in place they run at 2.9.
  /// H100: 8192^2 1 640 -> 1 230 us, display 914 -> 754; 8192 x 4096 (256 MiB) 639 -> 628,
  /// display (Z 128 MiB) 434 / 436; 8192 x 2048 (128 MiB) lost, 320 -> 339.
  std::uint64_t four_step_in_place_min_bytes = 0;
  /// four_step_elements for a pass whose layout by four_step_elements would not be swizzled
  /// (0: the same). H100, GL (fifty-second session), groups of 2 048 against 4 096 values:
  /// swizzled passes (power-of-two lengths) won by 4 096 (16384 x 4096 1 657 -> 1 551 us,
  /// 4096 x 8192 612-632 -> 595, 16384 x 2048 673 -> 646), unpadded ones lost (8000 x 4000 740 ->
  /// 762, its display 454 -> 468; 8000^2 1 766-1 789 -> 1 794-1 797; 2401^2's display, whose pair
  /// columns four_step_unsplit_min_bytes then takes in four steps of groups of 86, 79.6 -> 88.5).
  std::uint32_t four_step_unswizzled_elements = 0;
  /// Bluestein's padded length where it is one of bluestein_lengths(n); else (0) their order.
  std::uint32_t bluestein_length = 0;
  /// The real display's rows (plan_display_rows): 1 colour each bin where a complex pass would
  /// store it (the last stage, or the split in time's combine), so they also take the exchange
  /// through half the shared memory (GL, H100: 4096-point display rows 121 -> 109 us); 0 the
  /// last stage (a split in time: its combine, a block of bins at a time) writes local memory and
  /// a loop over the group's bins colours them (DISPLAY_FROM_LOCAL; OpenCL, whose compiler
  /// otherwise keeps the colouring of every value a work-item holds in registers: 4096-point
  /// display rows 82 us with 64 registers against 192 us with 172; 8192-point rows in time 489
  /// us against 1 297, in frequency 532).
  std::uint32_t display_from_registers = 0;
  /// Square images of at most this many bytes (complex float32) whose columns are one unsplit
  /// pass run both axes in one dispatch (fused_route; OpenCL only; 0: never). H100, OpenCL, the
  /// span of a transform between markers with the queue held: 256^2 18.5 -> 12.5 us, 512^2
  /// 19-25 -> 12.5; GL (the same protocol, measured and not kept): 256^2 13.6 -> 14.7 us. Past
  /// 512^2 (2 MiB) one dispatch lost to two (run426, the axes' kernels per transform, two
  /// rounds: 640^2 18.6 -> 14.7-15.1 us, 700^2 18.4 -> 17.4, 875^2 29.2 -> 21.1-22.2, 1001^2
  /// 28.8 -> 23.4; 512^2 12.0-13.2 against 12.6-12.8): each phase has only n / col_lines groups.
  std::uint64_t fused_max_bytes = 2ull << 20;
  /// 1: also where those columns are split through registers (in frequency; not through the
  /// buffer), as 1000^2's and 1024^2's are on NVIDIA (8 columns of 1 024 in 64 KiB), the rows
  /// then taking the split column plan too; 0: unsplit columns only. OpenCL 1000^2 and 1024^2 are
  /// 1.24x and 1.26x cuFFT in two dispatches under the sweep's markers (H200, forty-third
  /// session), where one dispatch saved 256^2 and 512^2 about 6 us (H100, tenth session).
  std::uint32_t fused_split_columns = 0;
  /// Registers per work-item a fast pass's kernel may use, at most (AxisPlan::max_registers; 0:
  /// the compiler's choice): OpenCL on NVIDIA only, whose program binary is PTX (`.maxnreg`).
  /// Its compiler gives a kernel of 256 work-items up to 255 registers, one group per
  /// multiprocessor, and ignores -cl-nv-maxrregcount. Complex passes: measured 128 slower where
  /// they use more (H100: 4096-point columns 146 -> 318 us, 8192-point rows 391 -> 500).
  std::uint32_t max_registers = 0;
  /// The same for the real display's rows where they are split (plan_display_rows). H100:
  /// 8192-point display rows (2 x 4096 in time, 183 registers: one group per multiprocessor)
  /// 487 -> 344 us at 128 (two groups), 535 at 96. Unsplit display rows lost with the bound,
  /// which ptxas took as leave to use more than it did without (4096-point 81 -> 92 us,
  /// 4000-point 106 -> 119).
  std::uint32_t display_rows_max_registers = 128;
  /// The same for the complex path's unsplit rows with a radix-10 or radix-25 stage (2 x 5 and
  /// 5 x 5 in registers; 0: max_registers alone; OpenCL's default, GL states no bound). H200,
  /// OpenCL, fortieth session, per pass, two rounds (measured planning chose the same, run336):
  /// 3125-point rows (25 25 5) 54.2 -> 49.8 us, 4000-point (16 10 5 5) 91.0 -> 87.3, 1000-point
  /// (10 10 10, two per group) 10.4 -> 9.2. The other rows did not gain from 64 (2187-, 2401-,
  /// 1920-point, powers of two: within 1 us, or lost), and 96 or 128 lost at the same three.
  std::uint32_t composite_rows_max_registers = 64;
  /// Direct split columns in more groups than there are multiprocessors are compiled to the
  /// registers under which two groups share one (second_group_registers; DeviceLimits::
  /// unit_registers), except where the split's first stage reads its values from the registers
  /// (0: never, the default; measured planning tries it on OpenCL). Unbounded, ptxas gives these
  /// columns one group per multiprocessor (164-255 registers). H200, OpenCL, per pass, bounded to
  /// 128 (run337, run341-run344; ptxas' spills at 128 through -cl-nv-verbose): won at 3125-point
  /// columns (5 x 625) 106.5 -> 100.7 us (96 bytes spilled), 4000-point (4 x 1000) 136.8 -> 128.2
  /// (224), 3000-point (3 x 1000) 74.0 -> 61.9 (64), 2160-point (2 x 1080) 68.1 -> 59.6 (28),
  /// 1080-point (2 x 540) 16.9 -> 15.5 (52); lost at 1440-point (3 x 480) 18.4 -> 20.3 (320),
  /// 2880-point (3 x 960) 62.0 -> 74.2 (324), 3024-point (3 x 1008) 97.2 -> 103.1 (92), 5000-point
  /// (2 x 2500, two per group) 359.6 -> 505.8 (88), and where the first stage reads the registers
  /// (2048-point 20.1 -> 50.0, spilling 728; 4096-point 100.9 -> 239, 1 068). Neither the spills
  /// nor the plans' shapes tell the two apart, so no default takes it.
  std::uint32_t second_group_columns = 0;
  /// 1: the complex path's direct split columns take radix-16 stages where those make the
  /// split's sub-transforms fewer stages in the same invocations, and the columns' groups are
  /// more than the multiprocessors (route_columns): one shared-memory exchange less per
  /// sub-transform, two group barriers less. H200, GL, forty-second session, per pass:
  /// 2048-point columns of 2048^2, 4 x 512 (8 8 8) -> 8 x 256 (16 16), 33.6 -> 31.5 us; in one
  /// wave (1024 x 2048) 18.8 -> 19.0; where radix 16 kept the stage count or took invocations
  /// away it lost (8192^2's four-step columns (8 8), (8 4 4) -> (16 4), (16 8): 601 -> 650;
  /// 1024-point columns in 128 invocations 11.0 -> 13.9; H100 4096-point (16 8 4) 185 -> 207). With
  /// exact_split_threads (the default) the 2160-point columns keep their 360 invocations, so only
  /// the 2048-point columns take it among the sizes measured.
  std::uint32_t split_columns_radix16 = 0;
  /// 1: split columns whose widest stage needs more than one round even of col_one_round_threads
  /// invocations take elements_per_thread values of each sub-transform per invocation where that
  /// is whole warps within col_one_round_threads and the split's first stage then reads the
  /// registers (stage0_from_registers), instead of max_threads (which loops the sub-transforms
  /// in the group size the first stage fits: sub_transform_loop_min_split). H100, GL, fifty-ninth
  /// session (run412, measured planning's log, per pass beside the default): 3024-point columns
  /// of 4032 x 3024 (8 split 7 x 432 (4 4 9 3), 1 152 radix-3 butterflies) in 864 invocations
  /// unrolled against 432 looped, 137.5 -> 125.2 us. The real display's 3024-point columns (8 x
  /// 378 (2 9 3 7)) lost in 756 unrolled (136.3 -> 146.2 us the display), which whole warps
  /// leave out; where that count breaks the first stage's layout (4096-point columns in 1 024:
  /// 166.7 -> 189.6, sixteenth session) the rule does not apply.
  std::uint32_t split_columns_whole_warps = 0;
  /// The complex path's rows whose length is not a power of two exchange through half the local
  /// memory above this many bytes (0: local_halves_above alone) where their whole exchange leaves
  /// fewer than half of unit_threads resident (unit_local_bytes) and the halves keep the group's
  /// invocations and rows (route_rows; powers of two: pow2_rows_radix16). H100, GL, fifty-ninth
  /// session, whole transforms, three rounds each way (run413): 1000^2 25.5 -> 24.1 us (two
  /// rows per group, 224 invocations, 3 groups resident), 2160^2 91.6 -> 87.2 (256, 2), 2400^2
  /// 172.2 -> 168.5 (256, 2), 2560^2 106.5 -> 102.4 (256, 2). Rows with more resident lost:
  /// 2000^2 64.1 -> 70.9 (512 invocations, 3 groups), 2430^2 126.5 -> 131.3 (512, 2), 2880^2 139.5
  /// -> 142.5 (576, 2), all but 2401^2 (512, 2: 115.6 -> 114.0; per pass in run412 50.6 -> 47.9),
  /// and 1024-point rows a little (12.5 -> 12.7, run412); 2187-point rows lost (43.2 -> 47.2)
  /// where the halves took their 736 invocations to 512.
  std::uint32_t rows_halves_above = 0;
  /// The real display's rows take stages of at most this radix (0: max_radix alone). H100,
  /// OpenCL: 3125-point display rows (25 25 5) 129.5 us, (5 5 5 5 5) 66.0 (3125^2's display 196.5
  /// -> 133.2 us), where its complex rows won with radix 25 (77 -> 60 us); no other sweep size's
  /// display rows take radix 25.
  std::uint32_t display_rows_max_radix = 16;
  /// The real display's rows exchange through half the local memory above this many bytes, where
  /// they colour each bin from the registers (0: local_halves_above, as the other passes). H100,
  /// GL, with 16 KiB (24 KiB before): 2401-point display rows 39.1 -> 36.0 us, 2187-point 33.6 ->
  /// 32.5, but 2048-point ones (17 408 bytes with their padding) 23.5 -> 24.5, hence 17 KiB; the
  /// columns lost with 16 KiB (8192^2 773 -> 801 us), and so did the complex 2187-point rows
  /// (42.4 -> 51.2, sixteenth session).
  std::uint32_t display_rows_halves_above = 0;
  /// Odd-length display rows in at most this many invocations, without the odd rows' one-round rule
  /// (odd_row_one_round_threads; 0: as the complex rows). H100, GL (run393, run398, per dispatch
  /// with auto range, two rounds; the columns unchanged): 2187-point display rows (9 9 9 3) in 256
  /// invocations against 512, 36.2 -> 30.3 us; 2401-point (7 7 7 7) in 352 (the held-values rule)
  /// 37.9 -> 34.7. In the sweep's span (a fixed range: no range fold), off and on in one call
  /// (run400, three rounds each), less than per dispatch but held: the 2187^2 display 68.8-69.2 ->
  /// 67.9-68.1 us, 2401^2 79.3-80.8 -> 77.1-77.2. Even lengths in 256 lose (2048-point rows 24.9 ->
  /// 27.4, 8192-point 325.8 -> 400.8), so odd lengths only.
  std::uint32_t display_rows_odd_max_threads = 0;
  /// 1: display rows split in time by 2 (one per group: 8192-point rows on NVIDIA) take Z's row
  /// ky and row H - ky conjugated as their two sub-transforms and take X's even and odd halves
  /// apart bin by bin in the combine (UNPACK_MIRRORED, display_rows_defines), so the first
  /// sub-transform waits for one row's loads; 0: each loaded value is unpacked from both rows,
  /// which every sub-transform then needs before it starts. H100, fifty-third session, display
  /// rows per dispatch, three rounds: GL 8192^2 353 -> 327 us (the sweep's display 754.5 -> 720.6,
  /// 0.73x of cuFFT's R2C + display), 8192 x 4096 184 -> 168; OpenCL lost (8192^2 346.5 -> 355,
  /// 8192 x 4096 183 -> 187; its rows colour from local memory in two groups per multiprocessor,
  /// GL's from the registers in one), as did 4096-point rows split so against unsplit (an earlier
  /// build with an exchange for the mirrored bins: OpenCL 104 -> 107.5 split, 83 unsplit).
  std::uint32_t display_rows_unpack_after = 0;
  /// 1: OpenCL's fused display rows take the display settings as compile-time constants
  /// (DISPLAY_FLAGS), one program per set of settings, as GL's always do; 0: as a kernel argument.
  /// H100 (run391, per dispatch, two rounds): display rows 2187-point 32.6 -> 29.2 us, 4096-point
  /// 77.2 -> 68.9, 8192-point 313.9 -> 270.6, 1024-point 11.0 -> 10.0; the sweep's OpenCL displays
  /// 2187^2 64.8 -> 60.5 (0.74x of cuFFT's R2C + display), 8192^2 701.4 -> 643.9. The display tests
  /// pass on NVIDIA's OpenCL with it (GL's compiler once drew the real and imaginary parts wrong
  /// with a constant component). A settings change costs a program build (PoCL: seconds, once).
  std::uint32_t display_constant_flags = 1;
  /// Images of at least this many bytes whose axes are direct hand the rows' transform to the
  /// columns in tiles (AxisRoute::tile_lines, tile_columns): the rows store into the scratch, each
  /// column group's lines contiguous, and the columns read their tile whole and store into the
  /// image (0: never; both passes then in place). H100, GL, the patterns alone at 4096^2 (run207):
  /// columns in place 154 us, tiles to rows 106, rows to tiles 104 where rows in place take 98.
  /// OpenCL (run208, run209), where the image is larger than the 50 MB L2: 4096^2 237.0 -> 216.9
  /// us (columns 145.8 -> 115.0, rows 91.0 -> 102.0), 4000^2 257.4 -> 249.2, 3840 x 2160 132 ->
  /// 125, 6000 x 4000 483 -> 470, 8192 x 4096 484 -> 468; lost where it fits (2048^2 42 -> 53;
  /// 1920 x 1080 and 1024^2 within 1 us) and where the last tile was narrower (3125^2 177 ->
  /// 188, 2187^2 75 -> 107: tile_columns now needs whole tiles). GL lost everywhere (4096^2 268
  /// -> 286: its columns took as long from tiles, 167 -> 169).
  std::uint64_t tiled_columns_min_bytes = 48ull << 20;
  /// Tiles at least this many columns wide where the columns' group divides it (tile_columns; 0:
  /// the group's width): the rows then store longer row segments, the column groups of a tile
  /// reading it side by side.
  std::uint32_t tile_min_lines = 0;
  /// GL only, bit 0 the rows, bit 1 the columns: that axis's passes read their data through a
  /// buffer texture over the buffer they read (texelFetch; stores stay storage-buffer stores;
  /// fast_fft.comp's TEX_INPUT says which passes may: direct ones in place or into an output, the
  /// real display's rows, four-step ones per texture_four_step), so the barrier before such a
  /// pass is GL_TEXTURE_FETCH_BARRIER_BIT instead of
  /// GL_SHADER_STORAGE_BARRIER_BIT. On NVIDIA's driver the storage bit (and the image and
  /// atomic-counter bits) empties the GPCs' instruction caches, so the dispatch after it refetches
  /// its program from L2; the texture-fetch bit does not (H100, PM sampling, sixty-eighth
  /// session, run452, run453: 4096-point columns 10 950 instruction misses in the GPC cache a pass
  /// after the storage bit, 1 150 after the texture-fetch bit). Forward spans, none -> rows ->
  /// both (run455, two rounds for none and both): 256^2 14.6 -> 14.0 -> 13.1 us, 512^2 16.2 ->
  /// 15.3 -> 14.3, 1000^2 25.4 -> 24.5 -> 23.1, 1024^2 23.6 -> 22.9 -> 22.1, 1920 x 1080 35.6 ->
  /// 34.5 -> 32.8, 2048^2 61.0 -> 59.8 -> 59.0; the rows gained at every size (8192^2 within 1 us).
  std::uint32_t texture_inputs = 0;
  /// Columns read by texture (texture_inputs bit 1) only up to this length (0: any). H100, GL,
  /// columns alone, storage -> texture (run455): 2187-point 53.4 -> 61.5 us, 3125-point 102.8 ->
  /// 118.7, 4096-point 157.7 -> 160.9 lost; 2401-point 73.5 -> 70.2 and 4000-point 180.8 -> 176.5
  /// gained, and every length up to 2048 gained or tied. Nothing in their plans parts the losers
  /// (4, 8 and 8 columns a group, 324 to 1 000 invocations), so the bound is the measured one.
  std::uint32_t texture_columns_max_length = 0;
  /// Four-step columns (texture_inputs bit 1, at any length) read by texture too, where both
  /// passes read the image or the output (in place, or the display's columns into Z); through a
  /// scratch they keep the storage loads. Each pass's stores into the places it loaded depend on
  /// every value it loaded, so no store overtakes a load. H100, GL 8192^2 (run461): the
  /// transform 1 220.0 -> 1 214.1 us, the display (its rows by texture) 768.9 -> 756.6.
  std::uint32_t texture_four_step = 0;
  /// Folded columns (fold_columns_max_length: the half-length columns of the second buffer) read
  /// by texture too, within texture_columns_max_length; 0: from the storage buffer. H100, GL's
  /// folded 4096^2, its 2048-point half-columns storage <- texture (run473, two rounds per pass,
  /// then the sweep's entry, three rounds beside cuFFT): columns 146.3, 145.7 -> 142.8, 143.1
  /// us; the entry 255.4 -> 252.6 (cuFFT 247.2, 247.4).
  std::uint32_t texture_folded_columns = 0;
  /// The real display's rows read Z by texture (texture_inputs bit 0) only up to this width (0:
  /// any). H100, GL's display, the shipped build -> rows and columns by texture (run461):
  /// 256^2 14.6 -> 13.1 us, 1024^2 19.4 -> 17.6, 2187^2 (rows only) 67.3 -> 65.9 gained; 4096^2
  /// 161.7 -> 163.3 and 8192^2 743.7 -> 768.9 (rows only) lost. Rows only, storage -> texture,
  /// side by side (run463, two rounds): 2401^2 76.5-77.0 -> 74.6-75.5, 3125^2 110.1-110.2 -> 109.2,
  /// 4000^2 178.8-180.4 -> 178.4 (a tie).
  std::uint32_t texture_display_rows_max_length = 0;
  /// Columns of at most this many points (an even count; 0: never) take their first radix-2
  /// step in the rows pass (AxisRoute::fold, fold_columns), which stores into a second image
  /// buffer; the columns then run as half-length columns of a twice-as-wide image, in place
  /// there. GL only (fast_fft.comp's FOLD_ROWS): the caller gives the second buffer and takes the
  /// result from it. Where the rows are direct and unsplit and the columns direct. H100, GL, per
  /// pass (run468, run470, two rounds each): 1024^2 rows 11.6 -> 11.2 us, columns 11.6 -> 10.4;
  /// 2048^2 rows 25.5 -> 38.5, columns 34.9 -> 40.3 (each invocation holds the differences across
  /// the sums' stages); 4096^2 rows 101.0 -> 110.4, columns 157.3 -> 145.5. The sweep's entry
  /// (run470, three rounds): 4096^2 257.2 -> 254.5, 1024^2 22.0 -> 20.3; 2048^2 59.0 -> 76.8,
  /// 1920 x 1080 32.8 -> 45.5, 512^2 14.3 -> 15.2, 256^2 13.0 -> 13.3 lost; 1000^2 a tie.
  std::uint32_t fold_columns_max_length = 0;
  /// The fold only on images of at least this many bytes (complex float32; 0: any size). H100,
  /// GL, the sweep's entry with the fold (run471): 3200^2 179.4 -> 199.5 us, 4000^2 288.1 ->
  /// 337.3, 4032 x 3024 205.2 -> 258.6 lost; 4096^2 257.3 -> 256.2 (run470: 257.2 -> 254.5).
  std::uint64_t fold_columns_min_bytes = 0;
};

/// The GL backend's defaults: NVIDIA's GLSL compiler fits 512-invocation groups into 128
/// registers by itself (its OpenCL compiler does not, so OpenCL stays at 256), and on the H100
/// 512 made GL's 4096^2 transform 6% faster and 4000^2 18% (docs/fast_path.md).
inline Tuning gl_default_tuning() {
  Tuning t;
  t.max_threads = 512;
  t.first_split_max = 8;  // 4096-point columns: 8 lines split 8 x 512 ran 199 us, 4 split 4 x 1024 222 us
  t.first_split_odd_max = 7;  // by 7 only: GL lost with 3 and 5 (2187-point columns 108 -> 112 us, 3000^2 175 -> 203)
  t.first_split_odd_min = 7;  // GL 2401^2: 127.6 -> 117.0 us (8 columns split 7 x 343), 3584^2 242.0 -> 206.7
  t.first_split_fewer_stages = 1;  // GL 1920 x 1080 columns: 23.8 -> 19.3 us (3 x 360), 5400-point 832 -> 580
  t.elements_per_thread = 4;  // GL 2401-point rows: 69 -> 49 us (512 invocations); other sizes within 1%
  t.max_radix = 8;            // GL 4096-point columns: 185 us with radix 8, 207 with radix 16
  t.local_halves_above = 24 * 1024;  // more than half of GL's 48 KiB: one group per multiprocessor
  t.four_columns_by_halves = 1;      // GL 2401^2's display columns, even lengths (H100: 2401-point 109 -> 98 us)
  t.odd_length_splits = 1;           // GL 2187-point columns: 57.2 -> 51.8 us (H200), 1875-point 45.1 -> 34.0
  t.even_columns_odd_splits = 1;     // GL 2860-point columns: 126.0 -> 96.9 us, 1690-point 38.8 -> 33.6
  t.odd_splits_past_four_columns = 0;  // OpenCL's rule; GL's splits by 7 keep first_split_odd_min's conditions
  t.exact_split_max_pre_hold = 0;      // measured on OpenCL only (GL's 512 invocations hold fewer)
  t.pow2_rows_radix16 = 1;           // GL 8192-point rows: 491.6 -> 428.2 us
  t.rows_radix16 = 1;                // GL 3840-point rows (16 16 15): 57.6 -> 46.9 us (H200)
  t.prune_padding = 1;               // GL 4099-point rows' second pass: 367 us as DIF, 432-453 accumulated
  t.split_dit = 1;                   // GL 4099-point rows' second pass: 366 us as DIF, 504 in time
  t.bluestein_cols_in_time = 2;      // GL 4099^2's Bluestein columns: 1075 -> 865 us
  t.sub_transform_loop_min_split = 4;  // GL 4096-point columns (8 x 512): 163.4 -> 153.5 us
  t.four_step_max_direct_lines = 4;  // GL 8192-point columns (4 per group): 8192^2 2.1-5.5 ms -> 1.3 ms
  t.four_step_min_pitch_bytes = 40960;  // GL 8192 x 4096 columns (8 per group): 560 -> 393 us; 6000 x 4000 513 -> 502
  t.four_step_uneven_split = 2;         // GL 4000^2 display columns (4000 x 2000 pairs): 181.9 -> 180.4 us
  t.four_step_min_bytes = 64ull << 20;  // 4000^2 is 122 MiB; 1920 x 1080 (16 MiB) lost: 26 -> 103 us
  t.four_step_halves = 1;            // GL 8192-point columns' pass A: 655 -> 567 us
  t.four_step_divisor_groups = 2;         // GL 4802-point columns: 923 -> 339 us, 2970-point 193 -> 143
  t.four_step_radix2_divisor_groups = 0;  // measured on OpenCL only
  t.large_four_step_divisor_groups = 4;   // GL 8190^2 columns: 4 074 -> 1 325 us
  t.four_step_in_place_min_bytes = 256ull << 20;  // GL 8192^2: 1 640 -> 1 230 us (both passes in place)
  t.four_step_unswizzled_elements = 2048;  // GL 8000 x 4000: 762 -> 740 us (4 096 where swizzled)
  t.display_from_registers = 1;      // GL 4096-point display rows (halves): 121 -> 109 us
  t.display_rows_halves_above = 17 * 1024;  // GL 2401-point display rows: 39.1 -> 36.0 us
  t.display_rows_odd_max_threads = 256;     // GL 2401^2 display: 79.3-80.8 -> 77.1-77.2 us (span)
  t.display_rows_unpack_after = 1;   // GL 8192-point display rows: 353 -> 327 us
  t.fused_max_bytes = 0;             // GL runs each axis in its own dispatch (docs/fast_path.md)
  t.display_rows_max_registers = 0;  // GLSL has no register bound to state
  t.composite_rows_max_registers = 0;  // nor for the composite rows
  t.row_prefetch_twiddles = 1;       // GL 2187-point rows: 44.3 -> 42.6 us, 2048-point 30.9 -> 30.2
  t.col_one_round_threads = 1024;    // GL 3125-point columns: 150.3 -> 130.2 us
  t.split_columns_whole_warps = 1;   // GL 3024-point columns (7 x 432): 137.5 -> 125.2 us
  t.rows_halves_above = 16 * 1024;   // GL 1000^2: 25.5 -> 24.1 us, 2560^2 106.5 -> 102.4 (few resident)
  t.bluestein_row_one_round_threads = 1024;    // GL 4099^2's Bluestein rows: 861 -> 632 us
  t.row_one_round_threads = 640;     // GL 4032-point rows: 105.9 -> 85.1 us (576 invocations), 2880-point 78.0 -> 58.1
  t.odd_row_one_round_threads = 1024;  // GL 3125-point rows: 82.2 -> 74.5 us (640 invocations)
  t.unit_local_bytes = 48 * 1024;    // what NVIDIA's GL keeps per multiprocessor for compute
  t.composite_radices = 1;  // GL rows: 4000-point 137 -> 122 us, 3840-point 72 -> 63; split columns lost (3000-point 117 -> 132)
  t.swizzled_rows = 1;      // GL 4096-point rows (three groups per multiprocessor): 89.3 -> 79.7 us
  t.swizzled_columns = 1;   // GL 8192^2's four-step pass B (three groups): 610.9 -> 595.5 us
  t.local_unpadded = 3;     // GL rows: 4000-point 121.5 -> 113.9 us, 2000-point 35.6 -> 32.1 (OpenCL's lost)
  t.padded_rows_min_twos = 4;     // GL rows padded: 1920-point 19.1 -> 17.3 us, 4032-point 109.8 -> 105.1,
  t.unpadded_rows_min_fives = 3;  // but 4000-point 108.2 -> 114.4 and 3430-point 80.9 -> 117.6
  t.tiled_columns_min_bytes = 0;     // GL 4096^2: 268 -> 286 us with the tiles (columns 167 -> 169)
  t.texture_inputs = 3;  // GL 1024^2: 23.6 -> 22.1 us, 2048^2 61.0 -> 59.0 (no storage barriers)
  t.texture_columns_max_length = 2048;  // GL 2187-point columns by texture 53.4 -> 61.5 us
  t.texture_four_step = 1;  // GL 8192^2: 1 220.0 -> 1 214.1 us
  t.texture_folded_columns = 0;  // GL 4096^2 folded, its half-columns from storage: 255.4 -> 252.6 us
  t.texture_display_rows_max_length = 3125;  // GL display rows by texture: 3125-point 110.1 -> 109.2 us, 8192-point 743.7 -> 768.9
  t.fold_columns_max_length = 4096;           // GL 4096^2: 257.2 -> 254.5 us (run470; 2048^2 lost: 59.0 -> 76.8)
  t.fold_columns_min_bytes = 128ull << 20;    // the images measured to gain: 4096^2 (1024^2 gained 1.7 us, 2048^2 lost)
  return t;
}

/// A knob of Tuning by its field's name: what FFTSCOPE_FAST_TUNING sets, and what the plan tool
/// (tests/backend/fast/fast_plans.cpp) compares between the APIs' defaults.
struct TuningKnob {
  /// rule: a planning choice; device: a fact of the device (what a multiprocessor holds), no
  /// choice to compare; opencl: a knob only the OpenCL backend reads (a register bound, which
  /// GLSL states none of; the display settings as constants, which GL's display rows always are);
  /// gl: a knob only the GL backend reads (how its passes read their data).
  enum class Kind { rule, device, opencl, gl };
  const char* name;
  std::variant<std::uint32_t Tuning::*, std::uint64_t Tuning::*> field;
  Kind kind = Kind::rule;
  std::uint64_t get(const Tuning& t) const {
    return std::visit([&](auto member) { return static_cast<std::uint64_t>(t.*member); }, field);
  }
  void set(Tuning& t, std::uint64_t value) const {
    std::visit([&](auto member) { t.*member = static_cast<std::remove_reference_t<decltype(t.*member)>>(value); }, field);
  }
};

/// Every knob that FFTSCOPE_FAST_TUNING can set (the device facts among them, for measurements on
/// other devices).
inline std::span<const TuningKnob> tuning_knobs() {
  using Kind = TuningKnob::Kind;
  static const TuningKnob knobs[] = {
      {"row_elements", &Tuning::row_elements},
      {"col_lines", &Tuning::col_lines},
      {"elements_per_thread", &Tuning::elements_per_thread},
      {"max_threads", &Tuning::max_threads},
      {"local_bytes_cap", &Tuning::local_bytes_cap},
      {"max_pre_hold", &Tuning::max_pre_hold},
      {"exact_split_max_pre_hold", &Tuning::exact_split_max_pre_hold},
      {"local_halves_above", &Tuning::local_halves_above},
      {"four_columns_by_halves", &Tuning::four_columns_by_halves},
      {"odd_length_splits", &Tuning::odd_length_splits},
      {"even_columns_odd_splits", &Tuning::even_columns_odd_splits},
      {"odd_splits_past_four_columns", &Tuning::odd_splits_past_four_columns},
      {"pow2_rows_radix16", &Tuning::pow2_rows_radix16},
      {"rows_radix16", &Tuning::rows_radix16},
      {"split_dit", &Tuning::split_dit},
      {"bluestein_cols_in_time", &Tuning::bluestein_cols_in_time},
      {"sub_transform_loop_min_split", &Tuning::sub_transform_loop_min_split},
      {"sub_transform_loop_max_threads", &Tuning::sub_transform_loop_max_threads},
      {"prune_padding", &Tuning::prune_padding},
      {"split_global", &Tuning::split_global},
      {"min_groups_per_unit", &Tuning::min_groups_per_unit},
      {"first_split_max", &Tuning::first_split_max},
      {"first_split_odd_max", &Tuning::first_split_odd_max},
      {"first_split_odd_min", &Tuning::first_split_odd_min},
      {"first_split_fewer_stages", &Tuning::first_split_fewer_stages},
      {"twiddle_powers", &Tuning::twiddle_powers},
      {"prefetch_twiddles", &Tuning::prefetch_twiddles},
      {"stage0_from_registers", &Tuning::stage0_from_registers},
      {"max_radix", &Tuning::max_radix},
      {"composite_radices", &Tuning::composite_radices},
      {"local_unpadded", &Tuning::local_unpadded},
      {"swizzled_rows", &Tuning::swizzled_rows},
      {"swizzled_columns", &Tuning::swizzled_columns},
      {"padded_rows_min_twos", &Tuning::padded_rows_min_twos},
      {"unpadded_rows_min_fives", &Tuning::unpadded_rows_min_fives},
      {"balance_threads", &Tuning::balance_threads},
      {"col_one_round_threads", &Tuning::col_one_round_threads},
      {"bluestein_row_one_round_threads", &Tuning::bluestein_row_one_round_threads},
      {"row_one_round_threads", &Tuning::row_one_round_threads},
      {"odd_row_one_round_threads", &Tuning::odd_row_one_round_threads},
      {"unit_threads", &Tuning::unit_threads, Kind::device},
      {"unit_local_bytes", &Tuning::unit_local_bytes, Kind::device},
      {"row_prefetch_twiddles", &Tuning::row_prefetch_twiddles},
      {"four_step_min_bytes", &Tuning::four_step_min_bytes},
      {"four_step_min_pitch_bytes", &Tuning::four_step_min_pitch_bytes},
      {"four_step_uneven_split", &Tuning::four_step_uneven_split},
      {"four_step_elements", &Tuning::four_step_elements},
      {"four_step_max_direct_lines", &Tuning::four_step_max_direct_lines},
      {"four_step_halves", &Tuning::four_step_halves},
      {"four_step_unsplit_min_bytes", &Tuning::four_step_unsplit_min_bytes},
      {"four_step_divisor_groups", &Tuning::four_step_divisor_groups},
      {"four_step_radix2_divisor_groups", &Tuning::four_step_radix2_divisor_groups},
      {"large_four_step_divisor_groups", &Tuning::large_four_step_divisor_groups},
      {"large_four_step_divisor_min_bytes", &Tuning::large_four_step_divisor_min_bytes},
      {"four_step_in_place_min_bytes", &Tuning::four_step_in_place_min_bytes},
      {"four_step_unswizzled_elements", &Tuning::four_step_unswizzled_elements},
      {"bluestein_length", &Tuning::bluestein_length},
      {"display_from_registers", &Tuning::display_from_registers},
      {"fused_max_bytes", &Tuning::fused_max_bytes},
      {"fused_split_columns", &Tuning::fused_split_columns},
      {"max_registers", &Tuning::max_registers, Kind::opencl},
      {"display_rows_max_registers", &Tuning::display_rows_max_registers, Kind::opencl},
      {"composite_rows_max_registers", &Tuning::composite_rows_max_registers, Kind::opencl},
      {"second_group_columns", &Tuning::second_group_columns},
      {"split_columns_radix16", &Tuning::split_columns_radix16},
      {"split_columns_whole_warps", &Tuning::split_columns_whole_warps},
      {"rows_halves_above", &Tuning::rows_halves_above},
      {"exact_split_threads", &Tuning::exact_split_threads},
      {"display_rows_max_radix", &Tuning::display_rows_max_radix},
      {"display_rows_halves_above", &Tuning::display_rows_halves_above},
      {"display_rows_odd_max_threads", &Tuning::display_rows_odd_max_threads},
      {"display_rows_unpack_after", &Tuning::display_rows_unpack_after},
      {"display_constant_flags", &Tuning::display_constant_flags, Kind::opencl},
      {"tiled_columns_min_bytes", &Tuning::tiled_columns_min_bytes},
      {"tile_min_lines", &Tuning::tile_min_lines},
      {"texture_inputs", &Tuning::texture_inputs, Kind::gl},
      {"texture_columns_max_length", &Tuning::texture_columns_max_length, Kind::gl},
      {"texture_four_step", &Tuning::texture_four_step, Kind::gl},
      {"texture_folded_columns", &Tuning::texture_folded_columns, Kind::gl},
      {"texture_display_rows_max_length", &Tuning::texture_display_rows_max_length, Kind::gl},
      {"fold_columns_max_length", &Tuning::fold_columns_max_length, Kind::gl},
      {"fold_columns_min_bytes", &Tuning::fold_columns_min_bytes, Kind::gl},
  };
  return knobs;
}

/// `t` with overrides from FFTSCOPE_FAST_TUNING="name=value,..." (names as the fields above),
/// for measurements; unknown names are ignored.
inline Tuning tuning_from_env(Tuning t = {}) {
  const char* env = std::getenv("FFTSCOPE_FAST_TUNING");
  if (!env) return t;
  std::istringstream in(env);
  for (std::string item; std::getline(in, item, ',');) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = item.substr(0, eq);
    const auto value = std::strtoull(item.c_str() + eq + 1, nullptr, 10);
    for (const TuningKnob& knob : tuning_knobs())
      if (name == knob.name) knob.set(t, value);
  }
  return t;
}

/// The row order that in-place four-step columns of n = a b points with b = a c leave
/// (Tuning::four_step_in_place_min_bytes): pass B of block k1 stores bin k2 = u + c v (u < c, v < a) at
/// row k1 b + u a + v of its own block, so row p = x a c + y a + z (x, z < a, y < c) holds bin
/// z a c + y a + x. The map is its own inverse: the rows swap in pairs (p, partner(p)), and the
/// a c rows with x == z stay.
struct RowSwap {
  std::uint32_t a = 0, c = 0;
  std::uint32_t partner(std::uint32_t p) const {
    const std::uint32_t x = p / (a * c), y = p / a % c, z = p % a;
    return z * a * c + y * a + x;
  }
  /// Each pair once, (p, partner(p)) with p <= partner(p), flattened, in order of p.
  std::vector<std::uint32_t> pairs() const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t p = 0; p < a * a * c; ++p)
      if (const std::uint32_t q = partner(p); p <= q) {
        out.push_back(p);
        out.push_back(q);
      }
    return out;
  }
  bool operator==(const RowSwap&) const = default;
};

/// `t` with the rows' one-round rules off (Tuning::row_one_round_threads,
/// odd_row_one_round_threads): every unsplit row's widest stage in rounds of max_threads, as
/// before the thirty-fourth session.
inline Tuning rows_in_rounds(Tuning t) {
  t.row_one_round_threads = 0;
  t.odd_row_one_round_threads = 0;
  return t;
}

/// OpenCL's tuning: `t` without what only GL's kernel follows (four_step_in_place_min_bytes: the
/// OpenCL kernel has no row pairs, and its four-step passes run at copy speed out of place). The
/// OpenCL fast path and display apply it to their tunings and candidates when constructed
/// (cl_measuring); ClFastAxis refuses a route with AxisRoute::swap.
inline Tuning cl_tuning(Tuning t) {
  t.four_step_in_place_min_bytes = 0;
  t.sub_transform_loop_min_split = 0;
  t.fold_columns_max_length = 0;  // the OpenCL kernel has no FOLD_ROWS
  return t;
}

/// One axis of the fast path: the kernels' #defines and the dispatch shape.
/// How a line lies in local memory (AxisPlan::local_layout; the values are LOCAL_PAD's).
enum class LocalLayout : std::uint32_t { unpadded = 0, padded = 1, swizzled = 2 };

struct AxisPlan {
  Axis axis = Axis::rows;
  std::uint32_t n = 0;                 ///< line length
  std::uint32_t pre_radix = 1;         ///< split of lines too long for local memory (1: none)
  bool split_global = false;           ///< the split goes through the buffer (see fast_fft.cl)
  bool twiddle_powers = false;         ///< stage twiddles w^r computed from one table read
  bool prefetch_twiddles = false;      ///< each stage reads the next stage's twiddles ahead
  /// The split's first stage reads y_q from the registers (STAGE0_FROM_PRE): only where element b
  /// of the split and input r of butterfly b' of the first stage belong to the same work-item,
  /// b = b' + r lines M / R_0 with that step a multiple of the threads (columns; rows with one
  /// line per group), and every work-item holds the same count (lines M a multiple of threads).
  bool stage0_from_registers = false;
  /// Stages exchange through a float array, real parts then imaginary parts (LOCAL_HALVES;
  /// Tuning::local_halves_above, four_columns_by_halves): half the local memory, four barriers
  /// per exchange instead of two. Unsplit plans without an epilogue only.
  bool local_halves = false;
  /// Where element i of local line l lies (LOCAL_PAD, the enumerator's value): padded at
  /// l LINE_STRIDE + i + i / 16; unpadded at l LINE_STRIDE + i (Tuning::local_unpadded);
  /// swizzled at l M + (i ^ ((i >> 4) & 31)) on rows, l M + (i ^ (l & 31)) on columns
  /// (Tuning::swizzled_rows, swizzled_columns): a permutation inside each run of 32 elements, so a
  /// line takes M elements (M a multiple of 32) and a warp's accesses still meet different banks.
  LocalLayout local_layout = LocalLayout::padded;
  /// The split through registers decimates in time (SPLIT_DIT): each work-item
  /// loads x[P n + q], runs sub-transform q from its registers (through local memory without
  /// stage0_from_registers) and keeps its outputs there, then combines them with one radix-P
  /// step and stores contiguous runs. Sub-transform 0 needs a 1/P of the loads, so the others
  /// arrive while it runs. No epilogue.
  bool split_dit = false;
  /// Bluestein splits (Tuning::prune_padding): only the first live_blocks blocks of m points of
  /// a padded line are live (LIVE_BLOCKS; 0: not used): pass 1's inputs past the axis length
  /// are zero and pass 2's bins past it are dropped. Pass 2 then decimates in time, each
  /// sub-transform reading its inputs from the scratch (the next one's loads issued during the
  /// current one) and adding its share to accumulators of the live bins.
  std::uint32_t live_blocks = 0;
  /// The split in frequency's sub-transforms run as one loop the compiler cannot unroll
  /// (SUB_TRANSFORM_LOOP; Tuning::sub_transform_loop_min_split): a shorter program, its y_q
  /// moved down the registers once per sub-transform.
  bool sub_transform_loop = false;
  /// Pass 1 holds x[j + b m] for b < live_blocks only and forms each y_q when sub-transform q
  /// reads it (LIVE_INPUTS): live_blocks values per element instead of pre_radix (L >= 2n - 1,
  /// so about half). Only for lines that fit no other way (plan_axis).
  bool live_inputs = false;
  std::uint32_t m = 0;                 ///< n / pre_radix: the length done in local memory
  std::vector<std::uint32_t> radices;  ///< Stockham stages of the m-point transform; empty when n == 1
  std::uint32_t lines_per_group = 1;
  std::uint32_t threads = 32;
  std::uint32_t line_stride = 0;       ///< local elements between the group's lines
  std::uint32_t local_elems = 0;
  std::uint32_t hold = 0;
  std::uint32_t pre_hold = 0;
  /// Registers per work-item, at most (Tuning::max_registers; 0: the compiler's choice). Not a
  /// #define: the OpenCL backend states it in NVIDIA's PTX; GL has no such control.
  std::uint32_t max_registers = 0;

  std::uint64_t local_bytes() const { return std::uint64_t{local_elems} * (local_halves ? 4 : 8); }
  /// Work-groups for `lines` image lines on this axis.
  std::uint64_t groups(std::uint64_t lines) const {
    return (lines + lines_per_group - 1) / lines_per_group;
  }
  /// NAME, VALUE pairs, in a fixed order.
  std::vector<std::pair<std::string, std::string>> defines() const {
    std::vector<std::pair<std::string, std::string>> d = {
        {"AXIS_COLS", axis == Axis::cols ? "1" : "0"},
        {"N", std::to_string(n)},
        {"M", std::to_string(m)},
        {"PRE_RADIX", std::to_string(pre_radix)},
        {"SPLIT_GLOBAL", split_global && pre_radix > 1 ? "1" : "0"},
        {"TWIDDLE_POWERS", twiddle_powers ? "1" : "0"},
        {"PREFETCH_TWIDDLES", twiddle_powers && prefetch_twiddles ? "1" : "0"},
        {"STAGE0_FROM_PRE", stage0_from_registers ? "1" : "0"},
        {"LOCAL_HALVES", local_halves ? "1" : "0"},
        {"LOCAL_PAD", std::to_string(static_cast<std::uint32_t>(local_layout))},
        {"SPLIT_DIT", split_dit ? "1" : "0"},
        {"SUB_TRANSFORM_LOOP", sub_transform_loop ? "1" : "0"},
        {"LIVE_BLOCKS", std::to_string(live_blocks)},
        {"LIVE_INPUTS", live_inputs ? "1" : "0"},
        {"LINES", std::to_string(lines_per_group)},
        {"THREADS", std::to_string(threads)},
        {"LINE_STRIDE", std::to_string(line_stride)},
        {"LOCAL_ELEMS", std::to_string(local_elems)},
        {"HOLD", std::to_string(hold)},
        {"PRE_HOLD", std::to_string(pre_hold)},
        {"NUM_STAGES", std::to_string(radices.size())},
    };
    for (std::size_t s = 0; s < radices.size(); ++s)
      d.emplace_back("RADIX_" + std::to_string(s), std::to_string(radices[s]));
    return d;
  }
  /// e.g. "cols n=4096: 4 lines/group, split 4 x 1024 (8 8 4 4), 512 threads, 34816 B local".
  std::string describe() const {
    std::ostringstream s;
    s << to_string(axis) << " n=" << n << ": " << lines_per_group << " lines/group, ";
    if (pre_radix > 1)
      s << (split_global            ? "split (buffer) "
            : split_dit             ? "split (registers, in time) "
            : stage0_from_registers ? "split (registers, stage 0 from them) "
                                    : "split (registers) ")
        << pre_radix << " x " << m << (sub_transform_loop ? " looped " : " ");
    if (live_blocks > 0) s << (live_inputs ? "live " : "live bins ") << live_blocks << " x " << m << ' ';
    s << '(';
    for (std::size_t i = 0; i < radices.size(); ++i) s << (i ? " " : "") << radices[i];
    s << "), " << threads << " threads, " << local_bytes() << (local_halves ? " B local (halves)" : " B local");
    if (local_layout == LocalLayout::swizzled) s << ", swizzled";
    if (local_layout == LocalLayout::unpadded) s << ", unpadded";
    if (max_registers > 0) s << ", at most " << max_registers << " registers";
    return s.str();
  }
};

/// The most registers per work-item under which two groups of `threads` work-items share a
/// register file of `file` registers (NVIDIA allocates them per warp of 32, in steps of 8 per
/// work-item; `.maxnreg` takes a multiple of 8); 0 where `file` is 0 or under 8 per work-item.
inline std::uint32_t second_group_registers(std::uint32_t threads, std::uint32_t file) {
  if (threads == 0) return 0;
  const std::uint64_t lanes = (std::uint64_t{threads} + 31) / 32 * 32;
  return static_cast<std::uint32_t>(file / (2 * lanes) / 8 * 8);
}

/// The register bound measured faster for a direct pass of the complex path (or the display's
/// columns) that states none (AxisPlan::max_registers; OpenCL on NVIDIA puts it in the PTX):
/// unsplit rows with a radix-10 or radix-25 stage (Tuning::composite_rows_max_registers; more
/// groups resident is the likely reason, not counted), split columns in more groups than
/// multiprocessors whose first stage does not read the registers, for a second group each
/// (Tuning::second_group_columns; in one wave it would change nothing); 0 elsewhere.
inline std::uint32_t measured_register_bound(const AxisPlan& plan, std::uint32_t lines, const DeviceLimits& limits,
                                             const Tuning& tuning) {
  if (plan.axis == Axis::rows && plan.pre_radix == 1 && tuning.composite_rows_max_registers != 0 &&
      std::any_of(plan.radices.begin(), plan.radices.end(), [](std::uint32_t r) { return r == 10 || r == 25; }))
    return tuning.composite_rows_max_registers;
  if (plan.axis == Axis::cols && plan.pre_radix > 1 && tuning.second_group_columns != 0 &&
      !plan.stage0_from_registers && limits.compute_units != 0 && plan.groups(lines) > limits.compute_units) {
    const std::uint32_t bound = second_group_registers(plan.threads, limits.unit_registers);
    return bound >= 64 ? bound : 0;
  }
  return 0;
}

/// The Stockham radices of 2^twos: 16s where max_radix allows, 8s, then 4s or a 2 for the rest.
inline std::vector<std::uint32_t> power_of_two_radices(int twos, std::uint32_t max_radix) {
  std::vector<std::uint32_t> r;
  // With max_radix 16: 16s first, the rest of the power of two as below (2^5 = 16 x 2 becomes 8 x 4).
  int sixteens = max_radix >= 16 ? twos / 4 : 0;
  if (sixteens > 0 && twos % 4 == 1 && twos > 1) --sixteens;
  twos -= 4 * sixteens;
  // 2^k as 8s with at most two 4s (a lone 2 only for 2 itself): fewer, wider stages.
  int eights = twos / 3, rest = twos % 3;
  if (rest == 1 && eights > 0) {
    --eights;
    r.push_back(4);
    r.push_back(4);
  } else if (rest == 2) {
    r.push_back(4);
  } else if (rest == 1) {
    r.push_back(2);
  }
  for (int i = 0; i < eights; ++i) r.insert(r.begin(), 8);
  for (int i = 0; i < sixteens; ++i) r.insert(r.begin(), 16);
  return r;
}

/// The Stockham radices of an m-point transform (the power of two as power_of_two_radices, then
/// 9s and a 3, then 25s where max_radix allows and 5^4 divides m, and a 5, then 7, 11, 13), or
/// empty when m has a prime factor above 13 or needs more than 8 stages. m == 1 gives {}.
/// composite (Tuning::composite_radices) lets a 2 and a 5 go as one radix-10 stage (2 x 5
/// in registers) and the lone 3 and a 5 as one radix-15 stage where that takes fewer stages: 1000
/// (8 5 5 5) becomes (10 10 10), 4000 (8 4 5 5 5) (8 10 10 5), 540 (4 9 3 5) (4 9 15).
inline std::vector<std::uint32_t> fast_radices(std::uint32_t m, std::uint32_t max_radix = 8, bool composite = false) {
  int twos = 0, threes = 0, fives = 0;
  for (; m % 2 == 0; m /= 2) ++twos;
  for (; m % 3 == 0; m /= 3) ++threes;
  for (; m % 5 == 0; m /= 5) ++fives;
  std::vector<std::uint32_t> others;
  for (std::uint32_t p : {7u, 11u, 13u})
    for (; m % p == 0; m /= p) others.push_back(p);
  if (m != 1) return {};
  // 5^k, k >= 4, as 25s (5 x 5 in registers) and at most one 5 where max_radix allows: H100
  // (OpenCL) 3125-point rows (25 25 5) 77 -> 60 us, 625-point 10.5 -> 9.0; with fewer 5s a 25
  // removes one stage only and lost (1000-point rows (8 25 5) 11.9 -> 12.9 us, 4000-point
  // 95 -> 99, 2000-point 22.9 -> 25.0).
  const int twenty_fives = max_radix >= 25 && fives >= 4 ? fives / 2 : 0;
  const int loose_fives = fives - 2 * twenty_fives;
  const auto radices = [&](int tens, int fifteens) {
    std::vector<std::uint32_t> r = power_of_two_radices(twos - tens, max_radix);
    for (int i = 0; i < tens; ++i) r.push_back(10);
    // 3^k as 9s and at most one 3: a radix-9 stage (3 x 3 in registers) instead of two radix-3
    // stages through local memory.
    for (int i = 0; i < threes / 2; ++i) r.push_back(9);
    if (threes % 2 == 1) r.push_back(fifteens ? 15 : 3);
    for (int i = 0; i < twenty_fives; ++i) r.push_back(25);
    for (int i = tens + fifteens; i < loose_fives; ++i) r.push_back(5);
    r.insert(r.end(), others.begin(), others.end());
    return r;
  };
  std::vector<std::uint32_t> best = radices(0, 0);
  if (composite) {
    // Only lists with fewer stages than without them; among those, the fewest stages, then the
    // fewest composite stages (the power-of-two stages stay whole), then the smaller widest
    // radix (fewer registers).
    const std::size_t plain_stages = best.size();
    std::optional<std::tuple<std::size_t, int, std::uint32_t>> best_key;
    for (int fifteens = 0; fifteens <= (threes % 2 == 1 && loose_fives > 0 ? 1 : 0); ++fifteens)
      for (int tens = 1 - fifteens; tens <= std::min(twos, loose_fives - fifteens); ++tens) {
        std::vector<std::uint32_t> r = radices(tens, fifteens);  // a 10 or a 15: never empty
        const auto key = std::tuple(r.size(), tens + fifteens, *std::max_element(r.begin(), r.end()));
        if (r.size() < plain_stages && (!best_key || key < *best_key)) {
          best_key = key;
          best = std::move(r);
        }
      }
  }
  if (best.size() > 8) return {};
  return best;
}

/// The largest radix the complex path's rows of n points take: max_radix, or 16 where
/// Tuning::rows_radix16 asks and radix-16 stages make fewer stages (counted for unsplit rows; a
/// split row's sub-transforms take the same bound).
inline std::uint32_t rows_max_radix(const Tuning& tuning, std::uint32_t n) {
  if (tuning.rows_radix16 == 0 || tuning.max_radix >= 16 || n % 16 != 0 || (n & (n - 1)) == 0) return tuning.max_radix;
  const bool composite = tuning.composite_radices != 0;
  return fast_radices(n, 16, composite).size() < fast_radices(n, tuning.max_radix, composite).size() ? 16
                                                                                                      : tuning.max_radix;
}

/// Local elements between a plan's lines: M, padded by one every 16 (`pad`), and on columns
/// grown until neighbouring columns of one row fall in different banks: the stride is banks / b
/// (mod banks) words, 16 float2 exchanged as complex values, 32 floats through the halves.
inline std::uint32_t line_stride(const AxisPlan& plan, std::uint32_t banks, bool pad) {
  const std::uint32_t b = plan.lines_per_group;
  std::uint32_t stride = plan.m + (pad ? (plan.m + 15) / 16 : 0);
  if (plan.axis == Axis::cols && b > 1 && b <= banks)
    while (stride % banks != (banks / b) % banks) ++stride;
  return stride;
}

/// A padded plan through the halves swizzles instead where that lets half as many groups again
/// stay resident (Tuning::swizzled_rows: one row per group, M a power of two; swizzled_columns:
/// groups of a multiple of 32 columns).
inline void swizzle_where_more_resident(AxisPlan& plan, const Tuning& tuning) {
  const std::uint32_t b = plan.lines_per_group;
  const bool power_of_two_m = (plan.m & (plan.m - 1)) == 0;
  const bool swizzle_rows = tuning.swizzled_rows != 0 && plan.axis == Axis::rows && b == 1 && power_of_two_m;
  const bool swizzle_cols = tuning.swizzled_columns != 0 && plan.axis == Axis::cols && b % 32 == 0;
  if (!(swizzle_rows || swizzle_cols) || plan.local_layout != LocalLayout::padded || tuning.unit_local_bytes == 0 ||
      !plan.local_halves || plan.m % 32 != 0)
    return;
  const auto resident = [&](const AxisPlan& candidate) {
    return std::min<std::uint64_t>(tuning.unit_threads / candidate.threads,
                                   tuning.unit_local_bytes / candidate.local_bytes());
  };
  AxisPlan swizzled = plan;
  swizzled.local_layout = LocalLayout::swizzled;
  swizzled.line_stride = plan.m;  // the swizzle, not the stride, keeps the lines' columns apart
  swizzled.local_elems = b * plan.m;
  if (2 * resident(swizzled) >= 3 * resident(plan)) plan = std::move(swizzled);
}

namespace detail {
/// Tuning::exact_split_max_pre_hold's smallest group: 6 warps (H100: groups of 143 and 180 lost).
inline constexpr std::uint64_t exact_hold_min_threads = 192;
/// plan_axis's search; live_inputs: Bluestein's first pass holds only its live inputs.
inline std::optional<AxisPlan> plan_axis_holding(Axis axis, std::uint32_t n, std::uint32_t lines,
                                                 const DeviceLimits& limits, const Tuning& tuning, std::uint32_t live,
                                                 bool live_inputs) {
  if (n == 0 || lines == 0) return std::nullopt;
  // Tuning::even_columns_odd_splits takes only the place of the plans it was measured against:
  // planned without it first, and kept unless those columns went four by their halves.
  if (tuning.even_columns_odd_splits != 0) {
    Tuning without = tuning;
    without.even_columns_odd_splits = 0;
    auto plan = plan_axis_holding(axis, n, lines, limits, without, live, live_inputs);
    const bool radix_7_to_13 = n % 7 == 0 || n % 11 == 0 || n % 13 == 0;
    if (!plan || axis != Axis::cols || n % 2 != 0 || !radix_7_to_13 || plan->pre_radix != 1 ||
        plan->lines_per_group != 4 || !plan->local_halves)
      return plan;
  }
  const std::uint64_t local_cap = std::min<std::uint64_t>(limits.local_bytes, tuning.local_bytes_cap);
  const std::uint32_t max_threads = std::max<std::uint32_t>(32, std::min(limits.max_threads, tuning.max_threads));
  const auto round32 = [](std::uint64_t v) { return static_cast<std::uint32_t>((v + 31) / 32 * 32); };

  std::uint32_t most_lines = axis == Axis::rows ? std::clamp<std::uint32_t>(tuning.row_elements / n, 1, lines)
                                                : std::max<std::uint32_t>(1, std::min(tuning.col_lines, lines));
  const std::uint64_t wanted_groups = std::uint64_t{limits.compute_units} * tuning.min_groups_per_unit;
  while (axis == Axis::rows && most_lines > 1 && (lines + most_lines - 1) / most_lines < wanted_groups)
    most_lines /= 2;
  std::vector<std::uint32_t> line_options;
  for (std::uint32_t x = most_lines; x >= 1; x /= 2) line_options.push_back(x);
  // Two rounds: first no split, a power-of-two split up to first_split_max or an odd one up to
  // first_split_odd_max (from first_split_odd_min; up to 7 where Tuning::odd_splits_past_four_columns
  // says), and for columns at least 2 lines (16-byte row segments); then anything.
  // Tuning::first_split_fewer_stages: the first round's column split at a width may give way to
  // one with fewer stages.
  const bool weigh_splits = tuning.first_split_fewer_stages != 0 && axis == Axis::cols;
  // Fewest stages, then a power-of-two sub-length; p ascends, so ties keep the smaller split.
  const auto weighed_rank = [](const AxisPlan& a) { return std::pair{a.radices.size(), (a.m & (a.m - 1)) != 0}; };
  // Columns whose four lines exceed the local memory as complex values (Bluestein's live-input
  // passes aside), where two rules allow more odd splits: Tuning::odd_length_splits (odd lengths
  // with a factor 3 or 5 whose four columns fit as floats, unpadded) and
  // Tuning::odd_splits_past_four_columns (a first_split_odd_max of 1 still allows no odd split).
  const std::uint64_t four_columns_bytes = std::uint64_t{4} * n * sizeof(Complex);
  const bool past_four_columns = axis == Axis::cols && live == 0 && four_columns_bytes > local_cap;
  const bool odd_length_splits = tuning.odd_length_splits != 0 && past_four_columns && n % 2 == 1 &&
                                 (n % 3 == 0 || n % 5 == 0) && four_columns_bytes / 2 <= local_cap;
  const std::uint32_t odd_max =
      tuning.odd_splits_past_four_columns != 0 && tuning.first_split_odd_max > 1 && past_four_columns
          ? std::max(7u, tuning.first_split_odd_max)
          : tuning.first_split_odd_max;
  for (int round = 0; round < 2; ++round)
  for (const std::uint32_t b : line_options) {
    if (round == 0 && axis == Axis::cols && b < 2 && lines >= 2) continue;
    std::optional<AxisPlan> first_fit, fewest;  // (weigh_splits, round 0) by the rule; of any radix
    for (const std::uint32_t p : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 11u, 13u}) {
      if (n % p != 0 || (p > 1 && n / p < 2)) continue;
      const bool power_of_two = (p & (p - 1)) == 0;
      const bool odd_length_split = odd_length_splits && (p == 3 || p == 5) && b >= 4;
      const bool even_length_split = tuning.even_columns_odd_splits != 0 && (p == 5 || p == 7) && b == most_lines &&
                                     (lines + b - 1) / b >= limits.compute_units;
      const bool by_rule =
          !(round == 0 && p > 1 && (power_of_two ? p > tuning.first_split_max : p > odd_max)) &&
          !(round == 0 && p > 1 && !power_of_two && tuning.first_split_odd_min > 1 && !odd_length_split &&
            !even_length_split &&
            (axis != Axis::cols || p < tuning.first_split_odd_min || b < most_lines ||
             (lines + b - 1) / b < wanted_groups));
      const bool weighed = weigh_splits && round == 0 && p > 1 && p <= 8 && (power_of_two || b == most_lines);
      if (!by_rule && !weighed) continue;
      AxisPlan plan;
      plan.axis = axis;
      plan.n = n;
      plan.pre_radix = p;
      plan.split_global = tuning.split_global != 0;
      plan.twiddle_powers = tuning.twiddle_powers != 0;
      plan.prefetch_twiddles = tuning.prefetch_twiddles == 2 || (tuning.prefetch_twiddles == 1 && p > 1);
      plan.m = n / p;
      plan.lines_per_group = b;
      plan.max_registers = tuning.max_registers;
      // Radix 25 in unsplit plans only: 3125-point columns split 5 x 625 (25 25) ran 120 -> 295 us
      // on the H100 (OpenCL), the split's registers and 25 values per butterfly together spill.
      plan.radices = fast_radices(plan.m, p > 1 ? std::min(tuning.max_radix, 16u) : tuning.max_radix,
                                   tuning.composite_radices >= (p > 1 ? 2u : 1u));
      if (plan.radices.empty() && plan.m != 1) return std::nullopt;  // a prime factor above 13
      plan.line_stride = line_stride(plan, 16, true);
      plan.local_elems = b * plan.line_stride;
      if (plan.radices.empty()) plan.local_elems = 1;
      const bool unsplit = p == 1 && plan.radices.size() > 1;
      const bool four_by_halves = tuning.four_columns_by_halves != 0 && !odd_length_splits && unsplit &&
                                  axis == Axis::cols && b == 4 && plan.local_bytes() > local_cap;
      if (!four_by_halves && plan.local_bytes() > local_cap) continue;
      const bool halves = four_by_halves ||
                          (tuning.local_halves_above != 0 && unsplit && plan.local_bytes() > tuning.local_halves_above);
      plan.local_halves = halves;
      if (halves) {
        // H100: GL 2401-point columns 98.9 -> 96.3 us with the float stride, 2187-point 75.2 ->
        // 74.2; OpenCL 2401-point (four by halves) 84.3 -> 82.9.
        plan.line_stride = line_stride(plan, 32, true);
        plan.local_elems = b * plan.line_stride;
      }
      if (plan.local_bytes() > local_cap) continue;
      const std::uint64_t elements = std::uint64_t{b} * plan.m;
      const std::uint32_t per_thread = std::max<std::uint32_t>(1, tuning.elements_per_thread);
      plan.threads = std::clamp<std::uint32_t>(round32(elements / per_thread), 32, max_threads);
      // The group size against the rounds of the widest stage (the smallest radix): split columns
      // and Bluestein's split rows take one round where col_one_round_threads /
      // bluestein_row_one_round_threads allow it, then balance_threads trims idle lanes, then
      // unsplit rows may still take one round (below: their rule compares with the balanced group).
      const std::uint64_t most =
          plan.radices.empty() ? 0 : elements / *std::min_element(plan.radices.begin(), plan.radices.end());
      const std::uint32_t one_round = axis == Axis::cols ? tuning.col_one_round_threads
                                      : live != 0          ? tuning.bluestein_row_one_round_threads
                                                           : 0;
      if (p > 1 && most > plan.threads && most <= std::min(limits.max_threads, one_round))
        plan.threads = round32(most);
      // Four columns by their halves hold more than half of GL's shared memory, so their group is
      // all a multiprocessor runs, and it holds few values per invocation: as many invocations as
      // col_one_round_threads allows (H100, GL 2187-point columns 65.8 -> 63.5 us with 1 024).
      if (four_by_halves)
        plan.threads = std::clamp<std::uint32_t>(round32(elements / per_thread), 32,
                                                 std::min(limits.max_threads, std::max(max_threads, tuning.col_one_round_threads)));
      if (tuning.balance_threads != 0 && most > 0) {
        const std::uint64_t rounds = (most + plan.threads - 1) / plan.threads;
        const std::uint32_t fewer = std::clamp<std::uint32_t>(round32((most + rounds - 1) / rounds), 32, plan.threads);
        const std::uint64_t fewer_pre_hold = (elements + fewer - 1) / fewer * p;
        if (3 * most < 2 * rounds * plan.threads && (p == 1 || fewer_pre_hold <= tuning.max_pre_hold))
          plan.threads = fewer;
      }
      // A split's first stage takes its inputs from the registers (AxisPlan::stage0_from_registers)
      // where work-item t's split elements t + k threads are its own butterflies' inputs: the
      // group size divides the stage's step and the group's elements (columns, or one row).
      const bool stage0_layout = tuning.stage0_from_registers != 0 && p > 1 && !plan.split_global &&
                                 !plan.radices.empty() && (axis == Axis::cols || b == 1);
      const std::uint64_t stage0_step = plan.radices.empty() ? 0 : std::uint64_t{b} * (plan.m / plan.radices.front());
      const auto stage0_fits = [&](std::uint64_t threads) {
        return stage0_layout && stage0_step % threads == 0 && elements % threads == 0;
      };
      // Tuning::split_columns_whole_warps: every invocation holding elements_per_thread values of
      // each sub-transform, where the one-round rule above could not apply.
      if (tuning.split_columns_whole_warps != 0 && p > 1 && axis == Axis::cols && live == 0 &&
          most > std::min(limits.max_threads, one_round) && elements % per_thread == 0) {
        const std::uint64_t whole = elements / per_thread;
        if (whole > plan.threads && whole % 32 == 0 && whole <= std::min(limits.max_threads, one_round) && stage0_fits(whole))
          plan.threads = static_cast<std::uint32_t>(whole);
      }
      // Where a multiple of 32 does not fit, a size between half the group and max_threads may
      // (Tuning::exact_split_threads; columns, not Bluestein's), holding up to hold_limit values.
      const auto hold_limit = [&](std::uint64_t threads) {
        return axis == Axis::cols && live == 0 && b == 4 && p != 3 && threads >= exact_hold_min_threads
                   ? std::max(tuning.max_pre_hold, tuning.exact_split_max_pre_hold)
                   : tuning.max_pre_hold;
      };
      if (tuning.exact_split_threads != 0 && stage0_layout && axis == Axis::cols && live == 0 &&
          !stage0_fits(plan.threads)) {
        const std::uint64_t common = std::gcd(stage0_step, elements);
        for (std::uint64_t d = std::min<std::uint64_t>(std::max(plan.threads, max_threads), common);
             2 * d >= plan.threads && d >= 32; --d)
          if (common % d == 0) {
            if (elements / d * p <= hold_limit(d)) plan.threads = static_cast<std::uint32_t>(d);
            break;
          }
      }
      // Complex values a work-item holds in a stage, at most (AxisPlan::hold).
      const auto held = [&](std::uint64_t threads) {
        std::uint64_t values = 1;
        for (std::uint32_t r : plan.radices) values = std::max<std::uint64_t>(values, (elements / r + threads - 1) / threads * r);
        return values;
      };
      // Unsplit rows (not Bluestein's) whose widest stage needs more than one round: one round
      // where that cuts the values each invocation holds by a third (its registers), or, for odd
      // lengths (few values, few registers), where shared memory and invocations let more run at
      // once (Tuning::row_one_round_threads, odd_row_one_round_threads).
      if (p == 1 && axis == Axis::rows && live == 0 && most > plan.threads && most <= limits.max_threads) {
        const auto at_once = [&](std::uint64_t threads) {
          return threads * std::min<std::uint64_t>(tuning.unit_threads / threads,
                                                   tuning.unit_local_bytes / std::max<std::uint64_t>(1, plan.local_bytes()));
        };
        const std::uint32_t one_round_threads = round32(most);
        if ((most <= tuning.row_one_round_threads && 3 * held(one_round_threads) <= 2 * held(plan.threads)) ||
            (n % 2 == 1 && most <= tuning.odd_row_one_round_threads && tuning.unit_local_bytes != 0 &&
             at_once(one_round_threads) > at_once(plan.threads)))
          plan.threads = one_round_threads;
      }
      plan.hold = static_cast<std::uint32_t>(held(plan.threads));
      const std::uint32_t live_blocks = live != 0 && live < n ? (live + plan.m - 1) / plan.m : p;
      if (p > 1 && !plan.split_global && live_blocks < p && (live_inputs || tuning.prune_padding >= 2)) {
        plan.live_blocks = live_blocks;
        plan.live_inputs = live_inputs;
      }
      plan.pre_hold = static_cast<std::uint32_t>((elements + plan.threads - 1) / plan.threads *
                                                 (plan.live_inputs ? plan.live_blocks : p));
      plan.stage0_from_registers = stage0_fits(plan.threads);
      if (p > 1 && plan.pre_hold > (plan.stage0_from_registers ? hold_limit(plan.threads) : tuning.max_pre_hold)) continue;
      // A split in time stores contiguous runs (its combine's X[k + m M]) where one in frequency
      // stores each sub-transform's outputs P apart: rows, and Bluestein's padded lines (the
      // scratch lies line after line on both axes).
      const bool line_major = axis == Axis::rows || live != 0;
      plan.split_dit = p > 1 && !plan.split_global && !plan.live_inputs && !plan.radices.empty() &&
                       (tuning.split_dit >= 3 || (tuning.split_dit == 2 && line_major) ||
                        (tuning.split_dit == 1 && axis == Axis::rows && plan.stage0_from_registers) ||
                        (axis == Axis::cols && live != 0 && b <= tuning.bluestein_cols_in_time));
      // At most sub_transform_loop_max_threads work-items (512: 128 registers each on NVIDIA, which
      // hold the loop's values; 1 024, 64 each, spill them).
      plan.sub_transform_loop = tuning.sub_transform_loop_min_split != 0 && p > 1 &&
                                p >= tuning.sub_transform_loop_min_split && !plan.split_global && !plan.split_dit &&
                                plan.live_blocks == 0 && !plan.radices.empty() &&
                                plan.threads <= tuning.sub_transform_loop_max_threads;
      // The layout is chosen padded; an unpadded plan (Tuning::local_unpadded) then only drops
      // the padding, so it never takes a different layout for the bytes it saves.
      const bool power_of_two_m = (plan.m & (plan.m - 1)) == 0;
      const std::uint32_t unpadded = tuning.local_unpadded;
      std::uint32_t fives = 0;
      for (std::uint32_t rest = plan.m; rest % 5 == 0; rest /= 5) ++fives;
      const bool padded_row = tuning.padded_rows_min_twos != 0 &&
                              static_cast<std::uint32_t>(std::countr_zero(plan.m)) >= tuning.padded_rows_min_twos &&
                              fives < tuning.unpadded_rows_min_fives;
      const bool padded = !(unpadded >= 1 && plan.m % 2 == 1) &&
                          !(unpadded >= 2 && !power_of_two_m && axis == Axis::cols && b >= 4) &&
                          !(unpadded >= 3 && !power_of_two_m && axis == Axis::rows && !plan.split_dit && !padded_row);
      plan.local_layout = padded ? LocalLayout::padded : LocalLayout::unpadded;
      swizzle_where_more_resident(plan, tuning);
      if (!padded && !plan.radices.empty()) {
        plan.line_stride = line_stride(plan, plan.local_halves ? 32 : 16, false);
        plan.local_elems = b * plan.line_stride;
      }
      if (!weigh_splits || round != 0 || p == 1) return plan;
      if (by_rule && !first_fit) first_fit = plan;
      if (weighed && (!fewest || weighed_rank(plan) < weighed_rank(*fewest))) fewest = plan;
    }
    if (first_fit) return fewest && fewest->radices.size() < first_fit->radices.size() ? *fewest : *first_fit;
  }
  return std::nullopt;
}
}  // namespace detail

/// Plans one axis: n-point transforms of `lines` lines. Empty when n has a prime factor above
/// 13 or no layout fits the device (the backend then runs the fused pipeline instead). `live`
/// (Bluestein's padded lines: the axis length; 0: n): only points below it are read as nonzero
/// or stored (AxisPlan::live_blocks). Plans hold every value of the split where they can (the
/// H100 ran plans that fit more columns per group by holding only the live inputs slower:
/// docs/fast_path.md); only where none fits that way do they hold the live inputs.
inline std::optional<AxisPlan> plan_axis(Axis axis, std::uint32_t n, std::uint32_t lines, const DeviceLimits& limits,
                                         const Tuning& tuning, std::uint32_t live = 0) {
  if (auto plan = detail::plan_axis_holding(axis, n, lines, limits, tuning, live, false)) return plan;
  if (live == 0 || live >= n || tuning.prune_padding == 0) return std::nullopt;
  return detail::plan_axis_holding(axis, n, lines, limits, tuning, live, true);
}

/// The real-input display path reads the image's pixels in pairs, x[2c] + i x[2c + 1], as the
/// complex columns Z is made of: (W + 1)/2 of them (an odd W's last pair is (x[W - 1], 0)), padded
/// with zero pairs to a multiple of 4, so that every row of the image and of Z starts 32 bytes
/// aligned and the columns' groups of 4 read whole 32-byte sectors (H100, 2187-point columns:
/// 1 094 pairs, rows 8 752 bytes apart, 39.8 us on OpenCL where 1 188 aligned pairs took 35.6 and
/// 1 056 27.6; docs/fast_path.md). The backends upload the image that way (display_pairs_image);
/// the display rows take the columns' FFTs apart again (UNPACK_PAIRS, PAIR_PITCH), so any width,
/// odd ones included, ends in W-point rows of the full spectrum.
inline std::size_t display_pair_columns(std::size_t width) { return ((width + 1) / 2 + 3) / 4 * 4; }

/// The image as the display's pair columns read it: its own pixels where its rows are already
/// display_pair_columns pairs long; else each row followed by zeros up to that, written into
/// `padded`, which the result then points into.
inline std::span<const float> display_pairs_image(const RealImage& image, std::vector<float>& padded) {
  const std::size_t pitch = 2 * display_pair_columns(image.width);
  if (pitch == image.width) return image.data;
  padded.assign(pitch * image.height, 0.0f);
  for (std::size_t y = 0; y < image.height; ++y)
    std::copy_n(image.data.begin() + static_cast<std::ptrdiff_t>(y * image.width), image.width,
                padded.begin() + static_cast<std::ptrdiff_t>(y * pitch));
  return padded;
}

/// The real-input display path's passes (issue 6), the same in both backends; empty where the
/// path does not apply (a width under 3, a prime factor above 13). Rows: W points over rows
/// 0 .. H/2; coloured from local memory (Tuning::display_from_registers 0), they do not exchange
/// through half of it; split, they are compiled to at most Tuning::display_rows_max_registers; of
/// odd length, in at most Tuning::display_rows_odd_max_threads invocations.
/// (Columns: route_real_columns, below route_axis.)
inline std::optional<AxisPlan> plan_display_rows(std::size_t width, std::size_t height, const DeviceLimits& limits,
                                                 Tuning tuning) {
  if (width < 3 || height < 2 || width > (1u << 30)) return std::nullopt;
  if (tuning.display_from_registers == 0)
    tuning.local_halves_above = 0;
  else if (tuning.display_rows_halves_above != 0)
    tuning.local_halves_above = tuning.display_rows_halves_above;
  if (tuning.display_rows_max_radix != 0) tuning.max_radix = std::min(tuning.max_radix, tuning.display_rows_max_radix);
  if (width % 2 == 1 && tuning.display_rows_odd_max_threads != 0) {
    tuning.max_threads = std::min(tuning.max_threads, tuning.display_rows_odd_max_threads);
    tuning.odd_row_one_round_threads = 0;
  }
  auto plan = plan_axis(Axis::rows, static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height / 2 + 1),
                        limits, tuning);
  if (!plan || plan->radices.empty()) return std::nullopt;
  if (plan->pre_radix > 1) plan->max_registers = tuning.display_rows_max_registers;
  return plan;
}

/// Whether the display rows `rows` unpack after their sub-transforms (Tuning::display_rows_unpack_after:
/// a split in time by 2).
inline bool display_rows_unpack_after(const AxisPlan& rows, const Tuning& tuning) {
  return tuning.display_rows_unpack_after != 0 && rows.split_dit && rows.pre_radix == 2;
}

/// The #defines the display rows' kernel takes beside its plan's `rows` (the same in both
/// kernels); `swap`: the columns' (route_real_columns), whose rows the display rows then read
/// swapped.
inline std::vector<std::pair<std::string, std::string>> display_rows_defines(std::size_t width, std::size_t height,
                                                                           const AxisPlan& rows, const Tuning& tuning,
                                                                           const std::optional<RowSwap>& swap = {}) {
  std::vector<std::pair<std::string, std::string>> defines{
      {"UNPACK_PAIRS", "1"},
      {"DISPLAY_ROWS", "1"},
      {"PAIR_ROWS", std::to_string(height)},
      {"PAIR_PITCH", std::to_string(display_pair_columns(width))},
      {"DISPLAY_FROM_LOCAL", tuning.display_from_registers != 0 ? "0" : "1"}};
  if (display_rows_unpack_after(rows, tuning)) defines.emplace_back("UNPACK_MIRRORED", "1");
  if (swap) {
    defines.emplace_back("ROW_SWAP_A", std::to_string(swap->a));
    defines.emplace_back("ROW_SWAP_C", std::to_string(swap->c));
  }
  return defines;
}

/// The R2C half spectrum's passes: W/2-point rows whole in local memory (fewer rows per group
/// rather than a split row, which the R2C split cannot follow), then H-point columns over the
/// W/2 + 1 lines of the half spectrum.
inline std::optional<AxisPlan> plan_r2c_rows(std::size_t width, std::size_t height, const DeviceLimits& limits,
                                             Tuning tuning) {
  if (width < 4 || width % 2 != 0 || height < 2 || width > (1u << 30) || height > (1u << 30)) return std::nullopt;
  const auto m = static_cast<std::uint32_t>(width / 2);
  tuning.local_halves_above = 0;  // the R2C epilogue reads the last stage's outputs in local memory
  tuning.split_dit = 0;
  for (;; tuning.row_elements /= 2) {
    auto plan = plan_axis(Axis::rows, m, static_cast<std::uint32_t>(height), limits, tuning);
    if (plan && plan->pre_radix == 1 && !plan->radices.empty()) return plan;
    if (!plan || tuning.row_elements < m) return std::nullopt;
  }
}
inline std::optional<AxisPlan> plan_half_columns(std::size_t width, std::size_t height, const DeviceLimits& limits,
                                                 const Tuning& tuning) {
  if (width < 4 || height < 2 || height > (1u << 30)) return std::nullopt;
  auto plan = plan_axis(Axis::cols, static_cast<std::uint32_t>(height), static_cast<std::uint32_t>(width / 2 + 1),
                        limits, tuning);
  if (!plan || plan->radices.empty()) return std::nullopt;
  return plan;
}

/// exp(-2 pi i k / n) for k < n, from the core's double-precision twiddle_value (angles reduced
/// to (-pi, pi] first, so the double cos/sin see small arguments).
inline std::vector<Complex> twiddle_table(std::uint32_t n) {
  std::vector<Complex> t(n);
  constexpr double two_pi = 6.283185307179586476925286766559;
  for (std::uint32_t k = 0; k < n; ++k) {
    const double kk = 2.0 * k > n ? static_cast<double>(k) - n : static_cast<double>(k);
    t[k] = twiddle_value(-two_pi * kk / n, Direction::forward);
  }
  return t;
}

// ---- Bluestein (chirp-z) for the lengths plan_axis cannot take (issue 6) ----------------------
//
// X_k = c_k sum_n (x_n c_n) conj(c_{k-n}) with c_n = exp(-i pi n^2 / N): a linear convolution,
// computed as a cyclic one of length L >= 2N - 1 with L-point fast passes (docs/fast_path.md).

/// The smallest power of two >= 2n - 1: the largest padded length bluestein_lengths() offers
/// (memory estimates use it as the bound).
inline std::uint64_t bluestein_length_bound(std::uint64_t n) {
  std::uint64_t p = 1;
  while (p < 2 * n - 1) p <<= 1;
  return p;
}

/// Padded lengths for an n-point Bluestein axis, best first: every 2·3·5·7-smooth L in
/// [2n - 1, bluestein_length_bound(n)], ordered by L·(100 + 9 a + 14 b + 16 c) for L = 2^k 3^a
/// 5^b 7^c, ties to the smaller L. Bluestein's passes run below the bandwidth (4099^2: 13-19x a
/// copy), their time about that line through the six lengths measured at 4099^2 (OpenCL,
/// thirteenth session: 9216 = 2^10 3^2 1265 us, 10240 = 2^11 5 1366, 8960 = 2^8 5 7 1365, 8640
/// = 2^6 3^3 5 1418, 8400 1559, 8232 = 2^3 3 7^3 1595; docs/fast_path.md). 11 and 13 are left
/// out. The power of two always qualifies.
inline std::vector<std::uint32_t> bluestein_lengths(std::uint32_t n) {
  if (n < 2 || n > (1u << 30)) return {};
  const std::uint64_t lo = 2ull * n - 1, hi = bluestein_length_bound(n);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> scored;  // (cost, L)
  // For each odd part o = 3^b 5^c 7^d only the smallest o·2^a >= lo can be <= hi (< 2 lo).
  for (std::uint64_t o3 = 1; o3 <= hi; o3 *= 3)
    for (std::uint64_t o5 = o3; o5 <= hi; o5 *= 5)
      for (std::uint64_t o = o5; o <= hi; o *= 7) {
        std::uint64_t l = o;
        while (l < lo) l *= 2;
        if (l > hi) continue;
        std::uint64_t weight = 100;
        for (std::uint64_t rest = o; rest > 1;)
          if (rest % 3 == 0) rest /= 3, weight += 9;
          else if (rest % 5 == 0) rest /= 5, weight += 14;
          else rest /= 7, weight += 16;
        scored.emplace_back(l * weight, static_cast<std::uint32_t>(l));
      }
  std::sort(scored.begin(), scored.end());
  std::vector<std::uint32_t> out;
  for (const auto& [cost, l] : scored) out.push_back(l);
  return out;
}

/// The first of bluestein_lengths(n) (0 for n < 2): the padded length when the device takes it.
inline std::uint32_t bluestein_length(std::uint32_t n) {
  const auto l = bluestein_lengths(n);
  return l.empty() ? 0 : l.front();
}

/// Bluestein's chirp c_k = exp(-i pi k^2 / n) (n values) and filter spectrum B = FFT_l(b) (l
/// values) for the kernels: the core's double-precision tables (make_bluestein_tables, the
/// planner's own), rounded to float once.
struct BluesteinFloatTables {
  std::vector<Complex> chirp, filter;
};
inline BluesteinFloatTables bluestein_tables(std::uint32_t n, std::uint32_t l) {
  const BluesteinTables t = make_bluestein_tables(n, l);
  return {{t.chirp.begin(), t.chirp.end()}, {t.filter_spectrum.begin(), t.filter_spectrum.end()}};
}

/// How the fast path takes one axis of length n: directly (l == 0, `plan` is the n-point plan),
/// through Bluestein (`plan` is the l-point plan of the padded lines, in a scratch buffer of
/// l x lines: l-point lines one after another on either axis), or, for columns, in two passes
/// through an image-sized scratch (`second`: the four-step split n = a b below).
struct AxisRoute {
  std::uint32_t n = 0;
  std::uint32_t l = 0;  ///< Bluestein's padded length; 0: direct
  AxisPlan plan;
  /// Four-step columns (Tuning::four_step_min_bytes): with row r = r2 + b r1 (r1 < a, r2 < b),
  /// pass A (`plan`, a-point columns over lines x b lines) transforms x[r2 + b r1] over r1 for
  /// every r2 and multiplies output k1 by w_n^(r2 k1), image to scratch at the same places; pass
  /// B (`second`, b-point columns over lines x a lines) transforms the b neighbouring rows k1 b
  /// + r2 over r2 and stores bin k2 at row k1 + a k2, scratch to image. Both address lines as
  /// columns of a wider image: pass A's line r2 W + c at pitch b W; pass B's line k1 W + c
  /// reads at pitch W from k1 (b - 1) W further on and writes at pitch a W.
  std::optional<AxisPlan> second;
  /// Four-step columns: both passes in place, the rows left swapped in pairs; rows: the pass
  /// takes the rows in those pairs, storing each row's transform in its partner's place
  /// (Tuning::four_step_in_place_min_bytes, pair_rows_with_columns; a split in time by 2).
  std::optional<RowSwap> swap = std::nullopt;
  /// Tiles of this many neighbouring columns (tile_columns; 0: none): the rows store their
  /// transform into the scratch with each tile's lines one after another (column c of row r at
  /// (c / t) t H + r t + c % t), and the columns, in groups that divide t, read their tile from
  /// there and store into the image.
  std::uint32_t tile_lines = 0;
  /// Tuning::fold_columns_max_length: on the rows, the image's height H (the rows pass takes the
  /// columns' first radix-2 step, rows n and n + H/2 in, rows 2n and 2n + 1 of the output out);
  /// on the columns, that this route's n = H/2 columns run over the output seen as 2W lines of
  /// pitch 2W. 0: no fold.
  std::uint32_t fold = 0;
  bool bluestein() const { return l != 0; }
  bool four_step() const { return second.has_value(); }
  /// The lines this route runs over for an image axis of `lines` lines: twice as many for
  /// folded columns.
  std::uint64_t dispatched_lines(std::uint64_t lines) const {
    return fold != 0 && plan.axis == Axis::cols ? 2 * lines : lines;
  }
  /// Complex elements of the scratch buffer for `lines` lines (0 when direct or in place).
  std::uint64_t scratch_elements(std::uint64_t lines) const {
    if (tile_lines != 0) return std::uint64_t{n} * lines;
    if (swap) return 0;
    return four_step() ? std::uint64_t{n} * lines : std::uint64_t{l} * lines;
  }
  /// plan.describe(), prefixed "bluestein n=4099 via " where Bluestein; both passes' where
  /// four-step.
  std::string describe() const {
    const std::string swapped =
        swap ? "rows swapped in pairs (" + std::to_string(swap->a) + " x " + std::to_string(swap->c) + " x " +
                   std::to_string(swap->a) + ")"
             : std::string();
    if (four_step())
      return "four-step n=" + std::to_string(n) + " = " + std::to_string(plan.n) + " x " + std::to_string(second->n) +
             (swap ? " in place, leaving the " + swapped : std::string()) +
             ": " + plan.describe() + "; then " +
             second->describe();
    if (swap) return swapped + ": " + plan.describe();
    if (fold != 0)
      return plan.axis == Axis::rows
                 ? "with the columns' first radix-2 step (rows n, n + " + std::to_string(fold / 2) +
                       " into rows 2n, 2n + 1 of the second buffer): " + plan.describe()
                 : "folded (the " + std::to_string(fold) + "-point columns' halves, twice as many): " + plan.describe();
    if (tile_lines != 0)
      return plan.describe() + (plan.axis == Axis::rows ? ", into tiles of " : ", from tiles of ") +
             std::to_string(tile_lines) + " columns";
    return bluestein() ? "bluestein n=" + std::to_string(n) + " via " + plan.describe() : plan.describe();
  }
};

/// The divisor d of `value` nearest to `target` by ratio (the smallest max(d / target, target
/// / d); ties to the smaller d).
inline std::uint32_t nearest_divisor(std::uint32_t value, std::uint32_t target) {
  std::uint32_t best = 1;
  // d is nearer than e when max(d, t) / min(d, t) < max(e, t) / min(e, t).
  const auto nearer = [target](std::uint64_t d, std::uint64_t e) {
    const std::uint64_t t = target;
    return std::max(d, t) * std::min(e, t) < std::max(e, t) * std::min(d, t);
  };
  for (std::uint32_t d = 1; std::uint64_t{d} * d <= value; ++d)
    if (value % d == 0)
      for (const std::uint32_t c : {d, value / d})
        if (nearer(c, best) || (c < best && !nearer(best, c))) best = c;
  return best;
}

/// The four-step route of n-point columns of an image `lines` wide (AxisRoute::second): n = a b
/// with a the largest divisor up to sqrt(n) for which both passes plan unsplit, each in groups
/// of neighbouring columns whose number divides the width (a group's lines then share one r2,
/// or k1): at most the largest power of two p with p x its length <= four_step_elements
/// (four_step_unswizzled_elements where that plan is not swizzled). Where p does not divide the
/// width: with min_group the divisor of the width nearest to p by ratio (2401 wide: 49), and both
/// passes take at least min_group columns; without, the largest power of two dividing the width
/// where that is at least 16 (6000 wide: 16). Empty where none does.
inline std::optional<AxisRoute> plan_four_step(std::uint32_t n, std::uint32_t lines, const DeviceLimits& limits,
                                               Tuning tuning, std::uint32_t min_group = 0) {
  tuning.first_split_max = 1;
  tuning.first_split_odd_max = 1;
  const bool large = tuning.four_step_in_place_min_bytes != 0 &&
                     std::uint64_t{n} * lines * sizeof(Complex) >= tuning.four_step_in_place_min_bytes;
  const auto plan_pass = [&](std::uint32_t length, std::uint32_t pass_lines, std::uint32_t elements) {
    Tuning t = tuning;
    std::uint32_t p = 1;
    while (std::uint64_t{p} * 2 * length <= elements) p *= 2;
    t.col_lines = p;
    // Where p does not divide the width. Without min_group, the largest power of two dividing it
    // where that is 16 columns or more (128-byte row segments); else the planner's own (its plans
    // then fail `fits` unless the local-memory cap took fewer columns). H100, GL: 6000 x 4000
    // columns in groups of 16 (30, the nearest divisor, in pass A) 303 us against 350 directly;
    // groups of the nearest divisor lost elsewhere (3000^2: 60-point columns in groups of 30, 153
    // us against the direct columns' 117).
    constexpr std::uint32_t min_power_of_two_group = 16;
    const std::uint32_t width_power_of_two = lines & (~lines + 1);
    if (lines % p != 0) {
      if (min_group != 0)
        t.col_lines = nearest_divisor(lines, p);
      else if (width_power_of_two >= min_power_of_two_group)
        t.col_lines = std::min(p, width_power_of_two);
    }
    return plan_axis(Axis::cols, length, pass_lines, limits, t);
  };
  const auto plan_pass_by_layout = [&](std::uint32_t length, std::uint32_t pass_lines) {
    auto plan = plan_pass(length, pass_lines, tuning.four_step_elements);
    const std::uint32_t unswizzled = tuning.four_step_unswizzled_elements;
    if ((!plan || plan->local_layout != LocalLayout::swizzled) && unswizzled != 0 && unswizzled < tuning.four_step_elements)
      plan = plan_pass(length, pass_lines, unswizzled);
    return plan;
  };
  std::uint32_t a = 1;
  while (std::uint64_t{a + 1} * (a + 1) <= n) ++a;
  for (; a >= 2; --a) {
    if (n % a != 0) continue;
    const std::uint32_t b = n / a;
    // In place (AxisRoute::swap) where the image is large and b a multiple of a.
    const bool in_place = large && b % a == 0;
    auto first = plan_pass_by_layout(a, lines * b);
    auto second = plan_pass_by_layout(b, lines * a);
    const auto fits = [&](const std::optional<AxisPlan>& p) {
      return p && p->pre_radix == 1 && !p->radices.empty() && lines % p->lines_per_group == 0 &&
             p->lines_per_group >= min_group;
    };
    if (fits(first) && fits(second)) {
      for (AxisPlan* p : {&*first, &*second})
        if (tuning.four_step_halves != 0 && p->radices.size() > 1) p->local_halves = true;
      AxisRoute route{n, 0, *first, *second};
      if (in_place) route.swap = RowSwap{a, b / a};
      return route;
    }
  }
  return std::nullopt;
}

/// plan_axis for Bluestein's padded lines of length l: its two passes fold the chirp and the
/// filter into the first loads and the last stores (BLUESTEIN_IN / BLUESTEIN_OUT in
/// kernels/fast_fft.cl), which the split through the buffer does not follow, so the split goes
/// through registers whatever tuning.split_global says. Only the first n points of a padded
/// line are live (AxisPlan::live_blocks). Empty where plan_axis is.
inline std::optional<AxisPlan> plan_bluestein_axis(Axis axis, std::uint32_t n, std::uint32_t l, std::uint32_t lines,
                                                   const DeviceLimits& limits, Tuning tuning) {
  tuning.split_global = 0;
  auto plan = plan_axis(axis, l, lines, limits, tuning, n);
  if (!plan || plan->radices.empty()) return std::nullopt;
  return plan;
}

/// The fast path's route for an axis: plan_axis where it succeeds, else Bluestein with the first
/// of bluestein_lengths(n) that plan_bluestein_axis takes and whose scratch keeps 32-bit indices
/// (L · lines < 2^31). Columns: where that L plans with fewer than 2 columns per work-group
/// (8-byte row segments, a quarter of each 32-byte sector used; 4096-point columns ran 2.4x
/// slower as 1 column than as 4 on the H100), the first candidate that plans with
/// min(4, lines, col_lines) columns is taken instead, else the first with 2, else that L: the
/// candidates lie within [2n - 1, 2^ceil(log2(2n - 1))], less than a factor 2 apart in L, and a
/// quarter-used sector costs more than that. A split plan holds lines · L / threads values per
/// work-item, at most max_pre_hold, so with the CL defaults no candidate of n > 4096 gets 2
/// columns (2 · 8197 / 256 > 64; holding only the live inputs would give 2, but ran slower:
/// plan_axis). Empty when neither route works.
inline std::optional<AxisRoute> route_axis(Axis axis, std::uint32_t n, std::uint32_t lines, const DeviceLimits& limits,
                                           const Tuning& tuning) {
  if (n == 0 || lines == 0) return std::nullopt;
  if (auto direct = plan_axis(axis, n, lines, limits, tuning)) {
    const std::uint64_t image_bytes = std::uint64_t{n} * lines * sizeof(Complex);
    const bool wide_rows = tuning.four_step_min_pitch_bytes != 0 &&
                           std::uint64_t{lines} * sizeof(Complex) >= tuning.four_step_min_pitch_bytes;
    const bool uneven = tuning.four_step_uneven_split == 1 && (direct->m & (direct->m - 1)) != 0;
    const bool narrow = direct->lines_per_group <= tuning.four_step_max_direct_lines;
    const bool fits_index = std::uint64_t{n} * lines < (std::uint64_t{1} << 31);
    if (axis == Axis::cols && fits_index && direct->pre_radix > 1 && tuning.four_step_min_bytes != 0 &&
        image_bytes >= tuning.four_step_min_bytes && (narrow || wide_rows || uneven)) {
      if (auto four_step = plan_four_step(n, lines, limits, tuning)) return four_step;
      const bool radix2 = std::find(direct->radices.begin(), direct->radices.end(), 2u) != direct->radices.end();
      const bool large = image_bytes >= tuning.large_four_step_divisor_min_bytes;
      const std::uint32_t divisor_lines = std::max({tuning.four_step_divisor_groups,
                                                    radix2 ? tuning.four_step_radix2_divisor_groups : 0u,
                                                    large ? tuning.large_four_step_divisor_groups : 0u});
      if (direct->lines_per_group <= divisor_lines)
        if (auto four_step = plan_four_step(n, lines, limits, tuning, 2)) return four_step;
    }
    if (axis == Axis::cols && fits_index && direct->pre_radix == 1 && narrow &&
        tuning.four_step_unsplit_min_bytes != 0 && image_bytes >= tuning.four_step_unsplit_min_bytes)
      if (auto four_step = plan_four_step(n, lines, limits, tuning, 32)) return four_step;
    if (direct->max_registers == 0) direct->max_registers = measured_register_bound(*direct, lines, limits, tuning);
    return AxisRoute{n, 0, *direct, std::nullopt};
  }
  const std::uint32_t full = std::min({4u, lines, std::max(1u, tuning.col_lines)});
  const std::uint32_t some = std::min(2u, full);
  std::optional<AxisRoute> first, with_some;
  std::vector<std::uint32_t> lengths = bluestein_lengths(n);
  if (std::find(lengths.begin(), lengths.end(), tuning.bluestein_length) != lengths.end())
    lengths = {tuning.bluestein_length};
  for (const std::uint32_t l : lengths) {
    if (std::uint64_t{l} * lines >= (std::uint64_t{1} << 31)) continue;
    auto inner = plan_bluestein_axis(axis, n, l, lines, limits, tuning);
    if (!inner) continue;
    const AxisRoute route{n, l, *inner, std::nullopt};
    if (!first) {
      first = route;
      if (axis == Axis::rows || inner->lines_per_group >= some) return first;
    }
    if (inner->lines_per_group >= full) return route;
    if (inner->lines_per_group >= some && !with_some) with_some = route;
  }
  return with_some ? with_some : first;
}

/// Both axes' routes of a width x height image: rows are width-point lines over height lines,
/// columns the other way round.
struct ImageRoutes {
  AxisRoute rows, cols;
  /// The scratch both axes share (the larger need; 0 when neither is Bluestein), in elements.
  std::uint64_t scratch_elements() const {
    return std::max(rows.scratch_elements(cols.n), cols.scratch_elements(rows.n));
  }
};

/// The tuning the complex path's rows of n points plan with (Tuning::row_prefetch_twiddles,
/// Tuning::pow2_rows_radix16, Tuning::rows_radix16).
inline Tuning row_tuning(Tuning tuning, std::uint32_t n) {
  if (tuning.row_prefetch_twiddles != 0) tuning.prefetch_twiddles = 2;
  if (tuning.pow2_rows_radix16 != 0 && n >= 2048 && (n & (n - 1)) == 0) {
    tuning.max_radix = std::max(tuning.max_radix, 16u);
    tuning.max_threads = std::min(tuning.max_threads, 256u);
    // Through half the shared memory from 16 KiB (GL, H100, sixteenth session, with the rows'
    // twiddles read ahead: 2048-point rows 30.3 -> 27.1 us; 2187-point rows lost, 42.4 -> 51.2).
    if (tuning.local_halves_above != 0) tuning.local_halves_above = std::min<std::uint32_t>(tuning.local_halves_above, 16384);
  }
  tuning.max_radix = rows_max_radix(tuning, n);
  return tuning;
}

/// The complex path's route for columns of n points over `lines`: route_axis, or under radix 16
/// where Tuning::split_columns_radix16 asks and the direct split's sub-transforms take fewer stages
/// with it in the same invocations and lines per group, in more groups than multiprocessors.
inline std::optional<AxisRoute> route_columns(std::uint32_t n, std::uint32_t lines, const DeviceLimits& limits,
                                              const Tuning& tuning) {
  auto base = route_axis(Axis::cols, n, lines, limits, tuning);
  const auto split = [](const std::optional<AxisRoute>& r) {
    return r && !r->bluestein() && !r->four_step() && r->plan.pre_radix > 1 && !r->plan.split_global;
  };
  if (tuning.split_columns_radix16 == 0 || tuning.max_radix >= 16 || limits.compute_units == 0 || !split(base) ||
      base->plan.groups(lines) <= limits.compute_units)
    return base;
  Tuning radix16 = tuning;
  radix16.max_radix = 16;
  auto wide = route_axis(Axis::cols, n, lines, limits, radix16);
  const bool taken = split(wide) && wide->plan.radices.size() < base->plan.radices.size() &&
                     wide->plan.threads == base->plan.threads && wide->plan.lines_per_group == base->plan.lines_per_group;
  return taken ? wide : base;
}

/// The complex path's route for rows of n points over `lines`: route_axis under row_tuning, or
/// through half the local memory where Tuning::rows_halves_above asks, n is not a power of two and
/// the direct unsplit plan keeps its invocations and rows per group that way.
inline std::optional<AxisRoute> route_rows(std::uint32_t n, std::uint32_t lines, const DeviceLimits& limits,
                                           const Tuning& tuning) {
  const Tuning row = row_tuning(tuning, n);
  auto base = route_axis(Axis::rows, n, lines, limits, row);
  // The halves double an exchange's barriers to halve its memory: worth it only where the whole
  // exchange leaves the multiprocessor under half its invocations.
  const auto thin = [&](const AxisPlan& plan) {
    const std::uint64_t groups = std::min<std::uint64_t>(tuning.unit_threads / plan.threads,
                                                         tuning.unit_local_bytes / std::max<std::uint64_t>(1, plan.local_bytes()));
    return 2 * groups * plan.threads < tuning.unit_threads;
  };
  const auto whole_exchange = [&](const std::optional<AxisRoute>& r) {
    return r && !r->bluestein() && !r->four_step() && r->plan.pre_radix == 1 && !r->plan.local_halves && thin(r->plan);
  };
  if (tuning.rows_halves_above == 0 || tuning.unit_local_bytes == 0 || (n & (n - 1)) == 0 || !whole_exchange(base))
    return base;
  Tuning halves = row;
  halves.local_halves_above = tuning.rows_halves_above;
  auto through_halves = route_axis(Axis::rows, n, lines, limits, halves);
  const bool taken = through_halves && through_halves->plan.local_halves && through_halves->plan.pre_radix == 1 &&
                     through_halves->plan.threads == base->plan.threads &&
                     through_halves->plan.lines_per_group == base->plan.lines_per_group;
  return taken ? through_halves : base;
}

/// Whether a row plan can take its rows in pairs (AxisRoute::swap): a split in time by 2 through
/// the registers of one row per group (each work-item's bins k + m M are then the indices the
/// split in frequency loads for the partner, x[j + m M]), every work-item with the same count.
/// Splits by 4 hold the pair's values past the registers (H100, GL 16384 x 4096 in pairs of
/// 16384-point rows split 4 x 4096: 1 657 -> 2 437 us).
inline bool takes_row_pairs(const AxisPlan& rows) {
  if (rows.axis != Axis::rows || rows.pre_radix != 2 || rows.split_global || !rows.split_dit ||
      !rows.stage0_from_registers || rows.lines_per_group != 1 || rows.live_blocks != 0 || rows.radices.empty())
    return false;
  return rows.m % rows.threads == 0 && (rows.m / rows.radices.back()) % rows.threads == 0;
}

/// Both axes' AxisRoute::swap agree: the rows take pairs where the columns run in place
/// (route_axis from tuning.four_step_in_place_min_bytes) and the rows' plan takes pairs
/// (takes_row_pairs); where it does not, the columns are planned again through the scratch.
/// Called again after measured planning has chosen each axis on its own.
inline void pair_rows_with_columns(ImageRoutes& image, const DeviceLimits& limits, const Tuning& tuning) {
  image.rows.swap.reset();
  if (!image.cols.swap) return;
  if (!image.rows.bluestein() && takes_row_pairs(image.rows.plan)) {
    image.rows.swap = image.cols.swap;
    return;
  }
  Tuning scratch = tuning;
  scratch.four_step_in_place_min_bytes = 0;
  if (auto cols = route_columns(image.cols.n, image.rows.n, limits, scratch)) image.cols = *cols;
}

/// One pass of the axis through the registers: no Bluestein, four steps, row pairs or split
/// through the buffer (tile_columns, fold_columns).
inline bool direct_through_registers(const AxisRoute& r) {
  return !r.bluestein() && !r.four_step() && !r.swap && !r.plan.radices.empty() &&
         !(r.plan.split_global && r.plan.pre_radix > 1);
}

/// Hands the rows' transform to the columns in tiles of the columns' group (AxisRoute::tile_lines;
/// Tuning::tile_min_lines: wider) where tuning.tiled_columns_min_bytes allows it and both axes are
/// direct passes through the registers (no Bluestein, four steps, row pairs or split through the
/// buffer), the tiles at least 4 columns wide and whole across the image. A column pass that
/// reads row segments of a few columns over every row ran slower than one that reads its lines
/// whole (H100, run207). Tiles of 2 columns (16-byte row segments for the rows' stores) lost
/// everywhere (H100, OpenCL, run426, per transform: 3146^2 379 -> 218 us without them, the rows
/// 215 -> 67; 4050^2 704 -> 340, 4802^2 956 -> 473, 5000^2 1096 -> 518). Called again after
/// measured planning has chosen each axis on its own.
inline void tile_columns(ImageRoutes& image, const Tuning& tuning) {
  image.rows.tile_lines = image.cols.tile_lines = 0;
  const std::uint64_t bytes = std::uint64_t{image.rows.n} * image.cols.n * sizeof(Complex);
  const std::uint32_t group = image.cols.plan.lines_per_group;
  const std::uint32_t t = tuning.tile_min_lines > group && tuning.tile_min_lines % group == 0 ? tuning.tile_min_lines : group;
  if (tuning.tiled_columns_min_bytes != 0 && bytes >= tuning.tiled_columns_min_bytes &&
      direct_through_registers(image.rows) && direct_through_registers(image.cols) && t >= 4 && image.rows.n % t == 0)
    image.rows.tile_lines = image.cols.tile_lines = t;
}

/// Folds the columns into the rows (AxisRoute::fold) where tuning.fold_columns_max_length asks
/// and both passes stay direct: rows of one pass each, unsplit (a split's values would be held
/// twice), and the half-length columns over twice the lines one pass in place. Column groups of
/// 8 neighbouring 4096-point columns read 64-byte row segments, the same data as 2048-point
/// half-columns in groups of 8 of the twice-as-wide image (H100, GL, run466: 157.1-157.8 against
/// 139.0-139.3 us at 4096^2's size). Called again after measured planning.
inline void fold_columns(ImageRoutes& image, const DeviceLimits& limits, const Tuning& tuning) {
  image.rows.fold = image.cols.fold = 0;
  const std::uint32_t h = image.cols.n, w = image.rows.n;
  if (tuning.fold_columns_max_length == 0 || h > tuning.fold_columns_max_length || h % 2 != 0 || h < 4 ||
      std::uint64_t{w} * h * sizeof(Complex) < tuning.fold_columns_min_bytes)
    return;
  const auto direct = [](const AxisRoute& r) { return direct_through_registers(r) && r.tile_lines == 0; };
  if (!direct(image.rows) || !direct(image.cols) || image.rows.plan.pre_radix != 1 ||
      std::uint64_t{2} * w >= (std::uint64_t{1} << 30))
    return;
  // Direct as the image's columns are, however many bytes (Tuning::four_step_min_bytes).
  Tuning direct_half = tuning;
  direct_half.four_step_min_bytes = 0;
  auto half = route_columns(h / 2, 2 * w, limits, direct_half);
  if (!half || !direct(*half)) return;
  image.cols = *half;
  image.rows.fold = image.cols.fold = h;
}

/// `t` without the fold: what measured planning times each axis under (in place, on its own),
/// before fold_columns folds the choice.
inline Tuning unfolded(Tuning t) {
  t.fold_columns_max_length = 0;
  return t;
}

/// route_axis for both axes (the rows under row_tuning); empty where either has no route or the
/// image is over the kernels' 32-bit indices (width x height >= 2^31).
inline std::optional<ImageRoutes> route_image(std::size_t width, std::size_t height, const DeviceLimits& limits,
                                              const Tuning& tuning) {
  if (width == 0 || height == 0 || width > (1u << 30) || height > (1u << 30) ||
      std::uint64_t{width} * height >= (std::uint64_t{1} << 31))
    return std::nullopt;
  const auto w = static_cast<std::uint32_t>(width), h = static_cast<std::uint32_t>(height);
  auto rows = route_rows(w, h, limits, tuning);
  auto cols = route_columns(h, w, limits, tuning);
  if (!rows || !cols) return std::nullopt;
  ImageRoutes image{*rows, *cols};
  pair_rows_with_columns(image, limits, tuning);
  tile_columns(image, tuning);
  fold_columns(image, limits, tuning);
  return image;
}

/// Measured planning (BackendOptions::measure_fast_plans), as a fast path or display is given
/// it: the tunings to time (measure_candidates, measure_display_candidates; empty: plan by the
/// base tuning alone), and where choices are kept across runs.
struct Measuring {
  std::vector<Tuning> candidates;
  PlanWisdom* wisdom = nullptr;  ///< null: measure every time
  std::string device;            ///< names the device (and driver) in the wisdom's keys
  bool enabled() const { return !candidates.empty(); }
};

/// `m` with cl_tuning applied to every candidate.
inline Measuring cl_measuring(Measuring m) {
  for (Tuning& t : m.candidates) t = cl_tuning(t);
  return m;
}

/// Measured planning (FFTW_MEASURE's idea; BackendOptions::measure_fast_plans): the tunings a
/// backend plans each axis with, timing every distinct route they give on the device and keeping
/// the fastest. `base` first, then one knob changed at a time, each where the H100 measurements
/// found a length it won at and others it lost at (docs/fast_path.md), so no default serves
/// every size: GL 1024 invocations (4000^2 columns 259 -> 210 us, 4096-point rows lost), 8 values
/// per invocation (3125-point rows 115 -> 99), radix 16 in groups of 256 (4096-point rows 112 ->
/// 107: since then those rows' default, Tuning::pow2_rows_radix16), 24 KiB of shared memory (2401-point columns 113 -> 94),
/// one row per group below 2048 points (1000-point rows 14.2 -> 13.0, 1024-point 13.0 -> 12.6),
/// split columns in rounds of 512 and rows without twiddles read ahead (the defaults since the
/// sixteenth session, found on the H100 alone), 4 columns per group (the real display's
/// 4000-point columns), four-step columns through the scratch (where the defaults take them in
/// place: Tuning::four_step_in_place_min_bytes); OpenCL radix 8, 4 or 16 values
/// per work-item, 4 columns per group, register bounds of 64 and 96 on every pass (H200, fortieth
/// session: 64 won on the rows with a radix-10 or radix-25 stage, since their default, and 128 on
/// some split columns: 3125^2, 4000^2, 1080-point), split columns bounded for a second group
/// (Tuning::second_group_columns; forty-first session: won at five lengths, lost at four), 512
/// work-items within 128 registers, the composite rows without their bound
/// (Tuning::composite_rows_max_registers) and the columns' splits by 5 and 7 toggled
/// (Tuning::odd_splits_past_four_columns); GL's split columns in radix 16
/// (Tuning::split_columns_radix16) and split by 3 and 5 (first_split_odd_min, four_columns_by_halves
/// undone) and odd lengths' not (odd_length_splits undone), rows through half the shared memory
/// from 16 KiB, composite radices in split columns and four-step passes of 4 096 elements (each
/// won at one size on the H200); GL also without the swizzled rows, without the swizzled
/// columns and without radix 16 in rows that are not powers of two (Tuning::swizzled_rows,
/// swizzled_columns, rows_radix16), and without the fifty-ninth session's split columns in
/// whole warps and rows through halves (split_columns_whole_warps, rows_halves_above); on both,
/// the exact group sizes of split columns undone
/// (Tuning::exact_split_threads: OpenCL's 2187- and 1440-point columns lost with them), and
/// unsplit columns directly (Tuning::four_step_unsplit_min_bytes 0).
inline std::vector<Tuning> measure_candidates(const Tuning& base, bool gl) {
  std::vector<Tuning> out{base};
  const auto with = [&](auto Tuning::*field, auto value) {
    Tuning t = base;
    t.*field = static_cast<std::remove_reference_t<decltype(t.*field)>>(value);
    out.push_back(t);
  };
  if (gl) {
    with(&Tuning::max_threads, 1024);
    with(&Tuning::elements_per_thread, 8);
    Tuning radix16 = base;
    radix16.max_radix = 16;
    radix16.max_threads = 256;
    out.push_back(radix16);
    with(&Tuning::local_bytes_cap, 24 * 1024);
    with(&Tuning::row_elements, 1024);
    // The sixteenth session's rules, each undone (measured on the H100 only).
    with(&Tuning::col_one_round_threads, 0);
    with(&Tuning::row_prefetch_twiddles, 0);
    // The twenty-third session's rule, undone.
    with(&Tuning::bluestein_row_one_round_threads, 0);
    // 4 columns per group: the real display's 4000-point columns (2000 of them) 118 -> 109 us,
    // where complex 4000- and 3125-point columns lost with it (H100, seventeenth session).
    with(&Tuning::col_lines, 4);
    // Four-step columns through the scratch (both axes: the rows take pairs only after in-place
    // columns).
    with(&Tuning::four_step_in_place_min_bytes, 0);
    // Every row unpadded (the default before the thirty-third session): GL 3840-point rows 60.1 ->
    // 59.1 us, where the other rows the rule pads lost with it (H100, run286).
    with(&Tuning::padded_rows_min_twos, 0);
    // The thirty-fourth session's rows in one round, undone: the rule reads the registers from the
    // values held, which missed at 5184-point rows (49 registers for 672 invocations) and may miss
    // elsewhere.
    out.push_back(rows_in_rounds(base));
    // Split sub-transforms looped in groups of up to 640: 1440-point columns (4 x 360 in 576) won,
    // 2880-point (8 x 360) lost (Tuning::sub_transform_loop_max_threads).
    with(&Tuning::sub_transform_loop_max_threads, 640);
    // The swizzled layouts (thirty-seventh and thirty-eighth sessions, H200), each undone.
    with(&Tuning::swizzled_rows, 0);
    with(&Tuning::swizzled_columns, 0);
    // The fortieth session's radix-16 rows (H200), undone.
    with(&Tuning::rows_radix16, 0);
    // Radix 16 in the split columns where it takes a stage away (forty-second session, H200),
    // toggled.
    with(&Tuning::split_columns_radix16, base.split_columns_radix16 ? 0 : 1);
    // Split columns in whole warps past max_threads (fifty-ninth session, H100), toggled.
    with(&Tuning::split_columns_whole_warps, base.split_columns_whole_warps ? 0 : 1);
    with(&Tuning::rows_halves_above, base.rows_halves_above ? 0 : 16 * 1024);
    // Columns of any length split by 3 and 5, and none taken four by their halves where a split
    // holds them: both rules were measured before split columns read their first stage from the
    // registers at exact group sizes (Tuning::exact_split_threads); odd lengths between 1 537 and
    // 3 072 points take such splits by default (Tuning::odd_length_splits, forty-seventh session,
    // H200), even ones won and lost by a little (2880-point columns 73.5 -> 72.0 us, 1458-point
    // 28.3 -> 29.4), other odd ones too (1215-point 23.8 -> 21.9, 1323-point 24.5 -> 26.5).
    Tuning odd_splits = base;
    odd_splits.first_split_odd_min = 0;
    odd_splits.four_columns_by_halves = 0;
    out.push_back(odd_splits);
    // The forty-seventh session's odd-length splits, undone (measured on the H200 alone).
    with(&Tuning::odd_length_splits, 0);
    // The sixty-second session's even columns split by 5 and 7 (H100; 2250- and 2430-point
    // columns lost 1-2 % with it), toggled.
    with(&Tuning::even_columns_odd_splits, base.even_columns_odd_splits ? 0 : 1);
    // The sixty-third session's four-step columns of large images through divisor groups (H100;
    // smaller images lost with them), toggled.
    with(&Tuning::large_four_step_divisor_groups, base.large_four_step_divisor_groups ? 0 : 4);
    // Each a win at one sweep size and a loss at others (H200, GL, run364: every GL rule undone
    // per pass at the sweep sizes, one round): rows through half the shared memory from 16 KiB
    // (1000-point rows 12.4 -> 11.0 us, as on the H100; 2187-point 33.4 -> 38.6), composite
    // radices in split columns (1000-point columns 12.8 -> 11.5 as 2 x 500 (10 10 5); 1080-point
    // 18.0 -> 22.8), four-step column passes of up to 2 048 elements per group (GL's default
    // until the fifty-second session; H200 8192-point columns out of place 583 us with 4 096,
    // 590 with 2 048; unswizzled passes keep 2 048, four_step_unswizzled_elements).
    with(&Tuning::local_halves_above, 16 * 1024);
    with(&Tuning::composite_radices, 2);
    with(&Tuning::four_step_elements, 2048);
  } else {
    with(&Tuning::max_radix, 8);
    with(&Tuning::elements_per_thread, 4);
    with(&Tuning::elements_per_thread, 16);
    with(&Tuning::col_lines, 4);
    with(&Tuning::max_registers, 64);
    with(&Tuning::max_registers, 96);
    // The fortieth session's bound on rows with radix-10 or radix-25 stages (H200), undone.
    with(&Tuning::composite_rows_max_registers, 0);
    // Split columns bounded for a second group per multiprocessor (forty-first session, H200:
    // won at 3125^2, 4000^2, 3000^2, 3840 x 2160 and 1920 x 1080, lost at other lengths).
    with(&Tuning::second_group_columns, base.second_group_columns ? 0 : 1);
    // 512 work-items, which NVIDIA's compiler allows a kernel only within 128 registers (GL's
    // layouts, whose columns hold 8 lines split 8 x 512).
    Tuning wide = base;
    wide.max_threads = 512;
    wide.max_registers = 128;
    out.push_back(wide);
    // Splits by 5 and 7 of columns past four lines unsplit (sixtieth session, H100), toggled.
    with(&Tuning::odd_splits_past_four_columns, base.odd_splits_past_four_columns ? 0 : 1);
    // Exact split columns of 4 lines holding up to 80 values (sixty-first session, H100),
    // toggled.
    with(&Tuning::exact_split_max_pre_hold, base.exact_split_max_pre_hold ? 0 : 80);
    // Two-line columns with a radix-2 stage through divisor groups (sixty-third session, H100),
    // toggled.
    with(&Tuning::four_step_radix2_divisor_groups, base.four_step_radix2_divisor_groups ? 0 : 2);
  }
  // Four steps through divisor groups for split columns of up to 1 or 2 lines per group, or for
  // none (0): each of the three the defaults do not take (H100: OpenCL's one-line columns won,
  // sixty-second session, its two-line ones won and lost, 4290-, 4802-, 7500-point 5-7 % faster,
  // 5625-, 6250-, 7560-point 4-12 % slower; GL's two-line ones won at every length, sixty-fourth).
  for (const std::uint32_t lines : {0u, 1u, 2u})
    if (lines != base.four_step_divisor_groups) with(&Tuning::four_step_divisor_groups, lines);
  // The first stage of split columns from the registers at a group size that is not a multiple
  // of 32 (forty-second session, H200: OpenCL's 2187- and 1440-point columns lost with it),
  // toggled.
  with(&Tuning::exact_split_threads, base.exact_split_threads ? 0 : 1);
  // Unsplit columns directly where the default takes them in two passes (2401^2 won by 5-7 us on
  // the H100 in two passes; other GPUs may not).
  with(&Tuning::four_step_unsplit_min_bytes, 0);
  return out;
}

/// The real display path's candidates: measure_candidates, then the display's own knobs changed
/// (where the display rows colour each bin from, and on OpenCL their register bound). The backend
/// times the whole path (columns and display rows) under each tuning that plans it differently.
inline std::vector<Tuning> measure_display_candidates(const Tuning& base, bool gl) {
  std::vector<Tuning> out = measure_candidates(base, gl);
  Tuning colour = base;
  colour.display_from_registers = base.display_from_registers ? 0 : 1;
  out.push_back(colour);
  Tuning unpack = base;
  unpack.display_rows_unpack_after = base.display_rows_unpack_after ? 0 : 1;
  out.push_back(unpack);
  if (gl) {
    // Display rows without half-the-shared-memory exchanges: 4096-point 103 -> 99.6 us, where
    // 4000-point lost (116 -> 119; H100, seventeenth session).
    Tuning whole = base;
    whole.local_halves_above = 0;
    whole.display_rows_halves_above = 0;
    out.push_back(whole);
    Tuning odd_threads = base;  // odd-length display rows in as many invocations as complex rows
    odd_threads.display_rows_odd_max_threads = base.display_rows_odd_max_threads ? 0 : 256;
    out.push_back(odd_threads);
  } else {
    Tuning unbounded = base;
    unbounded.display_rows_max_registers = base.display_rows_max_registers ? 0 : 128;
    out.push_back(unbounded);
  }
  return out;
}

/// What makes two plans the same program and dispatch: every #define, the register bound and
/// the description (lines, threads).
inline std::string plan_identity(const AxisPlan& plan) {
  std::string id = plan.describe();
  for (const auto& [name, value] : plan.defines()) id += ' ' + name + '=' + value;
  return id + " regs=" + std::to_string(plan.max_registers);
}

/// The same for a route (its kind and lengths, and each pass's plan).
inline std::string route_identity(const AxisRoute& route) {
  std::string id = route.describe() + " | " + plan_identity(route.plan);
  if (route.second) id += " | " + plan_identity(*route.second);
  return id;
}

/// Measured planning of one axis: `planned` (under `base`), then the route of each of `measure`
/// that differs from those before it, with the tuning that gave it. `routes_for(tuning)` plans
/// the image as the backend can take it (an optional ImageRoutes).
template <class RoutesFor>
std::vector<std::pair<AxisRoute, const Tuning*>> distinct_axis_routes(Axis axis, const AxisRoute& planned,
                                                                     const Tuning& base,
                                                                     const std::vector<Tuning>& measure,
                                                                     RoutesFor routes_for) {
  std::vector<std::pair<AxisRoute, const Tuning*>> distinct{{planned, &base}};
  std::set<std::string> seen{route_identity(planned)};
  for (const Tuning& t : measure) {
    const auto image = routes_for(t);
    if (!image) continue;
    const AxisRoute& route = axis == Axis::rows ? image->rows : image->cols;
    if (seen.insert(route_identity(route)).second) distinct.emplace_back(route, &t);
  }
  return distinct;
}

/// FFTSCOPE_PLANNING_LOG=1: measured planning logs on stderr, for measurements.
inline bool planning_log_enabled() {
  const char* env = std::getenv("FFTSCOPE_PLANNING_LOG");
  return env && std::string(env) == "1";
}

/// Each candidate's median time and plan (what/size, microseconds, description).
inline void log_candidate(const std::string& what, double ms, const std::string& description) {
  if (!planning_log_enabled()) return;
  std::fprintf(stderr, "planning %s: %10.1f us  %s\n", what.c_str(), ms * 1e3, description.c_str());
}

/// How long measuring one choice took (the candidates' compiles, the warming and the timing),
/// logged when it ends, on any path out: what a user waits for on a size the wisdom does not know.
class PlanningClock {
 public:
  PlanningClock(std::string what, std::size_t routes)
      : what_(std::move(what)), routes_(routes), start_(std::chrono::steady_clock::now()) {}
  PlanningClock(const PlanningClock&) = delete;
  PlanningClock& operator=(const PlanningClock&) = delete;
  ~PlanningClock() {
    if (!planning_log_enabled()) return;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "planning %s: %zu distinct routes measured in %.0f ms\n", what_.c_str(), routes_, ms);
  }

 private:
  std::string what_;
  std::size_t routes_;
  std::chrono::steady_clock::time_point start_;
};

/// How long measured planning kept the device busy before timing (warm_until_steady), and the
/// planned route's time at the end of it.
inline void log_warming(const std::string& what, double spent_ms, double steady_ms) {
  if (!planning_log_enabled()) return;
  if (steady_ms < 0)
    std::fprintf(stderr, "planning %s: no warm-up (the device needs none, or its timer measures nothing)\n", what.c_str());
  else
    std::fprintf(stderr, "planning %s: warmed %.0f ms, planned then %.1f us\n", what.c_str(), spent_ms, steady_ms * 1e3);
}

/// Measured planning's choice among distinct candidates (index 0 the planned one), each timed
/// beside the planned one after the device was warmed (so that a clock that changes meanwhile
/// changes both, and none runs on idle clocks): keeps the candidate fastest relative to the
/// planned, which stands where none is faster or a timing failed. Both backends' measured
/// planning (GL's queries, OpenCL's events) decide through it.
class FastestBeside {
 public:
  FastestBeside(std::string what, std::string planned_description, const Warming& warming)
      : what_(std::move(what)), planned_description_(std::move(planned_description)) {
    log_warming(what_, warming.spent_ms, warming.batch_ms);
  }
  /// Candidate `index` (> 0) timed beside the planned one.
  void record(std::size_t index, const PairedTimes& t, const std::string& description) {
    if (!t.ok()) return;
    log_candidate(what_, t.base_ms, planned_description_ + " (planned, beside the next)");
    log_candidate(what_, t.candidate_ms, description);
    if (t.candidate_ms < best_ratio_ * t.base_ms) {
      best_ratio_ = t.candidate_ms / t.base_ms;
      best_index_ = index;
    }
  }
  std::size_t best() const { return best_index_; }

 private:
  std::string what_;
  std::string planned_description_;
  std::size_t best_index_ = 0;
  double best_ratio_ = 1;
};

/// What a wisdom key names of a choice among one axis's distinct routes, and the candidates
/// (their identities, one per line): "rows 4096x2048", ...
inline std::pair<std::string, std::string> axis_choice(Axis axis, std::size_t width, std::size_t height,
                                                       const std::vector<std::pair<AxisRoute, const Tuning*>>& distinct) {
  std::string identities;
  for (const auto& d : distinct) identities += route_identity(d.first) + '\n';
  return {to_string(axis) + " " + std::to_string(width) + "x" + std::to_string(height), identities};
}

/// The real-input display's columns: H points over the image's pair columns (display_pair_columns),
/// as route_axis takes such columns (four-step included), from the image into a separate buffer
/// (axis_passes out of place). Not through Bluestein: plan_real_display routes those sizes.
inline std::optional<AxisRoute> route_real_columns(std::size_t width, std::size_t height, const DeviceLimits& limits,
                                                   Tuning tuning) {
  if (width < 3 || height < 2 || height > (1u << 30) || width > (1u << 30)) return std::nullopt;
  // Unsplit columns take four steps where the complex columns of the same image would (Z holds
  // half its bytes). H100, OpenCL: 2401^2's 1 204 pair columns (Z 23 MB) 62.3 -> 27.3 + 18.5 us.
  tuning.four_step_unsplit_min_bytes /= 2;
  if (tuning.four_step_uneven_split == 2) tuning.four_step_uneven_split = 1;
  // Half the complex columns' groups: the splits by 5 and 7 lost here (H100, GL, run434: 2250^2's
  // display 74.2 -> 83.1 us, 2430^2 85.9 -> 194, 2366^2 86.3 -> 232, 2750^2 99.2 -> 107.1).
  tuning.even_columns_odd_splits = 0;
  // The divisor groups' rules hold here as on the complex columns: H100, each display whole
  // (run435, run442, run443), every size they move measured, 49 of 51 faster: OpenCL 8085^2
  // 1 638 -> 925 us (one line), 7722^2 1 255 -> 832, 8008^2 1 629 -> 908, 6318^2 607 -> 481 (a
  // radix-2 stage; 6370^2 tied); GL 8019^2 2 924 -> 1 117, 8100^2 2 854 -> 1 205 (large images),
  // 4802^2 510 -> 359, 5070^2 546 -> 338 (two lines); 7425^2 1 074 -> 1 085 lost.
  const auto lines = static_cast<std::uint32_t>(display_pair_columns(width));
  auto route = route_axis(Axis::cols, static_cast<std::uint32_t>(height), lines, limits, tuning);
  if (!route || route->bluestein() || route->plan.radices.empty()) return std::nullopt;
  // Where the four-step passes run in place (AxisRoute::swap, from four_step_in_place_min_bytes
  // of Z), pass B leaves Z's rows swapped, and the display rows read each bin's row where it lies
  // (display_rows_defines): no rows' pass undoes it.
  return route;
}

/// The real display's passes at a size (issue 6): each axis by its fused pass where that plans,
/// else by the complex path's route for it, Bluestein's included ("routed"). Columns: the image's
/// pair columns into Z (route_real_columns, else route_axis over display_pair_columns lines).
/// Rows: the fused display rows from Z (plan_display_rows); else a pass taking the rows ky <= H/2
/// of the column FFTs apart from Z (the backends' display_unpack), those W-point rows in place by
/// route_axis, and a pass colouring each bin and its mirror (display_half). Where the rows are
/// routed the columns never run in place with Z's rows left swapped (AxisRoute::swap): only the
/// fused display rows read them where they lie. Empty where an axis has neither, or at 2^30 pixels
/// and more (the display kernels' 32-bit indices).
struct DisplayPasses {
  AxisRoute cols;
  std::optional<AxisPlan> rows;          ///< the fused display rows
  std::optional<AxisRoute> routed_rows;  ///< else the rows ky <= H/2, by their route
  /// Both axes take their fused pass.
  bool fused() const { return rows.has_value() && !cols.bluestein(); }
  /// The scratch the passes share, in elements (0 where none needs one).
  std::uint64_t scratch_elements(std::size_t width, std::size_t height) const {
    return std::max(cols.scratch_elements(display_pair_columns(width)),
                    routed_rows ? routed_rows->scratch_elements(height / 2 + 1) : 0);
  }
};
inline std::optional<DisplayPasses> plan_real_display(std::size_t width, std::size_t height,
                                                      const DeviceLimits& limits, Tuning tuning) {
  if (width < 3 || height < 2 || std::uint64_t{width} * height >= (std::uint64_t{1} << 30)) return std::nullopt;
  auto rows = plan_display_rows(width, height, limits, tuning);
  std::optional<AxisRoute> routed_rows;
  if (!rows) {
    routed_rows = route_axis(Axis::rows, static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height / 2 + 1),
                             limits, tuning);
    if (!routed_rows || routed_rows->swap) return std::nullopt;
    tuning.four_step_in_place_min_bytes = 0;
  }
  auto cols = route_real_columns(width, height, limits, tuning);
  if (!cols)
    cols = route_axis(Axis::cols, static_cast<std::uint32_t>(height), static_cast<std::uint32_t>(display_pair_columns(width)),
                      limits, tuning);
  if (!cols || cols->plan.radices.empty() || (cols->swap && !rows)) return std::nullopt;
  return DisplayPasses{*cols, rows, routed_rows};
}

/// The fused display rows' program: their plan and the #defines they take beside it.
inline std::string display_rows_identity(std::size_t width, std::size_t height, const AxisPlan& rows,
                                         const Tuning& tuning) {
  std::string id = plan_identity(rows);
  for (const auto& [name, value] : display_rows_defines(width, height, rows, tuning)) id += ' ' + name + '=' + value;
  return id;
}

/// What makes two real display paths the same programs (measure_display_candidates): the
/// columns' route and the display rows' program; empty where the fused passes do not plan both
/// axes (measured planning times the fused display only).
inline std::string display_identity(std::size_t width, std::size_t height, const DeviceLimits& limits,
                                    const Tuning& tuning) {
  const auto passes = plan_real_display(width, height, limits, tuning);
  if (!passes || !passes->fused()) return {};
  return route_identity(passes->cols) + " || " + display_rows_identity(width, height, *passes->rows, tuning);
}

/// `base`, then each of `measure` (split_global 0: the display epilogue follows the split through
/// registers only) that plans the display path at this size differently from those before it.
inline std::vector<Tuning> distinct_display_tunings(std::size_t width, std::size_t height, const DeviceLimits& limits,
                                                   const Tuning& base, const std::vector<Tuning>& measure) {
  std::vector<Tuning> distinct{base};
  std::set<std::string> seen{display_identity(width, height, limits, base)};
  for (Tuning t : measure) {
    t.split_global = 0;
    const std::string id = display_identity(width, height, limits, t);
    if (!id.empty() && seen.insert(id).second) distinct.push_back(t);
  }
  return distinct;
}

/// The same for a choice among the display path's distinct tunings: "display 4096x4096", ...
inline std::pair<std::string, std::string> display_choice(std::size_t width, std::size_t height,
                                                          const DeviceLimits& limits,
                                                          const std::vector<Tuning>& distinct) {
  std::string identities;
  for (const Tuning& t : distinct) identities += display_identity(width, height, limits, t) + '\n';
  return {"display " + std::to_string(width) + "x" + std::to_string(height), identities};
}

/// The kernels' compile-time modes of Bluestein's two passes (#define names). Compare modes by
/// content (std::strcmp), not by pointer: a literal's address may differ between translation
/// units (the sanitizer build does not merge them).
inline constexpr char bluestein_in[] = "BLUESTEIN_IN";
inline constexpr char bluestein_out[] = "BLUESTEIN_OUT";
/// The four-step columns' two passes (AxisRoute::second).
inline constexpr char four_step_a[] = "FOUR_STEP_A";
inline constexpr char four_step_b[] = "FOUR_STEP_B";
/// Rows taken in the pairs in-place four-step columns leave (AxisRoute::swap).
inline constexpr char row_pairs[] = "ROW_PAIRS";
/// A direct pass that stores into a separate output buffer (the real display's columns).
inline constexpr char output_buffer[] = "OUTPUT_BUFFER";
/// Both axes of a square image in one dispatch (fused_pass; OpenCL).
inline constexpr char fused_2d[] = "FUSED_2D";

/// One dispatch of an axis on the fast path, the same in both backends.
struct AxisPass {
  /// Kernel mode: nullptr (a direct pass, in place on the image), output_buffer (a direct pass,
  /// image -> output), bluestein_in or four_step_a (image -> scratch), bluestein_out (scratch ->
  /// image) or four_step_b (scratch -> output). The output is the image unless the passes were
  /// asked out of place (axis_passes).
  const char* mode = nullptr;
  std::string name;        ///< timing record: "fast_rows", "fast_cols_inv(L=8960; chirp out)", ...
  std::uint64_t bytes = 0;  ///< what the pass reads and writes (image, scratch, the tables once)
  float conj_sign = 1.0f;   ///< +1 forward, -1 inverse (conj(DFT(conj x)))
  float scale = 1.0f;       ///< applied by the last stores
  /// The route's second kernel: BLUESTEIN_OUT, or four-step pass B (with `second`'s plan and
  /// twiddles: pass_plan).
  bool second = false;
  /// The buffer the kernel works on (binding 0 / argument 0) is the scratch, the image beside it;
  /// else the image, and the scratch beside it where the mode has one (four-step pass A).
  bool on_scratch = false;
  /// The pass stores into the scratch (four-step pass A out of place); else into the output.
  bool to_scratch = false;
  /// The kernel works on the output (binding 0 / argument 0): in-place four-step pass B, after
  /// pass A stored there.
  bool on_output = false;
  /// Bluestein's second pass out of place: its image binding / argument (which it only stores
  /// into) is the output; the first pass read the image.
  bool image_is_output = false;
  /// #defines beyond the plan's and the mode's (in-place four-step pass B: its store order).
  std::vector<std::pair<std::string, std::string>> defines = {};
  /// Groups dispatched where not the plan's over `lines` (row pairs: one group per pair).
  std::uint64_t groups = 0;
  std::uint64_t lines = 0;     ///< lines dispatched (u_lines / `lines`)
  std::uint32_t in_pitch = 0;  ///< the image's row pitch as the kernel addresses it (u_row_pitch)
  /// Four-step only: the pitch of the stores, the lines of one block (the image width) and how
  /// much further on each block's loads start (AxisRoute::second).
  std::uint32_t out_pitch = 0, block_lines = 0, block_shift = 0;
  /// Groups dispatched per group of the plan over `lines`: 2 for fused_2d (rows, then columns).
  std::uint32_t phases = 1;
};

/// The plan `pass` runs: four-step pass B's own, else the route's.
inline const AxisPlan& pass_plan(const AxisRoute& route, const AxisPass& pass) {
  return pass.second && route.four_step() ? *route.second : route.plan;
}

/// The passes of `route` over `lines` lines in `direction`: one in-place pass for a direct axis
/// (scale 1/n for the inverse); for Bluestein, the forward L-point pass (image times the chirp
/// in, spectrum times the filter out into the scratch) and the inverse L-point pass (the first
/// n bins times the chirp back into the image). The inner FFTs run forward then inverse whatever
/// the direction: the outer inverse is conj(DFT(conj x)), folded into the first loads and the
/// last stores, and the inner 1/L and the outer 1/n are one factor. Four-step columns: pass A
/// then pass B (AxisRoute::second); the inverse conjugates A's loads and B's stores only; with
/// AxisRoute::swap, pass A stores into the output and pass B works there in place. Rows with
/// AxisRoute::swap: one pass of the pairs (row_pairs, one group each). AxisRoute::tile_lines: the
/// rows from the image into the scratch's tiles (TILE_OUT), the columns from there into the output.
/// out_of_place: the last pass stores into an output buffer and the image is only read
/// (Bluestein: the second pass's image is the output, AxisPass::image_is_output).
/// `stem`: the timing records' names start with it (default "fast_rows" / "fast_cols").
inline std::vector<AxisPass> axis_passes(const AxisRoute& route, std::uint64_t lines, Direction direction,
                                         bool out_of_place = false, std::string stem = {}) {
  const std::string axis = stem.empty() ? std::string("fast_") + (route.plan.axis == Axis::rows ? "rows" : "cols")
                                        : std::move(stem);
  const bool forward = direction == Direction::forward;
  const float conj_sign = forward ? 1.0f : -1.0f;
  const std::uint64_t n = route.n, l = route.l, c = sizeof(Complex);
  const auto inverse_scale = [&](double factor) { return static_cast<float>(1.0 / factor); };
  const auto width = static_cast<std::uint32_t>(route.plan.axis == Axis::rows ? n : lines);
  const auto pass = [&](const char* mode, std::string name, std::uint64_t bytes, float scale, bool second,
                        bool on_scratch) {
    AxisPass p{mode, std::move(name), bytes, conj_sign, scale};
    p.second = second;
    p.on_scratch = on_scratch;
    p.lines = lines;
    p.in_pitch = width;
    return p;
  };
  if (route.four_step()) {
    const auto a = route.plan.n, b = route.second->n;
    const std::string of = " of " + std::to_string(n) + ")";
    const bool in_place = route.swap.has_value();
    AxisPass pass_a = pass(four_step_a, axis + "_a(" + std::to_string(a) + of, 2 * n * lines * c + n * c,
                           1.0f, false, false);
    pass_a.to_scratch = !in_place;
    pass_a.lines = lines * b;
    pass_a.in_pitch = pass_a.out_pitch = b * width;
    pass_a.block_lines = width;
    AxisPass pass_b = pass(four_step_b, axis + "_b(" + std::to_string(b) + of, 2 * n * lines * c,
                           forward ? 1.0f : inverse_scale(static_cast<double>(n)), true, !in_place);
    pass_b.lines = lines * a;
    pass_b.out_pitch = a * width;
    pass_b.block_lines = width;
    pass_b.block_shift = (b - 1) * width;
    pass_b.on_output = in_place;
    if (in_place) {
      // Bin k2 = u + c v at row u a + v of the block (RowSwap).
      pass_b.defines = {{"FOUR_STEP_SWAP_A", std::to_string(route.swap->a)},
                        {"FOUR_STEP_SWAP_C", std::to_string(route.swap->c)}};
    }
    return {pass_a, pass_b};
  }
  if (route.swap) {
    if (out_of_place || route.bluestein()) throw std::logic_error("axis_passes: row pairs run in place, directly");
    AxisPass p = pass(row_pairs, axis, 2 * n * lines * c, forward ? 1.0f : inverse_scale(static_cast<double>(n)),
                      false, false);
    p.groups = route.swap->pairs().size() / 2;
    return {p};
  }
  if (route.fold != 0 && route.plan.axis == Axis::rows) {
    // Into the output, which the columns then work on (the radix-2 step's 1/2 with the rows' 1/n).
    if (route.bluestein()) throw std::logic_error("axis_passes: folded rows run directly");
    AxisPass p = pass(output_buffer, axis, 2 * n * lines * c + route.fold / 2 * c,
                      forward ? 1.0f : inverse_scale(2.0 * static_cast<double>(n)), false, false);
    p.defines = {{"FOLD_ROWS", "1"}};
    p.lines = lines / 2;
    return {p};
  }
  if (route.tile_lines != 0) {
    // Rows: image -> tiles in the scratch; columns: tiles -> output (the image unless out of place).
    const bool rows = route.plan.axis == Axis::rows;
    AxisPass p = pass(output_buffer, axis, 2 * n * lines * c, forward ? 1.0f : inverse_scale(static_cast<double>(n)),
                      false, !rows);
    p.to_scratch = rows;
    p.defines = {{rows ? "TILE_OUT" : "TILE_IN", std::to_string(route.tile_lines)}};
    return {p};
  }
  if (!route.bluestein())
    return {pass(out_of_place ? output_buffer : nullptr, axis, 2 * n * lines * c,
                 forward ? 1.0f : inverse_scale(static_cast<double>(n)), false, false)};
  const std::string length = "(L=" + std::to_string(l);
  AxisPass out = pass(bluestein_out, axis + "_inv" + length + "; chirp out)", (l * lines + n + n * lines) * c,
                      inverse_scale(static_cast<double>(l) * (forward ? 1.0 : static_cast<double>(n))), true, true);
  out.image_is_output = out_of_place;
  return {pass(bluestein_in, axis + length + "; chirp in; filter out)", (n * lines + n + l + l * lines) * c, 1.0f,
               false, true),
          out};
}

/// How an axis's passes run: in place on the image, from the image into an output buffer
/// (axis_passes out of place), or both axes of a square image in one dispatch (fused_pass).
enum class PassLayout { in_place, out_of_place, both_axes };

/// The column route that runs both axes in one dispatch (mode fused_2d, fused_pass; the OpenCL
/// backend's), or none: a square image of at most tuning.fused_max_bytes whose axes are direct
/// and whose columns are one pass, unsplit or (Tuning::fused_split_columns) split through
/// registers. Its plan serves the rows too, addressing the image as its transpose. (Columns
/// planned narrower to avoid a split lost: H100, 1024^2 with 4 columns per group unsplit,
/// 24.9-43.3 us against 21.8-22.2 in two dispatches.)
inline std::optional<AxisRoute> fused_route(const ImageRoutes& routes, const Tuning& tuning) {
  const AxisRoute& cols = routes.cols;
  const std::uint64_t n = cols.n;
  const bool split_ok = cols.plan.pre_radix == 1 || (tuning.fused_split_columns != 0 && !cols.plan.split_global);
  if (routes.rows.n != cols.n || routes.rows.bluestein() || cols.bluestein() || cols.four_step() ||
      cols.plan.radices.empty() || !split_ok || n * n * sizeof(Complex) > tuning.fused_max_bytes)
    return std::nullopt;
  AxisRoute fused = cols;
  fused.tile_lines = 0;  // one dispatch, in place
  return fused;
}

/// The one pass of a fused transform of a square image (fused_route), the column route over its
/// `width` columns: "fast_2d", twice the column groups, each line read and written once per axis.
inline AxisPass fused_pass(const AxisRoute& cols, std::uint64_t width, Direction direction) {
  AxisPass p = axis_passes(cols, width, direction).front();
  p.mode = fused_2d;
  p.name = "fast_2d";
  p.bytes *= 2;
  p.phases = 2;
  return p;
}

/// The passes of an axis object (ClFastAxis, GlFastAxis) in `layout`.
inline std::vector<AxisPass> layout_passes(const AxisRoute& route, std::uint64_t lines, Direction direction,
                                           PassLayout layout, std::string stem = {}) {
  if (layout == PassLayout::both_axes) return {fused_pass(route, lines, direction)};
  return axis_passes(route, lines, direction, layout == PassLayout::out_of_place, std::move(stem));
}

}  // namespace fftscope::fast
