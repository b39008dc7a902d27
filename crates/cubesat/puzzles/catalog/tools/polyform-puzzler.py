"""Writes the catalog files of the puzzles Polyform Puzzler marks "solutions incomplete".

Polyform Puzzler (David Goodger, GPL 2, http://puzzler.sourceforge.net/) is Python 2, so
this script runs under Python 2.7 and imports Polyform Puzzler's own puzzle classes: every
target cell and every piece comes from them, nothing is retyped. No Polyform Puzzler code is
copied into cubesat; what the files hold are the puzzles' cells (facts), with the source cited.

    python2.7 crates/cubesat/puzzles/catalog/tools/polyform-puzzler.py PUZZLER_DIR crates/cubesat/puzzles/catalog

Which puzzles: every link "solutions incomplete <../solutions/DIR/NAME.txt>" in the
documentation (docs/*.txt) with DIR `cubes` (polycubes) or `ominoes` (polyominoes on the
square grid); NAME is also the front-end script bin/DIR/NAME.py, which names the class.
Kept are the puzzles cubesat expresses: one figure (one component), pieces that turn freely
(in space for polycubes; on a board one cell thick, turning a piece over is a turn in space,
so one-sided polyomino sets are left out, as are pseudo-3D puzzles whose planar pieces stay in
their layer). Polyform Puzzler's symmetry restrictions (fewer aspects for one piece, in
`customize_piece_data` or a `build_matrix` of the class) only break the figure's symmetry:
the files give every piece every orientation and cubesat counts in its modes instead.

Each file is `catalog/FAMILY/NAME.json`, FAMILY the documentation page's name; a file that
exists keeps its `catalog.cubesat`, `catalog.incomplete.counted` and
`catalog.incomplete.estimate` (the measured parts), so the script can be rerun. It prints one
line per puzzle, kept or left out with the reason.
"""

from __future__ import print_function

import inspect
import io
import json
from collections import OrderedDict
import os
import re
import sys

MAX_NAME = 40
DOCS_URL = 'https://puzzler.sourceforge.net/docs/%s.html'


def links(pp):
    """(doc, dir, name) of every "solutions incomplete" link, the g4gX page last."""
    docs = sorted(d for d in os.listdir(os.path.join(pp, 'docs')) if d.endswith('.txt'))
    docs.sort(key=lambda d: d == 'g4gX.txt')
    seen = set()
    for doc in docs:
        text = io.open(os.path.join(pp, 'docs', doc), encoding='utf-8').read()
        for m in re.finditer(
                r'solutions incomplete\s*<\.\./solutions/(cubes|ominoes)/([^>]+)\.txt>', text):
            key = (m.group(1), m.group(2))
            if key not in seen:
                seen.add(key)
                yield doc[:-4], m.group(1), m.group(2), section(text, m.start())


def section(text, pos):
    """The title of the documentation section holding `pos` (reStructuredText underlines)."""
    lines = text[:pos].split('\n')
    for i in range(len(lines) - 1, 0, -1):
        under = lines[i].strip()
        if len(under) >= 3 and len(set(under)) == 1 and under[0] in '=-~^':
            title = lines[i - 1].strip()
            if title and len(set(title)) > 1:
                return title
    return ''


def puzzle_class(pp, d, name):
    src = io.open(os.path.join(pp, 'bin', d, name + '.py'), encoding='utf-8').read()
    m = re.search(r'from (puzzler\.puzzles\.\w+) import\s*\\?\s*(\w+)', src)
    module = __import__(m.group(1), fromlist=[m.group(2)])
    return m.group(1), getattr(module, m.group(2))


def rotations3():
    """The 24 rotations of space as functions of (x, y, z)."""
    def compose(f, g):
        return lambda c: f(g(c))
    rx = lambda c: (c[0], -c[2], c[1])
    ry = lambda c: (c[2], c[1], -c[0])
    rz = lambda c: (-c[1], c[0], c[2])
    found = {}
    frontier = [lambda c: c]
    probe = ((1, 2, 3),)
    while frontier:
        f = frontier.pop()
        key = tuple(f(c) for c in probe)
        if key in found:
            continue
        found[key] = f
        for r in (rx, ry, rz):
            frontier.append(compose(r, f))
    return list(found.values())


ROTATIONS = rotations3()


def normal(cells):
    lo = [min(c[i] for c in cells) for i in range(3)]
    return tuple(sorted(tuple(c[i] - lo[i] for i in range(3)) for c in cells))


def canonical(cells):
    """The least of a piece's 24 rotated forms: equal for pieces that are the same solid."""
    return min(normal([r(c) for c in cells]) for r in ROTATIONS)


def layers(cells):
    """Layer art: one list of rows per z, rows from the highest y down (as the pictures)."""
    cells = normal(cells)
    X, Y, Z = [max(c[i] for c in cells) + 1 for i in range(3)]
    s = set(cells)
    return [[''.join('#' if (x, y, z) in s else '.' for x in range(X))
             for y in range(Y - 1, -1, -1)] for z in range(Z)]


def expressible(cls):
    """None, or why cubesat does not express the puzzle as written."""
    mro = [k.__name__ for k in inspect.getmro(cls)]
    if len(cls.components()) > 1:
        return 'several components'
    if 'PuzzlePseudo3D' in mro and cls.depth > 1:
        return 'pseudo-3D: planar pieces kept in their layers'
    if any(n.startswith('OneSided') for n in mro):
        return 'one-sided polyominoes (a piece on a board cannot be turned over)'
    if 'Puzzle3D' not in mro and 'Puzzle2D' not in mro:
        return 'not a square or cube grid'
    return None


def puzzle_cells(p):
    """The target cells and the pieces (name, cells), with z = 0 for a board."""
    dim = 3 if 'Puzzle3D' in [k.__name__ for k in inspect.getmro(type(p))] else 2
    coords = sorted(tuple(c) + (0,) * (3 - len(c)) for c in p.solution_coords)
    pieces = []
    for name in sorted(p.piece_data):
        units = tuple(p.piece_data[name][0])
        if p.implied_0:
            units = ((0,) * dim,) + units
        pieces.append((name, [tuple(c) + (0,) * (3 - len(c)) for c in units]))
    return coords, pieces


def file_name(d, name):
    if len(name) <= MAX_NAME:
        return name
    short = name.replace('non-convex-', 'nonconvex-').replace('pentacubes', 'pcubes')
    assert len(short) <= MAX_NAME, name
    return short


def record(doc, d, name, title, modname, cls, old):
    p = cls(init_puzzle=False)
    coords, raw = puzzle_cells(p)
    # Identical pieces (Kadon's second N06 in the hexominoes plus) are one piece with copies:
    # cubesat does not tell copies apart, as Polyform Puzzler's solution check does not.
    merged = []
    for pname, cells in raw:
        key = canonical(cells)
        for m in merged:
            if m[2] == key:
                m[1] += 1
                m[3].append(pname)
                break
        else:
            merged.append([pname, 1, key, [pname], cells])
    pieces = []
    for pname, count, _, names, cells in merged:
        piece = OrderedDict([('name', pname), ('layers', layers(cells))])
        if count > 1:
            piece['count'] = count
            piece['comment'] = 'Polyform Puzzler\'s pieces %s, the same solid' % ', '.join(names)
        pieces.append(piece)
    piece_cells = sum(len(m[4]) * m[1] for m in merged)
    if piece_cells != len(coords):
        return None, 'the pieces have %d cells, the figure %d' % (piece_cells, len(coords))
    kind = 'polycube' if d == 'cubes' else 'polyomino'
    doc_cite = '%s, section "%s"' % (DOCS_URL % doc, title) if title else DOCS_URL % doc
    source = ('David Goodger, Polyform Puzzler documentation, %s; the puzzle is the class %s.%s '
              '(front end bin/%s/%s.py), whose documentation marks it "solutions incomplete"'
              % (doc_cite, modname, cls.__name__, d, name))
    description = (
        'Polyform Puzzler\'s %s: %d %s pieces (%s, each used once%s) fill a figure of %d cells%s. '
        'Polyform Puzzler lists its solutions as incomplete.'
        % (cls.__name__, sum(m[1] for m in merged), kind, ', '.join(m[0] for m in merged[:6]) +
           (', ...' if len(merged) > 6 else ''),
           '' if all(m[1] == 1 for m in merged) else '; copies of a piece are not told apart',
           len(coords), ', one cell thick' if d == 'ominoes' else ''))
    incomplete = OrderedDict([
        ('source', source),
        ('convention', convention(p, cls))])
    catalog = OrderedDict([('family', doc), ('published', None), ('incomplete', incomplete)])
    if old:
        oc = old.get('catalog', {})
        if 'cubesat' in oc:
            catalog['cubesat'] = oc['cubesat']
        if oc.get('slow'):
            catalog['slow'] = True
        for k in ('counted', 'estimate', 'at_least'):
            if k in oc.get('incomplete', {}):
                incomplete[k] = oc['incomplete'][k]
    layers_t = layers(coords) if coords else []
    out = {
        'name': title_name(name),
        'description': description,
        'target': {'layers': layers_t},
        'pieces': pieces,
        'catalog': catalog,
    }
    return out, None


def convention(p, cls):
    """What Polyform Puzzler's solver of this class lists, and the cubesat mode it matches.

    Its solver lists every exact cover of the rows it builds: a class that restricts no
    piece lists every placement; one that gives a piece fewer aspects (or places), or checks
    for duplicates, means to list each solution once up to the figure's symmetries.
    """
    p.build_aspects()
    restricted = sorted(
        name for name in p.aspects
        if len(p.aspects[name]) < len(p.make_aspects(tuple(p.piece_data[name][0]))))
    own = [k for k in inspect.getmro(cls)
           if k.__module__.startswith('puzzler.puzzles.') and k.__name__ not in
           ('Puzzle', 'Puzzle2D', 'Puzzle3D')]
    matrix = any('build_matrix' in k.__dict__ for k in own)
    if not restricted and not matrix and not cls.check_for_duplicates:
        return ('Polyform Puzzler\'s class restricts no piece and checks no duplicates, so its '
                'solver lists every placement: cubesat\'s none mode')
    how = []
    if restricted:
        how.append('gives piece %s fewer orientations' % ', '.join(restricted))
    if matrix:
        how.append('builds its own rows (restricting where pieces go)')
    if cls.check_for_duplicates:
        how.append('drops duplicate solutions')
    return ('Polyform Puzzler\'s class %s to list each solution once up to the figure\'s '
            'symmetries: cubesat\'s rotation mode (turning a board over is a rotation in '
            'space), where the restriction removes every symmetry' % ' and '.join(how))


def title_name(name):
    words = name.replace('-', ' ')
    return words[0].upper() + words[1:]


def write(path, obj):
    order = ['name', 'description', 'target', 'pieces', 'catalog']
    lines = ['{']
    for i, k in enumerate(order):
        comma = ',' if i < len(order) - 1 else ''
        if k == 'pieces':
            lines.append('  "pieces": [')
            for j, pc in enumerate(obj['pieces']):
                lines.append('    ' + json.dumps(pc, separators=(', ', ': ')) +
                             (',' if j < len(obj['pieces']) - 1 else ''))
            lines.append('  ]' + comma)
        elif k == 'target':
            lines.append('  "target": {"layers": [')
            L = obj['target']['layers']
            for j, layer in enumerate(L):
                lines.append('    ' + json.dumps(layer) + (',' if j < len(L) - 1 else ''))
            lines.append('  ]}' + comma)
        else:
            body = json.dumps(obj[k], indent=2, ensure_ascii=False, separators=(',', ': '))
            body = body.replace('\n', '\n  ')
            lines.append('  %s: %s%s' % (json.dumps(k), body, comma))
    lines.append('}')
    with io.open(path, 'w', encoding='utf-8') as f:
        f.write(u'\n'.join(lines) + u'\n')


def main():
    pp, out = sys.argv[1], sys.argv[2]
    sys.path.insert(0, pp)
    kept = left = 0
    for doc, d, name, title in links(pp):
        modname, cls = puzzle_class(pp, d, name)
        why = expressible(cls)
        fname = file_name(d, name)
        path = os.path.join(out, doc, fname + '.json')
        obj = None
        if why is None:
            old = json.load(io.open(path, encoding='utf-8')) if os.path.exists(path) else None
            obj, why = record(doc, d, name, title, modname, cls, old)
        if why is not None:
            left += 1
            print('left out %s/%s (%s.%s): %s' % (d, name, modname, cls.__name__, why))
            continue
        kept += 1
        if not os.path.isdir(os.path.join(out, doc)):
            os.makedirs(os.path.join(out, doc))
        write(path, obj)
        print('wrote %s' % path)
    print('%d written, %d left out' % (kept, left))


if __name__ == '__main__':
    main()
