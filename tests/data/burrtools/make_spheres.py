#!/usr/bin/env python3
"""Writes cubesat's sphere-grid BurrTools test files (tests/data/burrtools/spheres/); reruns give the same bytes.

BurrTools' grid 2 (gridType type="2"): balls in face-centred cubic packing, written in the cube
grid's voxel strings with a ball only where x + y + z is even. Shapes are given here in
cubesat's layer frame (ball [i, j] of square layer k is voxel [i + j + k, i - j, k]) and moved
to the smallest box whose corner is a ball, as BurrTools stores them. The expected counts in
tests/integration/spheres.rs come from BurrTools 0.7.1's burrTxt and burrTxt2 (built outside
the project; see tests/data/burrtools/spheres/counts.txt for the commands), not from cubesat.
"""
import os, sys

# Scripts are run by hand from anywhere: the shared writer beside them, and no __pycache__ left
# in the tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xmpuzzle  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'spheres')

def cube(l):
    i, j, k = l
    return (i + j + k, i - j, k)

def shape(layer_cells, state='#'):
    """Layer-frame balls -> {voxel: state}, in a box whose corner is a ball."""
    cs = [cube(c) for c in layer_cells]
    m = [min(c[a] for c in cs) for a in range(3)]
    if sum(m) % 2:
        m[0] -= 1
    out = {}
    for c, l in zip(cs, layer_cells):
        out[(c[0] - m[0], c[1] - m[1], c[2] - m[2])] = state if isinstance(state, str) else state(l)
    return out

def layers(art):
    """Layer art (bottom layer first, rows of '#', '+', '.') -> {layer cell: state}."""
    out = {}
    for k, rows in enumerate(art):
        for j, row in enumerate(rows):
            for i, ch in enumerate(row):
                if ch in '#+':
                    out[(i, j, k)] = ch
    return out

def art_shape(art):
    cells = layers(art)
    return shape(list(cells), state=lambda l: cells[l])

def puzzle(shapes, problems, comment):
    return xmpuzzle.puzzle(2, shapes, problems, comment, valid=lambda x, y, z: (x + y + z) % 2 == 0)

# Pieces, in the layer frame.
MONO = shape([(0, 0, 0)])
PAIR = shape([(0, 0, 0), (1, 0, 0)])
LINE3 = shape([(0, 0, 0), (1, 0, 0), (2, 0, 0)])
LINE4 = shape([(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)])
L3 = shape([(0, 0, 0), (1, 0, 0), (0, 1, 0)])          # right angle: in a square layer only
TRI3 = shape([(0, 0, 0), (1, 0, 0), (0, 0, 1)])        # three touching balls: a {111} plane
V3 = shape([(0, 0, 0), (1, 0, 0), (1, 0, 1)])          # 120 degrees: a {111} plane
TETRA4 = shape([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)])
SQUARE4 = shape([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)])
L4 = shape([(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)])
RHOMB4 = shape([(0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1)])   # {111} rhombus (two triangles)
TRAP4 = shape([(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 0, 1)])    # {111} trapezium... a triangle on a line
# Chiral: a right angle in a square layer with a ball on top of one end, off the corner.
SKEW4 = shape([(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)])
SKEW4M = shape([(0, 0, 0), (1, 0, 0), (1, -1, 0), (1, -2, 1)])

def tetra(n):
    """The tetrahedron of n layers: layer k is a (k+1) x (n-k) rectangle, shifted a column left per layer."""
    return ['.' * (n - 1 - k) + '#' * (k + 1) for k in range(n)] and [
        [('.' * (n - 1 - k) + '#' * (k + 1)) for _ in range(n - k)] for k in range(n)]

def pyramid(n):
    return [['#' * (n - k)] * (n - k) for k in range(n)]

def tri_board(n):
    """A triangle of side n in a {111} plane: one face of the tetrahedron of n layers."""
    return [[('.' * (n - 1)) + '#' for _ in range(n - k)] for k in range(n)]

FILES = {}

FILES['s01_pyramid5.xmpuzzle'] = puzzle(
    [('pair', PAIR), ('tri3', TRI3), ('pyramid5', art_shape(pyramid(2)))],
    [dict(name='pair + triangle into the 5-ball square pyramid', parts=[(0, 1), (1, 1)], result=2)],
    'Square pyramid of 5 balls.')
FILES['s02_tri_board10.xmpuzzle'] = puzzle(
    [('mono', MONO), ('line3', LINE3), ('v3', V3), ('tri3', TRI3), ('board', art_shape(tri_board(4)))],
    [dict(name='flat pieces into a triangle of side 4 in a {111} plane', parts=[(0, 1), (1, 1), (2, 1), (3, 1)], result=4),
     dict(name='three lines and a ball', parts=[(0, 1), (1, 3)], result=4)],
    'A board in a {111} plane: pieces reach it only through the 1/3 matrices.')
FILES['s03_square_board.xmpuzzle'] = puzzle(
    [('L3', L3), ('line3', LINE3), ('L4', L4), ('square', art_shape([['####', '####', '####']])), ('pair', PAIR)],
    [dict(name='four L3 into a 4x3 layer', parts=[(0, 4)], result=3),
     dict(name='L3 x2, line3 x2 into a 4x3 layer', parts=[(0, 2), (1, 2)], result=3),
     dict(name='L4 x2, pair x2 into a 4x3 layer', parts=[(2, 2), (4, 2)], result=3)],
    'A flat board in one square layer (Kanoodle style).')
FILES['s04_pyramid14.xmpuzzle'] = puzzle(
    [('L3', L3), ('tri3', TRI3), ('v3', V3), ('pair', PAIR), ('pyramid14', art_shape(pyramid(3))), ('tetra4', TETRA4)],
    [dict(name='tetra4 x2, tri3 x2 into the 14-ball pyramid', parts=[(5, 2), (1, 2)], result=4),
     dict(name='V3 x2, L3 x2 and a pair', parts=[(2, 2), (0, 2), (3, 1)], result=4)],
    'Square pyramid of 14 balls, pieces in {111} planes (its faces).')
FILES['s05_tetra10.xmpuzzle'] = puzzle(
    [('tri3', TRI3), ('v3', V3), ('line3', LINE3), ('mono', MONO), ('tetra4', TETRA4), ('tetra10', art_shape(tetra(3)))],
    [dict(name='three triangles and a ball', parts=[(0, 3), (3, 1)], result=5),
     dict(name='V3, line3, tri3 and a ball', parts=[(1, 1), (2, 1), (0, 1), (3, 1)], result=5),
     dict(name='tetra4, V3 and line3', parts=[(4, 1), (1, 1), (2, 1)], result=5)],
    'The 10-ball tetrahedron.')
FILES['s06_tetra20.xmpuzzle'] = puzzle(
    [('tetra4', TETRA4), ('rhomb4', RHOMB4), ('line4', LINE4), ('trap4', TRAP4), ('tetra20', art_shape(tetra(4)))],
    [dict(name='tetra4, rhomb4 x2, trap4 x2', parts=[(0, 1), (1, 2), (3, 2)], result=4),
     dict(name='rhomb4 x3, trap4 x2', parts=[(1, 3), (3, 2)], result=4)],
    'The 20-ball tetrahedron.')
FILES['s07_chiral.xmpuzzle'] = puzzle(
    [('skew', SKEW4), ('skew_m', SKEW4M), ('pair', PAIR), ('box', art_shape([['###', '###'], ['###', '###']]))],
    [dict(name='skew x2, pair x2 (no mirror partner)', parts=[(0, 2), (2, 2)], result=3),
     dict(name='skew, its mirror image, pair x2', parts=[(0, 1), (1, 1), (2, 2)], result=3)],
    'A chiral piece with and without its mirror image, in two stacked 3x2 layers.')
FILES['s08_ranges.xmpuzzle'] = puzzle(
    [('pair', PAIR), ('tri3', TRI3), ('line3', LINE3), ('holes', art_shape([['++#', '###'], ['+##', '##+']]))],
    [dict(name='ranges into a target with optional balls', parts=[(0, 0, 3), (1, 0, 2), (2, 0, 1)], result=3)],
    'Ranges (min..max) and + balls in the result.')
FILES['s09_lines.xmpuzzle'] = puzzle(
    [('line4', LINE4), ('line3', LINE3), ('pair', PAIR), ('box', art_shape([['####', '####', '####'], ['####', '####', '####']]))],
    [dict(name='lines of 4 x6 into a 4x3x2 layer box', parts=[(0, 6)], result=3),
     dict(name='line4 x3, line3 x4', parts=[(0, 3), (1, 4)], result=3)],
    'Straight lines in a box of two layers (counts > 1).')
FILES['s10_square4.xmpuzzle'] = puzzle(
    [('square4', SQUARE4), ('L4', L4), ('tetra4', TETRA4), ('pair', PAIR), ('pyr', art_shape(pyramid(3)))],
    [dict(name='L4 x2, square4 0..1, tetra4 0..1, pair 1..3 into the 14-ball pyramid', parts=[(1, 2), (0, 0, 1), (2, 0, 1), (3, 1, 3)], result=4)],
    'Pieces of four balls with ranges into the 14-ball pyramid.')

def main():
    xmpuzzle.write_all(HERE, FILES)

if __name__ == '__main__':
    main()
