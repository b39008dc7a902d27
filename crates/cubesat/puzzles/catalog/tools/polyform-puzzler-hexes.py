"""Writes the catalog files of Polyform Puzzler's polyhex puzzles: those with published counts,
and those its documentation marks "solutions incomplete" (open counts).

Polyform Puzzler (David Goodger, GPL 2, http://puzzler.sourceforge.net/) is Python 2, so
this script runs under Python 2.7 and imports Polyform Puzzler's own puzzle classes: every
target cell and every piece comes from them, nothing is retyped. No Polyform Puzzler code is
copied into cubesat; what the files hold are the puzzles' cells (facts), with the source cited.

    python2.7 crates/cubesat/puzzles/catalog/tools/polyform-puzzler-hexes.py \\
        PUZZLER_DIR crates/cubesat/puzzles/catalog [CUBESAT [MAX_CPU_SECONDS]]

Which puzzles: every link "N solutions <../solutions/hexes/NAME.txt>" in the documentation
(docs/*.txt, the g4gX page last, each NAME once) and the figures Polyform Puzzler says have no
solution without linking a file (`ZERO` below): the order-7 triangle of the tetrahexes, which
the polyhexes page names, and seven tetrahex figures whose class docstrings say "0 solutions"
(Polyform Puzzler's `_x` classes, in its source only); NAME is also the front-end script
bin/hexes/NAME.py, which names the class (a script-like name for those of `ZERO`). Then every
link "solutions incomplete <../solutions/hexes/NAME.txt>" (all the pentahexes, orders 1-5, the
hexahexes' ring, four staggered rectangles and two knobbed hexagons of orders 1-4): written
with `published` null and `incomplete` (source, convention), never counted here; record.py
and the shard records of counts/ fill in their estimates and counts, which a rerun keeps.
Where a class's docstring gives another count than the page's (or none), a line `note` says so.
Kept are the puzzles cubesat expresses: one figure (one component), pieces that turn freely,
every solution counted (left out: one-sided sets, since on a board one cell thick turning a
piece over is a turn in space; classes that keep only the solutions meeting a rule of their
own, in `record_solution`; figures with secondary cells). Polyform Puzzler's symmetry
restrictions (fewer aspects for one piece in `customize_piece_data`, or
`check_for_duplicates`) only break the figure's symmetry: the files give every piece every
orientation and cubesat counts in its modes instead.

The grid: a board of hexagons one layer thick is a layer of hexagonal prisms, cubesat's
`"grid": "hexagons"`, typed as layer art (crates/cubesat/src/geometry/hexagon.rs): cell
[X, j] is hexagon X of art row j (top row first), its centre at (X + j/2, -j*sqrt(3)/2), so
each row starts half a hexagon right of the row above. Polyform Puzzler's hexagon (x, y)
(puzzler/coordsys.py, Hexagonal2D: the x axis along a row, the y axis at 60 degrees to it;
its pictures, format_hex_grid and get_path_segments, put the centre at (x + y/2,
y*sqrt(3)/2)) lies in row y counted upward, each row starting half a hexagon right of the row
below; so

    X = x + y - min(x + y),   j = max(y) - y,

a translation of the plane (the centre (x + y/2, y*sqrt(3)/2) is (X + j/2, -j*sqrt(3)/2) plus
a constant): it keeps every adjacency (Hexagonal2D's six neighbours, counterclockwise from
the right: (x+1, y), (x, y+1), (x-1, y+1), (x-1, y), (x, y-1), (x+1, y-1), are the typed
moves [+1, 0], [+1, -1], [0, -1], [-1, 0], [-1, +1], [0, +1], counterclockwise from the right
too) and the picture's handedness. A rhombus (coordinates_parallelogram) becomes a slanted
band of art, X from j' to j' + width - 1 on the row j' = height - 1 - j from the bottom.
`check_frame` asserts this (the 7-hexagon is [".##", "###", "##."]) and the number of
polyhexes of orders 1 to 6 from Polyform Puzzler's own pieces and aspects: free 1, 1, 3, 7,
22, 82 (under Hexagonal2D's rotate0 and flip0), fixed 1, 3, 11, 44, 186, 814 (their
aspects in all 12 orientations); with CUBESAT, also that `cubesat info` gives each of those
116 polyhexes as many orientations as Polyform Puzzler gives it aspects.

Each file is `catalog/FAMILY/NAME.json`, FAMILY the documentation page's name (`polyhexes`:
the tetrahexes, the trihexes and tetrahexes, and the polyhexes of orders 1-4 are parts of the
one page); NAME the script's name, shortened to 40 characters where longer (`SHORT`).
The published count is the page's "N solutions", read as up to rotation: Polyform Puzzler
lists each solution once up to the figure's symmetries (rotations and reflections in the
plane, the pieces being free), and on a board one prism thick a reflection in the plane is a
half turn in space, so that is cubesat's count up to rotation (`convention` says how the class
breaks the symmetry). A file that exists keeps its `catalog.cubesat` and `catalog.slow` (the
measured parts); a disagreement's finding is in `FINDINGS` below. With CUBESAT (a cubesat
binary that reads the hexagon grid), the puzzles without counts are counted: `solve --count
--threads 1` in the three modes and `--engine dlx` in the rotation mode, the four runs under
MAX_CPU_SECONDS of CPU together (default 60: each run gets what the earlier ones left; a
puzzle over it is left out and said so); `slow` when the four took more than ten CPU seconds.
A count that differs from the page's with no finding in `FINDINGS` leaves the puzzle out (the
reader refuses it), as does a puzzle with no counts (no CUBESAT and no earlier file). It
prints one line per puzzle, kept or left out with the reason, and the CPU seconds of the
counts it ran.
"""

from __future__ import print_function

import inspect
import io
import json
from collections import OrderedDict
import math
import os
import re
import subprocess
import sys
import tempfile

# The shared half lives beside this script (puzzler_flat.py); it is run by hand, so no .pyc is
# left in the tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from puzzler_flat import (  # noqa: E402
    canonical, catalog_entry, distinct_pieces, expressible, file_name, lattice_symmetries,
    page_links, puzzle_cells, puzzle_class, puzzle_file, section, title_name, write_all)

# The figures Polyform Puzzler says have no solution, without a link: (page, script-like
# name, module, class, words). With words the page's, found on the page; with words None the
# class's docstring ("0 solutions"), the figure being in no page: Polyform Puzzler's source
# (the `_x` classes, its record of the tetrahex figures that have no solution), cited with
# the page's section on the set.
ZERO = [
    ('polyhexes', 'tetrahexes-triangle-7', 'puzzler.puzzles.tetrahexes', 'Tetrahexes7x7Triangle',
     'there is no solution to the order-7 triangle using all seven tetrahexes'),
    ('polyhexes', 'tetrahexes-hexagon-x1', 'puzzler.puzzles.tetrahexes', 'TetrahexesHexagon_x1',
     None),
    ('polyhexes', 'tetrahexes-two-diamonds-x1', 'puzzler.puzzles.tetrahexes',
     'TetrahexesTwoDiamonds_x1', None),
    ('polyhexes', 'tetrahexes-rosettes-x1', 'puzzler.puzzles.tetrahexes',
     'TetrahexesRosettes_x1', None),
    ('polyhexes', 'tetrahexes-trefoil-x1', 'puzzler.puzzles.tetrahexes', 'TetrahexesTrefoil_x1',
     None),
    ('polyhexes', 'tetrahexes-trefoil-x2', 'puzzler.puzzles.tetrahexes', 'TetrahexesTrefoil_x2',
     None),
    ('polyhexes', 'tetrahexes-trefoil-x3', 'puzzler.puzzles.tetrahexes', 'TetrahexesTrefoil_x3',
     None),
    ('polyhexes', 'tetrahexes-trefoil-x4', 'puzzler.puzzles.tetrahexes', 'TetrahexesTrefoil_x4',
     None),
]
# Where the page's section on a set begins, for the docstring-only figures of ZERO.
SET_SECTION = {'Tetrahexes': 'The 7 tetrahexes total 28 hexagons.'}

# Shorter words for the names over 40 characters.
SHORT = [('elongated-hexagon', 'long-hexagon'), ('semi-regular', 'semiregular')]

# Findings on counts that differ from the page's, by file name: (verdict, matches, text).
# Settled by dancing links (cubesat --engine dlx), by Polyform Puzzler's own solver, run on
# the class (PYTHONPATH=PUZZLER_DIR python2.7 PUZZLER_DIR/bin/hexes/NAME.py) where it is
# quick, and otherwise by reproducing its count with cubesat: the class's restricted piece
# fixed by a hint in each placement its class allows, cubesat's counts of every placement
# added up. The two parallelograms of orders 1-4 cost more than the default cap (about 90
# and 190 CPU seconds for the four counts): they are written with MAX_CPU_SECONDS 200.
FINDINGS = {
    'tetrahexes-flower-2': (
        'source', None,
        'The page gives 4 solutions, as does the docstring of Polyform Puzzler\'s class '
        'TetrahexesFlower2 (puzzler/puzzles/tetrahexes.py). cubesat counts 2 up to rotation (8 '
        'in all: the figure has 4 symmetries in the plane, the half turn and two mirrors, and '
        'no solution is fixed by any), and dancing links counts the same. The class gives P4 '
        'three of its 12 orientations (rotations 0-2, not turned over), one per class of those '
        '4 symmetries, and Polyform Puzzler\'s solver, run on it, lists 2 (496 searches); run '
        'with P4 allowed to turn over (rotations 0-2 both ways up, which breaks only the half '
        'turn) it lists 4 (711 searches), each solution and its mirror image. The class came in '
        'commit f3bf633 (2013-07-01, in the tiwo/puzzler history) with "4 solutions", in the '
        'commit that also stopped turning P4 over in TetrahexesFlower1 and halved that '
        'figure\'s count from 4 to 2. The page\'s 4 is a slip.'),
    'polyhexes-1234-4x10': (
        'source', None,
        'The page gives 3,665,348 solutions, as does the docstring of Polyform Puzzler\'s class '
        'Polyhexes1234_4x10 (puzzler/puzzles/polyhexes1234.py). cubesat counts 7,404,530 up to '
        'rotation (14,809,060 in all: the parallelogram\'s one symmetry in the plane is the '
        'half turn, and no solution is fixed by it), and dancing links counts the same. The '
        'class gives P4 three of its 12 orientations (rotations 0-2, not turned over), which '
        'breaks the half turn but also drops every solution with P4 turned over, though no '
        'symmetry of the figure turns it back: the page counts only the solutions with P4 one '
        'way up. cubesat reproduces the 3,665,348 exactly: the sum, over the 58 placements of '
        'P4 in those three orientations, of cubesat\'s count of every placement with P4 fixed '
        'there (a hint). The class had broken the half turn by dropping duplicates '
        '(duplicate_conditions rotate_180) with the count open ("? (many) solutions") until '
        'commit 5630ed9 (2012-02-27, in the tiwo/puzzler history), which put in the P4 '
        'restriction and the count together. The page\'s count is of the wrong restriction.'),
    'polyhexes-1234-5x8': (
        'source', None,
        'The page gives 7,578,295 solutions, as does the docstring of Polyform Puzzler\'s class '
        'Polyhexes1234_5x8 (puzzler/puzzles/polyhexes1234.py). cubesat counts 15,176,820 up to '
        'rotation (30,353,640 in all: the parallelogram\'s one symmetry in the plane is the '
        'half turn, and no solution is fixed by it), and dancing links counts the same. The '
        'class gives P4 three of its 12 orientations (rotations 0-2, not turned over), which '
        'breaks the half turn but also drops every solution with P4 turned over, though no '
        'symmetry of the figure turns it back: the page counts only the solutions with P4 one '
        'way up. cubesat reproduces the 7,578,295 exactly: the sum, over the 63 placements of '
        'P4 in those three orientations, of cubesat\'s count of every placement with P4 fixed '
        'there (a hint). The class had broken the half turn by dropping duplicates '
        '(duplicate_conditions rotate_180) with the count open ("? (many) solutions") until '
        'commit 5630ed9 (2012-02-27, in the tiwo/puzzler history), which put in the P4 '
        'restriction and the count together. The page\'s count is of the wrong restriction.'),
}


def links(pp):
    """(doc, name, count, words, section, where) of every counted hex link, the g4gX page last,
    then the figures of `ZERO` (`where`: `page` or `docstring`, where the words are)."""
    for link in page_links(pp, 'hexes', incomplete=True):
        yield link + ('page',)
    for doc, name, modname, clsname, words in ZERO:
        text = io.open(os.path.join(pp, 'docs', doc + '.txt'), encoding='utf-8').read()
        if words is None:
            cls = getattr(__import__(modname, fromlist=[clsname]), clsname)
            words = docstring_count(cls)
            assert words == '0 solutions', (clsname, words)
            anchor = next(a for k, a in SET_SECTION.items()
                          if k in [b.__name__ for b in inspect.getmro(cls)])
            m = re.search(r'\s+'.join(re.escape(w) for w in anchor.split()), text)
            where = 'docstring'
        else:
            m = re.search(r'\s+'.join(re.escape(w) for w in words.split()), text)
            where = 'page'
        assert m, words
        yield doc, name, 0, words, section(text, m.start()), where


def docstring_count(cls):
    """The first line of the class's docstring (Polyform Puzzler's count there)."""
    return ' '.join((cls.__doc__ or '').strip().split('\n')[0].split())


def typed(cells):
    """Polyform Puzzler's hexagons (x, y) as cubesat's typed hexagon cells [X, j]."""
    ymax = max(y for _, y in cells)
    low = min(x + y for x, y in cells)
    return [(x + y - low, ymax - y) for x, y in cells]


def art(cells):
    """One layer of art, rows from the highest y down (as Polyform Puzzler draws them)."""
    t = set(typed(cells))
    jmax = max(j for _, j in t)
    width = max(X for X, _ in t) + 1
    return [''.join('#' if (X, j) in t else '.' for X in range(width))
            for j in range(jmax + 1)]


def typed_centre(X, j):
    """The centre of cubesat's typed hexagon [X, j] (hexagon.rs)."""
    return (X + j / 2.0, -j * math.sqrt(3) / 2)


def pp_centre(x, y):
    """The centre of Polyform Puzzler's hexagon (x, y), as its pictures draw it."""
    return (x + y / 2.0, y * math.sqrt(3) / 2)


def polyhex_sets():
    """(order, class) of Polyform Puzzler's sets of the free polyhexes of one order."""
    from puzzler.puzzles import polyhexes
    return [(1, polyhexes.Monohex), (2, polyhexes.Dihex), (3, polyhexes.Trihexes),
            (4, polyhexes.Tetrahexes), (5, polyhexes.Pentahexes), (6, polyhexes.Hexahexes)]


def check_frame(cubesat=None):
    """Asserts the map to cubesat's frame and the polyhex numbers (see the docstring)."""
    from puzzler import coordsys
    from puzzler.puzzles.polyhexes import Polyhexes
    # The map is a translation: every centre moves by one vector.
    cells = [(x, y) for x in range(-3, 4) for y in range(-3, 4)]
    moved = set()
    for (x, y), (X, j) in zip(cells, typed(cells)):
        a, b = pp_centre(x, y), typed_centre(X, j)
        moved.add((round(b[0] - a[0], 9), round(b[1] - a[1], 9)))
    assert len(moved) == 1, moved
    # Hexagonal2D's neighbours, counterclockwise from the right, are cubesat's six moves.
    turns = []
    for n in coordsys.Hexagonal2D((0, 0)).neighbors():
        (X0, j0), (X1, j1) = typed([(0, 0), tuple(n)])
        assert (X1 - X0, j1 - j0) in [(1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1)]
        cx, cy = typed_centre(X1 - X0, j1 - j0)
        turns.append(int(round(math.degrees(math.atan2(cy, cx)))) % 360)
    assert turns == [0, 60, 120, 180, 240, 300], turns
    assert art(list(Polyhexes.coordinates_hexagon(2))) == ['.##', '###', '##.']
    # Free and fixed polyhexes of orders 1 to 6.
    syms = lattice_symmetries('Hexagonal2D')
    free, fixed, orientations = [], [], OrderedDict()
    for order, cls in polyhex_sets():
        p = cls(init_puzzle=False)
        shapes = set()
        total = 0
        for name in sorted(p.piece_data):
            units = tuple(tuple(c) for c in p.piece_data[name][0])
            whole = ((0, 0),) + units if p.implied_0 else units
            assert len(set(whole)) == order, name
            shapes.add(canonical(list(whole), syms))
            n = len(p.make_aspects(units))
            orientations['%s' % name] = (list(whole), n)
            total += n
        free.append(len(shapes))
        fixed.append(total)
    assert free == [1, 1, 3, 7, 22, 82], free
    assert fixed == [1, 3, 11, 44, 186, 814], fixed
    if cubesat:
        check_orientations(cubesat, orientations)
    return free, fixed


def check_orientations(cubesat, orientations):
    """`cubesat info` gives each polyhex as many orientations as Polyform Puzzler aspects."""
    pieces = [OrderedDict([('name', name), ('layers', [art(cells)])])
              for name, (cells, _) in orientations.items()]
    volume = sum(len(cells) for cells, _ in orientations.values())
    width = 30
    rows = ['#' * width] * (volume // width) + (['#' * (volume % width)] if volume % width else [])
    obj = OrderedDict([('name', 'polyhexes of orders 1-6'), ('grid', 'hexagons'),
                       ('target', {'layers': [rows]}), ('pieces', pieces)])
    fd, path = tempfile.mkstemp(suffix='.json')
    try:
        with os.fdopen(fd, 'w') as f:
            json.dump(obj, f)
        out = subprocess.check_output([cubesat, 'info', path]).decode('utf-8')
    finally:
        os.remove(path)
    seen = 0
    for line in out.splitlines():
        m = re.match(r'\s+(\S+) \(\S+\)\s+(\d+)\s+(\d+)\s+(\d+)\s', line)
        if m and m.group(1) in orientations:
            assert int(m.group(4)) == orientations[m.group(1)][1], line
            seen += 1
    assert seen == len(orientations), (seen, out)


def set_words(cls, pieces):
    """The piece set in words, from the class's bases."""
    names = [k.__name__ for k in inspect.getmro(cls)]
    n = len(pieces)
    listed = ', '.join(pieces)
    if 'Polyhexes12345' in names:
        return ('the %d free polyhexes of orders 1 to 5 (the monohex, the dihex, 3 trihexes, '
                '7 tetrahexes and 22 pentahexes: %s)' % (n, listed))
    if 'Polyhexes1234' in names:
        return ('the %d free polyhexes of orders 1 to 4 (the monohex, the dihex, 3 trihexes and '
                '7 tetrahexes: %s)' % (n, listed))
    if 'Polyhexes34' in names:
        return 'the %d free trihexes and tetrahexes (%s)' % (n, listed)
    if 'Tetrahexes' in names:
        return 'the %d free tetrahexes (%s)' % (n, listed)
    if 'Pentahexes' in names:
        return 'the %d free pentahexes (%s)' % (n, listed)
    if 'Hexahexes' in names:
        return 'the %d free hexahexes (%s)' % (n, listed)
    return '%d polyhexes (%s)' % (n, listed)


def record(pp, doc, name, count, words, title, where, modname, cls, script, old):
    p = cls(init_puzzle=False)
    coords, raw = puzzle_cells(p, (0, 0))
    syms = lattice_symmetries('Hexagonal2D')
    pieces, why = distinct_pieces(raw, coords, syms, 'polyhex', 'hexagons')
    if why is not None:
        return None, why
    catalog = catalog_entry(pp, p, cls, doc, count, words, title, where, modname, script,
                            file_name(name, SHORT), FINDINGS, old)
    description = (
        'Polyform Puzzler\'s %s: %s, each used once, fill a figure of %d hexagons, a board one '
        'hexagonal prism thick.%s' % (
            title_name(name), set_words(cls, [n for n, _ in pieces]), len(coords),
            ' Polyform Puzzler lists its solutions as incomplete.' if count is None else ''))
    return puzzle_file(name, description, 'hexagons', art(coords),
                       [(n, art(cells)) for n, cells in pieces], catalog), None


def main():
    pp, out = sys.argv[1], sys.argv[2]
    cubesat = sys.argv[3] if len(sys.argv) > 3 else None
    limit = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
    sys.path.insert(0, pp)
    free, fixed = check_frame(cubesat)
    print('frame checked: free polyhexes of orders 1-6 %s, fixed %s%s' % (
        free, fixed, ', cubesat\'s orientations agree' if cubesat else ''))

    def puzzles():
        for doc, name, n, words, title, where in links(pp):
            modname, cls, script = puzzle_class(pp, name, ZERO, 'hexes')
            why = expressible(cls, 'Polyhexes', 'polyhexes', 'hexagonal')
            said = docstring_count(cls)
            c = re.match(r'(\d[\d,]*)\b', said)
            if n is not None and (int(c.group(1).replace(',', '')) if c else None) != n:
                print('note %s: the page says "%s", the class %s "%s"' % (
                    name, words, cls.__name__, said))
            yield doc, name, modname, cls, why, (
                lambda old, a=(pp, doc, name, n, words, title, where, modname, cls, script):
                record(*(a + (old,))))
    write_all(out, cubesat, limit, SHORT, puzzles())


if __name__ == '__main__':
    main()
