#!/usr/bin/env python3
"""Picks a few inputs worth committing from a libFuzzer merge (docs/fuzzing.md).

    pick_corpus.py CONTROL_FILE MAX_FILES MAX_BYTES > picked.txt

CONTROL_FILE is the file `-merge=1 -merge_control_file=CONTROL_FILE NEW_DIR SCRATCH` wrote,
with NEW_DIR holding the committed corpus first (the "initial corpus"). Greedy cover of the
coverage edges (its COV lines): repeatedly picks the input of at most MAX_BYTES that adds the
most edges not yet covered by the initial corpus and the inputs picked so far (ties: the
smaller file), at most MAX_FILES of them. Prints their paths; says on stderr how many of the
new edges they keep.
"""
import os, sys
ctl, maxfiles, maxsize = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = open(ctl).read().split("\n")
nfiles, ninit = int(lines[0]), int(lines[1])
files = lines[2:2 + nfiles]
cov = {}
for l in lines[2 + nfiles:]:
    if l.startswith("COV "):
        parts = l.split()
        cov[int(parts[1])] = set(parts[2:])
covered = set()
for i in range(ninit):
    covered |= cov.get(i, set())
cand = [i for i in range(ninit, nfiles) if i in cov and os.path.getsize(files[i]) <= maxsize]
allnew = set().union(*(cov[i] for i in range(ninit, nfiles) if i in cov)) - covered
chosen = []
while len(chosen) < maxfiles:
    best, gain = None, 0
    for i in cand:
        g = len(cov[i] - covered)
        if g > gain or (g == gain and g > 0 and os.path.getsize(files[i]) < os.path.getsize(files[best])):
            best, gain = i, g
    if best is None:
        break
    chosen.append(best); covered |= cov[best]; cand.remove(best)
kept = len(allnew & covered)
print(f"new edges beyond the seeds: {len(allnew)}; kept by {len(chosen)} files: {kept}", file=sys.stderr)
for i in chosen:
    print(files[i])
