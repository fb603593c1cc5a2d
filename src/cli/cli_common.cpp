#include "cli/cli_common.h"

#include "core/validate.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>

namespace fftscope::cli {

namespace fs = std::filesystem;

std::string quote_path(const std::string& path) { return "'" + path + "'"; }

std::vector<OptionSpec> backend_option_specs() {
  return {
      {"--backend", "", "cpu|gl|cl", "compute backend (default cpu)"},
      {"--variant", "", "NAME", "GPU kernel variant: plain, optimized, fused (default) or fast"},
      {"--shader-dir", "", "DIR", "gl: read the GLSL shaders from DIR instead of the embedded copies"},
      {"--kernel-dir", "", "DIR", "cl: read the OpenCL kernels from DIR instead of the embedded copies"},
      {"--cl-device", "", "ID", "cl: 'platform:device' (see 'fftscope-cli devices') or a name fragment"},
      {"--planning", "", "estimate|measure", "gl, cl with --variant fast: estimate (default) takes the built-in "
                                             "layouts; measure times a few layouts per axis on the device when a "
                                             "size is prepared and keeps the fastest"},
  };
}

std::vector<OptionSpec> input_option_specs() {
  return {
      {"--channel", "", "luma|r|g|b", "image channel (default luma = 0.2126 R + 0.7152 G + 0.0722 B); NPY inputs ignore it"},
      {"--max-pixels", "", "N", "refuse inputs with more than N pixels (default " +
                                    std::to_string(default_max_pixels) + ")"},
  };
}

OptionSpec max_radix_option_spec() {
  return {"--max-radix", "", "2|4|8", "largest power-of-two radix in the plan (default 4)"};
}

std::string naming(const std::string& path, const std::string& message) {
  if (message.find(path) != std::string::npos) return message;
  return quote_path(path) + ": " + message;
}

bool parse_planning(const ParsedArgs& args) {
  return require_one_of(args.get_or("--planning", "estimate"), "--planning", {"estimate", "measure"}) == "measure";
}

BackendChoice parse_backend_choice(const ParsedArgs& args) {
  BackendChoice choice;
  choice.kind = parse_backend(args.get_or("--backend", "cpu"));
  if (auto v = args.get("--variant")) choice.variant = parse_variant(*v);

  auto source_dir = [&](const char* option, BackendKind owner) {
    auto dir = args.get(option);
    if (!dir) return;
    if (choice.kind != owner) {
      throw UsageError(std::string(option) + " applies to --backend " + to_string(owner) +
                       ", not --backend " + to_string(choice.kind));
    }
    std::error_code ec;
    if (!fs::is_directory(*dir, ec)) throw InputError(quote_path(*dir) + ": not a folder (given to " + option + ")");
    choice.options.source_dir = *dir;
  };
  source_dir("--shader-dir", BackendKind::gl);
  source_dir("--kernel-dir", BackendKind::cl);

  if (auto d = args.get("--cl-device")) {
    if (choice.kind != BackendKind::cl) {
      throw UsageError("--cl-device applies to --backend cl, not --backend " + to_string(choice.kind));
    }
    choice.options.cl_device = *d;
  }
  choice.options.measure_fast_plans = parse_planning(args);
  if (args.has("--planning") && (choice.kind == BackendKind::cpu || choice.variant != KernelVariant::fast))
    throw UsageError("--planning applies to --backend gl or cl with --variant fast");
  return choice;
}

std::unique_ptr<Backend> open_backend(const BackendChoice& choice) {
  try {
    return make_backend(choice.kind, choice.options);
  } catch (const BackendError& e) {
    throw BackendError("backend '" + to_string(choice.kind) + "' is not available: " + e.what());
  }
}

PlanOptions parse_plan_options(const ParsedArgs& args) {
  PlanOptions options;
  const std::string r = require_one_of(args.get_or("--max-radix", "4"), "--max-radix", {"2", "4", "8"});
  options.max_power_of_two_radix = static_cast<std::uint32_t>(std::stoul(r));
  return options;
}

std::size_t parse_max_pixels(const ParsedArgs& args) {
  auto v = args.get("--max-pixels");
  if (!v) return default_max_pixels;
  return static_cast<std::size_t>(
      parse_integer(*v, "--max-pixels", 1, std::numeric_limits<std::uint32_t>::max()));
}

ImageLoadOptions parse_load_options(const ParsedArgs& args) {
  ImageLoadOptions options;
  if (auto c = args.get("--channel")) options.channel = parse_channel(*c);
  options.max_pixels = parse_max_pixels(args);
  return options;
}

ComplexImage load_cli_input(const std::string& path, const ImageLoadOptions& options) {
  std::error_code ec;
  // Checked here so that a folder or a missing file gets the same clear line whatever the loader says.
  if (!fs::exists(path, ec)) throw InputError(quote_path(path) + ": no such file");
  if (fs::is_directory(path, ec)) throw InputError(quote_path(path) + ": is a folder, not a file");
  ComplexImage image;
  try {
    image = load_input(path, options);
  } catch (const InputError& e) {
    throw InputError(naming(path, e.what()));
  }
  // Refused here, with the memory it would need, rather than inside a driver's allocation.
  check_memory_limit(image.width, image.height, configured_memory_limit(), path, "FFTSCOPE_MEMORY_LIMIT_MB");
  return image;
}

void check_fits_device(const Backend& backend, std::size_t width, std::size_t height, const std::string& path) {
  DeviceMemoryLimit limit = backend.memory_limit();
  if (const std::uint64_t configured = configured_memory_limit(); configured != 0) {
    limit.total = configured;
    limit.total_source = "FFTSCOPE_MEMORY_LIMIT_MB";
  }
  check_device_memory(width, height, limit, path);
}

ComplexImage transform_checked(Backend& backend, const Plan2D& plan, const ComplexImage& input,
                               const std::string& path, Direction direction, KernelVariant variant, StageStop stop) {
  check_fits_device(backend, input.width, input.height, path);
  ComplexImage result = run_transform(backend, plan, input, direction, variant, stop);
  // Finite input can still overflow float32 (values near 3e38): say so instead of writing inf.
  check_finite(result, path, "the transform");
  return result;
}

std::string require_output(const ParsedArgs& args, const std::string& extension) {
  auto out = args.get("--output");
  if (!out || out->empty()) throw UsageError("missing -o " + std::string("OUT") + extension);
  std::string lower = *out;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower.size() <= extension.size() || lower.compare(lower.size() - extension.size(), extension.size(), extension) != 0) {
    throw UsageError("output '" + *out + "' must end in " + extension);
  }
  std::error_code ec;
  const fs::path p(*out);
  const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec)) {
    throw OutputError(quote_path(*out) + ": cannot write, '" + parent.string() + "' " +
                      (fs::exists(parent, ec) ? "is not a folder" : "does not exist"));
  }
  if (fs::is_directory(p, ec)) throw OutputError(quote_path(*out) + ": cannot write, it is a folder");
  return *out;
}

}  // namespace fftscope::cli
