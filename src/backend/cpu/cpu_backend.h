#pragma once
// The CPU backend: the core's stage pipeline, rows spread over threads. Always built.

#include <memory>

#include "backend/backend.h"

namespace fftscope {

std::unique_ptr<Backend> make_cpu_backend(const BackendOptions& options);

}  // namespace fftscope
