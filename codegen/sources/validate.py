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

import jmespath  # type: ignore[import-untyped]
from botocore.model import DenormalizedStructureBuilder
from botocore.waiter import WaiterModel
from jmespath.exceptions import JMESPathError  # type: ignore[import-untyped]

from codegen.errors import TasklayerError, json_pointer
from codegen.sources.strict_json import MAX_DEPTH

# botocore's own list of types, so a type it learns later is accepted here too.
SHAPE_TYPES = frozenset(("structure", "list", "map", *DenormalizedStructureBuilder.SCALAR_TYPES))

# Where a shape of each container type refers to other shapes.
_NESTED_REFS = {"list": ("member",), "map": ("key", "value")}
# Traits the rules read as booleans; a string "false" would silently read as true.
_BOOLEAN_TRAITS = ("idempotencyToken", "sensitive")
_MATCHERS = {
    "path": True,
    "pathAll": True,
    "pathAny": True,
    "status": False,
    "error": False,
}  # -> has argument
_STATES = ("success", "failure", "retry")
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
    _check_depth(shapes, file)


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
        for key in (
            "input_token",
            "output_token",
            "result_key",
            "limit_key",
            "more_results",
            "non_aggregate_keys",
        ):
            if key in config:
                _expressions(config[key], file, f"{pointer}/{key}")


def _expressions(value: Any, file: Path | str, pointer: str) -> None:
    """A paginator key: one JMESPath expression or a list of them."""
    items = value if isinstance(value, list) else [value]
    for index, item in enumerate(items):
        where = f"{pointer}/{index}" if isinstance(value, list) else pointer
        expect_type(item, str, file, where)
        _jmespath(item, file, where)


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
        for key in ("delay", "maxAttempts"):
            if key in waiter:
                _positive(waiter[key], file, f"{pointer}/{key}")
        acceptors = require_key(waiter, "acceptors", list, file, pointer)
        for index, acceptor in enumerate(acceptors):
            _check_acceptor(acceptor, file, f"{pointer}/acceptors/{index}")


def _check_acceptor(acceptor: Any, file: Path | str, pointer: str) -> None:
    """What botocore's waiter reads from an acceptor, checked before it raises mid-wait."""
    matcher = require_key(acceptor, "matcher", str, file, pointer)
    if matcher not in _MATCHERS:
        raise TasklayerError(
            f"unknown waiter matcher {matcher!r} (known: {', '.join(_MATCHERS)})",
            file=file,
            pointer=pointer + "/matcher",
        )
    state = require_key(acceptor, "state", str, file, pointer)
    if state not in _STATES:
        raise TasklayerError(
            f"unknown acceptor state {state!r} (known: {', '.join(_STATES)})",
            file=file,
            pointer=pointer + "/state",
        )
    if "expected" not in acceptor:
        raise TasklayerError(
            "missing required key 'expected'", file=file, pointer=pointer + "/expected"
        )
    if _MATCHERS[matcher]:
        _jmespath(
            require_key(acceptor, "argument", str, file, pointer), file, pointer + "/argument"
        )


def _positive(value: Any, file: Path | str, pointer: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TasklayerError(
            f"expected a positive whole number, got {_shorten(value)}", file=file, pointer=pointer
        )


def _jmespath(expression: str, file: Path | str, pointer: str) -> None:
    try:
        jmespath.compile(expression)
    except JMESPathError as exc:
        reason = str(exc).splitlines()[0]
        raise TasklayerError(
            f"not a JMESPath expression: {reason}", file=file, pointer=pointer, fragment=expression
        ) from None


def check_extras(data: Any, file: Path | str) -> None:
    """Check an ``*.sdk-extras`` file before botocore deep-merges its ``merge`` object."""
    expect_type(data, dict, file, "")
    if "merge" in data:
        expect_type(data["merge"], dict, file, json_pointer("merge"))


def _check_shape(name: str, shape: Any, shapes: dict[str, Any], file: Path | str) -> None:
    pointer = json_pointer("shapes", name)
    expect_type(shape, dict, file, pointer)
    kind = require_key(shape, "type", str, file, pointer)
    if kind not in SHAPE_TYPES:
        raise TasklayerError(
            f"unknown shape type {kind!r} (known: {', '.join(sorted(SHAPE_TYPES))})",
            file=file,
            pointer=pointer + "/type",
        )
    _check_text(shape, file, pointer)
    if kind == "structure":
        members = require_key(shape, "members", dict, file, pointer)
        for member, ref in members.items():
            _check_ref(ref, shapes, file, json_pointer("shapes", name, "members", member))
        required = shape.get("required", [])
        expect_type(required, list, file, pointer + "/required")
        for index, member in enumerate(required):
            expect_type(member, str, file, f"{pointer}/required/{index}")
            if member not in members:
                raise TasklayerError(
                    f"required names {member!r}, which is not a member",
                    file=file,
                    pointer=f"{pointer}/required/{index}",
                )
    if "enum" in shape:
        expect_type(shape["enum"], list, file, pointer + "/enum")
        for index, value in enumerate(shape["enum"]):
            expect_type(value, str, file, f"{pointer}/enum/{index}")
    for key in _NESTED_REFS.get(kind, ()):
        _check_ref(require_key(shape, key, dict, file, pointer), shapes, file, f"{pointer}/{key}")


def _check_operation(name: str, operation: Any, shapes: dict[str, Any], file: Path | str) -> None:
    pointer = json_pointer("operations", name)
    expect_type(operation, dict, file, pointer)
    _check_text(operation, file, pointer)
    for key in _OPERATION_REFS:
        if key in operation:
            _check_ref(operation[key], shapes, file, f"{pointer}/{key}")
    errors = operation.get("errors", [])
    expect_type(errors, list, file, f"{pointer}/errors")
    for index, ref in enumerate(errors):
        _check_ref(ref, shapes, file, f"{pointer}/errors/{index}")


def _check_ref(ref: Any, shapes: dict[str, Any], file: Path | str, pointer: str) -> None:
    """A shape reference is ``{"shape": name, ...traits}`` and the name must exist."""
    target = require_key(ref, "shape", str, file, pointer)
    _check_text(ref, file, pointer)
    if target not in shapes:
        raise TasklayerError(
            f"reference to undefined shape {target!r}",
            file=file,
            pointer=pointer + "/shape",
            fragment=json.dumps(ref)[:200],
        )


def _check_text(node: dict[str, Any], file: Path | str, pointer: str) -> None:
    """Documentation is text and the boolean traits the rules read are booleans."""
    if "documentation" in node:
        expect_type(node["documentation"], str, file, pointer + "/documentation")
    for trait in _BOOLEAN_TRAITS:
        if trait in node:
            expect_type(node[trait], bool, file, f"{pointer}/{trait}")


def _check_depth(shapes: dict[str, Any], file: Path | str) -> None:
    """No chain of shapes (through members, list members, map keys and values) is deeper than
    MAX_DEPTH; a cycle is fine (botocore and the rules stop at a shape already being read).
    Iterative, so a deep chain is reported rather than exhausting the stack here."""
    depth: dict[str, int] = {}
    for start in shapes:
        if start in depth:
            continue
        stack: list[tuple[str, list[str]]] = [(start, _children(shapes[start]))]
        on_path = {start}
        while stack:
            name, todo = stack[-1]
            if todo:
                child = todo.pop()
                if child not in depth and child not in on_path:
                    if len(stack) >= MAX_DEPTH:
                        raise TasklayerError(
                            f"shapes nest more than {MAX_DEPTH} deep (from {stack[0][0]!r})",
                            file=file,
                            pointer=json_pointer("shapes", child),
                        )
                    stack.append((child, _children(shapes[child])))
                    on_path.add(child)
                continue
            stack.pop()
            on_path.discard(name)
            depth[name] = 1 + max((depth.get(c, 0) for c in _children(shapes[name])), default=0)
            if depth[name] > MAX_DEPTH:
                raise TasklayerError(
                    f"shapes nest more than {MAX_DEPTH} deep below this one",
                    file=file,
                    pointer=json_pointer("shapes", name),
                )


def _children(shape: dict[str, Any]) -> list[str]:
    refs = list(shape.get("members", {}).values()) + [
        shape[k] for k in ("member", "key", "value") if k in shape
    ]
    return [r["shape"] for r in refs]


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
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TasklayerError(
            f"expected {_JSON_TYPE_NAMES[kind]}, got "
            f"{_JSON_TYPE_NAMES.get(type(value), type(value).__name__)}",
            file=file,
            pointer=pointer,
            fragment=_shorten(value),
        )


def _shorten(value: Any) -> str:
    return json.dumps(value, default=str)[:200]
