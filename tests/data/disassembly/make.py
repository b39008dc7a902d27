#!/usr/bin/env python3
"""Writes cubesat's own disassembly test puzzles (tests/data/disassembly/*.xmpuzzle); reruns give
the same bytes.

Every puzzle is designed for these tests (none is taken from BurrTools' examples). The expected
assemblies, solutions and level strings in tests/integration/disassembly.rs come from BurrTools'
`burrTxt -d -o N FILE` (0.7.1, built outside the project), not from cubesat.

- maze.xmpuzzle: a cube in a cage with a corridor; the key's level is the number of straight
  runs from its cell to the exit. Problem 0: a flat maze (5x5x3), problem 1: a maze through
  three layers (5x5x5, levels 1 to 6), problem 2: the 3D maze with two identical keys (level
  strings such as 1.6: the second key's moves after the first leaves). The cage has weight 2, so
  plans move the keys, as a person holding the cage would.
- rings.xmpuzzle: two linked rings (two copies of one shape that no translation separates) and
  a loose cube. Problem 0 puts both rings in group 1, so they may stay together; problem 1 has
  no groups, so nothing comes apart.
- burr.xmpuzzle: a solid six-piece burr whose 32 contested cells were assigned to sticks by a
  seeded random search for an assignment that comes apart (all six sticks connected).
"""
import gzip, os

HERE = os.path.dirname(os.path.abspath(__file__))

def vox(cells):
    """cells: {(x,y,z): state} -> (sx, sy, sz, text), x fastest."""
    sx, sy, sz = (max(c[i] for c in cells) + 1 for i in range(3))
    return sx, sy, sz, ''.join(cells.get((x, y, z), '_')
                               for z in range(sz) for y in range(sy) for x in range(sx))

def puzzle(shapes, problems):
    x = '<?xml version="1.0"?>\n<puzzle version="2">\n  <gridType type="0"/>\n  <colors/>\n  <shapes>\n'
    for name, cells, weight in shapes:
        sx, sy, sz, t = vox(cells)
        w = ' weight="%d"' % weight if weight != 1 else ''
        x += '    <voxel x="%d" y="%d" z="%d"%s name="%s" type="0">%s</voxel>\n' % (sx, sy, sz, w, name, t)
    x += '  </shapes>\n  <problems>\n'
    for p in problems:
        x += '    <problem name="%s" state="0">\n      <shapes>\n' % p['name']
        for part in p['parts']:
            shape, count = part[0], part[1]
            group = ' group="%d"' % part[2] if len(part) > 2 else ''
            x += '        <shape id="%d" count="%d"%s/>\n' % (shape, count, group)
        x += '      </shapes>\n      <result id="%d"/>\n      <bitmap/>\n    </problem>\n' % p['result']
    x += '  </problems>\n  <comment/>\n</puzzle>\n'
    return x

def write(name, text):
    with open(os.path.join(HERE, name), 'wb') as f:
        # mtime 0: the same bytes on every run.
        with gzip.GzipFile(fileobj=f, mode='wb', mtime=0, filename='') as g:
            g.write(text.encode())

def maze(size, corridor):
    """A cage filling a box but for the corridor, and the box with the corridor optional."""
    sx, sy, sz = size
    cells = [(x, y, z) for z in range(sz) for y in range(sy) for x in range(sx)]
    cage = {c: '#' for c in cells if c not in corridor}
    result = {c: ('+' if c in corridor else '#') for c in cells}
    return cage, result

flat = [(0, 1, 1), (1, 1, 1), (2, 1, 1), (3, 1, 1), (3, 2, 1), (3, 3, 1), (2, 3, 1), (1, 3, 1)]
deep = [(1, 1, 1), (2, 1, 1), (3, 1, 1), (3, 2, 1), (3, 3, 1), (3, 3, 2), (3, 3, 3),
        (2, 3, 3), (1, 3, 3), (1, 2, 3), (1, 1, 3), (0, 1, 3)]
flat_cage, flat_result = maze((5, 5, 3), flat)
deep_cage, deep_result = maze((5, 5, 5), deep)
key = {(0, 0, 0): '#'}
write('maze.xmpuzzle', puzzle(
    [('FlatCage', flat_cage, 2), ('FlatBox', flat_result, 1), ('Key', key, 1),
     ('DeepCage', deep_cage, 2), ('DeepBox', deep_result, 1)],
    [{'name': 'flat maze', 'parts': [(0, 1), (2, 1)], 'result': 1},
     {'name': 'deep maze', 'parts': [(3, 1), (2, 1)], 'result': 4},
     {'name': 'two keys', 'parts': [(3, 1), (2, 2)], 'result': 4}]))

# Ring A in the plane z=1 around (2,2,1); ring B in the plane y=2 around (3,2,1), through A's
# hole; a loose cube beside them.
ring_a = {(x, y, 1): '#' for x in range(1, 4) for y in range(1, 4) if (x, y) != (2, 2)}
ring_b = {(x, 2, z): '#' for x in range(2, 5) for z in range(0, 3) if (x, z) != (3, 1)}
cube = {(0, 2, 1): '#'}

def local(cells):
    lo = [min(c[i] for c in cells) for i in range(3)]
    return {(c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]): s for c, s in cells.items()}
rings_result = {**ring_a, **ring_b, **cube}
write('rings.xmpuzzle', puzzle(
    [('Ring', local(ring_a), 1), ('Cube', {(0, 0, 0): '#'}, 1), ('Rings', rings_result, 1)],
    [{'name': 'grouped', 'parts': [(0, 2, 1), (1, 1)], 'result': 2},
     {'name': 'ungrouped', 'parts': [(0, 2), (1, 1)], 'result': 2}]))

# The six sticks (x pair, y pair, z pair) of a solid six-piece burr in a 6x6x6 box: the cells
# each stick keeps (found by a seeded random search over the owners of the contested cells).
BURR = [
    [(0, 1, 2), (0, 1, 3), (0, 2, 2), (0, 2, 3), (1, 1, 2), (1, 1, 3), (1, 2, 3), (2, 1, 3), (2, 2, 3), (3, 1, 2), (3, 1, 3), (4, 1, 2), (4, 1, 3), (5, 1, 2), (5, 1, 3), (5, 2, 2), (5, 2, 3)],
    [(0, 3, 2), (0, 3, 3), (0, 4, 2), (0, 4, 3), (1, 4, 2), (1, 4, 3), (2, 4, 2), (3, 4, 2), (3, 4, 3), (4, 3, 2), (4, 3, 3), (4, 4, 2), (4, 4, 3), (5, 3, 2), (5, 3, 3), (5, 4, 2), (5, 4, 3)],
    [(2, 0, 1), (2, 0, 2), (2, 1, 1), (2, 1, 2), (2, 4, 1), (2, 5, 1), (2, 5, 2), (3, 0, 1), (3, 0, 2), (3, 1, 1), (3, 2, 1), (3, 3, 1), (3, 3, 2), (3, 4, 1), (3, 5, 1), (3, 5, 2)],
    [(2, 0, 3), (2, 0, 4), (2, 1, 4), (2, 2, 4), (2, 3, 4), (2, 4, 3), (2, 4, 4), (2, 5, 3), (2, 5, 4), (3, 0, 3), (3, 0, 4), (3, 1, 4), (3, 4, 4), (3, 5, 3), (3, 5, 4)],
    [(1, 2, 0), (1, 2, 1), (1, 2, 2), (1, 2, 4), (1, 2, 5), (1, 3, 0), (1, 3, 1), (1, 3, 2), (1, 3, 3), (1, 3, 4), (1, 3, 5), (2, 2, 0), (2, 2, 1), (2, 2, 2), (2, 2, 5), (2, 3, 0), (2, 3, 1), (2, 3, 2), (2, 3, 3), (2, 3, 5)],
    [(3, 2, 0), (3, 2, 2), (3, 2, 3), (3, 2, 4), (3, 2, 5), (3, 3, 0), (3, 3, 3), (3, 3, 4), (3, 3, 5), (4, 2, 0), (4, 2, 1), (4, 2, 2), (4, 2, 3), (4, 2, 4), (4, 2, 5), (4, 3, 0), (4, 3, 1), (4, 3, 4), (4, 3, 5)],
]
burr_result = {c: '#' for stick in BURR for c in stick}
write('burr.xmpuzzle', puzzle(
    [('Stick%d' % (i + 1), local({c: '#' for c in stick}), 1) for i, stick in enumerate(BURR)]
    + [('Burr', burr_result, 1)],
    [{'name': 'burr', 'parts': [(i, 1) for i in range(6)], 'result': 6}]))
