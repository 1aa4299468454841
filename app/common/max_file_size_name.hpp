#pragma once
// The name of the byte-count option --max-file-size, without CLI11: files that only quote it
// (in refusals) need not compile CLI11 (max_file_size_option.hpp adds the option itself).

namespace orca::app {

inline constexpr const char* kMaxFileSizeOption = "--max-file-size";

} // namespace orca::app
