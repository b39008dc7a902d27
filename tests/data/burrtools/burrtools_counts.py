#!/usr/bin/env python3
"""Counts BurrTools files with BurrTools' own text front ends, one line per problem.

Usage: BURRTOOLS_BIN=<folder with burrTxt and burrTxt2> python3 burrtools_counts.py FILE...

Per file F and problem N (each run under `nice` and `timeout -k 5 300`):
  burrTxt -q -o N F          "<n> assemblies ..." : BurrTools' default count
  burrTxt2 FLAGS -b N COPY   FLAGS = -c | -c -m | -c -r | -c -m -r, COPY a copy of F in a scratch
                             folder; the count is the 'assemblies' attribute of problem N in the
                             file burrTxt2 writes (COPYttt). Its stdin is an open pipe that never
                             delivers data: burrTxt2 stops as soon as stdin is readable.
Prints: file problem default c cm cr cmr

With --disassemble first (cubes and prisms only: burrTxt's disassembler aborts on other grids):
  burrTxt -d -o N F          "<a> assemblies and <s> solutions ...", one "level: L" line per solution
                             (burrTxt prints the level lines only without -q, so the puzzle's print-out
                             before them is skipped)
Prints: file problem assemblies solutions levels, where levels is every distinct level string L with
its number of solutions n as L*n, sorted by L (as text), or - when there is none.
"""
import os, re, shutil, subprocess, sys, tempfile

BIN = os.environ.get('BURRTOOLS_BIN', '')
TXT = os.path.join(BIN, 'burrTxt')
TXT2 = os.path.join(BIN, 'burrTxt2')
LIMIT = '300'

def problems(path):
    import gzip
    raw = open(path, 'rb').read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    return len(re.findall(rb'<problem[ >]', raw))

def default_count(path, n):
    out = subprocess.run(['timeout', '-k', '5', LIMIT, 'nice', TXT, '-q', '-o', str(n), path],
                         capture_output=True, text=True).stdout
    m = re.search(r'(\d+) assemblies and \d+ solutions found', out)
    return m.group(1) if m else '?'

def txt2_count(path, n, flags):
    with tempfile.TemporaryDirectory() as d:
        copy = os.path.join(d, os.path.basename(path))
        shutil.copy(path, copy)
        r, w = os.pipe()
        try:
            subprocess.run(['timeout', '-k', '5', LIMIT, 'nice', TXT2] + flags + ['-b', str(n), copy],
                           stdin=r, capture_output=True, cwd=d)
        finally:
            os.close(r)
            os.close(w)
        out = copy + 'ttt'
        if not os.path.exists(out):
            return '?'
        import gzip
        raw = open(out, 'rb').read()
        if raw[:2] == b'\x1f\x8b':
            raw = gzip.decompress(raw)
        tags = re.findall(rb'<problem(?:\s[^>]*)?>', raw)
        m = re.search(rb'assemblies="(\d+)"', tags[n]) if n < len(tags) else None
        return m.group(1).decode() if m else '?'

def disassembly(path, n):
    out = subprocess.run(['timeout', '-k', '5', LIMIT, 'nice', TXT, '-d', '-o', str(n), path],
                         capture_output=True, text=True).stdout
    m = re.search(r'(\d+) assemblies and (\d+) solutions found', out)
    if not m:
        return '?', '?', '?'
    levels = {}
    for lv in re.findall(r'^level: (\S+)$', out, re.M):
        levels[lv] = levels.get(lv, 0) + 1
    text = ' '.join('%s*%d' % (lv, levels[lv]) for lv in sorted(levels)) or '-'
    return m.group(1), m.group(2), text


if sys.argv[1:2] == ['--disassemble']:
    for f in sys.argv[2:]:
        for n in range(problems(f)):
            print(os.path.basename(f), n, *disassembly(f, n), flush=True)
    sys.exit(0)

for f in sys.argv[1:]:
    for n in range(problems(f)):
        counts = [default_count(f, n)] + [txt2_count(f, n, fl) for fl in
                                          (['-c'], ['-c', '-m'], ['-c', '-r'], ['-c', '-m', '-r'])]
        print(os.path.basename(f), n, *counts, flush=True)
