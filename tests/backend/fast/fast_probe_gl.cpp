// fast_probe_gl: times the OpenGL fast path per axis (GL_TIME_ELAPSED queries, median of many
// runs after warm-up) in a headless EGL context, and checks the forward result against FFTW
// (double). A measurement tool, not a test:  fast_probe_gl [--runs N] WxH...
#include <glad/gl.h>
#include <glad/egl.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/gl/gl_context.h"
#include "backend/gl/gl_fast_display.h"
#include "backend/gl/gl_fast_path.h"
#include "core/spectrum.h"
#include "core/timing.h"
#include "api_probe_kernels.h"
#include "pm_stretches.h"
#include "strided_probe.h"
#include "support/reference.h"

using namespace fftscope;
using namespace fftscope::detail;

namespace {

// A transform as the GL backend runs them back to back: through a buffer texture over `buffer`
// made once (BufferTexture), the next transform issuing the barrier its reads need. Returns the
// buffer that holds the result: `buffer`, or where the size folds (GlFastPath::folds) a second
// buffer of the prepared image's size, made once per buffer as the backend keeps one (its size
// from the path, not asked of GL: no driver query between timed transforms). A folded transform
// leaves `buffer` as it was, so transforms back to back keep their values bounded as in place.
GLuint run_fast(GlFastPath& path, GLuint buffer, GLuint texture, Direction direction) {
  if (!path.folds()) {
    path.dispatch(buffer, texture, direction, GL_TEXTURE_FETCH_BARRIER_BIT);
    return buffer;
  }
  struct Spare {
    std::size_t bytes = 0;
    GLuint id = 0;
    std::unique_ptr<BufferTexture> texture;
  };
  static std::map<GLuint, Spare> spares;  // by buffer; a probe's buffers live until it ends
  const std::size_t bytes = path.width() * path.height() * sizeof(Complex);
  Spare& spare = spares[buffer];
  if (spare.bytes != bytes) {  // another size under a reused buffer name
    if (spare.id) glDeleteBuffers(1, &spare.id);
    spare.id = make_storage_buffer(bytes, nullptr, GL_DYNAMIC_COPY);
    spare.texture = std::make_unique<BufferTexture>(spare.id);
    spare.bytes = bytes;
  }
  return path.dispatch(buffer, texture, direction, GL_TEXTURE_FETCH_BARRIER_BIT, spare.id, spare.texture->id());
}

// FFTSCOPE_GL_BUFFER=cuda[:compressible]: a buffer whose memory CUDA allocated (cuMemCreate, exported
// as a file descriptor) and GL imported (EXT_memory_object_fd), to tell a GL buffer's own memory
// from the way GL reaches it (the ladder's scattered stores, docs/fast_path.md, thirtieth session).
// The CUDA driver API is declared here: the probe builds without CUDA, and loads it only then.
// The allocation and its context live until the process ends (GL holds the imported memory).
struct CudaAllocationProp {
  int type, handle_types;
  struct {
    int type, id;
  } location;
  void* win32;
  struct {
    unsigned char compression, rdma;
    unsigned short usage;
    unsigned char reserved[4];
  } flags;
};

GLuint make_cuda_buffer(GLsizeiptr bytes, const void* data, bool compressible) {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW);
  if (!cuda) throw std::runtime_error("FFTSCOPE_GL_BUFFER=cuda: no libcuda.so.1");
  const auto symbol = [&](const char* name) {
    void* f = dlsym(cuda, name);
    if (!f) throw std::runtime_error(std::string("FFTSCOPE_GL_BUFFER=cuda: no ") + name);
    return f;
  };
  const auto check_cuda = [](int result, const char* what) {
    if (result != 0) throw std::runtime_error(std::string("FFTSCOPE_GL_BUFFER=cuda: ") + what + " failed: " + std::to_string(result));
  };
  using Handle = unsigned long long;
  static bool ready = false;
  if (!ready) {
    check_cuda(reinterpret_cast<int (*)(unsigned)>(symbol("cuInit"))(0), "cuInit");
    void* context = nullptr;
    check_cuda(reinterpret_cast<int (*)(void**, int)>(symbol("cuDevicePrimaryCtxRetain"))(&context, 0), "cuDevicePrimaryCtxRetain");
    check_cuda(reinterpret_cast<int (*)(void*)>(symbol("cuCtxSetCurrent"))(context), "cuCtxSetCurrent");
    ready = true;
  }
  CudaAllocationProp prop{};
  prop.type = 1;          // CU_MEM_ALLOCATION_TYPE_PINNED
  prop.handle_types = 1;  // CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
  prop.location.type = 1;  // CU_MEM_LOCATION_TYPE_DEVICE, device 0
  prop.flags.compression = compressible ? 1 : 0;  // CU_MEM_ALLOCATION_COMP_GENERIC
  std::size_t granularity = 0;
  check_cuda(reinterpret_cast<int (*)(std::size_t*, const CudaAllocationProp*, int)>(
                 symbol("cuMemGetAllocationGranularity"))(&granularity, &prop, 0),
             "cuMemGetAllocationGranularity");
  const std::size_t size = (static_cast<std::size_t>(bytes) + granularity - 1) / granularity * granularity;
  Handle handle = 0;
  check_cuda(reinterpret_cast<int (*)(Handle*, std::size_t, const CudaAllocationProp*, Handle)>(symbol("cuMemCreate"))(
                 &handle, size, &prop, 0),
             "cuMemCreate");
  int fd = -1;
  check_cuda(reinterpret_cast<int (*)(void*, Handle, int, Handle)>(symbol("cuMemExportToShareableHandle"))(&fd, handle, 1, 0),
             "cuMemExportToShareableHandle");
  const auto create_memory = reinterpret_cast<void (*)(GLsizei, GLuint*)>(eglGetProcAddress("glCreateMemoryObjectsEXT"));
  const auto import_fd = reinterpret_cast<void (*)(GLuint, GLuint64, GLenum, GLint)>(eglGetProcAddress("glImportMemoryFdEXT"));
  const auto buffer_storage =
      reinterpret_cast<void (*)(GLuint, GLsizeiptr, GLuint, GLuint64)>(eglGetProcAddress("glNamedBufferStorageMemEXT"));
  if (!create_memory || !import_fd || !buffer_storage) throw std::runtime_error("FFTSCOPE_GL_BUFFER=cuda: no EXT_memory_object_fd");
  GLuint memory = 0, buffer = 0;
  create_memory(1, &memory);
  import_fd(memory, size, 0x9586 /* GL_HANDLE_TYPE_OPAQUE_FD_EXT */, fd);
  glCreateBuffers(1, &buffer);
  buffer_storage(buffer, bytes, memory, 0);
  // Storage from a memory object takes no glBufferSubData: the data comes through a copy.
  const GLuint staging = make_storage_buffer(static_cast<std::size_t>(bytes), data, GL_STATIC_DRAW);
  if (data) glCopyNamedBufferSubData(staging, buffer, 0, 0, bytes);
  else glClearNamedBufferData(buffer, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
  glDeleteBuffers(1, &staging);
  if (const GLenum error = glGetError(); error != GL_NO_ERROR)
    throw std::runtime_error("FFTSCOPE_GL_BUFFER=cuda: GL error " + std::to_string(error));
  return buffer;
}

// The image buffer: glBufferData(GL_DYNAMIC_COPY) as the backend does, or, with
// FFTSCOPE_GL_BUFFER=data:USAGE, another usage (e.g. 0x88E0, GL_STREAM_DRAW); =oversized, four
// times the size; =storage, immutable storage; =storage:FLAGS, immutable storage of those flags
// (e.g. 0xC3, mapped persistently and coherently); =sparse, sparse storage (ARB_sparse_buffer),
// all committed; =cuda[:compressible], memory from CUDA. Where the driver places a buffer and how
// it lays it out may follow these.
GLuint make_buffer(GLsizeiptr bytes, const void* data) {
  const std::string kind = std::getenv("FFTSCOPE_GL_BUFFER") ? std::getenv("FFTSCOPE_GL_BUFFER") : "";
  if (kind.rfind("cuda", 0) == 0) return make_cuda_buffer(bytes, data, kind == "cuda:compressible");
  if (kind == "sparse") {  // ARB_sparse_buffer storage, every page committed
    const auto commit = reinterpret_cast<void (*)(GLenum, GLintptr, GLsizeiptr, GLboolean)>(
        eglGetProcAddress("glBufferPageCommitmentARB"));
    GLint page = 65536;
    glGetIntegerv(0x82F8 /* GL_SPARSE_BUFFER_PAGE_SIZE_ARB */, &page);
    const GLsizeiptr size = (bytes + page - 1) / page * page;
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glBufferStorage(GL_SHADER_STORAGE_BUFFER, size, nullptr, 0x0400 /* GL_SPARSE_STORAGE_BIT_ARB */ | GL_DYNAMIC_STORAGE_BIT);
    if (!commit) throw std::runtime_error("FFTSCOPE_GL_BUFFER=sparse: no ARB_sparse_buffer");
    commit(GL_SHADER_STORAGE_BUFFER, 0, size, GL_TRUE);
    if (data) glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, bytes, data);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    if (const GLenum error = glGetError(); error != GL_NO_ERROR)
      throw std::runtime_error("FFTSCOPE_GL_BUFFER=sparse: GL error " + std::to_string(error));
    return buffer;
  }
  if (kind == "oversized") {  // four times the bytes asked for, as glBufferData(GL_DYNAMIC_COPY)
    const GLuint buffer = make_storage_buffer(static_cast<std::size_t>(bytes) * 4, nullptr, GL_DYNAMIC_COPY);
    if (data) glNamedBufferSubData(buffer, 0, bytes, data);
    return buffer;
  }
  if (kind.rfind("data:", 0) == 0)
    return make_storage_buffer(static_cast<std::size_t>(bytes), data, static_cast<GLenum>(std::stoul(kind.substr(5), nullptr, 0)));
  if (kind.rfind("storage", 0) != 0) return make_storage_buffer(static_cast<std::size_t>(bytes), data, GL_DYNAMIC_COPY);
  const GLbitfield flags =
      kind.size() > 8 ? static_cast<GLbitfield>(std::stoul(kind.substr(8), nullptr, 0)) : GL_DYNAMIC_STORAGE_BIT;
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferStorage(GL_SHADER_STORAGE_BUFFER, bytes, data, flags);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return buffer;
}

// A compute program from `text`, or 0 with the compile log printed (the shader object is
// released either way: the program keeps what it needs).
GLuint compute_program(const std::string& text, const char* what) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* src_text = text.c_str();
  glShaderSource(shader, 1, &src_text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    std::printf("%s shader failed: %s\n", what, log);
    glDeleteShader(shader);
    return 0;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) {
    std::printf("%s program failed to link\n", what);
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

// What a plain compute copy reaches in this context (one vec2 or vec4 per invocation), and
// glCopyBufferSubData: the GL side's own copy bandwidth, to compare with OpenCL's.
void measure_copy(GLsizeiptr bytes, int runs) {
  const GLuint src = make_buffer(bytes, nullptr), dst = make_buffer(bytes, nullptr);
  GLuint query = 0;
  glGenQueries(1, &query);
  auto timed = [&](auto&& work) {
    for (int i = 0; i < 20; ++i) work();
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
      glBeginQuery(GL_TIME_ELAPSED, query);
      work();
      glEndQuery(GL_TIME_ELAPSED);
      GLuint64 ns = 0;
      glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
      ms.push_back(static_cast<double>(ns) * 1e-6);
    }
    return median(ms);
  };
  struct CopyKind {
    const char* type;
    GLuint bytes_per;
    GLuint per_invocation;
  };
  for (const CopyKind kind : {CopyKind{"vec2", 8, 1}, CopyKind{"double", 8, 1}, CopyKind{"vec4", 16, 1},
                              CopyKind{"vec2", 8, 4}, CopyKind{"double", 8, 4}}) {
    // Element j of an invocation at i + j * stride: every load instruction of a warp coalesces.
    const auto elems = static_cast<GLuint>(bytes / kind.bytes_per);
    const GLuint invocations = elems / kind.per_invocation;
    const std::string text =
        std::string("#version 430 core\nlayout(local_size_x = 256) in;\n") + "layout(std430, binding = 0) readonly buffer S { " +
        kind.type + " s[]; };\n" + "layout(std430, binding = 1) writeonly buffer D { " + kind.type + " d[]; };\n" +
        "void main() { uint i = gl_GlobalInvocationID.y * 65535u * 256u + gl_GlobalInvocationID.x;\n" +
        " if (i < " + std::to_string(invocations) + "u) {\n" + " " + kind.type + " v[" +
        std::to_string(kind.per_invocation) + "];\n" + " for (uint j = 0u; j < " + std::to_string(kind.per_invocation) +
        "u; ++j) v[j] = s[i + j * " + std::to_string(invocations) + "u];\n" + " for (uint j = 0u; j < " +
        std::to_string(kind.per_invocation) + "u; ++j) d[i + j * " + std::to_string(invocations) + "u] = v[j]; } }\n";
    const GLuint program = compute_program(text, "copy");
    if (!program) continue;
    const GLuint groups = (invocations + 255) / 256, gx = std::min<GLuint>(groups, 65535), gy = (groups + gx - 1) / gx;
    const double ms = timed([&] {
      glUseProgram(program);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, src);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, dst);
      glDispatchCompute(gx, gy, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    });
    std::printf("GL compute copy (%s, %u per invocation) %lld MB: %.1f us, %.0f GB/s (read + write)\n", kind.type,
                kind.per_invocation, static_cast<long long>(bytes >> 20), ms * 1e3,
                2.0 * static_cast<double>(bytes) / (ms * 1e6));
    glDeleteProgram(program);
  }
  const double ms = timed([&] {
    glBindBuffer(GL_COPY_READ_BUFFER, src);
    glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, bytes);
  });
  std::printf("glCopyBufferSubData %lld MB: %.1f us, %.0f GB/s (read + write)\n", static_cast<long long>(bytes >> 20),
              ms * 1e3, 2.0 * static_cast<double>(bytes) / (ms * 1e6));
  glDeleteQueries(1, &query);
  glDeleteBuffers(1, &src);
  glDeleteBuffers(1, &dst);
}

// The median GL_TIME_ELAPSED of the last `runs` of `groups` groups of `program` over `data`
// (binding 0) and `out` (binding 1), each with its barrier, after at least 20 runs and 200 ms.
double median_dispatch_us(GLuint program, GLuint data, GLuint out, GLuint groups, int runs, GLuint query) {
  std::vector<double> us;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < runs + 20 || std::chrono::steady_clock::now() - start < std::chrono::milliseconds(200); ++r) {
    glBeginQuery(GL_TIME_ELAPSED, query);
    glUseProgram(program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, data);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, out);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glEndQuery(GL_TIME_ELAPSED);
    GLuint64 ns = 0;
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
    us.push_back(static_cast<double>(ns) * 1e-3);
  }
  us.erase(us.begin(), us.end() - runs);
  return median(us);
}

// FFTSCOPE_GL_STRIDED=1: strided_probe.h's access patterns in GL (=columns: its
// column_pattern_cases).
void measure_strided(int runs, const std::vector<test::StridedCase>& cases = test::strided_cases()) {
  GLuint query = 0;
  glGenQueries(1, &query);
  for (const test::StridedCase& c : cases) {
    const GLuint buffer = make_buffer(GLsizeiptr{c.pitch} * c.height * 8, nullptr);
    const GLuint second = c.out_spacing ? make_buffer(GLsizeiptr{c.pitch} * c.height * 8, nullptr) : 0;
    const std::string text = "#version 430 core\n#pragma optionNV(unroll all)\nlayout(local_size_x = " +
                             std::to_string(c.threads) +
                             ") in;\nlayout(std430, binding = 0) buffer Data { vec2 D[]; };\n"
                             "layout(std430, binding = 1) buffer Out { vec2 OUT[]; };\n#define LANE "
                             "gl_LocalInvocationID.x\n#define GROUP gl_WorkGroupID.x\n#define VEC2 vec2\n#define UNROLL\n"
                             "void main() {\n" + test::strided_body(c) + "}\n";
    const GLuint program = compute_program(text, "strided");
    if (!program) {
      glDeleteBuffers(1, &buffer);
      if (second) glDeleteBuffers(1, &second);
      continue;
    }
    const double m = median_dispatch_us(program, buffer, second ? second : buffer, c.groups(), runs, query);
    std::printf("GL strided: %s: %.1f us, %.0f GB/s\n", c.describe().c_str(), m, c.bytes_moved() / (m * 1e3));
    glDeleteProgram(program);
    glDeleteBuffers(1, &buffer);
    if (second) glDeleteBuffers(1, &second);
  }
  glDeleteQueries(1, &query);
}

// FFTSCOPE_GL_STRIDED=pointer: strided_probe.h's column and row patterns through the SSBO as the
// fast path binds it and through NV_shader_buffer_load pointers (a
// resident buffer's GPU address as a uniform; NVIDIA only), each case's two in turn, twice:
// whether GL's slow strided access lies in how the shader reaches the buffer.
void measure_pointers(int runs) {
  using MakeResident = void (*)(GLuint, GLenum);
  using GetAddress = void (*)(GLuint, GLenum, GLuint64*);
  using ProgramUniform64 = void (*)(GLuint, GLint, GLuint64);
  const auto make_resident = reinterpret_cast<MakeResident>(eglGetProcAddress("glMakeNamedBufferResidentNV"));
  const auto get_address = reinterpret_cast<GetAddress>(eglGetProcAddress("glGetNamedBufferParameterui64vNV"));
  const auto uniform64 = reinterpret_cast<ProgramUniform64>(eglGetProcAddress("glProgramUniformui64NV"));
  if (!make_resident || !get_address || !uniform64) {
    std::printf("GL pointers: NV_shader_buffer_load entry points missing\n");
    return;
  }
  const std::vector<test::StridedCase> cases = {
      {4096, 4096, 8, 4096, 1, 512},        {4096, 4096, 4096, 1, 1, 512},   {4096, 4096, 16, 4096, 1, 512, 0, 32},
      {8192, 8192, 8, 8192, 1, 512},        {8192, 8192, 32, 64, 128, 256, 128},
      {8192, 8192, 8192, 1, 1, 512, 1},     {8192, 8192, 8192, 1, 1, 512},   {2048, 2048, 8, 2048, 1, 512}};
  GLuint query = 0;
  glGenQueries(1, &query);
  constexpr GLenum kAddress = 0x8F1D;   // GL_BUFFER_GPU_ADDRESS_NV
  for (int pass = 0; pass < 2; ++pass)
    for (const test::StridedCase& c : cases) {
      const GLsizeiptr bytes = GLsizeiptr{c.pitch} * c.height * 8;
      const GLuint buffer = make_buffer(bytes, nullptr);
      const GLuint second = c.out_spacing ? make_buffer(bytes, nullptr) : buffer;
      make_resident(buffer, GL_READ_WRITE);
      if (second != buffer) make_resident(second, GL_READ_WRITE);
      GLuint64 address = 0, second_address = 0;
      get_address(buffer, kAddress, &address);
      get_address(second, kAddress, &second_address);
      const std::string head = "#version 430 core\n#pragma optionNV(unroll all)\nlayout(local_size_x = " +
                               std::to_string(c.threads) + ") in;\n";
      const std::string tail = "#define LANE gl_LocalInvocationID.x\n#define GROUP gl_WorkGroupID.x\n#define VEC2 vec2\n"
                               "#define UNROLL\nvoid main() {\n" + test::strided_body(c) + "}\n";
      const std::string ssbo = "layout(std430, binding = 0) buffer Data { vec2 D[]; };\n"
                               "layout(std430, binding = 1) buffer Out { vec2 OUT[]; };\n";
      const std::string pointers = "#extension GL_NV_shader_buffer_load : require\n"
                                   "#extension GL_NV_gpu_shader5 : require\n"
                                   "uniform vec2* D;\nuniform vec2* OUT;\n";
      const struct {
        const char* name;
        std::string text;
      } variants[] = {{"ssbo", head + ssbo + tail}, {"pointer", head + pointers + tail}};
      for (const auto& v : variants) {
        const GLuint program = compute_program(v.text, v.name);
        if (!program) continue;
        if (std::string(v.name) == "pointer") {
          uniform64(program, glGetUniformLocation(program, "D"), address);
          uniform64(program, glGetUniformLocation(program, "OUT"), second_address);
        }
        const double m = median_dispatch_us(program, buffer, second, c.groups(), runs, query);
        std::printf("GL %-8s %s: %.1f us, %.0f GB/s\n", v.name, c.describe().c_str(), m, c.bytes_moved() / (m * 1e3));
        glDeleteProgram(program);
      }
      if (second != buffer) glDeleteBuffers(1, &second);
      glDeleteBuffers(1, &buffer);
    }
  glDeleteQueries(1, &query);
}

// FFTSCOPE_GL_STRIDED=tiles: whether the column pass would read faster from a tiled layout (each
// T neighbouring columns' H rows contiguous, written so by the row pass) than from row-major
// rows: out of place, n x n vec2, groups of 512 invocations moving 16 values at a time; rows ->
// rows, rows -> tiles (the row pass storing tiles), tiles -> rows with T columns per group or
// one (a column pass planned as rows, its group's line read T apart and stored down its column),
// columns -> columns (today's column pattern, in place), T = 2, 4, 8, twice.
void measure_tiles(int runs) {
  GLuint query = 0;
  glGenQueries(1, &query);
  struct Pattern {
    std::string name;
    unsigned columns;       // per group: 0 a row per group, else that many neighbouring columns
    std::string load;       // index expressions of the group g, its element e (r, c: row, column)
    std::string store;
    bool in_place;
    unsigned t;             // the tile's width
  };
  std::vector<Pattern> patterns = {{"rows -> rows", 0, "r * P + c", "r * P + c", false, 8},
                                   {"columns in place (8)", 8, "r * P + c", "r * P + c", true, 8}};
  for (const unsigned t : {2u, 4u, 8u}) {
    const std::string tile = " (T = " + std::to_string(t) + ")";
    patterns.push_back({"rows -> tiles" + tile, 0, "r * P + c", "(c / T) * (H * T) + r * T + c % T", false, t});
    patterns.push_back({"tiles -> rows, T per group" + tile, t, "(c / T) * (H * T) + r * T + c % T", "r * P + c", false, t});
    patterns.push_back({"tiles -> rows, 1 per group" + tile, 1, "(c / T) * (H * T) + r * T + c % T", "r * P + c", false, t});
  }
  for (int pass = 0; pass < 2; ++pass)
    for (const unsigned n : {4096u})
      for (const Pattern& pattern : patterns) {
        const GLsizeiptr bytes = GLsizeiptr{n} * n * 8;
        const GLuint buffer = make_buffer(bytes, nullptr);
        const GLuint second = pattern.in_place ? buffer : make_buffer(bytes, nullptr);
        const unsigned per_group = pattern.columns == 0 ? n : pattern.columns * n, values = per_group / 512;
        const std::string cols = std::to_string(pattern.columns);
        const std::string position = pattern.columns == 0 ? "uint r = g, c = e;"
                                                           : "uint r = e / " + cols + "u, c = g * " + cols + "u + e % " + cols + "u;";
        const std::string text =
            "#version 430 core\n#pragma optionNV(unroll all)\nlayout(local_size_x = 512) in;\n"
            "layout(std430, binding = 0) buffer Data { vec2 D[]; };\n"
            "layout(std430, binding = 1) buffer Out { vec2 OUT[]; };\nconst uint P = " + std::to_string(n) +
            "u, H = " + std::to_string(n) + "u, T = " + std::to_string(pattern.t) +
            "u;\nvoid main() {\n uint g = gl_WorkGroupID.x, lane = gl_LocalInvocationID.x;\n"
            " for (uint i0 = 0u; i0 < " + std::to_string(values) + "u; i0 += 8u) {\n  vec2 v[8];\n"
            "  for (uint j = 0u; j < 8u; ++j) { uint e = lane + (i0 + j) * 512u; " + position + " v[j] = D[" +
            pattern.load + "]; }\n  for (uint j = 0u; j < 8u; ++j) { uint e = lane + (i0 + j) * 512u; " + position +
            " OUT[" + pattern.store + "] = -v[j]; }\n }\n}\n";
        const GLuint program = compute_program(text, pattern.name.c_str());
        if (program) {
          const GLuint groups = pattern.columns == 0 ? n : n / pattern.columns;
          const double m = median_dispatch_us(program, buffer, second, groups, runs, query);
          std::printf("GL tiles %u^2 %-36s %.1f us, %.0f GB/s\n", n, pattern.name.c_str(), m,
                      2.0 * static_cast<double>(bytes) / (m * 1e3));
          glDeleteProgram(program);
        }
        if (second != buffer) glDeleteBuffers(1, &second);
        glDeleteBuffers(1, &buffer);
      }
  glDeleteQueries(1, &query);
}

// The median GL_TIME_ELAPSED of `run`, one query each of `queries`, queued back to back after
// 300 ms of untimed runs (so that a GL-only process's clocks are up), in microseconds.
// Each query's GL_TIME_ELAPSED, in microseconds (waiting for them).
std::vector<double> elapsed_us(const std::vector<GLuint>& queries) {
  std::vector<double> us;
  for (GLuint q : queries) {
    GLuint64 ns = 0;
    glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
    us.push_back(static_cast<double>(ns) * 1e-3);
  }
  return us;
}

double warmed_median_us(const std::function<void()>& run, const std::vector<GLuint>& queries) {
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; std::chrono::steady_clock::now() - start < std::chrono::milliseconds(300); ++r) {
    run();
    if (r % 8 == 7) glFinish();
  }
  for (GLuint q : queries) {
    glBeginQuery(GL_TIME_ELAPSED, q);
    run();
    glEndQuery(GL_TIME_ELAPSED);
  }
  return median(elapsed_us(queries));
}

// FFTSCOPE_GL_STRIDED=paired: whether a column pass reads 128-byte row segments where the rows
// pass stored each pair of rows interleaved (element (r, c) at ((r / 2) W + c) 2 + r % 2): 8
// columns of every row per group of 512 invocations, 16 values in flight, reading that layout or
// the plain one and writing the plain one into a second buffer; and whole rows (one per group)
// written either way. 4096^2, no FFT.
void measure_paired(int runs) {
  std::vector<GLuint> queries(static_cast<std::size_t>(runs));
  glGenQueries(runs, queries.data());
  const unsigned w = 4096, h = 4096;
  const GLsizeiptr bytes = GLsizeiptr{w} * h * 8;
  const GLuint in = make_buffer(bytes, nullptr), out = make_buffer(bytes, nullptr);
  const std::string plain = "(p * " + std::to_string(w) + "u + c)";
  const std::string paired = "(((p >> 1) * " + std::to_string(w) + "u + c) * 2u + (p & 1u))";
  struct Pattern {
    const char* name;
    bool rows;
    std::string read, write;
  };
  const std::vector<Pattern> patterns = {{"columns, plain -> plain", false, plain, plain},
                                         {"columns, paired -> plain", false, paired, plain},
                                         {"columns, paired -> paired", false, paired, paired},
                                         {"columns, plain -> paired", false, plain, paired},
                                         {"rows, plain -> plain", true, plain, plain},
                                         {"rows, plain -> paired", true, plain, paired}};
  for (const Pattern& pattern : patterns) {
    // Columns: group g takes columns 8 (g % (W / 8)) .. + 7, element e of its 8 x H is point e / 8
    // of column e % 8 (the fast column pass's order). Rows: group g is row g, element e its point.
    const std::string body =
        pattern.rows ? " uint p = gl_WorkGroupID.x;\n for (uint i0 = 0u; i0 < " + std::to_string(w / 512) +
                           "u; i0 += 8u) {\n  vec2 v[8];\n  for (uint j = 0u; j < 8u; ++j) { uint c = gl_LocalInvocationID.x + "
                           "(i0 + j) * 512u; v[j] = D[" + pattern.read + "]; }\n  for (uint j = 0u; j < 8u; ++j) { uint c = "
                           "gl_LocalInvocationID.x + (i0 + j) * 512u; OUT[" + pattern.write + "] = -v[j]; }\n }\n"
                     : " uint col0 = (gl_WorkGroupID.x % " + std::to_string(w / 8) + "u) * 8u;\n for (uint i0 = 0u; i0 < " +
                           std::to_string(8 * h / 512) + "u; i0 += 16u) {\n  vec2 v[16];\n  for (uint j = 0u; j < 16u; ++j) { uint e = "
                           "gl_LocalInvocationID.x + (i0 + j) * 512u, p = e / 8u, c = col0 + e % 8u; v[j] = D[" + pattern.read +
                           "]; }\n  for (uint j = 0u; j < 16u; ++j) { uint e = gl_LocalInvocationID.x + (i0 + j) * 512u, p = e / 8u, "
                           "c = col0 + e % 8u; OUT[" + pattern.write + "] = -v[j]; }\n }\n";
    const std::string text = "#version 430 core\n#pragma optionNV(unroll all)\nlayout(local_size_x = 512) in;\n"
                             "layout(std430, binding = 0) buffer Data { vec2 D[]; };\n"
                             "layout(std430, binding = 1) buffer Out { vec2 OUT[]; };\nvoid main() {\n" + body + "}\n";
    const GLuint program = compute_program(text, "paired");
    if (!program) continue;
    const GLuint groups = pattern.rows ? h : w / 8;
    const auto run = [&] {
      glUseProgram(program);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, in);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, out);
      glDispatchCompute(groups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    };
    const double m = warmed_median_us(run, queries);
    std::printf("GL paired rows %ux%u: %-26s %.1f us, %.0f GB/s\n", w, h, pattern.name, m, 2.0 * bytes / (m * 1e3));
    glDeleteProgram(program);
  }
  glDeleteBuffers(1, &in);
  glDeleteBuffers(1, &out);
  glDeleteQueries(runs, queries.data());
}

// FFTSCOPE_GL_AFTER=1: a W x H fast transform (forward + inverse, one query each pair) timed in
// place on one buffer, then again after each of: two image-sized buffers made, cleared and
// deleted; the same with the transform run on them first; a second fast path planned by
// measuring (fast::measure_candidates, which makes and deletes its own image and scratch) and
// deleted. GL 8192^2 ran 2.9x slower after measured planning as a process's first size
// (docs/fast_path.md): this tells which step leaves the first path slow.
void measure_after(ProgramCache& programs, std::size_t w, std::size_t h, int runs) {
  std::vector<GLuint> queries(static_cast<std::size_t>(runs));
  glGenQueries(runs, queries.data());
  const GLsizeiptr bytes = static_cast<GLsizeiptr>(w * h * sizeof(Complex));
  GlFastPath path(programs, nullptr);
  path.prepare(w, h);
  const GLuint buffer = make_buffer(bytes, nullptr);
  const GLuint spare = make_buffer(bytes, nullptr);  // as the GL backend keeps a second image buffer
  const BufferTexture texture(buffer);
  const auto pair = [&](GLuint b, GLuint b_texture) {
    run_fast(path, b, b_texture, Direction::forward);
    run_fast(path, b, b_texture, Direction::inverse);
  };
  const auto timed = [&](const char* after) {
    std::printf("GL after %zux%zu: %-52s %.1f us per forward + inverse\n", w, h, after,
                warmed_median_us([&] { pair(buffer, texture.id()); }, queries));
  };
  const auto temporaries = [&](bool used) {
    GLuint temp[2] = {make_buffer(bytes, nullptr), make_buffer(bytes, nullptr)};
    const GLuint zero = 0;
    for (GLuint t : temp) {
      glBindBuffer(GL_SHADER_STORAGE_BUFFER, t);
      glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
      if (used) {
        const BufferTexture t_texture(t);
        for (int i = 0; i < 8; ++i) pair(t, t_texture.id());
      }
    }
    glFinish();
    glDeleteBuffers(2, temp);
  };
  timed("nothing else");
  temporaries(false);
  timed("two image-sized buffers made, cleared, deleted");
  temporaries(true);
  timed("... with the transform run on them");
  {
    GlFastPath measured(programs, nullptr, fast::gl_default_tuning(),
                        fast::Measuring{fast::measure_candidates(fast::gl_default_tuning(), true), nullptr, "probe"});
    measured.prepare(w, h);
  }
  timed("a path planned by measuring, deleted");
  glDeleteBuffers(1, &buffer);
  glDeleteBuffers(1, &spare);
  glDeleteQueries(runs, queries.data());
}

// FFTSCOPE_GL_TIMELINE=S: a W x H fast transform kept running for S seconds from the moment its
// programs are built, a sample every ~100 ms: the median of 16 forward + inverse pairs, each in
// a GL_TIME_ELAPSED query, and the time since the build. Whether a process's first timings of a
// size are slow for a while (GL's slow processes, docs/fast_path.md), and when that ends.
void measure_timeline(ProgramCache& programs, std::size_t w, std::size_t h, double seconds) {
  constexpr int kPairs = 16;
  std::vector<GLuint> queries(kPairs);
  glGenQueries(kPairs, queries.data());
  const auto built = std::chrono::steady_clock::now();
  GlFastPath path(programs, nullptr);
  path.prepare(w, h);
  const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - built).count();
  const GLuint buffer = make_buffer(static_cast<GLsizeiptr>(w * h * sizeof(Complex)), nullptr);
  const BufferTexture texture(buffer);
  const auto since_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - built).count();
  };
  std::printf("GL timeline %zux%zu: built in %.0f ms\n", w, h, build_ms);
  double next_ms = since_ms();
  while (since_ms() < seconds * 1000) {
    for (GLuint q : queries) {
      glBeginQuery(GL_TIME_ELAPSED, q);
      run_fast(path, buffer, texture.id(), Direction::forward);
      run_fast(path, buffer, texture.id(), Direction::inverse);
      glEndQuery(GL_TIME_ELAPSED);
    }
    std::vector<double> us;
    for (GLuint q : queries) {
      GLuint64 ns = 0;
      glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
      us.push_back(static_cast<double>(ns) * 1e-3);
    }
    std::sort(us.begin(), us.end());
    if (since_ms() >= next_ms) {
      std::printf("  %7.0f ms  %8.1f us per forward + inverse (min %.1f, max %.1f)\n", since_ms(), us[kPairs / 2],
                  us.front(), us.back());
      next_ms += 100;
    }
  }
  glDeleteBuffers(1, &buffer);
  glDeleteQueries(kPairs, queries.data());
}

// FFTSCOPE_GL_STRIDED=placement: the four-step passes' and a row pass's patterns (strided_probe.h)
// timed by warmed_median_us: in place, into a second buffer, and into the upper half of the same
// buffer (two ranges of one buffer object); whole rows in place where the image fits the L2; the
// row pattern over footprints of 256 MiB to 2 GiB; 8192^2 into a second buffer in 2 or 4
// dispatches, each of neighbouring rows or of every 2nd / 4th row; the output range at other
// distances from the input; in place through a second binding, the upper half through the same
// binding, and readonly / writeonly blocks. Tells whether GL's out-of-place passes cost more by
// the buffer objects, bindings, distance, dispatches or the memory they read and write
// (docs/fast_path.md, fourteenth session).
//
// FFTSCOPE_GL_STRIDED=display: only the 8192^2 display's first column pass's pattern (its real
// image read as 4096 complex columns, 64 rows 128 apart per group, into Z) in place, into a
// second buffer and into the upper half of one, beside the complex 8192^2 pass A's pattern.
void measure_placement(int runs, bool display_only = false) {
  std::vector<GLuint> queries(static_cast<std::size_t>(runs));
  glGenQueries(runs, queries.data());
  // two_bindings: in place, but written through binding 1 (the same buffer); one_binding: the upper
  // half of one buffer bound once, written at D[size + i]; qualified: a second buffer, binding 0
  // readonly and binding 1 writeonly.
  enum class Target { in_place, second_buffer, upper_half, two_bindings, one_binding, qualified };
  struct Placement {
    test::StridedCase c;
    Target target;
    unsigned dispatches = 1;
    bool interleaved = false;  // dispatch d takes groups d, d + k, ... (else a contiguous range)
    GLsizeiptr distance = 0;   // upper_half: the output range this many bytes on (0: the size)
  };
  std::vector<Placement> cases;
  if (display_only) {
    for (const Target t : {Target::in_place, Target::second_buffer, Target::upper_half, Target::qualified})
      cases.push_back({{4096, 8192, 32, 64, 128, 256, 128}, t});
    cases.push_back({{8192, 8192, 32, 64, 128, 256, 128}, Target::in_place});
  } else {
    for (const test::StridedCase c : {test::StridedCase{8192, 8192, 32, 64, 128, 256, 128},
                                      test::StridedCase{8192, 8192, 16, 128, 1, 256, 64},
                                      test::StridedCase{8192, 8192, 8192, 1, 1, 512, 1}, test::StridedCase{4096, 4096, 4096, 1, 1, 512, 1}})
      for (const Target t : {Target::in_place, Target::second_buffer, Target::upper_half}) cases.push_back({c, t});
    for (const unsigned n : {1024u, 2048u})  // whole rows where the image fits the L2
      cases.push_back({{n, n, n, 1, 1, 512, 1}, Target::in_place});
    for (const unsigned rows : {4096u, 6144u, 12288u, 16384u})
      for (const Target t : {Target::in_place, Target::second_buffer}) cases.push_back({{8192, rows, 8192, 1, 1, 512, 1}, t});
    for (const unsigned k : {2u, 4u})
      for (const bool interleaved : {false, true})
        cases.push_back({{8192, 8192, 8192, 1, 1, 512, 1}, Target::second_buffer, k, interleaved});
    // The output range of one buffer at other distances from the input (MiB).
    for (const GLsizeiptr mib : {640, 768, 1024})
      cases.push_back({{8192, 8192, 8192, 1, 1, 512, 1}, Target::upper_half, 1, false, mib << 20});
    for (const GLsizeiptr mib : {256, 384, 512, 768})
      cases.push_back({{8192, 4096, 8192, 1, 1, 512, 1}, Target::upper_half, 1, false, mib << 20});
    for (const test::StridedCase c : {test::StridedCase{8192, 8192, 32, 64, 128, 256, 128}, test::StridedCase{8192, 8192, 16, 128, 1, 256, 64}})
      cases.push_back({c, Target::upper_half, 1, false, GLsizeiptr{768} << 20});
    for (const Target t : {Target::two_bindings, Target::one_binding, Target::qualified})
      for (const test::StridedCase c : {test::StridedCase{8192, 8192, 8192, 1, 1, 512, 1}, test::StridedCase{8192, 8192, 32, 64, 128, 256, 128}})
        cases.push_back({c, t});
  }
  for (Placement p : cases) {
    test::StridedCase& k = p.c;
    if (p.target == Target::in_place) k.out_spacing = 0;
    const GLsizeiptr bytes = GLsizeiptr{k.pitch} * k.height * 8;
    const GLsizeiptr distance = p.distance ? p.distance : bytes;
    const bool doubled = p.target == Target::upper_half || p.target == Target::one_binding;
    const GLuint buffer = make_buffer(doubled ? distance + bytes : bytes, nullptr);
    const GLuint second =
        p.target == Target::second_buffer || p.target == Target::qualified ? make_buffer(bytes, nullptr) : 0;
    std::string body = test::strided_body(k);
    if (p.target == Target::one_binding)
      for (std::size_t at = body.find("OUT["); at != std::string::npos; at = body.find("OUT[", at))
        body.replace(at, 4, "D[" + std::to_string(bytes / 8) + "u + ");
    const bool qualified = p.target == Target::qualified;
    const std::string text = "#version 430 core\n#pragma optionNV(unroll all)\nlayout(local_size_x = " +
                             std::to_string(k.threads) + ") in;\nlayout(std430, binding = 0) " +
                             (qualified ? "readonly " : "") + "buffer Data { vec2 D[]; };\nlayout(std430, binding = 1) " +
                             (qualified ? "writeonly " : "") +
                             "buffer Out { vec2 OUT[]; };\nuniform uint u_step, u_first;\n"
                             "#define LANE gl_LocalInvocationID.x\n#define GROUP (gl_WorkGroupID.x * u_step + u_first)\n"
                             "#define VEC2 vec2\n#define UNROLL\nvoid main() {\n" + body + "}\n";
    const GLuint program = compute_program(text, "placement");
    const GLuint per = k.groups() / p.dispatches;
    const auto run = [&] {
      glUseProgram(program);
      if (p.target == Target::upper_half) {
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, buffer, 0, bytes);
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, buffer, distance, bytes);
      } else {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, second ? second : buffer);
      }
      for (unsigned d = 0; d < p.dispatches; ++d) {
        glUniform1ui(glGetUniformLocation(program, "u_step"), p.interleaved ? p.dispatches : 1u);
        glUniform1ui(glGetUniformLocation(program, "u_first"), p.interleaved ? d : d * per);
        glDispatchCompute(per, 1, 1);
      }
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    };
    if (program) {
      const double m = warmed_median_us(run, queries);
      const char* where = p.target == Target::in_place        ? "in place"
                          : p.target == Target::second_buffer ? "second buffer"
                          : p.target == Target::upper_half    ? "same buffer, upper half"
                          : p.target == Target::two_bindings  ? "in place through a second binding"
                          : p.target == Target::one_binding   ? "upper half through the same binding"
                                                              : "second buffer, readonly / writeonly";
      std::printf("GL placement: %s [%s; %u dispatch(es)%s; output %lld MiB on]: %.1f us, %.0f GB/s\n",
                  k.describe().c_str(), where, p.dispatches, p.interleaved ? " of every k-th group" : "",
                  static_cast<long long>(p.target == Target::upper_half ? distance >> 20 : 0), m,
                  k.bytes_moved() / (m * 1e3));
      glDeleteProgram(program);
    }
    glDeleteBuffers(1, &buffer);
    if (second) glDeleteBuffers(1, &second);
  }
  glDeleteQueries(runs, queries.data());
}

// FFTSCOPE_GL_STRIDED=slabs: the four-step passes' patterns at 8192^2 (A: 32 columns x 64 rows
// 128 apart, B: 16 columns x 128 neighbouring rows written 64 apart) between the image (pitch 8192)
// and a scratch of S columns, one slab of S columns at a time (8192 / S dispatches a run):
// whether slabs keep GL's out-of-place passes at in-place speed where whole images do not
// (measure_placement).
void measure_slabs(int runs) {
  constexpr unsigned pitch = 8192, height = 8192;
  std::vector<GLuint> queries(static_cast<std::size_t>(runs));
  glGenQueries(runs, queries.data());
  const GLsizeiptr image_bytes = GLsizeiptr{pitch} * height * 8;
  const GLuint image = make_buffer(image_bytes, nullptr);
  for (const unsigned slab : {8192u, 4096u, 2048u, 1024u}) {
    const GLuint scratch = make_buffer(GLsizeiptr{slab} * height * 8, nullptr);
    for (const bool pass_b : {false, true}) {
      const unsigned cols = pass_b ? 16 : 32, blocks = pass_b ? 64 : 128;
      // A: image -> scratch (rows block + 128 m, same places); B: scratch rows block * 128 + m ->
      // image rows block + 64 m.
      const std::string in_row = pass_b ? "(block * 128u + m)" : "(block + m * 128u)";
      const std::string out_row = pass_b ? "(block + m * 64u)" : "(block + m * 128u)";
      const std::string in_pitch = std::to_string(pass_b ? slab : pitch) + "u";
      const std::string out_pitch = std::to_string(pass_b ? pitch : slab) + "u";
      const std::string in_col = pass_b ? "col" : "(col + u_slab)";
      const std::string out_col = pass_b ? "(col + u_slab)" : "col";
      const std::string text =
          "#version 430 core\n#pragma optionNV(unroll all)\nlayout(local_size_x = 256) in;\n"
          "layout(std430, binding = 0) buffer Data { vec2 D[]; };\nlayout(std430, binding = 1) buffer Out { vec2 OUT[]; };\n"
          "uniform uint u_slab;\nvoid main() {\n uint lane = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;\n"
          " uint col = (g % " + std::to_string(slab / cols) + "u) * " + std::to_string(cols) + "u;\n uint block = g / " +
          std::to_string(slab / cols) + "u;\n vec2 v[8];\n for (uint j = 0u; j < 8u; ++j) { uint e = lane + j * 256u; uint m = e / " +
          std::to_string(cols) + "u; v[j] = D[" + in_row + " * " + in_pitch + " + " + in_col + " + e % " + std::to_string(cols) +
          "u]; }\n for (uint j = 0u; j < 8u; ++j) { uint e = lane + j * 256u; uint m = e / " + std::to_string(cols) + "u; OUT[" +
          out_row + " * " + out_pitch + " + " + out_col + " + e % " + std::to_string(cols) + "u] = -v[j]; }\n}\n";
      const GLuint program = compute_program(text, "slabs");
      if (!program) continue;
      const auto run = [&] {
        glUseProgram(program);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, pass_b ? scratch : image);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, pass_b ? image : scratch);
        for (unsigned first = 0; first < pitch; first += slab) {
          glUniform1ui(glGetUniformLocation(program, "u_slab"), first);
          glDispatchCompute((slab / cols) * blocks, 1, 1);
        }
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      };
      const double m = warmed_median_us(run, queries);
      std::printf("GL slabs: pass %s pattern, slabs of %u columns (%u dispatches): %.1f us, %.0f GB/s\n", pass_b ? "B" : "A",
                  slab, pitch / slab, m, 2.0 * static_cast<double>(image_bytes) / (m * 1e3));
      glDeleteProgram(program);
    }
    glDeleteBuffers(1, &scratch);
  }
  glDeleteBuffers(1, &image);
  glDeleteQueries(runs, queries.data());
}

// FFTSCOPE_GL_IMAGESTORE=1: writing an RGBA8 display of N x N pixels from a compute shader, as the
// display rows do (imageStore into a 2D texture, rows of neighbouring pixels per group, each
// with its mirror row), against the same pixels stored into a shader storage buffer, by 16 x 16
// tiles, by other groupings of rows, and by column strips (as a display ending on columns
// would): whether the texture's own layout costs GL's display path where OpenCL's writes a buffer.
void measure_image_store(int runs) {
  std::vector<GLuint> queries(static_cast<std::size_t>(runs));
  glGenQueries(runs, queries.data());
  for (const GLuint n : {2048u, 4096u, 8192u}) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, static_cast<GLsizei>(n), static_cast<GLsizei>(n));
    const GLuint buffer = make_buffer(GLsizeiptr{n} * n * 4, nullptr);
    struct Variant {
      const char* what;
      const char* body;
      GLuint x, y;                  // local size
      GLuint pixels_x, pixels_y;    // pixels each group covers (y 0: every row)
    };
    // NVIDIA's textures are block-linear (blocks of 64 bytes x 8 rows), so which pixels a warp
    // and a group write together matters (docs/fast_path.md, twentieth session).
    const std::string px = "imageStore(img, ivec2(p), unpackUnorm4x8(p.x * 2654435761u ^ p.y));";
    // `body` for rows 2y and 2y + 1 in turn, each invocation.
    const auto row_pairs = [](const std::string& body) { return "p.y *= 2u; " + body + " p.y += 1u; " + body; };
    const std::string pair = row_pairs(px);
    const std::string lanes = "uint l = gl_LocalInvocationID.x; p = uvec2(gl_WorkGroupID.x * 128u + (l & 15u) + (l >> 5u) * 16u, "
                              "gl_WorkGroupID.y * 2u + ((l >> 4u) & 1u)); " + px;
    // The display rows' pattern: pixel p of row ky and its mirror at (mirror_x, n - ky) (ky < n/2
    // here): (n - x) % n as the display rows write it, or n - 1 - x (the colour of bin x + 1),
    // which makes each warp's mirror pixels one aligned run.
    const auto with_mirror = [](const std::string& mirror_x) {
      return "imageStore(img, ivec2(p), unpackUnorm4x8(p.x ^ p.y)); imageStore(img, ivec2(" + mirror_x +
             ", (u_n - p.y) % u_n), unpackUnorm4x8(p.y ^ p.x));";
    };
    const std::string mirror = with_mirror("(u_n - p.x) % u_n"), aligned = with_mirror("u_n - 1u - p.x");
    const std::string mirror_pairs = row_pairs(mirror), aligned_pairs = row_pairs(aligned);
    // Column strips, as a column pass would write them: a group of 256 holds `c` neighbouring
    // columns (lane l: column l % c, row l / c) and walks down all n rows; with mirrors, the
    // columns x < n/2 and their mirrors ((n - x) % n, (n - y) % n).
    const auto strip = [](int c, bool mirrors) {
      const std::string cs = std::to_string(c), rows = std::to_string(256 / c);
      std::string body = "uint l = gl_LocalInvocationID.x; uint x = gl_WorkGroupID.x * " + cs + "u + l % " + cs +
                         "u; for (uint y = l / " + cs + "u; y < u_n; y += " + rows +
                         "u) { imageStore(img, ivec2(x, y), unpackUnorm4x8(x ^ y));";
      if (mirrors) body += " imageStore(img, ivec2((u_n - x) % u_n, (u_n - y) % u_n), unpackUnorm4x8(y ^ x));";
      return body + " }";
    };
    const std::string strip8 = strip(8, false), strip16 = strip(16, false), strip8m = strip(8, true),
                      strip16m = strip(16, true), strip32m = strip(32, true);
    for (const Variant v : {Variant{"imageStore, rows of 256", px.c_str(), 256, 1, 256, 1},
                            Variant{"buffer store, rows of 256", "pix[p.y * u_n + p.x] = p.x * 2654435761u ^ p.y;", 256, 1, 256, 1},
                            Variant{"imageStore, tiles of 16 x 16", px.c_str(), 16, 16, 16, 16},
                            Variant{"imageStore, rows of 256, rows 2y and 2y+1 per invocation", pair.c_str(), 256, 1, 256, 2},
                            Variant{"imageStore, groups of 32 x 8 (warps of one row)", px.c_str(), 32, 8, 32, 8},
                            Variant{"imageStore, groups of 128 x 2, warps of 16 x 2", lanes.c_str(), 256, 1, 128, 2},
                            Variant{"imageStore, rows ky < n/2 with their mirrors (as the display rows)", mirror.c_str(), 256, 1, 256, 2},
                            Variant{"imageStore, rows 2g, 2g+1 with their mirrors per invocation", mirror_pairs.c_str(), 256, 1, 256, 4},
                            Variant{"imageStore, rows ky < n/2 with their mirrors, 2 rows per group", mirror.c_str(), 256, 2, 256, 4},
                            Variant{"imageStore, rows ky < n/2 with their mirrors, 4 rows per group", mirror.c_str(), 256, 4, 256, 8},
                            Variant{"imageStore, rows ky < n/2 with mirrors in aligned runs", aligned.c_str(), 256, 1, 256, 2},
                            Variant{"imageStore, rows 2g, 2g+1 with mirrors in aligned runs", aligned_pairs.c_str(), 256, 1, 256, 4},
                            Variant{"imageStore, groups of 32 x 8 with mirrors in aligned runs", aligned.c_str(), 32, 8, 32, 16},
                            Variant{"imageStore, column strips of 8", strip8.c_str(), 256, 1, 8, 0},
                            Variant{"imageStore, column strips of 16", strip16.c_str(), 256, 1, 16, 0},
                            Variant{"imageStore, column strips of 8 with mirrors", strip8m.c_str(), 256, 1, 16, 0},
                            Variant{"imageStore, column strips of 16 with mirrors", strip16m.c_str(), 256, 1, 32, 0},
                            Variant{"imageStore, column strips of 32 with mirrors", strip32m.c_str(), 256, 1, 64, 0}}) {
      const std::string text = "#version 430 core\nlayout(local_size_x = " + std::to_string(v.x) + ", local_size_y = " +
                               std::to_string(v.y) + ") in;\nlayout(rgba8, binding = 0) writeonly uniform image2D img;\n"
                               "layout(std430, binding = 0) writeonly buffer Pix { uint pix[]; };\nuniform uint u_n;\n"
                               "void main() {\n uvec2 p = gl_GlobalInvocationID.xy;\n " + std::string(v.body) + "\n}\n";
      const GLuint program = compute_program(text, "image store");
      if (!program) continue;
      const auto run = [&] {
        glUseProgram(program);
        glUniform1ui(glGetUniformLocation(program, "u_n"), n);
        glBindImageTexture(0, texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
        glDispatchCompute(n / v.pixels_x, v.pixels_y == 0 ? 1 : n / v.pixels_y, 1);  // 0: whole columns
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
      };
      const double us = warmed_median_us(run, queries);
      std::printf("GL display write %ux%u, %s: %.1f us, %.0f GB/s\n", n, n, v.what, us,
                  4.0 * static_cast<double>(n) * n / (us * 1e3));
      glDeleteProgram(program);
    }
    glDeleteBuffers(1, &buffer);
    glDeleteTextures(1, &texture);
  }
  glDeleteQueries(runs, queries.data());
}

// A kernel that negates the first u_n values of binding 0: with u_n 0 it does nothing.
constexpr const char* kVersion = "#version 430 core\n";
constexpr const char* kNegate =
    "layout(local_size_x = 256) in;\nlayout(std430, binding = 0) buffer D { vec2 d[]; };\n"
    "uniform uint u_n;\nvoid main() { uint i = gl_GlobalInvocationID.x; if (i >= u_n) return; d[i] = -d[i]; }\n";

// GL_TIME_ELAPSED times (µs) of `runs` dispatches of `program` over `groups` groups, after 20
// untimed ones: its u_n set to `n` and `buffers` bound to storage bindings 0, 1, ... before each.
// FFTSCOPE_GL_DISPATCH=once sets them before the first only; =twice dispatches twice in each
// query (the time is per dispatch), =twice_unbarriered without the barrier between the two,
// =unbarriered without any: whether GL's state changes, or its memory barriers, cost the
// dispatch after them its time. FFTSCOPE_GL_BARRIER_BITS=hex: the barriers' bits (for what a
// barrier costs only: the fast path needs GL_SHADER_STORAGE_BARRIER_BIT between its passes).
std::vector<double> dispatch_times_us(GLuint program, GLuint n, std::initializer_list<GLuint> buffers, GLuint groups,
                                      int runs) {
  const std::string mode = std::getenv("FFTSCOPE_GL_DISPATCH") ? std::getenv("FFTSCOPE_GL_DISPATCH") : "";
  const int per_query = mode.rfind("twice", 0) == 0 ? 2 : 1;
  const char* bits_text = std::getenv("FFTSCOPE_GL_BARRIER_BITS");
  const GLbitfield bits = bits_text ? static_cast<GLbitfield>(std::stoul(bits_text, nullptr, 16)) : GL_SHADER_STORAGE_BARRIER_BIT;
  GLuint query = 0;
  glGenQueries(1, &query);
  std::vector<double> us;
  for (int r = 0; r < runs + 20; ++r) {
    glBeginQuery(GL_TIME_ELAPSED, query);
    if (mode != "once" || r == 0) {
      glUseProgram(program);
      glUniform1ui(glGetUniformLocation(program, "u_n"), n);
      GLuint binding = 0;
      for (const GLuint buffer : buffers) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding++, buffer);
    }
    for (int d = 0; d < per_query; ++d) {
      glDispatchCompute(groups, 1, 1);
      if (mode != "unbarriered" && (mode != "twice_unbarriered" || d + 1 == per_query))
        glMemoryBarrier(bits);
    }
    glEndQuery(GL_TIME_ELAPSED);
    GLuint64 ns = 0;
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
    if (r >= 20) us.push_back(static_cast<double>(ns) * 1e-3 / per_query);
  }
  glDeleteQueries(1, &query);
  return us;
}

// FFTSCOPE_GL_EMPTY=1: GL_TIME_ELAPSED of a dispatch that does nothing (1 group, and 8 per
// multiprocessor) and of one that reads and writes 64 KiB, as fast_probe_cl's measure_empty.
void measure_empty(int runs) {
  const GLuint program = compute_program(std::string(kVersion) + kNegate, "empty");
  if (!program) return;
  const GLuint buffer = make_buffer(65536, nullptr);
  GLint sms = 132;
  glGetIntegerv(0x933B /* GL_SM_COUNT_NV */, &sms);
  struct Case {
    GLuint groups, n;
    const char* what;
  };
  for (const Case c : {Case{1, 0, "1 group, no access"}, Case{8 * static_cast<GLuint>(sms), 0, "8 groups per SM, no access"},
                       Case{32, 8192, "32 groups, 64 KiB read and written"}}) {
    const std::vector<double> us = dispatch_times_us(program, c.n, {buffer}, c.groups, runs);
    std::printf("GL dispatch, %s: %.2f us (GL_TIME_ELAPSED, median)\n", c.what, median(us));
  }
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
}

// FFTSCOPE_GL_GATHER: whether one dispatch could run a small image's 2D transform with no pass
// between its axes. Each of S = W / LINES groups reads the whole W x W image and forms its
// columns' row bins k = b + S j (j < LINES) up to the last LINES-point DFT: lane r of a row sums
// x[r + LINES m] w_S^(m b), m < S, times w_W^(r b). Every group reads the whole image, so the
// time is one multiprocessor's read of it from the L2; written out so nothing is dropped.
void measure_gather(int runs) {
  struct Case {
    GLuint w, lines, threads;
  };
  for (const Case c : {Case{256, 8, 512}, Case{256, 8, 1024}, Case{256, 4, 512}, Case{256, 16, 512},
                       Case{256, 16, 1024}, Case{512, 8, 1024}, Case{512, 16, 1024}}) {
    const GLuint groups = c.w / c.lines;
    const std::string text =
        std::string(kVersion) + "#pragma optionNV(unroll all)\n#define W " + std::to_string(c.w) + "u\n#define LINES " +
        std::to_string(c.lines) + "u\n#define THREADS " + std::to_string(c.threads) +
        "u\n#define S (W / LINES)\n"
        "layout(local_size_x = THREADS) in;\n"
        "layout(std430, binding = 0) readonly buffer D { vec2 x[]; };\n"
        "layout(std430, binding = 1) writeonly buffer O { vec2 o[]; };\n"
        "uniform uint u_n;\n"
        "shared vec2 inner_tw[S];\nshared vec2 z[W * LINES];\n"
        "vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }\n"
        "void main() {\n"
        "  uint b = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;\n"
        "  for (uint m = t; m < S; m += THREADS) { float a = -6.2831853 * float((m * b) % S) / float(S);"
        " inner_tw[m] = vec2(cos(a), sin(a)); }\n"
        "  barrier();\n"
        "  uint r = t % LINES;\n"
        "  float a0 = -6.2831853 * float((r * b) % W) / float(W);\n"
        "  vec2 outer = vec2(cos(a0), sin(a0));\n"
        "  for (uint row = t / LINES; row < W; row += THREADS / LINES) {\n"
        "    vec2 acc = vec2(0.0);\n"
        "    for (uint m = 0u; m < S; ++m) acc += cmul(x[row * W + r + LINES * m], inner_tw[m]);\n"
        "    z[row * LINES + r] = cmul(acc, outer);\n"
        "  }\n"
        "  barrier();\n"
        "  for (uint i = t; i < W * LINES; i += THREADS) o[b * W * LINES + i] = z[i];\n"
        "}\n";
    const GLuint program = compute_program(text, "gather");
    if (!program) continue;
    const GLuint image = make_buffer(GLsizeiptr{c.w} * c.w * 8, nullptr);
    const GLuint out = make_buffer(GLsizeiptr{c.w} * c.w * 8, nullptr);
    const double t = median(dispatch_times_us(program, 0, {image, out}, groups, runs));
    std::printf("GL gather %ux%u, %u columns a group (%u groups of %u): %.2f us (GL_TIME_ELAPSED, median)\n", c.w, c.w,
                c.lines, groups, c.threads, t);
    glDeleteBuffers(1, &image);
    glDeleteBuffers(1, &out);
    glDeleteProgram(program);
  }
}

// The GLSL side of api_probe_kernels.h's macros; `buffers` declares its storage blocks. `defines`
// come first, as they may name extensions.
std::string api_probe_program_text(const std::string& buffers, const std::string& defines, const char* body) {
  return std::string(kVersion) + defines + "#pragma optionNV(unroll all)\nlayout(local_size_x = 256) in;\n" +
         buffers +
         "uniform uint u_n;\n#define N u_n\n#define KERNEL_HEAD void main()\n#define LOCAL_DECL\n"
         "#define LID gl_LocalInvocationID.x\n#define GID gl_WorkGroupID.x\n#define BARRIER() barrier()\n"
         "#define UNROLL\n#define VEC2 vec2\n#define MAKE2(x, y) vec2(x, y)\n" +
         body;
}

// FFTSCOPE_GL_MICRO: api_probe_kernels.h's small kernels (fast_probe_cl's FFTSCOPE_CL_MICRO beside
// it): one group of 256 per multiprocessor, 4 096 and 16 384 iterations.
void measure_micro(int runs) {
  const std::vector<std::uint32_t> table = test::micro_chase_table();
  const GLuint data = make_buffer(65536, nullptr);
  const GLuint tab = make_storage_buffer(table.size() * sizeof(std::uint32_t), table.data(), GL_STATIC_DRAW);
  GLint sms = 132;
  glGetIntegerv(0x933B /* GL_SM_COUNT_NV */, &sms);
  for (int kind = 0; kind < 3; ++kind) {
    const GLuint program = compute_program(
        api_probe_program_text("layout(std430, binding = 0) buffer D { float d[]; };\n"
                               "layout(std430, binding = 1) readonly buffer T { uint t[]; };\nshared float s[256];\n",
                               "#define KIND " + std::to_string(kind) + "\n", test::micro_body()),
        test::micro_names[kind]);
    if (!program) continue;
    for (const GLuint n : {4096u, 16384u}) {
      const double t = median(dispatch_times_us(program, n, {data, tab}, static_cast<GLuint>(sms), runs));
      std::printf("GL micro, %s, n=%u: %.1f us, %.2f ns per iteration\n", test::micro_names[kind], n, t, t * 1e3 / n);
    }
    glDeleteProgram(program);
  }
  glDeleteBuffers(1, &data);
  glDeleteBuffers(1, &tab);
}

// Work-group residency (FFTSCOPE_GL_RESIDENCY=1, with a fast_fft.comp that records it, the
// synthetic kernels of measure_occupancy, or the ladder's FFTSCOPE_GL_LADDER=residency): records
// as api_probe_kernels.h's GroupRecord, the multiprocessor from gl_SMIDNV and the clocks from
// clock2x32ARB's low word.
using test::GroupRecord;
using test::max_group_records;
using test::report_residency;
constexpr GLuint residency_binding = 7;

GLuint make_record_buffer() {
  const GLuint buffer = make_storage_buffer(16 + 16 * std::size_t{max_group_records}, nullptr, GL_DYNAMIC_COPY);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, residency_binding, buffer);
  return buffer;
}

void clear_records(GLuint buffer) {
  const GLuint zero[4] = {0, 0, 0, 0};
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof zero, zero);
}

// The words of the last `last` of the slots taken since clear_records, `words_per_record` each
// (4: GroupRecord; the ladder's phases, 8: PhaseRecord).
std::vector<std::uint32_t> read_record_words(GLuint buffer, std::size_t words_per_record, std::size_t last) {
  glFinish();
  GLuint count = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof count, &count);
  const std::size_t taken = std::min<std::size_t>(count, max_group_records * 4 / words_per_record);
  const std::size_t first = taken - std::min(taken, last);
  std::vector<std::uint32_t> words((taken - first) * words_per_record);
  if (!words.empty())
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(16 + first * words_per_record * 4),
                       static_cast<GLsizeiptr>(words.size() * 4), words.data());
  return words;
}

// The records of the slots taken since clear_records.
std::vector<GroupRecord> read_records(GLuint buffer) {
  const std::vector<std::uint32_t> words = read_record_words(buffer, 4, max_group_records);
  std::vector<GroupRecord> records(words.size() / 4);
  std::memcpy(records.data(), words.data(), records.size() * sizeof(GroupRecord));
  return records;
}

// FFTSCOPE_GL_LADDER: api_probe_kernels.h's ladder at 4096^2 (fast_probe_cl's FFTSCOPE_CL_LADDER
// beside it); =residency / =phases also reports each step's work-group residency or phases
// (report_residency, report_phases), from a build of the step that records them.
void measure_ladder(int runs, const std::string& mode) {
  constexpr GLuint n = 4096;
  const auto bytes = static_cast<GLsizeiptr>(std::size_t{n} * n * 8);
  const std::vector<float> twiddles = test::ladder_twiddles();
  const GLuint src = make_buffer(bytes, nullptr);
  const GLuint dst = make_buffer(bytes, nullptr);
  const GLuint tw = make_storage_buffer(twiddles.size() * sizeof(float), twiddles.data(), GL_STATIC_DRAW);
  const std::string buffers =
      "layout(std430, binding = 0) readonly buffer S { vec2 src[]; };\n"
      "layout(std430, binding = 1) writeonly buffer D { vec2 dst[]; };\n"
      "layout(std430, binding = 2) readonly buffer T { vec2 tw[]; };\nshared vec2 sh[4096];\n";
  const int record_groups = mode == "residency" ? 1 : mode == "phases" ? 2 : 0;
  const std::string recording =
      "#extension GL_ARB_shader_clock : require\n#extension GL_NV_shader_thread_group : enable\n"
      "#ifdef GL_NV_shader_thread_group\n#define SM_ID gl_SMIDNV\n#else\n#define SM_ID 0u\n#endif\n"
      "#define SM_CLOCK() clock2x32ARB().x\n#define TAKE_SLOT() atomicAdd(rec[0], 1u)\n"
      "#define NUM_GROUPS gl_NumWorkGroups.x\n#define RECORD_GROUPS " + std::to_string(record_groups) + "\n";
  const GLuint records = record_groups ? make_record_buffer() : 0;
  for (int step = 0; step <= 3; ++step) {
    const std::string step_define = "#define STEP " + std::to_string(step) + "\n" + test::ladder_extra_defines();
    const GLuint program =
        compute_program(api_probe_program_text(buffers, step_define, test::ladder_body()), "ladder");
    if (!program) continue;
    std::printf("GL ladder 4096^2, step %d: %.1f us\n", step,
                median(dispatch_times_us(program, n, {src, dst, tw}, n / 4, runs)));
    glDeleteProgram(program);
    if (!records) continue;
    const GLuint recorded = compute_program(
        api_probe_program_text(buffers + "layout(std430, binding = 7) buffer R { uint rec[]; };\n",
                               recording + step_define, test::ladder_body()),
        "ladder with records");
    if (!recorded) continue;
    const double us = median(dispatch_times_us(recorded, n, {src, dst, tw}, n / 4, runs));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, residency_binding, records);
    clear_records(records);
    dispatch_times_us(recorded, n, {src, dst, tw}, n / 4, 0);
    // dispatch_times_us's 20 untimed dispatches took slots in turn: the last one's are reported.
    char what[96];
    std::snprintf(what, sizeof what, "GL ladder step %d (%.1f us with the records)", step, us);
    test::report_records(what, record_groups, read_record_words(records, record_groups == 2 ? 8 : 4, n / 4));
    glDeleteProgram(recorded);
  }
  if (records) glDeleteBuffers(1, &records);
  const GLuint buffer_names[] = {src, dst, tw};
  glDeleteBuffers(3, buffer_names);
}

// FFTSCOPE_GL_HEADSTART: forward transforms timed behind one long dispatch, so that the GPU never
// waits for the host to queue the next command: by a GL_TIME_ELAPSED query around each, and by a
// GL_TIMESTAMP pair. If these read less than the spans without the head start, those spans
// include time the GPU spent waiting for the host. Also the host's time to queue a forward and
// an inverse transform, through `fast` (its timers as the caller made them).
void measure_headstart(const std::string& name, GlFastPath& fast, GLuint buffer, GLuint texture, int runs) {
  static const GLuint spin = compute_program(
      "#version 430 core\nlayout(local_size_x = 32) in;\nlayout(std430, binding = 0) buffer D { float d[]; };\n"
      "uniform uint u_iters;\nvoid main() { float x = float(gl_LocalInvocationID.x);\n"
      "  for (uint i = 0u; i < u_iters; ++i) x = x * 0.999999 + 1e-6;\n  if (x == -1.0) d[0] = x; }\n",
      "spin");
  if (!spin) return;
  static GLuint spin_iters = 0;
  GLuint probe = 0;
  glGenQueries(1, &probe);
  const auto run_spin = [&](GLuint iters) {
    glUseProgram(spin);
    glUniform1ui(glGetUniformLocation(spin, "u_iters"), iters);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  };
  double spin_ms = 0;
  const auto time_spin = [&](GLuint iters) {
    glBeginQuery(GL_TIME_ELAPSED, probe);
    run_spin(iters);
    glEndQuery(GL_TIME_ELAPSED);
    GLuint64 ns = 0;
    glGetQueryObjectui64v(probe, GL_QUERY_RESULT, &ns);
    return static_cast<double>(ns) * 1e-6;
  };
  if (spin_iters == 0) {  // about 40 ms of head start
    const double ms = time_spin(1u << 20);
    spin_iters = static_cast<GLuint>(std::min(4e9, (1u << 20) * 40.0 / std::max(ms, 1e-3)));
  }
  std::vector<GLuint> spans(static_cast<std::size_t>(runs)), stamps(2 * static_cast<std::size_t>(runs));
  glGenQueries(static_cast<GLsizei>(spans.size()), spans.data());
  glGenQueries(static_cast<GLsizei>(stamps.size()), stamps.data());
  const auto read_ns = [](GLuint q) {
    GLuint64 ns = 0;
    glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
    return ns;
  };
  for (int round = 0; round < 2; ++round) {
    glFinish();
    std::vector<double> free_span, free_stamp, head_span, head_stamp;
    double queue_us = 0;
    for (int head = 0; head < 2; ++head) {
      for (int kind = 0; kind < 2; ++kind) {
        glFinish();
        if (head) {
          glBeginQuery(GL_TIME_ELAPSED, probe);
          run_spin(spin_iters);
          glEndQuery(GL_TIME_ELAPSED);
        }
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < runs; ++r) {
          if (kind == 0) glBeginQuery(GL_TIME_ELAPSED, spans[static_cast<std::size_t>(r)]);
          else glQueryCounter(stamps[2 * static_cast<std::size_t>(r)], GL_TIMESTAMP);
          run_fast(fast, buffer, texture, Direction::forward);
          if (kind == 0) glEndQuery(GL_TIME_ELAPSED);
          else glQueryCounter(stamps[2 * static_cast<std::size_t>(r) + 1], GL_TIMESTAMP);
          run_fast(fast, buffer, texture, Direction::inverse);
        }
        const double us =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / runs;
        glFinish();
        if (head) {
          spin_ms = static_cast<double>(read_ns(probe)) * 1e-6;
          if (kind == 0) queue_us = us;
        }
        std::vector<double>& out = head ? (kind ? head_stamp : head_span) : (kind ? free_stamp : free_span);
        for (int r = 0; r < runs; ++r) {
          const auto i = static_cast<std::size_t>(r);
          out.push_back(kind == 0 ? static_cast<double>(read_ns(spans[i])) * 1e-3
                                  : static_cast<double>(read_ns(stamps[2 * i + 1]) - read_ns(stamps[2 * i])) * 1e-3);
        }
      }
    }
    // Eight forward + inverse pairs inside one query: a transform's share once the query's own
    // start is spread over sixteen.
    std::vector<double> batched;
    for (int r = 0; r < runs / 8 + 1; ++r) {
      glBeginQuery(GL_TIME_ELAPSED, spans[static_cast<std::size_t>(r)]);
      for (int j = 0; j < 8; ++j) {
        run_fast(fast, buffer, texture, Direction::forward);
        run_fast(fast, buffer, texture, Direction::inverse);
      }
      glEndQuery(GL_TIME_ELAPSED);
    }
    glFinish();
    for (int r = 0; r < runs / 8 + 1; ++r) batched.push_back(static_cast<double>(read_ns(spans[static_cast<std::size_t>(r)])) * 1e-3 / 16);
    std::printf("headstart %s: spans %.1f us, timestamps %.1f | behind %.1f ms: spans %.1f, timestamps %.1f | "
                "host queues a forward + inverse in %.1f us | 16 in one query: %.1f us each\n",
                name.c_str(), median(free_span), median(free_stamp), spin_ms, median(head_span), median(head_stamp),
                queue_us, median(batched));
    std::fflush(stdout);
  }
  glDeleteQueries(static_cast<GLsizei>(spans.size()), spans.data());
  glDeleteQueries(static_cast<GLsizei>(stamps.size()), stamps.data());
  glDeleteQueries(1, &probe);
}

// FFTSCOPE_GL_FLOOR: what one dispatch costs the GPU on its own, taken apart: a query around
// nothing; around k dispatches of a kernel that does nothing, with or without a
// GL_SHADER_STORAGE_BARRIER_BIT barrier after each; and, by the host's clock, 2 000 such
// dispatches queued back to back (no queries), per dispatch.
void measure_floor(int runs) {
  const GLuint program = compute_program(std::string(kVersion) + kNegate, "floor");
  if (!program) return;
  // The same kernel compiled again (a comment apart): a second program to switch to.
  const GLuint other = compute_program(std::string(kVersion) + "// other\n" + kNegate, "floor");
  const GLuint buffer = make_buffer(65536, nullptr), buffer2 = make_buffer(65536, nullptr);
  const GLint n_at = glGetUniformLocation(program, "u_n"), other_n_at = glGetUniformLocation(other, "u_n");
  glUseProgram(other);
  glUniform1ui(other_n_at, 0u);
  glUseProgram(program);
  glUniform1ui(n_at, 0u);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  std::vector<GLuint> queries(static_cast<std::size_t>(runs));
  glGenQueries(runs, queries.data());
  // change: 1 switch programs, 2 set the uniform (its value unchanged), 4 rebind the buffer
  // (alternating two), each before every dispatch.
  int change = 0;
  const auto work = [&](int k, GLbitfield barrier) {
    for (int j = 0; j < k; ++j) {
      if (change & 1) glUseProgram(j % 2 ? other : program);
      if (change & 2) glUniform1ui(change & 1 && j % 2 ? other_n_at : n_at, 0u);
      if (change & 4) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, j % 2 ? buffer2 : buffer);
      glDispatchCompute(1, 1, 1);
      if (barrier) glMemoryBarrier(barrier);
    }
    if (change & 1) glUseProgram(program);
  };
  struct Case {
    int k;
    GLbitfield barrier;
    const char* what;
    int change = 0;
  };
  for (int round = 0; round < 2; ++round) {
    for (const Case c : {Case{0, 0, "nothing"}, Case{1, 0, "1 dispatch, no barrier"},
                         Case{1, GL_SHADER_STORAGE_BARRIER_BIT, "1 dispatch + barrier"},
                         Case{2, 0, "2 dispatches, no barrier"},
                         Case{2, GL_SHADER_STORAGE_BARRIER_BIT, "2 dispatches + barriers"},
                         Case{8, 0, "8 dispatches, no barrier"},
                         Case{8, GL_SHADER_STORAGE_BARRIER_BIT, "8 dispatches + barriers"},
                         Case{8, GL_ALL_BARRIER_BITS, "8 dispatches + all barrier bits"},
                         Case{8, GL_SHADER_STORAGE_BARRIER_BIT, "8 + barriers, programs switched", 1},
                         Case{8, GL_SHADER_STORAGE_BARRIER_BIT, "8 + barriers, uniform set", 2},
                         Case{8, GL_SHADER_STORAGE_BARRIER_BIT, "8 + barriers, buffer rebound", 4},
                         Case{8, GL_SHADER_STORAGE_BARRIER_BIT, "8 + barriers, all three", 7},
                         Case{8, 0, "8, no barrier, all three", 7}}) {
      change = c.change;
      for (int r = 0; r < 200; ++r) work(c.k, c.barrier);  // warm
      for (GLuint q : queries) {
        glBeginQuery(GL_TIME_ELAPSED, q);
        work(c.k, c.barrier);
        glEndQuery(GL_TIME_ELAPSED);
      }
      const std::vector<double> us = elapsed_us(queries);
      double host_us = 0;
      if (c.k > 0) {
        glFinish();
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < 2000 / c.k; ++r) work(c.k, c.barrier);
        glFinish();
        host_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
                  (2000 / c.k * c.k);
      }
      std::printf("GL floor, %-32s query %6.2f us | host clock, 2000 queued: %.2f us per dispatch\n", c.what,
                  median(us), host_us);
    }
  }
  std::fflush(stdout);
  glDeleteQueries(runs, queries.data());
  glDeleteBuffers(1, &buffer);
  glDeleteBuffers(1, &buffer2);
  glDeleteProgram(program);
  glDeleteProgram(other);
}

// The median over `runs` frames of `dispatch_frame` (which makes `per` timed dispatches), after 300 ms of
// warm-up; prints each kernel's median.
double frame_us(const std::function<void()>& dispatch_frame, std::size_t per, DispatchTimers& timers, int runs) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(300)) {
    dispatch_frame();
    glFinish();
  }
  timers.take();
  for (int r = 0; r < runs; ++r) dispatch_frame();
  glFinish();
  std::vector<TimingRecord> records = timers.take();
  for (int tries = 0; tries < 100 && records.size() < per * static_cast<std::size_t>(runs); ++tries) {
    glFinish();
    auto more = timers.take();
    records.insert(records.end(), more.begin(), more.end());
  }
  std::vector<double> us;
  std::map<std::string, std::vector<double>> by_kernel;
  for (std::size_t i = 0; i + per <= records.size(); i += per) {
    double frame = 0;
    for (std::size_t j = i; j < i + per; ++j) {
      frame += records[j].milliseconds * 1e3;
      by_kernel[records[j].kernel].push_back(records[j].milliseconds * 1e3);
    }
    us.push_back(frame);
  }
  for (auto& [kernel, times] : by_kernel) std::printf("    %-28s %8.1f us\n", kernel.c_str(), median(times));
  return median(us);
}

// Median GPU time of one display frame (fixed range: the columns and one row pass; routed: its
// passes), its dispatches counted on a first frame.
double display_frame_us(GlFastDisplay& display, DispatchTimers& timers, std::size_t w, std::size_t h, int runs) {
  const SpectrumSettings settings = fixed_range_settings(w, h);
  timers.take();
  display.dispatch_display(settings);
  glFinish();
  std::size_t per = timers.take().size();
  for (int tries = 0; tries < 100 && per == 0; ++tries) {
    glFinish();
    per = timers.take().size();
  }
  return frame_us([&] { display.dispatch_display(settings); }, per, timers, runs);
}

// FFTSCOPE_GL_DELIVERY=1: what delivering a W x H display to a window's GL_RGBA8 texture costs
// (real_display_to_gl_texture): GlFastDisplay::copy_to_texture's way by 16 x 16 tiles against a
// pixel-unpack upload from the same buffer and a texture-to-texture
// glCopyImageSubData (the delivery while the display rows wrote a texture), each by
// GL_TIME_ELAPSED and by the host's clock over 20 copies and a glFinish.
void measure_delivery(ProgramCache& programs, std::size_t w, std::size_t h, int runs) {
  std::vector<GLuint> queries(static_cast<std::size_t>(runs));
  glGenQueries(runs, queries.data());
  GlFastDisplay display(programs, nullptr);
  display.prepare(w, h);
  display.upload(RealImage(w, h));
  display.dispatch_display(fixed_range_settings(w, h));
  GLuint textures[2] = {0, 0};
  glGenTextures(2, textures);
  for (GLuint t : textures) {
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, static_cast<GLsizei>(w), static_cast<GLsizei>(h));
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  display.copy_to_texture(textures[0]);  // the measured choice, printed below
  const char* chosen = display.texture_copy() == GlFastDisplay::TextureCopy::tiles ? "tiles" : "upload";
  display.set_texture_copy(GlFastDisplay::TextureCopy::tiles);
  const GLuint pixels = display.pixel_buffer();
  const std::pair<const char*, std::function<void()>> ways[] = {
      {"compute copy by tiles", [&] { display.copy_to_texture(textures[0]); }},
      {"pixel-unpack upload",
       [&] {
         glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixels);
         glBindTexture(GL_TEXTURE_2D, textures[0]);
         glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
         glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(w), static_cast<GLsizei>(h), GL_RGBA,
                         GL_UNSIGNED_BYTE, nullptr);
         glBindTexture(GL_TEXTURE_2D, 0);
         glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
       }},
      {"texture to texture",
       [&] {
         glCopyImageSubData(textures[1], GL_TEXTURE_2D, 0, 0, 0, 0, textures[0], GL_TEXTURE_2D, 0, 0, 0, 0,
                            static_cast<GLsizei>(w), static_cast<GLsizei>(h), 1);
       }}};
  for (const auto& [what, copy] : ways) {
    const double query_us = warmed_median_us(copy, queries);
    glFinish();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 20; ++i) copy();
    glFinish();
    const double wall_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / 20;
    std::printf("GL display delivery %zux%zu, %s: %.1f us (GL_TIME_ELAPSED), %.1f us (host clock)\n", w, h, what,
                query_us, wall_us);
  }
  std::printf("GL display delivery %zux%zu: copy_to_texture's first copy chose the %s\n", w, h, chosen);
  glDeleteTextures(2, textures);
  glDeleteQueries(runs, queries.data());
}

// FFTSCOPE_GL_DISPLAY_TRIGGER=all, or a candidate's index: NVIDIA's GL ran later dispatches 2-5x
// slower once measured planning had timed a few display candidates (docs/fast_path.md). Per
// size: the default display, then each candidate of fast::measure_display_candidates (or the
// one named) as a display of its own, each followed by the default display again, so the first
// candidate after which the default slows down is the one that starts it. `half`: the default
// display, then the half spectrum's passes (R2C rows, then columns) on the same prepared display,
// each per kernel: the two orders of the real path's passes side by side.
void measure_display_trigger(ProgramCache& programs, DispatchTimers& timers, std::size_t w, std::size_t h, int runs,
                             const std::string& which) {
  const auto candidates = fast::measure_display_candidates(fast::gl_default_tuning(), true);
  RealImage image(w, h);
  for (std::size_t i = 0; i < image.data.size(); ++i) image.data[i] = static_cast<float>((i * 7919) % 251) / 251.0f;
  GlFastDisplay reference(programs, &timers);
  reference.prepare(w, h);
  reference.upload(image);
  std::printf("display %zux%zu default: %.1f us (%s)\n", w, h, display_frame_us(reference, timers, w, h, runs),
              reference.describe().c_str());
  if (which == "half") {
    // The half spectrum's two passes (R2C rows, then the W/2 + 1 columns) on the same image.
    std::printf("  half spectrum: %.1f us (%s | %s)\n",
                frame_us([&] { reference.dispatch_half_spectrum(); }, 2, timers, runs),
                reference.row_plan().describe().c_str(), reference.col_plan().describe().c_str());
    return;
  }
  if (which == "measure") {
    // The backend's own measured planning (each candidate beside the base, paired_median_ms;
    // FFTSCOPE_PLANNING_LOG=1 prints each), then both displays timed as above.
    GlFastDisplay measured(programs, &timers, fast::gl_default_tuning(), fast::Measuring{candidates, nullptr, "probe"});
    measured.prepare(w, h);
    measured.upload(image);
    std::printf("  measured: %.1f us (%s); default after it: %.1f us\n",
                display_frame_us(measured, timers, w, h, runs), measured.describe().c_str(),
                display_frame_us(reference, timers, w, h, runs));
    return;
  }
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (which != "all" && std::to_string(c) != which) continue;
    double us = 0;
    std::string plan;
    {
      GlFastDisplay candidate(programs, &timers, candidates[c]);
      candidate.prepare(w, h);
      candidate.upload(image);
      us = display_frame_us(candidate, timers, w, h, runs);
      plan = candidate.describe();
    }
    std::printf("  candidate %zu: %.1f us (%s); default after it: %.1f us\n", c, us, plan.c_str(),
                display_frame_us(reference, timers, w, h, runs));
  }
}

// Synthetic groups that hold `shared_bytes` of shared memory and spin ~20k cycles: how many GL
// keeps resident per multiprocessor for a given group size and shared-memory use.
void measure_occupancy() {
  const GLuint records = make_record_buffer();
  GLint sms = 132;
  glGetIntegerv(0x933B /* GL_SM_COUNT_NV */, &sms);
  for (GLuint threads : {128u, 256u, 512u, 1024u}) {
    for (GLuint shared_bytes : {0u, 8192u, 16384u, 24576u, 32768u, 40960u, 49152u}) {
      const GLuint words = std::max(1u, shared_bytes / 4);
      const std::string text =
          "#version 430 core\n#extension GL_ARB_shader_clock : require\n#extension GL_NV_shader_thread_group : require\n"
          "layout(local_size_x = " + std::to_string(threads) + ") in;\nshared float sh[" + std::to_string(words) +
          "];\nlayout(std430, binding = 7) buffer R { uint rec[]; };\n"
          "void main() {\n uint slot = 0u;\n uint me = gl_LocalInvocationIndex;\n"
          " if (me == 0u) { slot = atomicAdd(rec[0], 1u); rec[4u + 4u * slot] = gl_SMIDNV;"
          " rec[5u + 4u * slot] = clock2x32ARB().x; rec[7u + 4u * slot] = gl_NumWorkGroups.x; }\n"
          " for (uint i = me; i < " + std::to_string(words) + "u; i += " + std::to_string(threads) + "u) sh[i] = float(i);\n"
          " barrier();\n float acc = sh[(me * 7u) % " + std::to_string(words) + "u];\n"
          " uint t0 = clock2x32ARB().x;\n while (clock2x32ARB().x - t0 < 20000u) acc = acc * 1.0001 + 0.5;\n"
          " barrier();\n if (me == 0u) { rec[6u + 4u * slot] = clock2x32ARB().x; if (acc == 12345.0) rec[1] = 1u; }\n}\n";
      const GLuint program = compute_program(text, "occupancy");
      if (!program) {
        glDeleteBuffers(1, &records);
        return;
      }
      glUseProgram(program);
      const GLuint groups = static_cast<GLuint>(sms) * 24;
      for (int warm = 0; warm < 3; ++warm) {
        clear_records(records);
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
      }
      report_residency("synthetic " + std::to_string(threads) + " invocations, " + std::to_string(shared_bytes) +
                           " B shared",
                       read_records(records));
      glDeleteProgram(program);
    }
  }
  glDeleteBuffers(1, &records);
}

// FFTSCOPE_GL_PM=N: pm_stretches.h's stretches of GL's fast passes, each axis's own passes alone
// (the caller turns the timers off: their queries would sit between the dispatches).
void pm_segments(const GlFastPath& fast_path, GLuint buffer, GLuint texture, std::size_t width, std::size_t height,
                 int n) {
  const GlFastAxis& rows = fast_path.fast_axis(Axis::rows);
  const GlFastAxis& cols = fast_path.fast_axis(Axis::cols);
  // Whichever axis comes next reads after either barrier.
  const unsigned barrier = rows.read_barrier() | cols.read_barrier();
  test::pm_stretches(
      width, height, n,
      [&](bool with_rows, bool with_cols, bool inverse) {
        const Direction direction = inverse ? Direction::inverse : Direction::forward;
        if (with_rows) rows.dispatch(buffer, buffer, fast_path.scratch(), direction, texture, texture, barrier);
        if (with_cols) cols.dispatch(buffer, buffer, fast_path.scratch(), direction, texture, texture, barrier);
      },
      [] { glFinish(); });
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 50;
  std::vector<std::pair<std::size_t, std::size_t>> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else {
      std::size_t w = 0, h = 0;
      if (std::sscanf(a.c_str(), "%zux%zu", &w, &h) == 2) sizes.emplace_back(w, h);
    }
  }
  if (sizes.empty()) sizes = {{4096, 4096}};
  try {
    auto context = EglContext::create();
    context->make_current();
    std::printf("GL: %s (%s)\n", current_gl_description().c_str(), context->platform().c_str());
    const char* dir = std::getenv("FFTSCOPE_SHADER_DIR");
    ProgramCache programs(SourceFiles({}, dir ? dir : FFTSCOPE_TEST_SOURCE_DIR "/shaders"), "#version 430 core");
    DispatchTimers timers(DispatchTimers::Mode::gpu);
    if (const char* copy = std::getenv("FFTSCOPE_GL_COPY"))  // its value: MiB to copy (128 where not a number)
      measure_copy(GLsizeiptr{std::atoi(copy) > 0 ? std::atoi(copy) : 128} << 20, runs);
    if (std::getenv("FFTSCOPE_GL_OCCUPANCY")) measure_occupancy();
    if (const char* strided = std::getenv("FFTSCOPE_GL_STRIDED"))
      std::string(strided) == "pointer"     ? measure_pointers(runs)
      : std::string(strided) == "tiles"     ? measure_tiles(runs)
      : std::string(strided) == "placement" ? measure_placement(runs)
      : std::string(strided) == "display" ? measure_placement(runs, true)
      : std::string(strided) == "slabs"   ? measure_slabs(runs)
      : std::string(strided) == "paired"  ? measure_paired(runs)
      : std::string(strided) == "columns" ? measure_strided(runs, test::column_pattern_cases())
                                          : measure_strided(runs);
    if (const char* timeline = std::getenv("FFTSCOPE_GL_TIMELINE")) {
      for (auto [w, h] : sizes) measure_timeline(programs, w, h, std::atof(timeline) > 0 ? std::atof(timeline) : 5);
      return 0;
    }
    if (std::getenv("FFTSCOPE_GL_AFTER")) {
      for (auto [w, h] : sizes) measure_after(programs, w, h, runs);
      return 0;
    }
    if (std::getenv("FFTSCOPE_GL_EMPTY")) measure_empty(runs);
    if (std::getenv("FFTSCOPE_GL_MICRO")) measure_micro(runs);
    if (const char* ladder = std::getenv("FFTSCOPE_GL_LADDER")) measure_ladder(runs, ladder);
    if (std::getenv("FFTSCOPE_GL_FLOOR")) measure_floor(runs);
    if (std::getenv("FFTSCOPE_GL_GATHER")) measure_gather(runs);
    if (std::getenv("FFTSCOPE_GL_IMAGESTORE")) measure_image_store(runs);
    if (std::getenv("FFTSCOPE_GL_DELIVERY")) {
      for (auto [w, h] : sizes) measure_delivery(programs, w, h, runs);
      return 0;
    }
    if (const char* which = std::getenv("FFTSCOPE_GL_DISPLAY_TRIGGER")) {
      for (auto [w, h] : sizes) measure_display_trigger(programs, timers, w, h, runs, which);
      return 0;
    }
    std::printf("%-11s %10s %10s %10s %9s %9s %11s\n", "size", "rows_us", "cols_us", "total_us", "rows_GB/s",
                "cols_GB/s", "rel_l2_err");
    for (auto [w, h] : sizes) {
      GlFastPath fast_path(programs, &timers);
      if (!fast_path.supports(w, h)) {
        std::printf("%zux%zu: not supported\n", w, h);
        continue;
      }
      fast_path.prepare(w, h);
      std::printf("plan: %s\nplan: %s\n", fast_path.route(Axis::rows).describe().c_str(),
                  fast_path.route(Axis::cols).describe().c_str());
      // FFTSCOPE_GL_DUMP=dir: write each program's binary (NVIDIA's holds its assembly text).
      if (const char* dump = std::getenv("FFTSCOPE_GL_DUMP")) {
        for (Axis axis : {Axis::rows, Axis::cols}) {
          const GLuint id = fast_path.program_id(axis);
          GLint length = 0;
          glGetProgramiv(id, GL_PROGRAM_BINARY_LENGTH, &length);
          std::vector<char> binary(static_cast<std::size_t>(std::max(length, 0)));
          GLenum format = 0;
          if (length > 0) glGetProgramBinary(id, length, nullptr, &format, binary.data());
          const std::string path = std::string(dump) + "/" + to_string(axis) + "_" + std::to_string(w) + "x" +
                                   std::to_string(h) + ".bin";
          if (FILE* f = std::fopen(path.c_str(), "wb")) {
            std::fwrite(binary.data(), 1, binary.size(), f);
            std::fclose(f);
          }
        }
      }
      const auto input = test::random_complex(w * h, w + 7 * h);
      std::vector<Complex> data = test::to_float(input);
      const auto bytes = static_cast<GLsizeiptr>(data.size() * sizeof(Complex));
      const GLuint buffer = make_buffer(bytes, data.data());
      const BufferTexture buffer_texture(buffer);
      const GLuint texture = buffer_texture.id();
      const GLuint result = run_fast(fast_path, buffer, texture, Direction::forward);
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
      glBindBuffer(GL_SHADER_STORAGE_BUFFER, result);
      glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, bytes, data.data());
      const double error = test::relative_l2_error(data, test::fftw_2d(input, w, h, Direction::forward));
      // Timed dispatches per transform, as this one ran them (one per direct axis, two for a
      // Bluestein or four-step axis, none for length 1), so that a route of other passes is
      // grouped right.
      glFinish();
      if (const char* pm = std::getenv("FFTSCOPE_GL_PM")) {
        timers.take();  // the accuracy run's records, not wanted here
        timers.set_enabled(false);
        std::printf("%zux%zu rel_l2_err %.3g\n", w, h, error);
        pm_segments(fast_path, buffer, texture, w, h, std::atoi(pm));
        timers.set_enabled(true);
        glDeleteBuffers(1, &buffer);
        continue;
      }
      const std::size_t per = timers.take().size();
      if (std::getenv("FFTSCOPE_GL_RESIDENCY")) {
        const GLuint records = make_record_buffer();
        for (int warm = 0; warm < 3; ++warm) {
          clear_records(records);
          run_fast(fast_path, buffer, texture, Direction::forward);
        }
        const auto all = read_records(records);
        // Slots are taken in dispatch order: the rows' groups first.
        const std::size_t row_groups = all.empty() ? 0 : all[0].groups;
        const std::string name = std::to_string(w) + "x" + std::to_string(h);
        report_residency(name + " rows", std::vector<GroupRecord>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min(row_groups, all.size()))));
        report_residency(name + " cols", std::vector<GroupRecord>(all.begin() + static_cast<std::ptrdiff_t>(std::min(row_groups, all.size())), all.end()));
        glDeleteBuffers(1, &records);
      }
      // Warm-up by time, not count: the GPU's clocks ramp up over a fraction of a second, and
      // a short warm-up on an idle GPU measured up to 1.7x slower.
      {
        GlFastPath untimed(programs, nullptr);
        untimed.prepare(w, h);
        const auto start = std::chrono::steady_clock::now();
        while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1000)) {
          run_fast(untimed, buffer, texture, Direction::forward);
          run_fast(untimed, buffer, texture, Direction::inverse);
          glFinish();
        }
      }
      // A timed transform and its inverse whose records are dropped: where the GPU timer reads
      // nothing (llvmpipe) the timers switch to the host clock on their first reading, which
      // would otherwise be this size's records, printed as 0.
      run_fast(fast_path, buffer, texture, Direction::forward);
      run_fast(fast_path, buffer, texture, Direction::inverse);
      glFinish();
      timers.take();
      std::vector<double> rows_ms, cols_ms, total_ms;
      for (int r = 0; r < runs + 20; ++r) {
        run_fast(fast_path, buffer, texture, Direction::forward);
        run_fast(fast_path, buffer, texture, Direction::inverse);  // keeps the values bounded
      }
      glFinish();
      std::vector<TimingRecord> records = timers.take();
      for (int tries = 0; tries < 100 && records.size() < 2 * per * static_cast<std::size_t>(runs + 20); ++tries) {
        glFinish();
        auto more = timers.take();
        records.insert(records.end(), more.begin(), more.end());
      }
      // Forward transforms only (every other one), after the warm-up; per axis, the sum of its
      // dispatches.
      std::vector<std::pair<std::string, std::vector<double>>> by_dispatch(per);
      for (std::size_t i = 0; per > 0 && i + per <= records.size(); i += 2 * per) {
        if (i / (2 * per) < 20) continue;
        for (std::size_t j = 0; j < per; ++j) {
          by_dispatch[j].first = records[i + j].kernel;
          by_dispatch[j].second.push_back(records[i + j].milliseconds);
        }
        double row_t = 0, col_t = 0;
        for (std::size_t j = i; j < i + per; ++j)
          (records[j].axis == Axis::rows ? row_t : col_t) += records[j].milliseconds;
        rows_ms.push_back(row_t);
        cols_ms.push_back(col_t);
        total_ms.push_back(row_t + col_t);
      }
      // Host clock around many transforms (no queries), as a check on the GL timer: the
      // average of forward and inverse, dispatch overhead included.
      GlFastPath untimed(programs, nullptr);
      untimed.prepare(w, h);
      // A freshly prepared path's first transforms carry once-only costs (H200, GL 4000^2 in four
      // steps: a wall of 283 us over 100 runs, 251 over 400, against spans of 248 / 242), which
      // the wall would otherwise spread over its runs.
      for (int r = 0; r < 20; ++r) {
        run_fast(untimed, buffer, texture, Direction::forward);
        run_fast(untimed, buffer, texture, Direction::inverse);
      }
      glFinish();
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < runs; ++r) {
        run_fast(untimed, buffer, texture, Direction::forward);
        run_fast(untimed, buffer, texture, Direction::inverse);
      }
      glFinish();
      const double wall_us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / (2.0 * runs);
      // The forward transform's span: one GL_TIME_ELAPSED query around all its dispatches (launch
      // gaps included), as cuFFT's events span its whole transform. The inverse's too, since the
      // wall above averages both: a wall far above the forward span is then either a slow inverse
      // or host time.
      std::vector<GLuint> queries(static_cast<std::size_t>(runs)), inverse_queries(queries.size());
      glGenQueries(static_cast<GLsizei>(queries.size()), queries.data());
      glGenQueries(static_cast<GLsizei>(inverse_queries.size()), inverse_queries.data());
      for (std::size_t r = 0; r < queries.size(); ++r) {
        glBeginQuery(GL_TIME_ELAPSED, queries[r]);
        run_fast(untimed, buffer, texture, Direction::forward);
        glEndQuery(GL_TIME_ELAPSED);
        glBeginQuery(GL_TIME_ELAPSED, inverse_queries[r]);
        run_fast(untimed, buffer, texture, Direction::inverse);
        glEndQuery(GL_TIME_ELAPSED);
      }
      const std::vector<double> span_us = elapsed_us(queries);
      const std::vector<double> inverse_span_us = elapsed_us(inverse_queries);
      glDeleteQueries(static_cast<GLsizei>(queries.size()), queries.data());
      glDeleteQueries(static_cast<GLsizei>(inverse_queries.size()), inverse_queries.data());
      if (std::getenv("FFTSCOPE_GL_HEADSTART")) {
        const std::string name = std::to_string(w) + "x" + std::to_string(h);
        measure_headstart(name + " untimed", untimed, buffer, texture, runs);
        // As the bench's backend holds it: a timer object, off during the transform's dispatches.
        DispatchTimers off(DispatchTimers::Mode::gpu);
        off.set_enabled(false);
        GlFastPath with_timers(programs, &off);
        with_timers.prepare(w, h);
        measure_headstart(name + " timers off", with_timers, buffer, texture, runs);
      }
      glDeleteBuffers(1, &buffer);
      const double b = 2.0 * static_cast<double>(w * h * sizeof(Complex));
      const double rm = median(rows_ms), cm = median(cols_ms);
      // A span under 0.1 us is a GPU timer that measures nothing (llvmpipe's read 0 or 1 ns, the
      // timers' threshold), not a time.
      const auto span_text = [](const std::vector<double>& us) {
        const double m = median(us);
        if (m < 0.1) return std::string("n/a");
        char text[32];
        std::snprintf(text, sizeof text, "%.1f us", m);
        return std::string(text);
      };
      std::printf("%-11s %10.1f %10.1f %10.1f %9.0f %9.0f %11.2e  wall %.1f us/transform, span %s (inverse %s)%s\n",
                  (std::to_string(w) + "x" + std::to_string(h)).c_str(), rm * 1e3, cm * 1e3, median(total_ms) * 1e3,
                  b / (rm * 1e6), b / (cm * 1e6), error, wall_us, span_text(span_us).c_str(),
                  span_text(inverse_span_us).c_str(), records.empty() || records[0].host_measured ? " (host-timed)" : "");
      if (by_dispatch.size() > 2)  // a Bluestein or four-step axis: each pass on its own
        for (auto& [name, ms] : by_dispatch)
          if (!ms.empty()) std::printf("  pass %-44s %10.1f us\n", name.c_str(), median(ms) * 1e3);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fast_probe_gl: %s\n", e.what());
    return 1;
  }
  return 0;
}
