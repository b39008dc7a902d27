#!/usr/bin/env python3
"""Writes cubesat's rhombic-dodecahedron BurrTools test files (tests/data/burrtools/rhombic/); reruns give the same bytes.

BurrTools' grid 3 (gridType type="3"), src/lib/voxel_3.cpp: every cube of the cube lattice is
cut by its 6 diagonal planes (x = y, x = -y, y = z, ... through its centre) into 24 identical
tetrahedra, and those tetrahedra are the cells. Cube (i, j, k) is stored as the 5x5x5 block of
voxels 5i .. 5i+4, 5j .. 5j+4, 5k .. 5k+4 (index x + sx * (y + sy * z) in the voxel string, x
fastest), and its 24 tetrahedra are the voxels (5i + a, 5j + b, 5k + c) for which, after
folding each of a, b, c by v -> 4 - v when v > 2, one is 0, one is 1 and one is 2
(voxel_3_c::validCoordinate): 4 voxels in a diamond on each face of the block. Every other
voxel of the block is always empty.
- The coordinate that is 0 or 4 names the cube face the tetrahedron stands on (0: the low face
  of that axis, 4: the high one); the coordinate that is 1 or 3 names the edge of that face it
  touches (1: the low edge, 3: the high one); the coordinate that is 2 runs along that edge.
  The tetrahedron's corners are the cube's centre, that face's centre and the two ends of that
  edge (tabs_3/generator_mesh_3.cpp: voxel (2, 1, 0) is (0,0,0) (2,0,0) (1,1,1) (1,1,0) in a
  cube of side 2). With cubes of side 1, its centroid is the cube's centre + 3/8 towards the
  face + 1/4 towards the edge; here centroids are handled times 8 (all integers).
- Face neighbours (voxel_3_c::getNeighbor, typ 0; ported below): the two other tetrahedra of
  the same face pyramid, the one on the neighbouring face across the same edge, and the one in
  the next cube across the face.
- A rhombic dodecahedron is 48 cells: the 24 of a cube (i, j, k) with i + j + k even and the 4
  of each of its 6 neighbours' pyramids that face it. Rhombic dodecahedra of face-adjacent
  FCC points (i, j, k) touch by a face, so polyrhombic pieces here are the sphere grid's
  polyspheres (make_spheres.py's layer frame maps ball (i, j) of square layer k to cube
  (i + j + k, i - j, k)).
- Shapes move only by whole blocks (voxel_3_c::onGrid: the offset is a multiple of 5) and
  turn by the cube's 24 rotations (48 with mirrors), applied to a box padded to a multiple of
  5 (voxel_3_c::transform, then voxel_0_c::transform). voxel_3_c::minimizePiece keeps each
  axis's offset modulo 5 and pads the box to a multiple of 5; shapes are written here the same
  way: whole blocks from 0.
Every piece is checked to be face-connected with those neighbour rules. The expected counts
come from BurrTools 0.7.1's burrTxt and burrTxt2 (built outside the project; see
tests/data/burrtools/rhombic/counts.txt for the commands), not from cubesat.
"""
import itertools, os, sys

# Scripts are run by hand from anywhere: the shared writer beside them, and no __pycache__ left
# in the tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xmpuzzle  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rhombic')


def valid(x, y, z):
    """voxel_3_c::validCoordinate (for x, y, z >= 0)."""
    f = [v % 5 for v in (x, y, z)]
    f = [4 - v if v > 2 else v for v in f]
    return 0 in f and 1 in f and 2 in f


def _toggle(a, b, as_, bs):
    """coordinateToggling in voxel_3.cpp."""
    if a == 0:
        return (as_ + 1, bs - 1) if b == 1 else (as_ + 1, bs + 1)
    if a == 1:
        return (as_ - 1, bs + 1) if b == 0 else (as_ - 1, bs - 1)
    if a == 3:
        return (as_ + 1, bs + 1) if b == 0 else (as_ + 1, bs - 1)
    return (as_ - 1, bs - 1) if b == 1 else (as_ - 1, bs + 1)


def neighbours(c):
    """voxel_3_c::getNeighbor, typ 0, idx 0 .. 3."""
    x, y, z = c
    xc, yc, zc = x // 5, y // 5, z // 5
    xs, ys, zs = x - 5 * xc, y - 5 * yc, z - 5 * zc
    out = []
    for d in (-1, 1):  # idx 0 (d = -1) and idx 1 (d = +1)
        xn, yn, zn = x, y, z
        if xs in (0, 4):
            yn = y + d if ys == 2 else 5 * yc + 2
            zn = z + d if zs == 2 else 5 * zc + 2
        elif ys in (0, 4):
            xn = x + d if xs == 2 else 5 * xc + 2
            zn = z + d if zs == 2 else 5 * zc + 2
        else:
            xn = x + d if xs == 2 else 5 * xc + 2
            yn = y + d if ys == 2 else 5 * yc + 2
        out.append((xn, yn, zn))
    xn, yn, zn = x, y, z  # idx 2: across the cube face
    if xs == 0: xn = x - 1
    if xs == 4: xn = x + 1
    if ys == 0: yn = y - 1
    if ys == 4: yn = y + 1
    if zs == 0: zn = z - 1
    if zs == 4: zn = z + 1
    out.append((xn, yn, zn))
    xn, yn, zn = x, y, z  # idx 3: across the edge, same cube
    if xs == 2: yn, zn = _toggle(ys, zs, y, z)
    if ys == 2: xn, zn = _toggle(xs, zs, x, z)
    if zs == 2: xn, yn = _toggle(xs, ys, x, y)
    out.append((xn, yn, zn))
    return out


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


# Centroids times 8: per axis 8 * block + (1, 2, 4, 6, 7) for in-block coordinate (0, 1, 2, 3, 4).
TO8 = {0: 1, 1: 2, 2: 4, 3: 6, 4: 7}
FROM8 = {v: k for k, v in TO8.items()}


def centroid8(c):
    return tuple(8 * (v // 5) + TO8[v % 5] for v in c)


def from8(p):
    return tuple(5 * (v // 8) + FROM8[v % 8] for v in p)


def cube_cells(i, j, k):
    return [(5 * i + a, 5 * j + b, 5 * k + c) for a in range(5) for b in range(5) for c in range(5) if valid(a, b, c)]


def cells_where(inside, lo=-4, hi=8):
    """Every cell whose centroid (times 8) satisfies inside, in cubes lo .. hi-1 of each axis."""
    out = []
    for i, j, k in itertools.product(range(lo, hi), repeat=3):
        for c in cube_cells(i, j, k):
            if inside(*centroid8(c)):
                out.append(c)
    return out


def normalize(cells):
    """Shift by whole blocks so the lowest block of each axis is 0 (voxel_3_c::minimizePiece)."""
    m = [min(c[a] for c in cells) // 5 * 5 for a in range(3)]
    return {(x - m[0], y - m[1], z - m[2]): s for (x, y, z), s in cells.items()}


def shape(cells, state='#'):
    cells = {c: state for c in cells} if not isinstance(cells, dict) else cells
    assert all(valid(*c) for c in cells)
    assert connected(cells), sorted(cells)
    return normalize(cells)


def rotations():
    """The 24 rotations and 24 improper transforms of the cube as (permutation, signs)."""
    proper, improper = [], []
    for perm in itertools.permutations(range(3)):
        psign = 1 if perm in ((0, 1, 2), (1, 2, 0), (2, 0, 1)) else -1
        for signs in itertools.product((1, -1), repeat=3):
            (proper if psign * signs[0] * signs[1] * signs[2] == 1 else improper).append((perm, signs))
    return proper, improper


PROPER, IMPROPER = rotations()


def transform(cells, t):
    perm, signs = t
    out = {}
    for c, s in cells.items():
        p = centroid8(c)
        out[from8(tuple(signs[a] * p[perm[a]] for a in range(3)))] = s
    return normalize(out)


def canonical(cells):
    return min(tuple(sorted(transform(cells, t).items())) for t in PROPER)


def mirror(cells):
    return transform(cells, ((0, 1, 2), (-1, 1, 1)))


def chiral(cells):
    return canonical(cells) != canonical(mirror(cells))


# Rhombic dodecahedra.
def rd_inside(c):
    """The rhombic dodecahedron around the centre of cube c (i + j + k even), centroids times 8."""
    cx, cy, cz = (8 * v + 4 for v in c)
    return lambda x, y, z: (abs(x - cx) + abs(y - cy) < 8 and abs(y - cy) + abs(z - cz) < 8
                            and abs(x - cx) + abs(z - cz) < 8)


def rd_cells(c):
    assert sum(c) % 2 == 0
    out = cells_where(rd_inside(c), min(c) - 1, max(c) + 2)
    assert len(out) == 48
    return out


def rds(centres, state='#'):
    """A polyrhombic shape: the rhombic dodecahedra around the centres of the cubes given; state
    is '#', '+' or a function of the centre."""
    out = {}
    for c in centres:
        for v in rd_cells(c):
            out[v] = state if isinstance(state, str) else state(c)
    return shape(out)


def ball(i, j, k):
    """make_spheres.py's layer frame: ball (i, j) of square layer k."""
    return (i + j + k, i - j, k)


def balls(cells, state='#'):
    return rds([ball(*c) for c in cells], state)


def layers(art):
    """Layer art (bottom layer first, rows of '#', '+', '.') -> {layer ball: state}."""
    out = {}
    for k, rows in enumerate(art):
        for j, row in enumerate(rows):
            for i, ch in enumerate(row):
                if ch in '#+':
                    out[(i, j, k)] = ch
    return out


def art_balls(art):
    cells = {ball(*l): s for l, s in layers(art).items()}
    return rds(list(cells), state=lambda c: cells[c])


def pyramid(n):
    return [['#' * (n - k)] * (n - k) for k in range(n)]


def tetra(n):
    return [[('.' * (n - 1 - k) + '#' * (k + 1)) for _ in range(n - k)] for k in range(n)]


def tri_board(n):
    return [[('.' * (n - 1)) + '#' for _ in range(n - k)] for k in range(n)]


# Parts of a cube (cube (0, 0, 0), centroids times 8 from 0 to 8).
def cube(i=0, j=0, k=0):
    return cube_cells(i, j, k)


def in_cube(pred, i=0, j=0, k=0):
    return [c for c in cube_cells(i, j, k) if pred(*(v - 8 * w - 4 for v, w in zip(centroid8(c), (i, j, k))))]


FACE_PYRAMID = in_cube(lambda x, y, z: z < -abs(x) and z < -abs(y))               # 4 cells: the pyramid on the low z face
CORNER_PYRAMID = in_cube(lambda x, y, z: x > y and x > z)                         # 8 cells: the high x face up to the low corner
PRISM_HALF = in_cube(lambda x, y, z: x > y)                                        # 12 cells: half a cube cut by x = y
assert (len(FACE_PYRAMID), len(CORNER_PYRAMID), len(PRISM_HALF)) == (4, 8, 12)


def rhombohedron():
    """One of the 4 rhombohedra a rhombic dodecahedron splits into: centroid with x + y, y + z, x + z > 0."""
    return [c for c in rd_cells((0, 0, 0)) if (lambda x, y, z: x + y > 0 and y + z > 0 and x + z > 0)(*(v - 4 for v in centroid8(c)))]


def puzzle(shapes, problems, comment):
    for name, cells in shapes:
        assert connected(cells), name
        assert normalize(cells) == cells, name
    return xmpuzzle.puzzle(3, shapes, problems, comment, block=5)


# Polyrhombic pieces (the sphere grid's pieces, in make_spheres.py's layer frame).
MONO = balls([(0, 0, 0)])
PAIR = balls([(0, 0, 0), (1, 0, 0)])
LINE3 = balls([(0, 0, 0), (1, 0, 0), (2, 0, 0)])
LINE4 = balls([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)])
L3 = balls([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
TRI3 = balls([(0, 0, 0), (1, 0, 0), (0, 0, 1)])
V3 = balls([(0, 0, 0), (1, 0, 0), (1, 0, 1)])
TETRA4 = balls([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)])
SQUARE4 = balls([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)])
L4 = balls([(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)])
RHOMB4 = balls([(0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1)])
TRAP4 = balls([(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 0, 1)])
SKEW4 = balls([(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)])
SKEW4M = balls([(0, 0, 0), (1, 0, 0), (1, -1, 0), (1, -2, 1)])
assert chiral(SKEW4) and canonical(SKEW4M) == canonical(mirror(SKEW4)) and not chiral(L4)

# Pieces smaller than a rhombic dodecahedron.
RD = rds([(0, 0, 0)])
CUBE = shape(cube())
FPYR = shape(FACE_PYRAMID)
CPYR = shape(CORNER_PYRAMID)
HALF = shape(PRISM_HALF)
RHO = shape(rhombohedron())
assert len(RHO) == 12 and not chiral(RHO)
CUBE_FPYR = shape(cube() + in_cube(lambda x, y, z: x < -abs(y) and x < -abs(z), 1, 0, 0))   # a cube with one pyramid on a face
RD_HALF = shape([c for c in rd_cells((0, 0, 0)) if centroid8(c)[0] < centroid8(c)[1]])     # half a rhombic dodecahedron (cut by x = y)
CUBE2 = shape(cube() + cube(1, 0, 0))
# Two face-adjacent cells: in the same face pyramid, across a cube edge (same cube), across a cube face.
DIMER_PYRAMID = shape([(2, 1, 0), (1, 2, 0)])
DIMER_EDGE = shape([(2, 1, 0), (2, 0, 1)])
DIMER_FACE = shape([(2, 1, 0), (2, 1, -1)])
TRIMER_PYRAMID = shape([(2, 1, 0), (1, 2, 0), (2, 3, 0)])
assert len({canonical(p) for p in (DIMER_PYRAMID, DIMER_EDGE, DIMER_FACE)}) == 3
assert all(b in neighbours(a) for a, b in ([(2, 1, 0), (1, 2, 0)], [(2, 1, 0), (2, 0, 1)], [(2, 1, 0), (2, 1, -1)]))

FILES = {}

FILES['r01_pyramid5.xmpuzzle'] = puzzle(
    [('pair', PAIR), ('tri3', TRI3), ('pyramid5', art_balls(pyramid(2))), ('mono', MONO)],
    [dict(name='pair + triangle into the 5-RD square pyramid', parts=[(0, 1), (1, 1)], result=2),
     dict(name='two pairs and a single RD', parts=[(0, 2), (3, 1)], result=2)],
    'Square pyramid of 5 rhombic dodecahedra (make_spheres.py s01).')
FILES['r02_tri_board10.xmpuzzle'] = puzzle(
    [('mono', MONO), ('line3', LINE3), ('v3', V3), ('tri3', TRI3), ('board', art_balls(tri_board(4)))],
    [dict(name='flat pieces into a triangle of side 4 in a {111} plane', parts=[(0, 1), (1, 1), (2, 1), (3, 1)], result=4),
     dict(name='three lines and an RD', parts=[(0, 1), (1, 3)], result=4)],
    'A board of rhombic dodecahedra in a {111} plane (make_spheres.py s02).')
FILES['r03_square_board.xmpuzzle'] = puzzle(
    [('L3', L3), ('line3', LINE3), ('L4', L4), ('square', art_balls([['####', '####', '####']])), ('pair', PAIR)],
    [dict(name='four L3 into a 4x3 layer', parts=[(0, 4)], result=3),
     dict(name='L3 x2, line3 x2 into a 4x3 layer', parts=[(0, 2), (1, 2)], result=3),
     dict(name='L4 x2, pair x2 into a 4x3 layer', parts=[(2, 2), (4, 2)], result=3)],
    'A flat board of rhombic dodecahedra in one square layer (make_spheres.py s03).')
FILES['r04_tetra10.xmpuzzle'] = puzzle(
    [('tri3', TRI3), ('v3', V3), ('line3', LINE3), ('mono', MONO), ('tetra4', TETRA4), ('tetra10', art_balls(tetra(3)))],
    [dict(name='three triangles and an RD', parts=[(0, 3), (3, 1)], result=5),
     dict(name='V3, line3, tri3 and an RD', parts=[(1, 1), (2, 1), (0, 1), (3, 1)], result=5),
     dict(name='tetra4, V3 and line3', parts=[(4, 1), (1, 1), (2, 1)], result=5)],
    'The tetrahedron of 10 rhombic dodecahedra (make_spheres.py s05).')
FILES['r05_chiral.xmpuzzle'] = puzzle(
    [('skew', SKEW4), ('skew_m', SKEW4M), ('pair', PAIR), ('box', art_balls([['###', '###'], ['###', '###']]))],
    [dict(name='skew x2, pair x2 (no mirror partner)', parts=[(0, 2), (2, 2)], result=3),
     dict(name='skew, its mirror image, pair x2', parts=[(0, 1), (1, 1), (2, 2)], result=3)],
    'A chiral polyrhombic piece with and without its mirror image (make_spheres.py s07).')
FILES['r06_ranges.xmpuzzle'] = puzzle(
    [('pair', PAIR), ('tri3', TRI3), ('line3', LINE3), ('holes', art_balls([['++#', '###'], ['+##', '##+']]))],
    [dict(name='ranges into a target with optional RDs', parts=[(0, 0, 3), (1, 0, 2), (2, 0, 1)], result=3)],
    'Ranges (min..max) and + rhombic dodecahedra (all 48 cells +) in the result (make_spheres.py s08).')
FILES['r07_cube_parts.xmpuzzle'] = puzzle(
    [('face_pyramid', FPYR), ('corner_pyramid', CPYR), ('half_cube', HALF), ('cube', CUBE), ('rd', RD),
     ('cube2', CUBE2)],
    [dict(name='six face pyramids into a cube', parts=[(0, 6)], result=3),
     dict(name='three square pyramids (apex at a corner) into a cube', parts=[(1, 3)], result=3),
     dict(name='two half cubes into a cube', parts=[(2, 2)], result=3),
     dict(name='a cube and six face pyramids into a rhombic dodecahedron', parts=[(3, 1), (0, 6)], result=4),
     dict(name='corner pyramids 0..6, half cubes 0..4 into two cubes', parts=[(1, 0, 6), (2, 0, 4)], result=5)],
    'Pieces smaller than a cell of the rhombic dodecahedron honeycomb.')
FILES['r08_rd_parts.xmpuzzle'] = puzzle(
    [('rhombohedron', RHO), ('rd_half', RD_HALF), ('rd', RD), ('cube_pyramid', CUBE_FPYR), ('face_pyramid', FPYR)],
    [dict(name='four rhombohedra into a rhombic dodecahedron', parts=[(0, 4)], result=2),
     dict(name='two halves into a rhombic dodecahedron', parts=[(1, 2)], result=2),
     dict(name='a cube with a pyramid, five pyramids', parts=[(3, 1), (4, 5)], result=2),
     dict(name='two rhombohedra and a half', parts=[(0, 2), (1, 1)], result=2)],
    'Rhombic dodecahedra split into rhombohedra and halves.')
FILES['r09_lines.xmpuzzle'] = puzzle(
    [('line4', LINE4), ('line3', LINE3), ('pair', PAIR), ('box', art_balls([['####', '####', '####'], ['####', '####', '####']]))],
    [dict(name='lines of 4 x6 into a 4x3x2 layer box', parts=[(0, 6)], result=3),
     dict(name='line4 x3, line3 x4', parts=[(0, 3), (1, 4)], result=3)],
    'Straight lines of rhombic dodecahedra in a box of two layers (make_spheres.py s09).')
FILES['r10_square4.xmpuzzle'] = puzzle(
    [('square4', SQUARE4), ('L4', L4), ('tetra4', TETRA4), ('pair', PAIR), ('pyr', art_balls(pyramid(3)))],
    [dict(name='L4 x2, square4 0..1, tetra4 0..1, pair 1..3 into the 14-RD pyramid', parts=[(1, 2), (0, 0, 1), (2, 0, 1), (3, 1, 3)], result=4)],
    'Pieces of four rhombic dodecahedra with ranges into the 14-RD pyramid (make_spheres.py s10).')
FILES['r11_tetra20.xmpuzzle'] = puzzle(
    [('tetra4', TETRA4), ('rhomb4', RHOMB4), ('line4', LINE4), ('trap4', TRAP4), ('tetra20', art_balls(tetra(4)))],
    [dict(name='tetra4, rhomb4 x2, trap4 x2', parts=[(0, 1), (1, 2), (3, 2)], result=4),
     dict(name='rhomb4 x3, trap4 x2', parts=[(1, 3), (3, 2)], result=4)],
    'The tetrahedron of 20 rhombic dodecahedra (make_spheres.py s06).')
FILES['r12_dimers.xmpuzzle'] = puzzle(
    [('dimer_pyramid', DIMER_PYRAMID), ('dimer_edge', DIMER_EDGE), ('dimer_face', DIMER_FACE), ('cube', CUBE),
     ('rd', RD), ('trimer_pyramid', TRIMER_PYRAMID), ('face_pyramid', FPYR)],
    [dict(name='twelve pyramid dimers into a cube', parts=[(0, 12)], result=3),
     dict(name='pyramid dimers 0..12, edge dimers 0..12 into a cube', parts=[(0, 0, 12), (1, 0, 12)], result=3),
     dict(name='face dimers 0..24, pyramid dimers 0..24 into a rhombic dodecahedron', parts=[(2, 0, 24), (0, 0, 24)], result=4),
     dict(name='eight pyramid trimers into a cube', parts=[(5, 8)], result=3),
     dict(name='pyramid trimers 0..16, face pyramids 0..12 into a rhombic dodecahedron', parts=[(5, 0, 16), (6, 0, 12)], result=4)],
    'Pieces of two and three cells (tetrahedra) of the grid.')


def main():
    xmpuzzle.write_all(HERE, FILES)


if __name__ == '__main__':
    main()
