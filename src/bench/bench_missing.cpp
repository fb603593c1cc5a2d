// Factories for the libraries this build has no support for: they say so when asked.
#include <stdexcept>

#include "bench/bench.h"

namespace fftscope::bench::detail {

#if !FFTSCOPE_HAVE_OPENCL
std::unique_ptr<Implementation> make_cl_copy(BenchSize, const std::string&) {
  throw std::runtime_error("OpenCL support not built (needs FFTSCOPE_WITH_CL)");
}
#endif
#if !FFTSCOPE_HAVE_VKFFT
std::unique_ptr<Implementation> make_vkfft(BenchSize, const std::string&) {
  throw std::runtime_error("VkFFT support not built (needs FFTSCOPE_WITH_CL and libvkfft-dev)");
}
#endif
#if !FFTSCOPE_HAVE_CLFFT
std::unique_ptr<Implementation> make_clfft(BenchSize, const std::string&) {
  throw std::runtime_error("clFFT support not built (needs FFTSCOPE_WITH_CL and libclfft-dev)");
}
#endif

}  // namespace fftscope::bench::detail
