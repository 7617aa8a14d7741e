"""codegen/ passes the linter with the rule set pyproject declares (``[tool.ruff]``: pycodestyle,
pyflakes, import order, bugbear, pyupgrade, complexity at most 15, ...) and is laid out as
black -l 100 writes it, the formatter the project uses (issue 21, item 6)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing_in_codegen() -> None:
    proc = _run("ruff", "check", "--no-cache", "--output-format", "concise", "codegen")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "All checks passed!" in proc.stdout, proc.stdout


def test_the_rule_set_includes_the_complexity_bound() -> None:
    """The bound is part of what "passes" means: a function over it is a finding."""
    proc = _run("ruff", "check", "--no-cache", "--show-settings", "codegen/cli.py")
    assert proc.returncode == 0, proc.stderr
    settings = proc.stdout
    assert "max_complexity = 15" in settings, settings[-2000:]
    assert "C901" in settings and "line_length = 100" in settings


def test_codegen_is_black_clean() -> None:
    proc = _run("black", "-l", "100", "--check", "--quiet", "codegen")
    assert proc.returncode == 0, proc.stdout + proc.stderr
