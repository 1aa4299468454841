#pragma once
// The world view's tools as units: one interface (press / drag / release, overlay, status text,
// the hint in an agent's tooltip), one file per tool, and one table (tool_table.cpp) that
// names them for the command line, the menus and the tool strip. The frame calls the
// dispatch functions declared below; nothing else switches on Tool.
//
// Adding a tool: write tools/NAME_tool.cpp with a class deriving from EditTool and a function
// returning its instance, add its Tool value (editor.hpp) and one row to kToolTable. A key for
// it is an Action plus a KeyBinding row (key_bindings.hpp), as for every other key.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orca/types.hpp"
#include "orca/ui/camera.hpp"

#include "authoring/editor.hpp"

struct ImDrawList;

namespace orca::app {

struct SandboxContext;
enum class Action; // shell/key_bindings.hpp: the key or menu action that picks a tool

/// The pointer as the tools see it this frame.
struct ToolPointer {
    Vec2 screen{0.0, 0.0};
    Vec2 world{0.0, 0.0};
    bool inWorld = false; ///< over the world view and not taken by a window
    /// Set before toolWorldInput(): the tool's earlyInput() took the mouse this frame.
    bool tookEarly = false;
    /// Set before toolWorldInput(): the pointer is over a half-plane of the explain overlay.
    bool overOverlay = false;
};

/// A tool holds no state (the editor state is in the context): one const instance each.
class EditTool {
  public:
    virtual ~EditTool() = default;

    /// Before anything is drawn (so that this frame shows the result): true when the tool took
    /// the mouse. The inspect tool's what-if drags.
    virtual bool earlyInput(SandboxContext& ctx, const ToolPointer& p) const;
    /// Whether the tool shows what lies under the pointer (EditorState::hover, pickForEdit).
    [[nodiscard]] virtual bool picksHover() const { return false; }
    /// Whether obstacles show their vertex handles.
    [[nodiscard]] virtual bool vertexHandles() const { return false; }

    /// The left button went down over the world view. A tool that starts a drag sets
    /// ctx.editor.drag (startDrag()); drag() and release() follow until the button is up.
    virtual void press(SandboxContext& ctx, const ToolPointer& p) const = 0;
    /// Every frame of a drag (button down, or the frame it is released).
    virtual void drag(SandboxContext& ctx, const ToolPointer& p) const;
    /// The button was released (or is up without a release event: focus lost). The drag is
    /// cleared and the edits sealed afterwards.
    virtual void release(SandboxContext& ctx, const ToolPointer& p) const;

    /// The tool's part of the world overlay (after the obstacles' outlines and the selected
    /// agents' goal handles, which every edit tool shows).
    virtual void drawOverlay(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p) const;
    /// Status bar text ("" for none): the tool's name and the snap step.
    [[nodiscard]] virtual std::string statusText(const EditorState& editor) const;
    /// What the pointer can do with the agent under it (the agent's tooltip).
    [[nodiscard]] virtual const char* agentHint() const;
};

/// One row per tool.
struct ToolInfo {
    Tool tool;
    const char* name;      ///< --tool NAME
    const char* label;     ///< menus, status bar, state dump ("Select / move")
    const char* stripText; ///< the menu bar's tool strip ("2 Select")
    Action action;         ///< the key / menu action that picks it
    bool edits;            ///< edits the scene (pauses, rewinds: beginEditing())
    const EditTool& (*instance)();
};

/// Every tool, in strip order.
[[nodiscard]] std::span<const ToolInfo> toolTable();
[[nodiscard]] const ToolInfo& toolInfo(Tool tool);
/// The row named `name` (--tool), or nullptr.
[[nodiscard]] const ToolInfo* findTool(std::string_view name);
/// The row picked by `action`, or nullptr.
[[nodiscard]] const ToolInfo* toolForAction(Action action);
/// The tools' names (--tool), comma-separated.
[[nodiscard]] std::string toolNameList();

// The tools (one file each).
const EditTool& inspectTool();
const EditTool& selectTool();
const EditTool& addAgentTool();
const EditTool& goalTool();
const EditTool& obstacleTool();

// ---- Dispatch (the frame) ---------------------------------------------------------------------

/// The active tool's earlyInput().
bool toolEarlyInput(SandboxContext& ctx, const ToolPointer& p);
/// Draws obstacles the simulation leaves out, then the active tool's overlay (edit tools:
/// obstacles' winding, normals and handles, the selected agents' goals, first).
void drawToolOverlay(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p);
/// The world view's mouse handling: hover, press, drag, release of the active tool.
void toolWorldInput(SandboxContext& ctx, const ToolPointer& p);
[[nodiscard]] std::string toolStatusText(const SandboxContext& ctx);
[[nodiscard]] const char* toolAgentHint(const SandboxContext& ctx);

// ---- Shared by the tools (tool_common.cpp) -----------------------------------------------------

inline constexpr double kDragThresholdPixels = 3.0;
inline constexpr double kClosePickPixels = 8.0;

/// Starts a drag at the pointer: Pending, with what lies under it (pickForEdit) and Shift.
EditDrag& startDrag(SandboxContext& ctx, const ToolPointer& p);
/// Whether the pointer moved past the drag threshold since the press.
[[nodiscard]] bool movedPastThreshold(const EditDrag& d, const ToolPointer& p);
/// An arrow from a to b (screen points).
void drawArrow(ImDrawList& dl, Vec2 a, Vec2 b, unsigned int colour, float thickness = 1.5f);
/// Winding arrows along the edges and outward normals at their middles (screen space).
void drawWindingAndNormals(ImDrawList& dl, const ui::Camera& cam, const std::vector<Vec2>& v,
                           unsigned int edgeColour, unsigned int normalColour);
/// The cross where a click would place a point (snapping on, no drag).
void drawSnapCross(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p);
/// Sorted index lists (selected obstacles).
[[nodiscard]] bool sortedContains(const std::vector<std::size_t>& sorted, std::size_t i);
void toggleSorted(std::vector<std::size_t>& sorted, std::size_t i);
/// The scene `base` with the selection moved by `d` (agents keep their goals); only the
/// grabbed goal or vertex when `grabbed` is one (editor.cpp).
[[nodiscard]] scene::Scene movedSelection(const SandboxContext& ctx, const scene::Scene& base,
                                          Vec2 d, const EditHit* grabbed);
/// "3 agents" / "1 agent".
[[nodiscard]] std::string plural(std::size_t n, const char* one, const char* many);

} // namespace orca::app
