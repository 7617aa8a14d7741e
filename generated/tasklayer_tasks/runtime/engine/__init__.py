"""The one lifecycle (docs/architecture.md): locate -> ownership -> plan (diff) -> create-only
check -> apply (create-once, update routing, delete scope) -> verify, returning an
:class:`~.outcome.Outcome`. The kOps task (:mod:`..kops`) and the CAPI reconciler
(:mod:`..capi`) translate to and from it; neither implements a rule of its own."""

from .apply import apply
from .create import create, read_back
from .delete import delete
from .locate import describe, how_found, locate, look_early
from .outcome import Action, Face, Outcome
from .owning import owner_match, owns
from .plan import Plan, Readiness, creation_state, plan, readiness
from .record import Record
from .subject import Subject

__all__ = [
    "Action",
    "Face",
    "Outcome",
    "Plan",
    "Readiness",
    "Record",
    "Subject",
    "apply",
    "create",
    "creation_state",
    "delete",
    "describe",
    "how_found",
    "locate",
    "look_early",
    "owner_match",
    "owns",
    "plan",
    "read_back",
    "readiness",
]
