// The app shell: window and GL 4.5 context, ImGui setup (fonts, theme, UI scale), the frame
// loop with the test-mode screenshot, keyboard shortcuts, and the layout that hosts the panels.

#include "gui/app.h"

#include <glad/gl.h>
// glad first: GLFW must not pull in a system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>
#include <thread>

#include "backend/gl/gl_context.h"
#include "core/errors.h"
#include "gui/compute_worker.h"
#include "gui/soak.h"
#include "gui/widgets.h"

namespace fftscope::gui {

namespace {

AppState* g_drop_target = nullptr;  // GLFW callbacks carry no user data we own

void on_glfw_error(int code, const char* description) {
  std::fprintf(stderr, "fftscope: GLFW error %d: %s\n", code, description);
}

void on_drop(GLFWwindow*, int count, const char** paths) {
  if (g_drop_target) drop_files(*g_drop_target, std::vector<std::string>(paths, paths + count));
}

void apply_style(AppState& app) {
  ImGuiStyle style;
  if (app.light_theme) ImGui::StyleColorsLight(&style);
  else ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0.0f;
  style.FrameRounding = 3.0f;
  style.ScaleAllSizes(app.ui_scale);
  ImGui::GetStyle() = style;
}

void build_fonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  // A real TTF scales cleanly for projectors; the built-in bitmap font is the fallback.
  const char* candidates[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                              "/usr/share/fonts/TTF/DejaVuSans.ttf"};
  bool loaded = false;
  for (const char* path : candidates) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && io.Fonts->AddFontFromFileTTF(path, 15.0f * scale)) {
      loaded = true;
      break;
    }
  }
  if (!loaded) {
    ImFontConfig config;
    config.SizePixels = 13.0f * scale;
    io.Fonts->AddFontDefault(&config);
  }
}

void write_window_png(GLFWwindow* window, const std::string& path) {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  RgbaImage image(static_cast<std::size_t>(w), static_cast<std::size_t>(h));
  std::vector<std::uint8_t> raw(image.data.size());
  glFinish();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, raw.data());
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  for (std::size_t y = 0; y < image.height; ++y)  // GL's first row is the bottom one
    std::copy_n(raw.data() + (image.height - 1 - y) * row, row, image.data.data() + y * row);
  for (std::size_t i = 3; i < image.data.size(); i += 4) image.data[i] = 255;
  write_png(path, image);
}

void apply_guided(AppState& app, int which) {
  app.use_synthetic = true;
  app.synthetic = SyntheticSettings{};
  app.spectrum_settings.shift = true;
  app.spectrum_settings.scale = SpectrumScale::log;
  app.spectrum_settings.component = SpectrumComponent::magnitude;
  app.preprocess = PreprocessSettings{};
  switch (which) {
    case 0:
      app.synthetic.kind = SyntheticKind::grating;
      app.synthetic.frequency = 0.0625f;
      app.synthetic.angle_degrees = 30.0f;
      app.guided_text =
          "A grating becomes two dots: a sinusoid of f cycles/pixel at angle a puts its energy at "
          "+-(f cos a, f sin a), plus the mean at the centre. Move the sliders and watch the dots.";
      break;
    case 1:
      app.synthetic.kind = SyntheticKind::rectangle;
      app.synthetic.offset_x = 100;
      app.synthetic.offset_y = 140;
      app.guided_text =
          "Translation changes only the phase: move the rectangle with the offset sliders. The "
          "magnitude stays the same; switch the component to phase (or phase-hue) to see the ramp change.";
      break;
    case 2:
      app.synthetic.kind = SyntheticKind::grating;
      app.synthetic.frequency = 0.1f;
      app.synthetic.angle_degrees = 0.0f;
      app.guided_text =
          "Rotating the image rotates the spectrum: drag the angle slider; the two dots turn by the same angle.";
      break;
    case 3:
      // A grating whose period does not divide the image size: the FFT sees a jump at the
      // borders, which smears the two dots into streaks along the axes.
      app.synthetic.kind = SyntheticKind::grating;
      app.synthetic.frequency = 0.0713f;
      app.synthetic.angle_degrees = 17.0f;
      app.preprocess.window = WindowKind::none;
      app.guided_text =
          "Leakage: this grating does not fit a whole number of periods into the image, so the "
          "borders do not match and its two dots smear into streaks along the axes (photos show a "
          "bright cross). Now pick the Hann window under 'Size, padding, window': the streaks vanish.";
      break;
    default: break;
  }
  mark_source_dirty(app);
  mark_display_dirty(app);
}

void draw_menu(AppState& app) {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::BeginMenu("Samples", !app.samples.empty())) {
      for (const std::string& s : app.samples)
        if (ImGui::MenuItem(std::filesystem::path(s).filename().string().c_str())) load_image_source(app, s);
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Recent", !app.stored.recent_files.empty())) {
      for (const std::string& r : app.stored.recent_files)
        if (ImGui::MenuItem(r.c_str())) load_image_source(app, r);
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Save screenshot", "Ctrl+P")) app.want_screenshot = true;
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(app.window, 1);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Light theme", nullptr, app.light_theme)) {
      app.light_theme = !app.light_theme;
      app.rebuild_style = true;
    }
    if (ImGui::MenuItem("Larger UI", "Ctrl++")) {
      app.ui_scale = std::min(4.0f, app.ui_scale * 1.25f);
      app.rebuild_style = true;
    }
    if (ImGui::MenuItem("Smaller UI", "Ctrl+-")) {
      app.ui_scale = std::max(0.5f, app.ui_scale / 1.25f);
      app.rebuild_style = true;
    }
    if (ImGui::MenuItem("Reset UI scale", "Ctrl+0")) {
      app.ui_scale = 1.0f;
      app.rebuild_style = true;
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Guided")) {
    if (ImGui::MenuItem("A grating becomes two dots")) apply_guided(app, 0);
    if (ImGui::MenuItem("Translation changes only the phase")) apply_guided(app, 1);
    if (ImGui::MenuItem("Rotating the image rotates the spectrum")) apply_guided(app, 2);
    if (ImGui::MenuItem("Windowing removes the leakage cross")) apply_guided(app, 3);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::TextUnformatted(
        "Keys: 1-6 panels, S shift, L log/linear, Ctrl+P screenshot, Ctrl +/- UI scale, Space pause timers\n"
        "Spectrum view: wheel zooms, right-drag pans, right double-click resets; hover for the readout.");
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void handle_shortcuts(AppState& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  const bool ctrl = io.KeyCtrl;
  // ImGui 1.86 indexes keys by the platform's key codes (GLFW_KEY_*).
  auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
  if (ctrl) {
    if (pressed(GLFW_KEY_Q)) glfwSetWindowShouldClose(app.window, 1);
    if (pressed(GLFW_KEY_P)) app.want_screenshot = true;
    if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)) {
      app.ui_scale = std::min(4.0f, app.ui_scale * 1.25f);
      app.rebuild_style = true;
    }
    if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT)) {
      app.ui_scale = std::max(0.5f, app.ui_scale / 1.25f);
      app.rebuild_style = true;
    }
    if (pressed(GLFW_KEY_0)) {
      app.ui_scale = 1.0f;
      app.rebuild_style = true;
    }
    return;
  }
  for (int i = 0; i < 6; ++i) {
    if (pressed(GLFW_KEY_1 + i)) {
      app.panel = all_panels[i];
      app.select_panel = true;
    }
  }
  if (pressed(GLFW_KEY_S)) {
    app.spectrum_settings.shift = !app.spectrum_settings.shift;
    mark_display_dirty(app);
  }
  if (pressed(GLFW_KEY_L)) {
    app.spectrum_settings.scale =
        app.spectrum_settings.scale == SpectrumScale::log ? SpectrumScale::linear : SpectrumScale::log;
    mark_display_dirty(app);
  }
  if (pressed(GLFW_KEY_SPACE)) app.timers_paused = !app.timers_paused;
}

void draw_main(AppState& app) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("fftscope", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_MenuBar |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings);
  draw_menu(app);

  const float left_width = 330.0f * app.ui_scale;
  ImGui::BeginChild("controls", ImVec2(left_width, 0), true);
  draw_source_panel(app);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("main", ImVec2(0, 0), false);
  if (!app.backend_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(120, 30, 30, 255));
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 255, 255, 255));
    const float lines = std::min(6.0f, 1.0f + static_cast<float>(std::count(app.backend_error.begin(), app.backend_error.end(), '\n')));
    ImGui::BeginChild("error", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * (lines + 1.2f) + 8.0f), true);
    if (ImGui::SmallButton("Dismiss")) app.backend_error.clear();
    ImGui::TextWrapped("%s", app.backend_error.c_str());
    ImGui::EndChild();
    ImGui::PopStyleColor(2);
  }
  if (ImGui::BeginTabBar("panels")) {
    for (Panel p : all_panels) {
      const ImGuiTabItemFlags flags = (app.select_panel && app.panel == p) ? ImGuiTabItemFlags_SetSelected : 0;
      if (ImGui::BeginTabItem(panel_title(p), nullptr, flags)) {
        // SetSelected takes effect a frame later; keep asking until the wanted tab is open.
        if (app.panel == p) app.select_panel = false;
        else if (!app.select_panel) app.panel = p;  // the user clicked another tab
        switch (p) {
          case Panel::spectrum: draw_spectrum_panel(app); break;
          case Panel::filter: draw_filter_panel(app); break;
          case Panel::stages: draw_stages_panel(app); break;
          case Panel::digit_reverse: draw_digit_reverse_panel(app); break;
          case Panel::twiddles: draw_twiddles_panel(app); break;
          case Panel::timers: draw_timers_panel(app); break;
        }
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace

int run_app(const GuiOptions& options) {
  const bool soak = options.soak > 0;
  const bool test_mode = !options.screenshot.empty() || soak;
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    std::fprintf(stderr, "fftscope: cannot open a display (glfwInit failed); is DISPLAY set? "
                         "Try xvfb-run -a fftscope ...\n");
    return exit_backend_unavailable;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  // Kept for the compute worker's shared context too (glfwWindowHint persists).
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, ::fftscope::detail::gl_debug_requested() ? GLFW_TRUE : GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(options.width, options.height, "fftscope", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "fftscope: cannot create a window with an OpenGL 4.5 core context\n");
    glfwTerminate();
    return exit_backend_unavailable;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(test_mode ? 0 : 1);
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    std::fprintf(stderr, "fftscope: cannot load the OpenGL 4.5 functions\n");
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_backend_unavailable;
  }
  if (::fftscope::detail::gl_debug_requested()) ::fftscope::detail::install_gl_debug_output();

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  static std::string ini_path;  // ImGui keeps the pointer
  const std::string cfg = config_dir();
  if (test_mode || cfg.empty()) {
    io.IniFilename = nullptr;  // screenshots must not depend on (or change) a user's layout
  } else {
    std::error_code ec;
    std::filesystem::create_directories(cfg, ec);
    ini_path = cfg + "/imgui.ini";
    io.IniFilename = ini_path.c_str();
  }
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 450");

  int exit_code = exit_ok;
  {
    AppState app;
    app.options = options;
    app.window = window;
    app.stored = test_mode ? StoredSettings{} : load_settings();
    app.ui_scale = options.ui_scale > 0 ? options.ui_scale : (app.stored.ui_scale > 0 ? app.stored.ui_scale : 1.0f);
    app.light_theme = options.light_theme || app.stored.light_theme;
    app.variant = options.variant;
    app.spectrum_settings = options.spectrum;
    app.preprocess = options.preprocess;
    app.filter.preset = options.filter;
    app.panel = options.panel;
    if (options.stage >= 0) app.stage_k = options.stage;
    else app.stage_k = 64;  // clamped to "done" of the axis
    app.samples = find_samples();
    if (options.synthetic) app.synthetic.kind = *options.synthetic;
    app.synthetic.width = options.synthetic_width;
    app.synthetic.height = options.synthetic_height;
    app.synthetic.offset_x = options.synthetic_width / 2;
    app.synthetic.offset_y = options.synthetic_height / 2;
    app.synthetic.rect_width = std::max<std::size_t>(1, options.synthetic_width / 8);
    app.synthetic.rect_height = std::max<std::size_t>(1, options.synthetic_height / 16);
    g_drop_target = &app;
    glfwSetDropCallback(window, on_drop);

    app.worker = std::make_unique<ComputeWorker>(window);
    BackendKind kind = BackendKind::cpu;
    if (options.backend) kind = *options.backend;
    else if (std::find(compiled_backends().begin(), compiled_backends().end(), BackendKind::gl) != compiled_backends().end())
      kind = BackendKind::gl;
    switch_backend(app, kind);
    wait_for_backend(app);
    bool run = true;
    if (!options.image.empty()) {
      // Decoded on the loader thread; no synthetic image is made meanwhile.
      app.use_synthetic = false;
      load_image_source(app, options.image, true);
    }
    std::fprintf(stderr, "fftscope: backend %s on %s%s\n", to_string(app.backend_kind).c_str(),
                 app.device_name.c_str(),
                 app.worker->has_shared_context() ? " (worker thread, shared GL context)" : " (worker thread)");

    const double start_time = glfwGetTime();
    // Frame times: the longest frame that began and ended while the worker was computing.
    double previous_t0 = start_time, max_busy_frame_s = 0, sum_busy_frame_s = 0;
    bool previous_busy = false;
    int busy_frames = 0;
    // The same for frames while an image file was being decoded.
    double max_decode_frame_s = 0, sum_decode_frame_s = 0;
    bool previous_decoding = false;
    int decode_frames = 0;
    bool compared = false;
    std::size_t next_drop = 0;  // test mode: --drop files go in one at a time, each after the previous load
    // Soak: memory after the first round (warm-up) and at the end.
    int soak_step_index = 0, soak_frame_of_step = 0;
    long soak_rss_start_kib = 0;
    std::string soak_gpu_start;
    const int soak_round = options.soak_warmup > 0 ? options.soak_warmup : soak_round_steps();
    while (run && !glfwWindowShouldClose(window)) {
      // A frame period counts when the worker computed at both of its ends.
      const double t0 = glfwGetTime();
      const bool busy_now = app.worker->busy();
      if (app.frame > 0 && previous_busy && busy_now) {
        max_busy_frame_s = std::max(max_busy_frame_s, t0 - previous_t0);
        sum_busy_frame_s += t0 - previous_t0;
        ++busy_frames;
      }
      const bool decoding_now = image_loading(app);
      if (app.frame > 0 && previous_decoding && decoding_now) {
        max_decode_frame_s = std::max(max_decode_frame_s, t0 - previous_t0);
        sum_decode_frame_s += t0 - previous_t0;
        ++decode_frames;
      }
      previous_t0 = t0;
      previous_busy = busy_now;
      previous_decoding = decoding_now;
      glfwPollEvents();
      if (options.mouse_x >= 0) glfwSetCursorPos(window, options.mouse_x, options.mouse_y);
      // Each test-mode drop waits until the image before it (the command line's, or the previous
      // drop) has loaded: a drop while one decodes would supersede it, as a user's second drop does.
      if (app.frame >= 1 && next_drop < options.drops.size() && !image_loading(app) && app.pending_drop.empty())
        drop_files(app, {options.drops[next_drop++]});
      if (options.compare_variants && !compared && !app.spectrum.data.empty() && !pipeline_busy(app)) {
        compare_variants(app, 3);
        compared = true;
      }
      if (soak) {
        // A new step every 3 frames once the previous one has been computed and shown.
        if (++soak_frame_of_step >= 3 && !pipeline_busy(app)) {
          if (soak_step_index == soak_round) {
            soak_rss_start_kib = resident_kib();
            soak_gpu_start = gpu_memory_report();
            std::fprintf(stderr, "fftscope: soak warm-up done at frame %d (%d steps): RSS %.1f MiB%s%s\n", app.frame,
                         soak_round, static_cast<double>(soak_rss_start_kib) / 1024.0, soak_gpu_start.empty() ? "" : ", ",
                         soak_gpu_start.c_str());
          }
          soak_step(app, soak_step_index++);
          soak_frame_of_step = 0;
        }
      }
      if (app.rebuild_style) {
        apply_style(app);
        build_fonts(app.ui_scale);
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
        app.rebuild_style = false;
      }
      // Collects what the worker finished and hands it the next jobs; never waits for one.
      update_pipeline(app);
      if (app.initial_load_failed) {
        app.initial_load_failed = false;
        exit_code = exit_bad_input;
        if (test_mode) break;  // a test must not pass on a file it could not read
      }
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      draw_main(app);
      handle_shortcuts(app);
      ImGui::Render();
      int fw = 0, fh = 0;
      glfwGetFramebufferSize(window, &fw, &fh);
      glViewport(0, 0, fw, fh);
      if (app.light_theme) glClearColor(0.94f, 0.94f, 0.94f, 1.0f);
      else glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      ++app.frame;
      if (!test_mode && !app.backend_job.valid() &&
          (app.stored.ui_scale != app.ui_scale || app.stored.light_theme != app.light_theme)) {
        // Saved as they change (atomically), so a crash or kill keeps them.
        app.stored.ui_scale = app.ui_scale;
        app.stored.light_theme = app.light_theme;
        try {
          save_settings(app.stored);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "fftscope: cannot save settings: %s\n", e.what());
        }
      }
      const int frames_wanted = soak ? options.soak : options.frames;
      // Test mode: after N frames, and once the background work for what is shown has landed
      // (at most a minute more), so the screenshot shows finished results.
      const bool waiting = pipeline_busy(app) || (options.compare_variants && !compared) ||
                           next_drop < options.drops.size() || !app.pending_drop.empty();
      if (test_mode && app.frame >= frames_wanted && waiting && glfwGetTime() - start_time < 60.0 + (soak ? 1e9 : 0)) {
        glfwSwapBuffers(window);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // leave the cores to the worker
        continue;
      }
      if (test_mode && app.frame >= frames_wanted) {
        std::fprintf(stderr,
                     "fftscope: frames %d; %d while the worker computed: max %.1f ms, mean %.1f ms; longest job "
                     "%.1f ms (%ld jobs)\n",
                     app.frame, busy_frames, max_busy_frame_s * 1e3,
                     busy_frames ? sum_busy_frame_s * 1e3 / busy_frames : 0.0, app.worker->longest_job_s() * 1e3,
                     app.worker->jobs_done());
        std::fprintf(stderr,
                     "fftscope: decoding: %d frames while an image was decoded: max %.1f ms, mean %.1f ms; longest "
                     "decode %.1f ms (%d decodes); longest texture upload %.1f ms (%zux%zu)\n",
                     decode_frames, max_decode_frame_s * 1e3,
                     decode_frames ? sum_decode_frame_s * 1e3 / decode_frames : 0.0, app.longest_decode_s * 1e3,
                     app.decodes, app.longest_upload_s * 1e3, app.longest_upload_w, app.longest_upload_h);
        std::fprintf(stderr, "fftscope: source %s (%zux%zu), status: %s\n",
                     app.use_synthetic ? "synthetic" : app.image_path.c_str(), app.source.width, app.source.height,
                     app.status.c_str());
        if (!options.screenshot.empty()) {
          try {
            write_window_png(window, options.screenshot);
            if (!options.dump_spectrum.empty()) write_png(options.dump_spectrum, app.spectrum_tex.read_back());
            std::fprintf(stderr, "fftscope: wrote %s after %d frames (panel %s, backend %s%s)\n",
                         options.screenshot.c_str(), app.frame, to_string(app.panel).c_str(),
                         to_string(app.backend_kind).c_str(),
                         app.routed_display ? ", display by the backend's fused real-input path (routed: Bluestein)"
                         : app.fused_display ? ", display by the backend's fused real-input path"
                         : app.gpu_rendered_display ? ", display by the backend"
                                                    : "");
          } catch (const std::exception& e) {
            std::fprintf(stderr, "fftscope: %s\n", e.what());
            exit_code = exit_output_failed;
          }
        }
        if (soak) {
          const long end_kib = resident_kib();
          const std::string gpu_end = gpu_memory_report();
          const double growth_mib = static_cast<double>(end_kib - soak_rss_start_kib) / 1024.0;
          std::fprintf(stderr,
                       "fftscope: soak %d frames, %d steps (%d after warm-up): RSS %.1f MiB after warm-up, %.1f MiB "
                       "at the end, growth %.1f MiB (bound %.1f MiB)%s%s%s%s\n",
                       app.frame, soak_step_index, soak_step_index - soak_round, static_cast<double>(soak_rss_start_kib) / 1024.0,
                       static_cast<double>(end_kib) / 1024.0, growth_mib, options.soak_rss_mb, soak_gpu_start.empty() ? "" : "; start ",
                       soak_gpu_start.c_str(), gpu_end.empty() ? "" : ", end ", gpu_end.c_str());
          if (soak_step_index <= soak_round) {
            std::fprintf(stderr, "fftscope: soak too short: the warm-up round (%d steps) did not finish\n", soak_round);
            exit_code = exit_usage;
          } else if (growth_mib > options.soak_rss_mb) {
            std::fprintf(stderr, "fftscope: soak FAILED: RSS grew by more than %.1f MiB\n", options.soak_rss_mb);
            exit_code = 1;
          }
          break;
        }
        // A requested backend that failed and fell back must not look like a pass.
        if (exit_code == exit_ok && options.backend && app.backend_kind != *options.backend)
          exit_code = exit_backend_unavailable;
        break;
      }
      if (app.want_screenshot) {
        app.want_screenshot = false;
        const std::string path = app.export_dir + "/fftscope_screenshot.png";
        try {
          write_window_png(window, path);
          app.status = "Wrote " + path;
        } catch (const std::exception& e) {
          app.status = e.what();
        }
      }
      glfwSwapBuffers(window);
    }
    g_drop_target = nullptr;
    drain_jobs(app);
    if (app.load_job.valid()) app.load_job.wait();
    app.worker.reset();  // the backend goes on the worker thread, before the textures it wrote
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
#ifndef __SANITIZE_ADDRESS__
  glfwTerminate();
#else
  // Not in AddressSanitizer builds: glfwTerminate closes the display, Mesa then dlcloses its DRI
  // driver, and LeakSanitizer reports the strings that driver strdup'ed (still referenced from
  // its now unmapped globals) as leaks from an "unknown module". The process exits next anyway.
#endif
  return exit_code;
}

}  // namespace fftscope::gui
