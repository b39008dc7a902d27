"""Records a count finished in shards in its catalog file: the merged counts of the shard
records in counts/NAME/MODE/ of the repository, `counted` (date, CPU seconds, how) and `slow`,
in place of the estimate (see crates/cubesat/puzzles/README.md and counts/README.md).

    python3 crates/cubesat/puzzles/catalog/tools/record-shards.py CUBESAT DATE NAME...

Each mode's folder is merged by `CUBESAT merge --format json` (which checks the records make
one complete run); the CPU seconds are one mode's records' sum, which for a count of the three
modes from one search (`--up-to none,rotation,rotation+reflection`) is the whole count's. The
file keeps its layout: the flat families' (puzzler_flat.py) for a file with a `grid`, else
record.py's.
"""

import json
import os
import re
import subprocess
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..', '..', '..', '..')
CATALOG = os.path.join(ROOT, 'crates', 'cubesat', 'puzzles', 'catalog')
COUNTS = os.path.join(ROOT, 'counts')
MODES = ['none', 'rotation', 'rotation+reflection']
SLOW_CPU = 0.3

sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
record = __import__('record')


def catalog_file(name):
    for family in sorted(os.listdir(CATALOG)):
        path = os.path.join(CATALOG, family, name + '.json')
        if os.path.exists(path):
            return path
    raise SystemExit('%s: no catalog file' % name)


def merged(cubesat, folder):
    out = subprocess.run([cubesat, 'merge', '--format', 'json', '-q', folder],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit('%s: %s' % (folder, out.stderr.strip()))
    return json.loads(out.stdout)


def how(name, m, command):
    """The `how` of a count: a shard's command, its shard written K/N (`--shard 3/16` or
    `--shard=3/16`), a puzzle path inside the repository written from its root, as a reader
    runs it (a record keeps the path its run was given)."""
    root = os.path.realpath(ROOT) + os.sep
    command = re.sub(r'(^|\s)' + re.escape(root), r'\1', command)
    general, n = re.subn(r'(--shard[= ])\d+/(\d+)\b', r'\1K/\2', command)
    if n != 1:
        raise SystemExit('%s: no single --shard K/N in its command %r' % (name, command))
    return ('%s (%d shard%s), merged by cubesat merge from the shard records in counts/%s/ of '
            'the repository; %s' % (
                general, m['shards'], '' if m['shards'] == 1 else 's', name,
                'a memoized count does not visit its solutions' if m['engine'] == 'memo'
                else 'every solution checked by the verifier'))


def update(cubesat, date, name):
    path = catalog_file(name)
    d = json.load(open(path), object_pairs_hook=OrderedDict)
    c = d['catalog']
    inc = c['incomplete']
    counts = OrderedDict()
    first = None
    for mode in MODES:
        folder = os.path.join(COUNTS, name, mode.replace('+', '-'))
        m = merged(cubesat, folder)
        if m['up_to'] != mode:
            raise SystemExit('%s: records of %s' % (folder, m['up_to']))
        counts[mode] = m['count']
        first = first or m
    shard0 = sorted(os.listdir(os.path.join(COUNTS, name, 'rotation')))[0]
    with open(os.path.join(COUNTS, name, 'rotation', shard0)) as f:
        # Any shard's command, written for shard K.
        command = json.loads(f.readline())['command']
    c['cubesat'] = counts
    c.pop('slow', None)
    if first['cpu_seconds'] > SLOW_CPU:
        c['slow'] = True
    inc.pop('estimate', None)
    inc['counted'] = OrderedDict([
        ('date', date),
        ('cpu_seconds', round(first['cpu_seconds'], 2)),
        ('how', how(name, first, command))])
    record.save(path, d, c)
    print('%s: %s, %.1f CPU s' % (name, dict(counts), first['cpu_seconds']))


def main():
    cubesat, date = sys.argv[1:3]
    for name in sys.argv[3:]:
        update(cubesat, date, name)


if __name__ == '__main__':
    main()
