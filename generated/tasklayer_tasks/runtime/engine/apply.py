"""Apply and verify (docs/architecture.md, "apply" and "verify").

Create once when nothing was found (:mod:`.create`), then what the create could not set; else
each changed field through the call that carries it (the adapter routes: fields sharing an
operation go in one call). A change whose outcome is unknown is read again before anything else,
never resent blindly. Verify: after a change only what was written is read again when its own
reads return it (DescribeVpcAttribute), else the whole resource; what still differs is named in
the outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..contract.diff import compute_changes
from ..contract.errors import OutcomeUnknownError, TryAgainLater
from ..contract.state import State
from .create import create, read_back
from .outcome import Action, Face, Outcome
from .plan import Plan, mutable_changes
from .subject import Subject


def apply(
    subject: Subject,
    face: Face,
    found: State | None,
    plan: Plan,
    before_create: Callable[[str], None] | None = None,
) -> Outcome:
    """Carry out ``plan`` (the create-only check is the caller's, before this) and verify."""
    spec, adapter, record = subject.spec, subject.adapter, subject.record
    try:
        if found is None:
            state = create(subject, face, plan.wanted, before_create)
            action = Action.CREATED
            if adapter.pending is not None:
                return _pending(subject, found, action, state)
            written = mutable_changes(spec, state, face.desired_now())
            if not written:
                return Outcome(found, action, state, returned=record.returned)
        else:
            state, action = found, Action.UPDATED
            written = {n: new for n, (_, new) in plan.changes.items()}
        adapter.update(state, written)
    except OutcomeUnknownError as err:
        # it may have been carried out: the next attempt reads again and recomputes
        raise TryAgainLater(
            f"{subject.key}: {err}; will read it again before anything else"
        ) from None
    if adapter.pending is not None:
        return _pending(subject, found, action, state, tuple(written))
    after = read_back_written(subject, face, state, written)
    remaining = tuple(compute_changes(spec, after, face.desired_now()))
    return Outcome(found, action, after, tuple(written), record.returned, None, remaining)


def _pending(
    subject: Subject,
    found: State | None,
    action: Action,
    state: State,
    written: tuple[str, ...] = (),
) -> Outcome:
    pending = subject.adapter.pending
    return Outcome(found, action, state, written, subject.record.returned, pending)


def read_back_written(
    subject: Subject, face: Face, before: State, written: dict[str, Any]
) -> State:
    """The read-back after a change: when every field written is one its own read returns, only
    those reads, over what was just read for the rest (a VPC whose DNS hostnames were switched
    on: one call, not the listing and every attribute again); the whole read otherwise."""
    fields = [subject.spec.field(n) for n in written]
    if not before or not all(f.read_operation and f.read_attribute for f in fields):
        return read_back(subject, face)
    state = {k: v for k, v in before.items() if k not in written}
    subject.adapter.read_separately(state, {f.name: written[f.name] for f in fields})
    subject.record.seen(state)
    face.seen(state)
    return state
