#pragma once
// The view part of the sandbox's context: camera, what to fit, layers, the world renderer,
// the world's overlay labels, the pointer and the window size.

#include <optional>

#include "orca/types.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/label_layout.hpp"
#include "orca/ui/world_renderer.hpp"

#include "layers.hpp"

namespace orca::app {

struct ViewState {
    ui::Camera camera;
    bool fitRequested = true;
    std::optional<ui::Rect> fitTarget; ///< what a fit request fits (default: the scene)
    /// Frames after a fit that fit again while nothing moved the camera since: the windows
    /// the fit keeps clear of (the hint bar, Help) are placed and sized in those frames.
    int fitSettle = 0;
    Vec2 fittedCenter{0.0, 0.0}; ///< the camera the last fit set
    double fittedScale = 0.0;
    ViewLayers layers;
    ui::WorldRenderer renderer;
    ui::OverlayStyle overlayStyle;
    ui::LabelLayout worldLabels; ///< the world view's overlay labels, laid out together
    bool mouseCaptured = false;  ///< ImGui wanted the mouse this frame
    std::optional<Vec2> mouse;   ///< pointer position this frame, if known
    int windowWidth = 0;         ///< window size in screen units (as ImGui's DisplaySize)
    int windowHeight = 0;
};

} // namespace orca::app
