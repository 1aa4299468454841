// writeViewPng (view_png.hpp): the chosen view's draw lists rendered again by ImGui's OpenGL3
// backend with a framebuffer scale of 2 into a framebuffer object of twice the view's size
// (vector shapes are rasterised at 2×; text is the 1× font atlas scaled, smoothed by its
// linear filter), then read back.
#include "pictures/view_png.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include <SDL.h>
#include <SDL_opengl.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "orca/ui/label_style.hpp"
#include "orca/ui/palette.hpp"

#include "pictures/pictures.hpp"
#include "pictures/png_file.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace {

// The framebuffer-object entry points (GL 3.0 core; not in the GL 1.x ABI that SDL_opengl.h
// declares), looked up from the current context.
struct FboApi {
    PFNGLGENFRAMEBUFFERSPROC genFramebuffers = nullptr;
    PFNGLDELETEFRAMEBUFFERSPROC deleteFramebuffers = nullptr;
    PFNGLBINDFRAMEBUFFERPROC bindFramebuffer = nullptr;
    PFNGLGENRENDERBUFFERSPROC genRenderbuffers = nullptr;
    PFNGLDELETERENDERBUFFERSPROC deleteRenderbuffers = nullptr;
    PFNGLBINDRENDERBUFFERPROC bindRenderbuffer = nullptr;
    PFNGLRENDERBUFFERSTORAGEPROC renderbufferStorage = nullptr;
    PFNGLFRAMEBUFFERRENDERBUFFERPROC framebufferRenderbuffer = nullptr;
    PFNGLCHECKFRAMEBUFFERSTATUSPROC checkFramebufferStatus = nullptr;

    bool load() {
        auto get = [](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
                SDL_GL_GetProcAddress(name));
            return fn != nullptr;
        };
        return get(genFramebuffers, "glGenFramebuffers") &&
               get(deleteFramebuffers, "glDeleteFramebuffers") &&
               get(bindFramebuffer, "glBindFramebuffer") &&
               get(genRenderbuffers, "glGenRenderbuffers") &&
               get(deleteRenderbuffers, "glDeleteRenderbuffers") &&
               get(bindRenderbuffer, "glBindRenderbuffer") &&
               get(renderbufferStorage, "glRenderbufferStorage") &&
               get(framebufferRenderbuffer, "glFramebufferRenderbuffer") &&
               get(checkFramebufferStatus, "glCheckFramebufferStatus");
    }
};

// A copy of `src` whose commands draw only inside `clip` (screen units).
ImDrawList* clippedCopy(const ImDrawList& src, const ui::Rect& clip) {
    ImDrawList* copy = src.CloneOutput();
    for (ImDrawCmd& cmd : copy->CmdBuffer) {
        cmd.ClipRect.x = std::max(cmd.ClipRect.x, static_cast<float>(clip.min.x));
        cmd.ClipRect.y = std::max(cmd.ClipRect.y, static_cast<float>(clip.min.y));
        cmd.ClipRect.z = std::min(cmd.ClipRect.z, static_cast<float>(clip.max.x));
        cmd.ClipRect.w = std::min(cmd.ClipRect.w, static_cast<float>(clip.max.y));
    }
    return copy;
}

// The last frame's draw list owned by the window `name` (ImGui names each list after it).
const ImDrawList* drawListOf(const ImDrawData& data, const char* name) {
    for (int i = 0; i < data.CmdListsCount; ++i)
        if (data.CmdLists[i]->_OwnerName && std::strcmp(data.CmdLists[i]->_OwnerName, name) == 0)
            return data.CmdLists[i];
    return nullptr;
}

} // namespace

bool writeViewPng(const SandboxContext& ctx, ui::PictureView view,
                  const std::filesystem::path& file, int& width, int& height, std::string& error) {
    const ImDrawData* data = ImGui::GetDrawData();
    if (!data || !data->Valid) {
        error = "no frame was rendered to capture";
        return false;
    }
    ui::SvgPicture pic = svgPicture(ctx);
    pic.view = view;
    const ui::Rect r = ui::pictureViewRect(pic);
    if (r.isEmpty() || r.size().x < 1.0 || r.size().y < 1.0) {
        error = pictureViewEmpty(view);
        return false;
    }
    // Whole screen units, so that the picture is exactly kViewPngScale times the rectangle.
    const ImVec2 pos{std::floor(static_cast<float>(r.min.x)),
                     std::floor(static_cast<float>(r.min.y))};
    const ImVec2 size{std::ceil(static_cast<float>(r.max.x)) - pos.x,
                      std::ceil(static_cast<float>(r.max.y)) - pos.y};
    width = static_cast<int>(size.x) * kViewPngScale;
    height = static_cast<int>(size.y) * kViewPngScale;

    std::vector<ImDrawList*> lists;
    if (view != ui::PictureView::Velocity)
        if (const ImDrawList* world = drawListOf(*data, "##Background"))
            lists.push_back(clippedCopy(*world, ctx.view.camera.viewport()));
    if (view != ui::PictureView::World && pic.panel)
        if (const ImDrawList* panel = drawListOf(*data, ui::kVelocityPanelTitle))
            lists.push_back(clippedCopy(*panel, pic.panel->canvas));
    ImDrawData dd;
    dd.Valid = true;
    dd.CmdLists = lists.data();
    dd.CmdListsCount = static_cast<int>(lists.size());
    for (const ImDrawList* l : lists) {
        dd.TotalVtxCount += l->VtxBuffer.Size;
        dd.TotalIdxCount += l->IdxBuffer.Size;
    }
    dd.DisplayPos = pos;
    dd.DisplaySize = size;
    dd.FramebufferScale = {static_cast<float>(kViewPngScale), static_cast<float>(kViewPngScale)};

    FboApi gl;
    bool ok = gl.load();
    if (!ok) error = "this OpenGL context has no framebuffer objects";
    GLuint fbo = 0;
    GLuint colour = 0;
    std::vector<unsigned char> rgb;
    if (ok) {
        gl.genFramebuffers(1, &fbo);
        gl.bindFramebuffer(GL_FRAMEBUFFER, fbo);
        gl.genRenderbuffers(1, &colour);
        gl.bindRenderbuffer(GL_RENDERBUFFER, colour);
        gl.renderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        gl.framebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
        ok = gl.checkFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
        if (!ok)
            error = "could not make a " + std::to_string(width) + "x" + std::to_string(height) +
                    " offscreen framebuffer";
    }
    if (ok) {
        glViewport(0, 0, width, height);
        const ui::Rgba bg = ui::palette().kBackground;
        glClearColor(bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(&dd);
        glFinish();
        rgb.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
        if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
            error = "glReadPixels failed (GL error " + std::to_string(err) + ")";
            ok = false;
        }
    }
    if (fbo) {
        gl.bindFramebuffer(GL_FRAMEBUFFER, 0);
        gl.deleteRenderbuffers(1, &colour);
        gl.deleteFramebuffers(1, &fbo);
    }
    for (ImDrawList* l : lists)
        IM_DELETE(l);
    if (!ok) return false;
    // GL's first row is the bottom of the image; ours is the top.
    const std::size_t stride = static_cast<std::size_t>(width) * 3;
    std::vector<unsigned char> row(stride);
    for (std::size_t a = 0, b = static_cast<std::size_t>(height) - 1; a < b; ++a, --b) {
        std::memcpy(row.data(), rgb.data() + a * stride, stride);
        std::memcpy(rgb.data() + a * stride, rgb.data() + b * stride, stride);
        std::memcpy(rgb.data() + b * stride, row.data(), stride);
    }
    return writePng(file, width, height, rgb, error);
}

} // namespace orca::app
