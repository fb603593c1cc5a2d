// Fault injection for the OpenGL backend: a GLVND EGL vendor library that wraps the real one
// (Mesa's by default) and makes chosen GL calls fail. scripts/fault-inject.sh names it in a
// vendor JSON file given by __EGL_VENDOR_LIBRARY_FILENAMES.
//
// Why a vendor and not LD_PRELOAD: glad loads libEGL with dlopen(RTLD_LOCAL) and looks up
// eglGetProcAddress with dlsym on that handle, which a preloaded library cannot interpose; and
// GLVND hands out its own dispatch stubs for GL functions, which call whatever the vendor's
// getProcAddress returned. Wrapping that getProcAddress reaches every GL call fftscope makes,
// through the same path as the real driver, with no change to fftscope and under ASan too.
//
// Each fault is chosen by an environment variable (N is 1-based, counting glDispatchCompute):
//   FFTSCOPE_FAULT_GL_DISPATCH_OOM=N  the N-th dispatch does not run and GL_OUT_OF_MEMORY is
//                                     raised (returned once by the next glGetError)
//   FFTSCOPE_FAULT_GL_CONTEXT_LOST=N  from the N-th dispatch on the context is lost: nothing runs,
//                                     read-backs copy nothing, glGetError returns GL_CONTEXT_LOST
//                                     and glGetGraphicsResetStatus GL_UNKNOWN_CONTEXT_RESET (once)
//   FFTSCOPE_FAULT_GL_RESET_ONLY=N    as CONTEXT_LOST, but glGetError stays silent: the reset shows
//                                     only in glGetGraphicsResetStatus (GL_GUILTY_CONTEXT_RESET)
//   FFTSCOPE_FAULT_GL_READBACK=1      every glGetBufferSubData copies nothing and raises
//                                     GL_OUT_OF_MEMORY; glMapBufferRange returns NULL with it
//   FFTSCOPE_FAULT_GL_VENDOR=LIB      the vendor library to wrap (default libEGL_mesa.so.0)
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <dlfcn.h>
#include <glvnd/libeglabi.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAULT_GL_NO_ERROR 0
#define FAULT_GL_OUT_OF_MEMORY 0x0505
#define FAULT_GL_CONTEXT_LOST 0x0507
#define FAULT_GL_GUILTY_CONTEXT_RESET 0x8253
#define FAULT_GL_UNKNOWN_CONTEXT_RESET 0x8255

typedef unsigned int GLenumT;
typedef unsigned int GLuintT;

static long env_number(const char* name) {
  const char* v = getenv(name);
  return v ? strtol(v, NULL, 10) : 0;
}

static void* (*real_get_proc)(const char*);
static atomic_long dispatches;
static atomic_int pending_error;    // an error raised and not yet returned by glGetError
static atomic_int lost;             // 0, or the error glGetError keeps returning (0 for reset-only)
static atomic_int reset_status;     // what glGetGraphicsResetStatus returns next
static atomic_int context_is_lost;  // from the fault on: nothing runs, nothing is read back

static void (*real_dispatch)(GLuintT, GLuintT, GLuintT);
static GLenumT (*real_get_error)(void);
static GLenumT (*real_reset_status)(void);
static GLenumT (*real_reset_status_arb)(void);
static void (*real_get_buffer_sub_data)(GLenumT, ptrdiff_t, ptrdiff_t, void*);
static void* (*real_map_buffer_range)(GLenumT, ptrdiff_t, ptrdiff_t, unsigned int);

static void lose_context(int error, int status, const char* how) {
  if (atomic_exchange(&context_is_lost, 1)) return;
  fprintf(stderr, "[gl fault vendor] glDispatchCompute #%ld: context lost (%s)\n", (long)dispatches, how);
  atomic_store(&lost, error);
  atomic_store(&reset_status, status);
}

static void fault_dispatch(GLuintT x, GLuintT y, GLuintT z) {
  const long n = ++dispatches;
  const long oom = env_number("FFTSCOPE_FAULT_GL_DISPATCH_OOM");
  const long context_lost = env_number("FFTSCOPE_FAULT_GL_CONTEXT_LOST");
  const long reset_only = env_number("FFTSCOPE_FAULT_GL_RESET_ONLY");
  if (context_lost > 0 && n >= context_lost)
    lose_context(FAULT_GL_CONTEXT_LOST, FAULT_GL_UNKNOWN_CONTEXT_RESET, "GL_CONTEXT_LOST");
  if (reset_only > 0 && n >= reset_only)
    lose_context(FAULT_GL_NO_ERROR, FAULT_GL_GUILTY_CONTEXT_RESET, "reset status only");
  if (atomic_load(&context_is_lost)) return;
  if (oom > 0 && n == oom) {
    fprintf(stderr, "[gl fault vendor] glDispatchCompute #%ld: GL_OUT_OF_MEMORY\n", n);
    atomic_store(&pending_error, FAULT_GL_OUT_OF_MEMORY);
    return;
  }
  real_dispatch(x, y, z);
}

static GLenumT fault_get_error(void) {
  const int l = atomic_load(&lost);
  if (l != FAULT_GL_NO_ERROR) return (GLenumT)l;
  const int e = atomic_exchange(&pending_error, FAULT_GL_NO_ERROR);
  if (e != FAULT_GL_NO_ERROR) return (GLenumT)e;
  return atomic_load(&context_is_lost) ? FAULT_GL_NO_ERROR : real_get_error();
}

static GLenumT reset_status_or(GLenumT (*real)(void)) {
  const int s = atomic_exchange(&reset_status, FAULT_GL_NO_ERROR);
  if (s != FAULT_GL_NO_ERROR) return (GLenumT)s;
  return real ? real() : FAULT_GL_NO_ERROR;
}
static GLenumT fault_reset_status(void) { return reset_status_or(real_reset_status); }
static GLenumT fault_reset_status_arb(void) { return reset_status_or(real_reset_status_arb); }

static void fault_get_buffer_sub_data(GLenumT target, ptrdiff_t offset, ptrdiff_t size, void* data) {
  if (atomic_load(&context_is_lost)) return;
  if (env_number("FFTSCOPE_FAULT_GL_READBACK") > 0) {
    fprintf(stderr, "[gl fault vendor] glGetBufferSubData (%td bytes): GL_OUT_OF_MEMORY\n", size);
    atomic_store(&pending_error, FAULT_GL_OUT_OF_MEMORY);
    return;
  }
  real_get_buffer_sub_data(target, offset, size, data);
}

static void* fault_map_buffer_range(GLenumT target, ptrdiff_t offset, ptrdiff_t length, unsigned int access) {
  if (atomic_load(&context_is_lost) || env_number("FFTSCOPE_FAULT_GL_READBACK") > 0) {
    atomic_store(&pending_error, FAULT_GL_OUT_OF_MEMORY);
    return NULL;
  }
  return real_map_buffer_range(target, offset, length, access);
}

#define WRAP(name, real, wrapper)                        \
  if (strcmp(proc, name) == 0) {                         \
    *(void**)&real = real_get_proc(proc);                \
    return real ? (void*)wrapper : NULL;                 \
  }

static void* fault_get_proc(const char* proc) {
  WRAP("glDispatchCompute", real_dispatch, fault_dispatch);
  WRAP("glGetError", real_get_error, fault_get_error);
  WRAP("glGetGraphicsResetStatus", real_reset_status, fault_reset_status);
  WRAP("glGetGraphicsResetStatusARB", real_reset_status_arb, fault_reset_status_arb);
  WRAP("glGetBufferSubData", real_get_buffer_sub_data, fault_get_buffer_sub_data);
  WRAP("glMapBufferRange", real_map_buffer_range, fault_map_buffer_range);
  return real_get_proc(proc);
}

EGLBoolean __egl_Main(uint32_t version, const __EGLapiExports* exports, __EGLvendorInfo* vendor,
                      __EGLapiImports* imports) {
  const char* name = getenv("FFTSCOPE_FAULT_GL_VENDOR");
  if (!name || !*name) name = "libEGL_mesa.so.0";
  void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  __PFNEGLMAINPROC real_main = lib ? (__PFNEGLMAINPROC)dlsym(lib, __EGL_MAIN_PROTO_NAME) : NULL;
  if (!real_main) {
    fprintf(stderr, "[gl fault vendor] cannot load %s: %s\n", name, dlerror());
    return EGL_FALSE;
  }
  if (!real_main(version, exports, vendor, imports)) return EGL_FALSE;
  real_get_proc = imports->getProcAddress;
  imports->getProcAddress = fault_get_proc;
  // Entry-point patching would let GLVND jump straight into the real driver, past the wrappers.
  imports->isPatchSupported = NULL;
  imports->initiatePatch = NULL;
  imports->releasePatch = NULL;
  imports->patchThreadAttach = NULL;
  return EGL_TRUE;
}
