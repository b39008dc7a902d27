"""What the writers of Polyform Puzzler's flat families share (polyform-puzzler-iamonds.py and
polyform-puzzler-hexes.py, Python 2.7 like Polyform Puzzler): finding a puzzle's class, its
cells and distinct pieces, the catalog file's name, object and text, the convention and source
of its count, counting it with cubesat in the three modes and with dancing links, and the loop
that writes the files.

Each writer keeps what is its grid's own: how Polyform Puzzler's cells become typed art, the
lattice's symmetries, which puzzles it takes and how it words them.
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

MAX_NAME = 40
DOCS_URL = 'https://puzzler.sourceforge.net/docs/%s.html'
MODES = ['none', 'rotation', 'rotation+reflection']
SLOW_CPU = 10.0


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


def puzzle_class(pp, name, zero, bin_dir):
    """The module name, class and front-end script (None for a figure of `zero`, which has
    none) of the puzzle `name`: a front end bin/BIN_DIR/NAME.py names its class."""
    for doc, zname, modname, clsname, words in zero:
        if zname == name:
            module = __import__(modname, fromlist=[clsname])
            return modname, getattr(module, clsname), None
    script = 'bin/%s/%s.py' % (bin_dir, name)
    src = io.open(os.path.join(pp, script), encoding='utf-8').read()
    m = re.search(r'from (puzzler\.puzzles\.\w+) import\s*[\\(]?\s*(\w+)', src)
    module = __import__(m.group(1), fromlist=[m.group(2)])
    return m.group(1), getattr(module, m.group(2)), script


def canonical(cells, syms):
    """The least of a piece's images under `syms`, each moved so that its least x and least y
    are 0 (the coordinates after x and y, such as a triangle's z, are kept)."""
    best = None
    for s in syms:
        m = [s(c) for c in cells]
        lo = (min(c[0] for c in m), min(c[1] for c in m))
        key = tuple(sorted((c[0] - lo[0], c[1] - lo[1]) + tuple(c[2:]) for c in m))
        if best is None or key < best:
            best = key
    return best


def puzzle_cells(p, origin):
    """The figure's cells, sorted, and each piece's (name, cells); `origin` is the cell a class
    with `implied_0` leaves out of every piece."""
    coords = sorted(tuple(c) for c in p.solution_coords)
    pieces = []
    for name in sorted(p.piece_data):
        units = tuple(tuple(c) for c in p.piece_data[name][0])
        if p.implied_0:
            units = (origin,) + units
        pieces.append((name, list(units)))
    return coords, pieces


def file_name(name, short_words):
    """The file's name: the puzzle's in lower case (a catalog name is a-z, 0-9 and '-'), with
    `short_words` replaced when over MAX_NAME."""
    short = name.lower()
    for a, b in short_words if len(name) > MAX_NAME else ():
        short = short.replace(a, b)
    assert len(short) <= MAX_NAME, name
    return short


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
    if count is None:
        # The wording record.py reads the mode from ("cubesat's MODE mode").
        if not how:
            return ('Polyform Puzzler\'s class restricts no piece and drops no duplicates, so '
                    'its solver lists every placement: cubesat\'s none mode')
        return ('Polyform Puzzler lists each solution once up to the figure\'s symmetries, '
                'rotations and reflections in the plane (its class %s); on a board one prism '
                'thick a reflection in the plane is a half turn in space: cubesat\'s rotation '
                'mode' % ' and '.join(how))
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
        # Killed at the cap: SIGXCPU or SIGKILL (the kernel's CPU clock runs a little ahead of
        # the one getrusage reports for a multithreaded process).
        if cpu >= limit or proc.returncode in (-9, -24):
            return None, cpu
        raise RuntimeError('%s %s: exit %d after %.1f CPU s: %s'
                           % (path, ' '.join(args), proc.returncode, cpu, err))
    return int(m.group(1)), cpu


def count(cubesat, path, obj, limit):
    """Counts in the three modes and dancing links in the rotation mode, the four runs under
    `limit` CPU seconds together (each run gets what the earlier ones left); None when over."""
    counts = OrderedDict()
    total = 0.0
    runs = [(mode, ['--up-to', mode]) for mode in MODES]
    runs.append(('dlx', ['--up-to', 'rotation', '--engine', 'dlx']))
    for what, args in runs:
        left = limit - total
        n = None
        if left >= 1:
            n, cpu = run(cubesat, path, args, left)
            total += cpu
        if n is None:
            return None, total, '%s over the %g CPU s of the four counts' % (
                'dancing links' if what == 'dlx' else 'mode ' + what, limit)
        if what == 'dlx' and n != counts['rotation']:
            raise RuntimeError('%s: dancing links counts %d, the exact engine %d'
                               % (path, n, counts['rotation']))
        counts.setdefault(what, n)
    counts.pop('dlx', None)
    return counts, total, None


def settle(obj, path, fname, cubesat, limit):
    """Counts the puzzle `obj` (to be written at `path`) with `cubesat` when it has no counts
    yet, and checks its count against the published one: (why it is left out or None, CPU
    seconds spent). A count that differs needs a finding; a finding needs counts that differ."""
    cpu = 0.0
    why = None
    if obj['catalog']['published'] is None:
        # An open count runs in shards and is recorded by record.py, not here.
        return None, cpu
    if 'cubesat' not in obj['catalog'] and cubesat:
        tmp = path + '.tmp'
        if not os.path.isdir(os.path.dirname(path)):
            os.makedirs(os.path.dirname(path))
        write(tmp, obj)
        try:
            counts, cpu, over = count(cubesat, tmp, obj, limit)
        finally:
            os.remove(tmp)
        if counts is None:
            why = 'not counted: %s (%.1f CPU s spent)' % (over, cpu)
        else:
            c = obj['catalog']
            c['cubesat'] = counts
            c.pop('slow', None)
            if cpu > SLOW_CPU:
                c['slow'] = True
            print('counted %s: %s (%.2f CPU s)' % (fname, dict(counts), cpu))
    if why is None and 'cubesat' not in obj['catalog']:
        why = 'not counted (no CUBESAT given and no earlier file)'
    if why is None:
        pub = obj['catalog']['published'][0]
        mine = obj['catalog']['cubesat'][pub['up_to']]
        if mine != pub['count'] and 'finding' not in pub:
            why = ('cubesat counts %d %s, the page %d: no finding in FINDINGS'
                   % (mine, pub['up_to'], pub['count']))
        elif mine == pub['count'] and 'finding' in pub:
            why = 'a finding in FINDINGS, but the counts agree (%d)' % mine
    return why, cpu


def distinct_pieces(raw, coords, syms, noun, cells_noun):
    """The pieces as (name, cells), or why the puzzle is left out: two of them the same
    `noun` under `syms`, or their cells (`cells_noun`) not as many as the figure's."""
    merged = []
    for pname, cells in raw:
        key = canonical(cells, syms)
        for m in merged:
            if m[2] == key:
                return None, 'pieces %s and %s are the same %s' % (m[0], pname, noun)
        merged.append([pname, 1, key, cells])
    piece_cells = sum(len(m[3]) for m in merged)
    if piece_cells != len(coords):
        return None, 'the pieces have %d %s, the figure %d' % (piece_cells, cells_noun, len(coords))
    return [(m[0], m[3]) for m in merged], None


def catalog_entry(pp, p, cls, doc, count, words, title, where, modname, script, fname, findings,
                  old):
    """The file's `catalog`: the published count with its convention, source (the page's
    words, or with `where` 'docstring' the class's) and finding, and the counts and `slow` of
    the file as it was (`old`)."""
    doc_cite = '%s (%s)' % (DOCS_URL % doc, title) if title else DOCS_URL % doc
    page = io.open(os.path.join(pp, 'docs', doc + '.txt'), encoding='utf-8').read()
    page_title = re.search(r'^=+\n\s*(.+?)\s*\n=+$', page, re.M).group(1)
    if where == 'docstring':
        source = ('David Goodger, Polyform Puzzler (https://puzzler.sourceforge.net/), its source '
                  'file %s.py, class %s, whose docstring says "%s" (one of its `_x` classes, '
                  'figures found to have no solution); the figure is not shown in the '
                  'documentation, "%s", %s, which gives the set\'s puzzles that have solutions'
                  % (modname.replace('.', '/'), cls.__name__, words, page_title, doc_cite))
    else:
        source = ('David Goodger, Polyform Puzzler documentation, "%s", %s: "%s"; the puzzle is '
                  'the class %s.%s%s' % (page_title, doc_cite, words, modname, cls.__name__,
                                         ' (front end %s)' % script if script else ''))
    conv = convention(p, cls, count)
    if count is None:
        return incomplete_entry(doc, source, conv, old)
    published = OrderedDict([
        ('count', count),
        ('up_to', 'none' if 'none mode' in conv else 'rotation'),
        ('convention', conv),
        ('source', source)])
    if fname in findings:
        verdict, matches, text = findings[fname]
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
    return catalog


def incomplete_entry(doc, source, conv, old):
    """The `catalog` of a puzzle whose page says "solutions incomplete": no published count,
    its source and convention, and what the file as it was (`old`) had measured (cubesat's
    counts, `slow`, `incomplete.counted` or `estimate`, which record.py writes)."""
    incomplete = OrderedDict([('source', source), ('convention', conv)])
    catalog = OrderedDict([('family', doc), ('published', None)])
    oc = (old or {}).get('catalog', {})
    if 'cubesat' in oc:
        catalog['cubesat'] = oc['cubesat']
    if oc.get('slow'):
        catalog['slow'] = True
    for k in ('counted', 'estimate'):
        if k in oc.get('incomplete', {}):
            incomplete[k] = oc['incomplete'][k]
    catalog['incomplete'] = incomplete
    return catalog


def puzzle_file(name, description, grid, target, pieces, catalog):
    """A catalog file's object: one layer of art for the target and for each (name, art)."""
    return OrderedDict([
        ('name', title_name(name)),
        ('description', description),
        ('grid', grid),
        ('target', {'layers': [target]}),
        ('pieces', [OrderedDict([('name', n), ('layers', [a])]) for n, a in pieces]),
        ('catalog', catalog),
    ])


def write_all(out, cubesat, limit, short_words, puzzles):
    """Writes a catalog file per puzzle of `puzzles` (doc, name, module name, class, why it is
    left out or None, and `record(old)` -> (the file's object, why)) that is kept, after
    `settle`; prints a line per puzzle and the totals."""
    kept = left = 0
    cpu_total = 0.0
    families = {}
    for doc, name, modname, cls, why, record in puzzles:
        obj = None
        if why is None:
            fname = file_name(name, short_words)
            path = os.path.join(out, doc, fname + '.json')
            # In the file's key order (Python 2's dict has none), so that a rerun rewrites it as it is.
            old = (json.load(io.open(path, encoding='utf-8'), object_pairs_hook=OrderedDict)
                   if os.path.exists(path) else None)
            obj, why = record(old)
        if why is None:
            why, cpu = settle(obj, path, fname, cubesat, limit)
            cpu_total += cpu
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


def page_links(pp, bin_dir, incomplete=False):
    """(doc, name, count, words, section) of every link "N solutions <../solutions/BIN_DIR/
    NAME.txt>" in the documentation, each NAME once, the g4gX page last; with `incomplete`,
    then of every link "solutions incomplete <...>", with count None."""
    for link in counted_links(pp, bin_dir):
        yield link
    if not incomplete:
        return
    seen = set()
    for doc in doc_pages(pp):
        text = io.open(os.path.join(pp, 'docs', doc), encoding='utf-8').read()
        pattern = r'`(solutions\s+incomplete)\s*<\.\./solutions/%s/([^>]+)\.txt>`__' % bin_dir
        for m in re.finditer(pattern, text):
            name = m.group(2)
            if name in seen:
                continue
            seen.add(name)
            yield doc[:-4], name, None, 'solutions incomplete', section(text, m.start())


def doc_pages(pp):
    """The documentation pages, the g4gX page last."""
    docs = sorted(d for d in os.listdir(os.path.join(pp, 'docs')) if d.endswith('.txt'))
    docs.sort(key=lambda d: d == 'g4gX.txt')
    return docs


def counted_links(pp, bin_dir):
    """[`page_links`]'s links with a count."""
    seen = set()
    for doc in doc_pages(pp):
        text = io.open(os.path.join(pp, 'docs', doc), encoding='utf-8').read()
        pattern = r'`([^`<]*?)\s*<\.\./solutions/%s/([^>]+)\.txt>`__' % bin_dir
        for m in re.finditer(pattern, text):
            words = ' '.join(m.group(1).split())
            c = re.match(r'([\d,]+) (?:and only )?solutions?\b', words)
            name = m.group(2)
            if c is None or name in seen:
                continue
            seen.add(name)
            yield (doc[:-4], name, int(c.group(1).replace(',', '')), words,
                   section(text, m.start()))


def lattice_symmetries(frame):
    """The 12 symmetries of a plane lattice as maps of Polyform Puzzler's cells: its
    coordinate class `frame` (in puzzler.coordsys)'s own rotate0 and flip0, so two pieces are
    the same when some map and a translation take one onto the other."""
    from puzzler import coordsys
    make = getattr(coordsys, frame)
    out = []
    for flip in (False, True):
        for r in range(6):
            def f(c, r=r, flip=flip):
                t = make(c)
                if flip:
                    t = t.flip0()
                return tuple(t.rotate0(r))
            out.append(f)
    return out


def expressible(cls, base, plural, lattice, rule=''):
    """None, or why cubesat does not express the puzzle as written: `base` is the class of the
    family's puzzles (`plural` its pieces, on a `lattice` grid); `rule` says what a class's own
    `record_solution` keeps, where the family has one."""
    mro = inspect.getmro(cls)
    names = [k.__name__ for k in mro]
    own = [k for k in mro if k.__module__.startswith('puzzler.puzzles.')
           and k.__name__ not in ('Puzzle', 'Puzzle2D', 'Puzzle3D', 'PuzzlePseudo3D')]
    if len(cls.components()) > 1:
        return 'several components'
    if any(n.startswith('OneSided') for n in names):
        return 'one-sided %s (a piece on a board cannot be turned over)' % plural
    if base not in names:
        return 'not a %s grid' % lattice
    if any('record_solution' in k.__dict__ for k in own):
        return ('the class keeps only the solutions meeting a rule of its own (record_solution%s), '
                'which cubesat does not express' % rule)
    if cls.secondary_columns:
        return 'secondary cells (a piece left out in a cover of its own)'
    return None
