// orca-sandbox: SDL2 + OpenGL3 + Dear ImGui. The loop follows Dear ImGui's
// example_sdl2_opengl3: events go to ImGui first; the app acts on them only when ImGui does not
// want them.

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include <SDL.h>
#include <SDL_opengl.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/style.hpp"

#include "options.hpp"
#include "sandbox.hpp"
#include "screenshot.hpp"
#include "settings.hpp"

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
        m_iniPath = interactive ? iniFile.string() : std::string();
        io.IniFilename = m_iniPath.empty() ? nullptr : m_iniPath.c_str();
        orca::ui::applyStyle();
        loadFont(paths);

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

    void drawableSize(int& w, int& h) const {
        SDL_GL_GetDrawableSize(m_window, &w, &h);
    }

    /// Builds one ImGui frame (timed as the frame's CPU cost) and renders it to the back
    /// buffer. Does not swap.
    void renderFrame(SandboxContext& ctx) {
        const auto t0 = std::chrono::steady_clock::now();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        if (m_pointerKnown) ImGui::GetIO().MousePos = m_pointer;
        ImGui::NewFrame();
        buildFrame(ctx);
        ImGui::Render();
        // The first frame builds the font atlas: it would skew the frame time for seconds.
        if (m_frames++ > 0)
            ctx.frameTiming.add(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count());

        int w = 0;
        int h = 0;
        drawableSize(w, h);
        glViewport(0, 0, w, h);
        constexpr orca::ui::Rgba bg = orca::ui::palette::kBackground;
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
    bool fail(std::string& error, const char* what) {
        error = std::string(what) + " failed: " + SDL_GetError();
        return false;
    }

    // DejaVu Sans rasterised at the framebuffer's pixel density (crisp on HiDPI), falling back
    // to ImGui's built-in font.
    void loadFont(const AppPaths& paths) {
        int ww = 0;
        int dw = 0;
        int h = 0;
        SDL_GetWindowSize(m_window, &ww, &h);
        SDL_GL_GetDrawableSize(m_window, &dw, &h);
        const float density =
            ww > 0 && dw > 0 ? static_cast<float>(dw) / static_cast<float>(ww) : 1.0f;
        const fs::path candidates[] = {
            paths.assetsDir.empty() ? fs::path() : paths.assetsDir / "fonts" / "DejaVuSans.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        };
        ImGuiIO& io = ImGui::GetIO();
        for (const fs::path& f : candidates) {
            std::error_code ec;
            if (f.empty() || !fs::exists(f, ec)) continue;
            // The overlays' texts use a few glyphs beyond Latin-1 (infinity, tau, arrows).
            if (io.Fonts->AddFontFromFileTTF(f.c_str(), 15.0f * density, nullptr,
                                             orca::ui::overlayGlyphRanges())) {
                io.FontGlobalScale = 1.0f / density;
                return;
            }
        }
        io.Fonts->AddFontDefault();
    }

    bool m_sdl = false;
    SDL_Window* m_window = nullptr;
    SDL_GLContext m_gl = nullptr;
    bool m_imgui = false;
    bool m_sdlBackend = false;
    bool m_glBackend = false;
    std::string m_iniPath;
    std::uint64_t m_frames = 0;
    ImVec2 m_pointer{-FLT_MAX, -FLT_MAX};
    bool m_pointerKnown = false; ///< an SDL motion event has arrived
};

void handleEvent(SandboxContext& ctx, const SDL_Event& e, Uint32 windowId) {
    switch (e.type) {
    case SDL_QUIT: // also SIGINT / SIGTERM (SDL's signal handlers)
        requestQuit(ctx);
        break;
    case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_CLOSE && e.window.windowID == windowId)
            requestQuit(ctx);
        break;
    case SDL_DROPFILE: {
        const fs::path file(e.drop.file);
        SDL_free(e.drop.file);
        if (file.extension() == ".json")
            requestLoad(ctx, file);
        else
            ctx.messages.push("Not a scene file",
                              file.string() + "\n\nDrop a .json scene file to open it.");
        break;
    }
    case SDL_KEYDOWN: {
        const KeyBinding* b = findBinding(e.key.keysym.sym, e.key.keysym.mod, keyContext(ctx));
        // ImGui's text fields and dialogs keep the keys, except the state dump (tests must
        // see the state whatever window is open).
        if (ImGui::GetIO().WantCaptureKeyboard && !(b && b->action == Action::DumpState)) break;
        ctx.editor.nudgeBig = (e.key.keysym.mod & KMOD_SHIFT) != 0;
        if (b && (e.key.repeat == 0 || b->repeats)) applyAction(ctx, b->action);
        break;
    }
    default:
        break;
    }
}

int runScreenshot(Platform& platform, SandboxContext& ctx, const fs::path& out) {
    // ImGui settles window sizes on the first frame and the status bar shows the previous
    // frame's time, so the third frame is the one captured.
    for (int i = 0; i < 3; ++i)
        platform.renderFrame(ctx);
    int w = 0;
    int h = 0;
    platform.drawableSize(w, h);
    std::string error;
    if (!writeBackBufferPng(out, w, h, error)) {
        std::fprintf(stderr, "orca-sandbox: %s\n", error.c_str());
        return 1;
    }
    std::printf("wrote %s (%dx%d, step %llu, %zu agents, frame %.2f ms CPU)\n", out.c_str(), w, h,
                static_cast<unsigned long long>(ctx.sim.stepCount()), ctx.sim.agentCount(),
                ctx.frameTiming.average);
    return 0;
}

int runInteractive(Platform& platform, SandboxContext& ctx, int maxFrames) {
    const Uint32 windowId = SDL_GetWindowID(platform.window());
    const double ticksPerSecond = static_cast<double>(SDL_GetPerformanceFrequency());
    Uint64 last = SDL_GetPerformanceCounter();
    int frames = 0;
    bool titleUnsaved = false;
    int screenshotWait = 0;
    for (;;) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            platform.processEvent(e);
            handleEvent(ctx, e, windowId);
        }
        if (ctx.quitRequest) break;

        const Uint64 now = SDL_GetPerformanceCounter();
        advanceSimulation(ctx, static_cast<double>(now - last) / ticksPerSecond);
        last = now;
        autosaveTick(ctx, static_cast<double>(now) / ticksPerSecond);

        // A screenshot asked for from the dialog: taken a few frames later, when the dialog
        // is gone and windows that appear auto-sized (tooltips) had their hidden first frame.
        std::optional<fs::path> shot;
        if (ctx.screenshotRequest && ++screenshotWait >= 3) {
            shot = std::exchange(ctx.screenshotRequest, std::nullopt);
            screenshotWait = 0;
        }
        platform.renderFrame(ctx);
        if (shot) {
            int w = 0;
            int h = 0;
            platform.drawableSize(w, h);
            std::string error;
            if (writeBackBufferPng(*shot, w, h, error))
                setNote(ctx, "screenshot " + shot->string());
            else
                ctx.messages.push("Could not save the screenshot", error);
        }
        SDL_GL_SwapWindow(platform.window());

        // Without vsync (Xvfb, some drivers) or while minimised the loop would spin: cap it.
        const bool minimized = (SDL_GetWindowFlags(platform.window()) & SDL_WINDOW_MINIMIZED) != 0;
        const double minFrameSeconds = minimized ? 0.05 : 1.0 / 240.0;
        const double spent =
            static_cast<double>(SDL_GetPerformanceCounter() - now) / ticksPerSecond;
        if (spent < minFrameSeconds)
            SDL_Delay(static_cast<Uint32>((minFrameSeconds - spent) * 1000.0));

        if (!applyRequests(ctx)) break;
        if (ctx.titleChanged || titleUnsaved != ctx.unsaved.unsaved()) {
            titleUnsaved = ctx.unsaved.unsaved();
            SDL_SetWindowTitle(
                platform.window(),
                ("ORCA Sandbox - " + sceneTitle(ctx) + (titleUnsaved ? " *" : "")).c_str());
            ctx.titleChanged = false;
        }
        if (maxFrames > 0 && ++frames >= maxFrames) break;
    }
    writeStateDump(ctx, "exit");
    if (!ctx.unsaved.unsaved()) forgetRecovery(ctx);
    if (maxFrames > 0) {
        std::printf(
            "frames %llu (after the first): CPU frame build %.3f ms mean; steps %llu: %.3f ms mean "
            "(%d threads); %zu agents\n",
            static_cast<unsigned long long>(ctx.frameTiming.count), ctx.frameTiming.mean(),
            static_cast<unsigned long long>(ctx.stepTiming.count), ctx.stepTiming.mean(),
            ctx.threads, ctx.sim.agentCount());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const ParseResult parsed = parseOptions(argc, argv);
    if (!parsed.options) return parsed.exitCode;
    const Options& opt = *parsed.options;
    const bool interactive = !opt.screenshot.has_value();

    SandboxContext ctx;
    ctx.interactive = interactive;
    ctx.paths = resolveAppPaths();
    ctx.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (opt.dumpState) ctx.dumpFile = *opt.dumpState;

    // Settings (interactive only: screenshots must not depend on the user's choices).
    fs::path settingsFile;
    if (interactive) {
        settingsFile = opt.settingsFile ? *opt.settingsFile : defaultSettingsFile();
        SettingsLoad s = loadSettings(settingsFile);
        if (!s.error.empty()) {
            std::fprintf(stderr, "orca-sandbox: %s\n", s.error.c_str());
            ctx.messages.push("Settings ignored", s.error);
        }
        ctx.settings = std::move(s.settings);
        ctx.layers = ctx.settings.layers;
        ctx.panels = ctx.settings.panels;
        ctx.showHelp = !s.existed; // first launch
    }

    // The scene is loaded before any window opens, so a broken file fails fast.
    fs::path sceneFile;
    if (opt.scene)
        sceneFile = resolveSceneArgument(*opt.scene, ctx.paths);
    else if (!ctx.paths.scenesDir.empty())
        sceneFile = ctx.paths.scenesDir / "circle.json";

    std::string error;
    bool loaded = false;
    if (sceneFile.empty())
        error = "orca-sandbox: error: no scene given and the scenes/ folder was not found next to "
                "the executable";
    else
        loaded = loadSceneFile(ctx, sceneFile, error);
    if (!loaded) {
        std::fprintf(stderr, "%s\n", error.c_str());
        if (!interactive) return 1;
        ctx.messages.push("Could not open scene", error + "\n\nStarting with an empty scene.");
        setEmptyScene(ctx);
    }
    if (opt.layers) {
        std::string layerError;
        parseLayerList(*opt.layers, ctx.layers, layerError); // validated by parseOptions
    }
    for (const std::string& p : opt.panels) {
        if (p == "parameters") ctx.panels.parameters = true;
        if (p == "inspector") ctx.panels.inspector = true;
        if (p == "metrics") ctx.panels.metrics = true;
        if (p == "linter") ctx.panels.linter = true;
        if (p == "generators") ctx.panels.generators = true;
        if (p == "defaults") ctx.panels.agentDefaults = true;
        if (p == "events") ctx.panels.events = true;
        if (p == "why") ctx.timeline.why.open = true;
        if (p == "compare") ctx.panels.compare = true;
    }
    if (opt.tool) {
        for (std::size_t i = 0; i < std::size(kToolNames); ++i)
            if (*opt.tool == kToolNames[i]) setTool(ctx, static_cast<Tool>(i));
    }
    if (!opt.select.empty()) {
        if (!selectByIndex(ctx, opt.select, error)) {
            std::fprintf(stderr, "orca-sandbox: error: --select: %s\n", error.c_str());
            return 2;
        }
    }
    auto branchIfDue = [&]() -> bool {
        if (!opt.branch || ctx.sim.stepCount() != opt.branchAt) return true;
        std::string branchError;
        if (startBranch(ctx, orca::ui::splitAssignments(*opt.branch), false, branchError)) return true;
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
    if (interactive) {
        ctx.running = loaded && !opt.paused && !opt.seek;
        // Unsaved work from a run that did not end cleanly: offer it back.
        ctx.recoveryFile = recoveryFileFor(settingsFile);
        ctx.autosave = AutosaveTimer(opt.autosaveSeconds);
        std::string recoveryError;
        ctx.pendingRecovery = readRecovery(ctx.recoveryFile, recoveryError);
        if (!recoveryError.empty()) {
            std::fprintf(stderr, "orca-sandbox: %s\n", recoveryError.c_str());
            ctx.messages.push("Recovery file unreadable", recoveryError);
        }
        if (ctx.pendingRecovery) {
            ctx.dialog = Dialog::Recover;
            ctx.running = false;
        }
    } else
        ctx.messages = {}; // warnings were printed; a modal must not cover the screenshot

    Platform platform;
    const fs::path iniFile =
        settingsFile.empty() ? fs::path() : settingsFile.parent_path() / "imgui.ini";
    if (!platform.init(opt.width, opt.height, interactive, ctx.paths, iniFile, error)) {
        std::fprintf(stderr, "orca-sandbox: %s\n", error.c_str());
        return 1;
    }
    if (!interactive) {
        const int rc = runScreenshot(platform, ctx, *opt.screenshot);
        writeStateDump(ctx, "exit");
        return rc;
    }
    const int rc = runInteractive(platform, ctx, opt.frames);
    ctx.settings.layers = ctx.layers;
    ctx.settings.panels = ctx.panels;
    if (!settingsFile.empty()) {
        std::string settingsError;
        if (!saveSettings(ctx.settings, settingsFile, settingsError))
            std::fprintf(stderr, "orca-sandbox: settings not saved: %s\n", settingsError.c_str());
    }
    return rc;
}
