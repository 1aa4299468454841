#pragma once
// Pictures to share: the SVG export of the world view and the velocity panel, the state of a
// recording (GIF or PNG sequence; the frames are captured by the window loop, which owns the
// GL context) and the default folder of the save dialogs.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "orca/ui/camera.hpp"
#include "orca/ui/picture_view.hpp"
#include "orca/ui/svg_export.hpp"

namespace orca::app {

struct SandboxContext;

/// Requests from the UI and the recording's state, shown in the menu and the status bar.
struct PicturesState {
    std::optional<std::filesystem::path> svgRequest;  ///< export after the frame
    std::optional<std::filesystem::path> recordStart; ///< start once the dialog is gone
    bool recordStop = false;                          ///< finish and write the file
    bool recording = false;                           ///< frames are being captured ("REC")
    std::filesystem::path recordFile;
    std::size_t recordFrames = 0; ///< frames captured so far
    /// What the SVG export shows (--svg-view, the export dialog's choice).
    ui::PictureView svgView = ui::PictureView::Both;
    /// What a screenshot shows (--png-view, the screenshot dialog's choice): one view at 2×
    /// (writeViewPng); nullopt: the whole window as it is.
    std::optional<ui::PictureView> pngView;
};

/// The part of the window the pictures show: the world view and the velocity panel, between
/// the menu bar and the timeline / status bar (screen units).
[[nodiscard]] ui::Rect pictureFrame(const SandboxContext& ctx);

/// The SVG picture of the current frame (call after a frame was built, so that the camera
/// and the velocity panel's canvas are those on screen).
[[nodiscard]] ui::SvgPicture svgPicture(const SandboxContext& ctx);
/// Renders svgPicture() of ctx.pictures.svgView and writes it atomically. False with `error` on
/// failure.
bool exportSvg(const SandboxContext& ctx, const std::filesystem::path& file, std::string& error);

/// Why a picture of `view` would be empty (pictureViewRect is empty): no scene, or no panel.
[[nodiscard]] std::string pictureViewEmpty(ui::PictureView view);

/// The export dialogs' view selector (ImGui radio buttons): the SVG's view (`png` false) or the
/// screenshot's (`png`: the whole window, or one view at 2×). The dialog calls it once.
void pictureViewChoice(PicturesState& pictures, bool png);

/// "<folder>/<scene>-step<N><extension>" in defaultSaveDir() (the scene's folder, else the
/// user's pictures folder, else home).
[[nodiscard]] std::filesystem::path defaultPicturePath(const SandboxContext& ctx,
                                                       const std::string& extension);

} // namespace orca::app
