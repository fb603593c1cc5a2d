#include "gui/compute_worker.h"

#include <glad/gl.h>
// glad first: GLFW must not pull in a system GL header.
#include <GLFW/glfw3.h>

#include <chrono>
#include <cstdio>

namespace fftscope::gui {

ComputeWorker::ComputeWorker(GLFWwindow* share) {
  if (share) {
    // A hidden 1x1 window only for its context: same version and profile as the window's.
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    shared_ = glfwCreateWindow(1, 1, "fftscope worker", nullptr, share);
    glfwWindowHint(GLFW_VISIBLE, GLFW_TRUE);
    if (!shared_) std::fprintf(stderr, "fftscope: no shared GL context for the worker; GL runs headless\n");
  }
  thread_ = std::thread([this] { loop(); });
}

ComputeWorker::~ComputeWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (shared_) glfwDestroyWindow(shared_);
}

void ComputeWorker::push(std::function<void()> job) {
  ++pending_;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
}

std::future<std::string> ComputeWorker::start_backend(BackendKind kind, BackendOptions options) {
  auto task = std::make_shared<std::packaged_task<std::string()>>([this, kind, options]() mutable {
    // The GL backend computes in the worker's shared context where there is one, else in a
    // headless EGL context of its own; CL writes the texture through the current GL context.
    options.use_current_gl_context = shared_ != nullptr;
    backend_.reset();  // the old one goes first: its GL objects while the context is current
    backend_ = make_backend(kind, options);
    return backend_->device_name();
  });
  std::future<std::string> future = task->get_future();
  push([task] { (*task)(); });
  return future;
}

void ComputeWorker::loop() {
  if (shared_) glfwMakeContextCurrent(shared_);
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) break;  // stop_ and nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    const auto t0 = std::chrono::steady_clock::now();
    job();  // packaged tasks keep their exceptions for the future
    job = nullptr;  // a dropped task breaks its promise here, before busy() turns false
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > longest_job_s_.load()) longest_job_s_.store(s);
    ++jobs_done_;
    --pending_;
  }
  backend_.reset();  // GL objects go while the worker's context is current
  if (shared_) glfwMakeContextCurrent(nullptr);
}

}  // namespace fftscope::gui
