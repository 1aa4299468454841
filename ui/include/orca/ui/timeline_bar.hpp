#pragma once
/// \file timeline_bar.hpp
/// The timeline bar above the status bar: the recorded range of a run (orca::History) with a
/// scrub handle, zoom about the cursor, faint keyframe ticks, the transport buttons and the
/// events as markers, one lane per family, coloured by kind. Events closer than a few pixels
/// merge into one marker with a count, so ten thousand events stay readable and cheap.
///
/// The pure parts (step <-> pixel mapping, zoom, aggregation, hit-testing) are separate
/// functions, unit-tested without a window.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/events.hpp"
#include "orca/types.hpp"
#include "orca/ui/event_kinds.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui {

// ---- Kinds, lanes, colours -----------------------------------------------------------------

/// The bar's lanes, top to bottom: one per family of events (a begin and its end share one).
enum class EventLane : std::uint8_t {
    Overlap,
    Obstacle,
    Lp3,
    Stalled,
    Oscillation,
    Arrived,
    Detour,
    Waypoint,
    Deviation, ///< a recording's velocities that are not ORCA's (event_kinds.hpp)
};
inline constexpr std::size_t kEventLaneCount = 9;

[[nodiscard]] EventLane eventLane(EventKind kind);
/// "overlaps", "obstacle penetrations", "LP3", "stalled", "oscillation", "arrived", "detour",
/// "waypoints", "deviations".
[[nodiscard]] const char* laneName(EventLane lane);
/// The colour of a kind (its lane's hue: the agent colours where there is one, e.g. LP3 orange,
/// arrived green, detour purple).
[[nodiscard]] Rgba eventColor(EventKind kind);
/// Whether the kind ends a spell (overlap-end, lp3-end, detour-exit): drawn outlined.
[[nodiscard]] bool isEndKind(EventKind kind);

// ---- Mapping and zoom ----------------------------------------------------------------------

/// The visible steps [start, end] (end > start) across the track's pixels [x0, x0 + width].
struct TimelineView {
    double start = 0.0;
    double end = 1.0;
    double x0 = 0.0;
    double width = 1.0;

    [[nodiscard]] double stepToX(double step) const {
        return x0 + (step - start) / (end - start) * width;
    }
    [[nodiscard]] double xToStep(double x) const {
        return start + (x - x0) / width * (end - start);
    }
    /// The recorded step nearest to screen x, clamped to [first, last].
    [[nodiscard]] std::uint64_t stepAt(double x, std::uint64_t first, std::uint64_t last) const;
};

/// The bar's zoom: a window into the recorded range, or the whole range.
struct TimelineZoom {
    /// The narrowest window (steps).
    static constexpr double kMinSpan = 10.0;
    bool zoomed = false;
    double start = 0.0; ///< while zoomed
    double end = 0.0;

    /// The view of recorded steps [first, last] over the track: the whole range (at least one
    /// step wide), or the zoom window clamped into it.
    [[nodiscard]] TimelineView view(std::uint64_t first, std::uint64_t last, double x0,
                                    double width) const;
    /// Zooms by `factor` (> 1: in) keeping the step under screen x fixed; the window stays
    /// inside the recorded range and at least kMinSpan wide. Zooming out to the whole range
    /// resets.
    void zoomAbout(const TimelineView& current, std::uint64_t first, std::uint64_t last, double x,
                   double factor);
    /// Moves the window by `steps` (kept inside the recorded range).
    void pan(std::uint64_t first, std::uint64_t last, double steps);
    /// Scrolls the window (when zoomed) so that `step` is visible.
    void follow(std::uint64_t first, std::uint64_t last, std::uint64_t step);
    void reset() { zoomed = false; }
};

// ---- Markers -------------------------------------------------------------------------------

/// One marker: a run of events of one lane, adjacent on screen.
struct TimelineMarker {
    EventLane lane = EventLane::Overlap;
    double x0 = 0.0; ///< screen x of the first and the last event
    double x1 = 0.0;
    std::uint64_t firstStep = 0;
    std::uint64_t lastStep = 0;
    std::size_t firstEvent = 0; ///< index into the events of the first one
    std::size_t count = 0;
    std::array<std::uint32_t, kShownEventKindCount> kindCounts{};

    /// The kind with the most events (ties: the lower kind, i.e. the begin).
    [[nodiscard]] EventKind dominantKind() const;
};

/// Groups the events visible in `view` into markers, per lane: an event less than `binPixels`
/// right of the first event of the lane's current marker joins it. `events` must be ordered by
/// step (History::events() is). Linear in the visible events; `out` is reused.
void aggregateMarkers(std::span<const Event> events, const TimelineView& view, double binPixels,
                      std::vector<TimelineMarker>& out);

/// The marker under screen point `mouse`: lane rows of `laneHeight` from `laneTop`; a marker is
/// hit within `slop` pixels of [x0, x1]; the nearest wins. nullopt over none.
[[nodiscard]] std::optional<std::size_t> hitTestMarker(std::span<const TimelineMarker> markers,
                                                       double laneTop, double laneHeight,
                                                       Vec2 mouse, double slop = 3.0);

/// What clicking a marker focuses: its first event's step, and the agents (ascending, no
/// duplicates, at most `maxAgents`) of the marker's events at that step.
struct MarkerFocus {
    std::size_t event = 0; ///< the first event
    std::uint64_t step = 0;
    std::vector<std::uint32_t> agents;
};
[[nodiscard]] MarkerFocus markerFocus(std::span<const Event> events, const TimelineMarker& marker,
                                      std::size_t maxAgents = 32);

/// "#3, #7" (at most `maxAgents`, then "+N").
[[nodiscard]] std::string agentList(std::span<const std::uint32_t> agents,
                                    std::size_t maxAgents = 8);

// ---- The bar -------------------------------------------------------------------------------

/// What the bar shows.
struct TimelineInput {
    std::uint64_t first = 0; ///< recorded range
    std::uint64_t last = 0;
    std::uint64_t current = 0; ///< the simulator's step
    double timeStep = 0.1;     ///< Δt, to show times
    bool running = false;
    std::span<const Event> events;
    /// Changes whenever the events change other than by appending (a new recording, an edit
    /// that cut the future): the marker cache is rebuilt.
    std::uint64_t generation = 0;
    std::span<const std::uint64_t> keyframes;
    std::uint32_t keyframeInterval = 1;
    std::size_t bytes = 0;  ///< memory held by the recording
    std::size_t budget = 0; ///< what it may hold (0: not shown)
    /// Events of the run before the recording's first step, summarised (e.g. "+1390000
    /// earlier, summarised"; empty: none) and the tooltip with their counts.
    std::string earlierNote;
    std::string earlierTip;
    /// Shortcut labels of the transport buttons (TimelineCommand order, "" = none).
    std::array<std::string, 8> shortcuts;
    /// A recording being played (.orcarec): the bar's positions are its frames, and
    /// `recordedSteps[k]` is frame k's recorded step number, shown wherever the bar names a
    /// position (empty: a run the app simulated, whose positions are its steps).
    std::span<const std::uint64_t> recordedSteps;
    /// Replaces "(head)" / "(replay, ...)" after the position when not empty (e.g. "frame 12
    /// of 51", "end of recording"); `positionTip` is its tooltip.
    std::string positionNote;
    std::string positionTip;
    bool positionWarning = false; ///< the note in the warning colour
};

/// The step number the bar shows for position `position`: the recorded step of that frame
/// when playing a recording, else the position itself.
[[nodiscard]] std::uint64_t shownStep(const TimelineInput& in, std::uint64_t position);

/// The transport buttons.
enum class TimelineCommand : std::uint8_t {
    None,
    Start,
    PreviousEvent,
    StepBack,
    TogglePlay,
    StepForward,
    NextEvent,
    End,
};

struct TimelineOutput {
    std::optional<std::uint64_t> seek; ///< scrubbed to this step
    std::optional<MarkerFocus> focus;  ///< a marker was clicked
    TimelineCommand command = TimelineCommand::None;
};

class TimelineBar {
  public:
    /// Height of the bar (screen units) for the current font and style.
    [[nodiscard]] static float height();
    /// Draws the bar as a window across the display with its top at `y`.
    TimelineOutput draw(const TimelineInput& in, float y);

    /// Markers drawn by the last draw(), with their lanes' geometry (for the state dump).
    [[nodiscard]] const std::vector<TimelineMarker>& markers() const { return m_markers; }
    /// Screen centre of marker i as last drawn.
    [[nodiscard]] Vec2 markerCenter(std::size_t i) const;
    [[nodiscard]] const TimelineView& view() const { return m_view; }
    [[nodiscard]] const TimelineZoom& zoom() const { return m_zoom; }
    bool showKeyframes = true;

  private:
    TimelineZoom m_zoom;
    TimelineView m_view;
    double m_laneTop = 0.0;
    double m_laneHeight = 6.0;
    std::vector<TimelineMarker> m_markers;
    // Cache key of m_markers.
    std::uint64_t m_cacheGeneration = ~std::uint64_t{0};
    std::size_t m_cacheEvents = ~std::size_t{0};
    TimelineView m_cacheView{-1.0, -1.0, -1.0, -1.0};
    std::optional<std::size_t> m_pressMarker;
    bool m_scrubbing = false;
};

} // namespace orca::ui
