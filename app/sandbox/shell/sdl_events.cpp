#include "shell/sdl_events.hpp"

#include <filesystem>

#include <imgui.h>

#include "document/import_open.hpp"
#include "playback/playback.hpp"
#include "sandbox.hpp"
#include "shell/key_bindings.hpp"

namespace fs = std::filesystem;

namespace orca::app {

void handleEvent(SandboxContext& ctx, const SDL_Event& e, Uint32 windowId) {
    switch (e.type) {
    case SDL_QUIT: // (not from signals: shell/end_signals.hpp)
        requestQuit(ctx);
        break;
    case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_CLOSE && e.window.windowID == windowId)
            requestQuit(ctx);
        break;
    case SDL_DROPFILE: {
        const fs::path file(e.drop.file);
        SDL_free(e.drop.file);
        // Recordings by their signature (or .orcarec, for the loader's message when broken).
        if (file.extension() == ".json" || isRecordingFile(file) || isImportFile(file))
            requestLoad(ctx, file);
        else
            ctx.windows.messages.push("Not a scene file or a recording",
                                      file.string() + "\n\nDrop a .json scene file, a .orcarec "
                                                      "recording or a SteerSuite or Menge .xml "
                                                      "file to open it.");
        break;
    }
    case SDL_KEYDOWN: {
        if (ctx.windows.dialog != Dialog::None) {
            Windows::DialogKeys& k = ctx.windows.dialogKeys;
            const SDL_Keycode sym = e.key.keysym.sym;
            const bool first = e.key.repeat == 0;
            k.enter |= first && (sym == SDLK_RETURN || sym == SDLK_KP_ENTER);
            k.escape |= first && sym == SDLK_ESCAPE;
            k.backspace |= first && sym == SDLK_BACKSPACE;
            k.up |= sym == SDLK_UP;
            k.down |= sym == SDLK_DOWN;
        }
        const KeyBinding* b = findBinding(e.key.keysym.sym, e.key.keysym.mod, keyContext(ctx));
        // ImGui's text fields and dialogs keep the keys, except the state dump (tests must
        // see the state whatever window is open).
        if (ImGui::GetIO().WantCaptureKeyboard && !(b && b->action == Action::DumpState)) break;
        ctx.editor.nudgeBig = (e.key.keysym.mod & KMOD_SHIFT) != 0;
        if (b && (e.key.repeat == 0 || b->repeats)) applyAction(ctx, b->action);
        break;
    }
    default:
        break;
    }
}

} // namespace orca::app
