// pm_sample: NVIDIA's hardware counters over time while a command runs, whatever API its GPU
// work goes through (OpenGL, OpenCL, CUDA), through CUPTI's PM sampling. Nsight Compute profiles
// CUDA kernels only; PM sampling reads the GPU's performance monitors at a fixed interval for the
// whole device, so GL's compute dispatches show as well. A development tool, not part of the
// build: scripts/pm_sample/build.sh builds it against CUPTI from PyPI.
//
//   pm_sample --list                                   the chip's base metrics for PM sampling
//   pm_sample [--interval-ns N] [--metrics a,b,...] [--out FILE] [--window] -- COMMAND ARGS...
//
// The whole command is sampled, or with --window only between the 'S' and 'E' it writes to the
// file descriptor in FFTSCOPE_PM_FD (fast_probe_gl and fast_probe_cl do around their stretches).
// The 512 MiB hardware buffer is drained every 20 ms while sampling; the decoded samples must
// fit one counter data image, since decoding into an image initialised again after it filled
// failed with CUPTI_ERROR_OUT_OF_MEMORY (GH100, CUPTI 12.9). The image is asked for 250 000
// samples, but with ten metrics decoding failed so at about 60 000 (run450): sample fewer
// metrics, a shorter window or a longer interval.
//
// Writes one CSV line per sample, to OUT.tmp renamed to OUT when complete (a failed run leaves
// no file): start and end (GPU ns), then each metric's value. Samples
// stay in the order taken; a command that pauses between its stretches of work (fast_probe_gl's
// FFTSCOPE_GL_PM, fast_probe_cl's FFTSCOPE_CL_PM) lets scripts/pm_sample/segments.py cut them
// apart by the idle samples between.
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

void check(CUptiResult result, const char* what) {
  if (result == CUPTI_SUCCESS) return;
  const char* text = "?";
  cuptiGetResultString(result, &text);
  throw std::runtime_error(std::string(what) + ": " + text);
}

// The CSV while it is written: removed unless committed, so that a failed run leaves no file.
struct PendingFile {
  std::string path;
  FILE* file = nullptr;
  explicit PendingFile(std::string p) : path(std::move(p)), file(std::fopen(path.c_str(), "w")) {
    if (!file) throw std::runtime_error("cannot write " + path);
  }
  ~PendingFile() {
    if (!file) return;
    std::fclose(file);
    std::remove(path.c_str());
  }
  void commit_as(const std::string& final_path) {
    std::fclose(file);
    file = nullptr;
    if (std::rename(path.c_str(), final_path.c_str()) != 0) throw std::runtime_error("cannot rename to " + final_path);
  }
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// CUPTI's profiler needs the CUDA driver initialised in this process; the command's own API
// (GL, OpenCL) runs in the child. Loaded at run time so that the build needs no libcuda.
void init_cuda_driver() {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!cuda) throw std::runtime_error(std::string("cannot load the CUDA driver: ") + dlerror());
  using CuInit = int (*)(unsigned);
  auto cu_init = reinterpret_cast<CuInit>(dlsym(cuda, "cuInit"));
  if (!cu_init || cu_init(0) != 0) throw std::runtime_error("cuInit failed");
}

struct Sampler {
  CUpti_Profiler_Host_Object* host = nullptr;
  CUpti_PmSampling_Object* sampling = nullptr;
  std::vector<std::string> metrics;
  std::vector<const char*> metric_names;
  std::vector<std::uint8_t> counter_data;
  std::size_t evaluated = 0;  // samples of counter_data already written out
  std::uint32_t max_samples = 250000;
  FILE* out = nullptr;

  // Decodes what the hardware buffer holds into counter_data and writes the completed samples
  // not yet written. Returns true once the hardware buffer is drained.
  bool drain() {
    CUpti_PmSampling_DecodeData_Params decode{CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
    decode.pPmSamplingObject = sampling;
    decode.pCounterDataImage = counter_data.data();
    decode.counterDataImageSize = counter_data.size();
    if (CUptiResult r = cuptiPmSamplingDecodeData(&decode); r == CUPTI_ERROR_OUT_OF_MEMORY)
      throw std::runtime_error("the counter data image is full after " + std::to_string(evaluated) +
                               " samples: sample fewer metrics, a shorter window or at a longer interval");
    else
      check(r, "cuptiPmSamplingDecodeData");
    if (decode.overflow) std::fprintf(stderr, "pm_sample: the hardware buffer overflowed; samples were lost\n");
    write_new_samples();
    if (decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL)
      throw std::runtime_error("more than " + std::to_string(max_samples) +
                               " samples: sample a shorter window or at a longer interval");
    return decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS;
  }

  void init_counter_data() {
    CUpti_PmSampling_CounterDataImage_Initialize_Params init{
        CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pPmSamplingObject = sampling;
    init.counterDataSize = counter_data.size();
    init.pCounterData = counter_data.data();
    check(cuptiPmSamplingCounterDataImageInitialize(&init), "cuptiPmSamplingCounterDataImageInitialize");
    evaluated = 0;
  }

  void write_new_samples() {
    CUpti_PmSampling_GetCounterDataInfo_Params info{CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = counter_data.data();
    info.counterDataImageSize = counter_data.size();
    check(cuptiPmSamplingGetCounterDataInfo(&info), "cuptiPmSamplingGetCounterDataInfo");
    std::vector<double> values(metrics.size());
    for (; evaluated < info.numCompletedSamples; ++evaluated) {
      CUpti_PmSampling_CounterData_GetSampleInfo_Params sample{
          CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE};
      sample.pPmSamplingObject = sampling;
      sample.pCounterDataImage = counter_data.data();
      sample.counterDataImageSize = counter_data.size();
      sample.sampleIndex = evaluated;
      check(cuptiPmSamplingCounterDataGetSampleInfo(&sample), "cuptiPmSamplingCounterDataGetSampleInfo");
      CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
      eval.pHostObject = host;
      eval.pCounterDataImage = counter_data.data();
      eval.counterDataImageSize = counter_data.size();
      eval.rangeIndex = evaluated;
      eval.ppMetricNames = metric_names.data();
      eval.numMetrics = metric_names.size();
      eval.pMetricValues = values.data();
      check(cuptiProfilerHostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues");
      std::fprintf(out, "%llu,%llu", static_cast<unsigned long long>(sample.startTimestamp),
                   static_cast<unsigned long long>(sample.endTimestamp));
      for (double v : values) std::fprintf(out, ",%.6g", v);
      std::fprintf(out, "\n");
    }
  }
};

// The config image for `metrics` on a host object of its own; empty (and `why`) where CUPTI
// refuses one of them or they need more than one pass (sampling sees each moment once).
std::vector<std::uint8_t> config_image(const char* chip, const std::vector<std::uint8_t>& availability,
                                       const std::vector<std::string>& metrics, std::string& why) {
  CUpti_Profiler_Host_Initialize_Params init{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  init.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
  init.pChipName = chip;
  init.pCounterAvailabilityImage = availability.data();
  check(cuptiProfilerHostInitialize(&init), "cuptiProfilerHostInitialize");
  std::vector<const char*> names;
  for (const auto& m : metrics) names.push_back(m.c_str());
  std::vector<std::uint8_t> image;
  auto attempt = [&]() -> CUptiResult {
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = init.pHostObject;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    if (CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add); r != CUPTI_SUCCESS) return r;
    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = init.pHostObject;
    if (CUptiResult r = cuptiProfilerHostGetConfigImageSize(&size); r != CUPTI_SUCCESS) return r;
    image.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params get{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    get.pHostObject = init.pHostObject;
    get.configImageSize = image.size();
    get.pConfigImage = image.data();
    if (CUptiResult r = cuptiProfilerHostGetConfigImage(&get); r != CUPTI_SUCCESS) return r;
    CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.configImageSize = image.size();
    passes.pConfigImage = image.data();
    if (CUptiResult r = cuptiProfilerHostGetNumOfPasses(&passes); r != CUPTI_SUCCESS) return r;
    if (passes.numOfPasses != 1) {
      why = std::to_string(passes.numOfPasses) + " passes";
      image.clear();
    }
    return CUPTI_SUCCESS;
  };
  if (CUptiResult r = attempt(); r != CUPTI_SUCCESS) {
    const char* text = "?";
    cuptiGetResultString(r, &text);
    why = text;
    image.clear();
  }
  CUpti_Profiler_Host_Deinitialize_Params done{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  done.pHostObject = init.pHostObject;
  cuptiProfilerHostDeinitialize(&done);
  return image;
}

// Tried in this order; those the chip cannot sample in one pass beside the earlier ones are
// left out. These ten sample together on GH100 (run449); warp stall reasons, the global loads' and
// stores' L1 sectors and sm__warps_active did not fit beside them.
const char* default_metrics =
    "gpc__cycles_elapsed.max,sm__cycles_active.avg,sm__cycles_active.sum,smsp__inst_executed.sum,"
    "smsp__issue_active.sum,dram__bytes_read.sum,dram__bytes_write.sum,"
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,"
    "lts__t_sectors.sum";

int run(int argc, char** argv) {
  std::uint64_t interval_ns = 20000;
  std::string metric_list = default_metrics, out_path = "pm_samples.csv";
  bool list = false, window = false;
  int command_at = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--list") list = true;
    else if (a == "--interval-ns" && i + 1 < argc) interval_ns = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--metrics" && i + 1 < argc) metric_list = argv[++i];
    else if (a == "--out" && i + 1 < argc) out_path = argv[++i];
    else if (a == "--window") window = true;
    else if (a == "--") { command_at = i + 1; break; }
    else throw std::runtime_error("unknown argument " + a);
  }
  if (!list && (command_at < 0 || command_at >= argc)) throw std::runtime_error("no command after --");

  init_cuda_driver();
  CUpti_Profiler_Initialize_Params profiler{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  check(cuptiProfilerInitialize(&profiler), "cuptiProfilerInitialize");
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = 0;
  check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  CUpti_PmSampling_GetCounterAvailability_Params avail{CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE};
  avail.deviceIndex = 0;
  check(cuptiPmSamplingGetCounterAvailability(&avail), "cuptiPmSamplingGetCounterAvailability (size)");
  std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  check(cuptiPmSamplingGetCounterAvailability(&avail), "cuptiPmSamplingGetCounterAvailability");

  Sampler s;
  CUpti_Profiler_Host_Initialize_Params host_init{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  host_init.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
  host_init.pChipName = chip.pChipName;
  host_init.pCounterAvailabilityImage = availability.data();
  check(cuptiProfilerHostInitialize(&host_init), "cuptiProfilerHostInitialize");
  s.host = host_init.pHostObject;
  std::fprintf(stderr, "pm_sample: chip %s\n", chip.pChipName);

  if (list) {
    for (CUpti_MetricType type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
      CUpti_Profiler_Host_GetBaseMetrics_Params base{CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
      base.pHostObject = s.host;
      base.metricType = type;
      check(cuptiProfilerHostGetBaseMetrics(&base), "cuptiProfilerHostGetBaseMetrics");
      for (std::size_t i = 0; i < base.numMetrics; ++i)
        std::printf("%s %s\n", type == CUPTI_METRIC_TYPE_COUNTER ? "counter" : type == CUPTI_METRIC_TYPE_RATIO ? "ratio" : "throughput",
                    base.ppMetricNames[i]);
    }
    return 0;
  }

  // Metrics the chip cannot sample, or that would need a second pass beside those already
  // taken, are left out with a note: each is tried on a host object of its own first.
  std::vector<std::uint8_t> config;
  for (const std::string& candidate : split(metric_list)) {
    std::vector<std::string> trial = s.metrics;
    trial.push_back(candidate);
    std::string why;
    std::vector<std::uint8_t> image = config_image(chip.pChipName, availability, trial, why);
    if (image.empty()) {
      std::fprintf(stderr, "pm_sample: leaving out %s (%s)\n", candidate.c_str(), why.c_str());
      continue;
    }
    s.metrics = trial;
    config = image;
  }
  if (s.metrics.empty()) throw std::runtime_error("no metric can be sampled");
  for (const auto& m : s.metrics) s.metric_names.push_back(m.c_str());
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = s.host;
  add.ppMetricNames = s.metric_names.data();
  add.numMetrics = s.metric_names.size();
  check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");

  CUpti_PmSampling_Enable_Params enable{CUpti_PmSampling_Enable_Params_STRUCT_SIZE};
  enable.deviceIndex = 0;
  check(cuptiPmSamplingEnable(&enable), "cuptiPmSamplingEnable");
  s.sampling = enable.pPmSamplingObject;
  CUpti_PmSampling_SetConfig_Params set{CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE};
  set.pPmSamplingObject = s.sampling;
  set.configSize = config.size();
  set.pConfig = config.data();
  set.hardwareBufferSize = std::size_t{512} << 20;
  set.samplingInterval = interval_ns;
  set.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
  set.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
  check(cuptiPmSamplingSetConfig(&set), "cuptiPmSamplingSetConfig");
  CUpti_PmSampling_GetCounterDataSize_Params data_size{CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE};
  data_size.pPmSamplingObject = s.sampling;
  data_size.pMetricNames = s.metric_names.data();
  data_size.numMetrics = s.metric_names.size();
  // Room for every sample of a window in one image: CUPTI reported out of memory on decoding
  // into an image that had filled and been initialised again (GH100, CUPTI 12.9).
  data_size.maxSamples = s.max_samples;
  check(cuptiPmSamplingGetCounterDataSize(&data_size), "cuptiPmSamplingGetCounterDataSize");
  s.counter_data.resize(data_size.counterDataSize);
  s.init_counter_data();

  PendingFile csv(out_path + ".tmp");
  s.out = csv.file;
  std::fprintf(s.out, "start_ns,end_ns");
  for (const auto& m : s.metrics) std::fprintf(s.out, ",%s", m.c_str());
  std::fprintf(s.out, "\n");

  CUpti_PmSampling_Start_Params start{CUpti_PmSampling_Start_Params_STRUCT_SIZE};
  start.pPmSamplingObject = s.sampling;
  CUpti_PmSampling_Stop_Params stop{CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
  stop.pPmSamplingObject = s.sampling;
  // --window: the command writes 'S' and 'E' to the pipe named by FFTSCOPE_PM_FD around the
  // work to sample, so that the idle time before (compiling, uploading) fills no buffer.
  int signals[2] = {-1, -1};
  if (window && pipe(signals) != 0) throw std::runtime_error("pipe failed");
  if (!window) check(cuptiPmSamplingStart(&start), "cuptiPmSamplingStart");
  const pid_t child = fork();
  if (child == 0) {
    if (window) {
      close(signals[0]);
      setenv("FFTSCOPE_PM_FD", std::to_string(signals[1]).c_str(), 1);
    }
    execvp(argv[command_at], argv + command_at);
    std::perror("pm_sample: exec");
    _exit(127);
  }
  int status = 0;
  if (window) {
    close(signals[1]);
    bool started = false;
    // Within the window the hardware buffer is drained every 20 ms too: GL's 4096^2 stretches
    // (95 000 samples of 20 us) overflowed it when it was drained only after the window.
    for (;;) {
      pollfd wake{signals[0], POLLIN, 0};
      const int ready = poll(&wake, 1, 20);
      if (ready == 0) {
        if (started) s.drain();
        continue;
      }
      char c = 0;
      if (read(signals[0], &c, 1) != 1) break;  // the command closed the pipe (ended)
      if (c == 'S' && !started) {
        check(cuptiPmSamplingStart(&start), "cuptiPmSamplingStart");
        started = true;
      } else if (c == 'E' && started) {
        break;
      }
    }
    if (!started) throw std::runtime_error("the command never signalled the start of its work");
    check(cuptiPmSamplingStop(&stop), "cuptiPmSamplingStop");
    waitpid(child, &status, 0);
  } else {
    // Drain while the command runs, so that the hardware buffer never fills.
    while (waitpid(child, &status, WNOHANG) == 0) {
      s.drain();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    check(cuptiPmSamplingStop(&stop), "cuptiPmSamplingStop");
  }
  // What the buffer still holds; a decode that neither ends the records nor fills the image
  // ("other") must not spin for ever.
  for (int tries = 0; !s.drain(); ++tries)
    if (tries == 1000) throw std::runtime_error("the hardware buffer did not drain");
  csv.commit_as(out_path);
  CUpti_PmSampling_Disable_Params disable{CUpti_PmSampling_Disable_Params_STRUCT_SIZE};
  disable.pPmSamplingObject = s.sampling;
  cuptiPmSamplingDisable(&disable);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pm_sample: %s\n", e.what());
    return 2;
  }
}
