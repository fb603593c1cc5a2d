#include "backend/gl/gl_programs.h"

#include <glad/gl.h>

#include <regex>
#include <sstream>
#include <vector>

#include "core/errors.h"

namespace fftscope::detail {
namespace {

/// The shader text with its includes expanded; files[k] is the name behind line block k.
struct Expanded {
  std::string text;
  std::vector<std::string> files;  // index 0 is the preamble (defines), 1 the shader itself
};

void expand(const SourceFiles& sources, const std::string& name, Expanded& out, int depth) {
  if (depth > 8) throw BackendError(sources.origin(name) + ": includes nested too deeply (a cycle?)");
  const int index = static_cast<int>(out.files.size());
  out.files.push_back(name);
  const std::string text = sources.text(name);
  static const std::regex include_line(R"(^\s*#\s*include\s+"([^"]+)\"\s*$)");
  std::istringstream in(text);
  std::string line;
  int number = 0;
  out.text += "#line " + std::to_string(index * shader_lines_per_file + 1) + "\n";
  while (std::getline(in, line)) {
    ++number;
    std::smatch m;
    if (std::regex_match(line, m, include_line)) {
      expand(sources, m[1].str(), out, depth + 1);
      // Back in this file: the next line is number + 1.
      out.text += "#line " + std::to_string(index * shader_lines_per_file + number + 1) + "\n";
    } else {
      out.text += line;
      out.text += '\n';
    }
  }
}

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

/// Origins of the line blocks of `src`, for map_shader_log.
std::vector<std::string> origins_of(const Expanded& src, const SourceFiles& sources) {
  std::vector<std::string> out{"<prepended #defines>"};
  for (std::size_t k = 1; k < src.files.size(); ++k) out.push_back(sources.origin(src.files[k]));
  return out;
}

}  // namespace

std::string map_shader_log(const std::string& log, const std::vector<std::string>& origins, std::string& first) {
  static const std::regex loc(R"((^|\n)(\s*(?:ERROR:\s*|WARNING:\s*)?)(\d+)(?::(\d+)(?:\((\d+)\))?|\((\d+)\)))");
  std::string out;
  std::string::const_iterator pos = log.begin();
  std::smatch m;
  while (std::regex_search(pos, log.end(), m, loc)) {
    const long encoded = std::stol(m[4].matched ? m[4].str() : m[6].str());
    const auto k = static_cast<std::size_t>(encoded / shader_lines_per_file);
    const std::string line = std::to_string(encoded % shader_lines_per_file);
    const std::string file = k < origins.size() ? origins[k] : "?";
    if (first.empty()) first = file + ":" + line;
    out.append(pos, m[0].first);
    out += m[1].str() + m[2].str() + file + ":" + line + (m[5].matched ? "(" + m[5].str() + ")" : "");
    pos = m[0].second;
  }
  out.append(pos, log.end());
  return out;
}

std::string ProgramKey::describe() const {
  std::string s = shader + " [";
  bool first = true;
  for (const auto& [name, value] : defines) {
    s += (first ? "" : " ") + name + "=" + value;
    first = false;
  }
  return s + "] " + std::to_string(local_x) + "x" + std::to_string(local_y);
}

int Program::location(const std::string& name) {
  auto it = locations.find(name);
  if (it != locations.end()) return it->second;
  const int loc = glGetUniformLocation(id, name.c_str());
  locations.emplace(name, loc);
  return loc;
}

ProgramCache::ProgramCache(SourceFiles files, std::string version_line)
    : files_(std::move(files)), version_line_(std::move(version_line)) {}

ProgramCache::~ProgramCache() { clear(); }

void ProgramCache::clear() {
  for (auto& [key, program] : programs_) glDeleteProgram(program.id);
  programs_.clear();
}

bool ProgramCache::reload_if_changed() {
  if (!files_.changed_since_last_check()) return false;
  clear();
  return true;
}

Program& ProgramCache::get(const ProgramKey& key) {
  auto it = programs_.find(key);
  if (it != programs_.end()) return it->second;

  std::string preamble = "layout(local_size_x = " + std::to_string(key.local_x) +
                         ", local_size_y = " + std::to_string(key.local_y) + ") in;\n";
  for (const auto& [name, value] : key.defines) preamble += "#define " + name + " " + value + "\n";
  Expanded src;
  src.files.push_back("");  // source string 0: the preamble
  expand(files_, key.shader, src, 0);

  const std::string version = version_line_ + "\n";
  const char* strings[] = {version.c_str(), preamble.c_str(), src.text.c_str()};
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 3, strings, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string log = shader_log(shader);
    glDeleteShader(shader);
    std::string where;
    const std::string located = map_shader_log(log, origins_of(src, files_), where);
    if (where.empty()) where = files_.origin(key.shader);
    throw BackendError(where + ": GLSL compile failed (" + key.describe() + ", " + version_line_ + ")\n" + located +
                       "\n--- prepended lines ---\n" + preamble);
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);  // flagged; freed with the program
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string log = program_log(program);
    glDeleteProgram(program);
    std::string where;
    const std::string located = map_shader_log(log, origins_of(src, files_), where);
    if (where.empty()) where = files_.origin(key.shader);
    throw BackendError(where + ": GLSL link failed (" + key.describe() + ")\n" + located +
                       "\n--- prepended lines ---\n" + preamble);
  }
  Program& p = programs_[key];
  p.id = program;
  return p;
}

}  // namespace fftscope::detail
