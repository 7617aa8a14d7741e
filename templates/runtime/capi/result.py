"""What a reconcile or delete pass ends with: a cluster-api ``Ready`` condition and a
:class:`Result` (docs/architecture.md, "the CAPI face")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Condition:
    """A cluster-api condition (``type``, ``status``, ``severity``, ``reason``, ``message``)."""

    type: str
    """What the condition is about: ``Ready`` for a generated reconciler."""
    status: str
    """``"True"``, ``"False"`` or ``"Unknown"``."""
    reason: str = ""
    """Why, in one CamelCase word (``OperationRunning``, ``InvalidSpec``)."""
    message: str = ""
    """Why, for people."""
    severity: str = ""
    """``""`` when True; ``"Info"``, ``"Warning"`` or ``"Error"`` when False."""
    last_transition_time: str = ""
    """When the status last changed (RFC 3339, UTC): kept from the previous status while the
    status stays the same."""

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
    """The object's new status, keyed as the custom resource's (see above)."""
    conditions: tuple[Condition, ...]
    """The cluster-api conditions: the ``Ready`` condition."""
    requeue_after: float | None = None
    """Seconds until the next pass is needed; None when nothing will change without a new spec."""

    @property
    def ready(self) -> bool:
        """The Ready condition is True: the resource exists and matches the spec."""
        return any(c.type == "Ready" and c.status == "True" for c in self.conditions)
