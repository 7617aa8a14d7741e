"""The runtime's folders are its layers (docs/architecture.md, "Layers"): an adapter (aws/, gcp/)
imports only the contract, the contract nothing above itself, no file of theirs reaches for
another module's private names, none imports in a circle, none is over 400 lines. Checked on
templates/runtime/ by reading the imports, as /work/shared/tools/layers.py does.

Every folder is held: the faces (kops/, capi/) import the engine and the contract, the engine
the contract, wiring anything below it; the top-level ``__init__`` (the package's public names)
may import every layer. No getattr/hasattr outside the named dynamic look-ups listed in
``LOOKUPS`` (an SDK method by its API name, a generated dataclass's field by its name, a wrapped
http object's attributes): a capability is a verb of the adapter protocol or data on the spec."""

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
    "azure": {"azure", "contract"},
    "engine": {"engine", "contract"},
    "kops": {"kops", "engine", "contract"},
    "capi": {"capi", "engine", "contract"},
    "wiring": {"wiring", "kops", "capi", "aws", "gcp", "azure", "engine", "contract"},
    # the cloud-provider face is built from generated tasks (above the runtime, "generated"),
    # run by the kOps executor: it sits over the kOps face, never beside it
    "cloudprovider": {"cloudprovider", "kops", "wiring", "engine", "contract", "generated"},
}
# (file, enclosing function) -> why a getattr there is not a capability probe
LOOKUPS = {
    ("aws/model.py", "method"): "a botocore client method by its operation name",
    ("gcp/discovery.py", "method"): "a googleapiclient method by its discovery id",
    ("kops/translate.py", "field_value_named"): "a generated task dataclass's field by its name",
    ("contract/context.py", "__getattr__"): "the wrapped http object's attributes, delegated",
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
            if node.level - 1 > len(package):  # above the runtime: the generated package's
                target = ".".join(["generated", *([node.module] if node.module else [])])
            else:
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


def _functions_calling(path: Path, names: tuple[str, ...]) -> list[tuple[str, int]]:
    """(enclosing function, line) of every call of one of ``names`` in ``path``."""
    found: list[tuple[str, int]] = []

    def walk(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id in names:
                found.append((function, child.lineno))
            walk(child, inner)

    walk(ast.parse(path.read_text()), "<module>")
    return found


def test_no_capability_probe() -> None:
    """Zero getattr/hasattr probes (issue 21, item 2): only the named look-ups remain."""
    probes = [
        f"{path.relative_to(RUNTIME)}:{line} in {function}"
        for path in sorted(RUNTIME.rglob("*.py"))
        for function, line in _functions_calling(path, ("getattr", "hasattr"))
        if (path.relative_to(RUNTIME).as_posix(), function) not in LOOKUPS
    ]
    assert not probes, probes
