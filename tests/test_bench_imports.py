"""bench/ does not import from tests/ (issue 21, item 6): what both need is in testbed/."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imported(source: str) -> set[str]:
    """Every module a source imports, at any depth (function-level imports too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def from_tests(source: str) -> set[str]:
    return {m for m in imported(source) if m == "tests" or m.startswith("tests.")}


def test_the_check_sees_every_form_of_import() -> None:
    source = "import tests.faults\nfrom tests import x\ndef f():\n    from tests.behaviour.stack import y\nimport testbed\n"
    assert from_tests(source) == {"tests.faults", "tests", "tests.behaviour.stack"}


def test_no_bench_script_imports_tests() -> None:
    scripts = sorted((ROOT / "bench").glob("*.py"))
    assert scripts
    offending = {p.name: sorted(from_tests(p.read_text(encoding="utf-8"))) for p in scripts}
    assert {name: mods for name, mods in offending.items() if mods} == {}
