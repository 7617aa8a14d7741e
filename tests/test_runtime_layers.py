"""The runtime's folders are its layers (docs/architecture.md, "Layers"): an adapter (aws/, gcp/)
imports only the contract, the contract nothing above itself, no file of theirs reaches for
another module's private names, none imports in a circle, none is over 400 lines. Checked on
templates/runtime/ by reading the imports, as /work/shared/tools/layers.py does.

The faces (kops/, capi/) and the engine are checked by the same rules once they are unified;
until then only the layers below them are held here."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

RUNTIME = Path(__file__).resolve().parent.parent / "templates" / "runtime"
MAY_IMPORT = {
    "contract": {"contract"},
    "aws": {"aws", "contract"},
    "gcp": {"gcp", "contract"},
    "wiring": {"wiring", "kops", "capi", "aws", "gcp", "engine", "contract"},
}
CHECKED = sorted(MAY_IMPORT)


def _module(path: Path) -> str:
    parts = path.relative_to(RUNTIME).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(imported module within the runtime, names) for every relative import of ``path``."""
    package = _module(path).split(".") if path.name == "__init__.py" else _module(path).split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            target = ".".join([*base, *([node.module] if node.module else [])])
            found.append((target, [a.name for a in node.names]))
    return found


def _files(layer: str) -> list[Path]:
    return sorted((RUNTIME / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", CHECKED)
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    wrong = [
        f"{path.relative_to(RUNTIME)} imports {target}"
        for path in _files(layer)
        for target, _ in _imports(path)
        if target.split(".")[0] not in MAY_IMPORT[layer]
    ]
    assert not wrong


@pytest.mark.parametrize("layer", CHECKED)
def test_no_private_name_of_another_module(layer: str) -> None:
    wrong = [
        f"{path.relative_to(RUNTIME)}: {target}.{name}"
        for path in _files(layer)
        for target, names in _imports(path)
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    reach = []
    for path in _files(layer):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                reach.append(f"{path.relative_to(RUNTIME)}:{node.lineno} .{node.attr}")
    assert not wrong and not reach, wrong + reach


def test_no_import_circle_among_the_checked_layers() -> None:
    modules = {_module(p): p for layer in CHECKED for p in _files(layer)}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {
            candidate
            for target, names in _imports(path)
            for candidate in (target, *(f"{target}.{n}" for n in names))
            if candidate in modules and candidate != name
        }
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError naming the circle


@pytest.mark.parametrize("layer", CHECKED)
def test_no_file_over_400_lines(layer: str) -> None:
    long = [f"{p.relative_to(RUNTIME)}: {n}" for p in _files(layer) if (n := p.read_text().count("\n")) > 400]
    assert not long
