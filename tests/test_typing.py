"""The generator and the runtime are typed: ``mypy --strict`` finds nothing (issue 21, item 6).

codegen/ is checked from the repository with pyproject's ``[tool.mypy]`` (strict, no per-module
overrides); the runtime as users import it, from generated/ (the package's own root), as
tests/test_golden.py checks the whole generated package.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

TARGETS = {
    "codegen": (ROOT, "codegen"),
    "runtime": (ROOT / "generated", "tasklayer_tasks/runtime"),
}


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_mypy_strict_finds_no_error(target: str) -> None:
    cwd, path = TARGETS[target]
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", path],
        cwd=cwd, capture_output=True, text=True,
    )
    errors = [line for line in proc.stdout.splitlines() if re.search(r": error: ", line)]
    assert proc.returncode == 0 and not errors, proc.stdout + proc.stderr
    assert proc.stdout.startswith("Success: no issues found"), proc.stdout
