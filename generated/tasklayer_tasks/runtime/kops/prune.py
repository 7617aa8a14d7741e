"""Prune, as kOps' deletions: what the cluster owns that no task declares any more.

For each kind the task list uses, the resources carrying the cluster's ownership tag or label
(one listing, :mod:`..contract.snapshot`) whose id no task of that kind holds are *orphans*.
Each becomes a task of its kind, holding its id and, for each reference field naming another
orphan, that orphan: so deleting them runs in dependency order (a Subnet before its VPC),
through the same delete path as any task (found again by id and its ownership verified before
the call).

A kind that carries tags but is read only inside its parent (ELBv2 listeners, in their load
balancer) is listed within each parent its declared tasks name. Never pruned: anything not
carrying the owner's tag or label (so nothing shared and nothing of another owner), tag-less
kinds listed inside a parent (a Route goes with its RouteTable; the local route was never
ours), kinds that cannot be listed by tag, and kinds whose read lists another kind too
unless the read's spec says which items are which (``ReadSpec.selected_by``: security group
ingress and egress rules come from one ``DescribeSecurityGroupRules``, told apart by
``IsEgress``; without it, which delete call applies is not known from the listing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..contract.adapter import Core
from ..contract.context import Context
from ..contract.ownership import Owner
from ..contract.spec import ResourceSpec, known_specs
from ..contract.state import State
from .lifecycle import Lifecycle
from .task import Task
from .translate import adopt, owner_of, pass_core, record_of


def _alone_in_its_read(spec: ResourceSpec) -> bool:
    """Every item its read lists is of this kind, or the read says which are (``selected_by``:
    ingress rules beside egress ones, by ``IsEgress``)."""
    read = spec.read
    if read is None:
        return False
    return bool(read.selected_by) or not any(
        other is not spec
        and other.service == spec.service
        and other.name != spec.name
        and other.read is not None
        and other.read.operation == read.operation
        and not other.read.nested_member
        for other in known_specs()
    )


def orphans(context: Context, tasks: Sequence[Task]) -> list[Task]:
    """The cluster's resources of the kinds ``tasks`` use that none of them declares, as tasks
    (named by their Name tag, else their id), in no particular order. A kind placed in a zone or
    region (GCP) is listed in each place its declared tasks use, its orphans placed there."""
    kinds: dict[tuple[type[Task], tuple[tuple[str, Any], ...]], list[Task]] = {}
    for task in tasks:
        if len(task.spec.primary) == 1 and not task.shared:
            place = tuple(sorted(task.placement().items()))
            kinds.setdefault((type(task), place), []).append(task)
    found: list[Task] = []
    for (kind, place), declared in sorted(
        kinds.items(), key=lambda kv: (kv[0][0].spec.name, kv[0][1])
    ):
        spec = kind.spec
        if not _alone_in_its_read(spec) or spec.delete is None:
            continue
        sample = declared[0]
        core, owner = pass_core(sample, context), owner_of(sample, context)
        states = core.listed_owned(owner)
        if states is None:
            states = _listed_in_parents(core, owner, declared)
        if not states:
            continue
        held = {t.resource_id for t in declared if t.resource_id}
        names = {t.name for t in declared}
        for state in states:
            rid = state.get(spec.primary[0])
            name = _name_of(spec, state)
            if rid is None or rid in held or name in names:  # a same-named one: not ours to judge
                continue
            orphan = kind(name=name or str(rid), lifecycle=Lifecycle.SYNC, **dict(place))
            adopt(orphan, state)
            record_of(orphan).owned = True
            found.append(orphan)
    _link(found)
    return found


def _listed_in_parents(core: Core, owner: Owner, declared: list[Task]) -> list[State]:
    """A kind the cloud lists only inside its parent (ELBv2 listeners, in their load balancer):
    what the owner owns of it within each parent its declared tasks name."""
    spec = core.spec
    if len(spec.parent) != 1 or spec.tags is None:
        return []
    member = spec.parent[0]
    parents = {t.desired(dry_run=True).get(member) for t in declared}  # unmade: no children
    found: list[State] = []
    for parent in sorted(p for p in parents if isinstance(p, str) and p):
        found += core.listed_owned(owner, within={member: parent}) or []
    return found


def _name_of(spec: ResourceSpec, state: dict[str, object]) -> str | None:
    tags = state.get(spec.tags.field) if spec.tags is not None else None
    if isinstance(tags, dict) and "tag:Name" in spec.natural:
        name = tags.get("Name")
        return str(name) if name else None
    value = state.get("name")
    return str(value) if value else None


def _link(found: list[Task]) -> None:
    """A value naming another orphan holds that orphan, so it is deleted first, then the one it
    names: a reference field (a Subnet's VPC), or an id inside a list or structure of a field
    the task declares (a listener's forward action naming its target group)."""
    by_ref: dict[object, Task] = {}
    for task in found:
        by_ref[task.resource_id] = task
        link = task.observed.get("selfLink")
        if link:
            by_ref[link] = task
    for task in found:
        for f in task.spec.fields:
            if f.attr not in task.__dataclass_fields__ and not f.references:
                continue
            value = task.observed.get(f.name)
            linked = _linked(value, by_ref, task)
            if linked is not value:
                object.__setattr__(task, f.attr, linked)


def _linked(value: Any, by_ref: dict[object, Task], task: Task) -> Any:
    """``value`` with every id of another orphan in it replaced by that orphan; ``value`` itself
    when it names none."""
    if isinstance(value, str):
        target = by_ref.get(value)
        return target if target is not None and target is not task else value
    if isinstance(value, list):
        items = [_linked(v, by_ref, task) for v in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if isinstance(value, dict):
        members = {k: _linked(v, by_ref, task) for k, v in value.items()}
        return members if any(members[k] is not value[k] for k in value) else value
    return value
