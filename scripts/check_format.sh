#!/usr/bin/env bash
# Checks that every C++ file of the project is formatted with clang-format (config: .clang-format).
# Usage: scripts/check_format.sh [--fix]   (--fix formats the files in place instead)
# Run by the test command as the ctest `format.check`.
set -euo pipefail
cd "$(dirname "$0")/.."

format=$(command -v clang-format || command -v clang-format-14 || true)
if [[ -z "$format" ]]; then
    echo "check_format: clang-format not found (scripts/deps.sh test installs it)" >&2
    exit 1
fi

# The project's own sources: tracked files when this is a git checkout, else every file found.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' '*.h')
else
    mapfile -t files < <(find app core ui tests bench -name '*.cpp' -o -name '*.hpp' -o -name '*.h' | sort)
fi
if [[ ${#files[@]} -eq 0 ]]; then
    echo "check_format: no source files found" >&2
    exit 1
fi

if [[ "${1:-}" == "--fix" ]]; then
    "$format" -i -- "${files[@]}"
    echo "formatted ${#files[@]} files"
    exit 0
fi

# One clang-format for all files (one process per file took four times as long); only when
# it fails, one per file to name the ones that are not formatted.
bad=()
if ! "$format" --dry-run --Werror -- "${files[@]}" >/dev/null 2>&1; then
    for f in "${files[@]}"; do
        if ! "$format" --dry-run --Werror -- "$f" >/dev/null 2>&1; then bad+=("$f"); fi
    done
    if [[ ${#bad[@]} -eq 0 ]]; then # failed, yet every file passes alone: say so, never pass
        echo "check_format: $format failed on the files together but on none alone" >&2
        exit 1
    fi
fi
if [[ ${#bad[@]} -ne 0 ]]; then
    echo "check_format: ${#bad[@]} of ${#files[@]} files are not clang-formatted:" >&2
    printf '  %s\n' "${bad[@]}" >&2
    echo "run scripts/check_format.sh --fix (or clang-format -i FILE) and commit" >&2
    exit 1
fi
echo "check_format: ${#files[@]} files formatted"
