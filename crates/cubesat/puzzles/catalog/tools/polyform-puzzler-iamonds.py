"""Writes the catalog files of Polyform Puzzler's polyiamond puzzles: those with published
counts, and those its documentation marks "solutions incomplete" (open counts).

Polyform Puzzler (David Goodger, GPL 2, http://puzzler.sourceforge.net/) is Python 2, so
this script runs under Python 2.7 and imports Polyform Puzzler's own puzzle classes: every
target cell and every piece comes from them, nothing is retyped. No Polyform Puzzler code is
copied into cubesat; what the files hold are the puzzles' cells (facts), with the source cited.

    python2.7 crates/cubesat/puzzles/catalog/tools/polyform-puzzler-iamonds.py \\
        PUZZLER_DIR crates/cubesat/puzzles/catalog [CUBESAT [MAX_CPU_SECONDS]]

Which puzzles: every link "N solutions <../solutions/iamonds/NAME.txt>" in the documentation
(docs/*.txt, the g4gX page last, each NAME once) and the two figures the hexiamonds page says
have no solution without linking a file (`ZERO` below); NAME is also the front-end script
bin/iamonds/NAME.py, which names the class. Then every link "solutions incomplete
<../solutions/iamonds/NAME.txt>" (the heptiamonds and the polyiamonds of orders 1-6 and 1-7;
the one-sided sets among them are left out, as below): written with `published` null and
`incomplete` (source, convention), never counted here; record.py and the shard records of
counts/ fill in their estimates and counts, which a rerun keeps.
Kept are the puzzles cubesat expresses: one figure (one component), pieces that turn freely,
every solution counted (left out: one-sided sets, since on a board one cell thick turning a
piece over is a turn in space; classes that keep only the solutions meeting a colour rule of
their own, in `record_solution`; figures with secondary cells). Polyform Puzzler's symmetry
restrictions (fewer aspects for one piece in `customize_piece_data`, or `check_for_duplicates`)
only break the figure's symmetry: the files give every piece every orientation and cubesat
counts in its modes instead.

The grid: a board of triangles one layer thick is a box of triangular prisms, cubesat's
`"grid": "prisms"`, typed as layer art (crates/cubesat/src/geometry/prism.rs): cell [X, j]
is column X of art row j (top row first), pointing up when X + j is even. Polyform Puzzler's
triangle (x, y, z) (puzzler/coordsys.py, Triangular3D: x along a row, the y axis at 60
degrees, z = 0 the upward and z = 1 the downward triangle of the rhombus at (x, y)) lies in
row y counted upward, its centroid (x + y/2 + (1 + z)/2) sides of a triangle from the row's
origin; a column of the art is half a side, so

    X = 2x + y + z + c,   j = max(y) - y,

with c the least shift that makes every X >= 0 and keeps c + max(y) even (an upward triangle
on an even X + j; one more column of '.' on the left when the parity asks for it). It keeps
every adjacency (the right and left neighbours of (x, y, 0) are (x, y, 1) and (x - 1, y, 1),
X + 1 and X - 1; the one below its base is (x, y - 1, 1), the same X one row down) and the
picture's handedness.

Each file is `catalog/FAMILY/NAME.json`, FAMILY the documentation page's name (`hexiamonds`,
`polyiamonds`); NAME the script's name, shortened to 40 characters where longer (`SHORT`).
The published count is the page's "N solutions", read as up to rotation: Polyform Puzzler
lists each solution once up to the figure's symmetries (rotations and reflections in the
plane, the pieces being free), and on a board one prism thick a reflection in the plane is a
half turn in space, so that is cubesat's count up to rotation (`convention` says how the class
breaks the symmetry). A file that exists keeps its `catalog.cubesat` and `catalog.slow` (the
measured parts); a disagreement's finding is in `FINDINGS` below. With CUBESAT (a cubesat
binary that reads the prism grid), the puzzles without counts are counted: `solve --count
--threads 1` in the three modes and `--engine dlx` in the rotation mode, each under
MAX_CPU_SECONDS of CPU (default 60; a puzzle over it is left out and said so); `slow` when the
four took more than ten CPU seconds. A count that differs from the page's with no finding in
`FINDINGS` leaves the puzzle out (the reader refuses it). It prints one line per puzzle, kept
or left out with the reason, and the CPU seconds of the counts it ran.
"""

from __future__ import print_function

import inspect
import io
import os
import re
import sys

# The shared half lives beside this script (puzzler_flat.py); it is run by hand, so no .pyc is
# left in the tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from puzzler_flat import (  # noqa: E402
    catalog_entry, distinct_pieces, expressible, file_name, lattice_symmetries, page_links,
    puzzle_cells, puzzle_class, puzzle_file, section, title_name, write_all)

# The figures the documentation says have no solution, without a link: (page, script-like
# name, module, class, the page's words).
ZERO = [
    ('hexiamonds', 'hexiamonds-3x12', 'puzzler.puzzles.hexiamonds', 'Hexiamonds3x12',
     'The 3x12 parallelogram has no (0) solutions.'),
    ('hexiamonds', 'hexiamonds-ring', 'puzzler.puzzles.hexiamonds', 'HexiamondsRing',
     'no solutions for the ring with a centered hole'),
]

# Shorter words for the names over 40 characters.
SHORT = [('elongated-hexagons', 'long-hex'), ('elongated-hexagon', 'long-hexagon'),
         ('semiregular-hexagon', 'semireg-hexagon'), ('triangle-hexagram', 'tri-hexagram'),
         ('staggered-rectangle', 'stag-rectangle'), ('hexagon-hexagram', 'hex-hexagram')]

# Findings on counts that differ from the page's, by file name: (verdict, matches, text).
# Settled by dancing links (cubesat --engine dlx) and by Polyform Puzzler's own solver, run
# on the class (PYTHONPATH=PUZZLER_DIR python2.7 PUZZLER_DIR/bin/iamonds/NAME.py).
FINDINGS = {
    'hexiamonds-chevron-4x9': (
        'source', None,
        'The page gives 1004 solutions, the count of the 6x6 chevron listed just above it. '
        'cubesat counts 142 up to rotation (284 in all: the figure\'s one symmetry is a mirror '
        'in the plane, and no solution is fixed by it), and dancing links counts the same; '
        'Polyform Puzzler\'s own definition of the puzzle (class HexiamondsChevron_4x9 in '
        'puzzler/puzzles/hexiamonds.py, and its front end bin/iamonds/hexiamonds-chevron-4x9.py) '
        'says "142 solutions", and its solver, run on that class, lists 142 (62,486 searches). '
        'The page\'s 1004 is a slip.'),
    'hexiamonds-bumpy-trefoil': (
        'source', None,
        'The page gives 15 solutions. cubesat counts 19 up to rotation (114 in all: the figure '
        'has 6 symmetries in the plane and no solution is fixed by any), and dancing links '
        'counts the same; Polyform Puzzler\'s own definition of the puzzle (class '
        'HexiamondsBumpyTrefoil in puzzler/puzzles/hexiamonds.py, which gives P6 two of its 12 '
        'orientations, one per class of those 6 symmetries, and its front end '
        'bin/iamonds/hexiamonds-bumpy-trefoil.py) says "19 solutions", written in the same '
        'commit as the page\'s 15 (e2b3d29, 2015-02-19, in the tiwo/puzzler history), and its '
        'solver, run on that class, lists 19 (28,630 searches). The page\'s 15 is a slip.'),
}


def links(pp):
    """(doc, name, count, words, section) of every counted iamond link, the g4gX page last,
    then of every "solutions incomplete" link (count None), then the figures of `ZERO`."""
    for link in page_links(pp, 'iamonds', incomplete=True):
        yield link
    for doc, name, modname, clsname, words in ZERO:
        text = io.open(os.path.join(pp, 'docs', doc + '.txt'), encoding='utf-8').read()
        m = re.search(r'\s+'.join(re.escape(w) for w in words.split()), text)
        assert m, words
        yield doc, name, 0, words, section(text, m.start())


def typed(cells):
    """Polyform Puzzler's triangles (x, y, z) as cubesat's typed prism cells [X, j]."""
    ymax = max(c[1] for c in cells)
    xs = [2 * x + y + z for x, y, z in cells]
    shift = -min(xs)
    if (shift + ymax) % 2:
        shift += 1
    return [(2 * x + y + z + shift, ymax - y) for x, y, z in cells]


def art(cells):
    """One layer of art, rows from the highest y down (as Polyform Puzzler draws them)."""
    t = set(typed(cells))
    jmax = max(j for _, j in t)
    width = max(X for X, _ in t) + 1
    return [''.join('#' if (X, j) in t else '.' for X in range(width))
            for j in range(jmax + 1)]


def set_words(cls, pieces):
    """The piece set in words, from the class's bases."""
    names = [k.__name__ for k in inspect.getmro(cls)]
    n = len(pieces)
    listed = ', '.join(pieces)
    if 'HexiamondsChoose9Hexagon' in names:
        return '9 of the 12 free hexiamonds (%s; %s left out)' % (
            listed, ', '.join(sorted(cls.omit)))
    if 'Polyiamonds1234567' in names:
        return ('the %d free polyiamonds of orders 1 to 7 (the moniamond, the diamond, the '
                'triamond, 3 tetriamonds, 4 pentiamonds, 12 hexiamonds and 24 heptiamonds: %s)'
                % (n, listed))
    if 'Polyiamonds123456' in names:
        return ('the %d free polyiamonds of orders 1 to 6 (the moniamond, the diamond, the '
                'triamond, 3 tetriamonds, 4 pentiamonds and 12 hexiamonds: %s)' % (n, listed))
    if 'Heptiamonds' in names:
        return 'the %d free heptiamonds (%s)' % (n, listed)
    if 'Polyiamonds12345' in names:
        return ('the %d free polyiamonds of orders 1 to 5 (the moniamond, the diamond, the '
                'triamond, 3 tetriamonds and 4 pentiamonds: %s)' % (n, listed))
    if 'Hexiamonds' in names:
        return 'the %d free hexiamonds (%s)' % (n, listed)
    return '%d polyiamonds (%s)' % (n, listed)


def record(pp, doc, name, count, words, title, modname, cls, script, old):
    p = cls(init_puzzle=False)
    coords, raw = puzzle_cells(p, (0, 0, 0))
    syms = lattice_symmetries('Triangular3D')
    pieces, why = distinct_pieces(raw, coords, syms, 'polyiamond', 'triangles')
    if why is not None:
        return None, why
    catalog = catalog_entry(pp, p, cls, doc, count, words, title, None, modname, script,
                            file_name(name, SHORT), FINDINGS, old)
    description = (
        'Polyform Puzzler\'s %s: %s, each used once, fill a figure of %d triangles (%d up, %d '
        'down), a board one prism thick.%s' % (
            title_name(name), set_words(cls, [n for n, _ in pieces]), len(coords),
            sum(1 for c in coords if c[2] == 0), sum(1 for c in coords if c[2] == 1),
            ' Polyform Puzzler lists its solutions as incomplete.' if count is None else ''))
    return puzzle_file(name, description, 'prisms', art(coords),
                       [(n, art(cells)) for n, cells in pieces], catalog), None


def main():
    pp, out = sys.argv[1], sys.argv[2]
    cubesat = sys.argv[3] if len(sys.argv) > 3 else None
    limit = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
    sys.path.insert(0, pp)

    def puzzles():
        for doc, name, n, words, title in links(pp):
            modname, cls, script = puzzle_class(pp, name, ZERO, 'iamonds')
            why = expressible(cls, 'Polyiamonds', 'polyiamonds', 'triangular',
                              ": the colours of Kadon's Iamond Hex")
            yield doc, name, modname, cls, why, (
                lambda old, a=(pp, doc, name, n, words, title, modname, cls, script):
                record(*(a + (old,))))
    write_all(out, cubesat, limit, SHORT, puzzles())


if __name__ == '__main__':
    main()
