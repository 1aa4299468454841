#!/usr/bin/env python3
"""Checks the source layout rules of docs/architecture.md ("Folders and include rules").

- No C++ source file in core/, ui/ or app/ is longer than 800 lines.
- At most 12 files stay at the top of app/sandbox/; the rest live in feature folders.
- Includes in app/sandbox/ point down or sideways within a feature:
  * the shared parts (top-level headers other than sandbox.hpp) include only each other;
  * a feature's header includes only its own feature's headers and the shared parts (where it
    needs something of another feature, it takes the narrow part: a forward declaration);
  * a feature's source adds the context (sandbox.hpp) to that;
  * only the sources of the frame (the top level), the shell (shell/) and the state dump
    (state_dump/) include across features.

Prints each violation and exits 1 when there is one.
"""

import argparse
import pathlib
import re
import sys

MAX_LINES = 800
MAX_TOP_FILES = 12
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc"}
# Feature folders whose sources may include any feature: the shell (main, options, actions,
# the panel table) dispatches to all of them, the state dump reports all of them.
ASSEMBLERS = {"shell", "state_dump"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def feature_of(rel: pathlib.PurePosixPath) -> str:
    """'' for the top of app/sandbox, else the feature folder's name."""
    return rel.parts[0] if len(rel.parts) > 1 else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    problems: list[str] = []

    for top in ("core", "ui", "app"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and path.is_file():
                lines = path.read_text(encoding="utf-8", errors="replace").count("\n")
                if lines > MAX_LINES:
                    problems.append(f"{path.relative_to(root)}: {lines} lines (at most "
                                    f"{MAX_LINES}: split it along a seam)")

    sandbox = root / "app" / "sandbox"
    top_files = sorted(p.name for p in sandbox.iterdir() if p.is_file())
    if len(top_files) > MAX_TOP_FILES:
        problems.append(f"app/sandbox/: {len(top_files)} files at the top (at most "
                        f"{MAX_TOP_FILES}): {', '.join(top_files)}")

    shared = {p.name for p in sandbox.iterdir() if p.suffix == ".hpp" and p.name != "sandbox.hpp"}
    headers = {p.relative_to(sandbox).as_posix() for p in sandbox.rglob("*.hpp")}
    for path in sorted(sandbox.rglob("*")):
        if path.suffix not in SOURCE_SUFFIXES:
            continue
        rel = pathlib.PurePosixPath(path.relative_to(sandbox).as_posix())
        feature = feature_of(rel)
        is_header = path.suffix == ".hpp"
        for target in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
            if target not in headers:
                continue  # a library header (orca/...), app/common, or a system header
            t = pathlib.PurePosixPath(target)
            t_feature = feature_of(t)
            if feature == "" and is_header and rel.name != "sandbox.hpp":
                ok = t_feature == "" and t.name in shared
                why = "a shared part includes only shared parts"
            elif feature == "" or (not is_header and feature in ASSEMBLERS):
                ok = True  # the context, the frame, the shell and the dump put features together
                why = ""
            elif is_header:
                ok = t_feature == feature or (t_feature == "" and t.name in shared)
                why = "a feature's header includes its own feature and the shared parts"
            else:
                ok = t_feature == feature or t_feature == ""
                why = "a feature's source includes its feature, the shared parts and the context"
            if not ok:
                problems.append(f"app/sandbox/{rel}: includes \"{target}\" ({why}; pass the "
                                "narrow part instead)")

    for p in problems:
        print(p)
    print(f"layout: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
