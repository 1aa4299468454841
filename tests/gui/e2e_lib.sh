# Shared helpers of the end-to-end GUI drivers (sourced, not run). The caller sets WORK (its
# folder, with the app's stdout.txt / stderr.txt), DUMP (the --dump-state file), CMAKE and
# JSON_GET (tests/gui/json_get.cmake), and PID once the app runs.

# fail MESSAGE: print it with the app's output and the last dump, stop the app, exit 1.
fail() {
    echo "FAIL: $*" >&2
    for f in stdout stderr; do
        echo "--- app $f:" >&2
        cat "$WORK/$f.txt" >&2 || true
    done
    if [[ -f "$DUMP" ]]; then
        echo "--- last dump (head):" >&2
        head -c 2500 "$DUMP" >&2 || true
    fi
    [[ -n "${PID:-}" ]] && kill "$PID" 2>/dev/null
    exit 1
}

# json KEY: one value of the last dump ("a;b;0" paths, see json_get.cmake).
json() { "$CMAKE" "-DFILE=$DUMP" "-DKEY=$1" -P "$JSON_GET"; }
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
