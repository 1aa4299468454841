// KeyTaps (shell/key_taps.hpp): a key pressed and released within one frame's events reaches
// ImGui down in one frame and up in the next, in order; other events pass at once.
#include <gtest/gtest.h>

#include <vector>

#include "shell/key_taps.hpp"

using orca::app::KeyTaps;

namespace {

SDL_Event key(Uint32 type, SDL_Scancode code) {
    SDL_Event e{};
    e.type = type;
    e.key.keysym.scancode = code;
    return e;
}

/// The events of one frame, as the loop feeds them: the held releases first, then the new
/// events that pass. Returns (type, scancode) pairs.
std::vector<std::pair<Uint32, SDL_Scancode>> frame(KeyTaps& taps,
                                                   const std::vector<SDL_Event>& in) {
    std::vector<std::pair<Uint32, SDL_Scancode>> out;
    for (const SDL_Event& e : taps.releasesDue())
        out.emplace_back(e.type, e.key.keysym.scancode);
    for (const SDL_Event& e : in)
        if (taps.passNow(e)) out.emplace_back(e.type, e.key.keysym.scancode);
    return out;
}

} // namespace

TEST(KeyTaps, ATapWithinOneFrameIsDownForAFrameThenUp) {
    KeyTaps taps;
    const auto enter = SDL_SCANCODE_RETURN;
    EXPECT_EQ(frame(taps, {key(SDL_KEYDOWN, enter), key(SDL_KEYUP, enter)}),
              (std::vector<std::pair<Uint32, SDL_Scancode>>{{SDL_KEYDOWN, enter}}));
    EXPECT_EQ(frame(taps, {}), (std::vector<std::pair<Uint32, SDL_Scancode>>{{SDL_KEYUP, enter}}));
    EXPECT_TRUE(frame(taps, {}).empty());
}

TEST(KeyTaps, AReleaseInALaterFramePassesAtOnce) {
    KeyTaps taps;
    const auto p = SDL_SCANCODE_P;
    EXPECT_EQ(frame(taps, {key(SDL_KEYDOWN, p)}).size(), 1u);
    EXPECT_EQ(frame(taps, {key(SDL_KEYUP, p)}),
              (std::vector<std::pair<Uint32, SDL_Scancode>>{{SDL_KEYUP, p}}));
}

TEST(KeyTaps, TwoTapsInARowKeepTheirOrder) {
    // Enter tapped in one frame, tapped again in the next: up (held) before the new down.
    KeyTaps taps;
    const auto enter = SDL_SCANCODE_RETURN;
    const auto a = SDL_SCANCODE_A;
    frame(taps, {key(SDL_KEYDOWN, enter), key(SDL_KEYUP, enter), key(SDL_KEYUP, a)});
    EXPECT_EQ(
        frame(taps, {key(SDL_KEYDOWN, enter), key(SDL_KEYUP, enter)}),
        (std::vector<std::pair<Uint32, SDL_Scancode>>{{SDL_KEYUP, enter}, {SDL_KEYDOWN, enter}}));
    EXPECT_EQ(frame(taps, {}), (std::vector<std::pair<Uint32, SDL_Scancode>>{{SDL_KEYUP, enter}}));
}
