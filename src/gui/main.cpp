// fftscope: the interactive visualizer. Parses the command line and runs the window.

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "core/errors.h"
#include "gui/app.h"
#include "gui/options.h"

int main(int argc, char** argv) {
  using namespace fftscope;
  try {
    const gui::GuiOptions options = gui::parse_gui_options(std::vector<std::string>(argv + 1, argv + argc));
    if (options.help) {
      std::fputs(gui::gui_usage().c_str(), stdout);
      return exit_ok;
    }
    return gui::run_app(options);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "fftscope: %s\n", e.what());
    return exit_usage;
  } catch (const InputError& e) {
    std::fprintf(stderr, "fftscope: %s\n", e.what());
    return exit_bad_input;
  } catch (const OutputError& e) {
    std::fprintf(stderr, "fftscope: %s\n", e.what());
    return exit_output_failed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fftscope: %s\n", e.what());
    return exit_backend_unavailable;
  }
}
