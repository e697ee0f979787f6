"""The package layout DESIGN.md asks for: no import cycles between the modules of a package
(a cycle hides which module owns an idea), and sim never imports analysis or reports."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["brewbalance", "analysis", "reports", "sim"]


def imported(path: Path, module: str, modules: set[str]) -> set[str]:
    """Project modules that `path` (module `module`) imports, at any depth (function-level
    imports too): `from x import y` counts x.y when y is a module, else x."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {m for m in found if m in modules and m != module}


def graph() -> dict[str, set[str]]:
    paths = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            paths[".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")] = path
    return {name: imported(path, name, set(paths)) for name, path in paths.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle, found by depth-first search (each reported once per entry point)."""
    found, state = [], {}

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    return found


def test_the_cycle_finder_finds_a_planted_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package):
    edges = {m: {n for n in e if n.split(".")[0] == package} for m, e in graph().items()
             if m.split(".")[0] == package}
    assert cycles(edges) == []


def test_sim_never_imports_analysis_or_reports():
    for module, deps in graph().items():
        if module.split(".")[0] == "sim":
            assert not {d for d in deps if d.split(".")[0] in ("analysis", "reports", "brewbalance")}, module
