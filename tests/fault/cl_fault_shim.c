// Fault injection for the OpenCL backend, loaded with LD_PRELOAD in front of the ICD loader by
// scripts/fault-inject.sh. Each fault is chosen by an environment variable:
//   FFTSCOPE_FAULT_CL_ALLOC=N    the N-th clCreateBuffer (1-based) fails: CL_MEM_OBJECT_ALLOCATION_FAILURE
//   FFTSCOPE_FAULT_CL_ENQUEUE=N  the N-th clEnqueueNDRangeKernel and every later one fail:
//                                CL_OUT_OF_RESOURCES (what a driver reports when a kernel dies)
//   FFTSCOPE_FAULT_CL_BUILD=1    every clBuildProgram fails: CL_BUILD_PROGRAM_FAILURE
//   FFTSCOPE_FAULT_CL_GLOBAL_MEM_MB=M    clGetDeviceInfo reports M MiB of CL_DEVICE_GLOBAL_MEM_SIZE
//   FFTSCOPE_FAULT_CL_MAX_ALLOC_MB=M     and M MiB of CL_DEVICE_MAX_MEM_ALLOC_SIZE (a small device)
// The real functions are found with dlsym(RTLD_NEXT); nothing else changes.
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static long env_number(const char* name) {
  const char* v = getenv(name);
  return v ? strtol(v, NULL, 10) : 0;
}

static atomic_long buffers, enqueues;

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                               cl_int* errcode_ret) {
  static cl_mem (*real)(cl_context, cl_mem_flags, size_t, void*, cl_int*);
  if (!real) *(void**)&real = dlsym(RTLD_NEXT, "clCreateBuffer");
  const long fail_at = env_number("FFTSCOPE_FAULT_CL_ALLOC");
  if (fail_at > 0 && ++buffers == fail_at) {
    fprintf(stderr, "[fault shim] clCreateBuffer #%ld (%zu bytes): CL_MEM_OBJECT_ALLOCATION_FAILURE\n", fail_at, size);
    if (errcode_ret) *errcode_ret = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return NULL;
  }
  return real(context, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
                                                       const size_t* offset, const size_t* global, const size_t* local,
                                                       cl_uint waits, const cl_event* wait_list, cl_event* event) {
  static cl_int (*real)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*, cl_uint,
                        const cl_event*, cl_event*);
  if (!real) *(void**)&real = dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel");
  const long fail_from = env_number("FFTSCOPE_FAULT_CL_ENQUEUE");
  if (fail_from > 0 && ++enqueues >= fail_from) {
    if (enqueues == fail_from) fprintf(stderr, "[fault shim] clEnqueueNDRangeKernel #%ld on: CL_OUT_OF_RESOURCES\n", fail_from);
    return CL_OUT_OF_RESOURCES;
  }
  return real(queue, kernel, dims, offset, global, local, waits, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* devices,
                                               const char* options, void(CL_CALLBACK* notify)(cl_program, void*),
                                               void* user_data) {
  static cl_int (*real)(cl_program, cl_uint, const cl_device_id*, const char*, void(CL_CALLBACK*)(cl_program, void*),
                        void*);
  if (!real) *(void**)&real = dlsym(RTLD_NEXT, "clBuildProgram");
  if (env_number("FFTSCOPE_FAULT_CL_BUILD") > 0) {
    fprintf(stderr, "[fault shim] clBuildProgram: CL_BUILD_PROGRAM_FAILURE\n");
    return CL_BUILD_PROGRAM_FAILURE;
  }
  return real(program, num_devices, devices, options, notify, user_data);
}

// A device with less memory than this one: only the two memory queries change.
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info name, size_t size, void* value,
                                                size_t* size_ret) {
  static cl_int (*real)(cl_device_id, cl_device_info, size_t, void*, size_t*);
  if (!real) *(void**)&real = dlsym(RTLD_NEXT, "clGetDeviceInfo");
  const long mib = name == CL_DEVICE_GLOBAL_MEM_SIZE     ? env_number("FFTSCOPE_FAULT_CL_GLOBAL_MEM_MB")
                   : name == CL_DEVICE_MAX_MEM_ALLOC_SIZE ? env_number("FFTSCOPE_FAULT_CL_MAX_ALLOC_MB")
                                                          : 0;
  if (mib <= 0) return real(device, name, size, value, size_ret);
  if (size_ret) *size_ret = sizeof(cl_ulong);
  if (value) {
    if (size < sizeof(cl_ulong)) return CL_INVALID_VALUE;
    *(cl_ulong*)value = (cl_ulong)mib << 20;
  }
  return CL_SUCCESS;
}
