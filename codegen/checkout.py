"""Where the checkout is: the folder the commands find ``schemas/`` and ``templates/`` in when no
path is given (the commands run anywhere inside it)."""

from __future__ import annotations

from pathlib import Path


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` holding ``schemas/`` and ``templates/``."""
    for folder in (start, *start.parents):
        if (folder / "schemas").is_dir() and (folder / "templates").is_dir():
            return folder
    return None
