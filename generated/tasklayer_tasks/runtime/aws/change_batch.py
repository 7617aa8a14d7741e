"""Resources written as one change in their parent's batch: Route 53's record sets.

``ChangeResourceRecordSets`` takes the hosted zone and ``{"Changes": [{"Action": ...,
"ResourceRecordSet": {...}}]}``. A create is one CREATE (which fails if the record set exists:
what find did not see is never overwritten), a change one UPSERT of the whole item as it will
be, a delete one DELETE naming the item exactly as it was read. A record set is found by its
start-key members (name and type) among the parent's items: within a pass the parent's items
are listed once (one paginated list per hosted zone) and every record set of it is served from
that listing; outside a pass, one list starting at the record's name and type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.errors import NotFoundError
from ..contract.state import State, known
from .calls import AwsCalls


def _item(core: AwsCalls, state: Mapping[str, Any]) -> dict[str, Any]:
    """The change's item: every field of the state but the parent's id."""
    batch = core.spec.change_batch
    assert batch is not None
    return {
        f.name: state[f.name]
        for f in core.spec.fields
        if f.name != batch.parent_member and state.get(f.name) is not None
    }


def _send(
    core: AwsCalls, parent: Any, action: str, item: Mapping[str, Any], idempotent: bool
) -> None:
    batch = core.spec.change_batch
    assert batch is not None
    change = {batch.action_member: action, batch.item_member: dict(item)}
    params = {batch.parent_member: parent, batch.batch_member: {batch.changes_member: [change]}}
    core.call(batch.operation, params, idempotent=idempotent)


def create(core: AwsCalls, desired: Mapping[str, Any]) -> State:
    """One CREATE; sent once (a lost answer is resolved by finding, never by resending)."""
    batch = core.spec.change_batch
    assert batch is not None
    _send(
        core,
        desired[batch.parent_member],
        batch.create_action,
        _item(core, desired),
        idempotent=False,
    )
    return {p: desired[p] for p in core.spec.primary if desired.get(p) is not None}


def upsert(core: AwsCalls, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
    """One UPSERT of the whole item with the changes applied; the same UPSERT twice leaves one
    record set as once, so it may be retried."""
    batch = core.spec.change_batch
    assert batch is not None
    item = {**_item(core, actual), **{k: v for k, v in changes.items() if v is not None}}
    _send(core, actual[batch.parent_member], batch.upsert_action, item, idempotent=True)


def delete(core: AwsCalls, actual: Mapping[str, Any]) -> None:
    """One DELETE naming the item as it was read; gone already is fine."""
    batch = core.spec.change_batch
    assert batch is not None
    if not actual.get(batch.parent_member):
        return
    try:
        _send(
            core,
            actual[batch.parent_member],
            batch.delete_action,
            _item(core, actual),
            idempotent=False,
        )
    except NotFoundError:
        return


def find(core: AwsCalls, desired: Mapping[str, Any], retry_not_found: bool) -> list[State]:
    """The parent's items whose start-key members are the desired ones."""
    batch, read = core.spec.change_batch, core.spec.read
    assert batch is not None and read is not None
    parent = desired.get(batch.parent_member)
    keys = {f: desired.get(f) for _, f in batch.start}
    if not known(parent) or not all(known(v) for v in keys.values()):
        return []
    if core.snapshots is not None and core.snapshots.keeps_finds and not retry_not_found:
        items = core.snapshots.items(
            core.spec.service,
            (read.operation, parent),
            lambda: core.read_items({batch.parent_member: parent}, retry_not_found=False),
        )
    else:
        start = {member: keys[f] for member, f in batch.start}
        response = core.call(
            read.operation, {batch.parent_member: parent, **start}, idempotent=True
        )
        items = core.items(response)  # the first page holds them: it starts at their name
    found = []
    for item in items:
        state = core.state(item)
        state[batch.parent_member] = parent
        if all(state.get(f) == v for f, v in keys.items()):
            found.append(state)
    return found
