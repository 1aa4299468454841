#pragma once
// The sandbox's state (one context struct) and the per-frame logic that does not depend on the
// window system: loading, stepping, the ImGui frame, key actions and deferred requests.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "orca/scene.hpp"
#include "orca/simulator.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/panels.hpp"
#include "orca/ui/world_renderer.hpp"

#include "key_bindings.hpp"
#include "paths.hpp"
#include "sim_clock.hpp"

namespace orca::app {

/// Exponential moving average plus totals (for --frames reports).
struct TimingStat {
    double average = 0.0; ///< ms, smoothed
    double total = 0.0;   ///< ms
    std::uint64_t count = 0;
    void add(double ms) {
        average = average == 0.0 ? ms : average + 0.05 * (ms - average);
        total += ms;
        ++count;
    }
    [[nodiscard]] double mean() const { return count ? total / static_cast<double>(count) : 0.0; }
};

struct SandboxContext {
    AppPaths paths;

    // The loaded scene (as read: restart rebuilds from it) and the running simulation.
    scene::Scene scene;
    std::filesystem::path sceneFile; ///< empty for the empty scene
    Simulator sim;
    int threads = 1;

    // Simulation control. One clock; single steps use the same Δt.
    bool running = false;
    ClockSettings clockSettings;
    SimClock clock;
    int pendingSingleSteps = 0;

    // View.
    ui::Camera camera;
    bool fitRequested = true;
    ui::WorldViewOptions view;
    ui::WorldRenderer renderer;

    // Windows.
    bool showHelp = false;
    ui::MessageQueue messages;
    std::vector<std::filesystem::path> sceneFiles; ///< Scene menu, rescanned when it opens
    std::vector<ui::HelpRow> keyHelp = keyHelpRows();
    std::vector<ui::HelpRow> mouseHelp = mouseHelpRows();

    // Requests from UI code, applied after the frame by applyRequests().
    std::optional<std::filesystem::path> loadRequest;
    bool restartRequest = false;
    bool quitRequest = false;
    bool titleChanged = true; ///< the window title should show a new scene name

    TimingStat stepTiming;  ///< CPU time of Simulator::step()
    TimingStat frameTiming; ///< CPU time to build a frame (ImGui NewFrame .. Render)
};

/// Loads a scene file and makes it current (paused, view refitted). On failure the current
/// scene is kept and `error` holds the loader's message. Warnings go to stderr and `messages`.
bool loadSceneFile(SandboxContext& ctx, const std::filesystem::path& file, std::string& error);
/// Replaces the current scene with an empty one.
void setEmptyScene(SandboxContext& ctx);
/// Rebuilds the simulator from the loaded (in-memory) scene, paused.
void restartScene(SandboxContext& ctx);
/// Runs `steps` steps now, timing each.
void stepSimulation(SandboxContext& ctx, int steps);
/// Runs the steps owed this frame: the clock's while running, plus requested single steps.
void advanceSimulation(SandboxContext& ctx, double frameSeconds);

/// Builds the ImGui frame: menus, world view, status bar, windows. Between NewFrame and Render.
void buildFrame(SandboxContext& ctx);
/// Performs a bound action (from a key or a menu).
void applyAction(SandboxContext& ctx, Action action);
/// Applies load/restart requests made during the frame. Returns false when quitting.
bool applyRequests(SandboxContext& ctx);

/// "Name (file.json)" for titles.
[[nodiscard]] std::string sceneTitle(const SandboxContext& ctx);

} // namespace orca::app
