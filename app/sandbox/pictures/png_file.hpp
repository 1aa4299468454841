#pragma once
// PNG files of rendered pixels (screenshots, recorded frames), written atomically.

#include <filesystem>
#include <span>
#include <string>

namespace orca::app {

/// Writes width x height RGB pixels (top row first) as a PNG file, atomically
/// (scene::writeFileAtomic: the old file stays if anything fails). False with `error` set.
bool writePng(const std::filesystem::path& file, int width, int height,
              std::span<const unsigned char> rgb, std::string& error);

} // namespace orca::app
