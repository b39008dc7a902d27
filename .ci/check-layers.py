#!/usr/bin/env python3
"""Checks that the workspace's crates depend on each other one way only (CRATES, bottom up)
and that each crate's modules form layers: no cycle in the graph of `use`s between
modules, and every module depends only on modules listed before it in LAYERS.

An edge A -> B is any path `crate::b::...` or `super::...` that A's non-test code names (a
`use`, or a path written inline), resolved to the deepest module that exists; names the
crate root re-exports (`crate::Error`) count as edges to the module that defines them.
The whole of every file is read, except comments, the insides of string and char literals,
and test code: each item under a `#[cfg(test)]` attribute (a `mod tests { ... }` block, a
fn, use, impl or field), over its own span only, found by matching brackets in the code
with comments and literals blanked, so a brace in a string does not end it; a file under
`#![cfg(test)]`; and a module file declared by `#[cfg(test)] mod name;`. Tests may reach
across layers; the code after a test item is checked like the code before it. A parent
module declaring a child (`mod x;`) is not an edge, but a parent using its child's items is,
so a parent and child that use each other are a cycle. Each violation names the file and
line of the first use that makes the edge. Outside the geometry module no code tests which
grid a value is (`== Grid::Cube`, a match on `Grid::...`): it asks the grid.

    python3 .ci/check-layers.py               # check the workspace
    python3 .ci/check-layers.py --self-test   # check the span logic on small cases
"""
import os
import re
import sys

# Per crate, the modules from the bottom layer up; a module may use only modules before it
# (or its own descendants). Modules of one layer are joined with '|' and must not use each
# other.
LAYERS = {
    "crates/xc/src": [
        "error", "rng", "model", "fixtures", "cuts", "control", "shard", "encoding", "engines",
        "engines::exact::sliced", "engines::exact::geo", "engines::exact::board_simd", "engines::exact::body", "engines::exact::tail", "engines::exact::prepare", "engines::exact::descend",
        "engines::exact::search", "engines::exact", "engines::dlx", "engines::sat",
    ],
    "crates/cubesat/src": [
        "echo", "error", "input", "mode", "geometry", "rng", "puzzle", "puzzle::json", "puzzle::bundled", "placements",
        "symmetry", "counting", "solution", "run", "shard",
        "disassembly::grouping", "disassembly::limits", "disassembly::slide_in", "disassembly::search",
        "disassembly::replay", "disassembly", "disassembly::orient", "disassembly::solutions", "estimate", "plan", "disassembly::stream", "render", "report", "interop", "generate", "challenge::set", "challenge::book", "challenge",
    ],
    "crates/studio/src": ["adapter::views", "adapter::request", "adapter::disassemble|adapter::estimate|adapter::challenges", "adapter::files|adapter::runs", "adapter|guard|assets", "jobs", "http"],
    "crates/cli": ["shell", "args", "output", "progress", "sink", "commands"],
    "crates/python/src": ["errors", "wait", "summary", "stream", "puzzle"],
}

# The workspace's crates from the bottom up, as (manifest folder, package name): a crate's
# [dependencies] may name only crates listed before it.
CRATES = [
    ("crates/xc", "cubesat-xc"),
    ("crates/cubesat", "cubesat"),
    ("crates/studio", "cubesat-studio"),
    (".", "cubesat-cli"),
    ("crates/python", "cubesat-python"),
]

USE_RE = re.compile(r"\b(crate|super)((?:::\w+)+)")
USE_GROUP_RE = re.compile(r"\buse\s+(crate|super)((?:::\w+)*)::\{([^;]*)\};", re.S)


def modules(src):
    """Module path -> file, for a crate source folder."""
    out = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib", "main"):
                rel = rel[:-1]
            out["::".join(rel)] = path
    return out


RAW_STRING_RE = re.compile(r'[bc]?r(#*)"')
TEST_ATTR_RE = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
INNER_TEST_ATTR_RE = re.compile(r"#!\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
INNER_ATTRS_RE = re.compile(r"(?:\s*#!\s*\[[^\]]*\])*")  # a file's leading inner attributes
TEST_MOD_DECL_RE = re.compile(r"(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)\s*;")


def mask(text):
    """The text with comments and the insides of string and char literals blanked (newlines
    and offsets kept), so that brackets and paths in them are not read as code."""
    out = list(text)
    n = len(text)

    def blank(a, b):
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    i = 0
    while i < n:
        c = text[i]
        prev_ident = i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")
        raw = RAW_STRING_RE.match(text, i) if c in "bcr" and not prev_ident else None
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif raw:
            close = '"' + raw.group(1)
            j = text.find(close, raw.end())
            j = n if j < 0 else j
            blank(raw.end(), j)
            i = j + len(close)
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        elif c == "'" and i + 1 < n and text[i + 1] == "\\":
            j = text.find("'", i + 3)  # '\n', '\'', '\u{..}'
            j = n if j < 0 else j
            blank(i + 1, j)
            i = j + 1
        elif c == "'" and i + 2 < n and text[i + 2] == "'":
            blank(i + 1, i + 2)  # 'x'; a lifetime 'a has no closing quote
            i += 3
        else:
            i += 1
    return "".join(out)


def skip_attributes(masked, i):
    """The offset of the first thing after the whitespace and outer attributes at i."""
    n = len(masked)
    while True:
        while i < n and masked[i].isspace():
            i += 1
        m = re.compile(r"#\s*\[").match(masked, i)
        if not m:
            return i
        depth, i = 1, m.end()
        while i < n and depth:
            depth += {"[": 1, "]": -1}.get(masked[i], 0)
            i += 1


def item_end(masked, i):
    """The end of the item (or field, statement, match arm) starting at i in masked code:
    past its `;` or `,` outside brackets, past the `}` closing its first outer `{`, or at a
    closing bracket of the code around it."""
    depth, n = 0, len(masked)
    while i < n:
        c = masked[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i
            depth -= 1
            if depth == 0 and c == "}":
                return i + 1
        elif c in ";," and depth == 0:
            return i + 1
        i += 1
    return n


def test_spans(masked):
    """(start, end, item start) of each `#[cfg(test)]` item of masked code, outermost only."""
    spans = []
    for m in TEST_ATTR_RE.finditer(masked):
        if spans and m.start() < spans[-1][1]:
            continue  # inside a test item already excluded
        start = skip_attributes(masked, m.end())
        spans.append((m.start(), item_end(masked, start), start))
    return spans


def split_code(text):
    """(the non-test code of a file's text, with comments and literals blanked and offsets
    kept; the names of the child modules it declares as tests, `#[cfg(test)] mod name;`)."""
    masked = mask(text)
    if INNER_TEST_ATTR_RE.search(INNER_ATTRS_RE.match(masked).group(0)):
        return re.sub(r"[^\n]", " ", masked), []  # the file's own #![cfg(test)]
    out, test_mods, last = [], [], 0
    for start, end, item in test_spans(masked):
        decl = TEST_MOD_DECL_RE.match(masked, item)
        if decl and decl.end() == end:
            test_mods.append(decl.group(1))
        out.append(masked[last:start])
        out.append(re.sub(r"[^\n]", " ", masked[start:end]))
        last = end
    out.append(masked[last:])
    return "".join(out), test_mods


def code(path):
    """The non-test code of a file, comments and literals blanked (see split_code)."""
    return split_code(open(path, encoding="utf-8").read())[0]


def resolve(mods, parts):
    """The deepest existing module of a path."""
    for k in range(len(parts), 0, -1):
        m = "::".join(parts[:k])
        if m in mods:
            return m
    return ""


def root_exports(mods):
    """Name -> module for the crate root's `pub use module::{...}` re-exports."""
    root = mods.get("")
    out = {}
    if not root:
        return out
    for m in re.finditer(r"pub use (\w+(?:::\w+)*)::\{([^}]*)\};|pub use (\w+(?:::\w+)*)::(\w+);", code(root)):
        base, names = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        for n in re.split(r"[\s,]+", names):
            if n:
                out[n] = resolve(mods, base.split("::")) or base
    return out


def edges(src):
    """Module -> {module it uses: (file, line) of the first such use}, for a crate source
    folder; modules declared as tests (`#[cfg(test)] mod name;`) and their children are left
    out."""
    mods = modules(src)
    exports = root_exports(mods)
    texts, tests = {}, set()
    for m, path in mods.items():
        texts[m], test_mods = split_code(open(path, encoding="utf-8").read())
        tests.update(f"{m}::{t}" if m else t for t in test_mods)
    graph = {
        m: {}
        for m in mods
        if m and not any(m == t or m.startswith(t + "::") for t in tests)
    }
    for m in graph:
        path, text = mods[m], texts[m]
        paths = []
        for g in USE_GROUP_RE.finditer(text):
            for item in re.split(r",", g.group(3)):
                item = item.strip().split(" as ")[0].split("::{")[0]
                if item:
                    paths.append((g.start(), g.group(1), g.group(2) + "::" + item))
        paths += [(u.start(), u.group(1), u.group(2)) for u in USE_RE.finditer(text)]
        for offset, kind, p in sorted(paths):
            parts = [x for x in p.split("::") if x]
            if kind == "super":
                base = m.split("::")
                # super from a mod.rs/lib.rs file is its parent; from x.rs likewise.
                base = base[:-1]
                while parts and parts[0] == "super":
                    base = base[:-1]
                    parts = parts[1:]
                parts = base + parts
            if not parts:
                continue
            if parts[0] in exports and parts[0] not in mods:
                target = exports[parts[0]]
            else:
                target = resolve(mods, parts)
            if target and target != m and target not in graph[m]:
                graph[m][target] = (path, text.count("\n", 0, offset) + 1)
    return graph


# The grid seam: a grid answers for itself (crates/cubesat/src/geometry), and code elsewhere
# asks it (`grid.cell_shape()`, `grid.frame()`, `grid.can_disassemble()`) instead of testing
# which grid it is, so that a new grid is one module there and the compiler shows the rest.
GRID_HOME = "crates/cubesat/src/geometry"
GRID_TEST_RE = re.compile(
    r"(?:==|!=)\s*(?:\w+::)*Grid::[A-Z]\w*"  # x == Grid::Cube
    r"|\bGrid::[A-Z]\w*\s*(?:==|!=|=>|\|[^|])"  # Grid::Cube == x, a match arm
    r"|\bmatches!\s*\([^;]*?\bGrid::[A-Z]"  # matches!(x, Grid::Cube)
)


def grid_tests(text):
    """Offsets in non-test code `text` where it tests which grid a value is."""
    return [hit.start() for hit in GRID_TEST_RE.finditer(text)]


def grid_seam():
    """(file, line) of each place outside the geometry module that tests which grid it is."""
    found = []
    for src in LAYERS:
        mods = modules(src)
        texts, tests = {}, set()
        for m, path in mods.items():
            texts[m], test_mods = split_code(open(path, encoding="utf-8").read())
            tests.update(f"{m}::{t}" if m else t for t in test_mods)
        for m, path in sorted(mods.items()):
            if path.startswith(GRID_HOME) or any(m == t or m.startswith(t + "::") for t in tests):
                continue
            for offset in grid_tests(texts[m]):
                found.append((path, texts[m].count("\n", 0, offset) + 1))
    return found


def layer_of(order, m):
    """Index of the most specific layer entry that m is or is inside of."""
    best, idx = -1, None
    for i, entry in enumerate(order):
        for e in entry.split("|"):
            if (m == e or m.startswith(e + "::")) and len(e) > best:
                best, idx = len(e), i
    return idx


def crate_edges():
    """Violations of CRATES: (crate, dependency) pairs that point up or sideways."""
    names = [n for _, n in CRATES]
    bad = []
    for i, (folder, name) in enumerate(CRATES):
        text = open(os.path.join(folder, "Cargo.toml"), encoding="utf-8").read()
        for section in re.finditer(r"^\[(?:target\.[^\]]*\.)?dependencies\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S):
            for dep in re.findall(r"^([A-Za-z0-9_-]+)\s*(?:\.workspace\s*)?=", section.group(1), re.M):
                if dep in names and names.index(dep) >= i:
                    bad.append((name, dep))
    return bad


def self_test():
    """The span logic on small cases; an AssertionError names the case that fails."""
    def kept(text):
        return split_code(text)[0]

    # A test fn in the middle of a file: the code after it is read.
    code_ = kept("fn a() { crate::x::f(); }\n#[cfg(test)]\nfn t() { crate::y::g(); }\nfn b() { crate::z::h(); }\n")
    assert "crate::x" in code_ and "crate::y" not in code_ and "crate::z" in code_, "test fn in the middle"
    # Braces in a string, a char, a raw string and comments do not end the test module.
    text = (
        '#[cfg(test)]\nmod tests {\n    fn f() {\n        let s = "}";\n        let c = \'}\';\n'
        '        let r = r#"}"#; /* } */ // }\n        crate::y::g();\n    }\n}\n'
        "fn after<'a>(x: &'a str) -> char { crate::z::h(x); '{' }\n"
    )
    code_ = kept(text)
    assert "crate::y" not in code_ and "crate::z" in code_, "braces in literals and comments"
    assert code_.index("fn after") == text.index("fn after"), "offsets kept"
    assert [len(x) for x in code_.split("\n")] == [len(x) for x in text.split("\n")], "lines kept"
    # A path in a string or a comment is not a use; a lifetime is not a char literal.
    code_ = kept("fn f<'a>(x: &'a u8) { let s = \"crate::y::g\"; } // crate::y\nuse crate::z;\n")
    assert "crate::y" not in code_ and "crate::z" in code_, "paths in literals, lifetimes"
    # Further attributes after #[cfg(test)]; cfg(not(test)) is not a test.
    code_ = kept("#[cfg(test)]\n#[allow(dead_code)]\nuse crate::y;\n#[cfg(not(test))]\nuse crate::z;\n")
    assert "crate::y" not in code_ and "crate::z" in code_, "attributes, cfg(not(test))"
    # A test field and a test method end at their own comma and brace.
    code_ = kept(
        "struct S {\n    #[cfg(test)]\n    a: crate::y::A,\n    b: crate::z::B,\n}\n"
        "impl S {\n    #[cfg(test)]\n    fn t(&self) {}\n    fn u(&self) { crate::w::f() }\n}\n"
    )
    assert "crate::y" not in code_ and "crate::z" in code_ and "crate::w" in code_, "field, method"
    # A test statement at the end of a block stops at its semicolon.
    code_ = kept("fn f() {\n    #[cfg(test)]\n    return crate::y::g();\n    crate::z::h()\n}\n")
    assert "crate::y" not in code_ and "crate::z" in code_, "statement"
    # A module file declared as a test, and a file under #![cfg(test)].
    assert split_code("#[cfg(test)]\nmod tests;\nmod real;\n")[1] == ["tests"], "test module file"
    assert "crate::y" not in kept("#![allow(x)]\n#![cfg(test)]\nuse crate::y;\n"), "inner cfg(test)"
    assert "crate::y" in kept("#![allow(x)]\nuse crate::y;\nmod a {\n    #![cfg(test)]\n}\n"), "inner, of a mod"
    # Testing which grid a value is, in each form; asking a grid is not.
    for case in ["if g == Grid::Cube {", "if crate::geometry::Grid::Sphere != g {",
                 "match g { Grid::Cube => 1, Grid::Sphere => 2 }", "matches!(g, Grid::Cube | Grid::Sphere)",
                 "match g { Grid::Cube | Grid::Sphere => 1 }"]:
        assert grid_tests(kept(f"fn f(g: Grid) {{ {case} }}\n")), f"grid test: {case}"
    for case in ["g.cell_shape() == CellShape::Ball", "Grid::Sphere.centre(c)", "let g = Grid::default();",
                 "match g.frame() { Frame::Lattice => 1, Frame::Layers => 2 }", 'let s = "g == Grid::Cube";']:
        assert not grid_tests(kept(f"fn f(g: Grid) {{ {case} }}\n")), f"not a grid test: {case}"
    print("check-layers self-test: 11 cases pass")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    failed = False
    for name, dep in crate_edges():
        print(f"crate {name} depends on {dep}, which is not below it (CRATES in {sys.argv[0]})")
        failed = True
    for src, order in LAYERS.items():
        graph = edges(src)
        for m, targets in sorted(graph.items()):
            lm = layer_of(order, m)
            if lm is None:
                print(f"{src}: module {m} is in no layer (add it to LAYERS in {sys.argv[0]})")
                failed = True
                continue
            for t in sorted(targets):
                if m.startswith(t + "::") or t.startswith(m + "::"):
                    continue  # parent and child: only a cycle between them is an error
                lt = layer_of(order, t)
                if lt is None or lt >= lm and not t.startswith(order[lm] + "::"):
                    path, line = targets[t]
                    print(f"{path}:{line}: {m} uses {t}, which is not below it")
                    failed = True
        # Cycles, including parent/child pairs.
        state = {}
        def visit(m, stack):
            state[m] = 1
            for t in graph.get(m, ()):
                if state.get(t) == 1:
                    cycle = stack[stack.index(t):] + [t]
                    print(f"{src}: module cycle: {' -> '.join(cycle)}")
                    for a, b in zip(cycle, cycle[1:]):
                        path, line = graph[a][b]
                        print(f"  {path}:{line}: {a} uses {b}")
                    return True
                if state.get(t) is None and visit(t, stack + [t]):
                    return True
            state[m] = 2
            return False
        for m in sorted(graph):
            if state.get(m) is None and visit(m, [m]):
                failed = True
                break
    for path, line in grid_seam():
        print(f"{path}:{line}: tests which grid it is: ask the grid instead (see {GRID_HOME}/grid.rs)")
        failed = True
    if failed:
        sys.exit(1)
    print("layers: crates one way (" + " <- ".join(n for _, n in CRATES) + "); no module cycle, no upward use in", ", ".join(LAYERS) + "; no test of which grid it is outside " + GRID_HOME)


if __name__ == "__main__":
    main()
