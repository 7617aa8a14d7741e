"""Finding AWS resources: by primary id when it is known, else by natural key within the parent
scope (filters where the read has them, a list that starts at a name where it does not), and
sub-resources inside their parent's read (a Route in its RouteTable). Every answer is checked
against what was asked, in case a server ignored a filter."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..contract.diff import same_name
from ..contract.errors import MalformedResponseError
from ..contract.spec import Mutability, ReadSpec
from ..contract.state import State, known
from . import change_batch as aws_change_batch
from .calls import AwsCalls

__all__ = ["carries", "find", "known", "natural_params", "nested_states", "shared_read"]


def find(
    core: AwsCalls,
    desired: Mapping[str, Any],
    name: str,
    match_tags: Mapping[str, str] | None,
    retry_not_found: bool,
) -> list[State]:
    """:meth:`.core.AwsCore.find`: every resource matching the desired identity."""
    spec, read = core.spec, core.spec.read
    if read is None:
        return []
    if spec.change_batch is not None:
        return aws_change_batch.find(core, desired, retry_not_found)
    if read.nested_member:
        return _find_nested(core, desired, retry_not_found)
    primary = {p: desired.get(p) for p in spec.primary}
    by_id = bool(spec.primary) and all(known(v) for v in primary.values())
    listing = spec.listing
    if not by_id and listing is not None and listing.natural_filter and not read.natural_filter:
        read = listing  # found by name through a list (ListHostedZonesByName)
    params = _id_params(core, primary, desired) if by_id else None
    if params is None:
        # a primary id the read cannot select by (a log group's name, where DescribeLogGroups
        # takes only a prefix) is looked up as the natural key
        by_id = False
        params = natural_params(core, desired, name, match_tags, read)
    if params is None:
        return []
    if retry_not_found or core.snapshots is None or not core.snapshots.keeps_finds:
        items = core.read_items(params, retry_not_found, read)
    else:
        items = shared_read(core, params, read)
    states = [core.state(item) for item in items]
    if by_id:
        for state in states:  # an answer about another resource is not believed
            if any(state.get(p) is not None and state.get(p) != v for p, v in primary.items()):
                raise MalformedResponseError(
                    read.operation, "/", f"asked for {primary}, got another resource"
                )
        return [s for s in states if carries(core, s, match_tags)]
    # items listed within a parent (a group's log streams) need not repeat it: it is the one sent
    asked = {p: params[p] for p in spec.parent if p in params}
    states = [{**asked, **s} for s in states]
    return [s for s in states if _in_scope(core, s, desired, name) and carries(core, s, match_tags)]


def shared_read(core: AwsCalls, params: dict[str, Any], read: ReadSpec) -> list[dict[str, Any]]:
    """A find's read (by id or natural key), kept in the pass's snapshots as a listing is and
    dropped by the same writes: the executor makes it before the task runs (:func:`read_ahead`)
    and the task's find uses it. Read-backs, which must see a write just made, never come
    here. Two kinds' finds share it only where they make the same items of the answer (see
    :meth:`.calls.AwsCalls.read_items`): the primary members echoed from the parameters, and a
    kind whose tags are read separately keeps its own (a gateway read by id serves its
    attachment's find, which reads that gateway's item)."""
    assert core.snapshots is not None
    spec = core.spec
    echoed = tuple(p for p in spec.primary if p in params)
    tag_read = spec.name if spec.tags is not None and spec.tags.read_operation else None
    key = (
        read.operation,
        "find",
        json.dumps(params, sort_keys=True, default=str),
        echoed,
        tag_read,
    )
    return core.snapshots.items(
        core.spec.service, key, lambda: core.read_items(params, False, read)
    )


def carries(core: AwsCalls, state: State, tags: Mapping[str, str] | None) -> bool:
    """The state holds every one of ``tags`` (ownership and the cluster's markers)."""
    if not tags or core.spec.tags is None:
        return True
    have = state.get(core.spec.tags.field) or {}
    return all(have.get(k) == v for k, v in tags.items())


def _id_params(
    core: AwsCalls, primary: Mapping[str, Any], desired: Mapping[str, Any]
) -> dict[str, Any] | None:
    read = core.spec.read
    assert read is not None
    if read.id_filter and len(primary) == 1:
        value = next(iter(primary.values()))
        return {read.id_filter: [value] if read.id_filter_is_list else value}
    if read.required and all(known(desired.get(m)) for m in read.required):
        taken = core.inputs(read.operation)
        if taken and not all(m in taken for m in read.required):
            # an id part the read does not take (DescribeLogStreams lists a group's streams,
            # by logStreamNamePrefix): found by the natural key instead
            return None
        return {m: desired[m] for m in read.required}
    return None


def natural_params(
    core: AwsCalls,
    desired: Mapping[str, Any],
    name: str,
    match_tags: Mapping[str, str] | None,
    read: ReadSpec | None = None,
) -> dict[str, Any] | None:
    """The read's parameters selecting by natural key and parent; None when it cannot select."""
    spec = core.spec
    read = read or spec.read
    assert read is not None
    taken = core.inputs(read.operation)
    natural = _natural_selectors(core, desired, name, read, taken)
    if natural is None:
        return None
    params, filters, unfiltered = natural
    if not _parent_selectors(core, desired, read, params, filters):
        return None
    if unfiltered and not params:
        return None
    if filters and read.filters_member and spec.tags is not None:
        filters += [
            {"Name": f"tag:{k}", "Values": [v]} for k, v in sorted((match_tags or {}).items())
        ]
    if filters and not read.filters_member:
        return None
    if filters:
        params[read.filters_member] = filters  # type: ignore[index]
    if read.required and not all(m in params for m in read.required if not taken or m in taken):
        return None
    return params if params else None


def _natural_selectors(
    core: AwsCalls, desired: Mapping[str, Any], name: str, read: ReadSpec, taken: Mapping[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]], bool] | None:
    """(parameters, filters, unfiltered) selecting by the natural key; None when a member of it
    is not known. ``unfiltered``: a member the read cannot select by, matched on the client."""
    spec = core.spec
    filters: list[dict[str, Any]] = []
    params: dict[str, Any] = {}
    unfiltered = False
    for member in spec.natural:
        if member == "tag:Name":
            if not name:
                return None
            filters.append({"Name": "tag:Name", "Values": [name]})
            continue
        value = desired.get(member)
        f = spec.field(member)
        if not known(value):
            return None
        if read.filters_member and f.filter_name:
            filters.append({"Name": f.filter_name, "Values": [value]})
        elif read.natural_filter:
            params[read.natural_filter] = [value] if read.natural_filter_is_list else value
        elif member in read.required and (not taken or member in taken):
            params[member] = value
        else:  # GetDNSSEC lists a zone's keys and takes no key Name
            unfiltered = True  # matched on the client (_in_scope), if the parent narrows it
    return params, filters, unfiltered


def _parent_selectors(
    core: AwsCalls,
    desired: Mapping[str, Any],
    read: ReadSpec,
    params: dict[str, Any],
    filters: list[dict[str, Any]],
) -> bool:
    """Add to ``params`` / ``filters`` what selects the parent scope; False when a parent does
    not exist yet (it has no children)."""
    spec = core.spec
    for member in spec.parent:
        value, f = desired.get(member), spec.field(member)
        if value is not None and not known(value):
            return False  # a parent that does not exist yet has no children
        if value is not None and member in core.required_inputs(read.operation):
            params[member] = value  # the read cannot be called without it (SubnetId)
        elif value is not None and read.filters_member and f.filter_name:
            filters.append({"Name": f.filter_name, "Values": [value]})
        elif value is not None and member in core.inputs(spec.read.operation):  # type: ignore[union-attr]
            params[member] = value  # the read lists the parent's (DescribeListeners)
    return True


def _in_scope(core: AwsCalls, state: State, desired: Mapping[str, Any], name: str) -> bool:
    """Check what the filters asked, in case a server ignored one."""
    spec = core.spec
    for member in (*spec.natural, *spec.parent):
        if member == "tag:Name":
            if (state.get(spec.tags.field if spec.tags else "Tags") or {}).get("Name") != name:
                return False
        elif (
            desired.get(member) is not None
            and member in state
            and not same_name(state[member], desired[member])
        ):
            return False
    return True


def _find_nested(core: AwsCalls, desired: Mapping[str, Any], retry_not_found: bool) -> list[State]:
    """Sub-resources listed inside their parent (a Route in its RouteTable). The parent's read
    by id is the very read a find of the parent makes: kept in the pass's snapshots the same
    way (:func:`shared_read`), so within a pass the parent is read once for itself and its
    children; a read-back (``retry_not_found``) reads afresh."""
    read = core.spec.read
    assert read is not None and read.nested_member and read.id_filter
    parent_id = desired.get(core.spec.parent[0])
    if not known(parent_id):
        return []
    params = {read.id_filter: [parent_id] if read.id_filter_is_list else parent_id}
    if retry_not_found or core.snapshots is None or not core.snapshots.keeps_finds:
        items = core.read_items(params, retry_not_found)
    else:
        items = shared_read(core, params, read)
    return nested_states(core, items, desired)


def nested_states(
    core: AwsCalls, parents: list[dict[str, Any]], desired: Mapping[str, Any]
) -> list[State]:
    """The sub-resources inside parents' items that match the desired identity."""
    spec, read = core.spec, core.spec.read
    assert read is not None and read.nested_member
    parent_field = spec.parent[0]
    parent_id = desired.get(parent_field)
    found = []
    for parent in parents:
        nested = parent.get(read.nested_member) or []
        if not isinstance(nested, list):
            raise MalformedResponseError(
                read.operation, f"/{read.output_member}/{read.nested_member}", "expected a list"
            )
        for item in nested:
            if not isinstance(item, Mapping):
                raise MalformedResponseError(
                    read.operation, f"/{read.nested_member}", "expected an object"
                )
            state = core.state(item)
            state.setdefault(parent_field, parent_id)
            found.append(state)
    keys = [p for p in spec.primary if p != parent_field and desired.get(p) is not None]
    if not keys:
        keys = [
            f.name
            for f in spec.fields
            if f.in_create
            and f.mutability is Mutability.CREATE_ONLY
            and f.name != parent_field
            and desired.get(f.name) is not None
        ]
    return [s for s in found if all(s.get(k) == desired[k] for k in keys)]
