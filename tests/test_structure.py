"""The layout stays legible: no import cycle, counting every import statement anywhere in a module
(inside functions and ``if TYPE_CHECKING:`` blocks too); no two modules of ``metrics`` with one
name; no module over 400 lines without the reason at its top.

Import graph: a node per module (a package is its ``__init__``). ``import a.b`` points at ``a.b``;
``from p import n`` points at the module ``p.n`` when there is one, else at the module that the
package ``p`` re-exports ``n`` from (its ``__init__`` names it in an import), else at ``p``. The
imports of a package's ``__init__`` from its own submodules are its re-exports, resolved at the
importer as just said, and not edges of their own.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 400


def _modules(package: str) -> dict[str, Path]:
    mods = {}
    for p in sorted((ROOT / package).rglob("*.py")):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p
    return mods


def _resolve(node: ast.ImportFrom, importer: str, is_package: bool) -> str | None:
    if not node.level:
        return node.module
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _raw_imports(mods: dict[str, Path]) -> dict[str, list[tuple[str, str | None]]]:
    """Per module, every (module, name) its import statements name (name None for ``import``)."""
    out: dict[str, list[tuple[str, str | None]]] = {}
    for m, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: list[tuple[str, str | None]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [(a.name, None) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                src = _resolve(node, m, path.name == "__init__.py")
                if src:
                    found += [(src, a.name) for a in node.names]
        out[m] = found
    return out


def import_graph(package: str) -> dict[str, set[str]]:
    mods = _modules(package)
    raw = _raw_imports(mods)
    # what each package re-exports, and from which of its submodules
    reexports = {m: {name: src for src, name in raw[m] if name and src.startswith(m + ".")}
                 for m, p in mods.items() if p.name == "__init__.py"}
    graph: dict[str, set[str]] = {}
    for m, found in raw.items():
        deps: set[str] = set()
        for src, name in found:
            if name and f"{src}.{name}" in mods:
                target = f"{src}.{name}"
            elif name and name in reexports.get(src, {}):
                target = reexports[src][name]
                while target not in mods and "." in target:
                    target = target.rsplit(".", 1)[0]
            else:
                target = src
            if target in mods and target != m:
                deps.add(target)
        if mods[m].name == "__init__.py":
            deps = {d for d in deps if not d.startswith(m + ".")}
        graph[m] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each with one cycle
    through it spelled out."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for comp in comps:
        members = set(comp)
        path = [comp[0]]
        while True:  # walk inside the component until a module repeats
            nxt = sorted(graph[path[-1]] & members)[0]
            if nxt in path:
                out.append(path[path.index(nxt):] + [nxt])
                break
            path.append(nxt)
    return out


@pytest.mark.parametrize("package", ["metrics", "dashboard"])
def test_no_import_cycle(package):
    found = cycles(import_graph(package))
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_graph_sees_imports_inside_functions_and_type_checking_blocks(tmp_path, monkeypatch):
    pkg = tmp_path / "toy"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""toy"""\nfrom toy.a import f\n')
    (pkg / "a.py").write_text("def f():\n    from toy.sub import b\n    return b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from toy import f\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    graph = import_graph("toy")
    assert graph["toy.a"] == {"toy.sub.b"}
    assert graph["toy.sub.b"] == {"toy.a"}  # through the package's re-export
    assert graph["toy"] == set()
    assert cycles(graph) == [["toy.a", "toy.sub.b", "toy.a"]]


def test_no_two_modules_of_metrics_share_a_name():
    names = Counter(p.stem for p in (ROOT / "metrics").rglob("*.py")
                    if p.stem not in ("__init__", "__main__"))
    assert not [n for n, k in names.items() if k > 1], names.most_common(5)


@pytest.mark.parametrize("package", ["metrics", "dashboard"])
def test_long_modules_say_why(package):
    """A module over 400 lines says in its docstring why it is not split: ``(Size: <reason>)``."""
    long = []
    for p in (ROOT / package).rglob("*.py"):
        text = p.read_text(encoding="utf-8")
        if text.count("\n") > MAX_LINES:
            doc = ast.get_docstring(ast.parse(text)) or ""
            if "(Size:" not in doc:
                long.append(f"{p.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    assert not long, long


#: what a page may take from ``metrics`` itself: constants, words and formatters of results it
#: renders. Every computation comes through the data layer ``dashboard/data/`` (CONTRIBUTING.md).
VIEW_MAY_IMPORT = {
    "metrics.analyses.baselines": {"BASELINES"},  # the names of the baseline systems
    "metrics.reports.latex": {"LATEX_TOP"},  # how many systems a LaTeX table holds by default
    # one format for every p-value, count and signed difference
    "metrics.reports.numbers": {"format_p", "n_of", "signed"},
    "metrics.reports.pair_report": {"verdict_sentence"},  # the sentence of a computed verdict
}


def test_pages_compute_nothing_themselves():
    found = {}
    for path in sorted((ROOT / "dashboard" / "views").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("metrics"):
                names = {a.name for a in node.names}
                extra = names - VIEW_MAY_IMPORT.get(node.module or "", set())
                if extra:
                    found[f"{path.name}: {node.module}"] = sorted(extra)
            elif isinstance(node, ast.Import) and any(a.name.startswith("metrics")
                                                      for a in node.names):
                found[f"{path.name}: import"] = [a.name for a in node.names]
    assert not found, found
