"""The package's API over the library: loading every kind of source, the solutions iterator
and its arrays, building puzzles from cells and layer art, estimate, generate, disassemble,
exports, pictures, and errors as exceptions with the library's one-line messages."""

import gzip
import json
import pathlib

import numpy as np
import pytest

import cubesat

REPO = pathlib.Path(__file__).resolve().parents[3]
SOMA_JSON = REPO / "crates/cubesat/puzzles/soma.json"


@pytest.fixture(scope="module")
def soma():
    return cubesat.load("soma")


def test_every_kind_of_source_opens_the_same_puzzle(soma):
    from_path = cubesat.load(SOMA_JSON)
    from_text = cubesat.Puzzle.from_json(SOMA_JSON.read_text())
    from_dict = cubesat.load(json.loads(SOMA_JSON.read_text()))
    for p in (from_path, from_text, from_dict):
        assert p.name == soma.name == "Soma cube"
        assert p.pieces == soma.pieces and p.cells == soma.cells
        assert p.count() == 480
    assert soma.grid == "cubes" and len(soma.pieces) == 7 and len(soma.cells) == 27
    v = soma.pieces[0]
    assert (v.name, v.letter, v.min_count, v.count) == ("V", "V", 1, 1)
    assert sorted(v.cells) == [(0, 0, 0), (0, 1, 0), (1, 0, 0)]
    assert soma.known_counts["rotation+reflection"] == 240


def test_a_burrtools_file_and_its_problems():
    path = next((REPO / "tests/data/burrtools/reference").glob("*.xmpuzzle"))
    p = cubesat.load(path)
    assert p.default_up_to == "burrtools"
    c = p.count()
    assert c.up_to == "burrtools" and c >= 0
    # The file's bytes read the same way.
    q = cubesat.Puzzle.from_json(path.read_bytes(), path.name)
    assert q.pieces == p.pieces
    with pytest.raises(cubesat.CubesatError, match="problem"):
        cubesat.load(path, problem=10**6)


def test_solutions_iterate_lazily_and_match_the_count(soma):
    seen = set()
    it = soma.solutions()
    for s in it:
        s.verify()
        seen.add(s)
    assert len(seen) == 480 == it.count and it.count.up_to == "rotation"
    first_five = list(soma.solutions(limit=5))
    assert len(first_five) == 5 and first_five[0] == soma.solve()
    every = soma.solutions(up_to="none", limit=3)
    assert len(list(every)) == 3 and every.count.limited


def test_leaving_a_loop_early_stops_its_run(soma):
    it = cubesat.load("iq-puzzler-pro-2d").solutions(up_to="none")
    got = [next(it) for _ in range(3)]
    it.close()
    assert len(got) == 3
    report = it.count
    assert report is not None and report.interrupted and 3 <= report < 4331140
    with pytest.raises(StopIteration):
        next(it)


def test_a_solution_as_placements_and_arrays(soma):
    s = soma.solve()
    pl = s.placements
    assert sorted(p.piece for p in pl) == sorted(p.name for p in soma.pieces)
    cells = [c for p in pl for c in p.cells]
    assert len(cells) == len(set(cells)) == 27
    pieces = s.pieces
    assert pieces.dtype == np.int32 and pieces.shape == (27,)
    assert sorted(np.bincount(pieces)) == sorted(len(p.cells) for p in soma.pieces)
    a = s.array()
    assert a.shape == (3, 3, 3) and (a >= 0).all()
    for p in pl:
        for x, y, z in p.cells:
            assert a[x, y, z] == p.index
    assert all(0 <= p.orientation < 24 for p in pl)


def test_empty_optional_cells_and_cells_outside_the_target_are_minus_one():
    p = cubesat.build({"I": ["##"]}, ["#+", "#."], name="dent")
    sols = list(p.solutions(up_to="none"))
    # The domino covers the two must-fill cells, or one of them and the optional one? Only
    # the first: the other must-fill cell would stay empty.
    assert len(sols) == 1
    s = sols[0]
    a = s.array()
    assert a.shape == (2, 2, 1)
    assert a[0, 0, 0] == 0 and a[0, 1, 0] == 0 and a[1, 0, 0] == -1 and a[1, 1, 0] == -1
    assert list(s.pieces) == [0, -1, 0]


def test_building_from_cells_and_layer_art_agree():
    art = cubesat.build({"I": "###", "L": ["##", "#."], "D": ["#", "#"]}, ["####", "####"],
                        name="tiny")
    cells = cubesat.build(
        {"I": [(0, 0, 0), (1, 0, 0), (2, 0, 0)], "L": [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
         "D": [(0, 0, 0), (0, 1, 0)]},
        (4, 2, 1), name="tiny")
    assert art.pieces == cells.pieces and art.cells == cells.cells
    # I lies along a long side, at either end of it (2 sides x 2 ends); L then wraps the
    # free corner and D closes the other end: 4 tilings, all turns of one.
    assert art.count(up_to="none") == cells.count(up_to="none") == 4
    assert len(list(art.solutions(up_to="none"))) == 4
    assert art.count(up_to="rotation") == 1
    stacked = cubesat.build({"A": "##\n\n##"}, {"box": [2, 1, 2]}, name="two-layers")
    holed = cubesat.build({"U": "#.#\n###"}, "# #\n###", name="u")
    assert sorted(holed.cells) == [(0, 0, 0, False), (0, 1, 0, False), (1, 1, 0, False),
                                   (2, 0, 0, False), (2, 1, 0, False)]
    assert holed.count(up_to="none") == 1
    # A row of spaces is a row of empty cells, not a parting of layers.
    low = cubesat.build({"I": "###"}, "   \n###", name="low")
    assert sorted(c[:3] for c in low.cells) == [(0, 1, 0), (1, 1, 0), (2, 1, 0)]
    assert sorted(stacked.pieces[0].cells) == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1)]
    with_copies = cubesat.build({"D": {"cells": [[0, 0, 0], [1, 0, 0]], "count": 2}}, (2, 2, 1))
    assert with_copies.pieces[0].count == 2 and with_copies.count(up_to="none") == 2


def test_errors_carry_the_librarys_one_line_messages(soma, tmp_path):
    with pytest.raises(cubesat.CubesatError, match="neither a file nor a bundled puzzle") as e:
        cubesat.load("pentominoes-6x1")
    assert "did you mean pentominoes-6x10" in str(e.value) and "\n" not in str(e.value)
    bad = {"name": "bad", "target": {"box": [2, 1, 1]}, "pieces": [{"name": "x", "cells": [[0, 0]]}]}
    with pytest.raises(cubesat.CubesatError, match=r"pieces\[0\]\.cells\[0\]"):
        cubesat.Puzzle.from_dict(bad)
    f = tmp_path / "broken.json"
    f.write_text('{"target": {"box": [1, 1, 1]}, "pieces": [}')
    with pytest.raises(cubesat.CubesatError, match="broken.json: line 1, column"):
        cubesat.load(f)
    with pytest.raises(cubesat.CubesatError, match="unknown counting mode 'sideways'"):
        soma.count(up_to="sideways")
    with pytest.raises(cubesat.CubesatError, match="unknown engine"):
        soma.count(engine="quantum")
    with pytest.raises(cubesat.CubesatError, match="limit"):
        soma.count(limit=0)
    with pytest.raises(cubesat.CubesatError, match="mirror image"):
        cubesat.load("tetris-cube").count(up_to="rotation+reflection")
    with pytest.raises(cubesat.CubesatError, match="up to"):
        soma.export("dimacs", up_to="rotation+reflection")
    with pytest.raises(cubesat.CubesatError, match="seconds"):
        soma.estimate(seconds=-1)
    with pytest.raises(OverflowError):
        soma.count(limit=-5)
    with pytest.raises(IndexError):
        cubesat.Solution(soma, [10**6]).to_svg()
    with pytest.raises(cubesat.CubesatError):
        cubesat.Solution(soma, [0, 1]).verify()


def test_limits_and_engines_agree(soma):
    assert soma.count(limit=7) == 7 and soma.count(limit=7).limited
    for engine in ("exact", "dlx", "sat"):
        assert soma.count(engine=engine) == 480
    assert soma.count(up_to="none", engine="memo") == 11520
    # The memo engine's cache bound, as a size or in bytes; a bound it cannot take is refused.
    assert soma.count(up_to="none", engine="memo", max_memory="64M") == 11520
    assert soma.count(up_to="none", engine="memo", max_memory=1 << 20) == 11520
    with pytest.raises(cubesat.CubesatError, match="memory"):
        soma.count(engine="memo", max_memory="65G")
    with pytest.raises(cubesat.CubesatError, match="not a size"):
        soma.count(engine="memo", max_memory="lots")


def test_estimate_of_a_small_tree_is_exact(soma):
    e = soma.estimate(seconds=1)
    assert e.exact and e.solutions == 480 and "480 solutions up to rotation" in str(e)
    sampled = cubesat.load("tetris-cube").estimate(samples=50, seed=1)
    assert sampled.probes == 50 and sampled.solutions > 0


def test_an_estimate_without_a_probe_has_no_size():
    # The fields `cubesat estimate --format json` gives when no probe finished in its time.
    fields = {"up_to": "rotation", "exact": False, "nodes": None, "solutions": None,
              "solutions_low": 0.0, "solutions_high": None, "cpu_seconds": None, "probes": 0}
    e = cubesat.Estimate(fields, "nodes: unknown: no probe of the tree finished in 5.0 seconds")
    assert e.nodes is None and e.cpu_seconds is None
    assert repr(e) == "Estimate(unknown: no probe finished, up_to='rotation')"


def test_generate_makes_a_puzzle_with_one_completion(soma):
    g = soma.generate(hints=3, seed=7, unique=True)
    assert g.puzzle.count(up_to="none") == 1
    g.solution.verify()
    assert g.report["completions"] == 1 and g.report["unique"] and g.report["hints"] == 3
    assert "unique" in g.line
    with pytest.raises(cubesat.CubesatError):
        soma.generate(hints=99)


def test_disassemble_gives_levels(soma):
    taken = soma.disassemble(limit=3)
    apart = [d for d in taken if d.level is not None]
    assert len(apart) == 3
    for d in apart:
        d.solution.verify()
        assert d.moves >= 1 and d.level.split(".")[0].isdigit()
        assert d.disassembler == "complete"
    page = apart[0].to_html()
    assert f"(level {apart[0].level}, {apart[0].moves} moves)" in page and "<script" in page
    assert apart[0]._repr_html_().startswith("<iframe srcdoc=")
    with pytest.raises(cubesat.CubesatError, match="grid"):
        cubesat.load("kanoodle-2d").disassemble(limit=1)
    for bad in (0, 10**9 + 1):
        with pytest.raises(cubesat.CubesatError, match="max_states"):
            soma.disassemble(max_states=bad)


def test_exports(soma, tmp_path):
    dlx = soma.export("dlx")
    assert isinstance(dlx, str) and dlx.startswith("| Exact-cover instance")
    cnf = soma.export("dimacs", up_to="rotation")
    assert "p cnf" in cnf and "c p show" in cnf
    assert "#show" in soma.export("asp")
    burr = soma.export("xmpuzzle", path=tmp_path / "soma.xmpuzzle")
    assert isinstance(burr, bytes) and b"<puzzle" in gzip.decompress(burr)
    back = cubesat.load(tmp_path / "soma.xmpuzzle")
    assert back.count(up_to="rotation") == 480


def test_pictures_for_notebooks(soma):
    svg = soma._repr_svg_()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    s = soma.solve()
    page = s.to_html()
    assert "<html" in page.lower() and "<script" in page
    frame = s._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and "<script" not in frame
    assert "<svg" in s.to_svg()
    assert str(s).startswith("Soma cube") and "z=0" in str(s)


def test_the_docstrings_examples_run():
    import doctest

    failed, tried = doctest.testmod(cubesat)
    assert tried >= 5 and failed == 0


def test_every_mode_from_one_search(soma):
    counts = soma.count_modes()
    assert list(counts) == ["none", "rotation", "rotation+reflection"]
    assert [int(c) for c in counts.values()] == [11520, 480, 240]
    # Each is the count of its mode alone, with its own line; the search is shared.
    for mode, c in counts.items():
        assert c == soma.count(up_to=mode) and c.up_to == mode
        assert str(c) == soma.count(up_to=mode).line
    assert counts["none"].nodes == counts["rotation"].nodes
    tetris = cubesat.load("tetris-cube")
    assert {m: int(c) for m, c in tetris.count_modes(["rotation", "none"]).items()} == {
        "rotation": 9839, "none": 236136}
    with pytest.raises(cubesat.CubesatError, match="mirror image"):
        tetris.count_modes()
    with pytest.raises(cubesat.CubesatError, match="several counting modes"):
        soma.count_modes(engine="memo")
    with pytest.raises(cubesat.CubesatError, match="modes"):
        soma.count_modes("none")
