#include "lessons/lessons.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <system_error>
#include <utility>

#include <imgui.h>

#include "orca/ui/lesson_panel.hpp"
#include "orca/ui/long_text.hpp"
#include "orca/ui/window_placement.hpp"

#include "sandbox.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

/// Width of the docked lesson window in screenshots: a third of the window, within a range
/// that keeps the text readable.
float dockWidth(float displayWidth) {
    return std::clamp(std::floor(displayWidth * 0.3f), 300.0f, 460.0f);
}

/// Width of the lesson window in the interactive app: 30 font sizes (about 60 characters), at
/// most a third of the window (the velocity panel takes the right third; the windows a page
/// opens go between them).
float floatingWidth(float displayWidth, float fontSize) {
    return std::min(30.0f * fontSize, std::floor(displayWidth * 0.34f));
}

// Brings the simulation to `target`: through the recording when it holds that step, stepping
// on from its head otherwise.
void goToStep(SandboxContext& ctx, std::uint64_t target) {
    if (ctx.session.sim.stepCount() == target) return;
    const std::uint64_t last = ctx.timeline.history.lastStep();
    if (target <= last || ctx.session.sim.stepCount() > target) {
        seekTo(ctx, std::min(target, last));
        if (ctx.session.sim.stepCount() == target) return;
    }
    if (ctx.session.sim.stepCount() < last) seekTo(ctx, last);
    if (ctx.session.sim.stepCount() < target)
        stepSimulation(ctx, static_cast<int>(target - ctx.session.sim.stepCount()));
}

void applyCamera(SandboxContext& ctx, const std::optional<lesson::LessonCamera>& camera) {
    ctx.view.fitTarget.reset();
    if (!camera) {
        ctx.view.fitRequested = true;
        return;
    }
    if (camera->fit) {
        ctx.view.fitTarget = ui::Rect{camera->fit->first, camera->fit->second};
        ctx.view.fitRequested = true;
        return;
    }
    ctx.view.camera.setCenter(*camera->center);
    ctx.view.camera.setScale(camera->zoom);
    ctx.view.fitRequested = false;
}

// Construction mode on page open: the agent neighbour by scene index (its rank in the primary
// agent's neighbour list) or by rank, and the phase. The walk starts with the obstacle lines,
// so the step is the rank after them.
void applyConstruction(SandboxContext& ctx, const std::optional<lesson::LessonConstruction>& c) {
    ctx.explain.construction.active = c.has_value();
    if (!c) return;
    refreshRecords(ctx.explain, ctx.session);
    int rank = 0;
    int obstacleLines = 0;
    if (const ExplainRecord* rec = primaryRecord(ctx.explain)) {
        obstacleLines = static_cast<int>(std::min(rec->numObstacleLines, rec->lines.size()));
        if (c->agent && *c->agent < ctx.session.sim.agentCount()) {
            const AgentId want = ctx.session.sim.agentIdAt(*c->agent);
            for (std::size_t i = 0; i < rec->agentNeighbors.size(); ++i)
                if (rec->agentNeighbors[i].id == want) rank = static_cast<int>(i);
        } else if (c->neighbor) {
            rank = static_cast<int>(std::min<std::size_t>(
                *c->neighbor, rec->agentNeighbors.empty() ? 0 : rec->agentNeighbors.size() - 1));
        }
    }
    ctx.explain.construction.neighbor = obstacleLines + rank;
    ctx.explain.construction.phase = c->phase;
}

void refreshTask(SandboxContext& ctx) {
    LessonState& ls = ctx.lesson;
    if (!ls.lesson || ls.page >= ls.lesson->pages.size()) return;
    const auto& task = ls.lesson->pages[ls.page].task;
    if (!task) return;
    const lesson::TaskStatus s =
        lesson::checkTask(*task, ctx.session.sim, primaryRecord(ctx.explain), ls.task);
    ls.taskProgress = s.progress;
    ls.taskDone = ls.taskDone || s.done;
}

std::string pageNote(const SandboxContext& ctx, const lesson::LessonPage& p) {
    std::string note;
    if (p.construction) {
        static constexpr const char* kPhases[] = {"the VO", "u", "the half-plane"};
        note = "Construction mode: phase " + std::to_string(p.construction->phase + 1) + " (" +
               kPhases[std::clamp(p.construction->phase, 0, 2)] +
               ") in the velocity panel; arrows walk the phases and neighbours.";
    }
    if (p.solveStep)
        note += std::string(note.empty() ? "" : " ") + "Solve mode: step " +
                std::to_string(*p.solveStep) +
                " of the linear programs in the velocity panel; ←/→ walk the steps.";
    if (p.run && ctx.interactive)
        note += std::string(note.empty() ? "" : " ") + "Playing (P pauses).";
    return note;
}

} // namespace

fs::path resolveLessonArgument(const std::string& arg, const AppPaths& paths) {
    if (arg.empty()) return {}; // not the prefix of every lesson
    std::error_code ec;
    const fs::path p(arg);
    if (fs::exists(p, ec) && !fs::is_directory(p, ec)) return p;
    if (paths.lessonsDir.empty() || p.has_parent_path()) return {};
    fs::path in = paths.lessonsDir / p;
    if (p.extension() != ".json") in += ".json";
    if (fs::exists(in, ec)) return in;
    fs::path found;
    for (const fs::path& f : listSceneFiles(paths.lessonsDir)) {
        if (f.stem().string().rfind(arg, 0) != 0) continue;
        if (!found.empty()) return {}; // ambiguous
        found = f;
    }
    return found;
}

std::vector<LessonListEntry> listLessons(const fs::path& dir) {
    std::vector<LessonListEntry> out;
    for (const fs::path& f : listSceneFiles(dir)) {
        LessonListEntry e{f, f.stem().string(), {}};
        try {
            const std::string text = scene::readTextFile(f);
            const auto j = nlohmann::json::parse(text, nullptr, false);
            if (j.is_object() && j.value("format", "") == lesson::kFormatName)
                e.title = j.value("title", "");
        } catch (const std::exception&) {
        }
        out.push_back(std::move(e));
    }
    return out;
}

bool openLesson(SandboxContext& ctx, const fs::path& file, std::size_t page, std::string& error) {
    lesson::LessonLoad loaded;
    try {
        loaded = lesson::loadLesson(file, appLoadOptions(ctx.doc));
    } catch (const std::exception& e) {
        error = e.what();
        return false;
    }
    lesson::Lesson& l = loaded.lesson;
    // The lesson's view (its scene's view block, its pages' layers and windows) is the
    // lesson's: the user's own is kept in the settings (saved on exit) and comes back when the
    // lesson closes.
    if (!ctx.lesson.lesson) {
        ctx.settings.layers = ctx.view.layers;
        ctx.settings.panels = ctx.windows.panels;
    }
    bool ok = false;
    if (!l.sceneFile.empty()) {
        ok = loadSceneFile(ctx, l.sceneFile, error);
    } else {
        if (l.scene.name.empty()) l.scene.name = l.title;
        ok = loadSceneObject(ctx, l.scene, {}, error);
    }
    if (!ok) return false;
    for (const scene::SceneWarning& w : loaded.warnings) {
        const std::string line =
            file.string() + ": warning: " + (w.jsonPath.empty() ? "" : "at " + w.jsonPath + ": ") +
            w.message;
        std::fprintf(stderr, "%s\n", line.c_str());
    }
    LessonState& ls = ctx.lesson;
    ls.file = file;
    ls.name = file.stem().string();
    ls.lesson = std::move(l);
    ls.windowOpen = true;
    ls.pageRequest.reset();
    ls.resetRequest = false;
    ctx.requests.titleChanged = true;
    applyLessonPage(ctx, std::min(page, ls.lesson->pages.size() - 1));
    return true;
}

int openLessonArgument(SandboxContext& ctx, const std::string& name, std::size_t page,
                       std::string& error) {
    const fs::path file = resolveLessonArgument(name, ctx.paths);
    if (file.empty()) {
        error = "orca-sandbox: error: --lesson: no lesson \"" + name +
                "\" (looked for a file, "
                "and for NAME.json or a unique NAME prefix in " +
                (ctx.paths.lessonsDir.empty() ? std::string("the lessons folder, not found")
                                              : ctx.paths.lessonsDir.string()) +
                ")";
        return 2;
    }
    try {
        const std::size_t pages =
            lesson::loadLesson(file, appLoadOptions(ctx.doc)).lesson.pages.size();
        if (page < 1 || page > pages) {
            error = "orca-sandbox: error: --lesson-page " + std::to_string(page) + ": " +
                    file.string() + " has " + std::to_string(pages) +
                    (pages == 1 ? " page" : " pages");
            return 2;
        }
    } catch (const std::exception& e) {
        error = e.what();
        return 1;
    }
    return openLesson(ctx, file, page - 1, error) ? 0 : 1;
}

void applyLessonPage(SandboxContext& ctx, std::size_t page) {
    LessonState& ls = ctx.lesson;
    if (!ls.lesson) return;
    const lesson::Lesson& l = *ls.lesson;
    page = std::min(page, l.pages.size() - 1);
    const lesson::LessonPage& p = l.pages[page];
    ls.page = page;

    goToStep(ctx, l.pageSteps(page));
    if (const auto& layers = p.layers ? p.layers : l.layers) {
        std::string error;
        parseLayerList(*layers, ctx.view.layers, error); // validated by the loader
    }
    const std::vector<std::size_t>& sel = l.pageSelect(page);
    if (!sel.empty()) {
        std::string error;
        std::vector<std::size_t> valid;
        for (const std::size_t i : sel)
            if (i < ctx.session.sim.agentCount())
                valid.push_back(i); // the user may have deleted some
        selectByIndex(ctx.explain, ctx.session.sim, valid, error);
    }
    refreshRecords(ctx.explain, ctx.session);
    applyCamera(ctx, p.camera ? p.camera : l.camera);
    applyConstruction(ctx, p.construction);
    ls.solveStep = p.solveStep;
    // Solve mode (the LP trace in the velocity panel) and construction mode exclude each other.
    ctx.explain.solve.active = p.solveStep.has_value();
    if (p.solveStep) ctx.explain.solve.step = static_cast<int>(*p.solveStep);
    if (ctx.explain.solve.active)
        ctx.explain.recordsStamp.invalidate(); // records with the LP trace
    // Windows the page refers to; not in --screenshot pictures, where they would cover the view.
    // Those an earlier page opened and this one does not name close again: the screen has room
    // beside the lesson window for one page's windows, not for every page's.
    if (ctx.interactive) {
        std::vector<std::string> opened;
        for (const std::string& name : ls.pagePanels) {
            if (std::find(p.panels.begin(), p.panels.end(), name) == p.panels.end())
                setPanelOpen(ctx, name, false);
            else
                opened.push_back(name);
        }
        for (const std::string& name : p.panels)
            if (std::find(opened.begin(), opened.end(), name) == opened.end() &&
                !setPanelOpen(ctx, name, true))
                opened.push_back(name); // opened here (one the user had open stays theirs)
        ls.pagePanels = std::move(opened);
    }
    ctx.session.running = ctx.interactive && p.run;
    ctx.session.clock.reset();

    ls.taskDone = false;
    ls.taskProgress.clear();
    ls.task = {};
    if (p.task) {
        ls.task = lesson::beginTask(*p.task, ctx.session.sim,
                                    ctx.explain.selection.primaryIndex(ctx.session.sim));
        refreshTask(ctx);
    }
}

void closeLesson(SandboxContext& ctx) {
    if (ctx.lesson.lesson) { // the user's view again (openLesson kept it)
        ctx.view.layers = ctx.settings.layers;
        ctx.windows.panels = ctx.settings.panels;
    }
    ctx.lesson.lesson.reset();
    ctx.lesson.pagePanels.clear();
    ctx.lesson.windowOpen = false;
    ctx.lesson.pageRequest.reset();
    ctx.lesson.resetRequest = false;
    ctx.lesson.solveStep.reset();
}

void requestLesson(SandboxContext& ctx, const fs::path& file) {
    requestLoad(ctx, file); // a lesson file goes through applyLessonRequests
}

void applyLessonRequests(SandboxContext& ctx) {
    LessonState& ls = ctx.lesson;
    if (ctx.requests.load && lesson::isLessonFile(*ctx.requests.load, ctx.doc.maxFileSize)) {
        const fs::path file = *std::exchange(ctx.requests.load, std::nullopt);
        std::string error;
        if (!openLesson(ctx, file, 0, error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            ctx.windows.messages.push("Could not open the lesson",
                                      error + "\n\nThe current scene was kept.");
        }
        ctx.requests.restart = false;
        return;
    }
    if (ctx.requests.load || ctx.requests.newScene) {
        closeLesson(ctx); // another scene replaces the lesson's
        return;
    }
    if (!ls.lesson) return;
    if (std::exchange(ls.resetRequest, false)) {
        const std::size_t page = ls.page;
        const fs::path file = ls.file;
        std::string error;
        if (!openLesson(ctx, file, page, error))
            ctx.windows.messages.push("Could not reload the lesson", error);
        ls.pageRequest.reset();
        return;
    }
    if (const auto page = std::exchange(ls.pageRequest, std::nullopt)) applyLessonPage(ctx, *page);
}

void lessonWalkTick(SandboxContext& ctx) {
    LessonState& ls = ctx.lesson;
    if (ls.walkDir.empty()) return;
    if (!ls.lesson) {
        ctx.requests.quit = true;
        return;
    }
    // The picture is taken three frames after it is asked for (runInteractive), the dump
    // once that frame is done.
    constexpr int kSettleFrames = 6;
    const std::string stem = ls.name + "_page_" + std::to_string(ls.page + 1);
    if (++ls.walkFrames == 1) {
        std::error_code ec;
        fs::create_directories(ls.walkDir, ec);
        ctx.requests.screenshot = ls.walkDir / (stem + ".png");
    }
    if (ls.walkFrames < kSettleFrames) return;
    ls.walkFrames = 0;
    const fs::path keep = std::exchange(ctx.dumpFile, ls.walkDir / (stem + ".json"));
    if (!writeStateDump(ctx, "lesson-walk")) ctx.requests.quit = true;
    ctx.dumpFile = keep;
    if (ls.page + 1 < ls.lesson->pages.size()) {
        ls.pageRequest = ls.page + 1;
        return;
    }
    // The lessons after this one in the lessons folder, in order.
    const std::vector<LessonListEntry> all = listLessons(ctx.paths.lessonsDir);
    const auto at = std::find_if(all.begin(), all.end(),
                                 [&](const LessonListEntry& e) { return e.name == ls.name; });
    std::string error;
    if (at == all.end() || at + 1 == all.end() || !openLesson(ctx, (at + 1)->file, 0, error)) {
        if (!error.empty()) std::fprintf(stderr, "orca-sandbox: %s\n", error.c_str());
        ctx.requests.quit = true;
    }
}

void drawLessonsMenu(SandboxContext& ctx) {
    if (!ImGui::BeginMenu("Lessons")) return;
    LessonState& ls = ctx.lesson;
    if (ImGui::IsWindowAppearing()) ls.available = listLessons(ctx.paths.lessonsDir);
    if (ctx.paths.lessonsDir.empty())
        ImGui::TextDisabled("lessons/ folder not found");
    else if (ls.available.empty())
        ImGui::TextDisabled("no lessons in %s", ctx.paths.lessonsDir.c_str());
    for (const LessonListEntry& e : ls.available) {
        const std::string label =
            ui::shownLine(e.title.empty() ? e.name + " (does not load)" : e.title) + "###" + e.name;
        if (ImGui::MenuItem(label.c_str(), nullptr, ls.lesson && ls.file == e.file))
            requestLesson(ctx, e.file);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.file.c_str());
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Lesson window", nullptr, ls.windowOpen, ls.lesson.has_value()))
        ls.windowOpen = !ls.windowOpen;
    if (ImGui::MenuItem("Close lesson", nullptr, false, ls.lesson.has_value())) closeLesson(ctx);
    ImGui::TextDisabled("(or open / drop a lesson .json file)");
    ImGui::EndMenu();
}

float lessonDockWidth(const SandboxContext& ctx) {
    if (ctx.interactive || !ctx.lesson.lesson || !ctx.lesson.windowOpen) return 0.0f;
    return dockWidth(ImGui::GetIO().DisplaySize.x);
}

void drawLessonWindow(SandboxContext& ctx, float top, float bottom) {
    LessonState& ls = ctx.lesson;
    if (!ls.lesson) return;
    refreshTask(ctx);
    if (!ls.windowOpen) return;
    const lesson::Lesson& l = *ls.lesson;
    const lesson::LessonPage& p = l.pages[ls.page];
    ui::LessonPanelInput in;
    in.lessonTitle = l.title;
    in.pageTitle = p.title;
    in.text = p.text;
    in.page = ls.page;
    in.pages = l.pages.size();
    in.pageTitleAt = [&l](std::size_t k) { return std::string_view(l.pages[k].title); };
    if (p.task) {
        in.hasTask = true;
        in.taskText = p.task->text;
        in.taskProgress = ls.taskProgress;
        in.taskSuccess = p.task->success;
        in.taskDone = ls.taskDone;
    }
    in.note = pageNote(ctx, p);
    const ImGuiIO& io = ImGui::GetIO();
    in.docked = !ctx.interactive;
    const float fs = ImGui::GetFontSize();
    if (in.docked) {
        in.pos = {0.0f, top};
        in.size = {dockWidth(io.DisplaySize.x), std::max(bottom - top, 10.0f * fs)};
    } else {
        in.pos = {10.0f, top + 10.0f};
        in.size = {floatingWidth(io.DisplaySize.x, fs),
                   std::min(36.0f * fs, std::max(bottom - top - 20.0f, 12.0f * fs))};
    }
    const ui::LessonPanelOutput out = ui::drawLessonPanel(in, &ls.windowOpen);
    if (out.windowSize.x > 0.0f) {
        ls.windowRect =
            ui::Rect{{out.windowPos.x, out.windowPos.y},
                     {out.windowPos.x + out.windowSize.x, out.windowPos.y + out.windowSize.y}};
        ls.controlsRect = ui::Rect{{out.controlsMin.x, out.controlsMin.y},
                                   {out.controlsMax.x, out.controlsMax.y}};
    }
    if (out.goToPage && *out.goToPage < l.pages.size()) ls.pageRequest = *out.goToPage;
    if (out.reset) ls.resetRequest = true;
}

ui::Rect lessonUncoveredArea(const SandboxContext& ctx, const ui::Rect& area) {
    const LessonState& ls = ctx.lesson;
    if (!ctx.interactive || !ls.lesson || !ls.windowOpen) return area;
    ui::Rect window;
    if (ls.windowRect) {
        window = *ls.windowRect;
    } else { // not drawn yet: where it will open
        const float fs = ImGui::GetFontSize();
        const ImGuiIO& io = ImGui::GetIO();
        const double w = floatingWidth(io.DisplaySize.x, fs);
        window = {{area.min.x, area.min.y}, {area.min.x + 10.0 + w, area.max.y}};
    }
    return ui::largestPartBeside(area, window);
}

std::string firstLessonTitle(SandboxContext& ctx) {
    if (ctx.lesson.available.empty()) ctx.lesson.available = listLessons(ctx.paths.lessonsDir);
    for (const LessonListEntry& e : ctx.lesson.available)
        if (!e.title.empty()) return e.title;
    return {};
}

void startFirstLesson(SandboxContext& ctx) {
    for (const LessonListEntry& e : ctx.lesson.available) {
        if (e.title.empty()) continue;
        ctx.windows.showHelp = false; // the lesson window takes its place
        requestLesson(ctx, e.file);
        return;
    }
}

nlohmann::ordered_json lessonJson(const SandboxContext& ctx) {
    using json = nlohmann::ordered_json;
    const LessonState& ls = ctx.lesson;
    if (!ls.lesson) return nullptr;
    const lesson::Lesson& l = *ls.lesson;
    const lesson::LessonPage& p = l.pages[ls.page];
    json j = json::object();
    j["name"] = ls.name;
    j["file"] = ls.file.string();
    j["title"] = l.title;
    j["page"] = ls.page + 1;
    j["pages"] = l.pages.size();
    j["pageTitle"] = p.title;
    j["windowOpen"] = ls.windowOpen;
    j["task"] = p.task ? json(std::string(lesson::toString(p.task->kind))) : json(nullptr);
    j["taskDone"] = ls.taskDone;
    j["taskProgress"] = ls.taskProgress;
    j["solveStep"] = ls.solveStep ? json(*ls.solveStep) : json(nullptr);
    auto rect = [](const std::optional<ui::Rect>& r) {
        return r ? json::array({r->min.x, r->min.y, r->max.x, r->max.y}) : json(nullptr);
    };
    j["rect"] = rect(ls.windowOpen ? ls.windowRect : std::nullopt);
    j["controlsRect"] = rect(ls.windowOpen ? ls.controlsRect : std::nullopt);
    return j;
}

} // namespace orca::app
