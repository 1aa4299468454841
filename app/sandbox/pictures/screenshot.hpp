#pragma once
// Reading back the rendered frame.

#include <filesystem>
#include <string>
#include <vector>

namespace orca::app {

/// Reads a rectangle of the back buffer of the current GL context (call after rendering,
/// before swapping) as RGB, top row first. `x`, `y`: its top-left corner in framebuffer pixels
/// from the top-left of a framebuffer `framebufferHeight` pixels high. Returns false with
/// `error` set on failure.
bool readBackBuffer(int x, int y, int width, int height, int framebufferHeight,
                    std::vector<unsigned char>& rgb, std::string& error);

/// Reads the back buffer of the current GL context (call after rendering, before swapping) and
/// writes it as an RGB PNG, top row first (writePng). Returns false with `error` set on failure.
bool writeBackBufferPng(const std::filesystem::path& file, int width, int height,
                        std::string& error);

} // namespace orca::app
