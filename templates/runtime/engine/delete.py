"""Delete scope (docs/architecture.md, "delete"): only what the owner owns, verified just
before the call; gone already is success; a lost answer is resolved by locating again (the
next attempt), never by a blind resend; an operation still running is the outcome's
``pending``."""

from __future__ import annotations

from ..contract.errors import OutcomeUnknownError, TryAgainLater
from ..contract.state import State
from .outcome import Action, Outcome
from .subject import Subject


def delete(subject: Subject, found: State | None) -> Outcome:
    """Delete ``found`` (what :func:`.locate.locate` just found) when the owner owns it. On a
    lost answer the record is marked stale: the next attempt locates again before anything else."""
    record = subject.record
    if subject.shared or not found or not record.owned:
        return Outcome(found, Action.ABSENT, {})
    try:
        subject.adapter.delete(found)
    except OutcomeUnknownError as err:
        record.stale = True
        raise TryAgainLater(f"{subject.key}: {err}; will look again") from None
    pending = subject.adapter.pending
    if pending is None:
        record.gone()
    return Outcome(found, Action.DELETED, {}, pending=pending)
