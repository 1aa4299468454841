#include "pictures/png_file.hpp"

#include <stb_image_write.h> // implementation compiled into libstb

#include "orca/scene/atomic_write.hpp"

namespace orca::app {

bool writePng(const std::filesystem::path& file, int width, int height,
              std::span<const unsigned char> rgb, std::string& error) {
    // Encoded in memory, then written the one atomic way.
    std::string png;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                                   static_cast<std::size_t>(size));
    };
    if (stbi_write_png_to_func(append, &png, width, height, 3, rgb.data(), 3 * width) == 0) {
        error = "cannot encode a " + std::to_string(width) + "x" + std::to_string(height) +
                " PNG for " + file.string();
        return false;
    }
    return scene::writeFileAtomic(file, png, error);
}

} // namespace orca::app
