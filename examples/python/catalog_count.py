"""Reproduces a catalog puzzle's published count through the Python package, and draws the
puzzle (its sheet, SVG) and its first solution (the offline 3D page and an SVG).

    pip install ./crates/python
    python examples/python/catalog_count.py [NAME] [--out DIR]

NAME is any catalog name (`cubesat list`), soma-bathtub by default; the pictures go to DIR
(default: the current folder). In a notebook, the last lines are all it takes: a puzzle and a
solution show themselves.
"""

import argparse
import pathlib

import cubesat


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name", nargs="?", default="soma-bathtub")
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path("."))
    args = ap.parse_args()

    puzzle = cubesat.load(args.name)
    record = puzzle.to_dict().get("catalog")
    if record is None:
        raise SystemExit(f"{args.name} is not a catalog puzzle")
    print(f"{puzzle.name}: {len(puzzle.pieces)} pieces, {len(puzzle.cells)} cells")
    for published in record["published"] or []:
        count = puzzle.count(up_to=published["up_to"])
        agrees = "agrees" if count == published["count"] else "differs (see the catalog's finding)"
        print(f"  published {published['count']} ({published['up_to']}), cubesat: {count} - {agrees}")
        print(f"    source: {published['source']}")

    args.out.mkdir(parents=True, exist_ok=True)
    sheet = args.out / f"{args.name}.svg"
    sheet.write_text(puzzle.to_svg())
    solution = puzzle.solve()
    page = args.out / f"{args.name}-solution.html"
    page.write_text(solution.to_html())
    (args.out / f"{args.name}-solution.svg").write_text(solution.to_svg())
    print(solution)
    print(f"  sheet: {sheet}; first solution: {page} (open it in a browser)")


if __name__ == "__main__":
    main()
