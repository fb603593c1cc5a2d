#pragma once
// The sweep options of the bench's tests, which check results, not speed.

#include <string>
#include <utility>
#include <vector>

#include "bench/bench.h"

namespace fftscope::test {

/// `implementations` at `sizes`: one warm-up run and no warm-up by time (that is for GPU clocks),
/// `repeats` timed runs.
inline bench::SweepOptions quick_sweep(std::vector<bench::BenchSize> sizes, std::vector<std::string> implementations,
                                       int repeats = 3) {
  bench::SweepOptions options;
  options.sizes = std::move(sizes);
  options.implementations = std::move(implementations);
  options.warmup = 1;
  options.warmup_ms = 0;
  options.repeats = repeats;
  return options;
}

}  // namespace fftscope::test
