"""The example in examples/python reproduces its catalog count and writes its pictures."""

import pathlib
import subprocess
import sys

EXAMPLE = pathlib.Path(__file__).resolve().parents[3] / "examples/python/catalog_count.py"


def test_the_example_reproduces_a_catalog_count_and_draws_it(tmp_path):
    out = subprocess.run([sys.executable, str(EXAMPLE), "soma-bathtub", "--out", str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout
    assert "published 158 (rotation), cubesat: 158 solutions up to rotation - agrees" in out
    assert (tmp_path / "soma-bathtub.svg").read_text().lstrip().startswith(("<svg", "<?xml"))
    assert "<script" in (tmp_path / "soma-bathtub-solution.html").read_text()
