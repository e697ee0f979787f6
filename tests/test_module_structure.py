"""The package layout DESIGN.md asks for: no import cycles between the modules of a package
(a cycle hides which module owns an idea), sim never imports analysis or reports, and
reports renders analysis results only.

The reports rule: reports never imports sim (nor brewbalance), and from analysis it imports
only result types (classes such as RunAnalysis, Sweep, Verdict) and constants (names such as
FAMILY_DEFINITION, WINNER), never a function or a module. Whatever a page needs that has
to be computed (bucket labels, arm manifests, strength notes, records) is computed by
analysis and carried on its results."""

import ast
import importlib
import inspect
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


def analysis_names_imported(path: Path) -> list[tuple[str, str]]:
    """(module, name) of every `from analysis... import name` in `path`, at any depth;
    `import analysis...` gives (module, '*'), a whole module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "analysis":
            found += [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(a.name, "*") for a in node.names if a.name.split(".")[0] == "analysis"]
    return found


def is_result_or_constant(module: str, name: str) -> bool:
    """A class or a plain value of `module`: not a function, not a module."""
    if name == "*":
        return False
    value = getattr(importlib.import_module(module), name)
    return inspect.isclass(value) or not (callable(value) or inspect.ismodule(value))


def test_the_reports_rule_rejects_functions_and_modules():
    assert is_result_or_constant("analysis.rounds", "RoundsAnalysis")
    assert is_result_or_constant("analysis.core", "FAMILY_DEFINITION")
    assert not is_result_or_constant("analysis.rounds", "bucket_labels")
    assert not is_result_or_constant("analysis", "runfolder")
    assert not is_result_or_constant("analysis.sweep", "*")


def test_reports_never_imports_sim_or_the_cli():
    for module, deps in graph().items():
        if module.split(".")[0] == "reports":
            assert not {d for d in deps if d.split(".")[0] in ("sim", "brewbalance")}, module


def test_reports_imports_only_analysis_results_and_constants():
    offending = [(path.name, module, name) for path in sorted((ROOT / "reports").rglob("*.py"))
                 for module, name in analysis_names_imported(path)
                 if not is_result_or_constant(module, name)]
    assert offending == []
