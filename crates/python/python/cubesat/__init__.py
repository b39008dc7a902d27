"""cubesat for Python: polycube packing puzzles (the Tetris Cube, Soma, pentomino boards,
Kanoodle, IQ Puzzler, any BurrTools file) loaded, counted, listed, estimated, generated, taken
apart, exported and drawn by the cubesat library, through the same run plan as its command
line and its studio.

    >>> import cubesat
    >>> soma = cubesat.load("soma")
    >>> soma.count()
    Count(480, up_to='rotation')
    >>> soma.count(up_to="none")
    Count(11520, up_to='none')

Long runs release the GIL, use the engines' threads (``threads=0``: one per core) and stop at
Ctrl-C: a count raises :class:`Interrupted`, a ``KeyboardInterrupt`` carrying the count so
far; a run on another thread stops when its :class:`Stop` is set. Errors are
:class:`CubesatError` with the library's one-line message.
"""

from __future__ import annotations

import html as _html
import json as _json
import os as _os
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _native
from ._native import CubesatError, Stop

__all__ = [
    "CubesatError",
    "Count",
    "Disassembly",
    "Estimate",
    "Generated",
    "Interrupted",
    "Piece",
    "Placement",
    "Puzzle",
    "Solution",
    "Solutions",
    "Stop",
    "build",
    "bundled",
    "load",
    "names",
]

Cell = Tuple[int, int, int]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or any signal whose handler raised) stopped a run; ``partial`` is what it had
    found so far (a :class:`Count` whose figure is a lower bound, or a list of
    :class:`Disassembly`)."""

    def __init__(self, partial: Any, message: str) -> None:
        super().__init__(message)
        self.partial = partial


class Count(int):
    """A count: the number itself (an ``int``), with what it means and how the run ended.

    Attributes: ``up_to`` (the counting mode), ``meaning`` (what was identified, in words),
    ``line`` (the count line as ``cubesat solve --count`` prints it), ``engine``, ``nodes``,
    ``seconds``, ``limited`` (stopped at ``limit``), ``interrupted`` (stopped by Ctrl-C: a
    lower bound), ``stats``.
    """

    up_to: str
    meaning: str
    line: str
    engine: str
    nodes: Optional[int]
    seconds: float
    limited: bool
    interrupted: bool
    stats: str
    refutation: Optional[str]

    def __new__(cls, report: Dict[str, Any]) -> "Count":
        c = super().__new__(cls, report["count"])
        for key in ("up_to", "meaning", "line", "engine", "nodes", "seconds", "limited",
                    "interrupted", "stats", "refutation"):
            setattr(c, key, report.get(key))
        return c

    def __repr__(self) -> str:
        extra = ", interrupted" if self.interrupted else ", limited" if self.limited else ""
        return f"Count({int(self)}, up_to={self.up_to!r}{extra})"

    def __str__(self) -> str:
        return self.line


class Piece(NamedTuple):
    """A piece: its name, its one-character letter, its fewest and most copies (equal for a
    fixed count), and its cells."""

    name: str
    letter: str
    min_count: int
    count: int
    cells: List[Cell]


class Placement(NamedTuple):
    """One placed piece of a solution: the piece's name and index, the index of its
    orientation (among the piece's distinct orientations), and the cells it covers in the
    target's (global) coordinates."""

    piece: str
    index: int
    orientation: int
    cells: List[Cell]


def _iframe(page: str, height: int = 520) -> str:
    """An HTML page for a notebook cell: in an iframe, so that its script and style stay its
    own (not a sandboxed one: the 3D page draws nothing in an opaque origin)."""
    return (f'<iframe srcdoc="{_html.escape(page, quote=True)}" '
            f'style="width:100%;height:{height}px;border:0"></iframe>')


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as e:  # pragma: no cover - the tests install numpy
        raise ImportError("cubesat needs numpy for arrays: pip install numpy") from e
    return numpy


class Solution:
    """A verified solution of a puzzle: its placements (option indices of the puzzle's
    exact-cover model), as pieces and cells, as numpy arrays, and drawn.

    In a notebook it shows as the offline 3D page.
    """

    def __init__(self, puzzle: "Puzzle", options: Sequence[int], title: Optional[str] = None):
        self.puzzle = puzzle
        self.options: Tuple[int, ...] = tuple(options)
        self.title = title or puzzle.name

    @property
    def placements(self) -> List[Placement]:
        """Each placed piece: name, piece index, orientation index, cells."""
        names = [p.name for p in self.puzzle.pieces]
        out = []
        for o in self.options:
            piece, orientation, cells = self.puzzle._native.placement(o)
            out.append(Placement(names[piece], piece, orientation, [tuple(c) for c in cells]))
        return out

    @property
    def pieces(self) -> Any:
        """A numpy array of piece indices over the target's cells (in the order of
        ``puzzle.cells``); -1 on an optional cell left empty."""
        np = _numpy()
        return np.asarray(self.puzzle._native.cell_pieces(list(self.options)), dtype=np.int32)

    def array(self) -> Any:
        """A numpy array over the target's bounding box, indexed ``[x, y, z]``: the piece
        index on each target cell, -1 elsewhere (outside the target, or an empty optional
        cell)."""
        np = _numpy()
        cells = self.puzzle.cells
        size = [max(c[i] for c in cells) + 1 for i in range(3)]
        out = np.full(size, -1, dtype=np.int32)
        for (x, y, z, _), piece in zip(cells, self.puzzle._native.cell_pieces(list(self.options))):
            out[x, y, z] = piece
        return out

    def verify(self) -> None:
        """Checks the solution with the library's independent verifier (raises
        :class:`CubesatError` if it is not one)."""
        self.puzzle._native.verify(list(self.options))

    def to_html(self) -> str:
        """The offline 3D page of the solution (one self-contained HTML file)."""
        return self.puzzle._native.draw(list(self.options), "html", self.title)

    def to_svg(self) -> str:
        """The solution as an isometric SVG picture."""
        return self.puzzle._native.draw(list(self.options), "svg", self.title)

    def to_text(self) -> str:
        """The solution as text layers, as ``cubesat solve`` prints it."""
        return self.puzzle._native.draw(list(self.options), "text", self.title)

    def _repr_html_(self) -> str:
        return _iframe(self.to_html())

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<Solution of {self.puzzle.name!r}: {len(self.options)} placements>"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Solution) and other.puzzle is self.puzzle
                and sorted(other.options) == sorted(self.options))

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.options)))


class Solutions:
    """An iterator of :class:`Solution`, fed by a run on its own thread (a few solutions
    ahead of the consumer). Leaving a loop early, or :meth:`close`, stops the run; Ctrl-C
    raises ``KeyboardInterrupt`` from the loop and stops it too. Once it is exhausted,
    :attr:`count` is the run's report (a :class:`Count`)."""

    def __init__(self, puzzle: "Puzzle", stream: Any) -> None:
        self._puzzle = puzzle
        self._stream = stream
        self._n = 0

    def __iter__(self) -> "Solutions":
        return self

    def __next__(self) -> Solution:
        options = next(self._stream)
        self._n += 1
        return Solution(self._puzzle, options, f"{self._puzzle.name}, solution {self._n}")

    def close(self) -> None:
        """Stops the run."""
        self._stream.close()

    @property
    def count(self) -> Optional[Count]:
        """The run's report once the iterator is exhausted or closed, else ``None``."""
        report = self._stream.report_json()
        return None if report is None else Count(_json.loads(report))

    def __enter__(self) -> "Solutions":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Estimate:
    """What a full count would cost, sampled from the exact engine's search tree (Knuth's
    estimator): ``nodes``, ``solutions`` with their 95% intervals, ``cpu_seconds``, and
    every field of ``cubesat estimate --format json`` in :attr:`fields`; ``str()`` is the
    command line's text."""

    def __init__(self, fields: Dict[str, Any], text: str) -> None:
        self.fields = fields
        self.text = text
        self.up_to: str = fields["up_to"]
        self.exact: bool = fields["exact"]
        # None when no probe finished: the tree's size is unknown.
        self.nodes: Optional[float] = fields["nodes"]
        self.solutions: Optional[float] = fields["solutions"]
        self.solutions_interval = (fields["solutions_low"], fields["solutions_high"])
        self.cpu_seconds: Optional[float] = fields["cpu_seconds"]
        self.probes: int = fields["probes"]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        if self.nodes is None or self.solutions is None:
            return f"Estimate(unknown: no probe finished, up_to={self.up_to!r})"
        return (f"Estimate(solutions~{self.solutions:.4g}, nodes~{self.nodes:.4g}, "
                f"up_to={self.up_to!r}{', exact' if self.exact else ''})")


class Generated(NamedTuple):
    """A generated puzzle: the puzzle (the input plus its new hints), the solution its hints
    come from, the report (as ``cubesat generate --format json`` gives it) and its line."""

    puzzle: "Puzzle"
    solution: Solution
    report: Dict[str, Any]
    line: str

    def _repr_svg_(self) -> str:
        return self.puzzle.to_svg()


class Disassembly(NamedTuple):
    """An assembly taken apart: the solution, its level (``"4.9.3"``: moves to each
    separation, BurrTools' notation; ``None`` when it does not come apart), its moves, and
    the disassembler that took it apart. In a notebook it shows as the 3D page playing its
    plan."""

    solution: Solution
    level: Optional[str]
    moves: int
    disassembler: str

    def to_html(self) -> str:
        """The 3D page of the assembly with its plan animated (the analysis is run again:
        it is deterministic)."""
        s = self.solution
        return s.puzzle._native.disassembly_page(list(s.options), s.title, self.disassembler)

    def _repr_html_(self) -> str:
        return _iframe(self.to_html())


def _art(value: Any) -> Optional[List[List[str]]]:
    """Layer art in any of the shapes :func:`build` takes, as the JSON format's layers: a
    string (rows on lines, layers apart by a blank line), a list of rows (one layer), or a
    list of layers; ``None`` for anything else."""
    if isinstance(value, str):
        # Rows of spaces are rows of empty cells: only an empty line parts layers.
        return [block.split("\n") for block in value.strip("\n").split("\n\n")]
    if isinstance(value, (list, tuple)) and value and all(isinstance(r, str) for r in value):
        return [list(value)]
    if (isinstance(value, (list, tuple)) and value and all(
            isinstance(layer, (list, tuple)) and layer and all(isinstance(r, str) for r in layer)
            for layer in value)):
        return [list(layer) for layer in value]
    return None


def _cells(value: Any) -> List[List[int]]:
    return [list(c) for c in value]


def _piece_entry(name: str, value: Any) -> Dict[str, Any]:
    if isinstance(value, dict):
        return {"name": name, **value}
    art = _art(value)
    if art is not None:
        return {"name": name, "layers": art}
    return {"name": name, "cells": _cells(value)}


def _target_entry(value: Any) -> Dict[str, Any]:
    if isinstance(value, dict):
        return value
    if (isinstance(value, (list, tuple)) and len(value) == 3
            and all(isinstance(v, int) for v in value)):
        return {"box": list(value)}
    art = _art(value)
    if art is not None:
        return {"layers": art}
    return {"cells": _cells(value)}


def build(pieces: Union[Dict[str, Any], Sequence[Any]], target: Any, name: str = "puzzle",
          **fields: Any) -> "Puzzle":
    """A puzzle built in Python.

    ``pieces``: a dict from name to shape, where a shape is a list of ``(x, y, z)`` cells,
    layer art (a string with one row a line and layers apart by a blank line, a list of row
    strings, or a list of layers; ``#`` a cube, ``.`` or space empty), or a dict of the JSON
    format's piece keys (``{"cells": ..., "count": 2}``). ``target``: a box ``(x, y, z)``,
    a list of cells, layer art (``#`` must be filled, ``+`` may stay empty), or a dict of the
    JSON format's target keys. Other JSON keys (``mirror``, ``hints``, ``description``) go in
    ``fields``.

        >>> import cubesat
        >>> p = cubesat.build({"I": "###", "L": ["##", "#."], "D": ["#", "#"]}, ["####", "####"])
        >>> p.count(up_to="none")
        Count(4, up_to='none')
    """
    if isinstance(pieces, dict):
        entries = [_piece_entry(n, v) for n, v in pieces.items()]
    else:
        entries = [dict(p) for p in pieces]
    data = {"name": name, "target": _target_entry(target), "pieces": entries, **fields}
    return Puzzle.from_dict(data)


class Puzzle:
    """A validated puzzle, with the runs on it.

    Load one with :func:`load` (a bundled or catalog name, a JSON or BurrTools path), from a
    dict with :meth:`from_dict`, or build one with :func:`build`. In a notebook it shows as
    its sheet (the target and every piece, SVG).
    """

    def __init__(self, native: Any) -> None:
        self._native = native

    @classmethod
    def load(cls, source: Union[str, "_os.PathLike[str]"], problem: Union[int, str, None] = None) -> "Puzzle":
        """See :func:`load`."""
        return load(source, problem)

    @classmethod
    def from_dict(cls, data: Dict[str, Any], name: str = "puzzle") -> "Puzzle":
        """A puzzle from a dict of the JSON format (crates/cubesat/puzzles/README.md);
        ``name`` names it when the dict has no ``name``."""
        return cls.from_json(_json.dumps(data), name)

    @classmethod
    def from_json(cls, text: Union[str, bytes], name: str = "puzzle") -> "Puzzle":
        """A puzzle from the text of a cubesat JSON file (or a BurrTools file's bytes)."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        return cls(_native.parse(data, name if "." in name else name + ".json"))

    # -- what it is ---------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The display name."""
        return self._native.name

    @property
    def description(self) -> str:
        """The file's description."""
        return self._native.description

    @property
    def grid(self) -> str:
        """The grid the pieces live on: ``cube``, ``sphere``, ``prism``, ``hexagon``, ..."""
        return self._native.grid

    @property
    def mirror(self) -> bool:
        """Whether pieces may also be placed mirrored."""
        return self._native.mirror

    @property
    def default_up_to(self) -> str:
        """The counting mode a count uses when none is given."""
        return self._native.default_up_to

    @property
    def pieces(self) -> List[Piece]:
        """The pieces, in file order."""
        return [Piece(n, l, lo, hi, [tuple(c) for c in cells])
                for n, l, lo, hi, cells in self._native.pieces]

    @property
    def cells(self) -> List[Tuple[int, int, int, bool]]:
        """The target's cells as ``(x, y, z, optional)``, in the order of
        :attr:`Solution.pieces`."""
        return self._native.cells

    @property
    def known_counts(self) -> Dict[str, Any]:
        """Published counts by mode (``none``, ``rotation``, ``rotation+reflection``; ``None``
        where not recorded) and their ``source``."""
        return _json.loads(self._native.known_counts_json())

    @property
    def notes(self) -> List[str]:
        """What the reader noticed and ignored (a BurrTools file's)."""
        return self._native.notes

    @property
    def placement_count(self) -> int:
        """The number of placements (options of the exact-cover model)."""
        return self._native.placement_count()

    def placements(self) -> List[Placement]:
        """Every placement (the rows of the exact-cover model, in option order): piece name
        and index, orientation, cells. A solution's options index this list."""
        names = [p.name for p in self.pieces]
        out = []
        for o in range(self._native.placement_count()):
            piece, orientation, cells = self._native.placement(o)
            out.append(Placement(names[piece], piece, orientation, [tuple(c) for c in cells]))
        return out

    def to_json(self) -> str:
        """The puzzle as a cubesat JSON file."""
        return self._native.to_json()

    def to_dict(self) -> Dict[str, Any]:
        """The puzzle as a dict of the JSON format."""
        return _json.loads(self.to_json())

    # -- runs ---------------------------------------------------------------------------

    def count(self, up_to: Optional[str] = None, engine: str = "auto", threads: int = 0,
              limit: Optional[int] = None, stop: Optional[Stop] = None,
              max_memory: Optional[Union[str, int]] = None) -> Count:
        """Counts the solutions, every one verified (but by the memo engine, which counts
        without visiting them).

        ``up_to``: ``none`` (every placement), ``rotation``, ``rotation+reflection`` or
        ``burrtools``; ``None`` takes the puzzle's own (a BurrTools file's), else rotation.
        ``engine``: ``auto``, ``exact``, ``dlx``, ``sat`` or ``memo``. ``threads``: 0 is one
        per core. ``limit``: stop after this many solutions. ``max_memory``: the memo
        engine's cache bound, bytes or a size such as ``"4G"`` (binary units, at most 64G;
        default 1G).

        Ctrl-C stops the count within a second and raises :class:`Interrupted`, whose
        ``partial`` is the count so far. ``stop``: a :class:`Stop` that another thread may
        set; the count then returns what it counted so far, marked ``interrupted``.
        """
        memory = None if max_memory is None else str(max_memory)
        report = _json.loads(self._native.count(up_to, engine, threads, limit, stop, memory))
        c = Count(report)
        if report["signal"]:
            raise Interrupted(c, f"interrupted: {int(c)} counted so far ({c.up_to})")
        return c

    def count_modes(self, modes: Sequence[str] = ("none", "rotation", "rotation+reflection"),
                    engine: str = "auto", threads: int = 0,
                    stop: Optional[Stop] = None) -> Dict[str, Count]:
        """Counts in several modes from one search: the rotation mode's, which every mode
        weighs with its own symmetries, so the modes cost one count instead of one each.
        Returns each mode's :class:`Count` by its name, in the order given.

        It takes a whole count by an engine that visits the solutions (not ``memo``) and a
        piece used once to hold (else each mode needs its own search: :meth:`count` them).
        Ctrl-C raises :class:`Interrupted` with the first mode's count so far.

        >>> import cubesat
        >>> counts = cubesat.load("soma").count_modes()
        >>> {mode: int(c) for mode, c in counts.items()}
        {'none': 11520, 'rotation': 480, 'rotation+reflection': 240}
        """
        if isinstance(modes, str) or len(modes) == 0:
            raise CubesatError("modes: a sequence of one or more counting modes")
        report = _json.loads(self._native.count(",".join(modes), engine, threads, None, stop, None))
        first = Count(report)
        if report["signal"]:
            raise Interrupted(first, f"interrupted: {int(first)} counted so far ({first.up_to})")
        out = {first.up_to: first}
        for other in report["also"]:
            out[other["up_to"]] = Count(other)
        return out

    def solutions(self, up_to: Optional[str] = None, engine: str = "auto", threads: int = 0,
                  limit: Optional[int] = None, stop: Optional[Stop] = None) -> Solutions:
        """An iterator of the solutions (in each counting mode, one per class), each
        verified; ``limit`` stops after that many. The settings are :meth:`count`'s."""
        return Solutions(self, self._native.solutions(up_to, engine, threads, limit, stop))

    def solve(self, up_to: Optional[str] = None, engine: str = "auto") -> Optional[Solution]:
        """The first solution, or ``None`` when there is none."""
        with self.solutions(up_to=up_to, engine=engine, limit=1) as it:
            for s in it:
                return s
        return None

    def estimate(self, seconds: Optional[float] = None, samples: Optional[int] = None,
                 up_to: Optional[str] = None, seed: int = 0) -> Estimate:
        """Estimates the count and its cost by sampling the search tree for ``seconds``
        (default 3) or ``samples`` probes. Ctrl-C stops it with ``KeyboardInterrupt``."""
        fields, text = self._native.estimate(up_to, seconds, samples, seed)
        return Estimate(_json.loads(fields), text)

    def generate(self, hints: int = 0, seed: int = 0, unique: bool = False) -> Generated:
        """A puzzle made from this one: ``hints`` pieces of a seeded solution fixed as hints;
        with ``unique``, a set of hints that leaves exactly one completion (raises
        :class:`CubesatError` when none is found within the budgets)."""
        native, options, report, line = self._native.generate(hints, seed, unique)
        p = Puzzle(native)
        return Generated(p, Solution(p, options), _json.loads(report), line)

    def disassemble(self, limit: Optional[int] = None, up_to: Optional[str] = None,
                    disassembler: Optional[str] = None, max_states: Optional[int] = None,
                    threads: int = 0, stop: Optional[Stop] = None) -> List[Disassembly]:
        """Takes the solutions apart by sliding pieces: every assembly the search finds,
        each with its level (``None`` when it does not come apart), stopping after ``limit``
        that come apart. ``disassembler``: ``complete`` or ``burrtools`` (default: the
        puzzle's). Ctrl-C raises :class:`Interrupted` with the assemblies so far."""
        kept, summary = self._native.disassemble(up_to, limit, disassembler, max_states, threads,
                                                 stop)
        summary = _json.loads(summary)
        out = [Disassembly(Solution(self, options, f"{self.name}, assembly {i}"), level, moves,
                           summary["disassembler"])
               for i, (options, level, moves) in enumerate(kept, 1)]
        if summary["signal"]:
            raise Interrupted(out, f"interrupted: {len(out)} assemblies analysed so far")
        return out

    def export(self, format: str, up_to: str = "none", amo: Optional[str] = None,
               projection: Optional[str] = None,
               path: Union[str, "_os.PathLike[str]", None] = None) -> Union[str, bytes]:
        """The puzzle for another solver: ``dimacs`` (CNF), ``dlx`` (Knuth's format), ``asp``
        (clingo), ``placements``, or ``xmpuzzle`` (a BurrTools file, gzip bytes); the others
        are text. ``up_to``: ``none`` or ``rotation`` (the instance then has one solution
        per rotation class). With ``path``, also written there."""
        data = self._native.export(format, up_to, amo, projection)
        if path is not None:
            with open(path, "wb") as f:
                f.write(data)
        return data if format == "xmpuzzle" else data.decode("utf-8")

    # -- pictures -----------------------------------------------------------------------

    def to_svg(self) -> str:
        """The puzzle's sheet: the target with its hints and every piece beside it (SVG)."""
        return self._native.sheet_svg()

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __repr__(self) -> str:
        return f"<Puzzle {self.name!r}: {len(self.pieces)} pieces, {len(self.cells)} cells, {self.grid} grid>"


def load(source: Union[str, "_os.PathLike[str]", Dict[str, Any]],
         problem: Union[int, str, None] = None) -> Puzzle:
    """Opens a puzzle: an existing file (cubesat JSON, or a BurrTools ``.xmpuzzle`` whose
    ``problem`` is chosen by index or name, the first by default), else the name of a
    bundled or catalog puzzle (:func:`names`). A dict is read as :meth:`Puzzle.from_dict`."""
    if isinstance(source, dict):
        return Puzzle.from_dict(source)
    chosen = None if problem is None else str(problem)
    return Puzzle(_native.load(_os.fspath(source), chosen))


def names() -> List[str]:
    """Every puzzle name :func:`load` knows: the bundled puzzles, then the catalog's."""
    return _native.names()


def bundled() -> List[str]:
    """The names of the bundled puzzles."""
    return _native.bundled_names()
