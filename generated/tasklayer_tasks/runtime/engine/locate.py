"""Locate: the live resource a face manages, found once the same way for every face
(docs/architecture.md, "locate").

By id when one is known, else by the natural key (and the owner's tag where the kind is named by
its Name tag); from the pass's listing when it can answer exactly, else by a direct read.
Terminal states (``deleted``, ``failed``) are not resources. More than one match is an error
naming them; a match the owner does not own is an error naming it and the owner (never adopted,
changed or deleted), unless the subject is shared. Attributes its main read does not return
(DescribeVpcAttribute) are read separately for the one found.
"""

from __future__ import annotations

from ..contract.errors import MultipleMatchesError, NotOwnedError
from ..contract.redact import printable
from ..contract.state import State, Unread
from .owning import owner_match, owns
from .subject import Subject


def has_id(subject: Subject, desired: State) -> bool:
    primary = subject.spec.primary
    return len(primary) == 1 and desired.get(primary[0]) is not None


def describe(subject: Subject, state: State) -> str:
    """``Vpc vpc-1``: a found resource, for an error."""
    spec = subject.spec
    ids = [str(state[p]) for p in spec.primary if state.get(p) is not None]
    return f"{spec.name} {printable('/'.join(ids)) or '?'}"


def how_found(subject: Subject, desired: State) -> str:
    spec = subject.spec
    parts = [
        f"{n}={desired.get(n, subject.name if n == 'tag:Name' else None)!r}"
        for n in (*spec.natural, *spec.parent)
    ]
    return "with " + ", ".join(parts)


def one(subject: Subject, found: list[State], desired: State) -> State | None:
    if len(found) > 1:
        ids = [describe(subject, s) for s in found]
        raise MultipleMatchesError(subject.key, how_found(subject, desired), ids)
    return found[0] if found else None


def candidates(subject: Subject, desired: State) -> list[State]:
    """Every live resource with the subject's identity, from the pass's listing or read."""
    adapter = subject.adapter
    match = owner_match(subject, has_id(subject, desired))
    batch = None
    if not subject.shared:  # a shared resource is not the owner's: never in its listing
        batch = adapter.find_listed(
            desired,
            subject.name,
            owner=subject.owner,
            match_tags=match,
            first_look=subject.record.first_look(),
        )
    subject.record.unread = isinstance(batch, Unread)  # absent without a read (see .create)
    every = batch if batch is not None else adapter.find(desired, subject.name, match_tags=match)
    return [s for s in every if not subject.spec.terminal(s)]


def locate(subject: Subject, desired: State, separate_reads: bool = True) -> State | None:
    """The live resource the subject manages, or None; ``record.owned`` says whose it is.
    Raises :class:`MultipleMatchesError`, and :class:`NotOwnedError` for one with its identity
    that the owner does not own (unless shared)."""
    found = candidates(subject, desired)
    if subject.shared:
        chosen = one(subject, found, desired)
        subject.record.owned = False
    else:
        mine = [s for s in found if owns(subject, s)]
        if not mine and found:
            raise NotOwnedError(subject.key, describe(subject, found[0]), subject.owner.description)
        chosen = one(subject, mine, desired)
        subject.record.owned = chosen is not None or None
    if chosen is not None and separate_reads:
        subject.adapter.read_separately(chosen, desired)
    return chosen


def look_early(subject: Subject, desired: State) -> None:
    """Before the subject's turn: the read its locate will make when the pass's listing cannot
    answer, made now into the pass's snapshots. Nothing on the subject changes."""
    if subject.shared or has_id(subject, desired) or subject.snapshots is None:
        return
    subject.adapter.read_ahead(
        desired,
        subject.name,
        owner=subject.owner,
        match_tags=owner_match(subject, False),
        first_look=subject.record.first_look(),
    )
