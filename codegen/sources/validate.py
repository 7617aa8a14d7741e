"""Structural checks on botocore model dicts, run before botocore builds objects from them.

botocore trusts its own data: a dangling shape reference or a shape without a type surfaces
as a ``KeyError`` or ``NoShapeFoundError`` deep inside a lazy property, long after loading and
without a file name. These checks walk the decoded dicts once and turn each such problem into
a :class:`TasklayerError` carrying the file, a JSON pointer and the reason. They check only what
botocore would otherwise trip over; they are not a full schema of the model format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from botocore.model import DenormalizedStructureBuilder
from botocore.waiter import WaiterModel

from codegen.errors import TasklayerError, json_pointer

# botocore's own list of types, so a type it learns later is accepted here too.
SHAPE_TYPES = frozenset(
    ("structure", "list", "map", *DenormalizedStructureBuilder.SCALAR_TYPES)
)

# Where a shape of each container type refers to other shapes.
_NESTED_REFS = {"list": ("member",), "map": ("key", "value")}
_OPERATION_REFS = ("input", "output")
_JSON_TYPE_NAMES = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}


def decode_json(payload: bytes, file: Path | str) -> Any:
    """Parse one schema file; a decoding problem names the file, line and column."""
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TasklayerError(
            f"not UTF-8 text (byte {exc.start}): {exc.reason}", file=file
        )
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except _StrictJsonError as exc:
        raise TasklayerError(f"invalid JSON: {exc}", file=file) from None
    except json.JSONDecodeError as exc:
        raise TasklayerError(
            f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            file=file,
            fragment=text[max(exc.pos - 60, 0) : exc.pos + 20] or "<empty file>",
        ) from None


class _StrictJsonError(ValueError):
    """What RFC 8259 leaves open and Python's json accepts: repeated keys, NaN and Infinity."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A repeated key would silently replace the first value; a schema saying two things is
    an error, not a coin toss."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        repeated = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise _StrictJsonError(f"duplicate key {repeated!r} in one object")
    return out


def _no_constant(name: str) -> Any:
    raise _StrictJsonError(f"{name} is not JSON (it would be copied into the shipped package)")


def check_service(model: Any, file: Path | str) -> None:
    """Check a service-2 dict: top-level sections, shape types and every shape reference."""
    expect_type(model, dict, file, "")
    for section in ("metadata", "operations", "shapes"):
        require_key(model, section, dict, file, "")
    shapes = model["shapes"]
    for name, shape in shapes.items():
        _check_shape(name, shape, shapes, file)
    for name, operation in model["operations"].items():
        _check_operation(name, operation, shapes, file)


def check_paginators(data: Any, operations: dict[str, Any], file: Path | str) -> None:
    """Check a paginators-1 dict: ``pagination`` maps existing operation names to configs."""
    expect_type(data, dict, file, "")
    pagination = require_key(data, "pagination", dict, file, "")
    for operation, config in pagination.items():
        pointer = json_pointer("pagination", operation)
        expect_type(config, dict, file, pointer)
        if operation not in operations:
            raise TasklayerError(
                f"paginator for unknown operation {operation!r}",
                file=file,
                pointer=pointer,
            )


def check_waiters(data: Any, operations: dict[str, Any], file: Path | str) -> None:
    """Check a waiters-2 dict: a version botocore supports, every waiter names an operation."""
    expect_type(data, dict, file, "")
    supported = WaiterModel.SUPPORTED_VERSION
    if data.get("version") != supported:
        raise TasklayerError(
            f"unsupported waiter version {data.get('version')!r} (expected {supported})",
            file=file,
            pointer=json_pointer("version"),
        )
    waiters = require_key(data, "waiters", dict, file, "")
    for name, waiter in waiters.items():
        pointer = json_pointer("waiters", name)
        expect_type(waiter, dict, file, pointer)
        operation = require_key(waiter, "operation", str, file, pointer)
        if operation not in operations:
            raise TasklayerError(
                f"waiter refers to unknown operation {operation!r}",
                file=file,
                pointer=pointer + "/operation",
            )


def check_extras(data: Any, file: Path | str) -> None:
    """Check an ``*.sdk-extras`` file before botocore deep-merges its ``merge`` object."""
    expect_type(data, dict, file, "")
    if "merge" in data:
        expect_type(data["merge"], dict, file, json_pointer("merge"))


def _check_shape(
    name: str, shape: Any, shapes: dict[str, Any], file: Path | str
) -> None:
    pointer = json_pointer("shapes", name)
    expect_type(shape, dict, file, pointer)
    kind = require_key(shape, "type", str, file, pointer)
    if kind not in SHAPE_TYPES:
        raise TasklayerError(
            f"unknown shape type {kind!r} (known: {', '.join(sorted(SHAPE_TYPES))})",
            file=file,
            pointer=pointer + "/type",
        )
    if kind == "structure":
        members = require_key(shape, "members", dict, file, pointer)
        for member, ref in members.items():
            _check_ref(
                ref, shapes, file, json_pointer("shapes", name, "members", member)
            )
    for key in _NESTED_REFS.get(kind, ()):
        _check_ref(
            require_key(shape, key, dict, file, pointer), shapes, file, f"{pointer}/{key}"
        )


def _check_operation(
    name: str, operation: Any, shapes: dict[str, Any], file: Path | str
) -> None:
    pointer = json_pointer("operations", name)
    expect_type(operation, dict, file, pointer)
    for key in _OPERATION_REFS:
        if key in operation:
            _check_ref(operation[key], shapes, file, f"{pointer}/{key}")
    errors = operation.get("errors", [])
    expect_type(errors, list, file, f"{pointer}/errors")
    for index, ref in enumerate(errors):
        _check_ref(ref, shapes, file, f"{pointer}/errors/{index}")


def _check_ref(
    ref: Any, shapes: dict[str, Any], file: Path | str, pointer: str
) -> None:
    """A shape reference is ``{"shape": name, ...traits}`` and the name must exist."""
    target = require_key(ref, "shape", str, file, pointer)
    if target not in shapes:
        raise TasklayerError(
            f"reference to undefined shape {target!r}",
            file=file,
            pointer=pointer + "/shape",
            fragment=json.dumps(ref)[:200],
        )


def require_key(parent: Any, key: str, kind: type, file: Path | str, pointer: str) -> Any:
    """``parent[key]``, which must exist and be of ``kind``; else an error at its JSON pointer."""
    expect_type(parent, dict, file, pointer)
    where = f"{pointer}{json_pointer(key)}"
    if key not in parent:
        raise TasklayerError(f"missing required key {key!r}", file=file, pointer=where)
    expect_type(parent[key], kind, file, where)
    return parent[key]


def expect_type(value: Any, kind: type, file: Path | str, pointer: str) -> None:
    """An error naming the file, the JSON pointer and both types unless ``value`` is a ``kind``."""
    if not isinstance(value, kind):
        raise TasklayerError(
            f"expected {_JSON_TYPE_NAMES[kind]}, got {_JSON_TYPE_NAMES.get(type(value), type(value).__name__)}",
            file=file,
            pointer=pointer,
            fragment=_shorten(value),
        )


def _shorten(value: Any) -> str:
    return json.dumps(value, default=str)[:200]
