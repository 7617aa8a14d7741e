"""codegen's modules are layers through which data flows one way (STYLE.md; issue 21 item 3):
pinned inputs are read, annotated, overlaid, rendered, written; the commands and the CLI drive it.
Each unit (a top-level module, a subpackage, or one part of ``providers/``) sits in a tier and may
import only its own tier or one below it; units never import in a circle. ``providers/__init__``
and ``providers/base.py`` are the seam every stage knows of a cloud (its name, its ``Provider``
protocol); the clouds themselves (``providers/aws``, ``providers/azure``, ``providers/gcp``) build on render's views
and are reached through ``providers/registry``.

Imports read only for typing (under ``if TYPE_CHECKING:``) carry no behaviour, but even those may
run upward only where ``TYPE_ONLY_UP`` names them and says why. Checked by reading the imports, as
/work/shared/tools/layers.py does (which checks the file-level circles)."""

from __future__ import annotations

import ast
import graphlib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "codegen"
TIERS: list[tuple[str, set[str]]] = [
    ("foundation", {"errors", "console", "model", "naming", "checkout", "outdir"}),
    ("seam", {"providers"}),
    ("inputs", {"sources", "inputs", "cache", "writer", "dump", "drift", "draft"}),
    ("annotation", {"annotate", "overlays", "selection", "metadata", "coverage"}),
    ("render", {"render"}),
    ("clouds", {"providers.aws", "providers.azure", "providers.gcp", "providers.registry", "names"}),
    ("run", {"pipeline", "build", "generate"}),
    ("front", {"commands", "cli"}),
]
# (file, imported unit) -> why a type-only import may name a higher tier
TYPE_ONLY_UP = {
    ("providers/base.py", "draft"): "the Provider protocol's annotate step takes a ServiceDraft",
    ("providers/base.py", "render"): "the Provider protocol's methods take render's ResourceView",
}


def unit_of(parts: list[str]) -> str:
    """The layer unit of a module path inside codegen (``['render', 'views']`` -> ``render``)."""
    if not parts:
        return "__init__"
    if parts[0] == "providers" and len(parts) > 1 and parts[1] in ("aws", "azure", "gcp", "registry"):
        return f"providers.{parts[1]}"
    return parts[0]


def _targets(node: ast.AST, package: list[str]) -> list[list[str]]:
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package[: len(package) - (node.level - 1)]
            if node.module:
                return [base + node.module.split(".")]
            return [base + [alias.name] for alias in node.names]
        if node.module and node.module.split(".")[0] == "codegen":
            return [node.module.split(".")[1:]]
    if isinstance(node, ast.Import):
        return [a.name.split(".")[1:] for a in node.names if a.name.startswith("codegen.")]
    return []


def _type_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes inside ``if TYPE_CHECKING:`` blocks."""
    return {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
        for stmt in node.body
        for inner in ast.walk(stmt)
    }


def imports() -> list[tuple[str, str, str, bool]]:
    """(file relative to codegen, its unit, imported unit, type-only) for every codegen import."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        package = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
        module = parts[:-1] if parts[-1] == "__init__" else parts
        tree = ast.parse(path.read_text())
        typing_only = _type_only(tree)
        for node in ast.walk(tree):
            for target in _targets(node, package):
                source, imported = unit_of(module), unit_of(target)
                if imported not in (source, "__init__"):
                    rel = str(path.relative_to(ROOT))
                    found.append((rel, source, imported, id(node) in typing_only))
    return found


def upward(found: list[tuple[str, str, str, bool]], tiers: list[tuple[str, set[str]]]) -> list[str]:
    """Every import that runs to a higher tier, or names a unit no tier declares."""
    rank = {unit: i for i, (_, units) in enumerate(tiers) for unit in units}
    wrong = []
    for rel, source, imported, type_only in found:
        if source not in rank or imported not in rank:
            wrong.append(f"{rel}: {source} or {imported} is in no tier")
        elif rank[imported] > rank[source] and not (type_only and (rel, imported) in TYPE_ONLY_UP):
            wrong.append(f"{rel} ({source}) imports {imported}, a higher tier")
    return wrong


def test_no_import_runs_up_the_tiers() -> None:
    assert upward(imports(), TIERS) == []


def test_every_unit_is_in_one_tier() -> None:
    declared = [unit for _, units in TIERS for unit in units]
    assert len(declared) == len(set(declared))
    present = {source for _, source, _, _ in imports()}
    assert present <= set(declared), present - set(declared)


def test_units_import_in_no_circle() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for _, source, imported, type_only in imports():
        if not type_only:
            graph[source].add(imported)
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError on a circle


def test_the_check_catches_an_upward_import() -> None:
    """The same check over the real imports plus one made-up edge (render reaching the pipeline,
    as a stage calling back into its driver would) reports it, and a type-only import upward is
    reported unless it is named."""
    found = imports()
    assert upward([*found, ("render/views.py", "render", "pipeline", False)], TIERS) == [
        "render/views.py (render) imports pipeline, a higher tier"
    ]
    assert upward([("sources/x.py", "sources", "render", True)], TIERS) == [
        "sources/x.py (sources) imports render, a higher tier"
    ]
