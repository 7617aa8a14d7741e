"""A reconciler's pass, translated to and from the engine (docs/architecture.md, "faces").

The spec becomes the engine's desired state, the status its record (the create attempt under
way) and its knowledge (the id); the engine's outcome becomes the new status, the Ready
condition and the requeue. The create's token is persisted (``persist``) before the call and
the new id the moment the call returns; what a create hands out only once goes to
``on_created`` and nowhere else. Every rule of the safety contract is the engine's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..contract.adapter import Core
from ..contract.errors import (
    CloudError,
    InUseError,
    MultipleMatchesError,
    NotOwnedError,
    TaskError,
    TryAgainLater,
)
from ..contract.state import State
from ..engine import Outcome, Record, Subject, locate, readiness
from ..engine import apply as engine_apply
from ..engine import delete as engine_delete
from ..engine import plan as make_plan
from .result import Result

if TYPE_CHECKING:
    from ..contract.context import Context
    from ..contract.ownership import Owner
    from ..contract.spec import ResourceSpec


class Reconciler(Protocol):
    """The reconciler, as its pass reads it (:class:`.reconciler.Reconciler` is one)."""

    context: Context
    cluster: str
    persist: Callable[[dict[str, Any]], None] | None
    on_created: Callable[[dict[str, Any]], None] | None
    spec: ClassVar[ResourceSpec]

    @property
    def ownership(self) -> Owner: ...
    def core_for(self, spec: Mapping[str, Any]) -> Core: ...
    def parent_core(self, spec: Mapping[str, Any], resource: ResourceSpec) -> Core: ...
    def desired(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> State: ...
    def status_of(self, state: State) -> dict[str, Any]: ...
    def key_of(self, name: str) -> str: ...
    def recorded(self, state: State, status: Mapping[str, Any]) -> bool: ...
    def result(
        self,
        status: Mapping[str, Any],
        ready: bool,
        reason: str,
        message: str = "",
        requeue: bool = False,
        severity: str = "",
    ) -> Result: ...
    def cloud_error(self, status: Mapping[str, Any], err: CloudError) -> Result: ...
    def running(self, status: Mapping[str, Any], pending: Mapping[str, Any]) -> Result: ...


ATTEMPT = "createAttempt"  # status key: the token / marker of the create under way
RETURNED = "createReturned"  # status key: that create returned, its resource not seen yet


def record_of(status: Mapping[str, Any]) -> Record:
    """The engine's record, from the status: the attempt under way; with ``createReturned``
    beside it, a create of ours that returned and was not seen yet (the next pass only looks: a
    second create would make a second resource)."""
    attempt = str(status[ATTEMPT]) if status.get(ATTEMPT) else None
    return Record(attempt=attempt, unseen=attempt is not None and bool(status.get(RETURNED)))


class Pass:
    """One reconcile or delete pass of one object: its subject for the engine, and the status
    as last persisted (what a result carries, so a token persisted mid-pass is never lost)."""

    def __init__(
        self, reconciler: Reconciler, core: Core, spec: Mapping[str, Any], status: Mapping[str, Any]
    ) -> None:
        self.reconciler, self.core, self.spec = reconciler, core, spec
        self.status: dict[str, Any] = dict(status)
        self.base = dict(status)
        self.desired = reconciler.desired(spec, status)
        parent = reconciler.spec.owner_parent
        self.subject = Subject(
            spec=reconciler.spec,
            adapter=core,
            owner=reconciler.ownership,
            name=str(spec.get("name", "")),
            key=f"{reconciler.spec.name}/{spec.get('name', '')}",
            record=record_of(status),
            retry=reconciler.context.retry,
            snapshots=core.snapshots,  # a chain's pass (.steps): patient looks read afresh
            shared=bool(spec.get("shared")),
            adapter_for=lambda kind: reconciler.parent_core(spec, kind),
            parent_id=spec.get(reconciler.key_of(parent.field)) if parent is not None else None,
            recorded=lambda state: reconciler.recorded(state, status),
        )

    # -- the engine's questions (Face) --------------------------------------------------

    def desired_now(self) -> State:
        ids = self.subject.record.observed
        return {**self.desired, **{p: ids[p] for p in self.reconciler.spec.primary if p in ids}}

    def seen(self, state: State) -> None:
        """Nothing to keep: the status is written from the outcome's state."""

    def identified(self, identity: State, returned: Mapping[str, Any]) -> None:
        reconciler = self.reconciler
        if returned and reconciler.on_created is not None:
            reconciler.on_created(dict(returned))
        # before anything else can fail; the attempt stays until the resource is seen
        self.persist({**self.status, **reconciler.status_of(identity), RETURNED: True})

    def persist(self, status: dict[str, Any]) -> None:
        self.status = status
        if self.reconciler.persist is not None:
            self.reconciler.persist(dict(status))

    def attempt_begun(self, token: str) -> None:
        """The token outlives this pass: a retry resends it."""
        self.persist({**self.status, ATTEMPT: token})


def reconcile(
    reconciler: Reconciler, core: Core, spec: Mapping[str, Any], status: Mapping[str, Any]
) -> Result:
    """Locate, plan, create-only check, apply, verify, readiness: a Result."""
    run = Pass(reconciler, core, spec, status)
    try:
        return _reconcile(run)
    except TryAgainLater as err:
        return reconciler.result(run.status, False, "Waiting", str(err), requeue=True)
    except CloudError as err:
        return reconciler.cloud_error(run.status, err)
    except TaskError as err:
        return reconciler.result(run.status, False, "Failed", str(err), severity="Error")


def _reconcile(run: Pass) -> Result:
    reconciler, subject = run.reconciler, run.subject
    kind = reconciler.spec
    try:
        state = locate(subject, run.desired)
    except MultipleMatchesError as err:
        return reconciler.result(run.status, False, "MultipleMatches", str(err), severity="Error")
    except NotOwnedError as err:
        # its identity is not recorded: a later delete must never find its way to it
        return reconciler.result(
            {k: v for k, v in run.status.items() if k != "id"},
            False,
            "NotOwned",
            f"{err.resource} exists but is not owned by cluster {reconciler.cluster}; declare it"
            " shared to use it",
            severity="Error",
        )
    if state is None and subject.shared:
        return reconciler.result(
            run.status,
            False,
            "SharedNotFound",
            f"shared {kind.name} {run.spec.get('name')!r} does not exist",
            requeue=True,
            severity="Warning",
        )
    if state is not None and subject.shared:
        return reconciler.result(
            reconciler.status_of(state), True, "Shared", "only read: the resource is shared"
        )
    plan = make_plan(kind, state, run.desired, subject.name, subject.owner)
    if state is not None:
        subject.record.seen(state)
        if plan.fixed:
            keys = ", ".join(reconciler.key_of(f.name) for f in plan.fixed)
            return reconciler.result(
                reconciler.status_of(state),
                False,
                "CannotChange",
                f"{keys} can only be set when the {kind.name} is created",
                severity="Error",
            )
        if not plan:
            return _readiness(run, state)
    outcome = engine_apply(subject, run, state, plan, run.attempt_begun)
    return _translated(run, outcome)


def _translated(run: Pass, outcome: Outcome) -> Result:
    reconciler = run.reconciler
    status = {**run.status, **reconciler.status_of(outcome.state)}
    if not run.subject.record.unseen:
        status.pop(ATTEMPT, None)  # seen: the attempt has ended
        status.pop(RETURNED, None)
    if outcome.pending is not None:
        return reconciler.running(status, outcome.pending)
    if outcome.remaining:
        keys = ", ".join(reconciler.key_of(n) for n in outcome.remaining)
        return reconciler.result(
            status,
            False,
            "NotConverged",
            f"still differs: {keys}",
            requeue=True,
            severity="Warning",
        )
    return _readiness(run, outcome.state, status)


def _readiness(run: Pass, state: State, status: dict[str, Any] | None = None) -> Result:
    reconciler = run.reconciler
    status = reconciler.status_of(state) if status is None else status
    ready = readiness(reconciler.spec, state)
    key = reconciler.key_of(ready.field) if ready.field else ""
    if ready.failed:
        return reconciler.result(
            status, False, "Failed", f"{key} is {ready.value!r}", severity="Error"
        )
    if not ready.ready:
        return reconciler.result(
            status,
            False,
            "Pending",
            f"{key} is {ready.value!r}, waiting for {ready.wanted!r}",
            requeue=True,
        )
    return reconciler.result(status, True, "Available")


def delete(reconciler: Reconciler, spec: Mapping[str, Any], status: Mapping[str, Any]) -> Result:
    """Delete what this cluster owns and the spec identifies, verified just before."""
    if spec.get("shared"):
        return reconciler.result(status, False, "Deleted", "shared: left in place")
    core = reconciler.core_for(spec)
    # reads an operator keeps across its reconciles (Context.share_reads): this delete drops
    # what it makes stale, as every write does
    core.snapshots = reconciler.context.snapshots
    run = Pass(reconciler, core, spec, status)
    try:
        found = locate(run.subject, run.desired, separate_reads=False)
        outcome = engine_delete(run.subject, found)
    except NotOwnedError:
        found, outcome = None, None  # never delete what the cluster does not own
    except InUseError as err:
        return reconciler.result(status, False, "Deleting", f"still in use: {err}", requeue=True)
    except TryAgainLater as err:
        return reconciler.result(status, False, "Deleting", str(err), requeue=True)
    except CloudError as err:
        return reconciler.cloud_error(status, err)
    except TaskError as err:
        return reconciler.result(status, False, "Failed", str(err), severity="Error")
    if outcome is not None and outcome.pending is not None:
        running = reconciler.running(dict(status), outcome.pending)
        return reconciler.result(
            running.status, False, "Deleting", running.conditions[0].message, requeue=True
        )
    gone = {k: v for k, v in status.items() if k not in ("id", ATTEMPT, RETURNED)}
    return reconciler.result(gone, False, "Deleted", "")
