#pragma once
// Reading back the rendered frame.

#include <filesystem>
#include <string>

namespace orca::app {

/// Reads the back buffer of the current GL context (call after rendering, before swapping) and
/// writes it as an RGB PNG, top row first. Returns false with `error` set on failure.
bool writeBackBufferPng(const std::filesystem::path& file, int width, int height,
                        std::string& error);

} // namespace orca::app
