#include "backend/cpu/cpu_backend.h"

#include <cassert>
#include <chrono>
#include <thread>
#include <utility>

namespace fftscope {
namespace {

/// The core's stage pipeline as a backend. "Device" memory is a host image; timings are
/// host-measured per axis, since the CPU has no per-kernel dispatches.
class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(const BackendOptions& options) : threads_(options.cpu_threads) {}

  BackendKind kind() const override { return BackendKind::cpu; }

  std::string device_name() const override {
    const unsigned t = threads_ ? threads_ : std::max(1u, std::thread::hardware_concurrency());
    return "CPU (" + std::to_string(t) + " threads)";
  }

  void prepare(const Plan2D& plan, KernelVariant /*variant*/) override {
    plan_ = plan;
    prepared_ = true;
  }

  void upload(const ComplexImage& image) override {
    assert(prepared_ && "prepare() before upload()");
    assert(image.width == plan_.width() && image.height == plan_.height() && "image size must match the plan");
    buffer_ = image;
  }

  void execute(Direction direction, StageStop stop) override {
    assert(prepared_ && "prepare() before execute()");
    const auto start = std::chrono::steady_clock::now();
    cpu::transform_2d(plan_, direction, buffer_, stop, threads_);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    TimingRecord record;
    record.kernel = "cpu_transform_2d";
    record.axis = stop.is_done() ? Axis::cols : stop.axis;
    record.global_size = {static_cast<std::uint32_t>(plan_.width()), static_cast<std::uint32_t>(plan_.height()), 1};
    record.milliseconds = ms;
    // One read and one write of the image per axis pass that ran.
    const int passes = (!stop.is_done() && stop.axis == Axis::rows) ? 1 : 2;
    record.bytes = static_cast<std::uint64_t>(buffer_.data.size()) * sizeof(Complex) * 2 * passes;
    record.host_measured = true;
    record.execution = ++executions_;
    timings_.push_back(record);
  }

  ComplexImage download() override { return buffer_; }

  std::vector<TimingRecord> take_timings() override { return std::exchange(timings_, {}); }

 private:
  unsigned threads_ = 0;
  bool prepared_ = false;
  Plan2D plan_;
  ComplexImage buffer_;
  std::vector<TimingRecord> timings_;
  std::uint64_t executions_ = 0;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(const BackendOptions& options) {
  return std::make_unique<CpuBackend>(options);
}

}  // namespace fftscope
