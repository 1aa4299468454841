#include "document/import_open.hpp"

#include <cstdio>
#include <stdexcept>

#include "orca/scene/import.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace fs = std::filesystem;

bool isImportFile(const fs::path& file) {
    std::string head;
    try {
        head = scene::readFilePrefix(file, 64 * 1024); // never blocks on a FIFO
    } catch (const scene::SceneError&) {
        return false;
    }
    return scene::detectImportDocument(head) != scene::ImportDocument::None;
}

bool openImportedFile(SandboxContext& ctx, const fs::path& file, std::string& error) {
    scene::ImportResult result;
    try {
        scene::ImportOptions options;
        options.maxFileSize = ctx.doc.maxFileSize;
        result = scene::importFiles({file}, options);
    } catch (const scene::SceneError& e) {
        error = e.what();
        return false;
    } catch (const std::exception& e) {
        error = file.string() + ": error: " + e.what();
        return false;
    }
    if (!loadSceneObject(ctx, std::move(result.scene), {}, error)) return false;
    // New, unsaved work: never written, so Save asks where, proposing FILE.json.
    ctx.doc.unsaved.reset(scene::Scene{});
    ctx.doc.unsaved.update(ctx.doc.scene);
    ctx.doc.suggestedFile = fs::path(file).replace_extension(".json");
    ctx.doc.importedFrom = file;
    std::string text = "Imported " + std::string(scene::toString(result.format)) + " file " +
                       file.string() + ": " + std::to_string(ctx.doc.scene.agents.size()) +
                       " agents, " + std::to_string(ctx.doc.scene.obstacles.size()) +
                       " obstacles (seed " + std::to_string(result.seed) + ").\n";
    if (!result.dropped.empty()) text += "\nDropped:\n";
    for (const scene::ImportDrop& d : result.dropped)
        text += "- " + d.what + ": " + d.why + "\n";
    if (!result.notes.empty()) text += "\nNotes:\n";
    for (const std::string& n : result.notes)
        text += "- " + n + "\n";
    std::fprintf(stderr, "%s", text.c_str());
    ctx.windows.messages.push("Imported " + file.filename().string() + " (unsaved)", text);
    return true;
}

} // namespace orca::app
