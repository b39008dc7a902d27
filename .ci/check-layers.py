#!/usr/bin/env python3
"""Checks that the workspace's crates depend on each other one way only (CRATES, bottom up)
and that each crate's modules form layers: no cycle in the graph of `use`s between
modules, and every module depends only on modules listed before it in LAYERS.

An edge A -> B is any path `crate::b::...` or `super::...` that A's non-test code names (a
`use`, or a path written inline), resolved to the deepest module that exists; names the
crate root re-exports (`crate::Error`) count as edges to the module that defines them.
Code from the first `#[cfg(test)]` line of a file on is a test and is skipped: tests may
reach across layers. A parent module declaring a child (`mod x;`) is not an edge, but a parent
using its child's items is, so a parent and child that use each other are a cycle.
"""
import os
import re
import sys

# Per crate, the modules from the bottom layer up; a module may use only modules before it
# (or its own descendants). Modules of one layer are joined with '|' and must not use each
# other.
LAYERS = {
    "crates/xc/src": [
        "error", "model", "fixtures", "cuts", "control", "shard", "encoding", "engines",
        "engines::exact::sliced", "engines::exact::geo", "engines::exact::board_simd", "engines::exact::body", "engines::exact::tail", "engines::exact::prepare", "engines::exact::descend",
        "engines::exact::search", "engines::exact", "engines::dlx", "engines::sat",
    ],
    "crates/cubesat/src": [
        "echo", "error", "input", "mode", "geometry", "rng", "puzzle", "puzzle::json", "puzzle::bundled", "placements",
        "symmetry", "counting", "solution", "run", "shard",
        "disassembly::grouping", "disassembly::limits", "disassembly::slide_in", "disassembly::search",
        "disassembly::replay", "disassembly", "disassembly::orient", "disassembly::solutions", "plan", "estimate", "render", "report", "interop", "generate",
    ],
    "crates/studio/src": ["adapter::views", "adapter::files|adapter::runs", "adapter|guard|assets", "jobs", "http"],
    "crates/cli": ["args", "output", "progress", "sink", "commands"],
}

# The workspace's crates from the bottom up, as (manifest folder, package name): a crate's
# [dependencies] may name only crates listed before it.
CRATES = [
    ("crates/xc", "cubesat-xc"),
    ("crates/cubesat", "cubesat"),
    ("crates/studio", "cubesat-studio"),
    (".", "cubesat-cli"),
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


def code(path):
    """The non-test code of a file, without comments."""
    text = open(path, encoding="utf-8").read()
    cut = text.find("#[cfg(test)]")
    if cut >= 0:
        text = text[:cut]
    return re.sub(r"//[^\n]*", "", text)


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
    mods = modules(src)
    exports = root_exports(mods)
    graph = {m: set() for m in mods if m}
    for m, path in mods.items():
        if not m:
            continue
        text = code(path)
        paths = []
        for g in USE_GROUP_RE.finditer(text):
            for item in re.split(r",", g.group(3)):
                item = item.strip().split(" as ")[0].split("::{")[0]
                if item:
                    paths.append((g.group(1), g.group(2) + "::" + item))
        paths += [(k, p) for k, p in USE_RE.findall(text)]
        for kind, p in paths:
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
            if target and target != m:
                graph[m].add(target)
    return graph


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


def main():
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
                    print(f"{src}: {m} uses {t}, which is not below it")
                    failed = True
        # Cycles, including parent/child pairs.
        state = {}
        def visit(m, stack):
            state[m] = 1
            for t in graph.get(m, ()):
                if state.get(t) == 1:
                    print(f"{src}: module cycle: {' -> '.join(stack[stack.index(t):] + [t])}")
                    return True
                if state.get(t) is None and visit(t, stack + [t]):
                    return True
            state[m] = 2
            return False
        for m in sorted(graph):
            if state.get(m) is None and visit(m, [m]):
                failed = True
                break
    if failed:
        sys.exit(1)
    print("layers: crates one way (" + " <- ".join(n for _, n in CRATES) + "); no module cycle, no upward use in", ", ".join(LAYERS))


if __name__ == "__main__":
    main()
