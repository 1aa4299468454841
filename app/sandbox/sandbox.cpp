#include "sandbox.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>
#include <utility>

#include <imgui.h>

#include "orca/ui/camera_input.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void installScene(SandboxContext& ctx, scene::Scene scene, Simulator sim, fs::path file) {
    ctx.scene = std::move(scene);
    ctx.sim = std::move(sim);
    ctx.sim.setThreadCount(ctx.threads);
    ctx.sceneFile = std::move(file);
    ctx.running = false;
    ctx.clock.reset();
    ctx.pendingSingleSteps = 0;
    ctx.fitRequested = true;
    ctx.titleChanged = true;
}

void drawSceneMenu(SandboxContext& ctx) {
    if (!ImGui::BeginMenu("Scene")) return;
    if (ImGui::IsWindowAppearing()) ctx.sceneFiles = listSceneFiles(ctx.paths.scenesDir);
    if (ctx.paths.scenesDir.empty())
        ImGui::TextDisabled("scenes/ folder not found");
    else if (ctx.sceneFiles.empty())
        ImGui::TextDisabled("no .json files in %s", ctx.paths.scenesDir.c_str());
    for (const fs::path& f : ctx.sceneFiles) {
        const std::string name = f.filename().string();
        if (ImGui::MenuItem(name.c_str(), nullptr, f == ctx.sceneFile)) ctx.loadRequest = f;
    }
    ImGui::TextDisabled("(or drop a .json file on the window)");
    ImGui::Separator();
    if (ImGui::MenuItem("Restart", shortcutLabel(Action::Restart).c_str()))
        applyAction(ctx, Action::Restart);
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", shortcutLabel(Action::Quit).c_str()))
        applyAction(ctx, Action::Quit);
    ImGui::EndMenu();
}

void drawSimulationMenu(SandboxContext& ctx) {
    if (!ImGui::BeginMenu("Simulation")) return;
    if (ImGui::MenuItem(ctx.running ? "Pause" : "Play", shortcutLabel(Action::TogglePause).c_str()))
        applyAction(ctx, Action::TogglePause);
    if (ImGui::MenuItem("Single step", shortcutLabel(Action::Step).c_str()))
        applyAction(ctx, Action::Step);
    ImGui::Separator();
    ClockSettings& c = ctx.clockSettings;
    if (ImGui::RadioButton("Real time", c.mode == RunMode::RealTime)) c.mode = RunMode::RealTime;
    ImGui::SameLine();
    if (ImGui::RadioButton("Steps per frame", c.mode == RunMode::StepsPerFrame))
        c.mode = RunMode::StepsPerFrame;
    ImGui::PushItemWidth(200.0f);
    if (c.mode == RunMode::RealTime) {
        float scale = static_cast<float>(c.timeScale);
        if (ImGui::SliderFloat("Speed (x real time)", &scale, 0.25f, 64.0f, "%.2f",
                               ImGuiSliderFlags_Logarithmic))
            c.timeScale = static_cast<double>(scale);
        ImGui::SliderInt("Max steps per frame", &c.maxCatchUpSteps, 1, 64);
    } else {
        ImGui::SliderInt("Steps per frame", &c.stepsPerFrame, 1, 64);
    }
    const int maxThreads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (ImGui::SliderInt("Threads", &ctx.threads, 1, maxThreads)) {
        ctx.threads = std::clamp(ctx.threads, 1, maxThreads);
        ctx.sim.setThreadCount(ctx.threads);
    }
    ImGui::PopItemWidth();
    ImGui::TextDisabled("dt = %g s", ctx.sim.params().timeStep);
    ImGui::EndMenu();
}

void drawViewMenu(SandboxContext& ctx) {
    if (!ImGui::BeginMenu("View")) return;
    if (ImGui::MenuItem("Fit to scene", shortcutLabel(Action::FitView).c_str()))
        applyAction(ctx, Action::FitView);
    ImGui::Separator();
    ui::WorldViewOptions& v = ctx.view;
    ImGui::MenuItem("Grid", nullptr, &v.grid);
    ImGui::MenuItem("Obstacles", nullptr, &v.obstacles);
    ImGui::MenuItem("Goals", nullptr, &v.goals);
    ImGui::MenuItem("Lines to goals", nullptr, &v.goalLines);
    ImGui::MenuItem("Velocity arrows", nullptr, &v.velocities);
    float arrow = static_cast<float>(v.velocityArrowSeconds);
    ImGui::PushItemWidth(160.0f);
    if (ImGui::SliderFloat("Arrow length (s)", &arrow, 0.25f, 20.0f, "%.2f",
                           ImGuiSliderFlags_Logarithmic))
        v.velocityArrowSeconds = static_cast<double>(std::max(arrow, 0.01f));
    ImGui::PopItemWidth();
    ImGui::Separator();
    ImGui::TextDisabled("Agents:");
    auto swatch = [](ui::AgentState s, const char* text) {
        const ui::Rgba c = ui::agentFill(s);
        ImGui::ColorButton(text, ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f),
                           ImGuiColorEditFlags_NoTooltip, {12.0f, 12.0f});
        ImGui::SameLine();
        ImGui::TextUnformatted(text);
    };
    swatch(ui::AgentState::Active, "on the way");
    swatch(ui::AgentState::AtGoal, "at goal");
    swatch(ui::AgentState::Static, "static");
    ImGui::EndMenu();
}

float drawMainMenuBar(SandboxContext& ctx) {
    float height = 0.0f;
    if (ImGui::BeginMainMenuBar()) {
        drawSceneMenu(ctx);
        drawSimulationMenu(ctx);
        drawViewMenu(ctx);
        if (ImGui::BeginMenu("Help")) {
            if (ImGui::MenuItem("Keys and mouse", shortcutLabel(Action::ToggleHelp).c_str(),
                                ctx.showHelp))
                applyAction(ctx, Action::ToggleHelp);
            ImGui::EndMenu();
        }
        height = ImGui::GetWindowSize().y;
        ImGui::EndMainMenuBar();
    }
    return height;
}

} // namespace

bool loadSceneFile(SandboxContext& ctx, const fs::path& file, std::string& error) {
    try {
        scene::LoadResult loaded = scene::loadScene(file);
        Simulator sim = scene::buildSimulator(loaded.scene);
        if (!loaded.warnings.empty()) {
            std::string text;
            for (const scene::SceneWarning& w : loaded.warnings) {
                const std::string line = file.string() + ": warning: " +
                                         (w.jsonPath.empty() ? "" : "at " + w.jsonPath + ": ") +
                                         w.message;
                std::fprintf(stderr, "%s\n", line.c_str());
                text += line + "\n";
            }
            ctx.messages.push("Scene loaded with warnings", text);
        }
        installScene(ctx, std::move(loaded.scene), std::move(sim), file);
        return true;
    } catch (const scene::SceneError& e) {
        error = e.what();
    } catch (const std::exception& e) {
        error = file.string() + ": error: " + e.what();
    }
    return false;
}

void setEmptyScene(SandboxContext& ctx) {
    installScene(ctx, scene::Scene{}, Simulator{}, {});
}

void restartScene(SandboxContext& ctx) {
    try {
        Simulator sim = scene::buildSimulator(ctx.scene);
        const bool fit = ctx.fitRequested; // a restart keeps the user's view
        installScene(ctx, ctx.scene, std::move(sim), ctx.sceneFile);
        ctx.fitRequested = fit;
    } catch (const std::exception& e) {
        ctx.messages.push("Restart failed", e.what());
    }
}

void stepSimulation(SandboxContext& ctx, int steps) {
    for (int i = 0; i < steps; ++i) {
        const auto t0 = Clock::now();
        ctx.sim.step();
        ctx.stepTiming.add(msSince(t0));
    }
}

void advanceSimulation(SandboxContext& ctx, double frameSeconds) {
    int steps = 0;
    if (ctx.running)
        steps = ctx.clock.stepsFor(frameSeconds, ctx.sim.params().timeStep, ctx.clockSettings);
    else
        ctx.clock.reset();
    steps += std::exchange(ctx.pendingSingleSteps, 0);
    stepSimulation(ctx, steps);
}

void buildFrame(SandboxContext& ctx) {
    const ImGuiIO& io = ImGui::GetIO();
    const float top = drawMainMenuBar(ctx);
    const float bottom = io.DisplaySize.y - ui::statusBarHeight();
    ctx.camera.setViewport({{0.0, static_cast<double>(top)},
                            {static_cast<double>(io.DisplaySize.x),
                             static_cast<double>(std::max(bottom, top + 1.0f))}});
    if (ctx.fitRequested) {
        ctx.camera.fit(ui::sceneBounds(ctx.sim));
        ctx.fitRequested = false;
    }
    ui::handleCameraInput(ctx.camera, io);
    ctx.renderer.draw(*ImGui::GetBackgroundDrawList(), ctx.camera, ctx.sim, ctx.view,
                      ctx.sim.lastStepLp3());

    ui::StatusInfo s;
    s.sceneName = ctx.scene.name.empty() ? ctx.sceneFile.filename().string() : ctx.scene.name;
    s.step = ctx.sim.stepCount();
    s.time = ctx.sim.time();
    s.running = ctx.running;
    s.agents = ctx.sim.agentCount();
    s.goalAgents = ctx.sim.goalAgentCount();
    s.atGoal = ctx.sim.agentsAtGoal();
    s.lp3Agents = ctx.sim.lastStepStats().lp3Agents;
    s.msPerStep = ctx.stepTiming.average;
    s.msPerFrame = ctx.frameTiming.average;
    s.threads = ctx.threads;
    ui::drawStatusBar(s);
    ui::drawHelpWindow(&ctx.showHelp, ctx.keyHelp, ctx.mouseHelp);
    ctx.messages.draw();
}

void applyAction(SandboxContext& ctx, Action action) {
    const Vec2 viewCentre = ctx.camera.viewport().center();
    switch (action) {
    case Action::TogglePause:
        ctx.running = !ctx.running;
        ctx.clock.reset();
        break;
    case Action::Step:
        ctx.running = false;
        ++ctx.pendingSingleSteps;
        break;
    case Action::Restart:
        ctx.restartRequest = true;
        break;
    case Action::FitView:
        ctx.fitRequested = true;
        break;
    case Action::ZoomIn:
        ctx.camera.zoomAbout(viewCentre, 1.25);
        break;
    case Action::ZoomOut:
        ctx.camera.zoomAbout(viewCentre, 1.0 / 1.25);
        break;
    case Action::ToggleHelp:
        ctx.showHelp = !ctx.showHelp;
        break;
    case Action::Quit:
        ctx.quitRequest = true;
        break;
    }
}

bool applyRequests(SandboxContext& ctx) {
    if (ctx.loadRequest) {
        const fs::path file = *std::exchange(ctx.loadRequest, std::nullopt);
        std::string error;
        if (!loadSceneFile(ctx, file, error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            ctx.messages.push("Could not open scene", error + "\n\nThe current scene was kept.");
        }
        ctx.restartRequest = false;
    }
    if (std::exchange(ctx.restartRequest, false)) restartScene(ctx);
    return !ctx.quitRequest;
}

std::string sceneTitle(const SandboxContext& ctx) {
    if (ctx.sceneFile.empty()) return "(no scene)";
    const std::string file = ctx.sceneFile.filename().string();
    return ctx.scene.name.empty() ? file : ctx.scene.name + " (" + file + ")";
}

} // namespace orca::app
