"""What a reconcile or delete pass ends with: a cluster-api ``Ready`` condition and a
:class:`Result` (docs/architecture.md, "the CAPI face")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Condition:
    """A cluster-api condition (``type``, ``status``, ``severity``, ``reason``, ``message``)."""

    type: str
    status: str  # "True" | "False" | "Unknown"
    reason: str = ""
    message: str = ""
    severity: str = ""  # "" when True; "Info" | "Warning" | "Error" when False
    last_transition_time: str = ""

    def as_dict(self) -> dict[str, str]:
        """The condition as a status stores it: camelCase keys, empty ones left out."""
        out = {"type": self.type, "status": self.status}
        for key, value in (
            ("severity", self.severity),
            ("reason", self.reason),
            ("message", self.message),
            ("lastTransitionTime", self.last_transition_time),
        ):
            if value:
                out[key] = value
        return out


@dataclass(frozen=True)
class Result:
    """What one ``reconcile`` or ``delete`` pass ends with.

    ``status`` is the object's new status, keyed as the custom resource's (the generated
    ``<Kind>Status``): ``id`` (the primary id, where the cloud assigns one), every field reads
    return under its spec key (``cidrBlock``, ``state``), ``tags`` as read, and, while they
    matter, ``operation`` (a GCP long-running operation still running) and the create attempt's
    token (``createAttempt``: kept until the create is seen, so a lost answer is resolved, never
    repeated). ``conditions`` holds the cluster-api ``Ready`` condition (also written to
    ``status["conditions"]`` by the operator). ``requeue_after``: seconds until the next pass is
    needed, None when nothing will change without a new spec."""

    status: dict[str, Any]
    conditions: tuple[Condition, ...]
    requeue_after: float | None = None

    @property
    def ready(self) -> bool:
        """The Ready condition is True: the resource exists and matches the spec."""
        return any(c.type == "Ready" and c.status == "True" for c in self.conditions)
