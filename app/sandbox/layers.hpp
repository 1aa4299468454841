#pragma once
// Every toggle of the View menu (overlay layers and world layers) under one name each: the
// names used by the settings file, scene "view" blocks, the state dump and --layers.

#include <span>
#include <string>
#include <string_view>

#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/world_renderer.hpp"

namespace orca::app {

struct ViewLayers {
    ui::OverlayLayers overlay;
    ui::WorldViewOptions world;
};

struct LayerInfo {
    const char* name;  ///< settings / command-line name, e.g. "halfPlanes"
    const char* label; ///< View menu label
    bool overlay;      ///< an explain overlay layer (else a world layer)
    bool& (*get)(ViewLayers&);
};

/// Every layer, in View menu order.
[[nodiscard]] std::span<const LayerInfo> layerTable();
/// The layer called `name`, or nullptr.
[[nodiscard]] const LayerInfo* findLayer(std::string_view name);
[[nodiscard]] inline bool layerOn(ViewLayers l, const LayerInfo& info) {
    return info.get(l);
}
void setAllLayers(ViewLayers& layers, bool on);

/// Applies a --layers list: comma-separated names, read left to right from "everything off":
/// a name turns its layer on, "-name" off; "all" and "none" set every layer. Non-layer
/// settings (arrow length) are left alone. Returns false with `error` naming the first
/// unknown word (then `layers` is unchanged).
bool parseLayerList(std::string_view list, ViewLayers& layers, std::string& error);
/// The layers that are on, comma-separated ("none" when none).
[[nodiscard]] std::string layerListString(const ViewLayers& layers);
/// "name1, name2, ..." of every layer (usage messages).
[[nodiscard]] std::string allLayerNames();

} // namespace orca::app
