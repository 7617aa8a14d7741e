"""One view of a member's schema, whichever the cloud: a botocore shape or a discovery-document
schema, as the kind, limits and members value synthesis needs (nothing else)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

KINDS = ("string", "integer", "float", "boolean", "timestamp", "blob", "list", "map", "structure")


@dataclass
class Schema:
    kind: str
    name: str = ""  # the shape's own name (botocore), or the schema's id (discovery)
    enum: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    pattern: str | None = None
    doc: str = ""
    required: tuple[str, ...] = ()
    output_only: frozenset[str] = frozenset()
    as_text: bool = False  # a GCP int64: an integer sent as a string
    _members: Callable[[], dict[str, Schema]] | None = field(default=None, repr=False)
    _item: Callable[[], Schema] | None = field(default=None, repr=False)

    @property
    def members(self) -> dict[str, Schema]:
        return self._members() if self._members else {}

    @property
    def item(self) -> Schema:
        """A list's item, a map's value."""
        assert self._item is not None, f"{self.kind} {self.name} has no item"
        return self._item()

    def matches(self, text: str) -> bool:
        """Whether ``text`` is within the documented length and pattern (patterns the Python
        engine cannot read are not held against a value)."""
        if self.minimum is not None and len(text) < self.minimum:
            return False
        if self.maximum is not None and len(text) > self.maximum:
            return False
        if not self.pattern:
            return True
        try:
            return re.fullmatch(self.pattern, text) is not None
        except re.error:
            return True


_BOTOCORE_KINDS = {
    "string": "string",
    "integer": "integer",
    "long": "integer",
    "float": "float",
    "double": "float",
    "boolean": "boolean",
    "timestamp": "timestamp",
    "blob": "blob",
    "list": "list",
    "map": "map",
    "structure": "structure",
}


def from_botocore(shape: Any) -> Schema:
    meta = shape.metadata
    kind = _BOTOCORE_KINDS.get(shape.type_name, "string")
    members = item = None
    if kind == "structure":
        members = lambda: {k: from_botocore(v) for k, v in shape.members.items()}  # noqa: E731
    elif kind == "list":
        item = lambda: from_botocore(shape.member)  # noqa: E731
    elif kind == "map":
        item = lambda: from_botocore(shape.value)  # noqa: E731
    return Schema(
        kind=kind,
        name=shape.name,
        enum=tuple(getattr(shape, "enum", None) or ()),
        minimum=meta.get("min"),
        maximum=meta.get("max"),
        pattern=_java_pattern(meta.get("pattern")),
        doc=shape.documentation or "",
        required=tuple(meta.get("required", ())),
        _members=members,
        _item=item,
    )


def _java_pattern(pattern: str | None) -> str | None:
    """botocore patterns are Java regexes; ``\\p{...}`` classes have no Python spelling, so a
    pattern with them is not checked."""
    if pattern is None or "\\p{" in pattern or "\\P{" in pattern:
        return None
    return pattern


_OUTPUT_ONLY = re.compile(r"^\s*(\[output only\]|output only)", re.I)
_REQUIRED_TEXT = re.compile(r"^\s*(\[required\]|required\b)", re.I)


def from_discovery(document: dict[str, Any], schema: dict[str, Any], method_id: str) -> Schema:
    """A discovery schema; ``required`` are the members the schema marks required for
    ``method_id`` (``annotations.required``) or whose text starts "Required"."""
    name = schema.get("$ref", schema.get("id", ""))
    if "$ref" in schema:
        schema = document["schemas"][schema["$ref"]]
    kind = schema.get("type", "object")
    fmt = schema.get("format", "")
    doc = str(schema.get("description", ""))
    base: dict[str, Any] = {"name": name, "doc": doc}
    if kind == "object" and "properties" in schema:
        props: dict[str, Any] = schema["properties"]
        required = tuple(
            k
            for k, p in props.items()
            if method_id in (p.get("annotations") or {}).get("required", [])
            or _REQUIRED_TEXT.search(str(p.get("description", "")))
        )
        output_only = frozenset(
            k for k, p in props.items() if _OUTPUT_ONLY.search(str(p.get("description", "")))
        )
        members = lambda: {  # noqa: E731
            k: from_discovery(document, p, method_id) for k, p in props.items()
        }
        return Schema("structure", required=required, output_only=output_only, _members=members, **base)
    if kind == "object":
        extra = schema.get("additionalProperties") or {"type": "string"}
        return Schema("map", _item=lambda: from_discovery(document, extra, method_id), **base)
    if kind == "array":
        items = schema.get("items") or {"type": "string"}
        return Schema("list", _item=lambda: from_discovery(document, items, method_id), **base)
    if kind == "string" and fmt in ("int64", "uint64"):
        return Schema("integer", as_text=True, **base)
    if kind in ("integer", "number"):
        return Schema(
            "integer" if kind == "integer" else "float",
            minimum=_number(schema.get("minimum")),
            maximum=_number(schema.get("maximum")),
            **base,
        )
    if kind == "boolean":
        return Schema("boolean", **base)
    return Schema(
        "string", enum=tuple(schema.get("enum", ())), pattern=schema.get("pattern"), **base
    )


def _number(value: Any) -> float | None:
    return float(value) if value is not None else None
