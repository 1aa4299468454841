#include "layers.hpp"

#include <array>
#include <vector>

namespace orca::app {

namespace {

#define ORCA_OVERLAY_LAYER(field, label)                                                           \
    LayerInfo {                                                                                    \
#field, label, true, [](ViewLayers & l) -> bool& { return l.overlay.field; }               \
    }
#define ORCA_WORLD_LAYER(field, label)                                                             \
    LayerInfo {                                                                                    \
#field, label, false, [](ViewLayers & l) -> bool& { return l.world.field; }                \
    }

const std::array kLayers{
    ORCA_WORLD_LAYER(grid, "Grid"),
    ORCA_WORLD_LAYER(obstacles, "Obstacles"),
    ORCA_WORLD_LAYER(goals, "Goals"),
    ORCA_WORLD_LAYER(goalLines, "Lines to goals"),
    ORCA_WORLD_LAYER(velocities, "Velocity arrows (all agents)"),
    ORCA_WORLD_LAYER(selectionRings, "Selection rings"),
    ORCA_WORLD_LAYER(agentIds, "Agent ids"),
    ORCA_WORLD_LAYER(trails, "Trails"),
    ORCA_WORLD_LAYER(obstacleWinding, "Obstacle winding"),
    ORCA_WORLD_LAYER(obstacleNormals, "Obstacle normals"),
    ORCA_WORLD_LAYER(detourField, "Detour field"),
    ORCA_WORLD_LAYER(routes, "Routes (every goal agent)"),
    ORCA_WORLD_LAYER(roadmap, "Roadmap (roadmap routing)"),
    ORCA_OVERLAY_LAYER(inWorld, "Overlays in the world view"),
    ORCA_OVERLAY_LAYER(velocityPanel, "Velocity-space panel"),
    ORCA_OVERLAY_LAYER(voCones, "VO cones"),
    ORCA_OVERLAY_LAYER(halfPlanes, "ORCA half-planes"),
    ORCA_OVERLAY_LAYER(uVectors, "u vectors"),
    ORCA_OVERLAY_LAYER(feasibleRegion, "Feasible region"),
    ORCA_OVERLAY_LAYER(velocityArrows, "v, v_pref, v_new"),
    ORCA_OVERLAY_LAYER(neighborLinks, "Links to neighbours"),
    ORCA_OVERLAY_LAYER(neighborCircle, "Neighbour distance circle"),
    ORCA_OVERLAY_LAYER(detour, "Detour sample and direction"),
};

#undef ORCA_OVERLAY_LAYER
#undef ORCA_WORLD_LAYER

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

} // namespace

std::span<const LayerInfo> layerTable() {
    return kLayers;
}

const LayerInfo* findLayer(std::string_view name) {
    for (const LayerInfo& l : kLayers)
        if (name == l.name) return &l;
    return nullptr;
}

void setAllLayers(ViewLayers& layers, bool on) {
    for (const LayerInfo& l : kLayers)
        l.get(layers) = on;
}

bool parseLayerList(std::string_view list, ViewLayers& layers, std::string& error) {
    ViewLayers result = layers;
    setAllLayers(result, false);
    std::size_t start = 0;
    while (start <= list.size()) {
        std::size_t comma = list.find(',', start);
        if (comma == std::string_view::npos) comma = list.size();
        std::string_view word = trim(list.substr(start, comma - start));
        start = comma + 1;
        if (word.empty()) {
            if (comma == list.size() && !list.empty()) break; // trailing comma
            error = "empty layer name in '" + std::string(list) + "'";
            return false;
        }
        if (word == "all" || word == "none") {
            setAllLayers(result, word == "all");
            continue;
        }
        const bool off = word.front() == '-';
        if (off) word.remove_prefix(1);
        const LayerInfo* info = findLayer(word);
        if (!info) {
            error = "unknown layer '" + std::string(word) + "' (layers: " + allLayerNames() +
                    ", all, none)";
            return false;
        }
        info->get(result) = !off;
    }
    layers = result;
    return true;
}

std::string layerListString(const ViewLayers& layers) {
    std::string s;
    for (const LayerInfo& l : kLayers) {
        if (!layerOn(layers, l)) continue;
        if (!s.empty()) s += ',';
        s += l.name;
    }
    return s.empty() ? "none" : s;
}

std::string allLayerNames() {
    std::string s;
    for (const LayerInfo& l : kLayers) {
        if (!s.empty()) s += ", ";
        s += l.name;
    }
    return s;
}

} // namespace orca::app
