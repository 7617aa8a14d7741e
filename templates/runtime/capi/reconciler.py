"""The CAPI-style reconciler: ``reconcile`` / ``delete`` -> Result, over the one engine.

``reconcile(spec, status) -> Result`` and ``delete(spec, status) -> Result``, as cluster-api
providers (CAPA's services) and KCC's direct adapters shape them:

- the new id reaches the ``persist`` callback the moment the create call returns, before
  anything else can fail; the create's idempotency token / marker is persisted *before* the
  call, so a pass after a lost answer resends the same token or finds what the lost call made;
- ownership is explicit: a resource found that is not owned is never changed or deleted, and is
  an error unless the spec declares it ``shared`` (then it is only read);
- a reconciler never raises for a cloud error: conditions carry a reason and a message, and
  what may pass requeues;
- deletion tolerates NotFound and requeues while dependencies are still there.

Every one of those rules is the engine's (docs/architecture.md); this face translates the spec
and status into the engine's desired state and record, and its outcome into a :class:`Result`
(:mod:`.reconciler_write`). Spec and status are plain dicts with the CRD's camelCase keys.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..contract.adapter import Core
from ..contract.context import Context
from ..contract.errors import CloudError
from ..contract.ownership import Owner
from ..contract.spec import Mutability, ResourceSpec, lower_camel
from ..contract.state import State

# ATTEMPT stays importable from here, where the status key was always defined
from .reconciler_write import ATTEMPT as ATTEMPT
from .reconciler_write import delete, reconcile
from .result import Condition, Result

__all__ = ["ATTEMPT", "Condition", "DEFAULT_REQUEUE", "Reconciler", "Result"]

DEFAULT_REQUEUE = 15.0


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass
class Reconciler:
    """Reconciles one kind of resource for one cluster, whatever the cloud. Generated
    subclasses set ``spec`` and the core."""

    context: Context
    """The cloud's clients, its region or project."""
    cluster: str
    """The cluster whose resources these are: the owner of what the reconciler creates."""
    persist: Callable[[dict[str, Any]], None] | None = None
    """Called with the object's status whenever it must be stored at once: the create's token
    before the create call, the new id the moment the call returns (write it to the object)."""
    owner: Owner | None = None
    """Who owns what it creates (ownership tags or labels): the provider's convention when None."""
    requeue_after: float = DEFAULT_REQUEUE
    """Seconds a pass that is not done (still creating, waiting) asks to be requeued after."""
    clock: Callable[[], str] = field(default=_now)
    """The time conditions' transitions are stamped with (a test's fake, else now, in UTC)."""
    on_created: Callable[[dict[str, Any]], None] | None = None
    """Sees what a create hands out only once (a secret, a key), and nothing else does."""

    spec: ClassVar[ResourceSpec]
    """The kind as data (set by each generated reconciler): its fields, identity and calls."""
    scope_keys: ClassVar[tuple[str, ...]] = ()
    """The spec keys that place an object (GCP's region, zone)."""

    def __post_init__(self) -> None:
        self._previous: list[Mapping[str, Any]] = []  # the conditions the status carried in
        if self.owner is None:
            self.owner = self.owner_for(self.cluster)

    @property
    def ownership(self) -> Owner:
        """The owner of what it creates: ``owner``, which is set by then."""
        assert self.owner is not None
        return self.owner

    @staticmethod
    def owner_for(cluster: str) -> Owner:
        """The owner convention of the cloud's cluster-api provider (wiring sets it: CAPA, CAPG)."""
        raise NotImplementedError

    def core(self) -> Core:
        """The adapter over the cloud's client for this kind (the generated reconciler names it)."""
        raise NotImplementedError(f"{type(self).__name__} names no core")

    def core_for(self, spec: Mapping[str, Any]) -> Core:
        """The core for one object (a GCP one needs its region or zone)."""
        return self.core()

    def parent_core(self, spec: Mapping[str, Any], resource: ResourceSpec) -> Core:
        """A core for another kind (the parent that owns an untagged kind)."""
        raise NotImplementedError

    # -- spec <-> state ----------------------------------------------------------------------------

    def desired(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> State:
        """What the spec declares, by API name; the tags it manages are its ``additionalTags``."""
        state: State = {}
        for f in self.spec.fields:
            if f.mutability is not Mutability.READ_ONLY and spec.get(f.key) is not None:
                state[f.name] = spec[f.key]
        if len(self.spec.primary) == 1 and status.get("id"):
            state[self.spec.primary[0]] = status["id"]
        tags = self.spec.tags
        if tags is not None and spec.get("additionalTags"):
            state[tags.field] = dict(spec["additionalTags"])
        return state

    def status_of(self, state: State) -> dict[str, Any]:
        """What the cloud says: the id, the ARN, and every field reads return."""
        fields = {f.name: f for f in self.spec.fields}
        status: dict[str, Any] = {
            fields[n].key: v for n, v in state.items() if n in fields and not fields[n].is_tags
        }
        if len(self.spec.primary) == 1 and state.get(self.spec.primary[0]) is not None:
            status["id"] = state[self.spec.primary[0]]
        if self.spec.tags is not None and isinstance(state.get(self.spec.tags.field), dict):
            status["tags"] = dict(state[self.spec.tags.field])
        return status

    def key_of(self, name: str) -> str:
        """The custom resource's key for a field: what the generator recorded
        (``FieldSpec.key``)."""
        return (
            self.spec.field(name).key
            if any(f.name == name for f in self.spec.fields)
            else lower_camel(name)
        )

    def recorded(self, state: State, status: Mapping[str, Any]) -> bool:
        """For a kind with neither tags nor an owning parent: the status names this resource
        (its id), or records the create attempt that made it."""
        if status.get(ATTEMPT):
            return True  # our create was under way when its answer was lost
        recorded = self.status_of(state)
        keys = ["id"] if "id" in recorded else [self.key_of(p) for p in self.spec.primary]
        known = [k for k in keys if recorded.get(k) is not None]
        return bool(known) and all(status.get(k) == recorded[k] for k in known)

    def spec_keys(self) -> frozenset[str]:
        """The keys a spec may carry: its custom resource's spec properties."""
        keys = {"name", "shared", *self.scope_keys}
        keys.update(
            f.key
            for f in self.spec.fields
            if f.mutability is not Mutability.READ_ONLY and not f.is_tags
        )
        if self.spec.tags is not None:
            keys.add("additionalTags")
        return frozenset(keys)

    # -- results -----------------------------------------------------------------------------------

    def result(
        self,
        status: Mapping[str, Any],
        ready: bool,
        reason: str,
        message: str = "",
        requeue: bool = False,
        severity: str = "",
    ) -> Result:
        """A ``Result`` whose ``Ready`` condition says ``ready`` with ``reason`` and ``message``
        (severity ``Info`` when not ready, unless given), requeued after ``requeue_after`` when
        ``requeue``."""
        state = "True" if ready else "False"
        condition = Condition(
            "Ready",
            state,
            reason,
            message,
            "" if ready else (severity or "Info"),
            self._transition_time(state),
        )
        return Result(dict(status), (condition,), self.requeue_after if requeue else None)

    def _transition_time(self, state: str) -> str:
        """cluster-api's lastTransitionTime: when Ready last changed, not when it was last said."""
        for previous in self._previous:
            if previous.get("type") == "Ready" and previous.get("status") == state:
                return str(previous.get("lastTransitionTime") or self.clock())
        return self.clock()

    def cloud_error(self, status: Mapping[str, Any], err: CloudError) -> Result:
        """A cloud error is a condition, never an exception: what may pass requeues."""
        return self.result(
            status,
            False,
            type(err).__name__.removesuffix("Error") or "CloudError",
            str(err),
            requeue=True,
            severity="Warning",
        )

    def running(self, status: Mapping[str, Any], pending: Mapping[str, Any]) -> Result:
        """An operation still running (GCP) is Ready=False with a requeue, never a busy wait."""
        operation = {"name": pending.get("name"), "selfLink": pending.get("selfLink")}
        return self.result(
            {**status, "operation": operation},
            False,
            "OperationRunning",
            f"{pending.get('operationType', 'operation')} {pending.get('name')} is "
            f"{pending.get('status')}",
            requeue=True,
        )

    def _invalid_spec(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> Result | None:
        """A key no field has (``cidrBlok``) would be dropped without a word and the resource
        made without it: refused instead, before any call, naming the key and the nearest valid
        one. Terminal: no requeue, since only a changed spec can fix it."""
        valid = self.spec_keys()
        unknown = sorted(str(k) for k in spec if k not in valid)
        if not unknown:
            return None
        problems = []
        for key in unknown:
            near = difflib.get_close_matches(key, sorted(valid), n=1)
            problems.append(f"{key!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
        message = f"{self.spec.name} spec has unknown keys: {', '.join(problems)}"
        return self.result(status, False, "InvalidSpec", message, severity="Error")

    # -- the face's verbs -----------------------------------------------------------------------

    def reconcile(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> Result:
        """Drive the resource toward ``spec``: find it (by the id in ``status``, else by its
        identity and the cluster's ownership), create it when absent, else change what differs
        and may change. Never raises for a cloud error. The returned ``Result`` carries the new
        status (``id``, what reads return, ``conditions``) and ``requeue_after`` when another
        pass is needed (a dependency without an id yet, a throttle, an operation running).
        Ready=False reasons that no requeue fixes: ``InvalidSpec``, ``NotOwned``,
        ``CannotChange``, ``MultipleMatches``, ``Failed``."""
        self._previous = list(status.get("conditions") or [])
        invalid = self._invalid_spec(spec, status)
        if invalid is not None:
            return invalid
        core = self.core_for(spec)
        # a chain's pass (..capi.steps) shares each find's own read; None: every find reads
        core.snapshots = self.context.snapshots
        if status.get("operation"):
            try:
                done = core.operation_done(status["operation"])
            except CloudError as err:
                return self.cloud_error(status, err)
            if done.get("status") != "DONE":
                return self.result(
                    status,
                    False,
                    "OperationRunning",
                    f"{done.get('name')} is {done.get('status')}",
                    requeue=True,
                )
            status = {k: v for k, v in status.items() if k != "operation"}
        return reconcile(self, core, spec, status)

    def delete(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> Result:
        """Delete what this cluster owns and the spec identifies, verified just before: found
        by the status's ``id`` (else its identity), never a resource another owner has, nothing
        for a ``shared`` spec. NotFound is success; a resource still in use (a dependency
        violation) requeues. The finalizer may go once the result has no ``requeue_after``."""
        self._previous = list(status.get("conditions") or [])
        return delete(self, spec, status)
