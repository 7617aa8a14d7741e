"""What the CLI prints besides its results: messages by verbosity, and a progress bar.

Results go to stdout; messages and the bar to stderr. The bar is drawn only when stderr is a
terminal (never into a log or a pipe) and not with ``-q``.
"""

from __future__ import annotations

import json
import shutil
import sys
from typing import Any, TextIO


class Console:
    def __init__(self, verbosity: int = 0, stream: TextIO | None = None) -> None:
        self.verbosity = verbosity  # -1 quiet, 0 normal, 1+ verbose
        self.stream = stream or sys.stderr
        self._bar_drawn = False

    @property
    def bar_enabled(self) -> bool:
        return self.verbosity >= 0 and self.stream.isatty()

    def info(self, text: str) -> None:
        """Normal output (the summary): off with ``-q``."""
        if self.verbosity >= 0:
            self._clear_bar()
            print(text, file=sys.stdout)

    def detail(self, text: str) -> None:
        """Only with ``-v``."""
        if self.verbosity >= 1:
            self._clear_bar()
            print(text, file=sys.stdout)

    def warn(self, text: str) -> None:
        """Always (also with ``-q``): something the user must know."""
        self._clear_bar()
        print(f"tasklayer: {text}", file=self.stream)

    def progress(self, label: str, done: int, total: int, item: str = "") -> None:
        if not self.bar_enabled:
            return
        width = max(10, min(40, shutil.get_terminal_size((80, 20)).columns - 40))
        filled = width * done // max(total, 1)
        line = f"{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {item}"
        self.stream.write(
            "\r" + line[: shutil.get_terminal_size((80, 20)).columns - 1].ljust(self._width())
        )
        self.stream.flush()
        self._bar_drawn = True
        if done >= total:
            self._clear_bar()

    def _clear_bar(self) -> None:
        if self._bar_drawn:
            self.stream.write("\r" + " " * self._width() + "\r")
            self.stream.flush()
            self._bar_drawn = False

    def _width(self) -> int:
        return shutil.get_terminal_size((80, 20)).columns - 1


def print_json(value: Any) -> None:
    """A command's result as JSON, on stdout."""
    print(json.dumps(value, indent=2))
