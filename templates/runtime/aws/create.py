"""Creating an AWS resource, and what its answer says.

One call carries every create-time field and the tags. With an idempotency token the call is
retried with that same token; without one it is sent once (on the client whose retries are off):
a lost answer is an :class:`OutcomeUnknownError` for the caller to resolve by finding, never by
sending it again. An answer that names no id is the same unknown: it was created, but which one
it is cannot be told.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.errors import OutcomeUnknownError
from ..contract.state import State
from . import change_batch as aws_change_batch
from .calls import AwsCalls
from .listing import answer_state
from .tags import create_tags


def create(
    core: AwsCalls, desired: Mapping[str, Any], token: str | None
) -> tuple[State, State | None]:
    """:meth:`.core.AwsCore.create`: the identity the create gave, plus what its answer holds
    only once (a private key); and the answer as a state when it is the resource, else None."""
    spec, create = core.spec, core.spec.create
    assert create is not None
    if spec.change_batch is not None:
        return aws_change_batch.create(core, desired), None
    operation = next(
        (op for member, op in create.alternatives if desired.get(member) is not None),
        create.operation,
    )  # ImportKeyPair when a public key is given, else CreateKeyPair
    taken = core.inputs(operation)
    params: dict[str, Any] = {}
    for f in spec.fields:
        if f.in_create and not f.is_tags and desired.get(f.name) is not None:
            if taken and f.name not in taken:
                raise ValueError(f"{spec.name}: {operation} does not take {f.name}")
            params[f.name] = desired[f.name]
    params.update(create_tags(core, desired))
    tokened = bool(create.idempotency_token and token)
    if tokened:
        params[create.idempotency_token] = token  # type: ignore[index]
    response = core.call(operation, params, idempotent=tokened)
    answer = answer_state(core, response)
    identity = _identity(core, desired, response)
    made = identity.get(spec.primary[0]) if len(spec.primary) == 1 else None
    if core.snapshots is not None and made is not None:
        core.snapshots.made(spec.service, spec.name, made)
    return identity, answer


def _identity(core: AwsCalls, desired: Mapping[str, Any], response: Any) -> State:
    """The new resource's identity from the create's answer (and what only it holds)."""
    spec, create = core.spec, core.spec.create
    assert create is not None
    identity: State = {p: desired.get(p) for p in spec.primary if desired.get(p) is not None}
    item: Any = response
    if create.output_member:
        item = response.get(create.output_member) if isinstance(response, Mapping) else None
        item = item[0] if isinstance(item, list) and item else item
    if create.id_member and len(spec.primary) == 1:
        if not isinstance(item, Mapping) or not item.get(create.id_member):
            # it was created (the call succeeded), but we cannot tell which one it is
            raise OutcomeUnknownError(
                create.operation, "NoIdInAnswer", f"the answer names no {create.id_member}"
            )
        identity[spec.primary[0]] = item[create.id_member]
    for member in create.returned_once:
        if isinstance(item, Mapping) and member in item:
            identity[member] = item[member]
    return identity
