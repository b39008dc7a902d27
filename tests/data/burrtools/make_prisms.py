#!/usr/bin/env python3
"""Writes cubesat's triangular-prism BurrTools test files (tests/data/burrtools/prisms/); reruns give the same bytes.

BurrTools' grid 1 (gridType type="1"): triangular prisms, stored in the cube grid's voxel
strings (index x + sx * (y + sy * z), x fastest) with every voxel a cell. Cell (x, y, z) is the
prism over the triangle x of row y, in layer z (src/lib/voxel_1.cpp):
- it points up (base below, apex above) when x + y is even, down when x + y is odd;
- with triangles of side 1 its centroid is (0.5 + 0.5 x, y h + h/3, z) for an up triangle and
  (0.5 + 0.5 x, y h + 2h/3, z) for a down one, h = sqrt(3)/2 (voxel_1_c::transform); so the
  triangles of a row alternate up, down, up... and the point (0, 0) is a lattice vertex;
- its face neighbours (voxel_1_c::getNeighbor, typ 0) are (x - 1, y, z), (x + 1, y, z),
  (x, y, z - 1), (x, y, z + 1), and (x, y - 1, z) for an up triangle (across its base),
  (x, y + 1, z) for a down one;
- a shape's box must keep each cell's orientation: BurrTools moves a shape only by (dx, dy)
  with dx + dy even, and voxel_1_c::minimizePiece leaves one empty column at x = 0 when the
  cells' lowest x and lowest y have an odd sum. Shapes are written here in that minimal box.
- its 24 transformations (tabs_1/rotmatrix.inc) are the 12 rotations of a hexagonal prism
  (6 about the vertical axis, 6 half turns about horizontal axes) and their mirror images;
  a flat piece can be turned over, so one-layer pieces are free polyiamonds.
Every piece is checked to be face-connected with those neighbour rules. The expected counts
come from BurrTools 0.7.1's burrTxt and burrTxt2 (built outside the project; see
tests/data/burrtools/prisms/counts.txt for the commands), not from cubesat; its disassembler's
results (burrTxt -d) are in tests/data/burrtools/prisms/disassembly.txt.
"""
import math, os, sys

# Scripts are run by hand from anywhere: the shared writer beside them, and no __pycache__ left
# in the tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xmpuzzle  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'prisms')
H = math.sqrt(0.75)


def neighbours(c):
    """voxel_1_c::getNeighbor, typ 0 (face neighbours)."""
    x, y, z = c
    t = -1 if (x + y) & 1 else 1
    return [(x - 1, y, z), (x + 1, y, z), (x, y, z - 1), (x, y, z + 1), (x, y - t, z)]


def connected(cells):
    cells = set(cells)
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def normalize(cells):
    """{cell: state} moved to the minimal box that keeps every cell's orientation."""
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    mz = min(c[2] for c in cells)
    if (mx + my) % 2:
        mx -= 1
    return {(x - mx, y - my, z - mz): s for (x, y, z), s in cells.items()}


def centroid(c):
    x, y, z = c
    return (0.5 + 0.5 * x, y * H + (2 * H / 3 if (x + y) & 1 else H / 3), z)


def cell_at(p):
    X, Y, Z = p
    x = int(round(2 * X - 1))
    f = Y / H
    y = math.floor(f)
    assert abs((f - y) - (2 / 3 if (x + y) & 1 else 1 / 3)) < 1e-6, p
    return (x, y, int(round(Z)))


def transform(cells, k, mirror, flip):
    """Rotate by k * 60 degrees about the vertical axis through (0, 0) after mirroring x and/or z."""
    a = k * math.pi / 3
    ca, sa = math.cos(a), math.sin(a)
    out = {}
    for c, s in cells.items():
        X, Y, Z = centroid(c)
        if mirror:
            X = -X
        if flip:
            Z = -Z
        out[cell_at((ca * X - sa * Y, sa * X + ca * Y, Z))] = s
    return normalize(out)


def key(cells):
    return tuple(sorted(cells.items()))


def orientations(cells):
    """The distinct placements-up-to-translation of a shape under the 12 rotations."""
    return {key(transform(cells, k, m, m)) for k in range(6) for m in (False, True)}


def canonical(cells):
    return min(orientations(cells))


def mirror(cells):
    return transform(cells, 0, True, False)


def chiral(cells):
    return canonical(cells) != canonical(mirror(cells))


def shape(cells, state='#'):
    cells = {c: state for c in cells} if not isinstance(cells, dict) else cells
    assert connected(cells), cells
    return normalize(cells)


def art(layers):
    """Layers (bottom first) of rows (y = 0 first) of characters (x = 0 first): '#', '+' or '.'."""
    out = {}
    for z, rows in enumerate(layers):
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch in '#+':
                    out[(x, y, z)] = ch
    return shape(out)


def region_cells(inside, span=12):
    """The (x, y) of the triangles whose centroid (X, Y) satisfies inside, unmoved."""
    out = set()
    for y in range(-span, span):
        for x in range(-2 * span, 2 * span):
            X, Y, _ = centroid((x, y, 0))
            if inside(X, Y):
                out.add((x, y))
    return out


def region(inside, layers=1, state='#'):
    """The cells of layers 0 .. layers-1 whose triangle's centroid (X, Y) satisfies inside."""
    return shape({(x, y, z): state for (x, y) in region_cells(inside) for z in range(layers)})


S3 = math.sqrt(3)


def in_hexagon(n):
    return lambda X, Y: abs(Y) < n * H and abs(X) + abs(Y) / S3 < n


def hexagon(n, layers=1):
    """The hexagon of side n around the vertex (0, 0): 6 n^2 triangles per layer."""
    r = region(in_hexagon(n), layers)
    assert len(r) == 6 * n * n * layers
    return r


def triangle(n, layers=1):
    """The triangle of side n with its base on y = 0 from (0, 0) to (n, 0): n^2 triangles per layer."""
    r = region(lambda X, Y: Y > 0 and Y < S3 * X and Y < S3 * (n - X), layers)
    assert len(r) == n * n * layers
    return r


def parallelogram(a, b, layers=1):
    """a rhombi along x, b rows, leaning right: 2 a b triangles per layer."""
    r = region(lambda X, Y: 0 < Y < b * H and 0 < X - Y / S3 < a, layers)
    assert len(r) == 2 * a * b * layers
    return r


def with_layers(cells, layers):
    return shape({(x, y, z + k): s for (x, y, z), s in cells.items() for k in range(layers)})


def polyiamonds(n):
    """The free n-iamonds in layer 0, sorted by their canonical form."""
    found = {canonical({(0, 0, 0): '#'})}
    for _ in range(n - 1):
        grown = set()
        for f in found:
            cells = dict(f)
            for c in list(cells):
                for m in neighbours(c):
                    if m[2] == 0 and m not in cells:
                        grown.add(canonical(normalize({**cells, m: '#'})))
        found = grown
    return [dict(f) for f in sorted(found)]


def puzzle(shapes, problems, comment):
    for name, cells in shapes:
        assert connected(cells), name
        assert normalize(cells) == cells, name
    return xmpuzzle.puzzle(1, shapes, problems, comment)


# Flat pieces (one layer).
TRI = shape({(0, 0, 0)})
DIAMOND = art([['##']])
TRIAMOND = art([['###']])
TETRIAMONDS = polyiamonds(4)
PENTIAMONDS = polyiamonds(5)
HEXIAMONDS = polyiamonds(6)
assert [len(polyiamonds(n)) for n in (1, 2, 3)] == [1, 1, 1]
assert (len(TETRIAMONDS), len(PENTIAMONDS), len(HEXIAMONDS)) == (3, 4, 12)
I4 = art([['####']])
C4 = art([['.###', '...#']])
T4 = art([['###', '.#.']])
assert sorted(canonical(p) for p in (I4, C4, T4)) == sorted(canonical(p) for p in TETRIAMONDS)

# Prism pieces over more than one layer.
RHOMB2 = with_layers(DIAMOND, 2)                      # a diamond two layers high
STACK2 = with_layers(TRI, 2)                           # two prisms stacked
STACK3 = with_layers(TRI, 3)
STEP3 = art([['##'], ['#.']])                         # a diamond with a prism on one end
STEP3B = art([['##'], ['.#']])                        # the same, on the other (down) end
BAR_UP = art([['###'], ['#..']])                      # a triamond with a prism on one end: chiral
BAR_UP_M = mirror(BAR_UP)
CORNER4 = art([['##'], ['#.'], ['#.']])                # a diamond with two prisms on one end
ZIG4 = art([['##.'], ['.##']])                         # diamond below, shifted diamond above
TOWER4 = art([['###'], ['.#.']])                       # a triamond with a prism on its middle
HEX2 = hexagon(1, 2)
assert chiral(BAR_UP) and chiral(ZIG4) and not chiral(STEP3) and not chiral(TOWER4)
assert not chiral(RHOMB2) and not chiral(CORNER4)



def caged(window=(), door=(), inner_layers=1):
    """A cage around the hexagon of 6 (as '+' cells, inner_layers high) inside the hexagon of 24:
    a floor (layer 0), walls, a lid; window: (x, y) left out of the lid, door: (x, y) left out of
    the walls (those become '+' cells of the result). Returns (cage, result)."""
    outer, inner = region_cells(in_hexagon(2)), region_cells(in_hexagon(1))
    top = inner_layers + 1
    cage = {}
    for (x, y) in outer:
        cage[(x, y, 0)] = '#'
        for z in range(1, top):
            if (x, y) not in inner and (x, y) not in door:
                cage[(x, y, z)] = '#'
        if (x, y) not in window:
            cage[(x, y, top)] = '#'
    result = dict(cage)
    for (x, y) in inner | set(door):
        for z in range(1, top):
            result[(x, y, z)] = '+'
    assert set(window) <= inner and not set(door) & inner
    assert all(any(n[:2] in inner for n in neighbours(d + (1,))) for d in door[:1])
    return shape(cage), shape(result)


# The hexagon of 6 is (-2 .. 0, -1 .. 0); (-1, 0), (0, 0) is a diamond in it, (1, 0), (2, 0) a
# diamond of the ring next to it.
WINDOW_CAGE, WINDOW_RESULT = caged(window=[(-1, 0), (0, 0)])
DOOR_CAGE, DOOR_RESULT = caged(door=[(1, 0), (2, 0)])
TALL_CAGE, TALL_RESULT = caged(window=[(-1, 0), (0, 0)], inner_layers=2)

FILES = {}

FILES['p01_hexagon.xmpuzzle'] = puzzle(
    [('diamond', DIAMOND), ('triamond', TRIAMOND), ('hexagon1', hexagon(1)), ('hexagon2', hexagon(2)),
     ('triangle', TRI), ('hexagon3', hexagon(3))],
    [dict(name='three diamonds into the hexagon of 6', parts=[(0, 3)], result=2),
     dict(name='two triamonds into the hexagon of 6', parts=[(1, 2)], result=2),
     dict(name='twelve diamonds into the hexagon of 24 (lozenge tilings)', parts=[(0, 12)], result=3),
     dict(name='eight triamonds into the hexagon of 24', parts=[(1, 8)], result=3),
     dict(name='diamonds and two triangles into the hexagon of 6', parts=[(0, 2), (4, 2)], result=2),
     dict(name='27 diamonds into the hexagon of 54 (980 lozenge tilings)', parts=[(0, 27)], result=5),
     dict(name='18 triamonds into the hexagon of 54', parts=[(1, 18)], result=5)],
    'One-layer hexagons: pieces turn over, so these are polyiamond tilings.')

FILES['p02_tetriamonds.xmpuzzle'] = puzzle(
    [('I4', I4), ('C4', C4), ('T4', T4), ('parallelogram3x2', parallelogram(3, 2)),
     ('triangle4', triangle(4)), ('hexagon2', hexagon(2)), ('triangle6', triangle(6))],
    [dict(name='the three tetriamonds into a 3x2 parallelogram', parts=[(0, 1), (1, 1), (2, 1)], result=3),
     dict(name='four tetriamonds of any kind into the triangle of side 4', parts=[(0, 0, 4), (1, 0, 4), (2, 0, 4)], result=4),
     dict(name='two of each tetriamond into the hexagon of 24', parts=[(0, 2), (1, 2), (2, 2)], result=5),
     dict(name='four T4 into the triangle of side 4', parts=[(2, 4)], result=4),
     dict(name='nine tetriamonds of any kind into the triangle of side 6', parts=[(0, 0, 9), (1, 0, 9), (2, 0, 9)], result=6)],
    'The three tetriamonds.')

FILES['p03_pentiamonds.xmpuzzle'] = puzzle(
    [('pent%d' % (i + 1), p) for i, p in enumerate(PENTIAMONDS)] +
    [('parallelogram5x2', parallelogram(5, 2)), ('triangle5', triangle(5))],
    [dict(name='the four pentiamonds into a 5x2 parallelogram', parts=[(0, 1), (1, 1), (2, 1), (3, 1)], result=4),
     dict(name='five pentiamonds, each kind 0..2 times, into the triangle of side 5', parts=[(0, 0, 2), (1, 0, 2), (2, 0, 2), (3, 0, 2)], result=5)],
    'The four pentiamonds.')

FILES['p04_hexiamonds.xmpuzzle'] = puzzle(
    [('hex%d' % (i + 1), p) for i, p in enumerate(HEXIAMONDS)] + [('hexagon2', hexagon(2))],
    [dict(name='four different hexiamonds into the hexagon of 24', parts=[(i, 0, 1) for i in range(12)], result=12)],
    'Hexiamonds with ranges: any four of the twelve.')

FILES['p05_hexprism.xmpuzzle'] = puzzle(
    [('rhomb2', RHOMB2), ('step3', STEP3), ('stack2', STACK2), ('hexprism2', HEX2), ('triamond', TRIAMOND),
     ('tower4', TOWER4)],
    [dict(name='three rhombic prisms into the hexagonal prism of two layers', parts=[(0, 3)], result=3),
     dict(name='four steps into the hexagonal prism', parts=[(1, 4)], result=3),
     dict(name='steps 0..4, stacks 0..6, triamonds 0..4 into the hexagonal prism', parts=[(1, 0, 4), (2, 0, 6), (4, 0, 4)], result=3),
     dict(name='three towers into the hexagonal prism', parts=[(5, 3)], result=3)],
    'A hexagonal prism two layers high (12 cells).')

FILES['p06_chiral.xmpuzzle'] = puzzle(
    [('bar_up', BAR_UP), ('bar_up_mirror', BAR_UP_M), ('hexprism2', HEX2), ('rhomb2', RHOMB2),
     ('box', parallelogram(2, 2, 2))],
    [dict(name='three chiral bars into the hexagonal prism', parts=[(0, 3)], result=2),
     dict(name='two chiral bars and one mirror image into the hexagonal prism', parts=[(0, 2), (1, 1)], result=2),
     dict(name='four chiral bars into a 2x2 parallelogram two layers high', parts=[(0, 4)], result=4),
     dict(name='two bars and two mirror bars into the 2x2x2 parallelogram box', parts=[(0, 2), (1, 2)], result=4),
     dict(name='bar, mirror bar, two rhombic prisms', parts=[(0, 1), (1, 1), (3, 2)], result=4)],
    'A chiral piece (a triamond with a prism on one end) with and without its mirror image.')

FILES['p07_tribox2.xmpuzzle'] = puzzle(
    [('triamond', TRIAMOND), ('step3', STEP3), ('stack2', STACK2), ('tribox2', triangle(3, 2)), ('diamond', DIAMOND)],
    [dict(name='six step pieces into the triangle of side 3, two layers', parts=[(1, 6)], result=3),
     dict(name='three triamonds and three steps', parts=[(0, 3), (1, 3)], result=3),
     dict(name='steps 0..6, triamonds 0..6', parts=[(0, 0, 6), (1, 0, 6)], result=3),
     dict(name='stacks 0..9 and diamonds 0..9', parts=[(2, 0, 9), (4, 0, 9)], result=3)],
    'The triangle of side 3, two layers high (18 cells).')

FILES['p08_tribox3.xmpuzzle'] = puzzle(
    [('stack3', STACK3), ('triamond', TRIAMOND), ('step3', STEP3), ('corner4', CORNER4), ('tribox3', triangle(3, 3)),
     ('tower4', TOWER4)],
    [dict(name='three stacks of three and six triamonds into the triangle of side 3, three layers', parts=[(0, 3), (1, 6)], result=4),
     dict(name='corner4 x3, step3 x5', parts=[(3, 3), (2, 5)], result=4),
     dict(name='tower4 x3, step3 x5', parts=[(5, 3), (2, 5)], result=4)],
    'The triangle of side 3, three layers high (27 cells).')

FILES['p09_holes.xmpuzzle'] = puzzle(
    [('diamond', DIAMOND), ('triamond', TRIAMOND), ('C4', C4),
     ('board', art([['+#####+', '.#####.'], ['.......', '.+###+.']]))],
    [dict(name='ranges into a board with optional cells', parts=[(0, 0, 6), (1, 0, 3), (2, 0, 2)], result=3)],
    'Optional (+) cells in the result and ranges of pieces.')

FILES['p10_zig.xmpuzzle'] = puzzle(
    [('zig4', ZIG4), ('zig4_mirror', mirror(ZIG4)), ('box', parallelogram(2, 2, 2)), ('hexprism2', HEX2),
     ('diamond', DIAMOND), ('stack2', STACK2)],
    [dict(name='four zigzags into the 2x2 parallelogram box', parts=[(0, 4)], result=2),
     dict(name='two zigzags and two mirror zigzags', parts=[(0, 2), (1, 2)], result=2),
     dict(name='zigzags 0..3, their mirrors 0..3, into the hexagonal prism', parts=[(0, 0, 3), (1, 0, 3)], result=3),
     dict(name='a zigzag, two diamonds and two stacks into the hexagonal prism', parts=[(0, 1), (4, 2), (5, 2)], result=3)],
    'A chiral zigzag (a diamond on a shifted diamond).')

FILES['p11_triangle_stacks.xmpuzzle'] = puzzle(
    [('T4', T4), ('T4x2', with_layers(T4, 2)), ('triangle4_2', triangle(4, 2)), ('stack2', STACK2),
     ('C4', C4), ('I4', I4)],
    [dict(name='four T4 prisms two layers high into the triangle of side 4, two layers', parts=[(1, 4)], result=2),
     dict(name='eight flat tetriamonds of any kind', parts=[(0, 0, 8), (4, 0, 8), (5, 0, 8)], result=2)],
    'Flat pieces in two layers.')

FILES['p12_window.xmpuzzle'] = puzzle(
    [('cage', WINDOW_CAGE), ('diamond', DIAMOND), ('triangle', TRI), ('triamond', TRIAMOND), ('result', WINDOW_RESULT)],
    [dict(name='two diamonds in a lidded hexagon with a diamond window', parts=[(0, 1), (1, 2)], result=4),
     dict(name='three triangles', parts=[(0, 1), (2, 3)], result=4),
     dict(name='a diamond and two triangles', parts=[(0, 1), (1, 1), (2, 2)], result=4),
     dict(name='a triamond and a triangle (the triamond cannot leave)', parts=[(0, 1), (3, 1), (2, 1)], result=4),
     dict(name='four triangles', parts=[(0, 1), (2, 4)], result=4)],
    'The box is a piece: a cage (floor, walls, lid with a window of two triangles) around a hexagon of '
    '6 empty (+) cells; the pieces inside must slide under the window to leave.')
FILES['p13_door.xmpuzzle'] = puzzle(
    [('cage', DOOR_CAGE), ('diamond', DIAMOND), ('triangle', TRI), ('triamond', TRIAMOND), ('result', DOOR_RESULT)],
    [dict(name='two diamonds in a closed hexagon with a door of two triangles', parts=[(0, 1), (1, 2)], result=4),
     dict(name='three triangles', parts=[(0, 1), (2, 3)], result=4),
     dict(name='two triamonds', parts=[(0, 1), (3, 2)], result=4)],
    'A cage with a door in its wall: the pieces leave sideways.')
FILES['p14_tall_window.xmpuzzle'] = puzzle(
    [('cage', TALL_CAGE), ('stack2', STACK2), ('step3', STEP3), ('triangle', TRI), ('diamond', DIAMOND),
     ('result', TALL_RESULT)],
    [dict(name='two stacks and a step in a cage two layers deep with a diamond window', parts=[(0, 1), (1, 2), (2, 1)], result=5),
     dict(name='a step, a diamond and two triangles', parts=[(0, 1), (2, 1), (4, 1), (3, 2)], result=5),
     dict(name='three stacks', parts=[(0, 1), (1, 3)], result=5)],
    'A cage two layers deep around a hexagon of 6; pieces over two layers leave through a window.')


def main():
    xmpuzzle.write_all(HERE, FILES)


if __name__ == '__main__':
    main()
