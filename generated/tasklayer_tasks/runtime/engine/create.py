"""Create once per logical attempt (docs/architecture.md, "the create-once state machine").

One token per logical attempt, persisted by the face before the call (``before``) and reused
on every retry of that attempt; a create without an idempotency token carries the attempt's
marker tag instead. A create that returned is never sent again (``record.unseen``: later
attempts only look). A lost answer is resolved by finding what the attempt made (the owner's
tag and the marker; or the identity inside an owned parent), or, where the reads return the
token, by the resource carrying it; never by sending the create again blindly. A kind named by
its create's request alone (a route; :func:`named_by_request`) is looked for once, not
patiently: a second create of it cannot make a second one, and the next attempt's locate reads
it by that identity before anything is sent again. A create that
takes no tags (CreateHostedZone) is marked at once. A create's answer that holds the whole
resource is not read back.
"""

from __future__ import annotations

from collections.abc import Callable

from ..contract.errors import (
    ConflictError,
    MultipleMatchesError,
    OutcomeUnknownError,
    TryAgainLater,
)
from ..contract.ownership import ATTEMPT_TAG, create_token, needs_marker
from ..contract.spec import ResourceSpec
from ..contract.state import State
from .locate import candidates, describe, how_found
from .outcome import Face
from .owning import owns
from .subject import Subject
from .token_adopt import made_with, token_taken


def identity_of(subject: Subject, state: State) -> State:
    return {p: state[p] for p in subject.spec.primary if p in state}


def create(
    subject: Subject, face: Face, wanted: State, before: Callable[[str], None] | None = None
) -> State:
    """Create (once per logical attempt); the resource as read afterwards, or, when the face
    is told an operation still runs (``adapter.pending``), the identity it was given."""
    record, spec, adapter = subject.record, subject.spec, subject.adapter
    if record.unseen:
        # our create returned and was not read back: sending it again would make a second one
        return read_back(subject, face)
    wanted = dict(wanted)
    resumed = record.attempt is not None  # an earlier try of this attempt had its answer lost
    token = create_token(spec, subject.owner, record.token())
    tags = spec.tags
    marked = needs_marker(spec)
    if marked and tags is not None:
        wanted[tags.field] = {**wanted[tags.field], ATTEMPT_TAG: token}
    if before is not None:
        before(record.token())  # the attempt outlives this pass: a retry resends the same
    found: State | None = None  # what find_attempt read of it, after a lost answer
    try:
        identity = adapter.create(wanted, token=token)
    except ConflictError as err:
        identity = _conflict(subject, wanted, token, err, resumed and named_by_request(spec))
    except OutcomeUnknownError as err:
        patient = not named_by_request(spec)
        found = find_attempt(subject, wanted, token if marked else None, patient)
        if found is None:
            raise TryAgainLater(f"{subject.key}: {err}; nothing it made is visible yet") from None
        identity = identity_of(subject, found)
    once = spec.create.returned_once if spec.create else ()
    returned = {k: identity.pop(k) for k in once if k in identity}
    record.created(identity, returned)
    face.identified(identity, returned)  # before anything else can fail
    if tags is not None and not tags.in_create and tags.tag_operation:
        # a create that takes no tags: the owner's marks go on at once; if this answer is lost,
        # the next pass knows it by its token and writes them then
        adapter.update(identity, {tags.field: wanted[tags.field]})
        found = None  # read before its tags went on: not the resource as it is now
    if adapter.pending is not None:
        return identity
    if found is not None:
        # find_attempt read the whole resource after the lost answer (the same describe the
        # read-back makes, by the attempt's tags or its identity): reading it again is a call
        # that can only say the same
        return _seen(subject, face, found, face.desired_now())
    answer = adapter.answer
    if answer is not None and answer_is_whole(subject, face.desired_now(), answer, identity):
        adapter.read_separately(answer, face.desired_now())
        record.seen(answer)
        face.seen(answer)
        return answer
    return read_back(subject, face)


def _conflict(
    subject: Subject, wanted: State, token: str, err: ConflictError, lost_before: bool = False
) -> State:
    if token_taken(subject.spec, err):
        # our earlier try (its reply lost) made it: the one that carries our token
        return _made_with(subject, wanted, token, err)
    if lost_before:
        # a kind named by its request, whose earlier try's answer was lost and which the one
        # look (find_attempt) did not see: it may be what that try made, not visible yet; the
        # next attempt's locate reads it by its identity (and asks whose it is), nothing is sent
        raise TryAgainLater(
            f"{subject.key}: {err}; it may be what the earlier try made: reading it again"
        ) from None
    if not subject.record.unread:
        raise err
    # the find said "none" without reading (a parent this pass made); the cloud has one (a new
    # route table's local route): the next attempt, this create still under way, reads
    raise TryAgainLater(f"{subject.key}: {err}; it was not read before: reading it now") from None


def answer_is_whole(subject: Subject, desired: State, answer: State, identity: State) -> bool:
    """A create's answer stands for the read-back when it is this resource and holds every
    field the face sets that the read returns (tags with the owner's among them); fields read
    on their own are read next either way."""
    spec = subject.spec
    if any(answer.get(p) != identity.get(p) for p in spec.primary):
        return False
    tags = spec.tags
    if tags is not None and not subject.owner.owns(answer.get(tags.field)):
        return False
    versioned = spec.versioning.fields if spec.versioning else ()
    return all(
        n in answer
        for n, v in desired.items()
        if v is not None
        and not spec.field(n).write_only
        and spec.field(n).read_operation is None
        and n not in versioned
    )


def _made_with(subject: Subject, wanted: State, token: str, err: ConflictError) -> State:
    """The identity of what this attempt's token made, looked for patiently; none visible
    keeps the conflict (it is not taken for ours)."""
    retry = subject.retry
    for attempt in range(retry.attempts):
        subject.invalidate()
        found = made_with(subject.adapter, subject.spec, wanted, subject.name, token)
        if found is not None:
            return identity_of(subject, found)
        retry.sleep(retry.delay(attempt))
    raise err


def named_by_request(spec: ResourceSpec) -> bool:
    """The create's own inputs are the whole identity of what it makes and the kind takes no
    tags (an internet gateway's attachment is its gateway and VPC; a route, its table and
    destination): the cloud holds at most one per identity, so a second create can never make a
    second resource (it is refused as a conflict, or is the same one again), and a locate by
    that identity is the very look :func:`find_attempt` makes after a lost answer."""
    create = spec.create
    if create is None or create.id_member is not None or spec.tags is not None:
        return False
    inputs = {f.name for f in spec.fields if f.in_create}
    return bool(spec.primary) and all(p in inputs for p in spec.primary)


def find_attempt(
    subject: Subject, wanted: State, marker: str | None, patient: bool = True
) -> State | None:
    """After a lost answer: what this attempt made, looked for patiently (it may not be visible
    at once). By the owner's tag and the attempt's marker; untagged kinds by their identity
    inside their owned parent. Not ``patient`` (a kind :func:`named_by_request`): one look, so
    that a create that did commit is taken in this attempt; what it misses, the next attempt's
    locate looks for again by the same identity before the create is sent again, and that create
    cannot make a second one. Patience there would only wait out an answer that was true (a 5xx
    before anything was done): a look and a backoff per attempt for nothing."""
    owner, retry = subject.owner, subject.retry
    match = {owner.key: owner.value, ATTEMPT_TAG: marker} if marker else None
    for attempt in range(retry.attempts if patient else 1):
        subject.invalidate()
        every = subject.adapter.find(wanted, subject.name, match_tags=match)
        found = [s for s in every if not subject.spec.terminal(s)]
        if marker is None:
            found = [s for s in found if owns(subject, s)]
        if len(found) > 1:
            ids = [describe(subject, s) for s in found]
            raise MultipleMatchesError(subject.key, how_found(subject, wanted), ids)
        if found:
            return found[0]
        if patient:
            retry.sleep(retry.delay(attempt))
    return None


def read_back(subject: Subject, face: Face) -> State:
    """Read the resource just written; NotFound right after a create is eventual consistency,
    retried with backoff. Not visible in time: try again later (it is not created again)."""
    retry, desired = subject.retry, face.desired_now()
    for attempt in range(retry.attempts):
        every = subject.adapter.find(desired, subject.name, retry_not_found=True)
        found = [s for s in every if not subject.spec.terminal(s)]
        if found:
            return _seen(subject, face, found[0], desired)
        retry.sleep(retry.delay(attempt))
    raise TryAgainLater(f"{subject.key}: created, but not visible yet (it is not created again)")


def _seen(subject: Subject, face: Face, state: State, desired: State) -> State:
    """``state``, read after the create, is the resource: its separately read fields read, the
    record and the face told it was seen."""
    subject.adapter.read_separately(state, desired)
    subject.record.seen(state)
    face.seen(state)
    return state


__all__ = ["candidates", "create", "find_attempt", "named_by_request", "read_back"]
