"""The small values views compute: a field's Python type, a custom resource key, a spec
literal's keyword arguments (constant names, values through ``repr()``), a docstring's first
sentence."""

from __future__ import annotations

from collections.abc import Callable

from codegen.model import FieldType
from codegen.naming import Code, PythonIdentifier, PythonLiteral, python_literal

Argument = tuple[PythonIdentifier, PythonLiteral | Code]
"""A spec literal's keyword: a constant name and its value (a literal, or the runtime's own
enum member as code)."""


def camel(name: str) -> str:
    """API member name to a custom resource key, as the runtime's ``reconciler.camel`` does:
    ``CidrBlock`` -> ``cidrBlock``, ``VPCZoneIdentifier`` -> ``vpcZoneIdentifier``."""
    upper = 0
    while upper < len(name) and name[upper].isupper():
        upper += 1
    if upper <= 1:
        return name[:1].lower() + name[1:]
    if upper == len(name):
        return name.lower()
    return name[: upper - 1].lower() + name[upper - 1 :]


Unwrap = Callable[[FieldType], "FieldType | None"]
"""A provider's view of a type that stands for another (AWS's ``{"Value": x}`` is x): the
inner type, or None when ``t`` is itself."""


def _as_is(t: FieldType) -> FieldType | None:
    return None


_SCALARS = {
    "string": Code("str"),
    "integer": Code("int"),
    "long": Code("int"),
    "float": Code("float"),
    "double": Code("float"),
    "boolean": Code("bool"),
    "timestamp": Code("datetime.datetime"),
    "blob": Code("bytes"),
}


def python_type(t: FieldType, unwrap: Unwrap = _as_is) -> Code:
    """The annotation for a value of ``t``; built only from constants, whatever the schema says.
    ``unwrap`` applies to the field's own type only: the runtime unwraps a field's value
    (``FieldSpec.value_wrapper``), never a structure inside it (a record set's ResourceRecords
    are ``[{"Value": ...}]``)."""
    inner = unwrap(t)
    if inner is not None:
        return python_type(inner, unwrap)
    if t.kind == "list" and t.item is not None:
        return Code("list[{}]", python_type(t.item))
    if t.kind == "map" and t.item is not None:
        return Code("dict[str, {}]", python_type(t.item))
    return _SCALARS.get(t.kind, Code("dict[str, Any]"))


def arguments(values: list[tuple[str, object]]) -> list[Argument]:
    """Keyword arguments of a spec literal: constant names, values through ``repr()``."""
    return [(PythonIdentifier(k), python_literal(v)) for k, v in values]


def first_sentence(text: str, limit: int = 600) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rsplit(" ", 1)[0] + "..."
