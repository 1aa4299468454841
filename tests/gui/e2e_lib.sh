# shellcheck shell=bash
# Shared helpers of the end-to-end GUI drivers: every tests/gui/e2e_*.sh sources this file
# first and calls e2e_init with its arguments, which sets APP, SCENE, WORK (a fresh folder; the
# app's output goes to *.txt there), CMAKE, JSON_GET (tests/gui/json_get.cmake), SETTINGS and
# DUMP (the --dump-state file). A driver of one running app then calls launch (which sets PID),
# find_window, dump_now, json, poll, ... and quit_app (these need xdotool). A driver of several
# short runs that quit by themselves (--frames) calls run_app for each, with get and json on
# their dumps (no xdotool needed).

# fail MESSAGE: print it with every *.txt in WORK (the app's output) and the last dump, stop
# the app if one runs, exit 1.
fail() {
    echo "FAIL: $*" >&2
    for f in "$WORK"/*.txt; do
        [[ -f "$f" ]] || continue
        echo "--- $f:" >&2
        cat "$f" >&2
    done
    if [[ -n "${DUMP:-}" && -f "$DUMP" ]]; then
        echo "--- last dump (head):" >&2
        head -c 2500 "$DUMP" >&2 || true
    fi
    [[ -n "${PID:-}" ]] && kill "$PID" 2>/dev/null
    exit 1
}

# get FILE KEY: one value of a state dump ("a;b;0" paths, see json_get.cmake); json KEY: of
# the last dump; json_len KEY: the length of an array (or object) of the last dump.
get() { "$CMAKE" "-DFILE=$1" "-DKEY=$2" -P "$JSON_GET"; }
json() { get "$DUMP" "$1"; }
json_len() { "$CMAKE" "-DFILE=$DUMP" "-DKEY=$1" -DLENGTH=1 -P "$JSON_GET"; }
alive() { kill -0 "$PID" 2>/dev/null; }
# is_true VALUE, is_false VALUE: a dumped boolean (ON/OFF in json_get's output, true/false in
# a raw file); anything else is neither.
is_true() { [[ "$1" == ON || "$1" == true ]]; }
is_false() { [[ "$1" == OFF || "$1" == false ]]; }

# poll SECONDS DESCRIPTION COMMAND...: run COMMAND every 0.1 s until it succeeds.
poll() {
    local seconds=$1 what=$2
    shift 2
    local end=$((SECONDS + seconds))
    while ((SECONDS < end)); do
        if "$@"; then return 0; fi
        alive || fail "orca-sandbox exited while waiting for $what"
        sleep 0.1
    done
    fail "timed out after ${seconds}s waiting for $what"
}

LAST_SEQ=0
dump_newer() { [[ -f "$DUMP" ]] && (($(json sequence) > LAST_SEQ)); }
# dump_now: press F12 and wait for the new dump.
dump_now() {
    xdotool key --clearmodifiers F12
    poll 60 "the state dump after F12" dump_newer
    LAST_SEQ=$(json sequence)
}

# find_window X Y: wait for the orca-sandbox window (WID), put the mouse at (X, Y) in it and
# give it the keyboard focus (there is no window manager under Xvfb). Waiting for the focus is
# not fatal: with the X server's default focus (pointer root) the keys arrive anyway, and the
# driver's first dump_now fails the test if they do not.
find_window() {
    WID=$(timeout 90 xdotool search --sync --name '^ORCA Sandbox' | head -n 1) ||
        fail "no orca-sandbox window appeared"
    [[ -n "$WID" ]] || fail "no orca-sandbox window appeared"
    echo "window $WID"
    xdotool mousemove --window "$WID" "$1" "$2"
    xdotool windowfocus "$WID" || true
    local end=$((SECONDS + 20))
    until [[ "$(xdotool getwindowfocus 2>/dev/null)" == "$WID" ]] || ((SECONDS >= end)); do
        sleep 0.1
    done
}

# hold KEY [MODIFIER]: press KEY (with MODIFIER held) for a moment. Dear ImGui 1.86 reads key
# *state* once per frame, so a press and release inside one frame (what `xdotool key` sends)
# can go unseen by ImGui's own widgets (text fields, dialogs) and by keys it reads as held.
hold() {
    if (($# > 1)); then xdotool keydown "$2"; fi
    xdotool keydown "$1"
    sleep 0.15
    xdotool keyup "$1"
    if (($# > 1)); then xdotool keyup "$2"; fi
    sleep 0.2
}

# e2e_init APP SCENE WORKDIR CMAKE JSON_GET_SCRIPT [MORE...]: the drivers' arguments (a driver
# reads its MORE itself); a fresh WORK holding the dump path (DUMP) and an empty settings file
# (SETTINGS: not a first launch, so no Help window covers the view).
e2e_init() {
    APP=$1
    SCENE=$2
    WORK=$3
    CMAKE=$4
    JSON_GET=$5
    PID=
    rm -rf "$WORK"
    mkdir -p "$WORK"
    DUMP=$WORK/state.json
    SETTINGS=$WORK/settings.json
    printf '{"format": "orca-sandbox-settings", "version": 1}\n' >"$SETTINGS"
    export SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0
}

# first_launch_settings DIR: SETTINGS becomes $WORK/DIR/settings.json, a file that does not
# exist (nor, unless the driver creates it, its folder): the app's first launch, which opens
# Help and writes the file (and imgui.ini next to it) on exit.
first_launch_settings() {
    SETTINGS=$WORK/$1/settings.json
    [[ ! -e "$SETTINGS" ]] || fail "$SETTINGS exists: not a first launch"
}

# launch ARGS...: start the app on SCENE with ARGS, the dump, a 1024x768 window and the
# settings file, in the background (PID). A later launch (after the app exited) starts a new
# dump: the old one is removed and dump_now counts from the start again.
launch() {
    LAST_SEQ=0
    rm -f "$DUMP"
    "$APP" "$SCENE" "$@" --dump-state "$DUMP" --size 1024x768 --settings "$SETTINGS" \
        >"$WORK/stdout.txt" 2>"$WORK/stderr.txt" &
    PID=$!
}

# quit_app: Ctrl+Q; the app must exit with status 0 within a minute (PID is cleared).
quit_app() {
    xdotool key ctrl+q
    local end=$((SECONDS + 60))
    while alive && ((SECONDS < end)); do sleep 0.1; done
    alive && fail "orca-sandbox did not exit after Ctrl+Q"
    local rc=0
    wait "$PID" || rc=$?
    PID=
    ((rc == 0)) || fail "orca-sandbox exited with $rc"
}

# run_app NAME ARGS...: run the app in the foreground with ARGS (the scene first, if any), the
# settings file (SETTINGS) and the dump $WORK/NAME.json, which becomes DUMP (for json and
# fail); its output goes to $WORK/NAME.stdout.txt and .stderr.txt. ARGS must make it quit by
# itself (--frames): it must exit with status 0 within two minutes.
run_app() {
    local name=$1
    shift
    DUMP=$WORK/$name.json
    local rc=0
    timeout 120 "$APP" "$@" --settings "$SETTINGS" --dump-state "$DUMP" \
        >"$WORK/$name.stdout.txt" 2>"$WORK/$name.stderr.txt" || rc=$?
    ((rc == 0)) || fail "$name: orca-sandbox exited with $rc"
}

# ---- Pointer and keys in world coordinates (authoring drivers) ------------------------------

# read_camera: the camera of the last dump (CX, CY, ZOOM and the viewport centre VX, VY), for sx
# and sy.
read_camera() {
    CX=$(json 'camera;center;0')
    CY=$(json 'camera;center;1')
    ZOOM=$(json 'camera;zoom')
    VX=$(awk -v a="$(json 'camera;viewport;0')" -v b="$(json 'camera;viewport;2')" 'BEGIN{print (a+b)/2}')
    VY=$(awk -v a="$(json 'camera;viewport;1')" -v b="$(json 'camera;viewport;3')" 'BEGIN{print (a+b)/2}')
}
# World point -> window pixel, from read_camera (y up in the world).
sx() { awk -v w="$1" -v c="$CX" -v z="$ZOOM" -v v="$VX" 'BEGIN{printf "%d", v + (w - c) * z + 0.5}'; }
sy() { awk -v w="$1" -v c="$CY" -v z="$ZOOM" -v v="$VY" 'BEGIN{printf "%d", v - (w - c) * z + 0.5}'; }
move() { xdotool mousemove --window "$WID" "$(sx "$1")" "$(sy "$2")"; sleep 0.15; }
click() { move "$1" "$2"; xdotool click "${3:-1}"; sleep 0.25; } # click X Y [BUTTON]
drag() { # drag X0 Y0 X1 Y1: press, move in steps, release
    move "$1" "$2"
    xdotool mousedown 1
    sleep 0.15
    for t in 1 2 3 4 5; do
        xdotool mousemove --window "$WID" \
            "$(awk -v a="$(sx "$1")" -v b="$(sx "$3")" -v t=$t 'BEGIN{printf "%d", a + (b - a) * t / 5}')" \
            "$(awk -v a="$(sy "$2")" -v b="$(sy "$4")" -v t=$t 'BEGIN{printf "%d", a + (b - a) * t / 5}')"
        sleep 0.08
    done
    sleep 0.15
    xdotool mouseup 1
    sleep 0.25
}
key() { xdotool key --clearmodifiers "$@"; sleep 0.2; }
editor_is() { dump_now; [[ "$(json "editor;$1")" == "$2" ]]; } # editor_is KEY VALUE
expect_editor() { poll 30 "editor.$1 = $2" editor_is "$1" "$2"; }
