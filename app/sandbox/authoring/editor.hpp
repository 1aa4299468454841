#pragma once
// Scene authoring: the edit tools, what is selected besides agents (obstacles, a vertex), the
// obstacle being drawn, drags, snapping, the clipboard, and undo/redo through
// scene::EditHistory. Every edit goes through commitScene(): the scene changes, the history
// records the difference, and the simulation is rebuilt from the edited scene (paused).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "orca/scene/generators.hpp"
#include "orca/scene/history.hpp"
#include "orca/scene/lint.hpp"
#include "orca/scene/scene.hpp"
#include "orca/types.hpp"

#include "cache_stamp.hpp"

struct ImDrawList;

namespace orca::app {

struct SandboxContext;

/// The world view's tools; each is a unit in tools/ with a row in the tool table
/// (tools/tool_table.cpp).
enum class Tool : std::uint8_t { Inspect, Select, AddAgent, Goal, Obstacle };
/// The tool's label ("Select / move"; the tool table's).
[[nodiscard]] const char* toolName(Tool tool);

/// One vertex of an obstacle (scene indices).
struct VertexRef {
    std::size_t obstacle = 0;
    std::size_t vertex = 0;
    friend bool operator==(const VertexRef&, const VertexRef&) = default;
};

/// What lies under the pointer for the edit tools, in pick priority order.
struct EditHit {
    enum class Kind : std::uint8_t { None, Vertex, Agent, Goal, Edge, Obstacle };
    Kind kind = Kind::None;
    std::size_t index = 0; ///< agent or obstacle
    std::size_t sub = 0;   ///< vertex or edge (edge i joins vertices i and i + 1)
    Vec2 point{0.0, 0.0};  ///< on an edge: the nearest point of it
};

/// A mouse drag in progress.
struct EditDrag {
    enum class Kind : std::uint8_t {
        None,
        Pending,      ///< pressed, not yet moved past the threshold
        Move,         ///< selected agents / obstacles / a vertex / a goal
        Box,          ///< box selection
        Goal,         ///< goal tool: from an agent to the goal
        PrefVelocity, ///< goal tool with Alt: a constant preferred velocity
        NewAgent,     ///< add-agent tool: placed on release, the drag sets its goal
        Waypoint,     ///< goal tool: a waypoint moved (hit.index: agent, hit.sub: waypoint)
        NewWaypoint,  ///< goal tool: a waypoint inserted at hit.sub on release (dragged there)
    };
    Kind kind = Kind::None;
    EditHit hit;            ///< what was pressed
    Vec2 pressScreen{0, 0}; ///< where the button went down
    Vec2 pressWorld{0, 0};
    Vec2 anchor{0, 0}; ///< the grabbed element's original position (snapping)
    Vec2 currentWorld{0, 0};
    bool additive = false; ///< Shift was held
    /// Shift+press on a selected element: it leaves the selection on release, unless dragged.
    bool deselectOnRelease = false;
    scene::Scene before; ///< the scene when a Move began (the edit is its difference)
};

/// Everything that can be copied: agents and obstacles, with the parameters they had (the
/// clipboard is itself a scene, so it also travels as scene JSON through the system clipboard).
struct EditClipboard {
    scene::Scene content;
};

enum class GeneratorKind : std::uint8_t { Circle, Grid, RandomFill, Crossing, Doorway, Corridor };

/// The Generators window: parameters of each generator and the preview of the chosen one.
struct GeneratorState {
    GeneratorKind kind = GeneratorKind::Circle;
    scene::CircleFormation circle;
    scene::GridBlock grid;
    scene::RandomFill fill;
    scene::CrossingFlows crossing;
    scene::Doorway doorway;              ///< walls with a gap, two groups through it
    scene::CorridorCounterflow corridor; ///< two walls, two flows passing
    bool regionIsRectangle = true; ///< random fill: rectangle from the corners, or a drawn polygon
    Vec2 rectMin{-20.0, -20.0};
    Vec2 rectMax{20.0, 20.0};
    bool showPreview = true;
    bool dirty = true; ///< parameters changed since the preview was made
    /// Document::editVersion the preview was made for: the generated agents keep clear of
    /// the scene's agents and obstacles, so an edit of the scene makes a new preview.
    CacheStamp previewStamp;
    /// No preview shown (nor insertable) until a parameter changes or Preview is clicked: after
    /// an Insert, and when another scene is opened (the old preview belongs to the old scene).
    bool held = false;
    std::string heldReason; ///< "inserted", "another scene was opened"
    scene::GeneratorResult preview;
    std::string error; ///< the generator's message for invalid parameters
    double previewMs = 0.0;
};

/// Hides the generator's preview until a parameter changes (see GeneratorState::held).
void holdGeneratorPreview(GeneratorState& g, std::string reason);
/// Runs the generator when its parameters (or the scene around it) changed since the preview.
void refreshGeneratorPreview(SandboxContext& ctx);
/// Inserts the preview's agents into the scene as one undoable edit, selects them, says so in
/// the status bar (with the generator's note, e.g. how many could not be placed) and holds
/// the preview. False (nothing changes) when there is no preview to insert.
bool insertGeneratorPreview(SandboxContext& ctx);

/// Agent and goal rings drawn per lint finding at most: a grouped finding may list every agent
/// of a 10,000-agent scene, and ringing them all hides the crowd. The ones nearest the
/// finding's focus point are drawn; its label counts the rest ("+N more agents").
inline constexpr std::size_t kMaxLintRingsPerIssue = 24;

/// The linter's findings for the current scene (re-run when the scene changes).
struct LintState {
    std::vector<scene::LintIssue> issues;
    /// Per issue: its elements to draw (indices into `elements`: every obstacle, edge and
    /// vertex, and the kMaxLintRingsPerIssue agents and goals nearest its focus point).
    std::vector<std::vector<std::uint32_t>> shown;
    std::vector<std::size_t> hiddenRings; ///< per issue: agents and goals not ringed
    std::size_t ringsDrawn = 0;           ///< agent and goal rings drawn last frame (dump)
    CacheStamp stamp;                     ///< the Document::editVersion they were computed for
    std::size_t errors = 0;
    std::size_t warnings = 0;
    std::size_t infos = 0;
    double ms = 0.0;   ///< time of the last run
    int selected = -1; ///< issue clicked in the list (highlighted strongly)
    int hovered = -1;  ///< issue under the pointer this frame
};

struct EditorState {
    Tool tool = Tool::Inspect;
    bool snap = false;
    double snapStep = 1.0;

    std::vector<std::size_t> obstacles; ///< selected obstacles, ascending
    std::optional<VertexRef> vertex;    ///< selected vertex
    std::vector<Vec2> drawing;          ///< obstacle being drawn (world points)
    bool drawingRegion = false;         ///< the polygon drawn is the random fill's region
    EditDrag drag;
    std::optional<EditHit> hover;         ///< this frame's pick under the pointer
    std::optional<std::size_t> goalHover; ///< agent whose goal handle is hovered
    bool nudgeBig = false;                ///< the nudge key was pressed with Shift

    scene::SceneAgent newAgent; ///< template for placed and generated agents
    EditClipboard clipboard;

    GeneratorState generator;
    LintState lint;

    /// Obstacles of the scene the simulation leaves out (clockwise or invalid), with why.
    std::vector<std::size_t> skippedObstacles;
    std::vector<std::string> skippedReasons;
};

/// Whether an edit tool (anything but Inspect) is active.
[[nodiscard]] bool editing(const SandboxContext& ctx);
void setTool(SandboxContext& ctx, Tool tool);

/// Call before an edit: pauses, and when the simulation has run away from the scene, restarts
/// it (edits apply to the scene, and the tools work on what the scene holds).
void beginEditing(SandboxContext& ctx);

/// Makes `after` the scene: records the difference as one undo step (merged with the previous
/// one when `mergeKey` is the same, see EditHistory::record), rebuilds the simulation from it
/// (paused), marks it unsaved. Returns false when nothing changed.
bool commitScene(SandboxContext& ctx, scene::Scene after, std::string label,
                 const std::string& mergeKey = {});
/// Ends the current merge (mouse released, another field).
void sealEdits(SandboxContext& ctx);

void undoEdit(SandboxContext& ctx);
void redoEdit(SandboxContext& ctx);

/// Agent selection by scene index (the simulation holds the scene's agents in order).
[[nodiscard]] std::vector<std::size_t> selectedAgents(const SandboxContext& ctx);
void selectAgents(SandboxContext& ctx, const std::vector<std::size_t>& indices, bool add = false);
/// Adds an obstacle to the selection (kept ascending; no duplicates).
void selectObstacle(EditorState& editor, std::size_t obstacle);
/// Clears agents, obstacles and the vertex.
void clearEditSelection(SandboxContext& ctx);

// Edit actions (keys and menus).
void deleteSelection(SandboxContext& ctx);
void duplicateSelection(SandboxContext& ctx);
void copySelection(SandboxContext& ctx);
void cutSelection(SandboxContext& ctx);
/// Pastes the clipboard (the system clipboard's scene JSON when it holds one) centred at
/// `at`, or beside the copied elements when `at` is empty.
void paste(SandboxContext& ctx, std::optional<Vec2> at);
void selectAll(SandboxContext& ctx);
void nudgeSelection(SandboxContext& ctx, Vec2 direction);
void reverseSelectedWinding(SandboxContext& ctx);
/// Obstacle tool: finishes the polygon being drawn (false with a message when it cannot be).
bool closeDrawing(SandboxContext& ctx);
/// Esc: drops the polygon being drawn, else clears the selection.
void cancelOrClear(SandboxContext& ctx);

/// The point as placed: on the grid when snapping.
[[nodiscard]] Vec2 snapPoint(const EditorState& editor, Vec2 world);

/// What is under screen point `screen` (edit tools).
[[nodiscard]] EditHit pickForEdit(const SandboxContext& ctx, Vec2 screen);

// The tools' mouse handling and overlays: tools/edit_tool.hpp.

/// A new agent at `position` made from the new-agent template (no goal, no id).
[[nodiscard]] scene::SceneAgent agentFromTemplate(const EditorState& editor, Vec2 position);

/// Rewrites `agent`'s overrides so that, under `to`'s defaults, it has the parameters it had
/// under `from` (copy and paste between scenes keep each agent's behaviour).
void rebaseOverrides(scene::SceneAgent& agent, const AgentParams& from, const AgentParams& to);

// The authoring windows (authoring_panels.cpp).
void drawAgentDefaultsPanel(SandboxContext& ctx);
void drawGeneratorsPanel(SandboxContext& ctx);
void drawLinterPanel(SandboxContext& ctx);
/// The generator's preview and the linter's highlights in the world view.
void drawAuthoringOverlay(SandboxContext& ctx, ImDrawList& dl);
/// Re-lints the scene when it changed since the last run.
void refreshLint(SandboxContext& ctx);
/// Applies the fix of issue `index` (of the current lint) as one undoable edit.
bool fixLintIssue(SandboxContext& ctx, std::size_t index);

} // namespace orca::app
