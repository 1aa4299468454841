#include "orca/ui/timeline_bar.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"

namespace orca::ui {

EventLane eventLane(EventKind kind) {
    switch (kind) {
    case EventKind::OverlapBegin:
    case EventKind::OverlapEnd:
    case EventKind::OverlapFloodBegin:
    case EventKind::OverlapFloodEnd:
        return EventLane::Overlap;
    case EventKind::ObstaclePenetration:
        return EventLane::Obstacle;
    case EventKind::Lp3Begin:
    case EventKind::Lp3End:
        return EventLane::Lp3;
    case EventKind::Stalled:
        return EventLane::Stalled;
    case EventKind::Oscillation:
        return EventLane::Oscillation;
    case EventKind::Arrived:
        return EventLane::Arrived;
    case EventKind::DetourEnter:
    case EventKind::DetourExit:
        return EventLane::Detour;
    case EventKind::WaypointReached:
        return EventLane::Waypoint;
    }
    if (kind == kDeviationEvent) return EventLane::Deviation;
    return EventLane::Overlap;
}

const char* laneName(EventLane lane) {
    switch (lane) {
    case EventLane::Overlap:
        return "overlaps";
    case EventLane::Obstacle:
        return "obstacle penetrations";
    case EventLane::Lp3:
        return "LP3";
    case EventLane::Stalled:
        return "stalled";
    case EventLane::Oscillation:
        return "oscillation";
    case EventLane::Arrived:
        return "arrived";
    case EventLane::Detour:
        return "detour";
    case EventLane::Waypoint:
        return "waypoints";
    case EventLane::Deviation:
        return "deviations";
    }
    return "?";
}

Rgba eventColor(EventKind kind) {
    switch (eventLane(kind)) {
    case EventLane::Overlap:
        return palette().kEventOverlap;
    case EventLane::Obstacle:
        return palette().kEventObstacle;
    case EventLane::Lp3:
        return palette().kAgentLp3;
    case EventLane::Stalled:
        return palette().kEventStalled;
    case EventLane::Oscillation:
        return palette().kEventOscillation;
    case EventLane::Arrived:
        return palette().kAgentAtGoal;
    case EventLane::Detour:
        return palette().kAgentDetouring;
    case EventLane::Waypoint:
        return palette().kAgentAtGoal;
    case EventLane::Deviation:
        return palette().kHighlight; // as the recorded velocity's v_rec cross
    }
    return palette().kText;
}

bool isEndKind(EventKind kind) {
    return kind == EventKind::OverlapEnd || kind == EventKind::OverlapFloodEnd ||
           kind == EventKind::Lp3End || kind == EventKind::DetourExit;
}

std::uint64_t shownStep(const TimelineInput& in, std::uint64_t position) {
    if (in.recordedSteps.empty()) return position;
    return in.recordedSteps[std::min<std::size_t>(position, in.recordedSteps.size() - 1)];
}

std::uint64_t TimelineView::stepAt(double x, std::uint64_t first, std::uint64_t last) const {
    const double s = std::round(xToStep(x));
    if (!(s > static_cast<double>(first))) return first; // also NaN
    if (s >= static_cast<double>(last)) return last;
    return static_cast<std::uint64_t>(s);
}

TimelineView TimelineZoom::view(std::uint64_t first, std::uint64_t last, double x0,
                                double width) const {
    TimelineView v;
    v.x0 = x0;
    v.width = std::max(width, 1.0);
    const double lo = static_cast<double>(first);
    const double hi = std::max(static_cast<double>(last), lo + 1.0);
    if (!zoomed) {
        v.start = lo;
        v.end = hi;
        return v;
    }
    const double span = std::min(std::max(end - start, 1.0), hi - lo);
    v.start = std::clamp(start, lo, hi - span);
    v.end = v.start + span;
    return v;
}

void TimelineZoom::zoomAbout(const TimelineView& current, std::uint64_t first, std::uint64_t last,
                             double x, double factor) {
    if (!(factor > 0.0)) return;
    const double lo = static_cast<double>(first);
    const double hi = std::max(static_cast<double>(last), lo + 1.0);
    const double full = hi - lo;
    const double pivot = current.xToStep(x);
    const double span =
        std::clamp((current.end - current.start) / factor, std::min(kMinSpan, full), full);
    if (span >= full) {
        zoomed = false;
        return;
    }
    const double t = (x - current.x0) / current.width; // keeps the pivot under the cursor
    start = std::clamp(pivot - t * span, lo, hi - span);
    end = start + span;
    zoomed = true;
}

void TimelineZoom::pan(std::uint64_t first, std::uint64_t last, double steps) {
    if (!zoomed) return;
    const double lo = static_cast<double>(first);
    const double hi = std::max(static_cast<double>(last), lo + 1.0);
    const double span = std::min(end - start, hi - lo);
    start = std::clamp(start + steps, lo, hi - span);
    end = start + span;
}

void TimelineZoom::follow(std::uint64_t first, std::uint64_t last, std::uint64_t step) {
    if (!zoomed) return;
    const double s = static_cast<double>(step);
    if (s < start)
        pan(first, last, s - start);
    else if (s > end)
        pan(first, last, s - end);
}

EventKind TimelineMarker::dominantKind() const {
    std::size_t best = 0;
    for (std::size_t k = 1; k < kShownEventKindCount; ++k)
        if (kindCounts[k] > kindCounts[best]) best = k;
    return static_cast<EventKind>(best);
}

void aggregateMarkers(std::span<const Event> events, const TimelineView& view, double binPixels,
                      std::vector<TimelineMarker>& out) {
    out.clear();
    const auto firstVisible =
        std::lower_bound(events.begin(), events.end(), view.start,
                         [](const Event& e, double s) { return static_cast<double>(e.step) < s; });
    std::array<std::size_t, kEventLaneCount> open;
    open.fill(~std::size_t{0});
    for (auto it = firstVisible; it != events.end(); ++it) {
        const Event& e = *it;
        if (static_cast<double>(e.step) > view.end) break;
        const double x = view.stepToX(static_cast<double>(e.step));
        const auto lane = static_cast<std::size_t>(eventLane(e.kind));
        const auto kind = static_cast<std::size_t>(e.kind);
        if (open[lane] != ~std::size_t{0} && x - out[open[lane]].x0 < binPixels) {
            TimelineMarker& m = out[open[lane]];
            m.x1 = x;
            m.lastStep = e.step;
            ++m.count;
            ++m.kindCounts[kind];
            continue;
        }
        TimelineMarker m;
        m.lane = static_cast<EventLane>(lane);
        m.x0 = m.x1 = x;
        m.firstStep = m.lastStep = e.step;
        m.firstEvent = static_cast<std::size_t>(it - events.begin());
        m.count = 1;
        m.kindCounts[kind] = 1;
        open[lane] = out.size();
        out.push_back(m);
    }
}

std::optional<std::size_t> hitTestMarker(std::span<const TimelineMarker> markers, double laneTop,
                                         double laneHeight, Vec2 mouse, double slop) {
    if (laneHeight <= 0.0 || mouse.y < laneTop) return std::nullopt;
    const double row = std::floor((mouse.y - laneTop) / laneHeight);
    if (row >= static_cast<double>(kEventLaneCount)) return std::nullopt;
    const auto lane = static_cast<EventLane>(static_cast<int>(row));
    std::optional<std::size_t> best;
    double bestDistance = slop;
    for (std::size_t i = 0; i < markers.size(); ++i) {
        const TimelineMarker& m = markers[i];
        if (m.lane != lane) continue;
        const double d = mouse.x < m.x0 ? m.x0 - mouse.x : mouse.x > m.x1 ? mouse.x - m.x1 : 0.0;
        if (d <= bestDistance) {
            bestDistance = d;
            best = i;
            if (d == 0.0) break;
        }
    }
    return best;
}

MarkerFocus markerFocus(std::span<const Event> events, const TimelineMarker& marker,
                        std::size_t maxAgents) {
    MarkerFocus f;
    f.event = marker.firstEvent;
    f.step = marker.firstStep;
    for (std::size_t i = marker.firstEvent; i < events.size() && events[i].step == marker.firstStep;
         ++i) {
        if (eventLane(events[i].kind) != marker.lane) continue;
        for (const std::uint32_t a : events[i].agents)
            f.agents.push_back(a);
    }
    std::sort(f.agents.begin(), f.agents.end());
    f.agents.erase(std::unique(f.agents.begin(), f.agents.end()), f.agents.end());
    if (f.agents.size() > maxAgents) f.agents.resize(maxAgents);
    return f;
}

std::string agentList(std::span<const std::uint32_t> agents, std::size_t maxAgents) {
    std::string s;
    for (std::size_t i = 0; i < agents.size() && i < maxAgents; ++i) {
        if (i > 0) s += ", ";
        s += '#';
        s += std::to_string(agents[i]);
    }
    if (agents.size() > maxAgents) s += " +" + std::to_string(agents.size() - maxAgents);
    return s;
}

// ---- The bar -------------------------------------------------------------------------------

namespace {

constexpr float kPadX = 6.0f;
constexpr float kPadY = 4.0f;
constexpr float kRuler = 14.0f;
constexpr float kLane = 8.0f;
constexpr float kBinPixels = 5.0f;

float leftBlockHeight() {
    return ImGui::GetFrameHeight() + 2.0f * ImGui::GetTextLineHeightWithSpacing();
}

// 1, 2, 5 x 10^k steps, at least `minimum`.
double niceStep(double minimum) {
    double p = 1.0;
    while (p * 10.0 <= minimum)
        p *= 10.0;
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (p * m >= minimum) return p * m;
    return p * 10.0;
}

void eventTooltip(const TimelineInput& in, const TimelineMarker& m) {
    ImGui::BeginTooltip();
    if (m.count == 1 && m.firstEvent < in.events.size()) {
        const Event& e = in.events[m.firstEvent];
        const Rgba c = eventColor(e.kind);
        ImGui::TextColored(opaque4(c), "%.*s", static_cast<int>(eventKindName(e.kind).size()),
                           eventKindName(e.kind).data());
        if (e.kind == kDeviationEvent) {
            ImGui::Text("agent #%u: the velocity recorded at step %" PRIu64, e.agents.at(0),
                        shownStep(in, e.step + 1));
            ImGui::Text("is %.3g m/s from ORCA's decision from step %" PRIu64, e.value,
                        shownStep(in, e.step));
            ImGui::TextDisabled("click: go to the decision (frame %" PRIu64 "), select the agent",
                                e.step);
            ImGui::EndTooltip();
            return;
        }
        if (in.recordedSteps.empty())
            ImGui::Text("step %" PRIu64 "  (t = %.2f s)", e.step,
                        static_cast<double>(e.step) * in.timeStep);
        else
            ImGui::Text("step %" PRIu64 "  (frame %" PRIu64 ")", shownStep(in, e.step), e.step);
        if (e.kind == EventKind::OverlapFloodBegin) {
            ImGui::Text("%.0f overlapping pairs: too many to list one by one", e.value);
        } else if (e.kind == EventKind::OverlapFloodEnd) {
            ImGui::Text("after %.0f steps; the pairs still overlapping are listed again", e.value);
        } else {
            ImGui::Text("agents %s", agentList(e.agents).c_str());
            if (e.obstacle) ImGui::Text("obstacle #%u", *e.obstacle);
            if (e.value != 0.0) ImGui::Text("value %.4g", e.value);
        }
        ImGui::TextDisabled(e.agents.empty() ? "click: go there"
                                             : "click: go there, select and frame the agents");
    } else {
        ImGui::Text("%zu events, steps %" PRIu64 "-%" PRIu64, m.count, shownStep(in, m.firstStep),
                    shownStep(in, m.lastStep));
        for (std::size_t k = 0; k < kShownEventKindCount; ++k) {
            if (m.kindCounts[k] == 0) continue;
            const auto kind = static_cast<EventKind>(k);
            const Rgba c = eventColor(kind);
            ImGui::TextColored(opaque4(c), "  %u %.*s", m.kindCounts[k],
                               static_cast<int>(eventKindName(kind).size()),
                               eventKindName(kind).data());
        }
        ImGui::TextDisabled("click: the first (step %" PRIu64 "); wheel: zoom in",
                            shownStep(in, m.firstStep));
    }
    ImGui::EndTooltip();
}

void legendTooltip() {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted("Event lanes (top to bottom)");
    for (std::size_t l = 0; l < kEventLaneCount; ++l) {
        const auto lane = static_cast<EventLane>(l);
        EventKind kind = EventKind::OverlapBegin;
        for (std::size_t k = 0; k < kShownEventKindCount; ++k)
            if (eventLane(static_cast<EventKind>(k)) == lane) {
                kind = static_cast<EventKind>(k);
                break;
            }
        const Rgba c = eventColor(kind);
        ImGui::ColorButton(laneName(lane), opaque4(c), ImGuiColorEditFlags_NoTooltip,
                           {10.0f, 10.0f});
        ImGui::SameLine();
        ImGui::TextUnformatted(laneName(lane));
    }
    ImGui::TextDisabled("tall mark: begins; short mark: ends (overlap, LP3, detour)");
    ImGui::TextDisabled("a wide mark merges nearby events: its count is drawn in it");
    ImGui::TextDisabled("faint ticks on the ruler: keyframes");
    ImGui::EndTooltip();
}

} // namespace

float TimelineBar::height() {
    return 2.0f * kPadY +
           std::max(leftBlockHeight(), kRuler + static_cast<float>(kEventLaneCount) * kLane);
}

Vec2 TimelineBar::markerCenter(std::size_t i) const {
    const TimelineMarker& m = m_markers[i];
    return {0.5 * (m.x0 + m.x1), m_laneTop + (static_cast<double>(m.lane) + 0.5) * m_laneHeight};
}

TimelineOutput TimelineBar::draw(const TimelineInput& in, float y) {
    TimelineOutput out;
    const ImGuiIO& io = ImGui::GetIO();
    const float h = height();
    ImGui::SetNextWindowPos({0.0f, y});
    ImGui::SetNextWindowSize({io.DisplaySize.x, h});
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {kPadX, kPadY});
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, {4.0f, 2.0f});
    constexpr ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
        ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse;
    if (!ImGui::Begin("##timeline", nullptr, flags)) {
        ImGui::End();
        ImGui::PopStyleVar(4);
        return out;
    }

    // Left block: transport, position, recording.
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    struct Button {
        TimelineCommand command;
        const char* label;
        const char* tip;
    };
    const Button buttons[] = {
        {TimelineCommand::Start, "|<", "Start of the recording"},
        {TimelineCommand::PreviousEvent, "<<", "Previous event"},
        {TimelineCommand::StepBack, "<", "Step back"},
        {TimelineCommand::TogglePlay, in.running ? "||" : "|>", in.running ? "Pause" : "Play"},
        {TimelineCommand::StepForward, ">", "Step forward (replays the recording)"},
        {TimelineCommand::NextEvent, ">>", "Next event"},
        {TimelineCommand::End, ">|", "End of the recording (where recording continues)"},
    };
    const float buttonWidth = ImGui::CalcTextSize("<<").x + 12.0f;
    for (const Button& b : buttons) {
        ImGui::PushID(static_cast<int>(b.command));
        if (ImGui::Button(b.label, {buttonWidth, 0.0f})) out.command = b.command;
        if (ImGui::IsItemHovered()) {
            const std::string& key = in.shortcuts[static_cast<std::size_t>(b.command)];
            if (key.empty())
                ImGui::SetTooltip("%s", b.tip);
            else
                ImGui::SetTooltip("%s (%s)", b.tip, key.c_str());
        }
        ImGui::PopID();
        ImGui::SameLine();
    }
    ImGui::NewLine();
    const bool atHead = in.current == in.last;
    ImGui::Text("step %" PRIu64, shownStep(in, in.current));
    ImGui::SameLine();
    if (!in.positionNote.empty()) {
        if (in.positionWarning)
            ImGui::TextColored({0.95f, 0.75f, 0.30f, 1.0f}, "(%s)", in.positionNote.c_str());
        else
            ImGui::TextDisabled("(%s)", in.positionNote.c_str());
        if (ImGui::IsItemHovered() && !in.positionTip.empty())
            ImGui::SetTooltip("%s", in.positionTip.c_str());
    } else if (atHead)
        ImGui::TextDisabled("(head)");
    else
        ImGui::TextColored({0.95f, 0.75f, 0.30f, 1.0f}, "(replay, head %" PRIu64 ")", in.last);
    if (ImGui::IsItemHovered() && in.positionNote.empty())
        ImGui::SetTooltip("Recording: steps %" PRIu64 "-%" PRIu64 ", %zu keyframes every %u "
                          "steps, %.1f of %.0f MiB (keyframes and events).\nStepping before the "
                          "head replays the recording; at the head it records.\nA parameter "
                          "edit at a past step cuts the recording there (undo brings it back).",
                          in.first, in.last, in.keyframes.size(), in.keyframeInterval,
                          static_cast<double>(in.bytes) / (1024.0 * 1024.0),
                          static_cast<double>(in.budget) / (1024.0 * 1024.0));
    ImGui::TextDisabled("%zu events", in.events.size());
    if (ImGui::IsItemHovered()) legendTooltip();
    if (!in.earlierNote.empty()) {
        ImGui::SameLine();
        ImGui::TextColored({0.95f, 0.75f, 0.30f, 1.0f}, "(%s)", in.earlierNote.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", in.earlierTip.c_str());
    }
    ImGui::SameLine();
    if (ImGui::SmallButton(m_zoom.zoomed ? "zoom 1:1" : "zoom")) m_zoom.reset();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Wheel over the bar zooms about the cursor; right/middle drag pans; "
                          "this resets to the whole recording");
    ImGui::SameLine();
    if (ImGui::SmallButton(showKeyframes ? "kf on" : "kf off")) showKeyframes = !showKeyframes;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show keyframes as faint ticks on the ruler");
    const float leftWidth = 7.0f * (buttonWidth + 4.0f) + 8.0f;

    // The track: ruler, then one row per lane.
    const float trackX0 = origin.x + leftWidth;
    const float trackX1 = origin.x + ImGui::GetContentRegionAvail().x + kPadX * 0.0f;
    const float trackWidth = std::max(trackX1 - trackX0, 10.0f);
    const float trackY0 = origin.y;
    const float trackY1 = y + h - kPadY;
    m_laneHeight = kLane;
    m_laneTop = trackY1 - static_cast<double>(kEventLaneCount) * kLane;
    if (m_zoom.zoomed && in.running) m_zoom.follow(in.first, in.last, in.current);
    m_view = m_zoom.view(in.first, in.last, trackX0, trackWidth);

    if (m_cacheGeneration != in.generation || m_cacheEvents != in.events.size() ||
        m_cacheView.start != m_view.start || m_cacheView.end != m_view.end ||
        m_cacheView.x0 != m_view.x0 || m_cacheView.width != m_view.width) {
        aggregateMarkers(in.events, m_view, kBinPixels, m_markers);
        m_cacheGeneration = in.generation;
        m_cacheEvents = in.events.size();
        m_cacheView = m_view;
    }

    ImGui::SetCursorScreenPos({trackX0, trackY0});
    ImGui::InvisibleButton("##track", {trackWidth, trackY1 - trackY0},
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                               ImGuiButtonFlags_MouseButtonMiddle);
    const bool hovered = ImGui::IsItemHovered();
    const Vec2 mouse{io.MousePos.x, io.MousePos.y};
    std::optional<std::size_t> hit;
    if (hovered) hit = hitTestMarker(m_markers, m_laneTop, m_laneHeight, mouse);

    if (ImGui::IsItemActivated()) {
        m_pressMarker.reset();
        m_scrubbing = false;
        if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            m_pressMarker = hit;
            m_scrubbing = !hit;
        }
    }
    if (ImGui::IsItemActive()) {
        if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            if (m_pressMarker && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 4.0f)) {
                m_pressMarker.reset();
                m_scrubbing = true;
            }
            if (m_scrubbing) {
                const std::uint64_t s = m_view.stepAt(mouse.x, in.first, in.last);
                if (s != in.current) out.seek = s;
            }
        } else if (io.MouseDelta.x != 0.0f) {
            m_zoom.pan(in.first, in.last,
                       -static_cast<double>(io.MouseDelta.x) / m_view.width *
                           (m_view.end - m_view.start));
        }
    }
    if (ImGui::IsItemDeactivated()) {
        if (m_pressMarker && *m_pressMarker < m_markers.size())
            out.focus = markerFocus(in.events, m_markers[*m_pressMarker]);
        m_pressMarker.reset();
        m_scrubbing = false;
    }
    if (hovered && io.MouseWheel != 0.0f)
        m_zoom.zoomAbout(m_view, in.first, in.last, mouse.x,
                         std::pow(1.25, static_cast<double>(io.MouseWheel)));

    // Drawing.
    ImDrawList& dl = *ImGui::GetWindowDrawList();
    dl.PushClipRect({trackX0, trackY0}, {trackX0 + trackWidth, trackY1}, true);
    dl.AddRectFilled({trackX0, trackY0}, {trackX0 + trackWidth, trackY1},
                     col(palette().kPanelBackground));
    for (std::size_t l = 0; l < kEventLaneCount; l += 2) {
        const auto ly = static_cast<float>(m_laneTop + static_cast<double>(l) * kLane);
        dl.AddRectFilled({trackX0, ly}, {trackX0 + trackWidth, ly + kLane},
                         IM_COL32(255, 255, 255, 8));
    }
    // Ruler: ticks at 1/2/5 x 10^k steps, labelled when there is room.
    const double span = m_view.end - m_view.start;
    const double labelWidth = static_cast<double>(ImGui::CalcTextSize("00000").x) + 16.0;
    const double tick = niceStep(std::max(1.0, span * labelWidth / m_view.width));
    const float fontSize = ImGui::GetFontSize() * 0.8f;
    for (double s = std::ceil(m_view.start / tick) * tick; s <= m_view.end; s += tick) {
        const auto x = static_cast<float>(m_view.stepToX(s));
        dl.AddLine({x, trackY0 + kRuler - 4.0f}, {x, trackY1}, IM_COL32(255, 255, 255, 22));
        char text[32];
        if (in.recordedSteps.empty())
            std::snprintf(text, sizeof text, "%.0f", s);
        else
            std::snprintf(text, sizeof text, "%" PRIu64,
                          shownStep(in, static_cast<std::uint64_t>(std::max(s, 0.0))));
        dl.AddText(nullptr, fontSize, {x + 2.0f, trackY0}, col(palette().kText, 150), text);
    }
    if (showKeyframes) {
        float lastX = -1e9f;
        for (const std::uint64_t k : in.keyframes) {
            const auto s = static_cast<double>(k);
            if (s < m_view.start || s > m_view.end) continue;
            const auto x = static_cast<float>(m_view.stepToX(s));
            if (x - lastX < 3.0f) continue;
            lastX = x;
            dl.AddLine({x, trackY0 + kRuler - 5.0f}, {x, trackY0 + kRuler},
                       IM_COL32(150, 200, 255, 70));
        }
    }
    // Markers.
    const float countFont = kLane + 1.0f;
    for (std::size_t i = 0; i < m_markers.size(); ++i) {
        const TimelineMarker& m = m_markers[i];
        const EventKind kind = m.dominantKind();
        const Rgba c = eventColor(kind);
        const auto ly = static_cast<float>(m_laneTop + static_cast<double>(m.lane) * kLane);
        const auto x0 = static_cast<float>(m.x0) - 1.5f;
        const auto x1 = static_cast<float>(m.x1) + 1.5f;
        if (m.count == 1) {
            const float top = isEndKind(kind) ? ly + kLane * 0.5f : ly + 0.5f;
            dl.AddRectFilled({x0, top}, {x1, ly + kLane - 0.5f}, col(c));
        } else {
            // Brighter for more events (log scale), so dense stretches stand out.
            const double weight =
                std::min(1.0, 0.35 + 0.15 * std::log2(static_cast<double>(m.count)));
            dl.AddRectFilled({x0, ly + 0.5f}, {x1, ly + kLane - 0.5f},
                             col(c, static_cast<std::uint8_t>(255.0 * weight)));
            char text[24];
            std::snprintf(text, sizeof text, "%zu", m.count);
            const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(countFont, 1e9f, 0.0f, text);
            if (ts.x + 2.0f <= x1 - x0)
                dl.AddText(nullptr, countFont, {0.5f * (x0 + x1 - ts.x), ly - 1.0f},
                           IM_COL32(0, 0, 0, 230), text);
        }
        if (hit && *hit == i)
            dl.AddRect({x0 - 1.0f, ly}, {x1 + 1.0f, ly + kLane}, col(palette().kHighlight));
    }
    // Pointer and playhead.
    if (hovered && !hit) {
        const auto x = static_cast<float>(
            m_view.stepToX(static_cast<double>(m_view.stepAt(mouse.x, in.first, in.last))));
        dl.AddLine({x, trackY0}, {x, trackY1}, IM_COL32(255, 255, 255, 60));
    }
    const auto px = static_cast<float>(m_view.stepToX(static_cast<double>(in.current)));
    dl.AddLine({px, trackY0}, {px, trackY1}, col(palette().kHighlight), 1.5f);
    dl.AddTriangleFilled({px - 5.0f, trackY0}, {px + 5.0f, trackY0}, {px, trackY0 + 6.0f},
                         col(palette().kHighlight));
    dl.PopClipRect();

    if (hit && !ImGui::IsItemActive())
        eventTooltip(in, m_markers[*hit]);
    else if (hovered && !ImGui::IsItemActive())
        ImGui::SetTooltip("step %" PRIu64 ": click or drag to go there; wheel: zoom",
                          shownStep(in, m_view.stepAt(mouse.x, in.first, in.last)));

    ImGui::End();
    ImGui::PopStyleVar(4);
    return out;
}

} // namespace orca::ui
