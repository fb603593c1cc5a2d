#pragma once
// Small OpenCL helpers of the CL backend: error checks, owning handles, device enumeration and
// choice, and the program cache. OpenCL 1.2 API calls only, so PoCL and NVIDIA both work.

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/embedded_file.h"

namespace fftscope::cl_detail {

/// The name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES".
const char* error_name(cl_int code);
/// Throws BackendError("OpenCL: <what> failed: <name> (<code>)") when code != CL_SUCCESS.
void check(cl_int code, const char* what);

/// An owning OpenCL handle: releases through `Release` on destruction; move-only.
template <typename T, cl_int (*Release)(T)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T h) : h_(h) {}
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }
  void reset() {
    if (h_) Release(h_);
    h_ = nullptr;
  }
  T get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }

 private:
  T h_ = nullptr;
};

using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Mem = Handle<cl_mem, clReleaseMemObject>;
using Event = Handle<cl_event, clReleaseEvent>;

std::string platform_string(cl_platform_id platform, cl_platform_info what);
std::string device_string(cl_device_id device, cl_device_info what);
template <typename T>
T device_value(cl_device_id device, cl_device_info what) {
  T value{};
  check(clGetDeviceInfo(device, what, sizeof(T), &value, nullptr), "clGetDeviceInfo");
  return value;
}
bool has_extension(cl_device_id device, const std::string& extension);
/// A finished command's time on the device, from its profiling start to end (0 if unknown).
double event_milliseconds(cl_event event);

/// One OpenCL device as found on this machine.
struct FoundDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string id;        ///< "P:D" indices
  std::string platform_name;
  std::string name;
  bool gpu = false;
  cl_uint compute_units = 0;
};

/// Every device of every platform. Throws BackendError when there is no platform at all.
std::vector<FoundDevice> find_devices();

/// The device `selector` names ("P:D" indices or a case-insensitive fragment of
/// "<platform> <device>"); empty: the GPU with the most compute units, else the device with
/// the most compute units. Throws BackendError when nothing matches.
FoundDevice choose_device(const std::string& selector);

/// A compiled program is named by its source file and its -D options (GLFFT-style key).
struct ProgramKey {
  std::string file;     ///< e.g. "radix.cl"; complex.cl is always prepended
  std::string defines;  ///< e.g. "-D FUSED_TWIDDLE=1"
  /// Registers per work-item, at most, where the program binary is PTX (NVIDIA); 0: the
  /// compiler's choice. Other devices build the source as it is.
  std::uint32_t max_registers = 0;
  auto operator<=>(const ProgramKey&) const = default;
};

/// `ptx` with `.maxnreg registers` stated for every kernel entry (after its parameter list), as
/// NVIDIA's OpenCL compiler writes PTX; ptx unchanged when it holds no entry.
std::string ptx_with_max_registers(const std::string& ptx, std::uint32_t registers);

/// Builds programs on first use and keeps them and their kernels. A build failure throws
/// BackendError carrying the device's build log and the expanded source.
class ProgramCache {
 public:
  ProgramCache(cl_context context, cl_device_id device, SourceFiles sources);

  cl_kernel kernel(const ProgramKey& key, const std::string& name);
  /// Drops every program when a source file on disk changed; returns true if it did.
  bool refresh();
  void clear();
  std::size_t program_count() const { return programs_.size(); }

 private:
  struct Entry {
    Program program;
    std::map<std::string, Kernel> kernels;
  };
  Entry& build(const ProgramKey& key);
  /// `program` rebuilt from its PTX with a register bound; `program` itself where its binary is
  /// not PTX.
  Program with_max_registers(Program program, std::uint32_t registers, const ProgramKey& key);

  cl_context context_;
  cl_device_id device_;
  SourceFiles sources_;
  std::map<ProgramKey, Entry> programs_;
};

}  // namespace fftscope::cl_detail
