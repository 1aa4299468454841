#!/usr/bin/env python3
"""Checks that the settings fuzz target's panel table (tests/fuzz/settings_panels.cpp) has the
rows of the app's (app/sandbox/shell/panel_table.cpp) in the columns settings.cpp reads: name,
alias, default open, settings member. Registered as the ctest test fuzz.settings_panel_table.

    check_panel_table.py APP_TABLE.cpp FUZZ_TABLE.cpp
"""
import re
import sys

# {"name", alias, label, toggle, defaultOpen, setting, ...: the first six columns of a row.
ROW = re.compile(
    r'\{\s*"(\w+)"\s*,\s*(nullptr|"\w+")\s*,\s*(?:nullptr|"[^"]*")\s*,\s*[\w:]+\s*,\s*'
    r'(true|false)\s*,\s*(nullptr|&P::\w+)\s*,')


def rows(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.find("kPanelTable[] = {")
    if start < 0:
        sys.exit(f"{path}: no kPanelTable")
    return ROW.findall(text[start:])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    app, fuzz = rows(sys.argv[1]), rows(sys.argv[2])
    if not app:
        sys.exit(f"{sys.argv[1]}: no rows found (has the table's layout changed?)")
    if app != fuzz:
        print(f"the panel tables differ:\n  app:  {app}\n  fuzz: {fuzz}", file=sys.stderr)
        sys.exit(1)
    print(f"{len(app)} panel rows agree")


if __name__ == "__main__":
    main()
