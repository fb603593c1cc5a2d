#include "backend/cl/cl_runtime.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "core/errors.h"

namespace fftscope::cl_detail {

const char* error_name(cl_int code) {
  switch (code) {
#define FFTSCOPE_CL_ERR(e) \
  case e: return #e;
    FFTSCOPE_CL_ERR(CL_SUCCESS)
    FFTSCOPE_CL_ERR(CL_DEVICE_NOT_FOUND)
    FFTSCOPE_CL_ERR(CL_DEVICE_NOT_AVAILABLE)
    FFTSCOPE_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
    FFTSCOPE_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    FFTSCOPE_CL_ERR(CL_OUT_OF_RESOURCES)
    FFTSCOPE_CL_ERR(CL_OUT_OF_HOST_MEMORY)
    FFTSCOPE_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    FFTSCOPE_CL_ERR(CL_MEM_COPY_OVERLAP)
    FFTSCOPE_CL_ERR(CL_IMAGE_FORMAT_MISMATCH)
    FFTSCOPE_CL_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    FFTSCOPE_CL_ERR(CL_BUILD_PROGRAM_FAILURE)
    FFTSCOPE_CL_ERR(CL_MAP_FAILURE)
    FFTSCOPE_CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    FFTSCOPE_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    FFTSCOPE_CL_ERR(CL_COMPILE_PROGRAM_FAILURE)
    FFTSCOPE_CL_ERR(CL_LINKER_NOT_AVAILABLE)
    FFTSCOPE_CL_ERR(CL_LINK_PROGRAM_FAILURE)
    FFTSCOPE_CL_ERR(CL_DEVICE_PARTITION_FAILED)
    FFTSCOPE_CL_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    FFTSCOPE_CL_ERR(CL_INVALID_VALUE)
    FFTSCOPE_CL_ERR(CL_INVALID_DEVICE_TYPE)
    FFTSCOPE_CL_ERR(CL_INVALID_PLATFORM)
    FFTSCOPE_CL_ERR(CL_INVALID_DEVICE)
    FFTSCOPE_CL_ERR(CL_INVALID_CONTEXT)
    FFTSCOPE_CL_ERR(CL_INVALID_QUEUE_PROPERTIES)
    FFTSCOPE_CL_ERR(CL_INVALID_COMMAND_QUEUE)
    FFTSCOPE_CL_ERR(CL_INVALID_HOST_PTR)
    FFTSCOPE_CL_ERR(CL_INVALID_MEM_OBJECT)
    FFTSCOPE_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    FFTSCOPE_CL_ERR(CL_INVALID_IMAGE_SIZE)
    FFTSCOPE_CL_ERR(CL_INVALID_SAMPLER)
    FFTSCOPE_CL_ERR(CL_INVALID_BINARY)
    FFTSCOPE_CL_ERR(CL_INVALID_BUILD_OPTIONS)
    FFTSCOPE_CL_ERR(CL_INVALID_PROGRAM)
    FFTSCOPE_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    FFTSCOPE_CL_ERR(CL_INVALID_KERNEL_NAME)
    FFTSCOPE_CL_ERR(CL_INVALID_KERNEL_DEFINITION)
    FFTSCOPE_CL_ERR(CL_INVALID_KERNEL)
    FFTSCOPE_CL_ERR(CL_INVALID_ARG_INDEX)
    FFTSCOPE_CL_ERR(CL_INVALID_ARG_VALUE)
    FFTSCOPE_CL_ERR(CL_INVALID_ARG_SIZE)
    FFTSCOPE_CL_ERR(CL_INVALID_KERNEL_ARGS)
    FFTSCOPE_CL_ERR(CL_INVALID_WORK_DIMENSION)
    FFTSCOPE_CL_ERR(CL_INVALID_WORK_GROUP_SIZE)
    FFTSCOPE_CL_ERR(CL_INVALID_WORK_ITEM_SIZE)
    FFTSCOPE_CL_ERR(CL_INVALID_GLOBAL_OFFSET)
    FFTSCOPE_CL_ERR(CL_INVALID_EVENT_WAIT_LIST)
    FFTSCOPE_CL_ERR(CL_INVALID_EVENT)
    FFTSCOPE_CL_ERR(CL_INVALID_OPERATION)
    FFTSCOPE_CL_ERR(CL_INVALID_GL_OBJECT)
    FFTSCOPE_CL_ERR(CL_INVALID_BUFFER_SIZE)
    FFTSCOPE_CL_ERR(CL_INVALID_MIP_LEVEL)
    FFTSCOPE_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
    FFTSCOPE_CL_ERR(CL_INVALID_PROPERTY)
#undef FFTSCOPE_CL_ERR
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    case -1000: return "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR";
    default: return "unknown OpenCL error";
  }
}

void check(cl_int code, const char* what) {
  if (code == CL_SUCCESS) return;
  throw BackendError(std::string("OpenCL: ") + what + " failed: " + error_name(code) + " (" +
                     std::to_string(code) + ")");
}

std::string platform_string(cl_platform_id platform, cl_platform_info what) {
  std::size_t size = 0;
  check(clGetPlatformInfo(platform, what, 0, nullptr, &size), "clGetPlatformInfo");
  std::string s(size, '\0');
  check(clGetPlatformInfo(platform, what, size, s.data(), nullptr), "clGetPlatformInfo");
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string device_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  check(clGetDeviceInfo(device, what, 0, nullptr, &size), "clGetDeviceInfo");
  std::string s(size, '\0');
  check(clGetDeviceInfo(device, what, size, s.data(), nullptr), "clGetDeviceInfo");
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

bool has_extension(cl_device_id device, const std::string& extension) {
  std::istringstream words(device_string(device, CL_DEVICE_EXTENSIONS));
  for (std::string w; words >> w;)
    if (w == extension) return true;
  return false;
}

std::vector<FoundDevice> find_devices() {
  cl_uint platform_count = 0;
  const cl_int err = clGetPlatformIDs(0, nullptr, &platform_count);
  if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: the ICD loader found no driver */ || platform_count == 0)
    throw BackendError("OpenCL: no platform found (no ICD in /etc/OpenCL/vendors, or no driver)");
  check(err, "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(platform_count);
  check(clGetPlatformIDs(platform_count, platforms.data(), nullptr), "clGetPlatformIDs");

  std::vector<FoundDevice> found;
  for (cl_uint p = 0; p < platform_count; ++p) {
    cl_uint device_count = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &device_count) != CL_SUCCESS) continue;
    std::vector<cl_device_id> devices(device_count);
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, device_count, devices.data(), nullptr) != CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < device_count; ++d) {
      FoundDevice f;
      f.platform = platforms[p];
      f.device = devices[d];
      f.id = std::to_string(p) + ":" + std::to_string(d);
      f.platform_name = platform_string(platforms[p], CL_PLATFORM_NAME);
      f.name = device_string(devices[d], CL_DEVICE_NAME);
      f.gpu = (device_value<cl_device_type>(devices[d], CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0;
      f.compute_units = device_value<cl_uint>(devices[d], CL_DEVICE_MAX_COMPUTE_UNITS);
      found.push_back(std::move(f));
    }
  }
  if (found.empty()) throw BackendError("OpenCL: platforms found, but no device");
  return found;
}

namespace {
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
}  // namespace

FoundDevice choose_device(const std::string& selector) {
  const std::vector<FoundDevice> devices = find_devices();
  if (!selector.empty()) {
    for (const FoundDevice& d : devices)
      if (d.id == selector) return d;
    const std::string want = lower(selector);
    for (const FoundDevice& d : devices)
      if (lower(d.platform_name + " " + d.name).find(want) != std::string::npos) return d;
    std::string names;
    for (const FoundDevice& d : devices) names += "\n  " + d.id + "  " + d.platform_name + " / " + d.name;
    throw BackendError("OpenCL: no device matches --cl-device '" + selector + "'; devices here:" + names);
  }
  // The GPU with the most compute units; with no GPU, the device with the most (PoCL's CPU).
  const auto better = [](const FoundDevice& a, const FoundDevice& b) {
    if (a.gpu != b.gpu) return b.gpu;
    return a.compute_units < b.compute_units;
  };
  return *std::max_element(devices.begin(), devices.end(), better);
}

ProgramCache::ProgramCache(cl_context context, cl_device_id device, SourceFiles sources)
    : context_(context), device_(device), sources_(std::move(sources)) {}

bool ProgramCache::refresh() {
  if (!sources_.changed_since_last_check()) return false;
  clear();
  return true;
}

void ProgramCache::clear() { programs_.clear(); }

namespace {

/// `name` between #line directives, each `#include "file"` line replaced by that file (recursively).
std::string expand_includes(const SourceFiles& sources, const std::string& name, int depth) {
  if (depth > 8) throw BackendError(sources.origin(name) + ": includes nested too deeply (a cycle?)");
  std::istringstream in(sources.text(name));
  std::string out = "#line 1 \"" + name + "\"\n";
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 8, "#include") == 0) {
      const auto open = line.find('"'), close = line.rfind('"');
      if (open != std::string::npos && close > open) {
        out += expand_includes(sources, line.substr(open + 1, close - open - 1), depth + 1);
        out += "#line " + std::to_string(number + 1) + " \"" + name + "\"\n";
        continue;
      }
    }
    out += line;
    out += '\n';
  }
  return out;
}

}  // namespace

double event_milliseconds(cl_event event) {
  cl_ulong start = 0, end = 0;
  clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
  clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

std::string ptx_with_max_registers(const std::string& ptx, std::uint32_t registers) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t entry = ptx.find(".entry ", at); entry != std::string::npos; entry = ptx.find(".entry ", at)) {
    const std::size_t close = ptx.find(')', entry);
    if (close == std::string::npos) break;
    out.append(ptx, at, close + 1 - at).append("\n.maxnreg ").append(std::to_string(registers));
    at = close + 1;
  }
  return out.append(ptx, at);
}

// NVIDIA's OpenCL compiler gives a 256-work-item kernel up to 255 registers and ignores
// -cl-nv-maxrregcount, but its program binary is PTX, which clCreateProgramWithBinary takes
// back: the bound goes into the PTX, as CUDA's __launch_bounds__ would put it.
Program ProgramCache::with_max_registers(Program program, std::uint32_t registers, const ProgramKey& key) {
  std::size_t size = 0;
  check(clGetProgramInfo(program.get(), CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
        "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
  std::string binary(size, '\0');
  unsigned char* data = reinterpret_cast<unsigned char*>(binary.data());
  check(clGetProgramInfo(program.get(), CL_PROGRAM_BINARIES, sizeof data, &data, nullptr),
        "clGetProgramInfo(CL_PROGRAM_BINARIES)");
  while (!binary.empty() && binary.back() == '\0') binary.pop_back();
  if (binary.find(".target sm_") == std::string::npos) return program;  // not PTX (PoCL, ...)
  const std::string ptx = ptx_with_max_registers(binary, registers);
  const auto* bytes = reinterpret_cast<const unsigned char*>(ptx.c_str());
  const std::size_t length = ptx.size() + 1;
  cl_int err = CL_SUCCESS, status = CL_SUCCESS;
  Program rebuilt(clCreateProgramWithBinary(context_, 1, &device_, &length, &bytes, &status, &err));
  check(err, "clCreateProgramWithBinary(PTX)");
  // The source's -D options mean nothing to PTX; a measurement's request for ptxas' report does.
  const char* options = key.defines.find("-cl-nv-verbose") != std::string::npos ? "-cl-nv-verbose" : "";
  err = clBuildProgram(rebuilt.get(), 1, &device_, options, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::size_t log_size = 0;
    clGetProgramBuildInfo(rebuilt.get(), device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size);
    std::string log(log_size, '\0');
    clGetProgramBuildInfo(rebuilt.get(), device_, CL_PROGRAM_BUILD_LOG, log_size, log.data(), nullptr);
    throw BackendError("OpenCL: building " + sources_.origin(key.file) + " (options '" + key.defines + "') from its PTX with at most " + std::to_string(registers) +
                       " registers failed: " + error_name(err) + "\n--- build log ---\n" + log);
  }
  return rebuilt;
}

ProgramCache::Entry& ProgramCache::build(const ProgramKey& key) {
  auto it = programs_.find(key);
  if (it != programs_.end()) return it->second;

  // complex.cl first, then the file with its `#include "x.cl"` lines expanded (kernels may be
  // embedded, so the compiler cannot open them itself); #line keeps line numbers per file.
  const std::string source = "#line 1 \"complex.cl\"\n" + sources_.text("complex.cl") + "\n" +
                             expand_includes(sources_, key.file, 0);
  const char* text = source.c_str();
  const std::size_t length = source.size();
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &text, &length, &err));
  check(err, "clCreateProgramWithSource");
  const std::string options = key.defines + " -cl-std=CL1.2";
  err = clBuildProgram(program.get(), 1, &device_, options.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::size_t log_size = 0;
    clGetProgramBuildInfo(program.get(), device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size);
    std::string log(log_size, '\0');
    clGetProgramBuildInfo(program.get(), device_, CL_PROGRAM_BUILD_LOG, log_size, log.data(), nullptr);
    while (!log.empty() && log.back() == '\0') log.pop_back();
    std::ostringstream msg;
    msg << "OpenCL: building " << sources_.origin(key.file) << " (with " << sources_.origin("complex.cl")
        << " prepended; options '" << options << "') on " << device_string(device_, CL_DEVICE_NAME)
        << " failed: " << error_name(err) << "\n--- build log ---\n"
        << log << "\n--- expanded source ---\n";
    std::istringstream lines(source);
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("#line ", 0) == 0) {  // numbers restart per file, as in the log
        number = std::atoi(line.c_str() + 6) - 1;
        msg << line << '\n';
        continue;
      }
      msg << ++number << ": " << line << '\n';
    }
    throw BackendError(msg.str());
  }
  if (key.max_registers > 0)
    program = with_max_registers(std::move(program), key.max_registers, key);
  Entry entry;
  entry.program = std::move(program);
  return programs_.emplace(key, std::move(entry)).first->second;
}

cl_kernel ProgramCache::kernel(const ProgramKey& key, const std::string& name) {
  Entry& entry = build(key);
  auto it = entry.kernels.find(name);
  if (it != entry.kernels.end()) return it->second.get();
  cl_int err = CL_SUCCESS;
  Kernel k(clCreateKernel(entry.program.get(), name.c_str(), &err));
  if (err != CL_SUCCESS)
    throw BackendError("OpenCL: kernel '" + name + "' not found in " + sources_.origin(key.file) + ": " +
                       error_name(err));
  return entry.kernels.emplace(name, std::move(k)).first->second.get();
}

}  // namespace fftscope::cl_detail
