"""The CAPI-style reconciler over the same generated core the kOps-style task uses.

``reconcile(spec, status) -> Result`` and ``delete(spec, status) -> Result``, as cluster-api
providers (CAPA's services) and KCC's direct adapters shape them:

- the new id reaches the ``persist`` callback the moment the create call returns, before
  anything else can fail (CAPA lost VPC ids, then made duplicates, when this came later);
- ownership is explicit: resources are tagged ``owned`` for the cluster in the create call; a
  resource found by name that is not owned is never changed or deleted, and is an error unless
  the spec declares it ``shared`` (then it is only read);
- conditions carry a reason and a message; not-ready states requeue, never busy-wait;
- deletion tolerates NotFound and requeues while dependencies are still there.

Spec and status are plain dicts with the CRD's camelCase keys (``cidrBlock``, ``vpcId``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from botocore.exceptions import ClientError

from .aws_core import AwsCore, Core, State
from .diff import compute_changes
from .errors import TaskError, TryAgainLater
from .spec import ResourceSpec
from .task import Context

OWNED = "owned"
DEFAULT_REQUEUE = 15.0


def camel(name: str) -> str:
    """API member name to the CRD's key: ``CidrBlock`` -> ``cidrBlock``, ``VPCZoneIdentifier``
    -> ``vpcZoneIdentifier``."""
    upper = 0
    while upper < len(name) and name[upper].isupper():
        upper += 1
    if upper <= 1:
        return name[:1].lower() + name[1:]
    if upper == len(name):
        return name.lower()
    return name[: upper - 1].lower() + name[upper - 1 :]


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
    status: dict[str, Any]
    conditions: tuple[Condition, ...]
    requeue_after: float | None = None

    @property
    def ready(self) -> bool:
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
    ownership_key: str = ""  # the tag/label that says who owns a resource (see ownership_key_for)
    requeue_after: float = DEFAULT_REQUEUE
    clock: Callable[[], str] = field(default=_now)

    spec: ClassVar[ResourceSpec]

    def __post_init__(self) -> None:
        self._previous: list[Mapping[str, Any]] = []  # the conditions the status carried in
        if not self.ownership_key:
            self.ownership_key = self.ownership_key_for(self.cluster)

    @staticmethod
    def ownership_key_for(cluster: str) -> str:
        raise NotImplementedError

    def core(self) -> Core:
        raise NotImplementedError(f"{type(self).__name__} names no core")

    def core_for(self, spec: Mapping[str, Any]) -> Core:
        """The core for one object (a GCP one needs its region or zone)."""
        return self.core()

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

    def desired(
        self, spec: Mapping[str, Any], status: Mapping[str, Any], owned: bool = True
    ) -> State:
        state: State = {}
        for f in self.spec.fields:
            if f.mutability != "read_only" and spec.get(camel(f.name)) is not None:
                state[f.name] = spec[camel(f.name)]
        if len(self.spec.primary) == 1 and status.get("id"):
            state[self.spec.primary[0]] = status["id"]
        tags = self.spec.tags
        if tags is not None:
            wanted = dict(spec.get("additionalTags") or {})
            if "tag:Name" in self.spec.natural and spec.get("name"):
                wanted["Name"] = spec["name"]
            if owned:
                wanted[self.ownership_key] = OWNED
            state[tags.field] = wanted
        return state

    def status_of(self, state: State) -> dict[str, Any]:
        """What the cloud says: the id, the ARN, and every field reads return."""
        status: dict[str, Any] = {
            camel(f.name): v
            for f, v in ((self.spec.field(n), v) for n, v in state.items())
            if not f.is_tags
        }
        if len(self.spec.primary) == 1 and state.get(self.spec.primary[0]) is not None:
            status["id"] = state[self.spec.primary[0]]
        if self.spec.tags is not None and isinstance(state.get(self.spec.tags.field), dict):
            status["tags"] = dict(state[self.spec.tags.field])
        return status

    def _owned(self, state: State, status: Mapping[str, Any]) -> bool:
        """Owned by this cluster: its ownership tag/label says so; a resource with no tags or
        labels at all (a Route, a Network) is ours only when our status already records it,
        i.e. we created it and persisted its identity."""
        if self.spec.tags is not None:
            return (state.get(self.spec.tags.field) or {}).get(self.ownership_key) == OWNED
        recorded = self.status_of(state)
        keys = ["id"] if "id" in recorded else [camel(p) for p in self.spec.primary]
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

    # -- reconcile ----------------------------------------------------------------------------------

    def _find(self, core: Core, desired: State, spec: Mapping[str, Any]) -> list[State]:
        found = core.find(desired, str(spec.get("name", "")))
        for state in found[:1]:
            core.read_separately(state, desired)
        return found

    def reconcile(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> Result:
        self._previous = list(status.get("conditions") or [])
        core = self.core_for(spec)
        shared = bool(spec.get("shared"))
        try:
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
            desired = self.desired(spec, status, owned=not shared)
            found = self._find(core, desired, spec)
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
                return self._create(core, desired, spec, status)
            state = found[0]
            if shared:
                return self._result(
                    self.status_of(state), True, "Shared", "only read: the resource is shared"
                )
            if not self._owned(state, status):
                return self._result(
                    self.status_of(state),
                    False,
                    "NotOwned",
                    f"{self.spec.name} {self.status_of(state).get('id', '')} exists but is not "
                    f"owned by cluster {self.cluster}; declare it shared to use it",
                    severity="Error",
                )
            return self._converge(core, state, desired)
        except TryAgainLater as err:
            return self._result(status, False, "Waiting", str(err), requeue=True)
        except TaskError as err:
            return self._result(status, False, "Failed", str(err), severity="Error")
        except ClientError as err:
            return self._result(
                status, False, "CloudError", str(err), requeue=True, severity="Warning"
            )

    def _create(
        self, core: Core, desired: State, spec: Mapping[str, Any], status: Mapping[str, Any]
    ) -> Result:
        identity = core.create(desired, token=self._token(spec))
        new_status = {**status, **self.status_of(identity)}
        if self.persist is not None:
            self.persist(dict(new_status))  # before anything else can fail
        running = self._running(core, new_status)
        if running is not None:
            return running
        found = core.find({**desired, **identity}, str(spec.get("name", "")), retry_not_found=True)
        if not found:
            return self._result(
                new_status, False, "Creating", "created; not visible yet", requeue=True
            )
        core.read_separately(found[0], desired)
        return self._converge(core, found[0], {**desired, **identity})

    def _converge(self, core: Core, state: State, desired: State) -> Result:
        changes = compute_changes(self.spec, state, desired)
        fixed = [camel(n) for n in changes if self.spec.field(n).mutability != "mutable"]
        if fixed:
            return self._result(
                self.status_of(state),
                False,
                "CannotChange",
                f"{', '.join(fixed)} can only be set when the {self.spec.name} is created",
                severity="Error",
            )
        if changes:
            core.update(state, {n: new for n, (_, new) in changes.items()})
            running = self._running(core, self.status_of(state))
            if running is not None:
                return running
            refreshed = core.find(
                {**desired, **{p: state[p] for p in self.spec.primary if p in state}}, ""
            )
            state = refreshed[0] if refreshed else state
            core.read_separately(state, desired)
            remaining = compute_changes(self.spec, state, desired)
            if remaining:
                return self._result(
                    self.status_of(state),
                    False,
                    "NotConverged",
                    f"still differs: {', '.join(camel(n) for n in remaining)}",
                    requeue=True,
                    severity="Warning",
                )
        readiness = self.spec.readiness
        if readiness is not None:
            value = state.get(readiness.field)
            if value in readiness.failed:
                return self._result(
                    self.status_of(state),
                    False,
                    "Failed",
                    f"{camel(readiness.field)} is {value!r}",
                    severity="Error",
                )
            if value is not None and value != readiness.ready:
                return self._result(
                    self.status_of(state),
                    False,
                    "Pending",
                    f"{camel(readiness.field)} is {value!r}, waiting for {readiness.ready!r}",
                    requeue=True,
                )
        return self._result(self.status_of(state), True, "Available")

    def _token(self, spec: Mapping[str, Any]) -> str:
        seed = json.dumps([self.cluster, self.spec.name, dict(spec)], sort_keys=True, default=str)
        return hashlib.sha256(seed.encode()).hexdigest()[:64]

    # -- delete ----------------------------------------------------------------------------------

    def delete(self, spec: Mapping[str, Any], status: Mapping[str, Any]) -> Result:
        self._previous = list(status.get("conditions") or [])
        if spec.get("shared"):
            return self._result(status, False, "Deleted", "shared: left in place")
        core = self.core_for(spec)
        desired = self.desired(spec, status)
        try:
            found = core.find(desired, str(spec.get("name", "")))
            for state in found:
                if not self._owned(state, status):
                    continue  # never delete what the cluster does not own
                core.delete(state)
                running = self._running(core, status)
                if running is not None:
                    return self._result(
                        running.status,
                        False,
                        "Deleting",
                        running.conditions[0].message,
                        requeue=True,
                    )
        except TryAgainLater as err:
            return self._result(status, False, "Deleting", str(err), requeue=True)
        except ClientError as err:
            return self._result(
                status, False, "CloudError", str(err), requeue=True, severity="Warning"
            )
        return self._result({k: v for k, v in status.items() if k != "id"}, False, "Deleted", "")


@dataclass
class AwsReconciler(Reconciler):
    """AWS: calls through botocore; ownership is CAPA's tag."""

    @staticmethod
    def ownership_key_for(cluster: str) -> str:
        return f"sigs.k8s.io/cluster-api-provider-aws/cluster/{cluster}"

    def core(self) -> Core:
        return AwsCore(self.spec, self.context.client(self.spec.service), self.context.retry)
