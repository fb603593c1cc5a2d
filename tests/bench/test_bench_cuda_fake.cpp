// bench_cufft.cpp's own code on CI, which has no NVIDIA GPU: run through fake_cuda.cpp, a
// stand-in runtime that ctest puts first on LD_LIBRARY_PATH under the real libraries' names. The
// entry's result is still checked against FFTW by the sweep (the stand-in computes a DFT), and
// what it allocates or creates must all come back, including when an allocation fails halfway through.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

#include "bench/bench.h"
#include "support/quick_sweep.h"
#include "support/reference.h"

namespace fftscope::bench {
namespace {

struct FakeCuda {
  int (*live_objects)() = nullptr;  // allocations, events, plans, modules, NVRTC programs
  void (*fail_malloc)(int) = nullptr;
};

// The hooks of the library the bench itself will load (the same file, mapped once).
FakeCuda fake_cuda() {
  FakeCuda fake;
  void* runtime = dlopen("libcudart.so", RTLD_NOW | RTLD_LOCAL);
  if (!runtime) return fake;
  fake.live_objects = reinterpret_cast<int (*)()>(dlsym(runtime, "fake_cuda_live_objects"));
  fake.fail_malloc = reinterpret_cast<void (*)(int)>(dlsym(runtime, "fake_cuda_fail_malloc"));
  return fake;
}

SweepOptions options_for(const std::string& implementation) {
  return test::quick_sweep({{16, 8}, {12, 10}}, {implementation});
}

class BenchCudaFake : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = fake_cuda();
    // Not a skip: this binary only ever runs with the stand-in first on the library path.
    ASSERT_TRUE(fake_.live_objects && fake_.fail_malloc)
        << "libcudart.so is not fake_cuda (run through ctest, which sets LD_LIBRARY_PATH)";
    fake_.fail_malloc(0);
  }
  void TearDown() override {
    if (fake_.fail_malloc) fake_.fail_malloc(0);
  }
  FakeCuda fake_;
};

TEST_F(BenchCudaFake, CufftEntryTimesAndChecksWhatTheRuntimeComputes) {
  for (const BenchEntry& e : run_sweep(options_for("cufft"))) {
    SCOPED_TRACE(std::to_string(e.size.width) + "x" + std::to_string(e.size.height) + ": " + e.reason);
    ASSERT_TRUE(e.available);
    EXPECT_EQ(e.device, "fake CUDA device (tests)");
    EXPECT_EQ(e.timer, "cuda events around cufftExecC2C");
    EXPECT_EQ(e.repeats, 3u);
    EXPECT_GE(e.min_us, 0.0);
    EXPECT_LE(e.min_us, e.median_us);
    // The stand-in's DFT in double, stored as float, against FFTW's transform of the same input.
    EXPECT_LT(e.rel_error, test::float_fft_tolerance(e.size.width * e.size.height));
  }
  EXPECT_EQ(fake_.live_objects(), 0);
}

TEST_F(BenchCudaFake, CufftEntryThatFailsToAllocateFreesWhatItHadAndSaysWhy) {
  fake_.fail_malloc(2);  // the second buffer of the first size
  const auto entries = run_sweep(options_for("cufft"));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_FALSE(entries[0].available);
  EXPECT_EQ(entries[0].reason, "cuFFT: cudaMalloc failed with code 2 (out of memory)");
  EXPECT_TRUE(entries[1].available) << entries[1].reason;
  EXPECT_EQ(fake_.live_objects(), 0);
}

TEST_F(BenchCudaFake, DisplayEntryFreesEverythingWhetherItFailsEarlyOrLate) {
  fake_.fail_malloc(3);  // its third buffer (the RGBA image) of the first size
  const auto entries = run_sweep(options_for("cufft-r2c-display"));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].reason, "cuFFT: cudaMalloc failed with code 2 (out of memory)");
  // The second size gets every buffer, its plan and its module, then the stand-in refuses the
  // kernel launch: the error names the launch, and the destructor takes everything back.
  EXPECT_FALSE(entries[1].available);
  EXPECT_NE(entries[1].reason.find("cuLaunchKernel(r2c_display) failed with code 801"), std::string::npos)
      << entries[1].reason;
  EXPECT_EQ(fake_.live_objects(), 0);
}

}  // namespace
}  // namespace fftscope::bench
