"""Records cubesat's measurements in the catalog files of puzzles whose source left the count
incomplete (the `incomplete` key, see crates/cubesat/puzzles/README.md).

    python3 crates/cubesat/puzzles/catalog/tools/record.py CATALOG_DIR MEASURED_DIR DATE

MEASURED_DIR holds, per puzzle NAME (the file name without .json):
- `est/NAME.json`: `cubesat estimate FILE --seconds S --seed N --up-to rotation --format json`
  (the puzzle's file without its `catalog` key, which an older binary does not read);
- `count/NAME.MODE` and `count/NAME.MODE.time`: the stdout of `cubesat solve FILE --count
  --up-to MODE --threads 1` and `/usr/bin/time -f "%U %S %e"` of it, for MODE none, rotation
  and rotation+reflection.
A puzzle counted in all three modes gets the counts, `counted` (the CPU seconds of the three
together) and `slow` when they took more than 0.3 CPU seconds (the catalog test counts the
others, twice); otherwise it gets the estimate, unless its file has a count already. A puzzle
MEASURED_DIR has nothing for is left as it is, so a folder may hold a few puzzles'
measurements.
"""

import json
import os
import re
import sys
from collections import OrderedDict

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import puzzler_flat  # noqa: E402

MODES = ['none', 'rotation', 'rotation+reflection']
SLOW_CPU = 0.3


def count(measured, name, mode):
    path = os.path.join(measured, 'count', '%s.%s' % (name, mode))
    if not os.path.exists(path):
        return None
    m = re.match(r'(\d+) solution', open(path).read())
    if not m:
        return None
    user, system, _ = open(path + '.time').read().split()[-3:]
    return int(m.group(1)), float(user) + float(system)


def pp_mode(convention):
    """The cubesat mode a record's convention names ("... cubesat's none mode")."""
    m = re.search(r"cubesat's ([a-z+]+) mode", convention)
    if not m or m.group(1) not in MODES:
        raise ValueError('no cubesat mode in the convention: %r' % convention)
    return m.group(1)


def update(path, measured, date):
    name = os.path.basename(path)[:-5]
    d = json.load(open(path), object_pairs_hook=OrderedDict)
    c = d.get('catalog', {})
    inc = c.get('incomplete')
    if inc is None:
        return None
    counts = [count(measured, name, m) for m in MODES]
    est = os.path.join(measured, 'est', name + '.json')
    has_est = os.path.exists(est) and os.path.getsize(est) > 0
    if not all(counts) and not has_est:
        # Nothing measured for it here: the file keeps what it has (a MEASURED_DIR may hold
        # a few puzzles' measurements).
        return None
    if not all(counts) and 'counted' in inc:
        # A count (here or from shard records, record-shards.py) outranks an estimate.
        return 'kept its count, not the estimate'
    for k in ('cubesat', 'slow'):
        c.pop(k, None)
    for k in ('counted', 'estimate'):
        inc.pop(k, None)
    how = None
    if all(counts):
        c['cubesat'] = OrderedDict((m, n) for m, (n, _) in zip(MODES, counts))
        cpu = sum(t for _, t in counts)
        if cpu > SLOW_CPU:
            c['slow'] = True
        inc['counted'] = OrderedDict([
            ('date', date),
            ('cpu_seconds', round(cpu, 2)),
            ('how', 'cubesat solve --count --threads 1 in each of the three modes, the exact '
                    'engine, every solution checked by the verifier; Polyform Puzzler\'s '
                    'convention is the %s mode, whose count is the number of solutions '
                    'it would list when complete' % pp_mode(inc['convention'])),
        ])
        how = 'counted %s (%.1f CPU s)' % (c['cubesat'], cpu)
    if how is None and has_est:
        e = json.load(open(est))
        if e['nodes'] is None:
            # No probe finished: there is no estimate to record, only a lower bound.
            return 'no estimate: no probe finished in %.1f s' % e['seconds']
        inc['estimate'] = OrderedDict([
            ('up_to', e['up_to']),
            ('nodes', float('%.4g' % e['nodes'])),
            ('low', float('%.4g' % e['low'])),
            ('high', None if e['high'] is None else float('%.4g' % e['high'])),
            ('cpu_seconds', float('%.4g' % e['cpu_seconds'])),
            ('seconds', round(e['seconds'], 1)),
            ('seed', e.get('seed', 1)),
            ('date', date),
        ])
        how = 'estimated %.3g nodes, %.3g CPU s' % (e['nodes'], e['cpu_seconds'])
    save(path, d, c)
    return how


def save(path, d, c):
    """Writes the file `d` with its catalog `c`, the catalog's keys in their usual order, in
    the layout its writer gave it (a flat family's, with a `grid`, or this script's)."""
    order = ['family', 'published', 'cubesat', 'slow', 'incomplete']
    d['catalog'] = OrderedDict((k, c[k]) for k in order if k in c)
    (puzzler_flat.write if 'grid' in d else write)(path, d)


def write(path, d):
    """The generator's layout: one piece and one layer per line."""
    lines = ['{']
    keys = list(d.keys())
    for i, k in enumerate(keys):
        comma = ',' if i < len(keys) - 1 else ''
        if k == 'pieces':
            lines.append('  "pieces": [')
            for j, pc in enumerate(d[k]):
                lines.append('    ' + json.dumps(pc, separators=(', ', ': ')) +
                             (',' if j < len(d[k]) - 1 else ''))
            lines.append('  ]' + comma)
        elif k == 'target' and list(d[k].keys()) == ['layers']:
            lines.append('  "target": {"layers": [')
            L = d[k]['layers']
            for j, layer in enumerate(L):
                lines.append('    ' + json.dumps(layer) + (',' if j < len(L) - 1 else ''))
            lines.append('  ]}' + comma)
        else:
            body = json.dumps(d[k], indent=2, ensure_ascii=False).replace('\n', '\n  ')
            lines.append('  %s: %s%s' % (json.dumps(k), body, comma))
    lines.append('}')
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


def main():
    catalog, measured, date = sys.argv[1:4]
    for family in sorted(os.listdir(catalog)):
        folder = os.path.join(catalog, family)
        if not os.path.isdir(folder) or family == 'tools':
            continue
        for f in sorted(os.listdir(folder)):
            if f.endswith('.json'):
                how = update(os.path.join(folder, f), measured, date)
                if how:
                    print('%s/%s: %s' % (family, f[:-5], how))


if __name__ == '__main__':
    main()
