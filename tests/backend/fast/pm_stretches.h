// Stretches of one axis's fast passes for NVIDIA's PM sampling (scripts/pm_sample), shared by
// fast_probe_gl (FFTSCOPE_GL_PM=N) and fast_probe_cl (FFTSCOPE_CL_PM=N): a warm-up of both axes,
// then the columns' passes alone N times, the rows' alone N times and both axes N times, forward
// and inverse taking turns, each after a pause of 100 ms. The sampler reads the whole GPU's
// counters, so only the pauses (idle samples) part the stretches and their order names them;
// each is printed as it ends. Under pm_sample --window the stretches are announced by 'S' and
// 'E' on the file descriptor in FFTSCOPE_PM_FD, so that setting up samples nothing.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace fftscope::test {

/// `dispatch(rows, cols, inverse)` queues one run of the named axes; `finish()` waits for the
/// GPU to end what is queued.
template <class Dispatch, class Finish>
void pm_stretches(std::size_t width, std::size_t height, int n, Dispatch dispatch, Finish finish) {
  const auto pause = [&] {
    finish();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  };
  const auto stretch = [&](const char* name, bool rows, bool cols) {
    pause();
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < n; ++r) dispatch(rows, cols, r % 2 == 1);
    finish();
    std::printf("pm stretch %zux%zu %s: %d runs, %.1f us a run (host clock)\n", width, height, name, n,
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n);
    std::fflush(stdout);
  };
  const char* fd = std::getenv("FFTSCOPE_PM_FD");
  const auto signal_sampler = [&](char c) {
    if (fd && write(std::atoi(fd), &c, 1) != 1) std::perror("FFTSCOPE_PM_FD");
  };
  signal_sampler('S');
  stretch("warm-up", true, true);
  stretch("cols", false, true);
  stretch("rows", true, false);
  stretch("both", true, true);
  pause();
  signal_sampler('E');
}

}  // namespace fftscope::test
