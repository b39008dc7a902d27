"""The BurrTools file writer the make_*.py scripts share: voxel strings, the puzzle's XML and
gzipped .xmpuzzle files with fixed bytes, for any grid (BurrTools' gridType).

Each script keeps what is its grid's own (which voxels are cells, how shapes are normalised and
checked) and calls these for the format, which is the same on every grid.
"""
import gzip, os


def vox(cells, block=1, valid=None):
    """{voxel: state} -> (sx, sy, sz, voxel string): the box from the origin, each side rounded
    up to whole blocks (BurrTools' grids 3 and 4 store cubes as blocks of 5 or 3 voxels), x
    fastest; `valid(x, y, z)`, when given, must hold for every filled voxel."""
    assert min(min(c) for c in cells) >= 0
    sx, sy, sz = (max(c[i] for c in cells) // block * block + block for i in range(3))
    t = ''
    for z in range(sz):
        for y in range(sy):
            for x in range(sx):
                assert valid is None or valid(x, y, z) or (x, y, z) not in cells
                t += cells.get((x, y, z), '_')
    return sx, sy, sz, t


def puzzle(grid, shapes, problems, comment, block=1, valid=None):
    """The XML of a puzzle on BurrTools' grid `grid`: shapes as (name, {voxel: state}), problems
    as dicts of name, parts ((shape, count) or (shape, min, max)) and result (a shape index)."""
    x = '<?xml version="1.0"?>\n<puzzle version="2">\n  <gridType type="%d"/>\n  <colors/>\n  <shapes>\n' % grid
    for name, cells in shapes:
        sx, sy, sz, t = vox(cells, block, valid)
        x += '    <voxel x="%d" y="%d" z="%d" name="%s" type="0">%s</voxel>\n' % (sx, sy, sz, name, t)
    x += '  </shapes>\n  <problems>\n'
    for p in problems:
        x += '    <problem name="%s" state="0">\n      <shapes>\n' % p['name']
        for part in p['parts']:
            if len(part) == 2:
                x += '        <shape id="%d" count="%d"/>\n' % part
            else:
                x += '        <shape id="%d" min="%d" max="%d"/>\n' % part
        x += '      </shapes>\n      <result id="%d"/>\n      <bitmap/>\n    </problem>\n' % p['result']
    x += '  </problems>\n  <comment>%s</comment>\n</puzzle>\n' % comment
    return x


def write_all(here, files):
    """Writes {file name: XML} into the folder `here`, .xmpuzzle files gzipped with no time or
    name in the header, so reruns give the same bytes."""
    os.makedirs(here, exist_ok=True)
    for name, xml in files.items():
        path = os.path.join(here, name)
        data = xml.encode()
        with open(path, 'wb') as f:
            if name.endswith('.xmpuzzle'):
                with gzip.GzipFile(fileobj=f, mode='wb', mtime=0, filename='') as g:
                    g.write(data)
            else:
                f.write(data)
