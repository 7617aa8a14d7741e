"""An ARM resource's JSON and the runtime's state, both ways (docs/architecture.md, "State").

A state is the resource as ARM returns it with its ``properties`` members lifted beside the
envelope's (``location``, ``tags``, ``etag``), as Azure's own SDKs flatten them
(``x-ms-client-flatten``); a field's ``read_member`` is its dotted path in the JSON when it is
not a top-level member (``properties.addressSpace``). The path parameters that place it (its
resource group, a subnet's virtual network) are fields too, kept in the state, never in a body.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..contract.spec import FieldSpec, Mutability, ResourceSpec
from ..contract.state import State

PROPERTIES = "properties"


def path_of(f: FieldSpec) -> list[str]:
    return (f.read_member or f.name).split(".")


def path_fields(spec: ResourceSpec) -> frozenset[str]:
    """The state fields the resource's path takes, other than its own ``name`` (which ARM's
    bodies carry too)."""
    read = spec.read
    pairs = read.identity if read is not None else ()
    return frozenset(src for _, src in pairs if not src.startswith("@") and src != "name")


def state_of(body: Mapping[str, Any], placed: Mapping[str, Any]) -> State:
    """The state of a resource ARM answered with, placed by its path parameters."""
    state: State = {k: v for k, v in body.items() if k != PROPERTIES}
    props = body.get(PROPERTIES)
    if isinstance(props, Mapping):
        for k, v in props.items():
            state.setdefault(k, v)
    state.update({k: v for k, v in placed.items() if v is not None})
    return state


def put_at(body: dict[str, Any], path: list[str], value: Any) -> None:
    node = body
    for part in path[:-1]:
        node = node.setdefault(part, {})
    node[path[-1]] = copy.deepcopy(value)


def drop_at(body: dict[str, Any], path: list[str]) -> None:
    node: Any = body
    for part in path[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    if isinstance(node, dict):
        node.pop(path[-1], None)


def create_body(spec: ResourceSpec, desired: Mapping[str, Any]) -> dict[str, Any]:
    """What a create's PUT sends: every writable field the desired state sets, and its tags;
    nothing of a child collection the desired state leaves unset (it has none yet)."""
    skip = path_fields(spec)
    body: dict[str, Any] = {}
    for f in spec.fields:
        value = desired.get(f.name)
        if value is None or f.name in skip or f.mutability is Mutability.READ_ONLY:
            continue
        if f.in_create or f.mutability is Mutability.MUTABLE or f.is_tags:
            put_at(body, path_of(f), value)
    return body


def update_body(
    spec: ResourceSpec, current: Mapping[str, Any], changes: Mapping[str, Any]
) -> dict[str, Any]:
    """A read-modify-PUT's body: the resource as ``current`` (ARM's JSON, just read) holds it,
    every member kept — a child collection another task manages (a network's ``subnets``) goes
    back exactly as read, so the PUT cannot delete it (the ASO #1944 class) — with the changed
    fields set and the read-only ones the spec names left out. Tags merge: the keys a change
    names take its values, the others stay."""
    body = copy.deepcopy(dict(current))
    for f in spec.fields:
        if f.mutability is Mutability.READ_ONLY:
            drop_at(body, path_of(f))
    for name, value in changes.items():
        f = spec.field(name)
        if f.is_tags:
            value = {**(current.get(f.name) or {}), **(value or {})}
        put_at(body, path_of(f), value)
    return body


def children_dropped(
    spec: ResourceSpec,
    current: Mapping[str, Any],
    body: Mapping[str, Any],
    changes: Mapping[str, Any],
) -> list[str]:
    """The child collections ``current`` holds that ``body`` would drop or change though no
    change names them: what a PUT of ``body`` would delete (none for a body
    :func:`update_body` makes; checked before every PUT all the same)."""
    dropped = []
    for child in spec.child_collections:
        if child.field in changes:
            continue
        f = spec.field(child.field)
        had, sent = _at(current, path_of(f)), _at(body, path_of(f))
        if had and sent != had:
            dropped.append(child.field)
    return dropped


def _at(body: Mapping[str, Any], path: list[str]) -> Any:
    node: Any = body
    for part in path:
        node = node.get(part) if isinstance(node, Mapping) else None
    return node
