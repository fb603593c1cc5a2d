#pragma once
// What several subcommands share: backend selection, plan options, loading INPUT, checking
// the output path, and making every error message name its file.

#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "cli/cli_args.h"
#include "core/errors.h"
#include "core/image_io.h"
#include "core/plan.h"

namespace fftscope::cli {

/// Option groups, appended to a subcommand's own options.
std::vector<OptionSpec> backend_option_specs();   ///< --backend, --variant, --shader-dir, --kernel-dir, --cl-device
std::vector<OptionSpec> input_option_specs();     ///< --channel, --max-pixels
OptionSpec max_radix_option_spec();               ///< --max-radix

/// Which backend to open and how (from --backend, --shader-dir/--kernel-dir, --cl-device).
struct BackendChoice {
  BackendKind kind = BackendKind::cpu;
  BackendOptions options;
  KernelVariant variant = KernelVariant::fused;
};
/// Throws UsageError for unknown names or a source folder for the other backend, InputError
/// when the --shader-dir/--kernel-dir folder does not exist.
BackendChoice parse_backend_choice(const ParsedArgs& args);
/// --planning estimate|measure (default estimate): true for measure. Throws UsageError.
bool parse_planning(const ParsedArgs& args);

/// Creates the backend; a BackendError becomes "backend 'gl' is not available: <reason>".
std::unique_ptr<Backend> open_backend(const BackendChoice& choice);

/// --max-radix 2|4|8 (default 4). Throws UsageError.
PlanOptions parse_plan_options(const ParsedArgs& args);
/// --max-pixels (default core's limit), shared by image decoding and --size.
std::size_t parse_max_pixels(const ParsedArgs& args);
/// --channel and --max-pixels. Throws UsageError.
ImageLoadOptions parse_load_options(const ParsedArgs& args);

/// Loads INPUT (image or NPY); any InputError message is made to start with the path.
ComplexImage load_cli_input(const std::string& path, const ImageLoadOptions& options);

/// Refuses, before any device allocation, a width x height transform the backend's device cannot
/// hold: InputError naming `path`, the memory needed and the device's figure (a buffer over its
/// largest allocation, or more than its memory; FFTSCOPE_MEMORY_LIMIT_MB, when set, replaces the
/// device's memory figure but not its largest allocation).
void check_fits_device(const Backend& backend, std::size_t width, std::size_t height, const std::string& path);

/// check_fits_device, run_transform, then a check that the result is finite (InputError naming `path` otherwise).
ComplexImage transform_checked(Backend& backend, const Plan2D& plan, const ComplexImage& input,
                               const std::string& path, Direction direction, KernelVariant variant,
                               StageStop stop = StageStop::done());

/// Checks -o before any work is done: present (UsageError), ends in `extension` (UsageError),
/// its folder exists and it is not itself a folder (OutputError). Returns the path.
std::string require_output(const ParsedArgs& args, const std::string& extension);

/// Runs `write` (one of core's atomic write_* calls); an OutputError message is made to name the path.
template <typename Write>
void write_output(const std::string& path, Write&& write);

/// Prefixes "'PATH': " to a message that does not mention PATH yet (core's style).
std::string naming(const std::string& path, const std::string& message);
std::string quote_path(const std::string& path);  ///< 'PATH'

template <typename Write>
void write_output(const std::string& path, Write&& write) {
  try {
    write();
  } catch (const OutputError& e) {
    throw OutputError(naming(path, e.what()));
  }
}

}  // namespace fftscope::cli
