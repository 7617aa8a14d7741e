"""The typed form of one overlay file, and the error every overlay problem becomes.

An overlay corrects per-resource facts the generic rules cannot know. Each correction only
says what the file says: a setting that is absent is not in ``settings`` at all, so ``null``
(clear a value the rules set) and "not mentioned" (keep the rules' value) stay distinct.
Every value keeps the key path it came from, because provenance and error messages name it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from codegen.errors import TasklayerError
from codegen.model import FieldType

# Types an added field may have; kept to the simple ones on purpose (see README).
ADDED_TYPES: Mapping[str, FieldType] = {
    "string": FieldType("string"),
    "integer": FieldType("integer"),
    "boolean": FieldType("boolean"),
    "list": FieldType("list", item=FieldType("string")),
    "structure": FieldType("structure"),
    "structure_list": FieldType("list", item=FieldType("structure")),
}


@dataclass(frozen=True)
class FieldOverlay:
    """Corrections to one field, or a field the rules cannot see (``add: true``)."""

    name: str
    key: str  # "resources.Vpc.fields.CidrBlock"
    settings: Mapping[str, Any]  # annotated attribute (FIELD_DEFAULTS) -> value, as given
    add: bool = False
    type: str | None = None  # one of ADDED_TYPES, only with add


@dataclass(frozen=True)
class ResourceOverlay:
    """Corrections to one resource, named as the rules named it (before any rename)."""

    name: str
    key: str  # "resources.Vpc"
    rename: str | None = None
    exclude: bool = False
    identity: Mapping[str, Any] = field(default_factory=dict)  # primary/natural/parent/arn
    tags: Mapping[str, Any] = field(default_factory=dict)  # TagsModel attributes
    fields: tuple[FieldOverlay, ...] = ()


@dataclass(frozen=True)
class Overlay:
    """One parsed, shape-checked overlay file. Checks that need the draft or the service model
    happen when it is applied."""

    file: str  # relative to the repo root, as provenance names it
    resources: tuple[ResourceOverlay, ...] = ()
    include: tuple[str, ...] | None = None  # keep only these resources (final names)
    generate: tuple[str, ...] | None = None  # what the renderer renders; None = nothing
    generate_all: bool = False  # `generate: all`: every resource whose annotation is complete
    generate_except: Mapping[str, str] = field(default_factory=dict)  # name -> why not, with all
    lines: Mapping[str, int] = field(default_factory=dict, compare=False)  # key path -> line

    def source(self, key: str) -> str:
        """The provenance string for a value this file set at ``key``."""
        return f"overlay:{self.file}#{key}"

    def error(self, key: str, reason: str, notes: Iterable[str] = ()) -> TasklayerError:
        return overlay_error(self.file, self.lines, key, reason, notes)


def overlay_error(
    file: str, lines: Mapping[str, int], key: str, reason: str, notes: Iterable[str] = ()
) -> TasklayerError:
    """An error naming the file, the key path and, when known, the line of the nearest key."""
    line = line_of(lines, key)
    where = f" (line {line})" if line else ""
    return TasklayerError(f"{reason}{where}", file=file, pointer=key, notes=list(notes))


def line_of(lines: Mapping[str, int], key: str) -> int | None:
    """The line of ``key``, else of its closest enclosing key that has one."""
    parts = key.split(".")
    while parts:
        line = lines.get(".".join(parts))
        if line:
            return line
        parts.pop()
    return None


def suggest(word: str, choices: Iterable[str]) -> str:
    """'; did you mean X?' when a close name exists, else ''."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""
