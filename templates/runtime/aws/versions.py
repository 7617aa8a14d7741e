"""Versioned resources (:class:`..contract.spec.VersionSpec`): a launch template's data lives
in versions.

kOps changes a launch template by creating a new version and making it the default, never by
editing one in place; so does this runtime. The version's fields are read from the default
version (the resource's read names its number), so that a change is seen and a converged
template makes no new version. A new version carries every versioned field (a version is whole,
not a patch): the changed ones as desired, the others as the default version holds them.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from ..contract.errors import MalformedResponseError, OutcomeUnknownError
from ..contract.state import State
from . import model
from .calls import AwsCalls


def read_default_version(core: AwsCalls, state: State, wanted: Mapping[str, Any]) -> None:
    """Fill ``state`` with the default version's fields, when the task sets any of them."""
    v = core.spec.versioning
    if v is None or not any(wanted.get(f) is not None for f in v.fields):
        return
    number = state.get(v.default_number)
    identity = {p: state[p] for p in core.spec.primary if state.get(p) is not None}
    if number is None or not identity:
        return
    response = core.call(
        v.read_operation, {**identity, v.versions_member: [str(number)]}, idempotent=True
    )
    items = response.get(v.read_output) if isinstance(response, Mapping) else None
    if not isinstance(items, list):
        raise MalformedResponseError(v.read_operation, f"/{v.read_output}", "expected a list")
    item = next(
        (i for i in items if isinstance(i, Mapping) and i.get(v.number_member) == number), None
    )
    if item is None:
        return  # the default version is not visible (yet): nothing to compare, no change made
    for name in v.fields:
        if name in item:
            state[name] = core.from_api(core.spec.field(name), item[name])


def new_default_version(
    core: AwsCalls, actual: Mapping[str, Any], changes: Mapping[str, Any]
) -> int:
    """One new version with the versioned fields (changed ones as desired), then the default
    moved to it; the new version's number."""
    v = core.spec.versioning
    assert v is not None
    call = core.spec.update_call(v.create_operation)
    params = call.identity_params(dict(actual))
    for name in v.fields:
        value = changes.get(name, actual.get(name))
        if value is not None:
            f = core.spec.field(name)
            params[f.update_member or name] = core.to_api(f, value)
    tokens = model.idempotency_members(core.client, v.create_operation)
    if tokens:  # one token for this version: botocore's retries of it make no second version
        params[tokens[0]] = uuid.uuid4().hex
    response = core.call(v.create_operation, params, idempotent=bool(tokens))
    made = response.get(v.answer_member) if isinstance(response, Mapping) else None
    number = made.get(v.number_member) if isinstance(made, Mapping) else None
    if not isinstance(number, int):
        raise OutcomeUnknownError(v.create_operation, "NoVersionInAnswer", "no version number")
    if v.default_operation and v.default_member:
        ids = core.spec.update_call(v.default_operation).identity_params(dict(actual))
        core.call(v.default_operation, {**ids, v.default_member: str(number)}, idempotent=False)
    return number
