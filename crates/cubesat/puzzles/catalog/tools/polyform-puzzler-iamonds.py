"""Writes the catalog files of Polyform Puzzler's polyiamond puzzles with published counts.

Polyform Puzzler (David Goodger, GPL 2, http://puzzler.sourceforge.net/) is Python 2, so
this script runs under Python 2.7 and imports Polyform Puzzler's own puzzle classes: every
target cell and every piece comes from them, nothing is retyped. No Polyform Puzzler code is
copied into cubesat; what the files hold are the puzzles' cells (facts), with the source cited.

    python2.7 crates/cubesat/puzzles/catalog/tools/polyform-puzzler-iamonds.py \\
        PUZZLER_DIR crates/cubesat/puzzles/catalog [CUBESAT [MAX_CPU_SECONDS]]

Which puzzles: every link "N solutions <../solutions/iamonds/NAME.txt>" in the documentation
(docs/*.txt, the g4gX page last, each NAME once) and the two figures the hexiamonds page says
have no solution without linking a file (`ZERO` below); NAME is also the front-end script
bin/iamonds/NAME.py, which names the class. The links "solutions incomplete" (all the
heptiamonds, orders 1-6 and 1-7) are not taken: their counts are unknown.
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
import json
from collections import OrderedDict
import os
import re
import resource
import subprocess
import sys

MAX_NAME = 40
DOCS_URL = 'https://puzzler.sourceforge.net/docs/%s.html'
MODES = ['none', 'rotation', 'rotation+reflection']
SLOW_CPU = 10.0

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
         ('semiregular-hexagon', 'semireg-hexagon')]

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
    """(doc, name, count, words, section) of every counted iamond link, the g4gX page last."""
    docs = sorted(d for d in os.listdir(os.path.join(pp, 'docs')) if d.endswith('.txt'))
    docs.sort(key=lambda d: d == 'g4gX.txt')
    seen = set()
    for doc in docs:
        text = io.open(os.path.join(pp, 'docs', doc), encoding='utf-8').read()
        for m in re.finditer(r'`([^`<]*?)\s*<\.\./solutions/iamonds/([^>]+)\.txt>`__', text):
            words = ' '.join(m.group(1).split())
            c = re.match(r'([\d,]+) (?:and only )?solutions?\b', words)
            name = m.group(2)
            if c is None or name in seen:
                continue
            seen.add(name)
            yield (doc[:-4], name, int(c.group(1).replace(',', '')), words,
                   section(text, m.start()))
    for doc, name, modname, clsname, words in ZERO:
        text = io.open(os.path.join(pp, 'docs', doc + '.txt'), encoding='utf-8').read()
        m = re.search(r'\s+'.join(re.escape(w) for w in words.split()), text)
        assert m, words
        yield doc, name, 0, words, section(text, m.start())


def section(text, pos):
    """The title of the documentation section holding `pos` (reStructuredText underlines),
    with the part's title above it when the section is a part's subsection."""
    lines = text[:pos].split('\n')
    titles = []
    for i in range(len(lines) - 1, 0, -1):
        under = lines[i].strip()
        if len(under) >= 3 and len(set(under)) == 1 and under[0] in '=-~^':
            title = lines[i - 1].strip()
            if title and len(set(title)) > 1:
                titles.append((under[0], title))
    if not titles:
        return ''
    first = titles[0]
    part = next((t for c, t in titles if c == '='), None)
    if first[0] == '=' or part is None:
        return 'section "%s"' % first[1]
    return 'part "%s", section "%s"' % (part, first[1])


def puzzle_class(pp, name):
    for doc, zname, modname, clsname, words in ZERO:
        if zname == name:
            module = __import__(modname, fromlist=[clsname])
            return modname, getattr(module, clsname), None
    script = 'bin/iamonds/%s.py' % name
    src = io.open(os.path.join(pp, script), encoding='utf-8').read()
    m = re.search(r'from (puzzler\.puzzles\.\w+) import\s*[\\(]?\s*(\w+)', src)
    module = __import__(m.group(1), fromlist=[m.group(2)])
    return m.group(1), getattr(module, m.group(2)), script


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


# The 12 symmetries of the triangular lattice as maps of Polyform Puzzler's (x, y, z):
# Triangular3D's own rotate0 and flip0, so two pieces are the same polyiamond when some map
# and a translation take one onto the other.
def symmetries():
    from puzzler import coordsys
    out = []
    for flip in (False, True):
        for r in range(6):
            def f(c, r=r, flip=flip):
                t = coordsys.Triangular3D(c)
                if flip:
                    t = t.flip0()
                return tuple(t.rotate0(r))
            out.append(f)
    return out


def canonical(cells, syms):
    best = None
    for s in syms:
        m = [s(c) for c in cells]
        lo = (min(c[0] for c in m), min(c[1] for c in m))
        key = tuple(sorted((x - lo[0], y - lo[1], z) for x, y, z in m))
        if best is None or key < best:
            best = key
    return best


def expressible(cls):
    """None, or why cubesat does not express the puzzle as written."""
    mro = inspect.getmro(cls)
    names = [k.__name__ for k in mro]
    own = [k for k in mro if k.__module__.startswith('puzzler.puzzles.')
           and k.__name__ not in ('Puzzle', 'Puzzle2D', 'Puzzle3D', 'PuzzlePseudo3D')]
    if len(cls.components()) > 1:
        return 'several components'
    if any(n.startswith('OneSided') for n in names):
        return 'one-sided polyiamonds (a piece on a board cannot be turned over)'
    if 'Polyiamonds' not in names:
        return 'not a triangular grid'
    if any('record_solution' in k.__dict__ for k in own):
        return ('the class keeps only the solutions meeting a rule of its own (record_solution: '
                'the colours of Kadon\'s Iamond Hex), which cubesat does not express')
    if cls.secondary_columns:
        return 'secondary cells (a piece left out in a cover of its own)'
    return None


def puzzle_cells(p):
    coords = sorted(tuple(c) for c in p.solution_coords)
    pieces = []
    for name in sorted(p.piece_data):
        units = tuple(tuple(c) for c in p.piece_data[name][0])
        if p.implied_0:
            units = ((0, 0, 0),) + units
        pieces.append((name, list(units)))
    return coords, pieces


def file_name(name):
    short = name
    for a, b in SHORT if len(name) > MAX_NAME else ():
        short = short.replace(a, b)
    assert len(short) <= MAX_NAME, name
    return short


def set_words(cls, pieces):
    """The piece set in words, from the class's bases."""
    names = [k.__name__ for k in inspect.getmro(cls)]
    n = len(pieces)
    listed = ', '.join(pieces)
    if 'HexiamondsChoose9Hexagon' in names:
        return '9 of the 12 free hexiamonds (%s; %s left out)' % (
            listed, ', '.join(sorted(cls.omit)))
    if 'Polyiamonds12345' in names:
        return ('the %d free polyiamonds of orders 1 to 5 (the moniamond, the diamond, the '
                'triamond, 3 tetriamonds and 4 pentiamonds: %s)' % (n, listed))
    if 'Hexiamonds' in names:
        return 'the %d free hexiamonds (%s)' % (n, listed)
    return '%d polyiamonds (%s)' % (n, listed)


def convention(p, cls, count):
    """How Polyform Puzzler's class lists each solution once, and the cubesat mode that is."""
    p.build_aspects()
    restricted = sorted(
        name for name in p.aspects
        if len(p.aspects[name]) < len(p.make_aspects(tuple(p.piece_data[name][0]))))
    how = []
    if restricted:
        how.append('gives piece %s fewer orientations' % ', '.join(restricted))
    if cls.check_for_duplicates:
        how.append('drops the solutions it has seen turned or reflected')
    if count == 0:
        return ('no solution, so 0 in every counting mode (Polyform Puzzler\'s class %s)'
                % (' and '.join(how) if how else 'restricts no piece'))
    if not how:
        return ('"N solutions": Polyform Puzzler\'s class restricts no piece and drops no '
                'duplicates, so it lists every placement: cubesat\'s none mode')
    return ('"N solutions": Polyform Puzzler lists each solution once up to the figure\'s '
            'symmetries, rotations and reflections in the plane (its class %s); on a board one '
            'prism thick a reflection in the plane is a half turn in space, so this is '
            'cubesat\'s count up to rotation' % ' and '.join(how))


def record(doc, name, count, words, title, modname, cls, script, old):
    p = cls(init_puzzle=False)
    coords, raw = puzzle_cells(p)
    syms = symmetries()
    merged = []
    for pname, cells in raw:
        key = canonical(cells, syms)
        for m in merged:
            if m[2] == key:
                return None, 'pieces %s and %s are the same polyiamond' % (m[0], pname)
        merged.append([pname, 1, key, cells])
    piece_cells = sum(len(m[3]) for m in merged)
    if piece_cells != len(coords):
        return None, 'the pieces have %d triangles, the figure %d' % (piece_cells, len(coords))
    pieces = [OrderedDict([('name', m[0]), ('layers', [art(m[3])])]) for m in merged]
    doc_cite = '%s (%s)' % (DOCS_URL % doc, title) if title else DOCS_URL % doc
    page = io.open(os.path.join(PP, 'docs', doc + '.txt'), encoding='utf-8').read()
    page_title = re.search(r'^=+\n\s*(.+?)\s*\n=+$', page, re.M).group(1)
    source = ('David Goodger, Polyform Puzzler documentation, "%s", %s: "%s"; the puzzle is the '
              'class %s.%s%s' % (page_title, doc_cite, words, modname, cls.__name__,
                                 ' (front end %s)' % script if script else ''))
    conv = convention(p, cls, count)
    published = OrderedDict([
        ('count', count),
        ('up_to', 'none' if 'none mode' in conv else 'rotation'),
        ('convention', conv),
        ('source', source)])
    fname = file_name(name)
    if fname in FINDINGS:
        verdict, matches, text = FINDINGS[fname]
        f = OrderedDict([('verdict', verdict)])
        if matches:
            f['matches'] = matches
        f['text'] = text
        published['finding'] = f
    catalog = OrderedDict([('family', doc), ('published', [published])])
    if old:
        oc = old.get('catalog', {})
        if 'cubesat' in oc:
            catalog['cubesat'] = oc['cubesat']
        if oc.get('slow'):
            catalog['slow'] = True
    description = (
        'Polyform Puzzler\'s %s: %s, each used once, fill a figure of %d triangles (%d up, %d '
        'down), a board one prism thick.' % (
            title_name(name), set_words(cls, [m[0] for m in merged]), len(coords),
            sum(1 for c in coords if c[2] == 0), sum(1 for c in coords if c[2] == 1)))
    out = OrderedDict([
        ('name', title_name(name)),
        ('description', description),
        ('grid', 'prisms'),
        ('target', {'layers': [art(coords)]}),
        ('pieces', pieces),
        ('catalog', catalog),
    ])
    return out, None


def title_name(name):
    words = name.replace('-', ' ')
    return words[0].upper() + words[1:]


def write(path, obj):
    lines = ['{']
    keys = list(obj.keys())
    for i, k in enumerate(keys):
        comma = ',' if i < len(keys) - 1 else ''
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
                lines.append('    [')
                for r, row in enumerate(layer):
                    lines.append('      ' + json.dumps(row) + (',' if r < len(layer) - 1 else ''))
                lines.append('    ]' + (',' if j < len(L) - 1 else ''))
            lines.append('  ]}' + comma)
        else:
            body = json.dumps(obj[k], indent=2, ensure_ascii=False, separators=(',', ': '))
            body = body.replace('\n', '\n  ')
            lines.append('  %s: %s%s' % (json.dumps(k), body, comma))
    lines.append('}')
    with io.open(path, 'w', encoding='utf-8') as f:
        f.write(u'\n'.join(lines) + u'\n')


def run(cubesat, path, args, limit):
    """The count cubesat prints and the CPU seconds it took, or (None, seconds) over `limit`."""
    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (int(limit) + 1, int(limit) + 1))
        os.nice(10)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([cubesat, 'solve', path, '--count', '--threads', '1', '-q'] + args,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=cap)
    out, err = proc.communicate()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.match(r'(\d+) solution', out.decode('utf-8'))
    if proc.returncode not in (0, 1) or not m:
        if cpu >= limit:
            return None, cpu
        raise RuntimeError('%s %s: exit %d: %s' % (path, ' '.join(args), proc.returncode, err))
    return int(m.group(1)), cpu


def count(cubesat, path, obj, limit):
    """Counts in the three modes and dancing links in the rotation mode; None when over."""
    counts = OrderedDict()
    total = 0.0
    for mode in MODES:
        n, cpu = run(cubesat, path, ['--up-to', mode], limit)
        total += cpu
        if n is None:
            return None, total, 'mode %s over %g CPU s' % (mode, limit)
        counts[mode] = n
    n, cpu = run(cubesat, path, ['--up-to', 'rotation', '--engine', 'dlx'], limit)
    total += cpu
    if n is None:
        return None, total, 'dancing links over %g CPU s' % limit
    if n != counts['rotation']:
        raise RuntimeError('%s: dancing links counts %d, the exact engine %d'
                           % (path, n, counts['rotation']))
    return counts, total, None


PP = None


def main():
    global PP
    pp, out = sys.argv[1], sys.argv[2]
    cubesat = sys.argv[3] if len(sys.argv) > 3 else None
    limit = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
    PP = pp
    sys.path.insert(0, pp)
    kept = left = 0
    cpu_total = 0.0
    families = {}
    for doc, name, n, words, title in links(pp):
        modname, cls, script = puzzle_class(pp, name)
        why = expressible(cls)
        obj = None
        if why is None:
            fname = file_name(name)
            path = os.path.join(out, doc, fname + '.json')
            old = json.load(io.open(path, encoding='utf-8')) if os.path.exists(path) else None
            obj, why = record(doc, name, n, words, title, modname, cls, script, old)
        if why is None and 'cubesat' not in obj['catalog'] and cubesat:
            tmp = path + '.tmp'
            if not os.path.isdir(os.path.dirname(path)):
                os.makedirs(os.path.dirname(path))
            write(tmp, obj)
            try:
                counts, cpu, over = count(cubesat, tmp, obj, limit)
            finally:
                os.remove(tmp)
            cpu_total += cpu
            if counts is None:
                why = 'not counted: %s' % over
            else:
                c = obj['catalog']
                c['cubesat'] = counts
                c.pop('slow', None)
                if cpu > SLOW_CPU:
                    c['slow'] = True
                print('counted %s: %s (%.2f CPU s)' % (fname, dict(counts), cpu))
        if why is None and 'cubesat' in obj['catalog']:
            pub = obj['catalog']['published'][0]
            mine = obj['catalog']['cubesat'][pub['up_to']]
            if mine != pub['count'] and 'finding' not in pub:
                why = ('cubesat counts %d %s, the page %d: no finding in FINDINGS'
                       % (mine, pub['up_to'], pub['count']))
            elif mine == pub['count'] and 'finding' in pub:
                why = 'a finding in FINDINGS, but the counts agree (%d)' % mine
        if why is not None:
            left += 1
            print('left out %s (%s.%s): %s' % (name, modname, cls.__name__, why))
            continue
        kept += 1
        families[doc] = families.get(doc, 0) + 1
        if not os.path.isdir(os.path.join(out, doc)):
            os.makedirs(os.path.join(out, doc))
        write(path, obj)
        print('wrote %s' % path)
    print('%d written (%s), %d left out; %.1f CPU s of counting' % (
        kept, ', '.join('%s %d' % kv for kv in sorted(families.items())), left, cpu_total))


if __name__ == '__main__':
    main()
