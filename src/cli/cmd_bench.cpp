// fftscope-cli bench: per-kernel median times of repeated 2D transforms of one size.

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>

#if FFTSCOPE_HAVE_BENCH
#include "bench/bench.h"
#endif
#if FFTSCOPE_HAVE_GL
#include <glad/gl.h>

#include "backend/gl/gl_context.h"
#endif
#include "cli/cli_common.h"
#include "core/image_io.h"
#include "core/json.h"
#include "core/preprocess.h"
#include "core/spectrum.h"
#include "core/timing.h"
#include "cli/commands.h"

namespace fftscope::cli {

CommandSpec bench_spec() {
  CommandSpec spec;
  spec.name = "bench";
  spec.summary = "Times repeated 2D FFTs of a WxH array and prints per-kernel median times and their total.";
  spec.options = {
      {"--size", "", "WxH", "transform size, e.g. 1024x1024 (or N for NxN; required without --sweep)"},
      {"--sweep", "", "", "compare implementations over a size sweep (see below)"},
      {"--sizes", "", "LIST", "with --sweep: comma-separated sizes (default: 256^2..8192^2 and non-powers of two)"},
      {"--impl", "", "LIST", "with --sweep: comma-separated implementations (default: all)"},
      {"--copy-bandwidth", "", "GBS", "with --sweep --json or -o: the measured copy bandwidth in whole GB/s, for the plot's limit line"},
      {"--repeat", "", "R", "measured runs (default 10)"},
      {"--warmup", "", "W", "runs before measuring, not counted (default 2)"},
      {"--warmup-ms", "", "MS", "before the warm-up runs, keep the device busy for at least MS milliseconds and on "
                                "until its times are steady (default 300; 0: no such warming)"},
      {"--rounds", "", "N", "with --sweep: time each entry N times, each with a fresh instance, the implementations "
                            "taking turns, and keep the round with the median time (the faster middle one for an even N; default 1)"},
      {"--fftw-planning-ms", "", "MS", "with --sweep: FFTW's planning time per plan, at most (FFTW_MEASURE; default "
                                       "60000); past it FFTW plans the rest by estimate, and the entry says so"},
      {"--inverse", "", "", "time the inverse transform"},
      {"--json", "", "", "print JSON instead of a table"},
      {"--output", "-o", "OUT.json", "with --sweep: also write the JSON to OUT.json, rewritten (atomically) after every "
                                     "finished entry, so that a sweep cut short keeps the entries it finished"},
      {"--display", "", "", "after each timed transform also deliver the spectrum display into an OpenGL texture "
                            "(gl, cl) and time that path: the display kernels and, for cl, the interop copy"},
      {"--real-display", "", "", "time the real-input display path instead (gl, cl): a real image in, its shifted "
                                 "log-magnitude display out, per kernel, as the window's timers panel shows it"},
      {"--fixed-range", "", "", "with --real-display or --display: colour over the fixed range [0, log(1 + W H)], as the "
                                "sweep's display entries do (no range search); default: each frame's own range, as the "
                                "window shows it"},
      {"--max-pixels", "", "N", "refuse sizes over N pixels (default " + std::to_string(default_max_pixels) + ")"},
      max_radix_option_spec(),
  };
  for (auto& o : backend_option_specs()) spec.options.push_back(o);
  spec.details =
      "The data is uploaded once. Each timed transform is followed by an untimed one in the other\n"
      "direction (the inverse is scaled by 1/N), which restores the data on the device, so the device\n"
      "never waits for the host between runs. Times marked host-measured come from the host clock\n"
      "around a finish, not from a GPU timer (the CPU backend, and GL drivers whose timer queries\n"
      "report nothing meaningful, such as llvmpipe). The total is the sum of the kernel medians, each\n"
      "counted as often as its kernel runs per transform; the wall time is the host clock over all\n"
      "runs divided by their number (one timed and one untimed transform each). --real-display\n"
      "times the real image's display instead, each run one display of the uploaded image with the\n"
      "previous run's range (as video frames take it; --fixed-range: the sweep's fixed range, which\n"
      "folds no range), no opposite transform between.";
  return spec;
}

namespace {


std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

namespace {

/// A GL texture the display path writes into, for `bench --display`. The GL backend draws into
/// its own headless context (current after prepare()); the CL backend needs a GL context made
/// current before it is created, so that it can share with it where the platform allows.
class DisplayTarget {
 public:
#if FFTSCOPE_HAVE_GL
  /// Before the backend exists: a context for the CL backend to share with.
  void make_context_for_cl(BackendChoice& choice) {
    context_ = detail::EglContext::create();
    context_->make_current();
    detail::load_gl_for_current_context(nullptr);
    choice.options.use_current_gl_context = true;
  }
  /// After prepare(): an RGBA8 texture of the transform's size in the current context.
  void make_texture(std::size_t width, std::size_t height) {
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, static_cast<GLsizei>(width), static_cast<GLsizei>(height));
    glBindTexture(GL_TEXTURE_2D, 0);
    if (glGetError() != GL_NO_ERROR) throw BackendError("bench --display: could not make the display texture");
  }
  std::uint32_t texture() const { return texture_; }

 private:
  std::unique_ptr<detail::EglContext> context_;
  GLuint texture_ = 0;
#else
  void make_context_for_cl(BackendChoice&) { unavailable(); }
  void make_texture(std::size_t, std::size_t) { unavailable(); }
  std::uint32_t texture() const { return 0; }

 private:
  [[noreturn]] static void unavailable() {
    throw BackendError("bench --display needs OpenGL, which this fftscope-cli was built without");
  }
#endif
};

#if FFTSCOPE_HAVE_BENCH
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) items.push_back(item);
  return items;
}

int run_sweep(const ParsedArgs& args, int rounds, std::optional<int> fftw_planning_ms) {
  bench::SweepOptions options;
  const std::size_t max_pixels = parse_max_pixels(args);
  if (auto sizes = args.get("--sizes")) {
    for (const std::string& item : split_list(*sizes)) {
      const auto [w, h] = parse_size(item, max_pixels);
      options.sizes.push_back({w, h});
    }
    if (options.sizes.empty()) throw UsageError("--sizes needs at least one WxH");
  } else {
    options.sizes = bench::default_sweep_sizes();
  }
  if (auto impl = args.get("--impl")) {
    const std::vector<std::string> known = bench::implementation_names();
    for (const std::string& name : split_list(*impl)) options.implementations.push_back(require_one_of(name, "--impl", known));
  }
  options.repeats = static_cast<int>(parse_integer(args.get_or("--repeat", "30"), "--repeat", 1, 100000));
  options.warmup = static_cast<int>(parse_integer(args.get_or("--warmup", "5"), "--warmup", 0, 100000));
  options.warmup_ms = static_cast<int>(parse_integer(args.get_or("--warmup-ms", "300"), "--warmup-ms", 0, 600000));
  options.rounds = rounds;
  options.cl_device = args.get_or("--cl-device", "");
  options.measure_fast_plans = parse_planning(args);
  if (fftw_planning_ms) options.fftw_planning_ms = *fftw_planning_ms;
  const double copy_bandwidth =
      static_cast<double>(parse_integer(args.get_or("--copy-bandwidth", "0"), "--copy-bandwidth", 0, 100000));

  const std::string json_path = args.has("--output") ? require_output(args, ".json") : std::string();

  const auto entries = bench::run_sweep(options, [&](const std::vector<bench::BenchEntry>& finished) {
    const bench::BenchEntry& e = finished.back();
    std::fprintf(stderr, "%zux%zu %-22s %s\n", e.size.width, e.size.height, e.implementation.c_str(),
                 e.available ? (std::to_string(e.median_us) + " us").c_str() : ("unavailable: " + e.reason).c_str());
    if (json_path.empty()) return;
    const std::string json = bench::sweep_to_json(finished, copy_bandwidth);
    write_output(json_path, [&] { write_file_atomic(json_path, std::vector<std::uint8_t>(json.begin(), json.end())); });
  });
  std::cout << (args.has("--json") ? bench::sweep_to_json(entries, copy_bandwidth) : bench::sweep_to_table(entries));
  return 0;
}
#else
int run_sweep(const ParsedArgs&, int, std::optional<int>) {
  throw BackendError("bench --sweep is not built into this fftscope-cli (FFTSCOPE_BUILD_BENCH=OFF)");
}
#endif

}  // namespace

int run_bench(const ParsedArgs& args) {
  if (args.has("--sweep")) {
    // Checked before the sweep, so that a bad value is a usage error in every build.
    const auto rounds = static_cast<int>(parse_integer(args.get_or("--rounds", "1"), "--rounds", 1, 100));
    std::optional<int> fftw_planning_ms;  // absent: SweepOptions' default
    if (auto ms = args.get("--fftw-planning-ms"))
      fftw_planning_ms = static_cast<int>(parse_integer(*ms, "--fftw-planning-ms", 1, 3'600'000));
    return run_sweep(args, rounds, fftw_planning_ms);
  }
  if (args.has("--output")) throw UsageError("-o OUT.json is for --sweep");
  if (args.has("--fftw-planning-ms")) throw UsageError("--fftw-planning-ms is for --sweep");
  auto size_text = args.get("--size");
  if (!size_text) throw UsageError("missing --size WxH");
  const auto [width, height] = parse_size(*size_text, parse_max_pixels(args));
  const std::size_t repeat = parse_integer(args.get_or("--repeat", "10"), "--repeat", 1, 100000);
  const std::size_t warmup = parse_integer(args.get_or("--warmup", "2"), "--warmup", 0, 100000);
  const auto warmup_ms = static_cast<double>(parse_integer(args.get_or("--warmup-ms", "300"), "--warmup-ms", 0, 600000));
  const PlanOptions plan_options = parse_plan_options(args);
  BackendChoice choice = parse_backend_choice(args);
  const Direction direction = args.has("--inverse") ? Direction::inverse : Direction::forward;

  ComplexImage input(width, height);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (Complex& c : input.data) c = {uniform(rng), uniform(rng)};

  const bool display = args.has("--display");
  const bool real_display = args.has("--real-display");
  if ((display || real_display) && choice.kind == BackendKind::cpu)
    throw UsageError(std::string(display ? "--display" : "--real-display") +
                     " times a GPU display path: use --backend gl or --backend cl");
  if (real_display && (display || args.has("--inverse")))
    throw UsageError(std::string("--real-display times the display alone: drop ") + (display ? "--display" : "--inverse"));
  const bool any_display = display || real_display;
  const bool fixed_range = args.has("--fixed-range");
  if (fixed_range && !any_display)
    throw UsageError("--fixed-range sets the display's range: add --real-display or --display");
  DisplayTarget target;
  if (display && choice.kind == BackendKind::cl) target.make_context_for_cl(choice);
  auto backend = open_backend(choice);
  check_fits_device(*backend, width, height, *size_text);
  // Shifted log magnitude with each frame's range, what the window shows first; or the sweep's
  // fixed range, under which the display kernels fold no range.
  const SpectrumSettings display_settings = fixed_range ? fixed_range_settings(width, height) : SpectrumSettings{};
  RealDisplayPath real_path = RealDisplayPath::none;
  if (real_display) {
    real_path = backend->real_display_path(width, height);
    if (real_path == RealDisplayPath::none)
      throw BackendError("backend '" + to_string(choice.kind) + "' has no real-input display path");
    backend->upload_real(crop_real(input, width, height));  // the same random data's real parts
    backend->execute_real_display(display_settings);  // the first frame finds the range: not timed
    backend->finish();
    (void)backend->take_timings();
  } else {
    backend->prepare(make_plan_2d(width, height, plan_options), choice.variant);
  }
  if (display) target.make_texture(width, height);

  // Each timed transform is followed by an untimed one the other way (the inverse is scaled by
  // 1/N), so the data stays bounded without the host uploading between runs and the device is
  // never left idle waiting for the host.
  const Direction opposite = direction == Direction::forward ? Direction::inverse : Direction::forward;
  if (!real_display) backend->upload(input);
  const auto run_once = [&] {
    if (real_display) return backend->execute_real_display(display_settings, true);
    backend->execute(direction);
    if (display && !backend->render_to_gl_texture(target.texture(), display_settings))
      throw BackendError("backend '" + to_string(choice.kind) + "' cannot deliver its display to a GL texture");
    backend->execute(opposite);
  };
  // The device's clocks up and steady first (batches of 4 runs by the host clock, as the sweep
  // warms each entry: warm_device), their records dropped.
  const Warming warming = warm_device(
      [&] {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 4; ++i) run_once();
        backend->finish();
        (void)backend->take_timings();
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      },
      warmup_ms);
  (void)backend->take_timings();
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t run = 0; run < warmup + repeat; ++run) run_once();
  backend->finish();  // every timer is ready, and the wall clock holds no copy back
  const double wall_mean_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(warmup + repeat);
  std::vector<TimingRecord> records;
  std::map<std::uint64_t, std::size_t> run_of_execution;  // execution number -> 2 * run (+1 opposite)
  std::map<std::string, std::size_t> display_seen;         // display kernel -> records so far
  for (TimingRecord& r : backend->take_timings()) {
    if (r.execution == 0) {
      // Display work (once per run, after the timed transform): drop each kernel's warm-up runs.
      if (display && display_seen[r.kernel]++ >= warmup) records.push_back(std::move(r));
      continue;
    }
    // Each run is one display (real_display), or a timed transform and its opposite.
    const auto it = run_of_execution.try_emplace(r.execution, run_of_execution.size()).first;
    if (real_display ? it->second < warmup : (it->second % 2 == 1 || it->second / 2 < warmup)) continue;
    records.push_back(std::move(r));
  }

  const std::vector<TimingSummary> rows = summarize_timings(records);
  // A kernel may run more than once per transform (the two transposes of a 2D pass share one
  // row), so the total weighs each median by that kernel's dispatches per run.
  auto per_run = [&](const TimingSummary& row) {
    return static_cast<double>(row.count) / static_cast<double>(repeat);
  };
  double total_ms = 0;
  bool any_host_measured = false;
  for (const TimingSummary& row : rows) {
    total_ms += row.median_ms * per_run(row);
    any_host_measured = any_host_measured || row.last.host_measured;
  }

  if (args.has("--json")) {
    std::string kernels = timings_to_json(rows);
    while (!kernels.empty() && kernels.back() == '\n') kernels.pop_back();
    std::cout << "{\"backend\": " << json_string(to_string(choice.kind))
              << ", \"device\": " << json_string(backend->device_name()) << ", \"width\": " << width
              << ", \"height\": " << height
              << (real_display ? ", \"real_display\": " + json_string(to_string(real_path))
                               : ", \"variant\": " + json_string(to_string(choice.variant)) +
                                     ", \"direction\": " + json_string(to_string(direction)))
              << (any_display ? std::string(", \"range\": ") + (fixed_range ? "\"fixed\"" : "\"auto\"") : "")
              << ", \"repeat\": " << repeat
              << ", \"warmup\": " << warmup << ", \"warmed_ms\": " << format("%.6g", warming.spent_ms)
              << ",\n\"kernels\": " << kernels
              << ",\n\"total_median_ms\": " << format("%.6g", total_ms)
              << ", \"wall_mean_ms\": " << format("%.6g", wall_mean_ms) << "}\n";
    return 0;
  }

  std::ostringstream out;
  out << "backend " << to_string(choice.kind) << ": " << backend->device_name() << "\n"
      << "size " << width << " x " << height << ", "
      << (real_display ? "real-input display (" + to_string(real_path) + ")"
                       : "variant " + to_string(choice.variant) + ", " + to_string(direction))
      << (any_display ? (fixed_range ? ", fixed range" : ", each frame's range") : "")
      << ", " << repeat << " measured run(s) after " << warmup << " warm-up run(s)"
      << format(" and %.0f ms of warming", warming.spent_ms) << "\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-24s %-5s %5s %5s %16s %11s %11s %11s %8s %7s\n", "kernel", "axis", "stage",
                "radix", "work items", "median ms", "min ms", "max ms", "GB/s", "per run");
  out << line;
  for (const TimingSummary& row : rows) {
    const TimingRecord& r = row.last;
    const std::string items = std::to_string(r.global_size[0]) + "x" + std::to_string(r.global_size[1]) + "x" +
                              std::to_string(r.global_size[2]);
    const double gbps = row.median_ms > 0 ? static_cast<double>(r.bytes) / (row.median_ms * 1e6) : 0.0;
    std::snprintf(line, sizeof line, "%-24s %-5s %5s %5s %16s %11.4f %11.4f %11.4f %8.2f %7.3g%s\n",
                  r.kernel.c_str(), to_string(r.axis).c_str(),
                  r.stage < 0 ? "-" : std::to_string(r.stage).c_str(),
                  r.radix == 0 ? "-" : std::to_string(r.radix).c_str(), items.c_str(), row.median_ms, row.min_ms,
                  row.max_ms, gbps, per_run(row), r.host_measured ? " *" : "");
    out << line;
    if (!r.note.empty()) out << "    note: " << r.note << '\n';
  }
  if (rows.empty()) out << "(the backend reported no per-kernel timings)\n";
  out << "\ntotal (sum of kernel medians x dispatches per run): " << format("%.4f", total_ms) << " ms\n"
      << (real_display ? "wall per run (host clock, one display, mean): "
                       : "wall per run (host clock, one timed + one untimed opposite transform, mean): ")
      << format("%.4f", wall_mean_ms) << " ms\n";
  if (display)
    out << "(--display: the display kernels and the delivery into the GL texture are rows above, once per run, "
           "and in the total)\n";
  if (any_host_measured) out << "\n* host-measured: host clock around a finish, not a GPU timer\n";
  std::cout << out.str();
  return 0;
}

}  // namespace fftscope::cli
