"""Errors are values with context: the file, the place in it, and the reason.

The CLI catches :class:`TasklayerError`, prints it and exits with status 2, so bad input never
ends in a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class TasklayerError(Exception):
    """A problem with an input (schema, overlay, arguments) that stops the run."""

    reason: str
    file: Path | str | None = None
    pointer: str | None = None  # a JSON pointer ("/shapes/Vpc/members/VpcId") or overlay key
    fragment: str | None = None  # the offending piece of input, shortened
    level: str = "error"
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.reason)

    def __str__(self) -> str:
        pointer = (
            "(top level)" if self.pointer == "" else self.pointer
        )  # "" points at the whole document
        where = ": ".join(str(p) for p in (self.file, pointer) if p is not None)
        text = f"{where}: {self.reason}" if where else self.reason
        if self.fragment:
            text += f"\n    near: {self.fragment[:200]}"
        for note in self.notes:
            text += f"\n    note: {note}"
        return text


def json_pointer(*parts: object) -> str:
    """Build an RFC 6901 JSON pointer from path parts."""
    escaped = (str(p).replace("~", "~0").replace("/", "~1") for p in parts)
    return "/" + "/".join(escaped)
