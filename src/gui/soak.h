#pragma once
// The soak mode (--soak FRAMES, issue 7): the window cycles through sources, sizes, backends,
// panels and display settings while the frame loop runs, and memory is read at warm-up and end.

#include <string>

#include "gui/app.h"

namespace fftscope::gui {

/// Resident set size of this process in KiB, from /proc/self/statm (0 where unreadable).
long resident_kib();
/// GPU memory as the GL driver reports it (GL_NVX_gpu_memory_info, GL_ATI_meminfo), e.g.
/// "GPU free 7345 MiB of 8192 MiB (NVX)", or "" where it reports none. Needs a current context.
std::string gpu_memory_report();
/// Applies step `step` of the soak schedule (a different source, size, panel, display or
/// filter setting each step; a different backend every few steps).
void soak_step(AppState& app, int step);
/// Steps per full round of the schedule (every backend, panel and source visited).
int soak_round_steps();

}  // namespace fftscope::gui
