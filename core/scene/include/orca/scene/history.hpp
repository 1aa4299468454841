#pragma once
/// \file history.hpp
/// Undo and redo for scene editing. An edit is recorded as the smallest splices of the agent
/// and obstacle lists (plus the scene-wide header when it changed), so undo restores exactly
/// the elements it removed: an undone scene serialises byte for byte like the one before.
///
/// Target `orca_scene`; knows nothing of the app.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "orca/scene/scene.hpp"

namespace orca::scene {

/// Everything in a Scene except its agent and obstacle lists.
struct SceneHeader {
    std::string name;
    std::string description;
    SimulationBlock simulation;
    AgentParams agentDefaults;
    nlohmann::ordered_json extra = nlohmann::ordered_json::object();

    [[nodiscard]] static SceneHeader of(const Scene& scene);
    void applyTo(Scene& scene) const;
    friend bool operator==(const SceneHeader& a, const SceneHeader& b);
};

/// One splice of a list: at `index`, the elements `removed` (as they were) are replaced by
/// `inserted`. Replacing one element is a splice of one removed and one inserted element.
template <class T> struct Splice {
    std::size_t index = 0;
    std::vector<T> removed;
    std::vector<T> inserted;
};

/// One undoable step. The splices of each list apply in order (each index refers to the list
/// as the previous splices left it); undo applies the inverses in reverse order.
struct SceneEdit {
    std::string label; ///< what the user did, e.g. "Move 3 agents" (shown as "Undo Move ...")
    std::vector<Splice<SceneAgent>> agents;
    std::vector<Splice<SceneObstacle>> obstacles;
    std::optional<SceneHeader> headerBefore; ///< set (with headerAfter) when the header changed
    std::optional<SceneHeader> headerAfter;

    /// The edit that turns `before` into `after`: for a list of unchanged length one splice per
    /// run of changed elements; otherwise one splice between the common prefix and suffix.
    [[nodiscard]] static SceneEdit diff(const Scene& before, const Scene& after, std::string label);

    [[nodiscard]] bool empty() const { return agents.empty() && obstacles.empty() && !headerAfter; }
    /// Whether the lists keep their lengths (every splice replaces as many as it removes).
    [[nodiscard]] bool lengthPreserving() const;
    /// Elements stored (removed + inserted), the history's memory measure.
    [[nodiscard]] std::size_t storedElements() const;

    /// Forward / backward. Throws std::logic_error when the scene does not hold what the edit
    /// expects (an edit applied to the wrong scene), leaving the scene unchanged.
    void apply(Scene& scene) const;
    void revert(Scene& scene) const;
};

/// The undo and redo stacks. Edits are recorded after they were applied to the scene.
class EditHistory {
  public:
    /// Limits: the oldest edits are dropped when either is exceeded (the newest edit is always
    /// kept, however large).
    struct Limits {
        std::size_t maxEdits = 500;
        std::size_t maxStoredElements = 2'000'000;
    };
    EditHistory() = default;
    explicit EditHistory(Limits limits) : m_limits(limits) {}

    /// Records an edit already applied to the scene and clears the redo stack. Empty edits are
    /// ignored. With a non-empty `mergeKey` equal to the previous record's (and nothing undone
    /// or sealed since), and both edits length-preserving, the two merge into one undo step
    /// (a slider drag or a mouse drag is one step).
    void record(SceneEdit edit, const std::string& mergeKey = {});
    /// Ends merging: the next record starts a new step even with the same key.
    void seal() { m_mergeKey.clear(); }

    [[nodiscard]] bool canUndo() const { return !m_done.empty(); }
    [[nodiscard]] bool canRedo() const { return !m_undone.empty(); }
    /// Label of the step undo / redo would apply ("" when none).
    [[nodiscard]] const std::string& undoLabel() const;
    [[nodiscard]] const std::string& redoLabel() const;
    /// Reverts the newest step on `scene`; returns the step (nullptr when none).
    const SceneEdit* undo(Scene& scene);
    /// Re-applies the newest undone step; returns it (nullptr when none).
    const SceneEdit* redo(Scene& scene);
    void clear();

    [[nodiscard]] std::size_t undoCount() const { return m_done.size(); }
    [[nodiscard]] std::size_t redoCount() const { return m_undone.size(); }
    [[nodiscard]] std::size_t storedElements() const { return m_stored; }

  private:
    void trim();

    Limits m_limits;
    std::vector<SceneEdit> m_done;
    std::vector<SceneEdit> m_undone;
    std::string m_mergeKey;
    std::size_t m_stored = 0;
};

} // namespace orca::scene
