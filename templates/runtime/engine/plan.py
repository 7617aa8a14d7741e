"""Plan: what a pass would do, from the desired state and what was found
(docs/architecture.md, "plan" and "create-only check").

The state a create sends (the Name tag, the owner's marks), the fields that differ (diffed by
the contract's rules: ``None`` is "don't care", tags on managed keys only, unordered lists as
multisets), the ones among them only a create can set (refused before any call), and readiness.
Nothing here calls the cloud.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..contract.diff import compute_changes
from ..contract.ownership import Owner, marks_missing, record_field, written_record
from ..contract.spec import FieldSpec, Mutability, ResourceSpec
from ..contract.state import State


def creation_state(spec: ResourceSpec, desired: State, name: str, owner: Owner) -> State:
    """What a create sends: the desired state with the Name tag (where the kind is named by it)
    and the owner's marks (in the owner's record field, where it records itself in one)."""
    record = record_field(spec, owner)
    if record is not None:
        return {**desired, record: written_record(owner.marks)}
    tags = spec.tags
    if tags is None:
        return dict(desired)
    wanted = dict(desired.get(tags.field) or {})
    if "tag:Name" in spec.natural and name:
        wanted.setdefault("Name", name)
    wanted.update(owner.marks)
    return {**desired, tags.field: wanted}


@dataclass(frozen=True)
class Plan:
    """``create``: nothing was found. ``changes``: by API name, (actual, desired). ``fixed``:
    the changed fields only a create can set. ``wanted``: the state the changes lead to."""

    create: bool
    changes: dict[str, tuple[Any, Any]]
    fixed: tuple[FieldSpec, ...]
    wanted: State

    def __bool__(self) -> bool:
        return self.create or bool(self.changes)


def plan(
    spec: ResourceSpec,
    found: State | None,
    desired: State,
    name: str,
    owner: Owner,
    shared: bool = False,
) -> Plan:
    """The plan for one resource. Found ours by its create token alone (its tag call never
    made: a run ended between), the owner's marks are still to be written, as the create would
    have written them."""
    marks_due = found is not None and not shared and marks_missing(spec, owner, found)
    wanted = creation_state(spec, desired, name, owner) if found is None or marks_due else desired
    changes = compute_changes(spec, found, wanted)
    fixed = () if found is None else fixed_fields(spec, changes)
    return Plan(found is None, changes, fixed, wanted)


def fixed_fields(spec: ResourceSpec, changes: Mapping[str, object]) -> tuple[FieldSpec, ...]:
    """The changed fields only a create can set: refused before any call."""
    return tuple(
        spec.field(n) for n in changes if spec.field(n).mutability is not Mutability.MUTABLE
    )


def mutable_changes(spec: ResourceSpec, state: State, desired: State) -> dict[str, Any]:
    """What a create could not set (EnableDnsHostnames after CreateVpc)."""
    return {
        n: new
        for n, (_, new) in compute_changes(spec, state, desired).items()
        if spec.field(n).mutability is Mutability.MUTABLE
    }


@dataclass(frozen=True)
class Readiness:
    """``ready``; else ``failed`` (a terminal state: it will not become ready) or pending.
    ``field`` and ``value``: what was read; ``wanted``: the ready value."""

    ready: bool
    failed: bool = False
    field: str = ""
    value: object = None
    wanted: str | None = None


def readiness(spec: ResourceSpec, state: State) -> Readiness:
    """A resource still being made (a NAT gateway ``pending``) is not ready yet; one in a
    terminal state never will be."""
    ready = spec.readiness
    if ready is None or not state:
        return Readiness(True)
    value = spec.readiness_value(state)
    if spec.terminal(state):
        return Readiness(False, True, ready.field, value, ready.ready)
    if value is not None and ready.ready is not None and value != ready.ready:
        return Readiness(False, False, ready.field, value, ready.ready)
    return Readiness(True)
