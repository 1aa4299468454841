#include "playback/playback.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <exception>
#include <system_error>
#include <utility>

#include <imgui.h>

#include "orca/scene/conform.hpp"
#include "orca/scene/explain_json.hpp"
#include "orca/scene/trajectory_csv.hpp"
#include "orca/ui/draw_util.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/style.hpp"
#include "orca/ui/timeline_bar.hpp"

#include "sandbox.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

const char* encodingName(scene::RecordingEncoding e) {
    return e == scene::RecordingEncoding::Float32 ? "float32" : "float64";
}

std::size_t lastFrame(const PlaybackState& p) {
    return p.recording->frames.size() - 1;
}

// What a new state on screen makes stale; a jump (seek) also ends what follows the run step
// by step (trails, the metrics' samples, the clock's debt).
void stateChanged(SandboxContext& ctx, bool jumped) {
    ++ctx.session.stateVersion;
    ctx.explain.recordsStamp.invalidate();
    ctx.explain.hoverRecordStamp.invalidate();
    ctx.session.metricsNow.invalidate();
    if (jumped) {
        ctx.session.metricsHistory.clear();
        ctx.view.renderer.clearTrails();
        ctx.session.clock.reset();
        ctx.session.pendingSingleSteps = 0;
    }
}

// Puts frame k on screen: the simulator takes the frame's decision state (the conformance
// check's shadow, recording_analysis.hpp), a new configuration with the selection kept by
// index. The document's scene follows only when asked (`document`): the last of several frames
// played at once is enough.
void showFrame(SandboxContext& ctx, std::size_t k, bool document) {
    PlaybackState& p = ctx.playback;
    const scene::Recording& rec = *p.recording;
    p.decision.moveTo(rec, p.analysis, k);
    const std::size_t config = rec.frames[k].scene;
    if (config == p.simScene) {
        applyDecision(ctx.session.sim, p.decision.shadow(), rec, k);
    } else {
        Simulator sim;
        applyDecision(sim, p.decision.shadow(), rec, k);
        sim.setThreadCount(ctx.session.threads);
        ctx.explain.selection.remap(ctx.session.sim, sim);
        ctx.session.sim = std::move(sim);
        scene::BuildReport report; // (what the shadow's simulator left out)
        (void)scene::buildSimulator(rec.scenes[config], report);
        ctx.editor.skippedObstacles = std::move(report.skippedObstacles);
        ctx.editor.skippedReasons = std::move(report.reasons);
        p.simScene = config;
        ctx.doc.agentNames.clear();
        for (const scene::SceneAgent& a : rec.scenes[config].agents)
            ctx.doc.agentNames.push_back(!a.id               ? std::string()
                                         : a.id->is_string() ? a.id->get<std::string>()
                                                             : a.id->dump());
    }
    p.frame = k;
    if (document) {
        // What Save writes and what an edit starts from: the frame as a scene.
        ctx.doc.scene = sceneAtFrame(rec, k, p.file);
        ++ctx.doc.editVersion;
    }
}

// After a frame was played forward: what follows the run step by step (trails, metrics).
void followFrame(SandboxContext& ctx) {
    sampleShownState(ctx, {});
}

void noteEnd(SandboxContext& ctx) {
    PlaybackState& p = ctx.playback;
    ctx.session.running = false;
    if (p.atEndNoted) return;
    p.atEndNoted = true;
    setNote(ctx.windows, "End of recording (frame " + std::to_string(p.frame) + ", step " +
                             std::to_string(p.steps[p.frame]) +
                             "): the states come from the file; Simulation > Continue live "
                             "simulates on from here");
}

// A frame that cannot be shown (never for a file the loader accepted): playback pauses.
bool tryShow(SandboxContext& ctx, std::size_t k, bool document) {
    try {
        showFrame(ctx, k, document);
        return true;
    } catch (const std::exception& e) {
        ctx.session.running = false;
        ctx.windows.messages.push("Could not show the recorded frame",
                                  "Frame " + std::to_string(k) + " of " +
                                      ctx.playback.file.string() + ": " + e.what());
        return false;
    }
}

} // namespace

bool isRecordingFile(const fs::path& file) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return false; // (a FIFO would block the signature read)
    return file.extension() == ".orcarec" || scene::looksLikeRecording(file);
}

namespace {

// Plays `rec` (read from `file`, `bytes` long): frame 0 becomes the document (selection cleared,
// view fitted, a new timeline) and the simulator its decision state. False (nothing changed)
// when the first configuration cannot be built. Throws what the first frame's check throws.
bool startPlayback(SandboxContext& ctx, std::shared_ptr<const scene::Recording> rec,
                   const fs::path& file, std::uint64_t bytes, bool trajectory,
                   const fs::path& sceneFile, std::string& error) {
    // The first frame's decision state before anything changes: a configuration the simulator
    // rejects keeps the current scene.
    RecordingAnalysis analysis(appConformanceOptions(*rec), ctx.session.threads);
    DecisionState decision;
    decision.moveTo(*rec, analysis, 0);
    Simulator sim;
    applyDecision(sim, decision.shadow(), *rec, 0);
    scene::BuildReport report;
    (void)scene::buildSimulator(rec->scenes.at(rec->frames[0].scene), report);
    if (!loadSceneObject(ctx, sceneAtFrame(*rec, 0, file), {}, error)) return false;
    // ... and the recording takes over the simulator.
    PlaybackState& p = ctx.playback;
    p = PlaybackState{};
    p.active = true;
    p.file = file;
    p.fileBytes = bytes;
    p.steps = recordedSteps(*rec);
    p.simScene = rec->frames[0].scene;
    p.recording = rec;
    p.analysis = std::move(analysis);
    p.decision = std::move(decision);
    p.trajectory = trajectory;
    p.sceneFile = sceneFile;
    sim.setThreadCount(ctx.session.threads);
    ctx.explain.selection.remap(ctx.session.sim, sim);
    ctx.session.sim = std::move(sim);
    ctx.editor.skippedObstacles = std::move(report.skippedObstacles);
    ctx.editor.skippedReasons = std::move(report.reasons);
    stateChanged(ctx, true);
    ctx.doc.suggestedFile = file.parent_path() / (file.stem().string() + ".json");
    ctx.requests.titleChanged = true;
    return true;
}

} // namespace

bool openRecordingFile(SandboxContext& ctx, const fs::path& file, std::string& error) {
    try {
        // --max-file-size holds for recordings as for scenes (the loader's own limit is 4 GiB).
        std::error_code ec;
        const std::uint64_t size = fs::file_size(file, ec);
        if (!ec && size > ctx.doc.maxFileSize) {
            error = file.string() + ": error: " + scene::formatByteSize(size) +
                    " is larger than the " + scene::formatByteSize(ctx.doc.maxFileSize) +
                    " limit (--max-file-size)";
            return false;
        }
        auto rec = std::make_shared<scene::Recording>(scene::loadRecording(file));
        if (rec->frames.empty()) {
            error = file.string() + ": error: the recording holds no frame" +
                    (rec->truncated ? " (it is cut short at byte " +
                                          std::to_string(rec->wholeBytes) + ", inside its first)"
                                    : "");
            return false;
        }
        if (!startPlayback(ctx, rec, file, ec ? 0 : size, false, {}, error)) return false;
        const PlaybackState& p = ctx.playback;
        ctx.settings.addRecentFile(file);
        if (rec->truncated) {
            const std::string text =
                file.string() + ": warning: the recording is cut short at byte " +
                std::to_string(rec->wholeBytes) + " of " + std::to_string(size) +
                " (its last record is incomplete: a program killed while recording); the " +
                std::to_string(rec->frames.size()) + " frames before it (steps " +
                std::to_string(p.steps.front()) + "-" + std::to_string(p.steps.back()) +
                ") are shown";
            std::fprintf(stderr, "%s\n", text.c_str());
            ctx.windows.messages.push("Recording cut short", text);
        }
        setNote(ctx.windows, "opened recording " + file.filename().string() + ": " +
                                 std::to_string(rec->frames.size()) + " frames, steps " +
                                 std::to_string(p.steps.front()) + "-" +
                                 std::to_string(p.steps.back()));
        return true;
    } catch (const scene::SceneError& e) {
        error = e.what();
    } catch (const std::exception& e) {
        error = file.string() + ": error: " + e.what();
    }
    return false;
}

bool openTrajectoryFile(SandboxContext& ctx, const fs::path& csv, std::string& error) {
    // The open scene: the document's, or the configuration being played.
    const PlaybackState& now = ctx.playback;
    const scene::Scene config =
        now.active ? now.recording->scenes.at(now.recording->frames[now.frame].scene)
                   : ctx.doc.scene;
    const fs::path sceneFile =
        now.active ? (now.trajectory ? now.sceneFile : now.file) : ctx.doc.sceneFile;
    const std::string sceneName =
        sceneFile.empty()
            ? "the open scene (" + (config.name.empty() ? "unnamed" : config.name) + ")"
            : sceneFile.string();
    try {
        std::error_code ec;
        const std::uint64_t size = fs::file_size(csv, ec);
        auto rec = std::make_shared<scene::Recording>(
            scene::loadTrajectoryCsv(csv, ctx.doc.maxFileSize, "--max-file-size"));
        if (rec->frames.empty()) {
            error = csv.string() + ": error: the trajectory holds no step";
            return false;
        }
        const std::size_t agents = config.agents.size();
        for (const scene::RecordingFrame& f : rec->frames) {
            if (f.position.size() == agents) continue;
            error = csv.string() + ": error: step " + std::to_string(f.step) + " has " +
                    std::to_string(f.position.size()) + " agents, but " + sceneName + " has " +
                    std::to_string(agents) +
                    ": a trajectory is played against the scene it was run from (the same "
                    "agents in the same order; open that scene first)";
            return false;
        }
        // Its only configuration is the scene; the frames' times follow its time step.
        rec->scenes = {config};
        for (scene::RecordingFrame& f : rec->frames)
            f.time = static_cast<double>(f.step) * config.simulation.params.timeStep;
        if (!startPlayback(ctx, rec, csv, ec ? 0 : size, true, sceneFile, error)) return false;
        const PlaybackState& p = ctx.playback;
        setNote(ctx.windows, "opened trajectory " + csv.filename().string() + " against " +
                                 sceneName + ": " + std::to_string(rec->frames.size()) +
                                 " steps, " + std::to_string(p.steps.front()) + "-" +
                                 std::to_string(p.steps.back()));
        return true;
    } catch (const scene::SceneError& e) {
        error = e.what();
    } catch (const std::exception& e) {
        error = csv.string() + ": error: " + e.what();
    }
    return false;
}

void playbackStep(SandboxContext& ctx, int steps) {
    PlaybackState& p = ctx.playback;
    if (steps <= 0 || !p.active) return;
    whatIfRevert(ctx); // the next frame replaces a previewed change
    const std::size_t last = lastFrame(p);
    if (p.frame >= last) {
        noteEnd(ctx);
        return;
    }
    const std::size_t to = std::min(last, p.frame + static_cast<std::size_t>(steps));
    for (std::size_t k = p.frame + 1; k <= to; ++k) {
        if (!tryShow(ctx, k, k == to)) break;
        followFrame(ctx);
    }
    stateChanged(ctx, false);
    if (p.frame == last) noteEnd(ctx);
}

std::size_t playbackSeek(SandboxContext& ctx, std::size_t frame) {
    PlaybackState& p = ctx.playback;
    if (!p.active) return 0;
    whatIfRevert(ctx);
    ctx.session.running = false;
    const std::size_t k = std::min(frame, lastFrame(p));
    tryShow(ctx, k, true);
    p.atEndNoted = false;
    stateChanged(ctx, true);
    return p.frame;
}

void playbackTimelineAction(SandboxContext& ctx, Action action) {
    PlaybackState& p = ctx.playback;
    if (!p.active) return;
    switch (action) {
    case Action::StepBack:
        if (p.frame > 0)
            playbackSeek(ctx, p.frame - 1);
        else
            ctx.session.running = false;
        break;
    case Action::RecordingStart:
        playbackSeek(ctx, 0);
        break;
    case Action::RecordingEnd:
        playbackSeek(ctx, lastFrame(p));
        break;
    default:
        break;
    }
}

bool leavePlayback(SandboxContext& ctx, std::string_view why) {
    PlaybackState& p = ctx.playback;
    if (!p.active) return true;
    // A what-if preview moves over to the new simulation (same agents, same order).
    struct Preview {
        WhatIfTarget target;
        std::size_t agent;
        Vec2 value;
    };
    std::optional<Preview> preview;
    if (ctx.whatIf.active) {
        if (const auto i = ctx.session.sim.indexOf(ctx.whatIf.agent))
            preview = Preview{ctx.whatIf.target, *i, ctx.whatIf.value};
        whatIfRevert(ctx);
    }
    const std::size_t k = p.frame;
    const std::uint64_t step = p.steps[k];
    const fs::path file = p.file;
    const fs::path suggested =
        file.parent_path() / (file.stem().string() + "_step" + std::to_string(step) + ".json");
    std::string error;
    if (!adoptUnsavedScene(ctx, sceneAtFrame(*p.recording, k, file), suggested, error)) {
        ctx.windows.messages.push("Could not continue from the recording",
                                  file.string() + ", frame " + std::to_string(k) + ": " + error);
        return false;
    }
    ctx.playback = PlaybackState{};
    if (preview) whatIfSet(ctx, preview->target, preview->agent, preview->value);
    setNote(ctx.windows, std::string(why) + ": frame " + std::to_string(k) + " (step " +
                             std::to_string(step) + ") of " + file.filename().string() +
                             " is now an unsaved scene, simulated from here (Save writes a "
                             ".json; the recording is unchanged)");
    return true;
}

void fillPlaybackTimeline(const SandboxContext& ctx, ui::TimelineInput& in) {
    const PlaybackState& p = ctx.playback;
    if (!p.active) return;
    const std::size_t last = lastFrame(p);
    in.first = 0;
    in.last = last;
    in.current = p.frame;
    in.events = p.analysis.events();
    in.keyframes = {};
    in.keyframeInterval = 1;
    in.bytes = p.fileBytes;
    in.recordedSteps = p.steps;
    const bool atEnd = p.frame == last;
    in.positionWarning = atEnd;
    in.positionNote = atEnd ? "end of recording"
                            : "frame " + std::to_string(p.frame) + " of " + std::to_string(last);
    in.positionTip = "Recording " + p.file.filename().string() + ": frames 0-" +
                     std::to_string(last) + ", steps " + std::to_string(p.steps.front()) + "-" +
                     std::to_string(p.steps.back()) +
                     ".\nThe states come from the file: stepping and playing show its frames, "
                     "and playback stops at the last one.\nSimulation > Continue live (or any "
                     "edit) makes the frame on screen an unsaved scene simulated from there.";
    if (p.recording->truncated) in.positionTip += "\nThe file is cut short: this is what was read.";
    bool deviates = false;
    in.positionTip +=
        "\nConformance (as orca conform checks it): " + conformanceSummary(p, deviates);
}

namespace {

// Whether the recorded velocity deviates from ORCA's for this agent (the check's rule).
bool deviates(const PlaybackState& p, const ExplainRecord& r, Vec2 recorded) {
    return !(length(recorded - r.newVelocity) <=
             p.analysis.tolerance() * std::max(1.0, r.params.maxSpeed));
}

std::string violationText(const ExplainRecord& r, std::span<const LineViolation> violated) {
    char text[200];
    if (violated.empty()) {
        std::snprintf(text, sizeof text,
                      "v_rec lies inside all %zu half-planes: the program picked another "
                      "velocity they allow",
                      r.lines.size());
        return text;
    }
    double worst = 0.0;
    std::string which;
    for (std::size_t i = 0; i < violated.size(); ++i) {
        worst = std::max(worst, violated[i].by);
        if (i < 6) which += (i ? ", " : "") + std::to_string(violated[i].line);
    }
    if (violated.size() > 6) which += ", ...";
    std::snprintf(text, sizeof text,
                  "v_rec violates %zu of %zu half-planes (lines %s), by up to %.3g m/s",
                  violated.size(), r.lines.size(), which.c_str(), worst);
    return text;
}

} // namespace

void playbackFrame(SandboxContext& ctx) {
    ctx.explain.velocityPanel.mark.reset();
    PlaybackState& p = ctx.playback;
    if (!p.active) return;
    if (!p.analysis.done(*p.recording)) {
        // Screenshots check every frame at once (reproducible pictures).
        const auto budget = ctx.interactive
                                ? std::chrono::steady_clock::duration(std::chrono::milliseconds(4))
                                : std::chrono::steady_clock::duration(std::chrono::hours(1));
        p.analysis.advance(*p.recording, budget);
    }
    const auto primary = ctx.explain.selection.primaryIndex(ctx.session.sim);
    const ExplainRecord* rec = primaryRecord(ctx.explain);
    if (!primary || !rec) return;
    ui::VelocityPanel::Mark mark;
    if (const auto d = recordedDecision(ctx, *primary)) {
        const bool off = deviates(p, *rec, d->velocity);
        char text[200];
        std::snprintf(text, sizeof text,
                      "recorded step %" PRIu64 ": v_rec = (%.4f, %.4f)\n|v_rec - v_new| = %.3g%s",
                      d->step, d->velocity.x, d->velocity.y, length(d->velocity - rec->newVelocity),
                      off ? ": DEVIATES (tolerance " : "  (conforms: tolerance ");
        mark.caption = text;
        std::snprintf(text, sizeof text, "%.3g x max(1, maxSpeed))", p.analysis.tolerance());
        mark.caption += text;
        if (off) {
            const std::vector<LineViolation> violated = violatedLines(*rec, d->velocity);
            mark.caption += "\n" + violationText(*rec, violated);
            for (const LineViolation& v : violated)
                mark.violatedLines.push_back(v.line);
            mark.deviates = true;
        }
        mark.velocity = d->velocity;
        mark.label = "v_rec";
    } else {
        mark.caption = p.frame == lastFrame(p)
                           ? "end of recording: no recorded step to compare (v_pref: this "
                             "frame's)"
                           : "no recorded step from this state (a new configuration or an "
                             "edited state comes next)";
    }
    ctx.explain.velocityPanel.mark = std::move(mark);
}

void drawPlaybackWorld(SandboxContext& ctx, ImDrawList& dl) {
    const PlaybackState& p = ctx.playback;
    if (!p.active || !ctx.view.layers.overlay.inWorld) return;
    const ExplainRecord* rec = primaryRecord(ctx.explain);
    const auto primary = ctx.explain.selection.primaryIndex(ctx.session.sim);
    if (!rec || !primary || ctx.explain.construction.active) return;
    const auto d = recordedDecision(ctx, *primary);
    if (!d) return;
    const Vec2 at = ctx.view.camera.worldToScreen(rec->position +
                                                  d->velocity * ctx.view.overlayStyle.worldSeconds);
    const float r = ui::stroke(4.0f);
    const ImU32 c = ui::col(ui::palette().kHighlight);
    const auto x = static_cast<float>(at.x);
    const auto y = static_cast<float>(at.y);
    dl.AddLine({x - r, y - r}, {x + r, y + r}, c, ui::stroke(1.5f));
    dl.AddLine({x - r, y + r}, {x + r, y - r}, c, ui::stroke(1.5f));
    ctx.view.worldLabels.add(ui::labelRequest(at, "v_rec", c, 80, ui::LabelSide::BelowLeft));
}

std::string conformanceSummary(const PlaybackState& p, bool& deviates) {
    deviates = false;
    if (!p.active) return {};
    const RecordingAnalysis& a = p.analysis;
    const ConformanceReport& r = a.report();
    const std::size_t frames = p.recording->frames.size();
    char text[200];
    if (!a.error().empty()) {
        deviates = true;
        return "conformance check stopped at " + a.error();
    }
    if (r.deviatingAgentSteps > 0 && r.firstDeviation) {
        deviates = true;
        std::snprintf(
            text, sizeof text,
            "%" PRIu64 " deviation%s, first at step %" PRIu64 " agent #%zu%s (tolerance %.3g)",
            r.deviatingAgentSteps, r.deviatingAgentSteps == 1 ? "" : "s", r.firstDeviation->step,
            r.firstDeviation->agent, a.done(*p.recording) ? "" : " so far", a.tolerance());
    } else if (!a.done(*p.recording)) {
        std::snprintf(text, sizeof text, "checking conformance: frame %zu of %zu",
                      a.framesObserved(), frames);
    } else {
        std::snprintf(text, sizeof text, "conforms: 0 deviations, max |dv| %.3g (tolerance %.3g)",
                      r.maxDifference, a.tolerance());
    }
    return text;
}

std::string playbackStatus(const SandboxContext& ctx, bool& warning) {
    const PlaybackState& p = ctx.playback;
    warning = false;
    if (!p.active) return {};
    const std::size_t last = lastFrame(p);
    std::string s;
    if (p.frame == last) {
        warning = true;
        s = "end of recording (frame " + std::to_string(p.frame) + ")";
    } else {
        s = "recording: frame " + std::to_string(p.frame) + " of " + std::to_string(last);
    }
    if (p.recording->truncated) s += ", cut short";
    bool deviates = false;
    s += "; " + conformanceSummary(p, deviates);
    warning = warning || deviates;
    return s;
}

std::string playbackTitle(const SandboxContext& ctx) {
    const PlaybackState& p = ctx.playback;
    if (p.trajectory)
        return p.file.filename().string() + " (trajectory against " +
               (p.sceneFile.empty() ? std::string("the scene") : p.sceneFile.filename().string()) +
               ", " + std::to_string(p.recording->frames.size()) + " steps)";
    return p.file.filename().string() + " (recording, " +
           std::to_string(p.recording->frames.size()) + " frames)";
}

std::optional<RecordedDecision> recordedDecision(const SandboxContext& ctx, std::size_t index) {
    const PlaybackState& p = ctx.playback;
    if (!p.active) return std::nullopt;
    const auto next = decisionFrame(*p.recording, p.frame);
    if (!next) return std::nullopt;
    const scene::RecordingFrame& f = p.recording->frames[*next];
    if (index >= f.velocity.size()) return std::nullopt;
    return RecordedDecision{*next, f.step, f.velocity[index]};
}

nlohmann::ordered_json recordingJson(const SandboxContext& ctx) {
    using json = nlohmann::ordered_json;
    const PlaybackState& p = ctx.playback;
    if (!p.active) return nullptr;
    const scene::Recording& rec = *p.recording;
    json j = json::object();
    j["path"] = p.file.string();
    j["frames"] = rec.frames.size();
    j["firstStep"] = p.steps.front();
    j["lastStep"] = p.steps.back();
    j["encoding"] = encodingName(rec.encoding);
    j["truncated"] = rec.truncated;
    j["scenes"] = rec.scenes.size();
    j["bytes"] = p.fileBytes;
    j["wholeBytes"] = rec.wholeBytes;
    j["frame"] = p.frame;
    j["recordedStep"] = p.steps[p.frame];
    j["atEnd"] = p.frame == lastFrame(p);
    j["trajectory"] = p.trajectory;
    j["sceneFile"] = p.trajectory ? json(p.sceneFile.string()) : json(nullptr);
    const RecordingAnalysis& a = p.analysis;
    j["events"] = {{"found", a.events().size()},
                   {"framesObserved", a.framesObserved()},
                   {"done", a.done(rec)},
                   {"error", a.error()}};
    const ConformanceReport& cr = a.report();
    json first = nullptr;
    if (cr.firstDeviation)
        first = {{"step", cr.firstDeviation->step},
                 {"agent", cr.firstDeviation->agent},
                 {"difference", cr.firstDeviation->difference}};
    j["conformance"] = {
        {"checkedAgentSteps", cr.checkedAgentSteps},
        {"deviatingAgentSteps", cr.deviatingAgentSteps},
        {"maxDifference", std::isfinite(cr.maxDifference) ? json(cr.maxDifference) : json(nullptr)},
        {"tolerance", a.tolerance()},
        {"precision", encodingName(rec.encoding)},
        {"done", a.done(rec)},
        {"firstDeviation", std::move(first)},
        {"snapshots", a.snapshots().size()},
        {"snapshotInterval", a.snapshotInterval()},
        {"snapshotBytes", a.snapshotBytes()}};
    // The primary agent's decision from this frame and what the recording holds for it.
    json decision = nullptr;
    const auto primary = ctx.explain.selection.primaryIndex(ctx.session.sim);
    const ExplainRecord* r = primaryRecord(ctx.explain);
    if (primary && r) {
        const auto d = recordedDecision(ctx, *primary);
        decision = {{"agent", *primary},
                    {"fromFrame", p.frame},
                    {"fromStep", p.steps[p.frame]},
                    {"newVelocity", orca::toJson(r->newVelocity)},
                    {"recordedFrame", d ? json(d->frame) : json(nullptr)},
                    {"recordedStep", d ? json(d->step) : json(nullptr)},
                    {"recordedVelocity", d ? orca::toJson(d->velocity) : json(nullptr)},
                    {"orcaVelocity", orca::toJson(r->newVelocity)},
                    {"difference", d ? json(length(d->velocity - r->newVelocity)) : json(nullptr)},
                    {"deviates", d ? json(deviates(p, *r, d->velocity)) : json(nullptr)}};
        json lines = json::array();
        if (d)
            for (const LineViolation& v : violatedLines(*r, d->velocity))
                lines.push_back({{"line", v.line}, {"by", v.by}});
        decision["violatedLines"] = std::move(lines);
        decision["lines"] = r->lines.size();
    }
    j["decision"] = std::move(decision);
    return j;
}

} // namespace orca::app
