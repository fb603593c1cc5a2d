#pragma once
// The thread that does every backend call of the window, so a transform of any size never
// blocks a frame. It owns the backend and, where the window gave it one, a hidden GLFW context
// that shares objects (textures) with the window's: the GL backend computes there, and GL and CL
// backends write the spectrum texture there, and host renderings are uploaded into textures
// there (app.h WorkerTexture), each behind a fence the UI thread checks before drawing it.
// Image files are decoded elsewhere (a loader thread, pipeline.cpp), so a decode never waits
// behind a transform.
// Jobs run one at a time in the order submitted; the pipeline keeps at most one job of each kind
// in flight and builds the next from the latest settings (latest request wins).

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>

#include "backend/backend.h"

struct GLFWwindow;

namespace fftscope::gui {

class ComputeWorker {
 public:
  /// share: the window whose context the worker's hidden context shares objects with; nullptr
  /// (or a context that cannot be made): the worker has no GL context, GL runs headless (EGL)
  /// and the display is rendered on the host. Call from the thread that owns GLFW.
  explicit ComputeWorker(GLFWwindow* share);
  ~ComputeWorker();
  ComputeWorker(const ComputeWorker&) = delete;
  ComputeWorker& operator=(const ComputeWorker&) = delete;

  /// True when jobs run with a GL context that shares objects with the window's.
  bool has_shared_context() const { return shared_ != nullptr; }

  /// Queues fn(backend) (backend: the one made by the last start job that succeeded; a job
  /// before any has none and must not run). The future carries fn's result or exception.
  template <typename Fn>
  auto submit(Fn fn) -> std::future<std::invoke_result_t<Fn, Backend&>> {
    using R = std::invoke_result_t<Fn, Backend&>;
    auto task = std::make_shared<std::packaged_task<R(Backend&)>>(std::move(fn));
    std::future<R> future = task->get_future();
    // Without a backend (none started yet) the task is dropped: its future reports a broken promise.
    push([this, task] {
      if (backend_) (*task)(*backend_);
    });
    return future;
  }

  /// Queues the creation of a backend of that kind (replacing the current one once made; the
  /// old one stays if creation throws). The future gives the device name or the error.
  std::future<std::string> start_backend(BackendKind kind, BackendOptions options);

  /// True while a job runs or waits.
  bool busy() const { return pending_.load() > 0; }
  /// Wall time of the longest job so far and the number of jobs finished.
  double longest_job_s() const { return longest_job_s_.load(); }
  long jobs_done() const { return jobs_done_.load(); }

 private:
  void push(std::function<void()> job);
  void loop();

  GLFWwindow* shared_ = nullptr;
  std::unique_ptr<Backend> backend_;  // touched only on the worker thread
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
  std::atomic<int> pending_{0};
  std::atomic<double> longest_job_s_{0};
  std::atomic<long> jobs_done_{0};
  std::thread thread_;
};

}  // namespace fftscope::gui
