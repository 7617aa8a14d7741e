"""A task's write path: create once per logical attempt, change what differs, read back.

A create carries one token per logical attempt (reused on retries); a create that returned is
never sent again by the same task, however long its resource takes to be seen (later attempts
only look); an answer that was lost is resolved by finding what that attempt made — by the owner's tags and the attempt's marker, or
by identity inside an owned parent — never by sending the create again blindly. A create whose
answer is the whole resource is not read back; after a change only what was written is read
again when its own reads return it (DescribeVpcAttribute), else the whole resource. What still
differs is a :class:`NotConvergedError` naming the fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..contract.context import Context
from ..contract.state import Core, State
from ..contract.diff import compute_changes
from ..contract.errors import (
    ConflictError,
    MultipleMatchesError,
    NotConvergedError,
    OutcomeUnknownError,
    TryAgainLater,
)
from ..contract.ownership import ATTEMPT_TAG, Owner, create_token, needs_marker
from ..contract.spec import Mutability
from ..engine.token_adopt import made_with, token_taken

if TYPE_CHECKING:
    from .targets import Target
    from .task import Changes, Task


def render_cloud(task: Task, target: Target, actual: Task | None, changes: Changes) -> None:
    """Create (once per logical attempt) or change the resource, then read back what was
    written and raise :class:`NotConvergedError` naming what still differs."""
    core = task.pass_core(target.context)
    try:
        if actual is None:
            state = _create(task, core, target)
            written = _mutable_changes(task, state)
            if not written:
                return
            core.update(state, written)
        else:
            state = actual.observed
            written = {n: new for n, (_, new) in changes.fields.items()}
            core.update(state, written)
    except OutcomeUnknownError as err:
        # it may have been carried out: the next attempt reads again and recomputes
        raise TryAgainLater(f"{task.key}: {err}; will read it again before anything else") from None
    remaining = compute_changes(
        task.spec, _read_back_written(task, core, target.context, state, written), task.desired()
    )
    if remaining:
        raise NotConvergedError(task.key, [task.spec.field(n).attr for n in remaining])


def _create(task: Task, core: Core, target: Target) -> State:
    """Create once per logical attempt; an unknown outcome is resolved by finding what the
    attempt made (its owner's tags and marker, or its identity), never by a blind resend."""
    context = target.context
    if task._unseen:
        # our create returned and was not read back: sending it again would make a second one
        return _read_back(task, core, context)
    desired = task.to_create(context)
    token = create_token(task.spec, task._owner(context), task.attempt_token())
    tags = task.spec.tags
    marked = needs_marker(task.spec)
    if marked and tags is not None:
        desired[tags.field] = {**desired[tags.field], ATTEMPT_TAG: token}
    try:
        identity = core.create(desired, token=token)
    except ConflictError as err:
        if token_taken(task.spec, err):
            # our earlier try (its reply lost) made it: the one that carries our token
            identity = _made_with(task, core, context, desired, token, err)
        elif not task._unread:
            raise
        else:
            # the find said "none" without reading (a parent this pass made); the cloud has one
            # (a new route table's local route): the next attempt, this create under way, reads
            raise TryAgainLater(
                f"{task.key}: {err}; it was not read before: reading it now"
            ) from None
    except OutcomeUnknownError as err:
        found = _find_attempt(task, core, context, desired, token if marked else None)
        if found is None:
            raise TryAgainLater(f"{task.key}: {err}; nothing it made is visible yet") from None
        identity = {p: found[p] for p in task.spec.primary if p in found}
    if tags is not None and not tags.in_create and tags.tag_operation:
        # a create that takes no tags (CreateHostedZone): the owner's marks go on at once
        core.update(identity, {tags.field: desired[tags.field]})
    once = task.spec.create.returned_once if task.spec.create else ()
    task.returned = {k: identity.pop(k) for k in once if k in identity}
    task._attempt = None
    task._unseen = True  # until read: a later attempt only looks (see _read_back)
    task.owned = True
    task.adopt(identity)
    target.created(task, {**identity, **task.returned})
    answer: State | None = getattr(core, "answer", None)
    if answer is not None and _answer_is_whole(task, answer, identity, task._owner(context)):
        core.read_separately(answer, task.desired())
        task.adopt(answer)
        task._unseen = False
        return answer
    return _read_back(task, core, context)


def _answer_is_whole(task: Task, answer: State, identity: State, owner: Owner) -> bool:
    """A create's answer stands for the read-back when it is this resource and holds every
    field the task sets that the read returns (tags with the owner's among them); fields read
    on their own (a VPC attribute; a launch template's data, from its default version) are
    read next either way."""
    if any(answer.get(p) != identity.get(p) for p in task.spec.primary):
        return False
    tags = task.spec.tags
    if tags is not None and not owner.owns(answer.get(tags.field)):
        return False
    versioned = task.spec.versioning.fields if task.spec.versioning else ()
    return all(
        n in answer
        for n, v in task.desired().items()
        if v is not None
        and not task.spec.field(n).write_only
        and task.spec.field(n).read_operation is None
        and n not in versioned
    )


def _made_with(
    task: Task, core: Core, context: Context, desired: State, token: str, err: ConflictError
) -> State:
    """The identity of what this attempt's token made, looked for patiently; none visible
    keeps the conflict (it is not taken for ours)."""
    for attempt in range(context.retry.attempts):
        if context.snapshots is not None:  # each look is made afresh, not served from the last
            context.snapshots.invalidate(task.spec.service, task.spec.listings_touched())
        found = made_with(core, task.spec, desired, task.name, token)
        if found is not None:
            return {p: found[p] for p in task.spec.primary if p in found}
        context.retry.sleep(context.retry.delay(attempt))
    raise err


def _find_attempt(
    task: Task, core: Core, context: Context, desired: State, marker: str | None
) -> State | None:
    """After a lost answer: what this attempt made, looked for patiently (it may not be
    visible at once). By the owner's tag and the attempt's marker; untagged kinds by their
    identity inside their owned parent."""
    owner = task._owner(context)
    match = {owner.key: owner.value, ATTEMPT_TAG: marker} if marker else None
    for attempt in range(context.retry.attempts):
        if context.snapshots is not None:  # each look is made afresh, not served from the last
            context.snapshots.invalidate(task.spec.service, task.spec.listings_touched())
        found = [
            s for s in core.find(desired, task.name, match_tags=match) if not task.spec.terminal(s)
        ]
        if marker is None:
            found = [s for s in found if task._owns(context, owner, s)]
        if len(found) > 1:
            raise MultipleMatchesError(
                task.key, task._how_found(desired), [task._describe(s) for s in found]
            )
        if found:
            return found[0]
        context.retry.sleep(context.retry.delay(attempt))
    return None


def _mutable_changes(task: Task, state: State) -> dict[str, Any]:
    """What a create could not set (EnableDnsHostnames after CreateVpc)."""
    diff = compute_changes(task.spec, state, task.desired())
    return {
        n: new
        for n, (_, new) in diff.items()
        if task.spec.field(n).mutability is Mutability.MUTABLE
    }


def _read_back_written(
    task: Task, core: Core, context: Context, before: State, written: dict[str, Any]
) -> State:
    """The read-back after a change: when every field written is one its own read returns
    (DescribeVpcAttribute), only those reads, over what was just read for the rest (a VPC
    whose DNS hostnames were switched on: one call, not the listing and every attribute
    again); the whole read otherwise."""
    fields = [task.spec.field(n) for n in written]
    if not before or not all(f.read_operation and f.read_attribute for f in fields):
        return _read_back(task, core, context)
    state = {k: v for k, v in before.items() if k not in written}
    core.read_separately(state, {f.name: written[f.name] for f in fields})
    task.adopt(state)
    return state


def _read_back(task: Task, core: Core, context: Context) -> State:
    """Read the resource just written; NotFound right after a create is eventual
    consistency, retried with backoff."""
    desired = task.desired()
    for attempt in range(context.retry.attempts):
        found = [
            s
            for s in core.find(desired, task.name, retry_not_found=True)
            if not task.spec.terminal(s)
        ]
        if found:
            core.read_separately(found[0], desired)
            task.adopt(found[0])
            task._unseen = False
            return found[0]
        context.retry.sleep(context.retry.delay(attempt))
    raise TryAgainLater(f"{task.key}: created, but not visible yet (it is not created again)")
