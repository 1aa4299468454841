#include "pictures/screenshot.hpp"

#include <cstring>
#include <vector>

#include <SDL_opengl.h>

#include "pictures/png_file.hpp"

namespace orca::app {

bool readBackBuffer(int x, int y, int width, int height, int framebufferHeight,
                    std::vector<unsigned char>& rgb, std::string& error) {
    if (width <= 0 || height <= 0) {
        error = "nothing to capture: the framebuffer is empty";
        return false;
    }
    const auto w = static_cast<std::size_t>(width);
    const auto h = static_cast<std::size_t>(height);
    const std::size_t stride = 3 * w;
    rgb.resize(stride * h);
    glFinish();
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    // GL counts rows from the bottom.
    glReadPixels(x, framebufferHeight - y - height, width, height, GL_RGB, GL_UNSIGNED_BYTE,
                 rgb.data());
    if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
        error = "glReadPixels failed (GL error " + std::to_string(err) + ")";
        return false;
    }
    // GL's first row is the bottom of the image; ours is the top.
    std::vector<unsigned char> row(stride);
    for (std::size_t r = 0; r < h / 2; ++r) {
        unsigned char* a = rgb.data() + r * stride;
        unsigned char* b = rgb.data() + (h - 1 - r) * stride;
        std::memcpy(row.data(), a, stride);
        std::memcpy(a, b, stride);
        std::memcpy(b, row.data(), stride);
    }
    return true;
}

bool writeBackBufferPng(const std::filesystem::path& file, int width, int height,
                        std::string& error) {
    std::vector<unsigned char> pixels;
    if (!readBackBuffer(0, 0, width, height, height, pixels, error)) return false;
    return writePng(file, width, height, pixels, error);
}

} // namespace orca::app
