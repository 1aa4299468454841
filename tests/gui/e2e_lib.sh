# Shared helpers of the end-to-end GUI drivers (sourced, not run). The caller sets WORK (its
# folder, with the app's output as *.txt), CMAKE and JSON_GET (tests/gui/json_get.cmake), and
# for a driver of one running app DUMP (the --dump-state file) and PID once the app runs — or
# calls e2e_init and launch, which set them. Drivers of several short runs use fail and get.

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
# the last dump.
get() { "$CMAKE" "-DFILE=$1" "-DKEY=$2" -P "$JSON_GET"; }
json() { get "$DUMP" "$1"; }
alive() { kill -0 "$PID" 2>/dev/null; }
is_true() { [[ "$1" == ON || "$1" == true ]]; }

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
# give it the keyboard focus.
find_window() {
    WID=$(timeout 90 xdotool search --sync --name '^ORCA Sandbox' | head -n 1) ||
        fail "no orca-sandbox window appeared"
    [[ -n "$WID" ]] || fail "no orca-sandbox window appeared"
    xdotool mousemove --window "$WID" "$1" "$2"
    xdotool windowfocus "$WID" || true
    local end=$((SECONDS + 20))
    until [[ "$(xdotool getwindowfocus 2>/dev/null)" == "$WID" ]] || ((SECONDS >= end)); do
        sleep 0.1
    done
}

# e2e_init APP SCENE WORKDIR CMAKE JSON_GET_SCRIPT: the drivers' arguments; a fresh WORK holding
# an empty settings file (SETTINGS) and the dump path (DUMP).
e2e_init() {
    APP=$1
    SCENE=$2
    WORK=$3
    CMAKE=$4
    JSON_GET=$5
    rm -rf "$WORK"
    mkdir -p "$WORK"
    DUMP=$WORK/state.json
    SETTINGS=$WORK/settings.json
    printf '{"format": "orca-sandbox-settings", "version": 1}\n' >"$SETTINGS"
    export SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0
}

# launch ARGS...: start the app on SCENE with ARGS, the dump, a 1024x768 window and the
# settings file, in the background (PID).
launch() {
    "$APP" "$SCENE" "$@" --dump-state "$DUMP" --size 1024x768 --settings "$SETTINGS" \
        >"$WORK/stdout.txt" 2>"$WORK/stderr.txt" &
    PID=$!
}

# quit_app: Ctrl+Q; the app must exit with status 0 within a minute.
quit_app() {
    xdotool key ctrl+q
    local end=$((SECONDS + 60))
    while alive && ((SECONDS < end)); do sleep 0.1; done
    alive && fail "orca-sandbox did not exit after Ctrl+Q"
    local rc=0
    wait "$PID" || rc=$?
    ((rc == 0)) || fail "orca-sandbox exited with $rc"
}
