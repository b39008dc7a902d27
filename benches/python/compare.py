"""cubesat's Python package against the exact-cover solvers on PyPI (exact-cover, a C
extension, and dlx-cython, dancing links in Cython) on the same exact-cover matrices, side by
side in one process: Soma, the pentominoes in 6x10, and the pentominoes with the 2x2 square
in 8x8.

Every solver counts every exact cover of the same matrix (one row per placement cubesat
enumerates, one column per piece and per target cell), cubesat's count in mode `none`
(every placement), so all of them must give the same figure. cubesat derives that count
from its search up to symmetry (each class weighed by its size), so it also lists every
cover to Python one by one, with its exact engine and with its dancing-links baseline: the
same whole search the PyPI solvers make. Then it counts up to rotation, the count its users
read. Times are process CPU seconds (every thread's) and
wall seconds of one run (the best of --runs); the machines are shared and noisy, so CPU
seconds and their ratio to cubesat's on one thread are the figures.

    pip install ./crates/python exact-cover dlx-cython numpy
    python benches/python/compare.py [--runs N] [PUZZLE ...]
"""

import argparse
import time

import numpy as np

import cubesat

PUZZLES = ["soma", "pentominoes-6x10", "pentominoes-8x8-square"]


def matrix(puzzle):
    """The dense 0/1 matrix the PyPI solvers take: a row per placement, a column per piece,
    then one per target cell (every puzzle here has one copy of each piece and no optional
    cell)."""
    pieces = puzzle.pieces
    assert all(p.count == p.min_count == 1 for p in pieces), "one copy of each piece"
    assert not any(c[3] for c in puzzle.cells), "no optional cell"
    column = {tuple(c[:3]): len(pieces) + i for i, c in enumerate(puzzle.cells)}
    rows = puzzle.placements()
    m = np.zeros((len(rows), len(pieces) + len(column)), dtype=np.int32)
    for r, p in enumerate(rows):
        m[r, p.index] = 1
        for c in p.cells:
            m[r, column[c]] = 1
    return m


def timed(f, runs):
    """(result, wall seconds, CPU seconds) of the run with the least CPU time."""
    best = None
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        out = f()
        w, c = time.perf_counter() - w0, time.process_time() - c0
        if best is None or c < best[2]:
            best = (out, w, c)
    return best


def solvers(puzzle, m):
    import dlx
    import exact_cover

    yield "exact-cover (C)", lambda: int(exact_cover.get_solution_count(m))
    yield "dlx-cython", lambda: len(dlx.DLX(m.shape[0], m.shape[1], m).solve(find_all=True))
    yield "cubesat, 1 thread", lambda: int(puzzle.count(up_to="none", threads=1))
    yield "cubesat, 2 threads", lambda: int(puzzle.count(up_to="none", threads=2))
    yield "cubesat up to rotation, 1 thread", lambda: int(puzzle.count(threads=1))
    yield "cubesat, every cover listed, 1 thread", lambda: listed(puzzle, "exact")
    yield "cubesat's dancing links, every cover listed", lambda: listed(puzzle, "dlx")


def listed(puzzle, engine):
    """Every exact cover listed to Python, one by one: the whole search the PyPI solvers make,
    with no symmetry (a count in mode `none` is derived from the search up to symmetry)."""
    return sum(1 for _ in puzzle.solutions(up_to="none", engine=engine, threads=1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("puzzles", nargs="*", default=PUZZLES)
    args = ap.parse_args()
    print("| puzzle | matrix | solver | count | cpu s | wall s | cpu / cubesat's (1 thread) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in args.puzzles:
        p = cubesat.load(name)
        m = matrix(p)
        rows = []
        for solver, f in solvers(p, m):
            rows.append((solver,) + timed(f, args.runs))
        base = next(c for s, _, _, c in rows if s == "cubesat, 1 thread")
        every = {n for s, n, _, _ in rows if "rotation" not in s}
        assert len(every) == 1, f"{name}: the solvers disagree: {rows}"
        for solver, n, w, c in rows:
            print(f"| {p.name} | {m.shape[0]} x {m.shape[1]} | {solver} | {n:,} | "
                  f"{c:.3f} | {w:.3f} | {c / max(base, 1e-3):,.1f}x |", flush=True)


if __name__ == "__main__":
    main()
