"""Markdown code blocks run as a reader would paste them: what tests/test_readme.py and
tests/docs/test_guide_snippets.py share.

Every ```python block of a page runs, in a fresh interpreter, with the environment the page
tells a reader to set (moto_server's endpoint and its fake credentials; the generated package
importable). A block that is not meant to run is marked on the line just above its fence with
``<!-- no-run: why -->`` (an HTML comment: Markdown renderers show nothing of it); the reason is
required, so each exception says why it is one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

_BLOCK = re.compile(r"^(?:<!-- no-run: *(?P<why>.*?) *-->\n)?```python[^\n]*\n(?P<code>.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Snippet:
    page: str  # the page's path, as the test ids show it
    index: int  # its place among the page's python blocks
    code: str
    no_run: str | None  # why it does not run; None: it runs

    @property
    def id(self) -> str:
        return f"{self.page}#{self.index}:{self.code.splitlines()[0][:40] if self.code else ''}"


def snippets(path: Path, root: Path) -> list[Snippet]:
    """The page's python blocks in order, those marked no-run included."""
    page = path.relative_to(root).as_posix()
    return [Snippet(page, i, m["code"], m["why"]) for i, m in enumerate(_BLOCK.finditer(path.read_text()))]


def snippet_env(root: Path, **extra: str) -> dict[str, str]:
    """The environment the pages tell a reader to set, and the generated package importable as
    the set-up's editable install makes it (``PYTHONPATH``, for checkouts without it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(PYTHONPATH=str(root / "generated"), AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing",
               **extra)
    return env


def run_snippet(code: str, cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -c code`` in ``cwd``: its own process, as pasted into a terminal."""
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
