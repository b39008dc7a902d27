#!/usr/bin/env python3
"""Grade the published Kanoodle Genius (2D) challenges with cubesat's difficulty measure.

The challenges of the commercial booklet (levels "Super Pro", "Champ", "Whiz") are taken
from the data module of the public repository wkeeling/kanoodlegenius2d
(`kanoodlegenius2d/domain/data.py`). That file is NOT part of this project: save a copy
locally and pass its path. This script only reads it as text (it never imports or runs it):
it follows the statements that fetch a noodle, turn it (`rotate`, 60 degrees clockwise per
increment), turn it over (`flip`, a mirror about the vertical axis) and place its first ball
on a numbered hole, and writes one cubesat challenge file per puzzle (the placed noodles as
hints, the other noodles to place) plus `kanoodle-genius.json`, the empty board.

The board: 35 holes in seven rows of 4, 5, 6, 5, 6, 5, 4 balls on a triangular lattice,
numbered left to right, top row first. Each ball is a cell of cubesat's hexagon grid
(`"grid": "hexagons"`, typed rows each half a hexagon right of the row above). A noodle is
five balls: its first ball and four steps, each to one of the six neighbours E, SE, SW, W,
NW, NE. Turning a piece over is a half turn in space on a one-layer board, so no `mirror`.

Then, for every challenge, it runs
    cubesat solve FILE --count --up-to none --threads 1
(the count of completions, every placement counted, and the exact engine's search nodes on
one thread, the measure cubesat's challenge sets grade by) and prints a table per challenge
and a summary per level, with how well the node count orders the booklet's levels.

Run (from the repository root; needs only Python 3 and the built binary):
    python3 benches/booklets/kanoodle_genius.py /path/to/data.py --out /tmp/kanoodle-genius \
        [--cubesat target/release/cubesat]
"""

import argparse
import itertools
import json
import os
import re
import statistics
import subprocess
import sys

# Row lengths of the board, top row first; rows 0, 2, 4, 6 are offset as below.
ROWS = [4, 5, 6, 5, 6, 5, 4]
# Horizontal position of each row's first ball, in half ball widths (the 6-ball rows are
# flush left, the 5-ball rows half a ball in, the 4-ball rows a whole ball in).
ROW_START = [2, 1, 0, 1, 0, 1, 2]

# A step to a neighbouring ball: (rows down, half ball widths right).
STEP = {"E": (0, 2), "W": (0, -2), "NE": (-1, 1), "NW": (-1, -1), "SE": (1, 1), "SW": (1, -1)}
CLOCKWISE = ["NE", "E", "SE", "SW", "W", "NW"]
MIRROR = {"E": "W", "W": "E", "NE": "NW", "NW": "NE", "SE": "SW", "SW": "SE"}

# The noodles by the accessor names the data module uses (Noodle.light_green() ...) and their
# designation letters; a published solution names a noodle by its database id, 1 to 7 for
# A to G (the order the data module creates them).
NOODLES = {
    "light_green": "A", "yellow": "B", "dark_blue": "C", "light_blue": "D",
    "red": "E", "pink": "F", "dark_green": "G",
}
LEVELS = {1: "Super Pro", 2: "Champ", 3: "Whiz"}


def holes():
    """Hole number -> (row, half-width position)."""
    out = []
    for r, (n, s) in enumerate(zip(ROWS, ROW_START)):
        out.extend((r, s + 2 * i) for i in range(n))
    return out


HOLES = holes()
HOLE_AT = {h: i for i, h in enumerate(HOLES)}


def typed(hole):
    """Hole number -> cubesat typed cell [x, y, 0] on the hexagon grid: row y is drawn
    half a hexagon right of row y - 1, so a ball at half-width position p in row y is
    column (p - y) / 2 (shifted by 2 so every column is >= 0)."""
    r, p = HOLES[hole]
    return [(p - r) // 2 + 2, r, 0]


def balls(start, dirs):
    """Holes of a noodle whose first ball is on hole `start`, or None if one is off the board."""
    r, p = HOLES[start]
    out = [start]
    for d in dirs:
        dr, dp = STEP[d]
        r, p = r + dr, p + dp
        if (r, p) not in HOLE_AT:
            return None
        out.append(HOLE_AT[(r, p)])
    return out


def rotate(dirs, k):
    return [CLOCKWISE[(CLOCKWISE.index(d) + k) % 6] for d in dirs]


def parse(path):
    """Read the data module as text: the noodles' default steps and the puzzles."""
    text = open(path, encoding="utf-8").read()
    default = {}
    for m in re.finditer(r"Noodle\.create\((.*?)\)", text, re.S):
        body = m.group(1)
        letter = re.search(r"designation='(\w)'", body).group(1)
        parts = [re.search(r"part%d=orientation\.(\w+)" % i, body).group(1) for i in range(1, 5)]
        default[letter] = parts
    assert sorted(default) == list("ABCDEFG"), default
    ids = {i + 1: letter for i, letter in enumerate("ABCDEFG")}

    puzzles, state, cur = [], {}, None
    # Statements, in order: a puzzle starts, a noodle is fetched, turned, flipped, placed.
    pat = re.compile(
        r"Puzzle\.create\((?P<pz>.*?)\)"
        r"|(?P<var>\w+)\s*=\s*Noodle\.(?P<acc>\w+)\(\)"
        r"|(?P<rv>\w+)\.rotate\((?:increment=)?(?P<k>\d*)\)"
        r"|(?P<fv>\w+)\.flip\(\)"
        r"|puzzle\.place\((?P<pv>\w+),\s*position=(?P<pos>\d+)\)", re.S)
    for m in pat.finditer(text):
        if m.group("pz") is not None:
            body = m.group("pz")
            level = int(re.search(r"level=level(\d)", body).group(1))
            number = int(re.search(r"number=(\d+)", body).group(1))
            sol = re.search(r"solution='([^']*)'", body)
            solution = []
            if sol:
                for item in sol.group(1).split(";"):
                    if item.strip():
                        f = item.split(",")
                        solution.append((ids[int(f[0])], int(f[1]), f[2:6]))
            cur = {"level": level, "number": number, "placed": [], "solution": solution}
            puzzles.append(cur)
        elif m.group("var"):
            state[m.group("var")] = [NOODLES[m.group("acc")], list(default[NOODLES[m.group("acc")]])]
        elif m.group("rv"):
            v = state[m.group("rv")]
            v[1] = rotate(v[1], int(m.group("k") or 1))
        elif m.group("fv"):
            v = state[m.group("fv")]
            v[1] = [MIRROR[d] for d in v[1]]
        elif m.group("pv"):
            letter, dirs = state[m.group("pv")]
            cur["placed"].append((letter, int(m.group("pos")), list(dirs)))
    return default, puzzles


def board_art():
    width = max(typed(h)[0] for h in range(len(HOLES))) + 1
    rows = [["."] * width for _ in ROWS]
    for h in range(len(HOLES)):
        x, y, _ = typed(h)
        rows[y][x] = "#"
    return ["".join(r) for r in rows]


def pieces(default):
    out = []
    for letter in "ABCDEFG":
        name = [k for k, v in NOODLES.items() if v == letter][0]
        # the noodle laid out from a hole where all its balls fit, then made relative
        for start in range(len(HOLES)):
            hs = balls(start, default[letter])
            if hs:
                break
        cells = [typed(h) for h in hs]
        mx, my = min(c[0] for c in cells), min(c[1] for c in cells)
        out.append({"name": name, "letter": letter,
                    "cells": [[c[0] - mx, c[1] - my, 0] for c in cells]})
    return out


def base(default):
    return {"grid": "hexagons", "target": {"layers": [board_art()]}, "pieces": pieces(default)}


def write_challenge(default, pz, out):
    """The challenge file, and a check of the published solution (None if none given)."""
    doc = base(default)
    tag = "%d-%02d" % (pz["level"], pz["number"])
    doc["name"] = "Kanoodle Genius %s %d" % (LEVELS[pz["level"]], pz["number"])
    doc["description"] = ("Kanoodle Genius (2D), level %s, puzzle %d, as published in "
                          "wkeeling/kanoodlegenius2d's data module; the placed noodles are hints."
                          % (LEVELS[pz["level"]], pz["number"]))
    used, hints = set(), []
    for letter, pos, dirs in pz["placed"]:
        hs = balls(pos, dirs)
        if hs is None:
            raise SystemExit("%s: noodle %s at hole %d runs off the board" % (tag, letter, pos))
        if used & set(hs):
            raise SystemExit("%s: noodle %s at hole %d overlaps" % (tag, letter, pos))
        used |= set(hs)
        name = [k for k, v in NOODLES.items() if v == letter][0]
        hints.append({"piece": name, "cells": [typed(h) for h in hs]})
    doc["hints"] = hints
    path = os.path.join(out, "challenges", tag + ".json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
    sol_ok = None
    if pz["solution"]:
        cover = set(used)
        sol_ok = True
        for letter, pos, dirs in pz["solution"]:
            hs = balls(pos, dirs)
            if hs is None or cover & set(hs):
                sol_ok = False
                break
            cover |= set(hs)
        sol_ok = sol_ok and len(cover) == len(HOLES)
    return path, sol_ok


def run(cubesat, path):
    p = subprocess.run([cubesat, "solve", path, "--count", "--up-to", "none", "--threads", "1"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("cubesat failed on %s: %s" % (path, p.stderr.strip()))
    count = int(re.search(r"(\d[\d,]*) solutions?", p.stdout).group(1).replace(",", ""))
    nodes = int(re.findall(r"(\d[\d,]*) nodes", p.stderr)[-1].replace(",", ""))
    return count, nodes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", help="a local copy of kanoodlegenius2d/domain/data.py")
    ap.add_argument("--out", required=True, help="output directory for the JSON files")
    ap.add_argument("--cubesat", default="target/release/cubesat")
    a = ap.parse_args()
    default, puzzles = parse(a.data)
    os.makedirs(os.path.join(a.out, "challenges"), exist_ok=True)
    empty = os.path.join(a.out, "kanoodle-genius.json")
    with open(empty, "w") as f:
        json.dump(dict(base(default), name="Kanoodle Genius, the empty board"), f, indent=1)
    print("empty board: %d completions (every placement), %d nodes" % run(a.cubesat, empty))

    rows = []
    print("%-10s %4s %6s %5s %12s %10s %s" % ("level", "no.", "hints", "left", "completions",
                                              "nodes", "published solution fits"))
    for pz in puzzles:
        path, sol_ok = write_challenge(default, pz, a.out)
        count, nodes = run(a.cubesat, path)
        left = 7 - len(pz["placed"])
        rows.append((pz["level"], pz["number"], left, count, nodes))
        print("%-10s %4d %6d %5d %12d %10d %s" % (LEVELS[pz["level"]], pz["number"],
              len(pz["placed"]), left, count, nodes, {None: "-", True: "yes", False: "NO"}[sol_ok]))

    print()
    print("| level | challenges | pieces left | completions (unique) | nodes min / median / max |")
    print("| --- | --- | --- | --- | --- |")
    by = {}
    for r in rows:
        by.setdefault(r[0], []).append(r)
    for lv in sorted(by):
        rs = by[lv]
        lefts = sorted(set(r[2] for r in rs))
        counts = [r[3] for r in rs]
        nodes = [r[4] for r in rs]
        print("| %s | %d | %s | %d-%d (%d of %d unique) | %d / %s / %d |" % (
            LEVELS[lv], len(rs), ", ".join(map(str, lefts)), min(counts), max(counts),
            sum(c == 1 for c in counts), len(rs), min(nodes), statistics.median(nodes), max(nodes)))
    print()
    for a_lv, b_lv in itertools.combinations(sorted(by), 2):
        same = ties = total = 0
        for ra in by[a_lv]:
            for rb in by[b_lv]:
                total += 1
                same += ra[4] < rb[4]
                ties += ra[4] == rb[4]
        print("%s < %s: %d of %d pairs ordered like the booklet (%.0f%%), %d ties" % (
            LEVELS[a_lv], LEVELS[b_lv], same, total, 100.0 * same / total, ties))
    pairs = [(ra, rb) for ra, rb in itertools.combinations(rows, 2) if ra[0] != rb[0]]
    agree = sum((ra[0] - rb[0]) * (ra[4] - rb[4]) > 0 for ra, rb in pairs)
    ties = sum(ra[4] == rb[4] for ra, rb in pairs)
    print("all pairs from different levels: %d of %d ordered like the booklet (%.0f%%), %d ties" % (
        agree, len(pairs), 100.0 * agree / len(pairs), ties))


if __name__ == "__main__":
    sys.exit(main())
