"""The typed outcome of one engine pass over one resource (docs/architecture.md, "outcome").

Faces translate it: a kOps task into its ``observed``, its report line and, for what still
differs, a :class:`~..contract.errors.NotConvergedError`; a reconciler into its status, its
Ready condition and its requeue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from ..contract.state import State


class Action(str, Enum):
    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    DELETED = "deleted"
    ABSENT = "absent"


@dataclass(frozen=True)
class Outcome:
    """``found``: what locate found before anything was written (None: nothing). ``action``:
    what the pass did. ``state``: the resource as last read (or, while not visible yet, the
    identity its create returned). ``written``: the fields sent, by API name. ``returned``:
    values the create handed out only once (never read again; redacted wherever shown).
    ``pending``: an operation still running (a GCP long-running operation the adapter was told
    not to wait for). ``remaining``: fields that still differ after the write, by API name
    (empty: converged)."""

    found: State | None
    action: Action
    state: State
    written: tuple[str, ...] = ()
    returned: Mapping[str, Any] = field(default_factory=dict)
    pending: Mapping[str, Any] | None = None
    remaining: tuple[str, ...] = ()

    @property
    def converged(self) -> bool:
        return not self.remaining and self.pending is None


class Face(Protocol):
    """What the engine asks of the face driving it, in the face's own terms."""

    def desired_now(self) -> State:
        """The desired state given what is known now (once created, by its id: a name the
        cloud keeps is then the cloud's to say)."""
        ...

    def seen(self, state: State) -> None:
        """The resource as just read (after a create or a change): its id is known now."""
        ...

    def identified(self, identity: State, returned: Mapping[str, Any]) -> None:
        """The create returned this identity (and what it hands out only once): keep it now,
        before anything else can fail (a reconciler persists it)."""
        ...
