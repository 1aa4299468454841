#!/usr/bin/env python3
"""Checks that the code's citations of the algorithm spec and of the seed articles resolve.

Code, lessons and docs cite
  - the spec as "orca-spec section 4", "orca-spec sections 4 and 5", "(orca-spec 5)",
    "orca-spec §6" (also sub-sections such as "4.2"), by a formula's name
    ("orca-spec leftLeg/rightLeg"), or as a whole ("orca-spec.md", "the orca-spec");
  - the seed articles as "seed 002", "Seed 003's", "seed-002", "seeds 002 and 003".

Each numbered citation must match a heading of docs/orca-spec.md ("## 4. ...",
"### 4.2 ..."), each named formula must occur in that page, and each seed must have a
"## Seed 00N — title" section in docs/seeds.md. Prints every citation form found with its
count and exits 1 when one does not resolve. It then checks itself: with a cited section
removed from the docs it must report a failure.

Usage: scripts/check_citations.py [--root DIR] [--verbose]
"""

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

SCAN_DIRS = ["core", "ui", "app", "tests", "bench", "lessons", "scenes", "assets", "scripts", "docs"]
SCAN_FILES = ["README.md", "CMakeLists.txt"]
SUFFIXES = {".cpp", ".hpp", ".h", ".c", ".cmake", ".txt", ".py", ".sh", ".md", ".json"}
SKIP_PARTS = {"corpus", "crashes", ".git"}
SPEC_DOC = Path("docs/orca-spec.md")
SEEDS_DOC = Path("docs/seeds.md")

NUMBER = r"\d+(?:\.\d+)*"
SPEC_RE = re.compile(
    r"orca-spec(?P<md>\.md)?"
    r"(?:[,:]?[ \t]*(?P<kw>§|sections?\b|sec\.)?[ \t]*"
    r"(?P<nums>" + NUMBER + r"(?:[ \t]*(?:,|and|&|/)[ \t]*§?[ \t]*" + NUMBER + r")*)\b"
    r"|[ \t]+(?P<terms>[A-Za-z_]\w*(?:/[A-Za-z_]\w*)*))?"
)
SEED_RE = re.compile(r"\b[Ss]eeds?[ -](?P<nums>0\d\d(?:\s*(?:,|and|&)\s*0\d\d)*)\b")
SPEC_HEADING_RE = re.compile(r"^#{2,6}[ \t]+(?:§[ \t]*)?(" + NUMBER + r")\.?(?:[ \t]|$)", re.M)
SEED_HEADING_RE = re.compile(r"^##[ \t]+Seed[ \t]+(0\d\d)\b", re.M)


def is_identifier(word):
    """A formula name (camelCase or snake_case), as opposed to an ordinary English word."""
    return "_" in word or re.search(r"[a-z][A-Z]", word) is not None


class Citation:
    def __init__(self, path, line, text, form, kind, targets):
        self.path, self.line, self.text = path, line, text
        self.form = form  # how it was written, e.g. "orca-spec section N"
        self.kind = kind  # "section", "term", "document" or "seed"
        self.targets = targets  # section numbers, term names or seed numbers


def spec_citations(path, line_no, line):
    out = []
    for m in SPEC_RE.finditer(line):
        text = m.group(0).strip()
        if m.group("md"):
            out.append(Citation(path, line_no, text, "orca-spec.md", "document", []))
        elif m.group("nums"):
            nums = re.findall(NUMBER, m.group("nums"))
            kw = m.group("kw") or ""
            plural = len(nums) > 1
            name = {"": "N", "§": "§N", "sec.": "sec. N"}.get(kw)
            if name is None:
                name = "sections N and M" if plural else "section N"
            elif plural:
                name += " and M"
            out.append(Citation(path, line_no, text, "orca-spec " + name, "section", nums))
        elif m.group("terms") and is_identifier(m.group("terms").split("/")[0]):
            terms = m.group("terms").split("/")
            out.append(Citation(path, line_no, text, "orca-spec <formula name>", "term", terms))
        else:
            out.append(Citation(path, line_no, "orca-spec", "orca-spec (whole page)", "document", []))
    return out


def seed_citations(path, line_no, line):
    out = []
    for m in SEED_RE.finditer(line):
        nums = re.findall(r"0\d\d", m.group("nums"))
        sep = "-" if "-" in m.group(0) else " "
        word = m.group(0)[: m.start("nums") - m.start(0) - 1]
        form = word + sep + ("00N and 00M" if len(nums) > 1 else "00N")
        out.append(Citation(path, line_no, m.group(0), form, "seed", nums))
    return out


def scan(root):
    files = [root / f for f in SCAN_FILES if (root / f).is_file()]
    for d in SCAN_DIRS:
        base = root / d
        if base.is_dir():
            files += sorted(p for p in base.rglob("*") if p.is_file())
    me = Path(__file__).resolve()
    citations = []
    for f in files:
        rel = f.relative_to(root)
        if SKIP_PARTS.intersection(rel.parts) or rel.parts[0].startswith("build"):
            continue
        if f.suffix not in SUFFIXES or f.resolve() == me:
            continue
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for i, line in enumerate(text.splitlines(), 1):
            if "orca-spec" in line:
                citations += spec_citations(rel, i, line)
            if "eed" in line:
                citations += seed_citations(rel, i, line)
    return citations


def unresolved(citations, spec_text, spec_sections, seed_sections):
    """(citation, what is missing) for each cited target that does not resolve."""
    bad = []
    for c in citations:
        if c.kind == "document" and spec_text is None:
            bad.append((c, "%s does not exist" % SPEC_DOC))
        for t in c.targets:
            if c.kind == "section" and t not in spec_sections:
                bad.append((c, "%s has no section %s" % (SPEC_DOC, t)))
            elif c.kind == "term" and (spec_text is None or not re.search(r"\b%s\b" % re.escape(t), spec_text)):
                bad.append((c, "%s never names %s" % (SPEC_DOC, t)))
            elif c.kind == "seed" and t not in seed_sections:
                bad.append((c, "%s has no '## Seed %s — title' section" % (SEEDS_DOC, t)))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path)
    ap.add_argument("--verbose", action="store_true", help="list every citation")
    args = ap.parse_args()
    root = args.root.resolve()

    spec_path, seeds_path = root / SPEC_DOC, root / SEEDS_DOC
    spec_text = spec_path.read_text(encoding="utf-8") if spec_path.is_file() else None
    seeds_text = seeds_path.read_text(encoding="utf-8") if seeds_path.is_file() else ""
    spec_sections = set(SPEC_HEADING_RE.findall(spec_text or ""))
    seed_sections = set(SEED_HEADING_RE.findall(seeds_text))

    citations = scan(root)
    if not citations:
        print("error: no citations found under %s (wrong --root?)" % root)
        return 1

    forms = defaultdict(list)
    for c in citations:
        forms[c.form].append(c)
    print("Citation forms found (%d citations in %d files):"
          % (len(citations), len({c.path for c in citations})))
    for form in sorted(forms):
        cs = forms[form]
        targets = sorted({t for c in cs for t in c.targets}, key=lambda s: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)])
        print("  %-32s %3d  %s" % (form, len(cs), ", ".join(targets)))
        if args.verbose:
            for c in cs:
                print("      %s:%d: %s" % (c.path, c.line, c.text))

    bad = unresolved(citations, spec_text, spec_sections, seed_sections)
    for c, why in bad:
        print("%s:%d: \"%s\" does not resolve: %s" % (c.path, c.line, c.text, why))
    if bad:
        print("FAILED: %d citation(s) do not resolve" % len(bad))
        return 1

    # Self-check: the checker must notice a cited section that goes missing.
    cited = [t for c in citations if c.kind == "section" for t in c.targets]
    cited_seeds = [t for c in citations if c.kind == "seed" for t in c.targets]
    for what, missing in (("spec section", cited[:1]), ("seed", cited_seeds[:1])):
        if not missing:
            continue
        drop = missing[0]
        caught = unresolved(citations, spec_text,
                            spec_sections - {drop} if what == "spec section" else spec_sections,
                            seed_sections - {drop} if what == "seed" else seed_sections)
        if not caught:
            print("FAILED: self-check: removing %s %s is not detected" % (what, drop))
            return 1
    print("OK: every citation resolves (%s sections: %s; %s seeds: %s)"
          % (SPEC_DOC, ", ".join(sorted(spec_sections, key=lambda s: [int(x) for x in s.split(".")])),
             SEEDS_DOC, ", ".join(sorted(seed_sections))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
