#pragma once
// `orca validate` on lesson files (format "orca-lesson", orca/scene/lesson.hpp).

#include <iosfwd>
#include <string>

#include "orca/scene/scene.hpp"

namespace orca::cli {

/// Loads a lesson (and its inline or linked scene) and prints "FILE: ok: lesson with N pages,
/// ..." to `out`, or the loader's error to `err`. With `lint`, also lints the lesson's scene
/// (issues printed like a scene's). Returns false when the lesson does not load or the scene
/// has a lint error. `options` carry the file-size limit (--max-file-size).
bool validateLessonFile(const std::string& file, bool lint, const scene::LoadOptions& options,
                        std::ostream& out, std::ostream& err);

} // namespace orca::cli
