#!/usr/bin/env python3
"""Monkey test of orca-sandbox: random input through the real X server for a while.

Random clicks (left, middle, right, double), drags, wheel turns, typed text and every key and
chord of the app's key table (`orca-sandbox --print-keys`) go to the window with xdotool, on
copies of a few scenes and on a lesson, one app run after the other. Every few seconds the app
must answer: F12 (the state dump, which works whatever window or dialog is open) has to
produce a new dump within --answer-seconds. Dialogs and messages the keys open are closed with
Escape at those checks; a quit prompt is cancelled with Escape, and when the app quits by
itself (Ctrl+Q on an unchanged scene, or a click on Discard) it is started again.

Fails (exit 1) on a crash (the app exits with a non-zero status or by a signal), on sanitizer
output in its stderr (AddressSanitizer, LeakSanitizer, UndefinedBehaviorSanitizer), on a hang
(no dump in time) and when a file under the source tree's scenes/, lessons/ or tests/gui/data
changed. The app never sees the source scenes: it works on copies in WORK, with HOME, the XDG
folders, the settings file and the current directory all inside WORK.

Usage (inside an X server, e.g. xvfb-run -a -s "-screen 0 1280x800x24 -noreset"):
    monkey.py --app orca-sandbox --source DIR --work DIR [--seconds 60] [--seed N]
              [--scenes a.json,b.json] [--lesson 06]
The seed is printed; the same seed replays the same choices (the app's timing still varies).
"""

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

SANITIZER_MARKS = (
    "ERROR: AddressSanitizer",
    "ERROR: LeakSanitizer",
    "runtime error:",
    "SUMMARY: UndefinedBehaviorSanitizer",
    "SUMMARY: AddressSanitizer",
)

# Key names of the key table -> X keysyms.
KEYSYMS = {
    ",": "comma",
    ".": "period",
    "=": "equal",
    "-": "minus",
    "Keypad +": "KP_Add",
    "Keypad -": "KP_Subtract",
    "Keypad Enter": "KP_Enter",
    "Return": "Return",
    "Escape": "Escape",
    "Space": "space",
    "Home": "Home",
    "End": "End",
    "Delete": "Delete",
    "Backspace": "BackSpace",
    "Tab": "Tab",
    "Up": "Up",
    "Down": "Down",
    "Left": "Left",
    "Right": "Right",
}
MODIFIERS = {"Ctrl": "ctrl", "Shift": "shift", "Alt": "alt"}


class Failure(Exception):
    pass


def log(*parts):
    print(*parts, flush=True)


def keysym(name):
    """One key of the table ("Ctrl+Shift+S", "Keypad +", "Shift+,") as an xdotool chord."""
    name = name.strip()
    mods = []
    while True:
        for m, x in MODIFIERS.items():
            if name.startswith(m + "+") and len(name) > len(m) + 1:
                mods.append(x)
                name = name[len(m) + 1:]
                break
        else:
            break
    if name in KEYSYMS:
        key = KEYSYMS[name]
    elif re.fullmatch(r"F\d{1,2}", name):
        key = name
    elif len(name) == 1 and name.isalnum():
        key = name.lower()
    else:
        raise Failure(f"the key table has a key the monkey cannot press: {name!r}")
    return "+".join(mods + [key])


def key_table(app):
    """Every key and chord of `app --print-keys` (the first table), as xdotool chords."""
    out = subprocess.run([app, "--print-keys"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise Failure(f"{app} --print-keys failed: {out.stderr}")
    chords = []
    for line in out.stdout.splitlines():
        if line.startswith("| Mouse"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in ("Key", "---"):
            continue
        for alternative in cells[0].split(" / "):
            alternative = re.sub(r"\s*\(.*\)$", "", alternative).replace("\\|", "|")
            chord = keysym(alternative)
            if chord not in chords:
                chords.append(chord)
    if len(chords) < 40:
        raise Failure(f"only {len(chords)} keys in the key table: {out.stdout[:500]}")
    return chords


def tree_state(source):
    """Hashes of the files the app could be tempted to write in the source tree."""
    state = {}
    for sub in ("scenes", "lessons", os.path.join("tests", "gui", "data")):
        top = os.path.join(source, sub)
        for root, _, files in os.walk(top):
            for f in files:
                path = os.path.join(root, f)
                with open(path, "rb") as fh:
                    state[path] = hashlib.sha256(fh.read()).hexdigest()
    return state


def xdo(*args, check=False):
    r = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=30)
    if check and r.returncode != 0:
        raise Failure(f"xdotool {' '.join(args)} failed: {r.stderr}")
    return r.stdout.strip()


class App:
    """One run of the app on one scene or lesson."""

    def __init__(self, opts, target, index):
        self.opts = opts
        self.target = target
        self.index = index
        self.dump = os.path.join(opts.work, f"state-{index}.json")
        self.stderr_path = os.path.join(opts.work, f"stderr-{index}.txt")
        self.stdout_path = os.path.join(opts.work, f"stdout-{index}.txt")
        self.proc = None
        self.wid = None
        self.sequence = 0
        self.width, self.height = 1024, 768

    def start(self):
        args = [self.opts.app]
        if self.target.startswith("lesson:"):
            args += ["--lesson", self.target[len("lesson:"):]]
        else:
            args.append(self.target)
        args += ["--size", f"{self.width}x{self.height}", "--dump-state", self.dump,
                 "--settings", os.path.join(self.opts.home, "settings.json"),
                 "--autosave-seconds", "3"]
        if os.path.exists(self.dump):
            os.remove(self.dump)
        self.sequence = 0
        for attempt in range(5):
            self.proc = subprocess.Popen(args, cwd=self.opts.home, env=self.opts.env,
                                         stdout=open(self.stdout_path, "ab"),
                                         stderr=open(self.stderr_path, "ab"))
            time.sleep(1.0)
            if self.proc.poll() != 1:
                break
            # No display for a moment (an X server that resets when its last client leaves):
            # not the app's fault; try again.
            with open(self.stderr_path, errors="replace") as fh:
                if "SDL_Init failed" not in fh.read():
                    break
            log("  SDL could not open the display: starting again")
            time.sleep(2.0)
        end = time.time() + 120
        self.wid = None
        while time.time() < end and self.wid is None:
            self.check_exit(expected=False)
            out = xdo("search", "--onlyvisible", "--pid", str(self.proc.pid), "--name",
                      "^ORCA Sandbox")
            ids = out.split()
            if ids:
                self.wid = ids[0]
            else:
                time.sleep(0.2)
        if self.wid is None:
            raise Failure(f"{self.target}: no window within 120 s")
        xdo("windowfocus", self.wid)
        self.answer("the first frame")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def check_exit(self, expected):
        """Raises on a crash; True when the app has exited with status 0."""
        if self.proc is None or self.proc.poll() is None:
            return False
        rc = self.proc.returncode
        self.check_stderr()
        if rc != 0:
            raise Failure(f"{self.target}: orca-sandbox exited with {rc}"
                          f"{' (signal %d)' % -rc if rc < 0 else ''}")
        if not expected:
            log(f"  the app quit by itself (status 0): starting it again")
        return True

    def check_stderr(self):
        with open(self.stderr_path, errors="replace") as fh:
            text = fh.read()
        for mark in SANITIZER_MARKS:
            if mark in text:
                raise Failure(f"{self.target}: sanitizer report in stderr ({mark}):\n{text[-6000:]}")

    def read_dump(self):
        try:
            with open(self.dump) as fh:
                return json.load(fh)
        except (OSError, ValueError):
            return None

    def answer(self, why):
        """Presses F12 and waits for a newer dump: the app answers. Returns the dump, or None
        when the app quit with status 0 meanwhile."""
        xdo("key", "--clearmodifiers", "F12")
        end = time.time() + self.opts.answer_seconds
        while time.time() < end:
            if self.check_exit(expected=True):
                return None
            d = self.read_dump()
            if d is not None and d.get("sequence", 0) > self.sequence:
                self.sequence = d["sequence"]
                return d
            time.sleep(0.1)
        self.check_stderr()
        raise Failure(f"{self.target}: no answer to F12 within {self.opts.answer_seconds} s "
                      f"({why}): the app hangs")

    def calm(self, d):
        """Closes dialogs and messages (Escape) until the dump shows none (a few tries)."""
        for _ in range(4):
            if d is None:
                return None
            if d.get("dialog", "none") == "none" and not d.get("message"):
                return d
            xdo("keydown", "Escape")
            time.sleep(0.12)
            xdo("keyup", "Escape")
            time.sleep(0.2)
            d = self.answer("after Escape on a dialog")
        return d

    def hold(self, chord):
        """Presses a chord for a few frames (ImGui's own widgets read key state per frame)."""
        parts = chord.split("+")
        for p in parts:
            xdo("keydown", p)
        time.sleep(0.15)
        for p in reversed(parts):
            xdo("keyup", p)
        time.sleep(0.2)

    def stop(self):
        """Quits: saves unsaved changes (into WORK), then Ctrl+Q; a quit prompt still open is
        answered with Discard (clicked where ImGui puts it), else SIGTERM and at last SIGKILL.
        A clean exit must have status 0."""
        if not self.alive():
            return
        d = self.calm(self.answer("before quitting"))
        if d is not None and d.get("unsaved"):
            # Save first (the copy in WORK, or through Save as into HOME for a lesson, a
            # bundled scene or a new one), so that Ctrl+Q quits without asking.
            self.hold("ctrl+s")
            d = self.answer("after Ctrl+S")
            if d is not None and d.get("dialog") == "saveAs":
                self.hold("Return")
                d = self.answer("after Return in Save as")
            d = self.calm(d)
        if not self.alive():
            return
        xdo("key", "--clearmodifiers", "ctrl+q")
        for attempt in range(12):
            time.sleep(0.5)
            if self.check_exit(expected=True):
                return "quit"
            d = self.read_dump()
            # The prompt: Save | Discard | Cancel under two lines of text, centred at 40 % of
            # the height. Try the middle of the row first, then further left (a long scene
            # name widens the window).
            x = self.width // 2 - 40 * (attempt // 3)
            y = int(self.height * 0.4) + 10 + 8 * (attempt % 3)
            xdo("mousemove", "--window", self.wid, str(x), str(y))
            xdo("click", "1")
            if attempt % 3 == 2 and self.alive() and d is not None:
                xdo("key", "--clearmodifiers", "ctrl+q")
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            self.check_stderr()
            return "killed"
        self.check_stderr()
        return "terminated"


def random_action(rng, app, chords, counts):
    w, h = app.width, app.height
    r = rng.random()
    wid = app.wid
    if r < 0.40:  # a key or chord of the table
        chord = rng.choice(chords)
        counts["keys"][chord] = counts["keys"].get(chord, 0) + 1
        if rng.random() < 0.3:  # held for a frame or more (ImGui reads key state per frame)
            parts = chord.split("+")
            for p in parts:
                xdo("keydown", p)
            time.sleep(rng.uniform(0.03, 0.2))
            for p in reversed(parts):
                xdo("keyup", p)
        else:
            xdo("key", "--clearmodifiers", chord)
    elif r < 0.62:  # a click
        button = rng.choice(["1", "1", "1", "2", "3"])
        xdo("mousemove", "--window", wid, str(rng.randrange(w)), str(rng.randrange(h)))
        xdo("click", "--repeat", rng.choice(["1", "1", "2"]), button)
        counts["clicks"] += 1
    elif r < 0.77:  # a drag
        button = rng.choice(["1", "1", "3", "2"])
        x, y = rng.randrange(w), rng.randrange(h)
        xdo("mousemove", "--window", wid, str(x), str(y))
        xdo("mousedown", button)
        for _ in range(rng.randint(2, 6)):
            x = min(max(x + rng.randint(-150, 150), 0), w - 1)
            y = min(max(y + rng.randint(-150, 150), 0), h - 1)
            xdo("mousemove", "--window", wid, str(x), str(y))
            time.sleep(0.03)
        xdo("mouseup", button)
        counts["drags"] += 1
    elif r < 0.90:  # wheel
        xdo("mousemove", "--window", wid, str(rng.randrange(w)), str(rng.randrange(h)))
        xdo("click", "--repeat", str(rng.randint(1, 4)), rng.choice(["4", "5"]))
        counts["wheel"] += 1
    else:  # typed text (fields, or more keys for the view)
        text = "".join(rng.choice("0123456789.-e abcxyz/") for _ in range(rng.randint(1, 8)))
        xdo("type", "--delay", "20", text)
        if rng.random() < 0.5:
            xdo("key", rng.choice(["Return", "Tab", "BackSpace"]))
        counts["texts"] += 1
    time.sleep(rng.uniform(0.0, 0.06))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--app", required=True)
    p.add_argument("--source", required=True, help="the source tree (scenes/, lessons/)")
    p.add_argument("--work", required=True)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--scenes", default="scenes/crossing.json,scenes/concave_obstacle.json,"
                                       "tests/gui/data/lint_demo.json,tests/gui/data/clockwise.json")
    p.add_argument("--lesson", default="06")
    p.add_argument("--check-seconds", type=float, default=4.0,
                   help="seconds of input between two liveness checks")
    p.add_argument("--answer-seconds", type=float, default=30.0,
                   help="how long the app may take to answer F12")
    opts = p.parse_args()
    seed = opts.seed if opts.seed is not None else random.SystemRandom().randrange(1 << 31)
    log(f"monkey: seed {seed}, {opts.seconds:.0f} s")
    rng = random.Random(seed)

    shutil.rmtree(opts.work, ignore_errors=True)
    os.makedirs(opts.work)
    opts.home = os.path.join(opts.work, "home")
    os.makedirs(opts.home)
    env = dict(os.environ)
    env.update({
        "HOME": opts.home,
        "XDG_CONFIG_HOME": os.path.join(opts.home, ".config"),
        "XDG_DATA_HOME": os.path.join(opts.home, ".local", "share"),
        "XDG_CACHE_HOME": os.path.join(opts.home, ".cache"),
        "XDG_PICTURES_DIR": os.path.join(opts.home, "Pictures"),
        "SDL_VIDEODRIVER": "x11",
        # Leaks of the GL driver and SDL at exit are not the app's; everything else stops it.
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    })
    opts.env = env

    targets = []
    for s in opts.scenes.split(","):
        src = os.path.join(opts.source, s)
        dst = os.path.join(opts.home, os.path.basename(s))
        shutil.copyfile(src, dst)
        targets.append(dst)
    if opts.lesson:
        targets.append("lesson:" + opts.lesson)

    # One X client for the whole run, so that the server never sees its last client leave
    # (and resets, refusing connections for a moment) between two app runs.
    holder = subprocess.Popen(["xdotool", "search", "--sync", "--name", "^no-such-window-monkey$"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    before = tree_state(opts.source)
    chords = key_table(opts.app)
    log(f"monkey: {len(chords)} keys and chords from --print-keys; targets: "
        + ", ".join(os.path.basename(t) for t in targets))
    counts = {"keys": {}, "clicks": 0, "drags": 0, "wheel": 0, "texts": 0, "checks": 0,
              "restarts": 0, "dialogsClosed": 0}
    per_target = opts.seconds / len(targets)
    status = 0
    runs = 0
    app = None
    try:
        for i, target in enumerate(targets):
            log(f"monkey: {os.path.basename(target)} for {per_target:.0f} s")
            app = App(opts, target, runs)
            runs += 1
            app.start()
            # Every key once per target first (in a random order), then random input.
            queue = list(chords)
            rng.shuffle(queue)
            end = time.time() + per_target
            next_check = time.time() + opts.check_seconds
            while time.time() < end:
                if queue and app.alive():
                    chord = queue.pop()
                    counts["keys"][chord] = counts["keys"].get(chord, 0) + 1
                    xdo("key", "--clearmodifiers", chord)
                    time.sleep(0.05)
                else:
                    random_action(rng, app, chords, counts)
                if time.time() >= next_check or not app.alive():
                    d = app.answer("liveness check")
                    counts["checks"] += 1
                    if d is not None and (d.get("dialog", "none") != "none" or d.get("message")):
                        counts["dialogsClosed"] += 1
                        d = app.calm(d)
                    if d is None:  # quit by itself (status 0): again
                        counts["restarts"] += 1
                        app = App(opts, target, runs)
                        runs += 1
                        app.start()
                    next_check = time.time() + opts.check_seconds
            how = app.stop()
            log(f"  stopped ({how or 'quit'})")
    except Failure as e:
        log(f"FAIL: {e}")
        status = 1
    finally:
        if app is not None and app.alive():  # a failure left it running
            app.proc.kill()
            app.proc.wait(10)
        holder.kill()
        holder.wait(10)
    after = tree_state(opts.source)
    if after != before:
        changed = sorted(set(before) ^ set(after) |
                         {k for k in before if k in after and before[k] != after[k]})
        log("FAIL: the source tree changed: " + ", ".join(changed))
        status = 1
    pressed = counts.pop("keys")
    missing = [c for c in chords if c not in pressed]
    log(f"monkey: seed {seed}; {sum(pressed.values())} key presses ({len(pressed)} of "
        f"{len(chords)} keys), " + ", ".join(f"{k} {v}" for k, v in counts.items())
        + f"; app runs {runs}")
    if missing and status == 0:
        log("FAIL: keys never pressed: " + ", ".join(missing))
        status = 1
    log("monkey: " + ("ok" if status == 0 else "FAILED"))
    return status


if __name__ == "__main__":
    sys.exit(main())
