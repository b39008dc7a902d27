#!/usr/bin/env python3
"""Writes cubesat's own BurrTools test files (tests/data/burrtools/own/); reruns give the same bytes.

Each file aims at one feature; the expected counts in tests/integration/burrtools.rs come from
BurrTools' `burrTxt -q -o N FILE` (0.7.1, built outside the project), not from cubesat.
"""
import gzip, os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'own')

def vox(cells, state='#'):
    """cells: {(x,y,z): (state, colour)} or iterable of (x,y,z) -> (sx, sy, sz, text)."""
    if not isinstance(cells, dict):
        cells = {c: (state, 0) for c in cells}
    sx, sy, sz = (max(c[i] for c in cells) + 1 for i in range(3))
    out = ''
    for z in range(sz):
        for y in range(sy):
            for x in range(sx):
                st, col = cells.get((x, y, z), ('_', 0))
                out += st + (str(col) if col else '')
    return sx, sy, sz, out

def box(sx, sy, sz, state='#'):
    return {(x, y, z): (state, 0) for x in range(sx) for y in range(sy) for z in range(sz)}

def puzzle(shapes, problems, colours=0, version=2, grid=True):
    x = '<?xml version="1.0"?>\n<puzzle version="%d">\n' % version
    if grid:
        x += '  <gridType type="0"/>\n'
    if colours:
        x += '  <colors>\n' + ''.join('    <color red="%d" green="%d" blue="%d"/>\n' % (40 * k % 256, 90, 200 - 30 * k)
                                      for k in range(1, colours + 1)) + '  </colors>\n'
    else:
        x += '  <colors/>\n'
    x += '  <shapes>\n'
    for name, cells in shapes:
        sx, sy, sz, t = vox(cells)
        x += '    <voxel x="%d" y="%d" z="%d" name="%s" type="0">%s</voxel>\n' % (sx, sy, sz, name, t)
    x += '  </shapes>\n  <problems>\n'
    for p in problems:
        extra = ' maxHoles="%d"' % p['maxHoles'] if 'maxHoles' in p else ''
        x += '    <problem name="%s" state="0"%s>\n      <shapes>\n' % (p['name'], extra)
        for part in p['parts']:
            if len(part) == 2:
                x += '        <shape id="%d" count="%d"/>\n' % part
            else:
                x += '        <shape id="%d" min="%d" max="%d"/>\n' % part
        x += '      </shapes>\n      <result id="%d"/>\n' % p['result']
        if p.get('pairs'):
            x += '      <bitmap>\n' + ''.join('        <pair piece="%d" result="%d"/>\n' % (a - 1, b - 1)
                                             for a, b in p['pairs']) + '      </bitmap>\n'
        else:
            x += '      <bitmap/>\n'
        x += '    </problem>\n'
    x += '  </problems>\n  <comment/>\n</puzzle>\n'
    return x

def write(name, text):
    path = os.path.join(HERE, name)
    data = text.encode()
    if name.endswith('.xmpuzzle'):
        data = gzip.compress(data, mtime=0)
    open(path, 'wb').write(data)

MONO = [(0, 0, 0)]
DOMINO = [(0, 0, 0), (1, 0, 0)]
L3 = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
I3 = [(0, 0, 0), (1, 0, 0), (2, 0, 0)]
L4 = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)]
T4 = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)]
S4 = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)]
O4 = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)]
A4 = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)][:0] or [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)]
B4 = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 0, 1)][:0] or [(1, 0, 0), (0, 0, 0), (0, 1, 0), (0, 1, 1)]
P4 = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]

# Notched sticks for a pool that makes solid six-piece burrs: each 6x2x2 (x fastest, then y,
# then z), the cells a crossing stick takes notched out; picked from six random fillings of the
# knot below (every cell where bars cross given to one of them, every stick connected), so the
# pool holds at least six burrs and more made of sticks from several.
BURR_POOL = [
    '##_#######_###_####____#', '#_#_#####_###__#########', '#########_####___##___##', '##___##____#############',
    '##_####__#_########__#_#', '#__#_##########__###__##', '#____#########_#########', '##__##########___##____#',
    '##___##____#########_###', '##_#####_#_####_######_#', '#__##########_#__####_##', '##_####____########_#__#',
    '###_#####_###___########', '##############___##__###', '#____##__#_###__########', '#######_#_####_####__###',
    '#_##_########____###__##', '#######__##########_#__#', '##_#_########__#_####_##', '#########_###_#__##____#',
    '#____##___###########_##', '#######____###_####_##_#', '#__#_###_#####__########', '###_#####_#########___##',
    '##___###__###____#######', '##__#########___####__##', '#____##_##_##########_##', '##_#####_#_###_#######_#',
    '#_#__###__###_#_########', '###_###____########____#', '#___####_####__#########', '########_####___######_#',
    '#____##_#__####_########', '#######_##_########_####', '##___########____###__##',
]

def stick(text):
    """The cells of a 6x2x2 voxel string."""
    return [(i % 6, i // 6 % 2, i // 12) for i, c in enumerate(text) if c == '#']

def knot():
    """The solid six-piece burr: six 2x2x6 bars in a 6x6x6 box, a pair along each axis (104 cells)."""
    cells = set()
    for axis, a, b in [(0, 1, 2), (0, 3, 2), (1, 2, 1), (1, 2, 3), (2, 1, 2), (2, 3, 2)]:
        o = [i for i in range(3) if i != axis]
        for t in range(6):
            for da in (0, 1):
                for db in (0, 1):
                    p = [0, 0, 0]
                    p[axis], p[o[0]], p[o[1]] = t, a + da, b + db
                    cells.add(tuple(p))
    return sorted(cells)

def main():
    os.makedirs(HERE, exist_ok=True)
    # 1. holes: + corners in a 3x3 board, two L trominoes and a domino (one corner stays empty... or more)
    r = box(3, 3, 1)
    for c in [(0, 0, 0), (2, 0, 0), (0, 2, 0), (2, 2, 0)]:
        r[c] = ('+', 0)
    write('01_holes.xmpuzzle', puzzle([('L3', L3), ('domino', DOMINO), ('board', r)],
                                      [dict(name='holes', parts=[(0, 2), (1, 1)], result=2)]))
    # 2. copies: dominoes into 2x3x2, counted once (count 6) and labelled (six parts)
    write('02_copies.xmpuzzle', puzzle([('domino', DOMINO), ('box', box(2, 3, 2))] + [('d%d' % i, DOMINO) for i in range(6)],
                                       [dict(name='count 6', parts=[(0, 6)], result=1),
                                        dict(name='six parts', parts=[(2 + i, 1) for i in range(6)], result=1)]))
    # 3. ranges: 3x3 board from monominoes 0..9, dominoes 0..4, L trominoes 0..3
    write('03_ranges.xml', puzzle([('mono', MONO), ('domino', DOMINO), ('L3', L3), ('board', box(3, 3, 1))],
                                  [dict(name='ranges', parts=[(2, 0, 3), (1, 0, 4), (0, 0, 2)], result=3)]))
    # 4. ranges with holes and maxHoles (an all-+ 3x3 board)
    write('04_ranges_maxholes.xmpuzzle', puzzle([('L3', L3), ('domino', DOMINO), ('board', box(3, 3, 1, '+'))],
                                                [dict(name='maxHoles 2', parts=[(0, 0, 3), (1, 0, 2)], result=2, maxHoles=2),
                                                 dict(name='no maxHoles', parts=[(0, 0, 3), (1, 0, 2)], result=2),
                                                 dict(name='maxHoles 0', parts=[(0, 0, 3), (1, 0, 2)], result=2, maxHoles=0)]))
    # 5. colours: checkerboard 2x2x3 and two-coloured dominoes, same colour only / directed pair
    chk = {(x, y, z): ('#', 1 + (x + y + z) % 2) for x in range(2) for y in range(2) for z in range(3)}
    cd = {(0, 0, 0): ('#', 1), (1, 0, 0): ('#', 2)}
    c1 = {(0, 0, 0): ('#', 1), (1, 0, 0): ('#', 0)}
    write('05_colours.xmpuzzle', puzzle([('cdomino', cd), ('checker', chk), ('c1domino', c1), ('domino', DOMINO)],
                                        [dict(name='same colours', parts=[(0, 6)], result=1, pairs=[(1, 1), (2, 2)]),
                                         dict(name='swapped colours', parts=[(0, 6)], result=1, pairs=[(1, 2), (2, 1)]),
                                         dict(name='one coloured end, 1 on 2 only', parts=[(2, 2), (3, 4)], result=1, pairs=[(1, 2)]),
                                         dict(name='colour 1 on 1', parts=[(2, 2), (3, 4)], result=1, pairs=[(1, 1)])], colours=2))
    # 6. several problems, plain XML, selected by name
    write('06_several_problems.xml', puzzle([('L4', L4), ('T4', T4), ('S4', S4), ('O4', O4), ('I4', I3 + [(3, 0, 0)]),
                                             ('4x4', box(4, 4, 1)), ('5x4', box(5, 4, 1)), ('2x2x4', box(2, 2, 4))],
                                            [dict(name='square', parts=[(0, 4)], result=5),
                                             dict(name='rectangle', parts=[(0, 3), (3, 1), (4, 1)], result=6),
                                             dict(name='tower', parts=[(0, 2), (2, 1), (3, 1)], result=7)]))
    # 7. partial mirror sets: screw A without its mirror B, with ranges; and with a fixed A x2 B x1
    write('07_partial_mirror.xmpuzzle', puzzle([('A', A4), ('B', B4), ('O', O4), ('P', P4), ('box', box(2, 2, 4)), ('L4', L4)],
                                               [dict(name='A 0..2, O, P 0..2', parts=[(0, 0, 2), (2, 0, 2), (3, 0, 2)], result=4),
                                                dict(name='A x2, B x1, L', parts=[(0, 2), (1, 1), (5, 1)], result=4),
                                                dict(name='A x1, B x1, L, O', parts=[(0, 1), (1, 1), (5, 1), (2, 1)], result=4),
                                                dict(name='B 0..1 first, A 0..2, O 0..2', parts=[(1, 0, 1), (0, 0, 2), (2, 0, 2)], result=4)]))
    # 8. chiral result (an L-shaped slab region) with mirror pieces
    res = box(2, 2, 4)
    res[(2, 0, 0)] = ('#', 0)
    res[(2, 1, 2)] = ('#', 0)
    write('08_chiral_result.xmpuzzle', puzzle([('A', A4), ('B', B4), ('L4', L4), ('S4', S4), ('domino', DOMINO), ('region', res)],
                                              [dict(name='A B L S domino', parts=[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1)], result=5)]))
    # 9. version 1, no gridType, padded shapes, no problem name
    padded = {(1, 1, 0): ('#', 0), (2, 1, 0): ('#', 0), (1, 2, 0): ('#', 0)}
    write('09_version1_padded.xml', puzzle([('L3pad', padded), ('box', box(3, 2, 1))],
                                           [dict(name='', parts=[(0, 2)], result=1)], version=1, grid=False))
    # 10. the box as a piece inside a bigger result with + voxels (holes around)
    big = box(3, 3, 2, '+')
    write('10_holes_3d.xmpuzzle', puzzle([('L4', L4), ('T4', T4), ('S4', S4), ('space', big)],
                                         [dict(name='three tetrominoes in 3x3x2 plus', parts=[(0, 1), (1, 1), (2, 1)], result=3)]))
    # 11. colours with a coloured result but neutral pieces plus one coloured piece, gzip
    res = box(4, 2, 1)
    res[(0, 0, 0)] = ('#', 3)
    res[(3, 1, 0)] = ('#', 3)
    write('11_colour_marks.xmpuzzle', puzzle([('L4', L4), ('L4c', {(0, 0, 0): ('#', 3), (1, 0, 0): ('#', 0), (2, 0, 0): ('#', 0), (0, 1, 0): ('#', 0)}), ('board', res)],
                                             [dict(name='marked corners', parts=[(1, 2)], result=2, pairs=[(3, 3)]),
                                              dict(name='no pair', parts=[(0, 1), (1, 1)], result=2)], colours=3))
    # 12. ranges that the volume forces, and a mirror paradox with screws into 2x2x4
    write('12_paradox_2x2x4.xmpuzzle', puzzle([('A', A4), ('B', B4), ('O', O4), ('box', box(2, 2, 4))],
                                              [dict(name='A 0..2 B 0..2 O 0..2', parts=[(0, 0, 2), (1, 0, 2), (2, 0, 2)], result=3),
                                               dict(name='A 1..1 B 0..2 O 0..2', parts=[(0, 1, 1), (1, 0, 2), (2, 0, 2)], result=3)]))
    # 13. a pool: which six of 35 notched sticks (each 0..1, or 0..2) make a solid six-piece burr
    n = len(BURR_POOL)
    write('13_burr_pool.xmpuzzle', puzzle([('S%d' % i, stick(t)) for i, t in enumerate(BURR_POOL)] + [('knot', knot())],
                                          [dict(name='each 0..1', parts=[(i, 0, 1) for i in range(n)], result=n),
                                           dict(name='each 0..2', parts=[(i, 0, 2) for i in range(n)], result=n)]))

main()
