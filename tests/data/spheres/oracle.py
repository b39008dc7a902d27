#!/usr/bin/env python3
"""Independent counter for cubesat puzzle files on the sphere grid (balls in face-centred
cubic packing), written without reference to cubesat's code, as a check of its counts.

    python3 oracle.py FILE.json [--check-only]
    python3 oracle.py FILE.json --rows > rows.txt          # for a faster counter:
    ./fastcount < rows.txt > sols.txt                      #   fastcount.c
    python3 oracle.py FILE.json --solutions sols.txt       # the modes from its solutions

Reads a cubesat JSON puzzle with "grid": "spheres" (pieces and target as "layers" art or
"cells" in the layer frame), checks it (ball counts, volume, each piece connected under the
12 contacts of a ball), and counts its solutions by exact cover, printing

    all=N rotation=N rotation+reflection=N|undefined

Geometry (the contract the files are written in):
  * ball [i, j] of layer k (column i, row j) is the cube-grid point [i+j+k, i-j, k]; a ball
    sits exactly where x+y+z is even; two balls touch when they differ by a permutation of
    (+-1, +-1, 0).
  * orientations of a piece: every orthogonal 3x3 matrix whose entries are multiples of 1/3
    (240 of them, 120 of determinant +1), applied to the piece's balls relative to one of its
    balls; an orientation is valid when every image is a ball again. Without "mirror" only
    determinant +1 is used.
  * counting modes: "all" counts every set of placements (copies of a piece are not told
    apart); "rotation" counts classes under the proper symmetries of the target (the valid
    matrices of determinant +1 mapping the target onto itself after a translation by a
    lattice vector); "rotation+reflection" counts classes under all its symmetries and is
    undefined when the piece set is not closed under mirror images (some piece's mirror image
    is neither a rotation of itself nor of another piece of the set).

The exact-cover search is Knuth's Algorithm X on dictionaries of sets (columns: the target's
balls and one per piece copy, the latter covered by any copy of that shape).
"""

import json
import sys
from itertools import permutations, product


def layer_to_cube(i, j, k):
    return (i + j + k, i - j, k)


def cells_of(obj):
    """Cube-grid balls of a piece or target object ('layers' art or layer-frame 'cells')."""
    if "layers" in obj:
        out = []
        for k, layer in enumerate(obj["layers"]):
            for j, row in enumerate(layer):
                for i, ch in enumerate(row):
                    if ch == "#":
                        out.append(layer_to_cube(i, j, k))
                    elif ch not in ". ":
                        raise ValueError(f"unexpected character {ch!r}")
        return out
    if "cells" in obj:
        return [layer_to_cube(*c) for c in obj["cells"]]
    raise ValueError("neither 'layers' nor 'cells'")


# --- the 240 matrices -------------------------------------------------------------------

def matrices():
    """All orthogonal matrices with entries in (1/3)Z, as integer matrices 3*M."""
    rows = set()
    for base in ((3, 0, 0), (1, 2, 2)):
        for p in permutations(base):
            for s in product((1, -1), repeat=3):
                rows.add(tuple(a * b for a, b in zip(p, s)))
    rows = sorted(rows)
    dot = lambda a, b: sum(x * y for x, y in zip(a, b))
    out = []
    for r0 in rows:
        for r1 in rows:
            if dot(r0, r1):
                continue
            for r2 in rows:
                if dot(r0, r2) or dot(r1, r2):
                    continue
                out.append((r0, r1, r2))
    return out


def det3(m):
    (a, b, c), (d, e, f), (g, h, i) = m
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


MATRICES = matrices()
assert len(MATRICES) == 240, len(MATRICES)
PROPER = [m for m in MATRICES if det3(m) > 0]  # det(3M) = 27 det(M)
assert len(PROPER) == 120


def apply(m, v):
    """M v for the integer matrix m = 3M, or None when M v is not an integer point."""
    out = []
    for r in m:
        s = r[0] * v[0] + r[1] * v[1] + r[2] * v[2]
        if s % 3:
            return None
        out.append(s // 3)
    return tuple(out)


def is_ball(p):
    return sum(p) % 2 == 0


def transform_shape(m, shape):
    """The image of a shape (relative to its first ball), normalised, or None if invalid."""
    o = shape[0]
    img = []
    for c in shape:
        v = apply(m, (c[0] - o[0], c[1] - o[1], c[2] - o[2]))
        if v is None or not is_ball(v):
            return None
        img.append(v)
    return normalise(img)


def normalise(shape):
    """Translate by a lattice vector so the smallest ball is at the origin; sorted tuple."""
    s = sorted(shape)
    o = s[0]
    return tuple((a - o[0], b - o[1], c - o[2]) for a, b, c in s)


def orientations(shape, mats):
    seen = set()
    for m in mats:
        t = transform_shape(m, shape)
        if t is not None:
            seen.add(t)
    return sorted(seen)


NEIGHBOURS = [p for p in product((-1, 0, 1), repeat=3) if sorted(map(abs, p)) == [0, 1, 1]]
assert len(NEIGHBOURS) == 12


def connected(shape):
    s = set(shape)
    stack = [shape[0]]
    seen = {shape[0]}
    while stack:
        c = stack.pop()
        for d in NEIGHBOURS:
            n = (c[0] + d[0], c[1] + d[1], c[2] + d[2])
            if n in s and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(s)


def symmetries(target, mats):
    """The matrices mapping the target onto itself (after a lattice translation)."""
    norm = normalise(target)
    out = []
    for m in mats:
        t = transform_shape(m, target)
        if t == norm:
            out.append(m)
    return out


def symmetry_maps(target, syms):
    """For each symmetry, the permutation of target balls it induces."""
    o = sorted(target)[0]
    maps = []
    for m in syms:
        img = {c: apply(m, (c[0] - o[0], c[1] - o[1], c[2] - o[2])) for c in target}
        lo = min(img.values())
        # translate the image back onto the target: its smallest ball goes to the target's
        shift = (o[0] - lo[0], o[1] - lo[1], o[2] - lo[2])
        mp = {c: (v[0] + shift[0], v[1] + shift[1], v[2] + shift[2]) for c, v in img.items()}
        assert set(mp.values()) == set(target), "symmetry does not map the target onto itself"
        maps.append(mp)
    return maps


# --- exact cover (Algorithm X) ----------------------------------------------------------

def algorithm_x(columns, rows, on_solution):
    """columns: dict col -> set of row ids; rows: dict row id -> list of cols."""
    sol = []

    def select(r):
        removed = []
        for j in rows[r]:
            for i in columns[j]:
                for k in rows[i]:
                    if k != j:
                        columns[k].discard(i)
            removed.append(columns.pop(j))
        return removed

    def deselect(r, removed):
        for j in reversed(rows[r]):
            columns[j] = removed.pop()
            for i in columns[j]:
                for k in rows[i]:
                    if k != j:
                        columns[k].add(i)

    def search():
        if not columns:
            on_solution(list(sol))
            return
        c = min(columns, key=lambda c: len(columns[c]))
        for r in list(columns[c]):
            sol.append(r)
            removed = select(r)
            search()
            deselect(r, removed)
            sol.pop()

    search()


def load(puzzle):
    """Check a puzzle and return (target balls, [(name, shape, count)], mirror)."""
    target = cells_of(puzzle["target"])
    if len(set(target)) != len(target):
        raise ValueError("target repeats a ball")
    mirror = bool(puzzle.get("mirror", False))
    shapes = []
    for p in puzzle["pieces"]:
        shape = cells_of(p)
        if len(set(shape)) != len(shape):
            raise ValueError(f"piece {p['name']} repeats a ball")
        if not connected(shape):
            raise ValueError(f"piece {p['name']} is not connected")
        shapes.append((p["name"], shape, p.get("count", 1)))
    volume = sum(len(s) * n for _, s, n in shapes)
    if volume != len(target):
        raise ValueError(f"pieces hold {volume} balls, target {len(target)}")
    return target, shapes, mirror


def placements(target, shapes, mirror):
    """Every placement: a list of (shape index, sorted tuple of balls), each once."""
    mats = MATRICES if mirror else PROPER
    tset = set(target)
    out = []
    for pi, (_, shape, _) in enumerate(shapes):
        seen = set()
        for o in orientations(shape, mats):
            a = o[0]
            for t in target:  # the orientation's first ball on t
                cells = tuple(sorted((t[0] + c[0] - a[0], t[1] + c[1] - a[1], t[2] + c[2] - a[2])
                                     for c in o))
                if cells not in seen and all(c in tset for c in cells):
                    seen.add(cells)
                    out.append((pi, cells))
    return out


def solve_all(target, shapes, rows):
    """Every solution, as a frozenset of (shape index, balls): copies of a shape are not
    told apart, so the n! ways of giving n copies the same placements count once."""
    columns = {c: set() for c in target}
    xrows = {}
    rid = 0
    for pi, cells in rows:
        for k in range(shapes[pi][2]):
            columns.setdefault(("piece", pi, k), set())
            xrows[rid] = list(cells) + [("piece", pi, k)]
            for c in xrows[rid]:
                columns[c].add(rid)
            rid += 1
    row_of = {r: (cols[-1][1], tuple(cols[:-1])) for r, cols in xrows.items()}
    solutions = set()
    algorithm_x(columns, xrows, lambda sol: solutions.add(frozenset(row_of[r] for r in sol)))
    return solutions


def closed_under_mirror(shapes):
    """True when every chiral shape has a mirror partner with as many copies."""
    forms = [set(orientations(s, PROPER)) for _, s, _ in shapes]
    for i, (_, s, n) in enumerate(shapes):
        img = normalise([(-x, -y, -z) for x, y, z in s])
        if img in forms[i]:
            continue  # achiral
        if not any(shapes[j][2] == n for j, f in enumerate(forms) if img in f):
            return False
    return True


def piece_map(shapes, proper):
    """Which shape a symmetry sends each shape to: itself under a rotation; under a
    reflection, the shape whose rotations hold its mirror image."""
    if proper:
        return {i: i for i in range(len(shapes))}
    forms = [set(orientations(s, PROPER)) for _, s, _ in shapes]
    mp = {}
    for i, (_, s, _) in enumerate(shapes):
        img = normalise([(-x, -y, -z) for x, y, z in s])
        cand = [j for j, f in enumerate(forms) if img in f]
        mp[i] = i if i in cand else cand[0]
    return mp


def classes(solutions, target, shapes, mats, mirror):
    """Number of classes of solutions under the target's symmetries among mats. With
    "mirror" a reflected placement is a placement of the same piece."""
    syms = symmetries(target, mats)
    maps = symmetry_maps(target, syms)
    names = [piece_map(shapes, mirror or det3(m) > 0) for m in syms]
    seen = set()
    n = 0
    for s in solutions:
        if s in seen:
            continue
        n += 1
        for mp, nm in zip(maps, names):
            seen.add(frozenset((nm[pi], tuple(sorted(mp[c] for c in cells))) for pi, cells in s))
    return n, len(syms)


def count(puzzle, solutions=None):
    """The counts in every mode; solutions may be given (from --solutions)."""
    target, shapes, mirror = load(puzzle)
    if solutions is None:
        solutions = solve_all(target, shapes, placements(target, shapes, mirror))
    result = {"all": len(solutions)}
    result["rotation"], result["rotations_of_target"] = classes(
        solutions, target, shapes, PROPER, mirror)
    if mirror or closed_under_mirror(shapes):
        result["rotation+reflection"], result["symmetries_of_target"] = classes(
            solutions, target, shapes, MATRICES, mirror)
    else:
        result["rotation+reflection"] = None
    return result


def print_rows(puzzle):
    """The exact-cover rows for an outside counter (fastcount.c): a header line
    'balls shapes rows', then per row its shape index and its balls as a bit mask over the
    target's balls in sorted order. Shapes with copies are refused (the mask counter
    treats every shape as used once)."""
    target, shapes, mirror = load(puzzle)
    if any(n != 1 for _, _, n in shapes):
        raise ValueError("--rows needs every piece count to be 1")
    if len(target) > 64:
        raise ValueError("--rows needs at most 64 balls")
    index = {c: i for i, c in enumerate(sorted(target))}
    rows = placements(target, shapes, mirror)
    print(len(target), len(shapes), len(rows))
    for pi, cells in rows:
        print(pi, sum(1 << index[c] for c in cells))


def read_solutions(puzzle, path):
    """Solutions printed by fastcount.c: per line the row numbers of --rows."""
    target, shapes, mirror = load(puzzle)
    rows = placements(target, shapes, mirror)
    sols = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                sols.add(frozenset(rows[int(r)] for r in line.split()))
    # every solution read must be an exact cover of the target by distinct shapes
    for s in sols:
        balls = [c for _, cells in s for c in cells]
        assert sorted(balls) == sorted(target), "a solution does not cover the target"
        assert len({pi for pi, _ in s}) == len(shapes), "a solution repeats a piece"
    return sols


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    with open(args[0], encoding="utf-8") as f:
        puzzle = json.load(f)
    if puzzle.get("grid") != "spheres":
        print(f"{args[0]}: not a sphere-grid puzzle", file=sys.stderr)
        sys.exit(2)
    if "--check-only" in args:
        target, shapes, _ = load(puzzle)
        for name, s, n in shapes:
            print(f"{name}: {len(s)} balls x {n}, connected, "
                  f"{len(orientations(s, PROPER))} rotations "
                  f"({len(orientations(s, MATRICES))} with reflections)")
        print(f"target {len(target)} balls = pieces' {sum(len(s) * n for _, s, n in shapes)}")
        return
    if "--rows" in args:
        print_rows(puzzle)
        return
    solutions = None
    if "--solutions" in args:
        solutions = read_solutions(puzzle, args[args.index("--solutions") + 1])
    r = count(puzzle, solutions)
    rr = r["rotation+reflection"]
    print(f"all={r['all']} rotation={r['rotation']} "
          f"rotation+reflection={'undefined' if rr is None else rr}")
    print(f"(target: {r['rotations_of_target']} rotations, "
          f"{r.get('symmetries_of_target', '-')} symmetries)", file=sys.stderr)


if __name__ == "__main__":
    main()
