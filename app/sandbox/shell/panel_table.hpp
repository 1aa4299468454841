#pragma once
// The sandbox's panels as one table: the name used by --panels, lesson pages, the settings
// file and the state dump; an older name still accepted; the View menu label; the key or menu
// action that toggles it; whether it is open on first launch; where its visibility lives; how
// it is drawn. Adding a panel is one row (and, when its visibility is kept in the settings
// file, one bool in PanelVisibility).

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "shell/key_bindings.hpp"
#include "shell/settings.hpp"

namespace orca::app {

struct SandboxContext;

struct PanelInfo {
    const char* name;      ///< --panels, lesson pages, the settings key and the state dump key
    const char* alias;     ///< an older name still read (--panels, lessons, settings), or nullptr
    const char* menuLabel; ///< View menu item, or nullptr (in another menu)
    std::optional<Action> toggle; ///< the key / menu action that shows or hides it
    bool defaultOpen;             ///< open on first launch (PanelVisibility's defaults)
    /// Visibility kept in the settings file (PanelVisibility), or nullptr.
    bool PanelVisibility::*setting;
    bool& (*open)(SandboxContext&); ///< where its visibility lives
    bool byName;                    ///< opened by --panels and lesson pages
    bool inDump;                    ///< listed in the state dump's "panels"
    void (*draw)(SandboxContext&);  ///< draws it when open; nullptr: drawn with the frame
};

/// Every panel, in the order they are drawn in (also the View menu order).
[[nodiscard]] std::span<const PanelInfo> panelTable();
/// The panel `name` or `alias` names that --panels and lessons may open, or nullptr.
[[nodiscard]] const PanelInfo* findPanel(std::string_view name);
/// The panel `action` toggles, or nullptr.
[[nodiscard]] const PanelInfo* panelForAction(Action action);
/// The names --panels accepts (the table's, not the aliases), comma-separated.
[[nodiscard]] std::string panelNameList();
/// Draws the open panels (in table order).
void drawPanels(SandboxContext& ctx);

} // namespace orca::app
