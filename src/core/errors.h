#pragma once
// Exceptions for the failures a user can cause or meet; each maps to one CLI exit code.

#include <stdexcept>
#include <string>

namespace fftscope {

/// Exit codes of fftscope-cli (and of the GUI's test mode).
enum ExitCode : int {
  exit_ok = 0,
  exit_usage = 2,
  exit_bad_input = 3,
  exit_backend_unavailable = 4,
  exit_output_failed = 5,
};

/// Malformed command line or settings.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// An input file that cannot be read or is not valid (message names the file and the reason).
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// A GPU API that is missing, or failed: compile logs, allocation failures, driver errors.
struct BackendError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// An output file that could not be written.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace fftscope
