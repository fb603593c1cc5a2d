// fftscope-cli devices: the backends of this build and the devices each can run on.

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/cli_common.h"
#include "core/json.h"
#include "cli/commands.h"

namespace fftscope::cli {

CommandSpec devices_spec() {
  CommandSpec spec;
  spec.name = "devices";
  spec.summary = "Lists the compute backends and their devices (ids for --cl-device).";
  spec.options = {{"--json", "", "", "print JSON instead of a table"}};
  return spec;
}

namespace {


}  // namespace

int run_devices(const ParsedArgs& args) {
  std::vector<DeviceInfo> devices = list_devices();
  const std::vector<BackendKind> compiled = compiled_backends();
  // Backends left out of the build are listed too, so the user learns why --backend X fails.
  for (BackendKind kind : {BackendKind::gl, BackendKind::cl}) {
    if (std::find(compiled.begin(), compiled.end(), kind) != compiled.end()) continue;
    DeviceInfo info;
    info.backend = kind;
    info.name = "(not compiled in)";
    info.detail = std::string("rebuild with -DFFTSCOPE_WITH_") + (kind == BackendKind::gl ? "GL" : "CL") + "=ON";
    info.available = false;
    devices.push_back(info);
  }

  if (args.has("--json")) {
    std::cout << "[";
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const DeviceInfo& d = devices[i];
      std::cout << (i ? ",\n " : "\n ") << "{\"backend\": " << json_string(to_string(d.backend))
                << ", \"id\": " << json_string(d.id) << ", \"name\": " << json_string(d.name)
                << ", \"available\": " << (d.available ? "true" : "false")
                << ", \"detail\": " << json_string(d.detail) << "}";
    }
    std::cout << "\n]\n";
    return 0;
  }

  std::printf("%-7s %-8s %-11s %s\n", "backend", "id", "available", "device");
  for (const DeviceInfo& d : devices) {
    std::printf("%-7s %-8s %-11s %s\n", to_string(d.backend).c_str(), d.id.empty() ? "-" : d.id.c_str(),
                d.available ? "yes" : "no", d.name.c_str());
    if (!d.detail.empty()) std::printf("%-28s %s\n", "", d.detail.c_str());
  }
  return 0;
}

}  // namespace fftscope::cli
