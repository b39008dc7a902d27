"""Prints the Markdown tables of crates/cubesat/puzzles/README.md that the catalog files
decide: the counts finished from committed shard records (counts/NAME/MODE/ of the
repository) and the open counts with their estimates, by family and the cheapest.

    python3 crates/cubesat/puzzles/catalog/tools/open-counts.py [CHEAPEST]

Reads every catalog file under crates/cubesat/puzzles/catalog; writes nothing.
"""

import glob
import json
import math
import os
import statistics
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', '..')
CATALOG = os.path.join(ROOT, 'crates', 'cubesat', 'puzzles', 'catalog')
COUNTS = os.path.join(ROOT, 'counts')
MODES = ['none', 'rotation', 'rotation+reflection']


def duration(s):
    """CPU seconds as the README words them: minutes, hours, days, years."""
    for unit, size, least in (('years', 365 * 86400, 2), ('days', 86400, 2), ('hours', 3600, 1)):
        if s >= least * size:
            n = s / size
            return ('%.2g %s' % (n, unit)) if n < 1000 else ('%.1e %s' % (n, unit))
    return '%.1f minutes' % (s / 60) if s >= 60 else '%.0f seconds' % s


def load():
    for path in sorted(glob.glob(os.path.join(CATALOG, '*', '*.json'))):
        with open(path) as f:
            d = json.load(f)
        yield os.path.basename(path)[:-5], d.get('catalog', {})


def main():
    cheapest = int(sys.argv[1]) if len(sys.argv) > 1 else 11
    sharded, open_ = [], []
    for name, c in load():
        inc = c.get('incomplete')
        if not inc:
            continue
        if os.path.isdir(os.path.join(COUNTS, name)) and c.get('cubesat'):
            sharded.append((name, c, inc.get('counted', {})))
        elif 'counted' not in inc and inc.get('estimate'):
            open_.append((name, c['family'], inc['estimate']))

    print('| puzzle | none | rotation | rotation+reflection | engine, shards | CPU s |')
    print('| --- | ---: | ---: | ---: | --- | ---: |')
    for name, c, counted in sharded:
        n = [format(c['cubesat'][m], ',') for m in MODES]
        how = counted.get('how', '')
        engine = 'memo' if '--engine memo' in how else 'exact'
        shards = sorted(os.listdir(os.path.join(COUNTS, name, 'rotation')))
        print('| `%s` | %s | %s | %s | %s, %d | %s |' % (
            name, n[0], n[1], n[2], engine, len(shards),
            format(round(counted.get('cpu_seconds', 0)), ',')))
    print()

    print('Open, %d puzzles.' % len(open_))
    print()
    print('| family | open | estimated CPU up to rotation: least | median | most |')
    print('| --- | ---: | --- | --- | --- |')
    families = sorted({f for _, f, _ in open_})
    for fam in families:
        cpu = sorted(e['cpu_seconds'] for _, f, e in open_ if f == fam)
        print('| %s | %d | %s | %s | %s |' % (
            fam, len(cpu), duration(cpu[0]), duration(statistics.median(cpu)),
            duration(cpu[-1])))
    print()
    print('| puzzle | nodes (95% interval) | CPU |')
    print('| --- | --- | --- |')
    for name, _, e in sorted(open_, key=lambda r: r[2]['cpu_seconds'])[:cheapest]:
        high = e.get('high')
        interval = '%.2g to %s' % (e['low'], '%.2g' % high if high else 'unbounded')
        print('| `%s` | %.3g (%s) | %s |' % (name, e['nodes'], interval,
                                            duration(e['cpu_seconds'])))


if __name__ == '__main__':
    main()
