// orca-sandbox: SDL2 + OpenGL3 + Dear ImGui. The loop follows Dear ImGui's
// example_sdl2_opengl3: events go to ImGui first; the app acts on them only when ImGui does not
// want them.

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <SDL.h>
#include <SDL_opengl.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/long_text.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/style.hpp"

#include "orca/scene/atomic_write.hpp"
#include "orca/scene/scene.hpp"

#include "authoring/tools/edit_tool.hpp"
#include "document/import_open.hpp"
#include "pictures/frame_recorder.hpp"
#include "pictures/pictures.hpp"
#include "pictures/screenshot.hpp"
#include "pictures/view_png.hpp"
#include "sandbox.hpp"
#include "shell/end_signals.hpp"
#include "shell/key_taps.hpp"
#include "shell/options.hpp"
#include "shell/sdl_events.hpp"
#include "shell/settings.hpp"

namespace fs = std::filesystem;
using namespace orca::app;

namespace {

// SDL window + GL context + ImGui context and backends, torn down in reverse order.
class Platform {
  public:
    Platform() = default;
    Platform(const Platform&) = delete;
    Platform& operator=(const Platform&) = delete;

    ~Platform() {
        if (m_imgui) saveLayout();
        if (m_glBackend) ImGui_ImplOpenGL3_Shutdown();
        if (m_sdlBackend) ImGui_ImplSDL2_Shutdown();
        if (m_imgui) ImGui::DestroyContext();
        if (m_gl) SDL_GL_DeleteContext(m_gl);
        if (m_window) SDL_DestroyWindow(m_window);
        if (m_sdl) SDL_Quit();
    }

    /// `iniFile`: where ImGui keeps window positions (empty: nowhere).
    bool init(int width, int height, bool interactive, const AppPaths& paths,
              const fs::path& iniFile, std::string& error) {
        // SIGTERM, SIGINT and SIGHUP are not a window close (shell/end_signals.hpp): the
        // interactive loop catches them itself; other modes end at once, as by default.
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
        if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) return fail(error, "SDL_Init");
        m_sdl = true;

#ifdef __APPLE__
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
#endif
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
        SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
        SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);

        Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI;
        if (interactive) flags |= SDL_WINDOW_RESIZABLE;
        m_window = SDL_CreateWindow("ORCA Sandbox", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                    width, height, flags);
        if (!m_window) return fail(error, "SDL_CreateWindow");
        m_gl = SDL_GL_CreateContext(m_window);
        if (!m_gl) return fail(error, "SDL_GL_CreateContext");
        SDL_GL_MakeCurrent(m_window, m_gl);
        SDL_GL_SetSwapInterval(interactive ? 1 : 0);

        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        m_imgui = true;
        ImGuiIO& io = ImGui::GetIO();
        // Window layout persists per user (next to the settings), never in the current
        // directory; screenshots use none so that they are reproducible.
        // Read and written here (loadLayout, saveLayout), not by ImGui: through the one reader
        // (a FIFO in its place must not block) and atomically.
        m_iniPath = interactive ? iniFile : fs::path();
        io.IniFilename = nullptr;
        loadLayout();
        findFont(paths);
        setAppearance(orca::ui::Theme::Dark, 100);

        if (!ImGui_ImplSDL2_InitForOpenGL(m_window, m_gl)) return fail(error, "ImGui SDL2 backend");
        m_sdlBackend = true;
        if (!ImGui_ImplOpenGL3_Init("#version 330 core"))
            return fail(error, "ImGui OpenGL3 backend");
        m_glBackend = true;
        return true;
    }

    [[nodiscard]] SDL_Window* window() const {
        return m_window;
    }

    /// Writes ImGui's window layout when ImGui asks for it (a few seconds after a change) or
    /// `now`, atomically.
    void saveLayout(bool now = true) {
        ImGuiIO& io = ImGui::GetIO();
        if (m_iniPath.empty() || !(now || io.WantSaveIniSettings)) return;
        io.WantSaveIniSettings = false;
        std::string error;
        if (!orca::scene::writeFileAtomic(m_iniPath, ImGui::SaveIniSettingsToMemory(), error))
            std::fprintf(stderr, "orca-sandbox: window layout not saved: %s\n", error.c_str());
    }

    void drawableSize(int& w, int& h) const {
        SDL_GL_GetDrawableSize(m_window, &w, &h);
    }

    /// Applies a theme and UI scale (percent) when they differ from the current ones: ImGui's
    /// style and the palette, and, for a new scale, the font re-rasterised at that size (the
    /// atlas and its GL texture rebuilt). Between frames only.
    void setAppearance(orca::ui::Theme theme, int scalePercent) {
        if (theme == m_theme && scalePercent == m_scalePercent) return;
        const bool rescale = scalePercent != m_scalePercent;
        m_theme = theme;
        m_scalePercent = scalePercent;
        const float scale = static_cast<float>(scalePercent) / 100.0f;
        orca::ui::applyStyle(theme, scale);
        if (!rescale) return;
        buildFont(scale);
        // Before the first frame the backend builds the texture itself (NewFrame).
        if (m_frames > 0) {
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
    }

    /// Builds one ImGui frame (timed as the frame's CPU cost) and renders it to the back
    /// buffer. Does not swap.
    void renderFrame(SandboxContext& ctx) {
        setAppearance(ctx.settings.theme, ctx.settings.uiScalePercent);
        const auto t0 = std::chrono::steady_clock::now();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        if (m_pointerKnown) ImGui::GetIO().MousePos = m_pointer;
        ImGui::NewFrame();
        buildFrame(ctx);
        ImGui::Render();
        // The first frame builds the font atlas: it would skew the frame time for seconds.
        if (m_frames++ > 0)
            ctx.session.frameTiming.add(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count());

        int w = 0;
        int h = 0;
        drawableSize(w, h);
        glViewport(0, 0, w, h);
        const orca::ui::Rgba bg = orca::ui::palette().kBackground;
        glClearColor(bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }

    /// Feeds an SDL event to ImGui's backend and tracks the pointer.
    ///
    /// ImGui 1.86's SDL backend reads the pointer with SDL_GetGlobalMouseState, which SDL's X11
    /// driver refreshes only on XInput2 raw events; synthetic input (XTest: xdotool under Xvfb)
    /// and some remote sessions send none, so hover froze at the first position. The pointer
    /// is taken from SDL's motion events instead, as the 1.87+ backends do.
    void processEvent(const SDL_Event& e) {
        ImGui_ImplSDL2_ProcessEvent(&e);
        if (e.type == SDL_MOUSEMOTION && e.motion.windowID == SDL_GetWindowID(m_window)) {
            m_pointer = {static_cast<float>(e.motion.x), static_cast<float>(e.motion.y)};
            m_pointerKnown = true;
        } else if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_LEAVE &&
                   !ImGui::IsAnyMouseDown()) {
            m_pointer = {-FLT_MAX, -FLT_MAX};
        }
    }

  private:
    void loadLayout() {
        std::error_code ec;
        if (m_iniPath.empty() || !fs::exists(m_iniPath, ec)) return;
        try {
            const std::string text = orca::scene::readTextFile(m_iniPath, kMaxLayoutBytes);
            ImGui::LoadIniSettingsFromMemory(text.data(), text.size());
        } catch (const orca::scene::SceneError& e) {
            std::fprintf(stderr, "orca-sandbox: window layout ignored: %s\n", e.what());
        }
    }

    bool fail(std::string& error, const char* what) {
        error = std::string(what) + " failed: " + SDL_GetError();
        return false;
    }

    // DejaVu Sans, the framebuffer's pixel density (fonts are rasterised at it: crisp on HiDPI).
    void findFont(const AppPaths& paths) {
        int ww = 0;
        int dw = 0;
        int h = 0;
        SDL_GetWindowSize(m_window, &ww, &h);
        SDL_GL_GetDrawableSize(m_window, &dw, &h);
        m_density = ww > 0 && dw > 0 ? static_cast<float>(dw) / static_cast<float>(ww) : 1.0f;
        const fs::path candidates[] = {
            paths.assetsDir.empty() ? fs::path() : paths.assetsDir / "fonts" / "DejaVuSans.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        };
        for (const fs::path& f : candidates) {
            if (f.empty()) continue;
            try {
                m_fontData = orca::scene::readTextFile(f, kMaxFontBytes);
                return;
            } catch (const orca::scene::SceneError&) {
            }
        }
    }

    // The font at 15 px times the UI scale, falling back to ImGui's built-in font (which does
    // not scale crisply: it is only enlarged).
    void buildFont(float scale) {
        ImGuiIO& io = ImGui::GetIO();
        io.Fonts->Clear();
        // The overlays' texts use a few glyphs beyond Latin-1 (infinity, tau, arrows).
        ImFontConfig config;
        config.FontDataOwnedByAtlas = false; // m_fontData stays ours (rebuilt at every scale)
        if (!m_fontData.empty() &&
            io.Fonts->AddFontFromMemoryTTF(m_fontData.data(), static_cast<int>(m_fontData.size()),
                                           15.0f * m_density * scale, &config,
                                           orca::ui::overlayGlyphRanges())) {
            io.FontGlobalScale = 1.0f / m_density;
            return;
        }
        io.Fonts->AddFontDefault();
        io.FontGlobalScale = scale;
    }

    bool m_sdl = false;
    SDL_Window* m_window = nullptr;
    SDL_GLContext m_gl = nullptr;
    bool m_imgui = false;
    bool m_sdlBackend = false;
    bool m_glBackend = false;
    static constexpr std::uint64_t kMaxLayoutBytes = std::uint64_t{1} << 20;
    static constexpr std::uint64_t kMaxFontBytes = std::uint64_t{64} << 20;
    fs::path m_iniPath;
    std::string m_fontData; ///< the TTF file's bytes (ImGui reads the font from memory)
    float m_density = 1.0f;
    orca::ui::Theme m_theme = orca::ui::Theme::Dark;
    int m_scalePercent = 0; ///< 0: no font built yet
    std::uint64_t m_frames = 0;
    ImVec2 m_pointer{-FLT_MAX, -FLT_MAX};
    bool m_pointerKnown = false; ///< an SDL motion event has arrived
};

int runScreenshot(Platform& platform, SandboxContext& ctx, const fs::path& out) {
    // ImGui settles window sizes on the first frame and the status bar shows the previous
    // frame's time, so the third frame is the one captured.
    for (int i = 0; i < 3; ++i)
        platform.renderFrame(ctx);
    int w = 0;
    int h = 0;
    platform.drawableSize(w, h);
    std::string error;
    if (ctx.pictures.pngView ? !writeViewPng(ctx, *ctx.pictures.pngView, out, w, h, error)
                             : !writeBackBufferPng(out, w, h, error)) {
        std::fprintf(stderr, "orca-sandbox: %s\n", error.c_str());
        return 1;
    }
    std::printf("wrote %s (%dx%d, step %llu, %zu agents, frame %.2f ms CPU)\n", out.c_str(), w, h,
                static_cast<unsigned long long>(ctx.session.sim.stepCount()),
                ctx.session.sim.agentCount(), ctx.session.frameTiming.average);
    return 0;
}

// Reads the part of the back buffer the pictures show (pictureFrame) in framebuffer pixels.
bool captureView(const Platform& platform, const SandboxContext& ctx,
                 std::vector<unsigned char>& rgb, int& width, int& height, std::string& error) {
    int fbw = 0;
    int fbh = 0;
    platform.drawableSize(fbw, fbh);
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    const orca::ui::Rect f = pictureFrame(ctx);
    auto px = [](double v, float s, int limit) {
        return std::clamp(static_cast<int>(std::lround(v * static_cast<double>(s))), 0, limit);
    };
    const int x0 = px(f.min.x, scale.x, fbw);
    const int y0 = px(f.min.y, scale.y, fbh);
    width = px(f.max.x, scale.x, fbw) - x0;
    height = px(f.max.y, scale.y, fbh) - y0;
    return readBackBuffer(x0, y0, width, height, fbh, rgb, error);
}

int runSvg(Platform& platform, SandboxContext& ctx, const fs::path& out) {
    // As --screenshot: the third frame is the settled one.
    for (int i = 0; i < 3; ++i)
        platform.renderFrame(ctx);
    std::string error;
    if (!exportSvg(ctx, out, error)) {
        std::fprintf(stderr, "orca-sandbox: %s\n", error.c_str());
        return 1;
    }
    const orca::ExplainRecord* rec = primaryRecord(ctx.explain);
    std::printf("wrote %s (step %llu, %zu agents, %zu half-planes)\n", out.c_str(),
                static_cast<unsigned long long>(ctx.session.sim.stepCount()),
                ctx.session.sim.agentCount(), rec ? rec->lines.size() : std::size_t{0});
    return 0;
}

// --record: one frame per step (per k steps when a step is shorter than a GIF's shortest
// reliable delay, 20 ms), `steps` steps, frames shown for the simulated time between them.
int runRecord(Platform& platform, SandboxContext& ctx, const fs::path& out, std::uint64_t steps) {
    for (int i = 0; i < 2; ++i)
        platform.renderFrame(ctx);
    const double dt = ctx.session.sim.params().timeStep;
    const auto every =
        dt >= 0.02 ? std::uint64_t{1} : static_cast<std::uint64_t>(std::ceil(0.02 / dt));
    const std::uint64_t first = ctx.session.sim.stepCount();
    FrameRecorder recorder;
    std::vector<unsigned char> rgb;
    std::string error;
    double t = 0.0;
    std::uint64_t done = 0;
    int w = 0;
    int h = 0;
    for (;;) {
        platform.renderFrame(ctx);
        bool ok = captureView(platform, ctx, rgb, w, h, error);
        if (ok && !recorder.active()) ok = recorder.start(out, w, h, error);
        if (ok) ok = recorder.addFrame(rgb, t, error);
        if (!ok) {
            std::fprintf(stderr, "orca-sandbox: --record: %s\n", error.c_str());
            return 1;
        }
        if (done >= steps) break;
        const std::uint64_t n = std::min(every, steps - done);
        stepSimulation(ctx, static_cast<int>(n));
        done += n;
        t += static_cast<double>(n) * dt;
    }
    if (!recorder.finish(t + static_cast<double>(every) * dt, error)) {
        std::fprintf(stderr, "orca-sandbox: --record: %s\n", error.c_str());
        return 1;
    }
    std::printf("wrote %s (%zu frames of %dx%d, steps %llu..%llu, every %llu, %.2f s simulated, "
                "%llu bytes)\n",
                out.c_str(), recorder.framesWritten(), w, h, static_cast<unsigned long long>(first),
                static_cast<unsigned long long>(ctx.session.sim.stepCount()),
                static_cast<unsigned long long>(every), t,
                static_cast<unsigned long long>(recorder.bytes()));
    return 0;
}

// The window loop's side of recording: starts when asked (a few frames after the dialog is
// gone), captures a frame whenever the simulation's step changes, writes on stop or quit.
class InteractiveRecording {
  public:
    /// Before the frame is rendered: true when the recording starts with this frame.
    bool startDue(SandboxContext& ctx) {
        if (!ctx.pictures.recordStart) {
            m_wait = 0;
            return false;
        }
        return ++m_wait >= 3;
    }

    /// After the frame is rendered (the back buffer holds it).
    void afterFrame(const Platform& platform, SandboxContext& ctx, bool start) {
        PicturesState& pics = ctx.pictures;
        const double dt = ctx.session.sim.params().timeStep;
        std::string error;
        if (start) {
            const fs::path file = *std::exchange(pics.recordStart, std::nullopt);
            m_wait = 0;
            int w = 0;
            int h = 0;
            if (!captureView(platform, ctx, m_rgb, w, h, error) ||
                !m_recorder.start(file, w, h, error) || !m_recorder.addFrame(m_rgb, 0.0, error)) {
                m_recorder.abandon();
                reportFailure(ctx.windows, "Could not record", error);
                return;
            }
            pics.recording = true;
            pics.recordFile = file;
            pics.recordFrames = 1;
            m_step = ctx.session.sim.stepCount();
            m_time = 0.0;
            setNote(ctx.windows, "recording to " + file.string() + " (Ctrl+R stops)");
        } else if (m_recorder.active() && ctx.session.sim.stepCount() != m_step) {
            // Jumps on the timeline count as a few steps, not as the time they skip.
            const std::uint64_t s = ctx.session.sim.stepCount();
            const std::uint64_t d = s > m_step ? s - m_step : m_step - s;
            m_time += static_cast<double>(std::min<std::uint64_t>(d, 4)) * dt;
            m_step = s;
            int w = 0;
            int h = 0;
            if (!captureView(platform, ctx, m_rgb, w, h, error)) {
                stop(ctx);
                reportFailure(ctx.windows, "Recording stopped", error);
                return;
            }
            if (w != m_recorder.width() || h != m_recorder.height()) {
                stop(ctx);
                ctx.windows.messages.push(
                    "Recording stopped",
                    "The view changed size; what was recorded so far is saved.");
                return;
            }
            if (!m_recorder.addFrame(m_rgb, m_time, error)) {
                m_recorder.abandon();
                pics.recording = false;
                reportFailure(ctx.windows, "Could not record", error);
                return;
            }
            ++pics.recordFrames;
        }
        if (std::exchange(pics.recordStop, false)) {
            pics.recordStart.reset();
            stop(ctx);
        }
    }

    /// Finishes and writes the recording (if any).
    void stop(SandboxContext& ctx) {
        PicturesState& pics = ctx.pictures;
        pics.recording = false;
        if (!m_recorder.active()) return;
        std::string error;
        const double dt = ctx.session.sim.params().timeStep;
        if (!m_recorder.finish(m_time + dt, error)) {
            reportFailure(ctx.windows, "Could not save the recording", error);
            return;
        }
        char size[64];
        std::snprintf(size, sizeof size, "%zu frames, %.1f MB", pics.recordFrames,
                      static_cast<double>(m_recorder.bytes()) / 1e6);
        setNote(ctx.windows, "recorded " + pics.recordFile.string() + " (" + size + ")");
    }

  private:
    FrameRecorder m_recorder;
    std::vector<unsigned char> m_rgb;
    int m_wait = 0;
    std::uint64_t m_step = 0;
    double m_time = 0.0;
};

int runInteractive(Platform& platform, SandboxContext& ctx, int maxFrames) {
    const Uint32 windowId = SDL_GetWindowID(platform.window());
    const double ticksPerSecond = static_cast<double>(SDL_GetPerformanceFrequency());
    Uint64 last = SDL_GetPerformanceCounter();
    // The autosave period runs from the start (the clock counts from the machine's boot: without
    // this, the first edit was autosaved at once or only a period after the boot).
    ctx.doc.autosave.reset(static_cast<double>(last) / ticksPerSecond);
    int frames = 0;
    bool titleUnsaved = false;
    int screenshotWait = 0;
    InteractiveRecording recording;
    KeyTaps taps; // releases held back one frame (shell/key_taps.hpp)
    EndSignals endSignals;
    for (;;) {
        for (const SDL_Event& up : taps.releasesDue())
            platform.processEvent(up);
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            if (!taps.passNow(e)) continue;
            platform.processEvent(e);
            handleEvent(ctx, e, windowId);
        }
        if (const int signal = endSignals.take()) endOnSignal(ctx, signal);
        if (ctx.requests.quit) break;

        const Uint64 now = SDL_GetPerformanceCounter();
        advanceSimulation(ctx, static_cast<double>(now - last) / ticksPerSecond);
        last = now;
        autosaveTick(ctx, static_cast<double>(now) / ticksPerSecond);

        // A screenshot asked for from the dialog: taken a few frames later, when the dialog
        // is gone and windows that appear auto-sized (tooltips) had their hidden first frame.
        std::optional<fs::path> shot;
        if (ctx.requests.screenshot && ++screenshotWait >= 3) {
            shot = std::exchange(ctx.requests.screenshot, std::nullopt);
            screenshotWait = 0;
        }
        const bool recordStart = recording.startDue(ctx);
        platform.renderFrame(ctx);
        if (ctx.pictures.svgRequest) {
            const fs::path file = *std::exchange(ctx.pictures.svgRequest, std::nullopt);
            std::string error;
            if (exportSvg(ctx, file, error))
                setNote(ctx.windows, "SVG " + file.string());
            else
                reportFailure(ctx.windows, "Could not export the SVG", error);
        }
        recording.afterFrame(platform, ctx, recordStart);
        if (shot) {
            int w = 0;
            int h = 0;
            platform.drawableSize(w, h);
            std::string error;
            if (ctx.pictures.pngView ? writeViewPng(ctx, *ctx.pictures.pngView, *shot, w, h, error)
                                     : writeBackBufferPng(*shot, w, h, error))
                setNote(ctx.windows, "screenshot " + shot->string());
            else
                reportFailure(ctx.windows, "Could not save the screenshot", error);
        }
        SDL_GL_SwapWindow(platform.window());

        // Without vsync (Xvfb, some drivers) or while minimised the loop would spin: cap it.
        const bool minimized = (SDL_GetWindowFlags(platform.window()) & SDL_WINDOW_MINIMIZED) != 0;
        const double minFrameSeconds = minimized ? 0.05 : 1.0 / 240.0;
        const double spent =
            static_cast<double>(SDL_GetPerformanceCounter() - now) / ticksPerSecond;
        if (spent < minFrameSeconds)
            SDL_Delay(static_cast<Uint32>((minFrameSeconds - spent) * 1000.0));

        platform.saveLayout(false);
        lessonWalkTick(ctx);
        if (!applyRequests(ctx)) break;
        if (ctx.requests.titleChanged || titleUnsaved != ctx.doc.unsaved.unsaved()) {
            titleUnsaved = ctx.doc.unsaved.unsaved();
            const std::string title = orca::ui::shownLine( // a file's name: one line, cut
                ctx.playback.active ? playbackTitle(ctx) : sceneTitle(ctx.doc));
            SDL_SetWindowTitle(platform.window(),
                               ("ORCA Sandbox - " + title + (titleUnsaved ? " *" : "")).c_str());
            ctx.requests.titleChanged = false;
        }
        if (maxFrames > 0 && ++frames >= maxFrames) break;
    }
    recording.stop(ctx); // quitting while recording keeps the recording
    writeStateDump(ctx, "exit");
    if (!ctx.doc.unsaved.unsaved()) forgetRecovery(ctx);
    if (maxFrames > 0) {
        std::printf(
            "frames %llu (after the first): CPU frame build %.3f ms mean; steps %llu: %.3f ms mean "
            "(%d threads); %zu agents\n",
            static_cast<unsigned long long>(ctx.session.frameTiming.count),
            ctx.session.frameTiming.mean(),
            static_cast<unsigned long long>(ctx.session.stepTiming.count),
            ctx.session.stepTiming.mean(), ctx.session.threads, ctx.session.sim.agentCount());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const ParseResult parsed = parseOptions(argc, argv);
    if (!parsed.options) return parsed.exitCode;
    const Options& opt = *parsed.options;
    const bool interactive = !opt.screenshot && !opt.svg && !opt.record;

    SandboxContext ctx;
    ctx.interactive = interactive;
    ctx.paths = resolveAppPaths();
    ctx.session.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (opt.dumpState) ctx.dumpFile = *opt.dumpState;
    ctx.doc.maxFileSize = opt.maxFileSize;
    ctx.timeline.memoryBudget = static_cast<std::size_t>(opt.historyBudget);

    // Settings (interactive only: screenshots must not depend on the user's choices).
    fs::path settingsFile;
    if (interactive) {
        settingsFile = opt.settingsFile ? *opt.settingsFile : defaultSettingsFile();
        SettingsLoad s = loadSettings(settingsFile);
        if (s.refused && opt.settingsFile) { // a folder, a FIFO...: a wrong --settings
            std::fprintf(stderr, "orca-sandbox: error: --settings: %s\n", s.error.c_str());
            return 2;
        }
        if (!s.error.empty()) {
            std::fprintf(stderr, "orca-sandbox: %s\n", s.error.c_str());
            ctx.windows.messages.push("Settings ignored", s.error);
        }
        ctx.settings = std::move(s.settings);
        ctx.view.layers = ctx.settings.layers;
        ctx.windows.panels = ctx.settings.panels;
        ctx.windows.showHelp = !s.existed; // first launch
        ctx.windows.helpFirstLaunch = ctx.windows.showHelp;
    }

    // The scene is loaded before any window opens, so a broken file fails fast.
    fs::path sceneFile;
    if (opt.scene)
        sceneFile = resolveSceneArgument(*opt.scene, ctx.paths);
    else if (!ctx.paths.scenesDir.empty())
        sceneFile = ctx.paths.scenesDir / "welcome.json";

    std::string error;
    bool loaded = false;
    if (opt.lesson) {
        const int rc = openLessonArgument(ctx, *opt.lesson, opt.lessonPage, error);
        if (opt.lessonWalk) ctx.lesson.walkDir = *opt.lessonWalk;
        if (rc == 2) { // no such lesson or page: a usage error, as --select 99 is
            std::fprintf(stderr, "%s\n", error.c_str());
            return 2;
        }
        loaded = rc == 0;
        // A lesson named on the first launch is the guide: its window takes Help's place (as
        // Help's "Start here" does), rather than both covering the view.
        if (loaded) ctx.windows.showHelp = ctx.windows.helpFirstLaunch = false;
    } else if (sceneFile.empty())
        error = "orca-sandbox: error: no scene given and the scenes/ folder was not found next to "
                "the executable";
    else
        loaded = loadSceneFile(ctx, sceneFile, error);
    if (!loaded) {
        std::fprintf(stderr, "%s\n", error.c_str());
        if (!interactive) return 1;
        ctx.windows.messages.push("Could not open scene",
                                  error + "\n\nStarting with an empty scene.");
        setEmptyScene(ctx);
    } else if (opt.trajectory && !openTrajectoryFile(ctx, *opt.trajectory, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        if (!interactive) return 1;
        ctx.windows.messages.push("Could not open the trajectory", error);
    }
    if (opt.uiScalePercent) ctx.settings.uiScalePercent = *opt.uiScalePercent;
    if (opt.lightTheme)
        ctx.settings.theme = *opt.lightTheme ? orca::ui::Theme::Light : orca::ui::Theme::Dark;
    if (opt.layers) {
        std::string layerError;
        parseLayerList(*opt.layers, ctx.view.layers, layerError); // validated by parseOptions
    }
    for (const std::string& p : opt.panels)
        openPanel(ctx, p);
    if (opt.tool) {
        if (const ToolInfo* t = findTool(*opt.tool)) setTool(ctx, t->tool);
    }
    if (!opt.select.empty()) {
        if (!selectByIndex(ctx.explain, ctx.session.sim, opt.select, error)) {
            std::fprintf(stderr, "orca-sandbox: error: --select: %s\n", error.c_str());
            return 2;
        }
    }
    if (opt.svgView) ctx.pictures.svgView = *opt.svgView;
    ctx.pictures.pngView = opt.pngView;
    if (opt.solveStep) {
        ctx.explain.solve.active = true;
        ctx.explain.solve.step = *opt.solveStep;
        ctx.explain.construction.active = false;
    }
    if (opt.constructionStep) {
        ctx.explain.construction.active = true;
        ctx.explain.construction.neighbor = *opt.constructionStep;
        ctx.explain.construction.phase = opt.constructionPhase;
        ctx.explain.solve.active = false; // clamped into the record's walk every frame
    }
    auto branchIfDue = [&]() -> bool {
        if (!opt.branch || ctx.session.sim.stepCount() != opt.branchAt) return true;
        std::string branchError;
        if (startBranch(ctx, orca::ui::splitAssignments(*opt.branch), false, branchError))
            return true;
        std::fprintf(stderr, "orca-sandbox: error: --branch: %s\n", branchError.c_str());
        return false;
    };
    if (opt.branch && opt.branchAt > opt.steps) {
        std::fprintf(stderr, "orca-sandbox: error: --branch-at %llu is after --steps %llu\n",
                     static_cast<unsigned long long>(opt.branchAt),
                     static_cast<unsigned long long>(opt.steps));
        return 2;
    }
    for (std::uint64_t i = 0; i < opt.steps; ++i) {
        if (!branchIfDue()) return 2;
        stepSimulation(ctx, 1);
    }
    if (!branchIfDue()) return 2;
    if (opt.seek) {
        const std::uint64_t reached = seekTo(ctx, *opt.seek);
        if (reached != *opt.seek)
            std::fprintf(stderr,
                         "orca-sandbox: warning: --seek %llu is outside the recorded steps; went "
                         "to step %llu\n",
                         static_cast<unsigned long long>(*opt.seek),
                         static_cast<unsigned long long>(reached));
    }
    if (opt.tryFix) {
        ctx.timeline.why.open = true;
        refreshWhy(ctx);
        if (!tryDiagnosisFix(ctx, *opt.tryFix - 1)) {
            const orca::Diagnosis* d = currentDiagnosis(ctx);
            const std::string why =
                !d ? std::string("no diagnosis (select an agent with --select)")
                   : "the diagnosis has " + std::to_string(d->fixes.size()) + " fixes";
            std::fprintf(stderr, "orca-sandbox: error: --try-fix %zu: %s\n", *opt.tryFix,
                         why.c_str());
            return 2;
        }
    }
    RecoveryLock recoveryLock; // this process's recovery file, locked until main returns
    if (interactive) {
        // A lesson page says whether it plays.
        ctx.session.running =
            opt.lesson ? ctx.session.running && !opt.paused : loaded && !opt.paused && !opt.seek;
        // Unsaved work from a run that did not end cleanly (a recovery file no running sandbox
        // holds) is claimed and offered back; else a free recovery file is claimed.
        std::string recoveryError;
        recoveryLock = claimRecoveryFile(settingsFile, recoveryError);
        if (!recoveryError.empty())
            std::fprintf(stderr, "orca-sandbox: %s\n", recoveryError.c_str());
        ctx.doc.recoveryFile = recoveryLock.file();
        ctx.doc.autosave = AutosaveTimer(opt.autosaveSeconds);
        ctx.doc.pendingRecovery = readRecovery(ctx.doc.recoveryFile, recoveryError);
        if (!recoveryError.empty()) {
            std::fprintf(stderr, "orca-sandbox: %s\n", recoveryError.c_str());
            ctx.windows.messages.push("Recovery file unreadable", recoveryError);
        }
        if (ctx.doc.pendingRecovery) {
            ctx.windows.dialog = Dialog::Recover;
            ctx.session.running = false;
        }
    } else
        ctx.windows.messages = {}; // warnings were printed; a modal must not cover the screenshot

    Platform platform;
    const fs::path iniFile =
        settingsFile.empty() ? fs::path() : settingsFile.parent_path() / "imgui.ini";
    if (!platform.init(opt.width, opt.height, interactive, ctx.paths, iniFile, error)) {
        std::fprintf(stderr, "orca-sandbox: %s\n", error.c_str());
        return 1;
    }
    if (!interactive) {
        const int rc = opt.svg      ? runSvg(platform, ctx, *opt.svg)
                       : opt.record ? runRecord(platform, ctx, *opt.record, opt.recordSteps)
                                    : runScreenshot(platform, ctx, *opt.screenshot);
        writeStateDump(ctx, "exit");
        return rc;
    }
    const int rc = runInteractive(platform, ctx, opt.frames);
    if (!ctx.lesson.lesson) { // else ctx.settings holds the user's view (openLesson)
        ctx.settings.layers = ctx.view.layers;
        ctx.settings.panels = ctx.windows.panels;
    }
    if (!settingsFile.empty()) {
        std::string settingsError;
        if (!saveSettings(ctx.settings, settingsFile, settingsError))
            std::fprintf(stderr, "orca-sandbox: settings not saved: %s\n", settingsError.c_str());
    }
    return rc;
}
