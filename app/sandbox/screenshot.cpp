#include "screenshot.hpp"

#include <cstring>
#include <vector>

#include <SDL_opengl.h>
#include <stb_image_write.h> // implementation compiled into libstb

namespace orca::app {

bool writeBackBufferPng(const std::filesystem::path& file, int width, int height,
                        std::string& error) {
    if (width <= 0 || height <= 0) {
        error = "nothing to capture: the framebuffer is empty";
        return false;
    }
    const auto w = static_cast<std::size_t>(width);
    const auto h = static_cast<std::size_t>(height);
    const std::size_t stride = 3 * w;
    std::vector<unsigned char> pixels(stride * h);
    glFinish();
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
        error = "glReadPixels failed (GL error " + std::to_string(err) + ")";
        return false;
    }
    // GL's first row is the bottom of the image; PNG's is the top.
    std::vector<unsigned char> row(stride);
    for (std::size_t y = 0; y < h / 2; ++y) {
        unsigned char* a = pixels.data() + y * stride;
        unsigned char* b = pixels.data() + (h - 1 - y) * stride;
        std::memcpy(row.data(), a, stride);
        std::memcpy(a, b, stride);
        std::memcpy(b, row.data(), stride);
    }
    if (stbi_write_png(file.c_str(), width, height, 3, pixels.data(), static_cast<int>(stride)) ==
        0) {
        error = "cannot write " + file.string();
        return false;
    }
    return true;
}

} // namespace orca::app
