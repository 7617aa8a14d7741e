"""Building the docs site for the tests: once per session, strictly, into a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


@dataclass(frozen=True)
class Site:
    folder: Path
    output: str  # what mkdocs printed
    seconds: float


def build(into: Path) -> Site:
    """``mkdocs build --strict`` of the checkout into ``into``; a failure names what mkdocs said."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # the theme's banner, not a warning of ours
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(into)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    seconds = time.monotonic() - start
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{output[-4000:]}"
    return Site(into, output, seconds)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return build(tmp_path_factory.mktemp("site") / "site")
