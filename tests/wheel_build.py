"""The generated package's wheel, built as a user builds it (``pip wheel ./generated``), for the
tests that install it into fresh venvs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GENERATED = Path(__file__).resolve().parent.parent / "generated"


def build_wheel(out: Path) -> Path:
    """Build ``generated/`` into ``out`` with this interpreter's flit_core (no network)."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(GENERATED)],
        check=True, capture_output=True, text=True,
    )
    (built,) = out.glob("tasklayer_tasks-*.whl")
    return built
