"""What the engine remembers of one resource between its passes (docs/architecture.md,
"the create-once state machine").

A face holds one :class:`Record` per resource: a kOps task keeps it in memory for as long as the
task lives; a reconciler rebuilds it from the object's status at the start of a pass and persists
what must outlive the pass (the attempt's token, before the create is sent). Nothing here calls
the cloud.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from ..contract.state import State


@dataclass
class Record:
    """The engine's memory of one resource.

    ``attempt``: the token / marker of the logical create under way: the same on every retry of
    that create, a new one once it has ended (created, or the resource deleted). ``unseen``: a
    create of ours returned, but its resource was not read yet (a later attempt only looks: a
    second create would make a second resource). ``unread``: the last find said "none" without
    reading (:class:`~..contract.state.Unread`). ``owned``: known once found or created.
    ``observed``: the resource as last read. ``returned``: what a create handed out only once
    (a private key), never read again. ``stale``: a delete's answer was lost, so what was last
    located no longer stands."""

    attempt: str | None = None
    unseen: bool = False
    unread: bool = False
    owned: bool | None = None
    observed: State = field(default_factory=dict)
    returned: dict[str, Any] = field(default_factory=dict)
    stale: bool = False  # a delete's answer was lost: locate again before anything else

    def token(self) -> str:
        """The token of the logical create under way (made on first use)."""
        if self.attempt is None:
            self.attempt = uuid.uuid4().hex
        return self.attempt

    def first_look(self) -> bool:
        """Neither seen nor made, and no create under way: nothing of its making can be
        anywhere, untagged or not yet visible."""
        return self.attempt is None and not self.unseen and not self.observed

    def seen(self, state: State) -> None:
        """Read: from now on, gone means gone."""
        self.observed = dict(state)
        self.unseen = False

    def created(self, identity: State, returned: dict[str, Any]) -> None:
        """Our create returned: the attempt has ended; until read, later attempts only look."""
        self.attempt = None
        self.unseen = True
        self.owned = True
        self.observed = dict(identity)
        self.returned = returned

    def gone(self) -> None:
        """Deleted: a later create is a new logical attempt."""
        self.observed = {}
        self.attempt = None
        self.unseen = False
