"""Changing and deleting an AWS resource.

Each changed field goes through the call that carries it, in the order the field metadata gives
(``after``); fields sharing a call go in one call unless the call takes one field at a time.
A versioned resource gets a new default version first (:mod:`.versions`); a change-batch one
is replaced whole (:mod:`.change_batch`); tags go through the kind's tag call
(:mod:`.tags`); a membership list (``update_kind`` ``add_remove``) through its pair of
calls, item by item (:func:`members`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.errors import InUseError, NotFoundError
from ..contract.spec import FieldSpec, update_order
from ..contract.state import known
from . import change_batch as aws_change_batch
from .calls import AwsCalls
from .tags import tag
from .versions import new_default_version

ADD_REMOVE = "add_remove"


def update(core: AwsCalls, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
    """:meth:`.core.AwsCore.update`: send each changed field through the call that carries it."""
    spec = core.spec
    if spec.change_batch is not None:
        aws_change_batch.upsert(core, actual, changes)
        return
    versioning = spec.versioning
    if versioning is not None and any(n in versioning.fields for n in changes):
        new_default_version(core, actual, changes)
        changes = {n: v for n, v in changes.items() if n not in versioning.fields}
    groups: list[tuple[str, list[FieldSpec]]] = []
    for f in update_order(spec, list(changes)):
        if f.update_kind == ADD_REMOVE:
            members(core, actual, f, changes[f.name])
        elif f.is_tags:
            tag(core, actual, changes[f.name])
        elif f.update_operation:
            call = spec.update_call(f.update_operation)
            same = [g for op, g in groups if op == f.update_operation]
            if (
                same
                and not call.one_field_per_call
                and not any(a in {x.name for x in same[-1]} for a in f.after)
            ):
                same[-1].append(f)
            else:
                groups.append((f.update_operation, [f]))
    for operation, fields in groups:
        call = spec.update_call(operation)
        params = call.identity_params(dict(actual))
        for f in fields:
            params[f.update_member or f.name] = core.to_api(f, changes[f.name])
        params.update(call.fixed)
        params.update(_required_as_read(core, operation, params, actual))
        core.call(operation, params, idempotent=False)


def _required_as_read(
    core: AwsCalls, operation: str, params: Mapping[str, Any], actual: Mapping[str, Any]
) -> dict[str, Any]:
    """Members the call requires whatever changes, sent as the state reads them: a call that
    replaces a whole entry (ReplaceNetworkAclEntry needs Protocol to change RuleAction) restates
    what stays. Never a sensitive field (what a read shows of a secret may be its ciphertext) nor
    one the read does not return: then the call goes without, and the API says what it lacks."""
    wanted = [m for m in core.required_inputs(operation) if m not in params]
    out: dict[str, Any] = {}
    for f in core.spec.fields:
        member = f.update_member or f.name
        if (
            member in wanted
            and not f.sensitive
            and not f.write_only
            and actual.get(f.name) is not None
        ):
            out[member] = core.to_api(f, actual[f.name])
    return out


def members(core: AwsCalls, actual: Mapping[str, Any], f: FieldSpec, wanted: Any) -> None:
    """A membership list made what is wanted, by set difference: the extra items go to the
    removing call, then the missing ones to the adding call (AddRoleToInstanceProfile /
    RemoveRoleFromInstanceProfile, AttachLoadBalancerTargetGroups / Detach...). Removals come
    first: an instance profile holds at most one role, so a swap must make room. A call whose
    member takes a list gets every item at once; one taking a single value, one call each."""
    assert f.update_operation and f.remove_operation
    member = f.update_member or f.name
    have, want = list(actual.get(f.name) or []), list(wanted or [])
    selector = core.spec.update_call(f.update_operation).identity_params(dict(actual))
    for operation, items in (
        (f.remove_operation, [i for i in have if i not in want]),
        (f.update_operation, [i for i in want if i not in have]),
    ):
        if not items:
            continue
        taken = core.inputs(operation).get(member)
        if taken is not None and taken.type_name == "list":
            core.call(operation, {**selector, member: items}, idempotent=False)
            continue
        for item in items:
            core.call(operation, {**selector, member: item}, idempotent=False)


def delete(core: AwsCalls, actual: Mapping[str, Any]) -> None:
    """:meth:`.core.AwsCore.delete`: gone already is fine; in use raises :class:`InUseError` for the
    caller. Membership lists the kind's delete is known to refuse while they hold items
    (``emptied_before_delete``: an instance profile's roles) are emptied first, so the delete is
    sent once. Any other list is emptied only when a delete is refused as in use while it holds
    items, and the delete tried once more: a delete the API allows (an Auto Scaling group with
    target groups) costs no detach calls, and a list that must keep one item is never emptied
    for nothing."""
    call = core.spec.delete
    assert call is not None
    if core.spec.change_batch is not None:
        aws_change_batch.delete(core, actual)
        return
    params = call.identity_params(dict(actual))
    if not params or not all(known(v) for v in params.values()):
        return  # nothing identifies it: there is nothing to delete
    held = [f for f in core.spec.fields if f.update_kind == ADD_REMOVE and actual.get(f.name)]
    for f in [f for f in held if f.emptied_before_delete]:
        _empty_before_delete(core, actual, f)
    held = [f for f in held if not f.emptied_before_delete]
    try:
        try:
            core.call(call.operation, params, idempotent=False)
        except InUseError:
            if not held:
                raise
            for f in held:
                members(core, actual, f, [])
            core.call(call.operation, params, idempotent=False)  # the first was refused
    except NotFoundError:
        return


def _empty_before_delete(core: AwsCalls, actual: Mapping[str, Any], f: FieldSpec) -> None:
    """Remove the list's items ahead of the delete. An item (or the resource) already gone is
    not the delete's answer: the delete is still sent, and says whether there is anything left."""
    try:
        members(core, actual, f, [])
    except NotFoundError:
        pass
