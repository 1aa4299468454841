#pragma once
// Byte-count options: --max-file-size, shared by the `orca` CLI and the sandbox app, and the
// byte-size parsing behind it (header-only: both link CLI11 themselves).

#include <cstdint>
#include <limits>
#include <string>

#include <CLI/CLI.hpp>

#include "max_file_size_name.hpp"

namespace orca::app {

/// Makes `option` read a byte count with suffixes K, M, G (= KiB, MiB, GiB), refusing a
/// negative one (AsSizeValue would wrap "-5" round to 2^64 - 5); checks added after it see
/// the number of bytes.
inline CLI::Option* asByteSize(CLI::Option* option) {
    return option
        ->check(CLI::Validator(
            [](const std::string& text) {
                return text.find('-') == std::string::npos ? std::string()
                                                           : std::string("must be positive");
            },
            "", "non-negative"))
        ->transform(CLI::AsSizeValue(false))
        ->option_text("BYTES");
}

/// Adds --max-file-size BYTES (suffixes K, M, G = KiB, MiB, GiB; > 0) writing to `bytes`.
inline CLI::Option* addMaxFileSizeOption(CLI::App& app, std::uint64_t& bytes) {
    return asByteSize(app.add_option(kMaxFileSizeOption, bytes,
                                     "Refuse scene and lesson files larger than BYTES (suffixes "
                                     "K, M, G = KiB, MiB, GiB, e.g. 64M; default 1G). Devices, "
                                     "FIFOs and folders are always refused"))
        ->check(CLI::Range(std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max()));
}

} // namespace orca::app
