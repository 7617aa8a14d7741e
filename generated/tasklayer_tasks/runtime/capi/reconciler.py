"""The CAPI-style reconciler over the same generated core the kOps-style task uses.

``reconcile(spec, status) -> Result`` and ``delete(spec, status) -> Result``, as cluster-api
providers (CAPA's services) and KCC's direct adapters shape them:

- the new id reaches the ``persist`` callback the moment the create call returns, before
  anything else can fail (CAPA lost VPC ids, then made duplicates, when this came later); the
  create's idempotency token / marker is persisted *before* the call, so a pass after a lost
  answer resends the same token or finds what the lost call made;
- ownership is explicit: resources are tagged ``owned`` for the cluster in the create call; a
  resource found that is not owned is never changed or deleted, and is an error unless the spec
  declares it ``shared`` (then it is only read); kinds without tags are owned through their
  parent (the same rule as the tasks');
- a reconciler never raises for a cloud error: conditions carry a reason and a message, and
  what may pass requeues;
- deletion tolerates NotFound and requeues while dependencies are still there.

Spec and status are plain dicts with the CRD's camelCase keys (``cidrBlock``, ``vpcId``).
The write path (create, converge, delete) is :mod:`.reconciler_write`.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..contract.context import Context
from ..contract.state import Core, State
from ..contract.errors import CloudError, TaskError, TryAgainLater
from ..contract.ownership import ATTEMPT_TAG, Owner, made_by_token, marks_missing, needs_marker

# ATTEMPT stays importable from here, where the status key was always defined
from .reconciler_write import ATTEMPT as ATTEMPT
from .reconciler_write import converge, create, delete
from ..contract.spec import Mutability, ResourceSpec, lower_camel

DEFAULT_REQUEUE = 15.0


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
    token (``tasklayer.dev/create-attempt``: kept until the create is seen, so a lost answer is
    resolved, never repeated). ``conditions`` holds the cluster-api ``Ready`` condition (also
    written to ``status["conditions"]`` by the operator). ``requeue_after``: seconds until the
    next pass is needed, None when nothing will change without a new spec."""

    status: dict[str, Any]
    conditions: tuple[Condition, ...]
    requeue_after: float | None = None

    @property
    def ready(self) -> bool:
        """The Ready condition is True: the resource exists and matches the spec."""
        return any(c.type == "Ready" and c.status == "True" for c in self.conditions)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass
class Reconciler:
    """Reconciles one kind of resource for one cluster, whatever the cloud. Generated
    subclasses set ``spec`` and the core."""

    context: Context
    cluster: str
    persist: Callable[[dict[str, Any]], None] | None = None
    owner: Owner | None = None  # who owns what it creates: the provider's convention when None
    requeue_after: float = DEFAULT_REQUEUE
    clock: Callable[[], str] = field(default=_now)
    on_created: Callable[[dict[str, Any]], None] | None = (
        None  # sees what a create hands out only once
    )

    spec: ClassVar[ResourceSpec]
    scope_keys: ClassVar[tuple[str, ...]] = ()  # spec keys placing it (GCP's region, zone)

    def __post_init__(self) -> None:
        self._previous: list[Mapping[str, Any]] = []  # the conditions the status carried in
        if self.owner is None:
            self.owner = self.owner_for(self.cluster)

    @property
    def ownership(self) -> Owner:
        assert self.owner is not None
        return self.owner

    @staticmethod
    def owner_for(cluster: str) -> Owner:
        raise NotImplementedError

    def core(self) -> Core:
        raise NotImplementedError(f"{type(self).__name__} names no core")

    def core_for(self, spec: Mapping[str, Any]) -> Core:
        """The core for one object (a GCP one needs its region or zone)."""
        return self.core()

    def parent_core(self, spec: Mapping[str, Any], resource: ResourceSpec) -> Core:
        """A core for another kind (the parent that owns an untagged kind)."""
        raise NotImplementedError

    def _running(self, core: Core, status: Mapping[str, Any]) -> Result | None:
        """An operation still running (GCP) is Ready=False with a requeue, never a busy wait."""
        pending = getattr(core, "pending", None)
        if pending is None:
            return None
        operation = {"name": pending.get("name"), "selfLink": pending.get("selfLink")}
        return self._result(
            {**status, "operation": operation},
            False,
            "OperationRunning",
            f"{pending.get('operationType', 'operation')} {pending.get('name')} is "
            f"{pending.get('status')}",
            requeue=True,
        )

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

    def to_create(self, spec: Mapping[str, Any], desired: State, attempt: str) -> State:
        """A create's state: the Name tag, the owner's marks, and (without an idempotency token)
        the attempt's marker, all in the create call itself."""
        tags = self.spec.tags
        if tags is None:
            return dict(desired)
        wanted = dict(desired.get(tags.field) or {})
        if "tag:Name" in self.spec.natural and spec.get("name"):
            wanted["Name"] = str(spec["name"])
        wanted.update(self.ownership.marks)
        if needs_marker(self.spec):
            wanted[ATTEMPT_TAG] = attempt
        return {**desired, tags.field: wanted}

    def status_of(self, state: State) -> dict[str, Any]:
        """What the cloud says: the id, the ARN, and every field reads return."""
        status: dict[str, Any] = {
            f.key: v
            for f, v in ((self.spec.field(n), v) for n, v in state.items())
            if not f.is_tags
        }
        if len(self.spec.primary) == 1 and state.get(self.spec.primary[0]) is not None:
            status["id"] = state[self.spec.primary[0]]
        if self.spec.tags is not None and isinstance(state.get(self.spec.tags.field), dict):
            status["tags"] = dict(state[self.spec.tags.field])
        return status

    def _key(self, name: str) -> str:
        """The custom resource's key for a field: what the generator recorded (``FieldSpec.key``)."""
        return (
            self.spec.field(name).key
            if any(f.name == name for f in self.spec.fields)
            else lower_camel(name)
        )

    def _owned(self, state: State, spec: Mapping[str, Any], status: Mapping[str, Any]) -> bool:
        """Owned by this cluster: its ownership tag/label says so; a kind without tags is ours
        when the parent it lives in is (the same rule as the tasks'); a kind with neither is ours
        when our status records it, or records the create attempt that made it."""
        if self.spec.tags is not None:  # or its create token names us (made, not yet tagged)
            owner = self.ownership
            return owner.owns(state.get(self.spec.tags.field)) or made_by_token(
                self.spec, owner, state
            )
        parent = self.spec.owner_parent
        if parent is None:
            return self._recorded(state, status)
        parent_id = state.get(parent.field) or spec.get(self._key(parent.field))
        if not parent_id:
            return False
        found = self.parent_core(spec, parent.spec).find({parent.spec.primary[0]: parent_id}, "")
        tags = parent.spec.tags
        return bool(found) and tags is not None and self.ownership.owns(found[0].get(tags.field))

    def _recorded(self, state: State, status: Mapping[str, Any]) -> bool:
        if status.get(ATTEMPT):
            return True  # our create was under way when its answer was lost
        recorded = self.status_of(state)
        keys = ["id"] if "id" in recorded else [self._key(p) for p in self.spec.primary]
        known = [k for k in keys if recorded.get(k) is not None]
        return bool(known) and all(status.get(k) == recorded[k] for k in known)

    # -- results -----------------------------------------------------------------------------------

    def _result(
        self,
        status: Mapping[str, Any],
        ready: bool,
        reason: str,
        message: str = "",
        requeue: bool = False,
        severity: str = "",
    ) -> Result:
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

    def _cloud_error(self, status: Mapping[str, Any], err: CloudError) -> Result:
        """A cloud error is a condition, never an exception: what may pass requeues."""
        return self._result(
            status,
            False,
            type(err).__name__.removesuffix("Error") or "CloudError",
            str(err),
            requeue=True,
            severity="Warning",
        )

    # -- reconcile ----------------------------------------------------------------------------------

    def _find(
        self, core: Core, desired: State, spec: Mapping[str, Any], match: Mapping[str, str] | None
    ) -> list[State]:
        found = [
            s
            for s in core.find(desired, str(spec.get("name", "")), match_tags=match)
            if not self.spec.terminal(s)
        ]
        for state in found[:1]:
            core.read_separately(state, desired)
        return found

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
        return self._result(status, False, "InvalidSpec", message, severity="Error")

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
        try:
            return self._reconcile(spec, status)
        except TryAgainLater as err:
            return self._result(status, False, "Waiting", str(err), requeue=True)
        except CloudError as err:
            return self._cloud_error(status, err)
        except TaskError as err:
            return self._result(status, False, "Failed", str(err), severity="Error")

    def _reconcile(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> Result:
        core = self.core_for(spec)
        shared = bool(spec.get("shared"))
        if status.get("operation"):
            done = getattr(core, "operation_done")(status["operation"])
            if done.get("status") != "DONE":
                return self._result(
                    status,
                    False,
                    "OperationRunning",
                    f"{done.get('name')} is " f"{done.get('status')}",
                    requeue=True,
                )
            status = {k: v for k, v in status.items() if k != "operation"}
        desired = self.desired(spec, status)
        by_tag = (
            self.spec.tags is not None and "tag:Name" in self.spec.natural and not status.get("id")
        )
        match = {self.ownership.key: self.ownership.value} if by_tag and not shared else None
        found = self._find(core, desired, spec, match)
        if len(found) > 1:
            return self._result(
                status,
                False,
                "MultipleMatches",
                f"{len(found)} resources match {self.spec.name} {spec.get('name')!r}",
                severity="Error",
            )
        if not found:
            if shared:
                return self._result(
                    status,
                    False,
                    "SharedNotFound",
                    f"shared {self.spec.name} {spec.get('name')!r} does not exist",
                    requeue=True,
                    severity="Warning",
                )
            return create(self, core, desired, spec, status)
        state = found[0]
        if shared:
            return self._result(
                self.status_of(state), True, "Shared", "only read: the resource is shared"
            )
        if not self._owned(state, spec, status):
            # its identity is not recorded: a later delete must never find its way to it
            return self._result(
                {k: v for k, v in status.items() if k != "id"},
                False,
                "NotOwned",
                f"{self.spec.name} {self.status_of(state).get('id', '')} exists but is not "
                f"owned by cluster {self.cluster}; declare it shared to use it",
                severity="Error",
            )
        if marks_missing(self.spec, self.ownership, state):
            # ours by its create token, its tag call never made: the marks the create would write
            desired = self.to_create(spec, desired, "")
        return converge(self, core, state, desired)

    # -- delete ----------------------------------------------------------------------------------

    def delete(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> Result:
        """Delete what this cluster owns and the spec identifies, verified just before
        (:mod:`.reconciler_write`): found by the status's ``id`` (else its identity), never a
        resource another owner has, nothing for a ``shared`` spec. NotFound is success; a
        resource still in use (a dependency violation) requeues. The finalizer may go once the
        result has no ``requeue_after``."""
        return delete(self, spec, status)
