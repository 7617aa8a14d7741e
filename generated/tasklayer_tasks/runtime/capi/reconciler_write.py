"""A reconciler's write path: create once per attempt, converge, delete only what it owns.

The create's token / marker is persisted before the call and the new id the moment the call
returns, so a pass after a lost answer resends the same token or finds what the lost call made;
what a create hands out only once goes to ``on_created`` and nowhere else. A difference in a
field that can only be set at creation is an error condition, never an update; what still
differs after an update requeues. A delete skips what the cluster does not own and requeues
while the resource is still in use or an operation runs. Outcomes are :class:`Result` values;
a cloud error ``create`` and ``converge`` let through is turned into one by
:meth:`Reconciler.reconcile`.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..contract.state import Core, State
from ..contract.diff import compute_changes
from ..contract.errors import (
    CloudError,
    ConflictError,
    InUseError,
    OutcomeUnknownError,
    TaskError,
    TryAgainLater,
)
from ..contract.ownership import create_token
from ..contract.spec import Mutability
from ..engine.token_adopt import made_with, token_taken

if TYPE_CHECKING:
    from .reconciler import Reconciler, Result

ATTEMPT = "createAttempt"  # status key: the token / marker of the create under way


def create(
    reconciler: Reconciler,
    core: Core,
    desired: State,
    spec: Mapping[str, Any],
    status: Mapping[str, Any],
) -> Result:
    """Create what is not there yet (token first), then converge it once it can be seen."""
    attempt = str(status.get(ATTEMPT) or uuid.uuid4().hex)
    status = {**status, ATTEMPT: attempt}
    if reconciler.persist is not None:
        reconciler.persist(dict(status))  # the token outlives this pass: a retry resends it
    wanted = reconciler.to_create(spec, desired, attempt)
    token = create_token(reconciler.spec, reconciler.ownership, attempt)
    try:
        identity = core.create(wanted, token=token)
    except ConflictError as err:
        # "already exists" for our token: an earlier try of this attempt made it
        if not token_taken(reconciler.spec, err):
            raise
        made = made_with(core, reconciler.spec, wanted, str(spec.get("name", "")), token)
        if made is None:
            raise
        identity = {p: made[p] for p in reconciler.spec.primary if p in made}
    except OutcomeUnknownError as err:
        return reconciler._result(
            status,
            False,
            "CreateOutcomeUnknown",
            f"{err}; the next pass looks for what it made before creating",
            requeue=True,
            severity="Warning",
        )
    once = reconciler.spec.create.returned_once if reconciler.spec.create else ()
    returned = {k: identity.pop(k) for k in once if k in identity}
    if returned and reconciler.on_created is not None:
        reconciler.on_created(returned)
    new_status = {
        k: v for k, v in {**status, **reconciler.status_of(identity)}.items() if k != ATTEMPT
    }
    if reconciler.persist is not None:
        reconciler.persist(dict(new_status))  # before anything else can fail
    tags = reconciler.spec.tags
    if tags is not None and not tags.in_create and tags.tag_operation:
        # a create that takes no tags (CreateHostedZone): the owner's marks go on at once; if
        # this answer is lost, the next pass knows the zone by its token and writes them then
        core.update(identity, {tags.field: wanted[tags.field]})
    running = reconciler._running(core, new_status)
    if running is not None:
        return running
    found = [
        s
        for s in core.find({**desired, **identity}, str(spec.get("name", "")), retry_not_found=True)
        if not reconciler.spec.terminal(s)
    ]
    if not found:
        return reconciler._result(
            new_status, False, "Creating", "created; not visible yet", requeue=True
        )
    core.read_separately(found[0], desired)
    return converge(reconciler, core, found[0], {**desired, **identity})


def converge(reconciler: Reconciler, core: Core, state: State, desired: State) -> Result:
    """Update what differs and may change, then report readiness as the spec defines it."""
    changes = compute_changes(reconciler.spec, state, desired)
    fixed = [
        reconciler._key(n)
        for n in changes
        if reconciler.spec.field(n).mutability is not Mutability.MUTABLE
    ]
    if fixed:
        return reconciler._result(
            reconciler.status_of(state),
            False,
            "CannotChange",
            f"{', '.join(fixed)} can only be set when the {reconciler.spec.name} is created",
            severity="Error",
        )
    if changes:
        try:
            core.update(state, {n: new for n, (_, new) in changes.items()})
        except OutcomeUnknownError as err:
            return reconciler._result(
                reconciler.status_of(state),
                False,
                "UpdateOutcomeUnknown",
                f"{err}; the next pass reads it again",
                requeue=True,
                severity="Warning",
            )
        running = reconciler._running(core, reconciler.status_of(state))
        if running is not None:
            return running
        refreshed = core.find(
            {**desired, **{p: state[p] for p in reconciler.spec.primary if p in state}}, ""
        )
        state = refreshed[0] if refreshed else state
        core.read_separately(state, desired)
        remaining = compute_changes(reconciler.spec, state, desired)
        if remaining:
            return reconciler._result(
                reconciler.status_of(state),
                False,
                "NotConverged",
                f"still differs: {', '.join(reconciler._key(n) for n in remaining)}",
                requeue=True,
                severity="Warning",
            )
    readiness = reconciler.spec.readiness
    if readiness is not None:
        value = reconciler.spec.readiness_value(state)
        if reconciler.spec.terminal(state):
            return reconciler._result(
                reconciler.status_of(state),
                False,
                "Failed",
                f"{reconciler._key(readiness.field)} is {value!r}",
                severity="Error",
            )
        if value is not None and readiness.ready is not None and value != readiness.ready:
            return reconciler._result(
                reconciler.status_of(state),
                False,
                "Pending",
                f"{reconciler._key(readiness.field)} is {value!r}, waiting for {readiness.ready!r}",
                requeue=True,
            )
    return reconciler._result(reconciler.status_of(state), True, "Available")


def delete(reconciler: Reconciler, spec: Mapping[str, Any], status: Mapping[str, Any]) -> Result:
    """Delete what this cluster owns and the spec identifies, verified just before."""
    reconciler._previous = list(status.get("conditions") or [])
    if spec.get("shared"):
        return reconciler._result(status, False, "Deleted", "shared: left in place")
    core = reconciler.core_for(spec)
    desired = reconciler.desired(spec, status)
    by_tag = (
        reconciler.spec.tags is not None
        and "tag:Name" in reconciler.spec.natural
        and not status.get("id")
    )
    match = {reconciler.ownership.key: reconciler.ownership.value} if by_tag else None
    try:
        found = [
            s
            for s in core.find(desired, str(spec.get("name", "")), match_tags=match)
            if not reconciler.spec.terminal(s)
        ]
        for state in found:
            if not reconciler._owned(state, spec, status):
                continue  # never delete what the cluster does not own
            core.delete(state)
            running = reconciler._running(core, status)
            if running is not None:
                return reconciler._result(
                    running.status,
                    False,
                    "Deleting",
                    running.conditions[0].message,
                    requeue=True,
                )
    except InUseError as err:
        return reconciler._result(status, False, "Deleting", f"still in use: {err}", requeue=True)
    except TryAgainLater as err:
        return reconciler._result(status, False, "Deleting", str(err), requeue=True)
    except CloudError as err:
        return reconciler._cloud_error(status, err)
    except TaskError as err:
        return reconciler._result(status, False, "Failed", str(err), severity="Error")
    gone = {k: v for k, v in status.items() if k not in ("id", ATTEMPT)}
    return reconciler._result(gone, False, "Deleted", "")
