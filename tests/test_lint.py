"""codegen/ and the runtime that is copied into every generated package (templates/runtime, and
templates/testing beside it) pass the linter with the rule set pyproject declares
(``[tool.ruff]``: pycodestyle, pyflakes, import order, bugbear, pyupgrade, complexity at most
15, ...) and are laid out as black -l 100 writes them, the formatter the project uses (issue 21,
item 6)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# every tree of hand-written Python the project ships or runs: the generator, and the runtime
# and testing helpers copied verbatim into generated/
LINTED = ("codegen", "templates/runtime", "templates/testing")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing_in_the_whole_checkout() -> None:
    """``ruff check`` as a developer types it: every file pyproject does not exclude (tests/,
    testbed/, bench/ and examples/ too, with the per-file allowances pyproject states)."""
    proc = _run("ruff", "check", "--no-cache", "--output-format", "concise")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "All checks passed!" in proc.stdout, proc.stdout


@pytest.mark.parametrize("tree", LINTED)
def test_ruff_finds_nothing(tree: str) -> None:
    assert any((ROOT / tree).rglob("*.py")), f"{tree}: no Python files to lint"
    proc = _run("ruff", "check", "--no-cache", "--output-format", "concise", tree)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "All checks passed!" in proc.stdout, proc.stdout


@pytest.mark.parametrize("tree", LINTED)
def test_the_rule_set_includes_the_complexity_bound(tree: str) -> None:
    """The bound is part of what "passes" means, in each tree: a function over it is a finding
    (no tree has a configuration of its own that drops it)."""
    source = next(iter(sorted((ROOT / tree).rglob("*.py"))))
    proc = _run("ruff", "check", "--no-cache", "--show-settings", str(source.relative_to(ROOT)))
    assert proc.returncode == 0, proc.stderr
    settings = proc.stdout
    assert "max_complexity = 15" in settings, settings[-2000:]
    assert "C901" in settings and "line_length = 100" in settings


@pytest.mark.parametrize("tree", LINTED)
def test_black_clean(tree: str) -> None:
    proc = _run("black", "-l", "100", "--check", "--quiet", tree)
    assert proc.returncode == 0, proc.stdout + proc.stderr
