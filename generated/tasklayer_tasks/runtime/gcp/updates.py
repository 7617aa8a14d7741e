"""Changing a Google Cloud resource: each changed field through the method that carries it.

A patch or set… method sends the changed fields (and, for a whole-resource ``update``, the
resource as read with them); a stale fingerprint (412) or an unknown outcome is met by reading
the resource again and recomputing what is still to change; ``add…``/``remove…`` pairs change a
list by difference, each call its own logical operation with its own ``requestId``.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from ..contract.diff import differs
from ..contract.errors import OutcomeUnknownError, PreconditionFailedError
from ..contract.spec import CallSpec, FieldSpec, Mutability
from .calls import GcpCalls
from .refs import as_wanted


def request_id() -> str:
    """A new logical call's ``requestId``: a UUID, as Google requires (never the zero one)."""
    return str(uuid.uuid4())


def update(core: GcpCalls, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
    by_call: dict[str, list[FieldSpec]] = {}
    for name in changes:
        f = core.spec.field(name)
        operation = (
            core.spec.tags.tag_operation if f.is_tags and core.spec.tags else f.update_operation
        )
        if operation:
            by_call.setdefault(operation, []).append(f)
    current = dict(actual)
    for operation, fields in by_call.items():
        current = _converge_call(core, core.spec.update_call(operation), fields, current, changes)


def _converge_call(
    core: GcpCalls,
    call: CallSpec,
    fields: list[FieldSpec],
    actual: dict[str, Any],
    changes: Mapping[str, Any],
) -> dict[str, Any]:
    """Make one update call; when its fingerprint is stale (412), or its outcome unknown
    and it could not be resent safely, read the resource again and recompute: what is
    already in place is not sent again. Returns the state the next call starts from."""
    current = actual
    for attempt in range(core.retry.attempts):
        try:
            _update_call(core, call, fields, current, changes)
            return current
        except (PreconditionFailedError, OutcomeUnknownError):
            if attempt == core.retry.attempts - 1:
                raise
        current = {**current, **as_wanted(core.spec, core.read_again(current), changes)}
        if not any(
            differs(core.spec, f.name, _have(f, current, changes), changes[f.name]) for f in fields
        ):
            return current
        core.retry.sleep(core.retry.delay(attempt))
    return current  # pragma: no cover - the loop returns or raises


def _have(f: FieldSpec, current: Mapping[str, Any], changes: Mapping[str, Any]) -> Any:
    have = current.get(f.name)
    if f.is_tags:
        return {k: (have or {}).get(k) for k in changes[f.name]}
    return have


def _update_call(
    core: GcpCalls,
    call: CallSpec,
    fields: list[FieldSpec],
    actual: Mapping[str, Any],
    changes: Mapping[str, Any],
) -> None:
    params = core.params(call.identity, actual) or {}
    verb = call.operation.rsplit(".", 1)[-1]
    if verb.startswith(("add", "remove")):
        _add_remove(core, call, fields, actual, changes, params)
        return
    if call.idempotency_token:
        params[call.idempotency_token] = request_id()
    body: dict[str, Any] = {}
    if verb == "update":  # PUT: the whole resource, as read, with the changes
        body = {
            f.name: actual[f.name]
            for f in core.spec.fields
            if f.name in actual and f.mutability is not Mutability.READ_ONLY
        }
    for f in fields:
        value = changes[f.name]
        if f.is_tags:
            value = {**(actual.get(f.name) or {}), **value}  # setLabels replaces: keep the rest
        if f.update_param:
            params[f.update_member or f.name] = value
        else:
            body[f.update_member or f.name] = _items(call, f.update_member or f.name, value)
    for name in call.required:  # members the method requires whatever changes (a firewall's name)
        if actual.get(name) is not None:
            body.setdefault(name, actual[name])
    for token in call.fingerprints:
        if actual.get(token) is not None:
            body[token] = actual[token]
    if call.body_member:  # iam: {serviceAccount: {...}, updateMask: "displayName"}
        body = {call.body_member: body}
    if call.mask_param:
        mask = ",".join(f.update_member or f.name for f in fields)
        if call.mask_in_body:
            body[call.mask_param] = mask
        else:
            params[call.mask_param] = mask
    if body:
        params["body"] = body
    core.finish(core.execute(call.operation, writes=(actual, changes), **params), call.operation)


def _items(call: CallSpec, member: str, value: Any) -> Any:
    """A list the method takes as reference objects (``[{"healthCheck": url}]``)."""
    key = dict(call.item_keys).get(member)
    if key is None or not isinstance(value, list):
        return value
    return [v if isinstance(v, dict) else {key: v} for v in value]


def _add_remove(
    core: GcpCalls,
    call: CallSpec,
    fields: list[FieldSpec],
    actual: Mapping[str, Any],
    changes: Mapping[str, Any],
    params: dict[str, Any],
) -> None:
    """add…/remove… pairs change a list by difference: what is missing, what is extra;
    each call its own logical operation, with its own ``requestId``."""
    verb = call.operation.rsplit(".", 1)[-1]
    partner_id = call.operation[: -len(verb)] + (
        "remove" + verb[3:] if verb.startswith("add") else "add" + verb[6:]
    )
    partner = next(
        (c for c in core.spec.updates if c.operation == partner_id),
        CallSpec(partner_id, call.identity),
    )
    for f in fields:
        have, want = list(actual.get(f.name) or []), list(changes[f.name] or [])
        member = f.update_member or f.name
        for each, items in (
            (call, [v for v in want if v not in have]),
            (partner, [v for v in have if v not in want]),
        ):
            if not items:
                continue
            sent = dict(params)
            if each.idempotency_token:
                sent[each.idempotency_token] = request_id()
            body = {member: _items(each, member, items)}
            answer = core.execute(each.operation, body=body, writes=(actual, changes), **sent)
            core.finish(answer, each.operation)
