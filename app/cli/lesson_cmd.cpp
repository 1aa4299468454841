#include "lesson_cmd.hpp"

#include "cli_common.hpp"

#include <ostream>

#include "orca/scene/lesson.hpp"
#include "orca/scene/lint.hpp"

namespace orca::cli {

bool validateLessonFile(const std::string& file, bool lint, const scene::LoadOptions& options,
                        std::ostream& out, std::ostream& err) {
    lesson::LessonLoad loaded;
    try {
        loaded = lesson::loadLesson(file, options);
    } catch (const lesson::LessonError& e) {
        err << e.what() << '\n';
        return false;
    }
    for (const scene::SceneWarning& w : loaded.warnings) {
        err << displayPath(file) << ": warning: ";
        if (!w.jsonPath.empty()) err << "at " << w.jsonPath << ": ";
        err << w.message << '\n';
    }
    const lesson::Lesson& l = loaded.lesson;
    auto count = [](std::size_t n, const char* word) {
        return std::to_string(n) + ' ' + word + (n == 1 ? "" : "s");
    };
    bool ok = true;
    std::size_t counts[3] = {0, 0, 0}; // errors, warnings, infos
    if (lint) {
        // Issues of an inline scene are reported at "scene.PATH" in the lesson; a linked scene's
        // under its own file name.
        const bool inlineScene = l.sceneFile.empty();
        const std::string where = displayPath(inlineScene ? file : l.sceneFile.string());
        for (const scene::LintIssue& issue : scene::lintScene(l.scene)) {
            ++counts[static_cast<int>(issue.severity)];
            out << where << ": " << scene::severityName(issue.severity) << ": at "
                << (inlineScene ? "scene." : "") << issue.jsonPath << ": " << issue.message << " ["
                << issue.rule << ']';
            if (!issue.fixLabel.empty()) out << " (fix: " << issue.fixLabel << ')';
            out << '\n';
        }
        if (counts[0] > 0) ok = false;
    }
    out << displayPath(file) << ": ok: lesson with " << count(l.pages.size(), "page") << ", "
        << count(l.taskCount(), "task") << "; scene "
        << (l.sceneFile.empty() ? std::string("inline") : displayPath(l.sceneFile)) << ": "
        << count(l.scene.agents.size(), "agent") << ", "
        << count(l.scene.obstacles.size(), "obstacle");
    if (!loaded.warnings.empty()) out << ", " << count(loaded.warnings.size(), "warning");
    if (lint) {
        out << "; lint: " << count(counts[0], "error") << ", " << count(counts[1], "warning")
            << ", " << count(counts[2], "info");
    }
    out << '\n';
    return ok;
}

} // namespace orca::cli
