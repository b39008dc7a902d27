#!/usr/bin/env python3
"""Writes cubesat's tetrahedra-octahedra BurrTools test files (tests/data/burrtools/tetraocta/); reruns give the same bytes.

BurrTools' grid 4 (gridType type="4"), src/lib/voxel_4.cpp: the tetrahedral-octahedral
honeycomb, emulated with cubes. Cube (i, j, k) of the cube lattice (side 1) is the 3x3x3 block
of voxels 3i .. 3i+2, 3j .. 3j+2, 3k .. 3k+2 (index x + sx * (y + sy * z) in the voxel string,
x fastest). Each cube holds a regular tetrahedron (edge sqrt 2) between 4 of its corners and
4 small corner tetrahedra (the cube's other 4 corners, 1/6 of the cube each); those 5 are the
cells (voxel_4_c::validCoordinate):
- voxel (3i + 1, 3j + 1, 3k + 1), the block's centre: the regular tetrahedron; its centroid is
  the cube's centre;
- voxel (3i + a, 3j + b, 3k + c), a, b, c in {0, 2}: the corner tetrahedron at the cube's corner
  (i + a/2, j + b/2, k + c/2), where a + b + c is 2 or 6 in a cube with i + j + k even, 0 or 4
  when i + j + k is odd. Every other voxel of a block is always empty. Per axis a cell's
  centroid is block + (offset + 1) / 4 (offset 0, 1, 2), handled here times 4 (integers).
- The regular tetrahedra have their corners on the lattice points with an even coordinate sum;
  the 8 corner tetrahedra around a lattice point with an odd coordinate sum make one regular
  octahedron (edge sqrt 2). So the honeycomb's tetrahedra are single cells and its octahedra
  8 cells each; pieces here are mostly made of whole tetrahedra and octahedra, some of half
  octahedra (square pyramids, 4 cells).
- Face neighbours (voxel_4_c::getNeighbor, typ 0; ported below): a regular tetrahedron touches
  the 4 corner cells of its cube; a corner cell touches its cube's tetrahedron and the 3 corner
  cells of the same octahedron in the 3 cubes across its cube faces.
- Shapes move only by (3a, 3b, 3c) with a + b + c even (voxel_4_c::onGrid: multiples of 3 and an
  even block sum) and turn by the cube's 24 rotations (48 with mirrors), applied to a box padded
  to a multiple of 6 (voxel_4_c::transform, then voxel_0_c::transform); every one of the 24
  maps the honeycomb onto itself. voxel_4_c::minimizePiece keeps each axis's offset modulo 6
  and pads the box to a multiple of 3; shapes are written here the same way.
Every piece is checked to be face-connected with those neighbour rules. The expected counts
come from BurrTools 0.7.1's burrTxt and burrTxt2 (built outside the project; see
tests/data/burrtools/tetraocta/counts.txt for the commands), not from cubesat.
"""
import itertools, os, sys

# Scripts are run by hand from anywhere: the shared writer beside them, and no __pycache__ left
# in the tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xmpuzzle  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'tetraocta')

# voxel_4_c::getNeighbor's faceNeighbors: [position][cube type] = (in-block position, 4 offsets).
FACE_NEIGHBOURS = [
    [((1, 1, 1), [(1, -1, -1), (-1, 1, -1), (-1, -1, 1), (1, 1, 1)]),
     ((1, 1, 1), [(-1, -1, -1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)])],
    [((2, 0, 0), [(-1, 1, 1), (0, 0, -1), (1, 0, 0), (0, -1, 0)]),
     ((0, 0, 0), [(1, 1, 1), (0, 0, -1), (0, -1, 0), (-1, 0, 0)])],
    [((0, 2, 0), [(1, -1, 1), (0, 0, -1), (0, 1, 0), (-1, 0, 0)]),
     ((2, 2, 0), [(-1, -1, 1), (0, 0, -1), (1, 0, 0), (0, 1, 0)])],
    [((0, 0, 2), [(0, -1, 0), (-1, 0, 0), (1, 1, -1), (0, 0, 1)]),
     ((2, 0, 2), [(0, -1, 0), (1, 0, 0), (-1, 1, -1), (0, 0, 1)])],
    [((2, 2, 2), [(1, 0, 0), (0, 1, 0), (-1, -1, -1), (0, 0, 1)]),
     ((0, 2, 2), [(-1, 0, 0), (0, 1, 0), (1, -1, -1), (0, 0, 1)])],
]


def split(c):
    blocks = tuple(v // 3 for v in c)
    return blocks, tuple(v - 3 * b for v, b in zip(c, blocks))


def valid(x, y, z):
    """voxel_4_c::validCoordinate."""
    b, s = split((x, y, z))
    if s == (1, 1, 1):
        return True
    if sum(b) % 2:
        return s in ((0, 0, 0), (2, 2, 0), (0, 2, 2), (2, 0, 2))
    return s in ((2, 0, 0), (0, 2, 0), (2, 2, 2), (0, 0, 2))


def neighbours(c):
    """voxel_4_c::getNeighbor, typ 0, idx 0 .. 3."""
    b, s = split(c)
    t = sum(b) & 1
    for row in FACE_NEIGHBOURS:
        pos, offs = row[t]
        if pos == s:
            return [tuple(v + o for v, o in zip(c, off)) for off in offs]
    raise ValueError(c)


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


def centroid4(c):
    return tuple(4 * (v // 3) + v % 3 + 1 for v in c)


def from4(p):
    out = []
    for v in p:
        b, r = divmod(v - 1, 4)
        assert r < 3, p
        out.append(3 * b + r)
    return tuple(out)


def block_cells(i, j, k):
    return [(3 * i + a, 3 * j + b, 3 * k + c) for a in range(3) for b in range(3) for c in range(3)
            if valid(3 * i + a, 3 * j + b, 3 * k + c)]


def cells_where(inside, lo=-4, hi=8):
    """Every cell whose centroid (times 4) satisfies inside, in cubes lo .. hi-1 of each axis."""
    return [c for b in itertools.product(range(lo, hi), repeat=3) for c in block_cells(*b) if inside(*centroid4(c))]


def normalize(cells):
    """voxel_4_c::minimizePiece: move by multiples of 6 so each axis starts at its offset modulo 6."""
    m = [min(c[a] for c in cells) // 6 * 6 for a in range(3)]
    return {(x - m[0], y - m[1], z - m[2]): s for (x, y, z), s in cells.items()}


def shape(cells, state='#'):
    cells = {c: state for c in cells} if not isinstance(cells, dict) else cells
    assert all(valid(*c) for c in cells)
    assert connected(cells), sorted(cells)
    return normalize(cells)


def rotations():
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
        p = centroid4(c)
        out[from4(tuple(signs[a] * p[perm[a]] for a in range(3)))] = s
    assert all(valid(*c) for c in out)
    return out


def canonical(cells):
    """The smallest sorted form over the 24 rotations and the honeycomb's translations."""
    best = None
    for t in PROPER:
        v = transform(cells, t)
        b = [min(c[a] for c in v) // 3 for a in range(3)]
        if sum(b) % 2:
            b[0] -= 1
        k = tuple(sorted(((x - 3 * b[0], y - 3 * b[1], z - 3 * b[2]), s) for (x, y, z), s in v.items()))
        best = k if best is None or k < best else best
    return best


def mirror(cells):
    return normalize(transform(cells, ((0, 1, 2), (-1, 1, 1))))


def chiral(cells):
    return canonical(cells) != canonical(mirror(cells))


# Units of the honeycomb.
def tet(i, j, k):
    """The regular tetrahedron of cube (i, j, k)."""
    return [(3 * i + 1, 3 * j + 1, 3 * k + 1)]


def octa(x, y, z, half=None):
    """The octahedron around lattice point (x, y, z) (odd sum): the corner cells of the 8 cubes there;
    half = (axis, sign) keeps the 4 on one side (a square pyramid)."""
    assert (x + y + z) % 2 == 1
    out = []
    for u, v, w in itertools.product((0, 1), repeat=3):
        i, j, k = x - u, y - v, z - w
        if half is not None and (1 - (u, v, w)[half[0]] * 2) != half[1]:
            continue
        c = (3 * i + 2 * u, 3 * j + 2 * v, 3 * k + 2 * w)
        assert valid(*c)
        out.append(c)
    return out


def tetrahedron(n):
    """The tetrahedron with corners (0,0,0), (n,n,0), (n,0,n), (0,n,n)."""
    r = cells_where(lambda x, y, z: x + y + z < 8 * n and x - y - z < 0 and y - x - z < 0 and z - x - y < 0, -1, n + 1)
    t = n * (n + 1) * (n + 2) // 6 + (n - 2) * (n - 1) * n // 6
    o = (n - 1) * n * (n + 1) // 6
    assert len(r) == t + 8 * o, (n, len(r))
    return r


def octahedron(n, c):
    """The octahedron of edge n (lattice units) around lattice point c (coordinate sum = n mod 2)."""
    assert sum(c) % 2 == n % 2
    cx, cy, cz = (4 * v for v in c)
    return cells_where(lambda x, y, z: abs(x - cx) + abs(y - cy) + abs(z - cz) < 4 * n, min(c) - n - 1, max(c) + n + 1)


def square_pyramid(n, c):
    """The upper half (z above c) of octahedron(n, c)."""
    return [v for v in octahedron(n, c) if centroid4(v)[2] > 4 * c[2]]


def cube(n):
    """n x n x n cubes from (0, 0, 0): n^3 tetrahedra and 4 n^3 corner cells."""
    return cells_where(lambda x, y, z: 0 < x < 4 * n and 0 < y < 4 * n and 0 < z < 4 * n, 0, n)


def units(cells):
    """Splits cells into units: each regular tetrahedron alone, and the corner cells of one lattice point together."""
    out = {}
    for c in cells:
        b, s = split(c)
        key = ('T', b) if s == (1, 1, 1) else ('O', tuple(bb + ss // 2 for bb, ss in zip(b, s)))
        out.setdefault(key, []).append(c)
    return [out[k] for k in sorted(out)]


class LCG:
    """A small fixed generator, so that the dissections below do not depend on Python's random."""
    def __init__(self, seed):
        self.s = seed

    def below(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7fffffff
        return (self.s >> 8) % n


def dissect(cells, k, seed, lo, hi):
    """Splits cells into k face-connected pieces of whole units (tetrahedra, octahedra or their
    parts inside cells), each of lo .. hi units, grown from random units. None if that failed."""
    us = units(cells)
    where = {c: n for n, u in enumerate(us) for c in u}
    adj = [sorted({where[m] for c in u for m in neighbours(c) if m in where} - {n}) for n, u in enumerate(us)]
    r = LCG(seed)
    owner = {}
    while len(owner) < k:
        u = r.below(len(us))
        if u not in owner:
            owner[u] = len(owner)
    size = [1] * k
    for _ in range(20000):
        if len(owner) == len(us):
            break
        p = r.below(k)
        if size[p] >= hi:
            continue
        front = sorted({m for u, o in owner.items() if o == p for m in adj[u] if m not in owner})
        if front:
            owner[front[r.below(len(front))]] = p
            size[p] += 1
    if len(owner) < len(us) or min(size) < lo:
        return None
    return [shape([c for u, o in sorted(owner.items()) if o == p for c in us[u]]) for p in range(k)]


def first_dissection(cells, k, lo, hi, seed=1):
    """The first seed's dissection (from seed on), identical pieces merged: (seed, [(piece, count)])."""
    while True:
        d = dissect(cells, k, seed, lo, hi)
        if d:
            groups = {}
            for p in d:
                groups.setdefault(canonical(p), []).append(p)
            return seed, [(g[0], len(g)) for g in groups.values()]
        seed += 1


def dissection_problem(seed, pieces, first, result, what):
    n = sum(c for _, c in pieces)
    return dict(name='%s into %d pieces (seed %d)' % (what, n, seed),
                parts=[(first + i, c) for i, (_, c) in enumerate(pieces)], result=result)


def puzzle(shapes, problems, comment):
    for name, cells in shapes:
        assert connected(cells), name
        assert normalize(cells) == cells, name
    return xmpuzzle.puzzle(4, shapes, problems, comment, block=3)


def around(x, y, z, octants):
    """The octahedron at lattice point (x, y, z) and the tetrahedra on the given octants (u, v, w in
    {0, 1}: the cube (x - u, y - v, z - w)), each touching one of its faces."""
    out = octa(x, y, z)
    for u, v, w in octants:
        out += tet(x - u, y - v, z - w)
    return out


TET = shape(tet(0, 0, 0))
OCT = shape(octa(1, 0, 0))
HALF = shape(octa(1, 0, 0, half=(2, 1)))                         # a square pyramid: half an octahedron
HALF_T = shape(octa(1, 0, 0, half=(2, 1)) + tet(0, 0, 0))         # a square pyramid and a tetrahedron on one of its faces
OT = shape(around(1, 0, 0, [(0, 0, 0)]))
TOT = shape(around(1, 0, 0, [(0, 0, 0), (1, 1, 1)]))             # tetrahedra on opposite faces: a straight line
OTT_EDGE = shape(around(1, 0, 0, [(0, 0, 0), (0, 0, 1)]))        # on two faces with a common edge
OTT_CORNER = shape(around(1, 0, 0, [(0, 0, 0), (0, 1, 1)]))      # on two faces with a common corner only
OTTT = shape(around(1, 0, 0, [(0, 0, 0), (0, 0, 1), (0, 1, 1)]))  # three faces in a row
OTOT = shape(octa(1, 0, 0) + tet(0, 0, 0) + octa(0, 1, 0) + tet(1, 0, 0))     # two octahedra joined by a tetrahedron, one more tetrahedron: chiral
OTOT_M = mirror(OTOT)
TT_HALF = shape(octa(1, 0, 0, half=(2, 1)) + tet(0, 0, 0) + tet(1, -1, 0))      # a square pyramid with two tetrahedra
assert chiral(OTOT) and not chiral(OTT_EDGE) and not chiral(OTT_CORNER) and not chiral(OTTT)
assert not chiral(TOT) and not chiral(HALF_T) and len({canonical(p) for p in (OTT_EDGE, OTT_CORNER, TOT)}) == 3

TETRA2 = shape(tetrahedron(2))
TETRA3 = shape(tetrahedron(3))
OCTA2 = shape(octahedron(2, (1, 1, 0)))
PYR2 = shape(square_pyramid(2, (1, 1, 0)))
PYR3 = square_pyramid(3, (1, 0, 0))
CUBE2 = cube(2)


def corner_tets(n):
    """The tetrahedra at the 4 corners of tetrahedron(n)."""
    return tet(0, 0, 0) + tet(n - 1, n - 1, 0) + tet(n - 1, 0, n - 1) + tet(0, n - 1, n - 1)


TRUNC3 = [c for c in tetrahedron(3) if c not in corner_tets(3)]
assert len(TRUNC3) == 39
HOLES3 = shape({c: ('+' if c in corner_tets(3) else '#') for c in tetrahedron(3)})

S_OCTA2, D_OCTA2 = first_dissection(octahedron(2, (1, 1, 0)), 5, 2, 5)
S_PYR2, D_PYR2 = first_dissection(square_pyramid(2, (1, 1, 0)), 3, 2, 5)
S_TETRA3, D_TETRA3 = first_dissection(tetrahedron(3), 4, 2, 5)
S_TRUNC3, D_TRUNC3 = first_dissection(TRUNC3, 4, 2, 4)
S_CUBE2, D_CUBE2 = first_dissection(CUBE2, 5, 3, 6)
S_PYR3, D_PYR3 = first_dissection(PYR3, 6, 3, 7)


def named(prefix, pieces):
    return [('%s%d' % (prefix, i + 1), p) for i, (p, _) in enumerate(pieces)]


FILES = {}

FILES['t01_tetra2.xmpuzzle'] = puzzle(
    [('tet', TET), ('oct', OCT), ('OT', OT), ('TOT', TOT), ('OTT_edge', OTT_EDGE), ('OTT_corner', OTT_CORNER),
     ('tetra2', TETRA2), ('tt_half', TT_HALF), ('half_t', HALF_T)],
    [dict(name='four tetrahedra and an octahedron into the tetrahedron of edge 2', parts=[(0, 4), (1, 1)], result=6),
     dict(name='OT and three tetrahedra', parts=[(2, 1), (0, 3)], result=6),
     dict(name='OTT (common corner) and two tetrahedra', parts=[(5, 1), (0, 2)], result=6),
     dict(name='two half octahedra with two tetrahedra', parts=[(7, 2)], result=6),
     dict(name='two half octahedra with a tetrahedron, two tetrahedra', parts=[(8, 2), (0, 2)], result=6),
     dict(name='TOT 0..1, OTT (common edge) 0..1, OTT (common corner) 0..1, OT 0..1, tetrahedra 0..4, octahedra 0..1',
          parts=[(3, 0, 1), (4, 0, 1), (5, 0, 1), (2, 0, 1), (0, 0, 4), (1, 0, 1)], result=6)],
    'The tetrahedron of edge 2: 4 tetrahedra around an octahedron.')
FILES['t02_octa2.xmpuzzle'] = puzzle(
    [('tet', TET), ('oct', OCT), ('OT', OT), ('TOT', TOT), ('OTT_edge', OTT_EDGE), ('octa2', OCTA2)]
    + named('d', D_OCTA2) + [('OTTT', OTTT)],
    [dict(name='six octahedra and eight tetrahedra into the octahedron of edge 2', parts=[(0, 8), (1, 6)], result=5),
     dict(name='two OTTT, two OT, two octahedra', parts=[(6 + len(D_OCTA2), 2), (2, 2), (1, 2)], result=5),
     dict(name='four OT, two OTT (common edge)', parts=[(2, 4), (4, 2)], result=5),
     dict(name='OT 0..6, TOT 0..4, tetrahedra 0..8, octahedra 0..6', parts=[(2, 0, 6), (3, 0, 4), (0, 0, 8), (1, 0, 6)], result=5),
     dissection_problem(S_OCTA2, D_OCTA2, 6, 5, 'a dissection')],
    'The octahedron of edge 2: 6 octahedra and 8 tetrahedra.')
FILES['t03_pyramid2.xmpuzzle'] = puzzle(
    [('tet', TET), ('oct', OCT), ('half', HALF), ('half_t', HALF_T), ('pyr2', PYR2), ('tt_half', TT_HALF)] + named('d', D_PYR2),
    [dict(name='an octahedron, four half octahedra, four tetrahedra into the square pyramid of edge 2', parts=[(1, 1), (2, 4), (0, 4)], result=4),
     dict(name='four half octahedra with a tetrahedron, an octahedron', parts=[(3, 4), (1, 1)], result=4),
     dict(name='two half octahedra with two tetrahedra, two half octahedra, an octahedron', parts=[(5, 2), (2, 2), (1, 1)], result=4),
     dissection_problem(S_PYR2, D_PYR2, 6, 4, 'a dissection')],
    'The square pyramid of edge 2 (half the octahedron of edge 2).')
FILES['t04_tetra3.xmpuzzle'] = puzzle(
    [('tet', TET), ('OT', OT), ('TOT', TOT), ('OTTT', OTTT), ('tetra3', TETRA3)] + named('d', D_TETRA3),
    [dict(name='four OT and seven tetrahedra into the tetrahedron of edge 3', parts=[(1, 4), (0, 7)], result=4),
     dict(name='two TOT, two OT, five tetrahedra', parts=[(2, 2), (1, 2), (0, 5)], result=4),
     dict(name='OTTT 0..4, TOT 0..4, OT 0..4, tetrahedra 0..11', parts=[(3, 0, 4), (2, 0, 4), (1, 0, 4), (0, 0, 11)], result=4),
     dissection_problem(S_TETRA3, D_TETRA3, 5, 4, 'a dissection')],
    'The tetrahedron of edge 3: 11 tetrahedra (one upside down) and 4 octahedra.')
FILES['t05_chiral.xmpuzzle'] = puzzle(
    [('OTOT', OTOT), ('OTOT_m', OTOT_M), ('tet', TET), ('OT', OT), ('tetra3', TETRA3), ('octa2', OCTA2)],
    [dict(name='two OTOT and seven tetrahedra into the tetrahedron of edge 3', parts=[(0, 2), (2, 7)], result=4),
     dict(name='OTOT, its mirror image, seven tetrahedra', parts=[(0, 1), (1, 1), (2, 7)], result=4),
     dict(name='two OTOT, two OT, two tetrahedra into the octahedron of edge 2', parts=[(0, 2), (3, 2), (2, 2)], result=5),
     dict(name='OTOT, its mirror image, two OT, two tetrahedra', parts=[(0, 1), (1, 1), (3, 2), (2, 2)], result=5)],
    'A chiral piece (two octahedra joined by a tetrahedron, another tetrahedron on one of them) with and without its mirror image.')
FILES['t06_holes.xmpuzzle'] = puzzle(
    [('tet', TET), ('OT', OT), ('TOT', TOT), ('holes', HOLES3), ('OTT_edge', OTT_EDGE)],
    [dict(name='ranges into the tetrahedron of edge 3 with its corners optional', parts=[(1, 0, 4), (2, 0, 2), (0, 0, 11), (4, 0, 2)], result=3),
     dict(name='four OT, tetrahedra 0..7', parts=[(1, 4), (0, 0, 7)], result=3)],
    'Optional (+) cells: the 4 corner tetrahedra of the tetrahedron of edge 3.')
FILES['t07_cube2.xmpuzzle'] = puzzle(
    named('d', D_CUBE2) + [('cube2', shape(CUBE2))],
    [dissection_problem(S_CUBE2, D_CUBE2, 0, len(D_CUBE2), 'the 2x2x2 cube')],
    'The cube of 2x2x2 blocks: 8 tetrahedra, a whole octahedron and 12 quarter octahedra (2 cells each).')
FILES['t08_truncated.xmpuzzle'] = puzzle(
    [('tet', TET), ('OT', OT), ('TOT', TOT), ('trunc3', shape(TRUNC3)), ('OTT_corner', OTT_CORNER)] + named('d', D_TRUNC3),
    [dict(name='three OTT (common corner) and an OT into the truncated tetrahedron', parts=[(4, 3), (1, 1)], result=3),
     dict(name='OTT (common corner) 0..4, OT 0..4, tetrahedra 0..7', parts=[(4, 0, 4), (1, 0, 4), (0, 0, 7)], result=3),
     dissection_problem(S_TRUNC3, D_TRUNC3, 5, 3, 'a dissection')],
    'The tetrahedron of edge 3 without its 4 corner tetrahedra.')
FILES['t09_pyramid3.xmpuzzle'] = puzzle(
    named('d', D_PYR3) + [('pyr3', shape(PYR3))],
    [dissection_problem(S_PYR3, D_PYR3, 0, len(D_PYR3), 'the square pyramid of edge 3')],
    'The square pyramid of edge 3.')
FILES['t10_lines.xmpuzzle'] = puzzle(
    [('TOT', TOT), ('oct', OCT), ('tet', TET), ('tetra4', shape(tetrahedron(4))), ('tetra3', TETRA3), ('OT', OT)],
    [dict(name='TOT, three OT, six tetrahedra into the tetrahedron of edge 3', parts=[(0, 1), (5, 3), (2, 6)], result=4),
     dict(name='TOT 0..2, OT 0..4, tetrahedra 0..11, octahedra 0..4 into the tetrahedron of edge 3', parts=[(0, 0, 2), (5, 0, 4), (2, 0, 11), (1, 0, 4)], result=4),
     dict(name='four TOT, six OT, ten tetrahedra into the tetrahedron of edge 4', parts=[(0, 4), (5, 6), (2, 10)], result=3)],
    'Straight TOT pieces (tetrahedra on opposite faces of an octahedron).')


def main():
    xmpuzzle.write_all(HERE, FILES)


if __name__ == '__main__':
    main()
