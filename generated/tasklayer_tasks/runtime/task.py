"""The kOps-style task: Find, CheckChanges, Render, over one generated core.

A generated task is a dataclass whose optional fields mean "don't care" when ``None``. ``run``
is kOps' DefaultDeltaRunMethod: find the actual resource, compute the changes, check them,
render them on a target (the cloud, or a dry-run plan), then read back and report any field
that still differs by name.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from botocore.exceptions import ClientError

from .aws_core import AwsCore, Core, State
from .diff import compute_changes, shown
from .errors import (
    CannotChangeFieldError,
    MissingResourceError,
    MultipleMatchesError,
    NotConvergedError,
    TaskError,
    TryAgainLater,
)
from .lifecycle import Lifecycle
from .retry import RetryPolicy, is_access_denied
from .spec import ResourceSpec

if TYPE_CHECKING:
    from .targets import Target

T = TypeVar("T", bound="Task")


@dataclass
class Context:
    """Where tasks run: the region (and, on GCP, project and zone), the API clients, the retry
    policy, and the owner whose name seeds idempotency tokens.

    AWS clients come from botocore (``session``, ``endpoint_url``); GCP clients from
    googleapiclient, built from the discovery documents shipped with the tasks, over ``http``
    (an authorized http, or the runtime's ``FakeGcp``).
    """

    region: str = "us-east-1"
    cluster: str = ""
    endpoint_url: str | None = None
    session: Any = None
    project: str = ""
    zone: str = ""
    http: Any = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    _clients: dict[str, Any] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def scope(self) -> dict[str, str]:
        return {"project": self.project, "region": self.region, "zone": self.zone}

    def gcp_client(self, document_path: str) -> Any:
        """A googleapiclient resource built from a shipped discovery document: no network and
        no credentials are needed to build it."""
        with self._lock:
            if document_path not in self._clients:
                from googleapiclient.discovery import build_from_document  # type: ignore[import-untyped]

                with open(document_path, encoding="utf-8") as handle:
                    document = handle.read()
                self._clients[document_path] = build_from_document(document, http=self.http)
            return self._clients[document_path]

    def client(self, service: str) -> Any:
        with self._lock:
            if service not in self._clients:
                import botocore.session

                session = self.session or botocore.session.get_session()
                self._clients[service] = session.create_client(
                    service, region_name=self.region, endpoint_url=self.endpoint_url
                )
            return self._clients[service]


class Placeholder(str):
    """The id of a resource a dry run has not created: printed, never sent."""


@dataclass
class Changes:
    """The fields that differ, by API name: (actual, desired)."""

    task: Task
    fields: dict[str, tuple[Any, Any]]

    def __bool__(self) -> bool:
        return bool(self.fields)

    def __contains__(self, attr: str) -> bool:
        return any(self.task.spec.field(n).attr == attr for n in self.fields)

    def lines(self) -> list[str]:
        spec = self.task.spec
        return [
            f"{spec.field(n).attr}: {shown(spec, n, old)} -> {shown(spec, n, new)}"
            for n, (old, new) in self.fields.items()
        ]


@dataclass(kw_only=True, eq=False)
class Task:
    """Base of every generated task, whatever the cloud. Subclasses declare the fields, the
    spec, and the core that makes the calls."""

    name: str
    lifecycle: Lifecycle = Lifecycle.SYNC
    observed: dict[str, Any] = field(default_factory=dict, repr=False)

    spec: ClassVar[ResourceSpec]

    @property
    def key(self) -> str:
        return f"{self.spec.name}/{self.name}"

    def __hash__(self) -> int:
        return id(self)

    # -- desired state ---------------------------------------------------------------------------

    def dependencies(self) -> list[Task]:
        """Tasks this one refers to (a Subnet's ``vpc``): they run first."""
        deps: list[Task] = []
        for f in self.spec.fields:
            value = getattr(self, f.attr, None)
            values = value if isinstance(value, list) else [value]
            deps.extend(v for v in values if isinstance(v, Task))
        return deps

    @property
    def resource_id(self) -> str | None:
        """The primary id, once found or created (for single-id resources)."""
        return getattr(self, "id", None)

    def desired(self, dry_run: bool = False) -> State:
        state: State = {}
        for f in self.spec.fields:
            if f.mutability == "read_only":
                continue  # the cloud's to say (an id, below, comes from what was found)
            value = getattr(self, f.attr, None)
            if isinstance(value, Task):
                value = value.reference_value() or self._unresolved(value, dry_run)
            elif isinstance(value, list) and any(isinstance(v, Task) for v in value):
                value = [
                    (
                        v.reference_value() or self._unresolved(v, dry_run)
                        if isinstance(v, Task)
                        else v
                    )
                    for v in value
                ]
            if value is not None:
                state[f.name] = value
        if len(self.spec.primary) == 1 and self.resource_id is not None:
            state[self.spec.primary[0]] = self.resource_id
        tags = self.spec.tags
        if tags is not None and "tag:Name" in self.spec.natural:
            state[tags.field] = {"Name": self.name, **(state.get(tags.field) or {})}
        return state

    def _unresolved(self, dependency: Task, dry_run: bool) -> str:
        if dry_run:
            return Placeholder(f"<id of {dependency.key}>")
        raise TryAgainLater(f"{self.key}: waiting for {dependency.key} to have an id")

    def token(self, context: Context, desired: State) -> str:
        """A deterministic idempotency token: the same task asking for the same thing gets the
        same token, so a retried create never makes a second resource."""
        seed = json.dumps([context.cluster, self.key, desired], sort_keys=True, default=str)
        return hashlib.sha256(seed.encode()).hexdigest()[:64]

    # -- find --------------------------------------------------------------------------------------

    def core(self, context: Context) -> Core:
        raise NotImplementedError(f"{type(self).__name__} names no core")

    def reference_value(self) -> str | None:
        """What a field referring to this resource holds: its id (AWS), its selfLink (GCP)."""
        return self.resource_id

    def find_state(
        self, context: Context, dry_run: bool = False, separate_reads: bool = True
    ) -> State | None:
        desired = self.desired(dry_run)
        if any(isinstance(v, Placeholder) for v in desired.values()):
            return None  # its parent does not exist yet, so neither does it
        core = self.core(context)
        found = core.find(desired, self.name)
        if len(found) > 1:
            ids = (
                [str(s.get(self.spec.primary[0], "?")) for s in found] if self.spec.primary else []
            )
            raise MultipleMatchesError(self.key, self._how_found(desired), ids)
        if not found:
            return None
        if separate_reads:
            core.read_separately(found[0], desired)
        return found[0]

    def _how_found(self, desired: State) -> str:
        parts = [
            f"{n}={desired.get(n, self.name if n == 'tag:Name' else None)!r}"
            for n in (*self.spec.natural, *self.spec.parent)
        ]
        return "with " + ", ".join(parts)

    def find(self: T, context: Context) -> T | None:
        """The resource as the cloud has it, or None; a found id is kept on this task."""
        state = self.find_state(context)
        if state is None:
            return None
        self.adopt(state)
        return self.from_state(state)

    def adopt(self, state: State) -> None:
        """Remember the identity of the resource this task now manages."""
        if (
            len(self.spec.primary) == 1
            and state.get(self.spec.primary[0]) is not None
            and hasattr(self, "id")
        ):
            object.__setattr__(self, "id", state[self.spec.primary[0]])
        self.observed = dict(state)

    def from_state(self: T, state: State) -> T:
        values: dict[str, Any] = {}
        own = ("name", "lifecycle", "observed")  # the task's, not the cloud's (a GCP name is both)
        for f in self.spec.fields:
            if f.attr in self.__dataclass_fields__ and f.attr not in own and f.name in state:
                values[f.attr] = state[f.name]
        if "id" in self.__dataclass_fields__ and len(self.spec.primary) == 1:
            values["id"] = state.get(self.spec.primary[0])
        return type(self)(name=self.name, lifecycle=self.lifecycle, observed=dict(state), **values)

    # -- check and render ------------------------------------------------------------------------

    def check_changes(self, actual: Task | None, changes: Changes) -> None:
        """A change to a create-only field cannot be applied: say which, before any call."""
        if actual is None:
            return
        fixed = [
            self.spec.field(n).attr
            for n in changes.fields
            if self.spec.field(n).mutability != "mutable"
        ]
        if fixed:
            raise CannotChangeFieldError(self.key, fixed)

    def run(self, context: Context, target: Target) -> None:
        """kOps' DefaultDeltaRunMethod: find, diff, check, render."""
        if self.lifecycle is Lifecycle.IGNORE:
            return
        try:
            self._run(context, target)
        except ClientError as err:
            if self.lifecycle is Lifecycle.WARN_IF_INSUFFICIENT_ACCESS and is_access_denied(err):
                target.warn(f"{self.key}: skipped, not allowed: {err}")
                return
            raise

    def _run(self, context: Context, target: Target) -> None:
        state = self.find_state(context, dry_run=target.dry_run)
        if state is not None:
            self.adopt(state)
        actual = self.from_state(state) if state is not None else None
        must_exist = (Lifecycle.EXISTS_AND_VALIDATES, Lifecycle.EXISTS_AND_WARN_IF_CHANGES)
        if actual is None and self.lifecycle in must_exist:
            raise MissingResourceError(
                f"{self.key}: not found, and its lifecycle says it must exist"
            )
        changes = Changes(self, compute_changes(self.spec, state, self.desired(target.dry_run)))
        if actual is not None and not changes:
            if not target.dry_run:
                self.check_ready()
            return
        if self.lifecycle is Lifecycle.EXISTS_AND_VALIDATES:
            raise TaskError(
                f"{self.key}: differs from what was declared: {'; '.join(changes.lines())}"
            )
        if self.lifecycle is Lifecycle.EXISTS_AND_WARN_IF_CHANGES:
            target.warn(f"{self.key}: differs: {'; '.join(changes.lines())}")
            return
        self.check_changes(actual, changes)
        target.render(self, actual, changes)
        if not target.dry_run:
            self.check_ready()

    def check_ready(self) -> None:
        """A resource still being made (a NAT gateway ``pending``) makes its dependents wait:
        the executor tries this task again later rather than blocking on it."""
        readiness = self.spec.readiness
        if readiness is None or not self.observed:
            return
        value = self.observed.get(readiness.field)
        if value in readiness.failed:
            raise TaskError(
                f"{self.key}: {readiness.field} is {value!r}; it will not become {readiness.ready!r}"
            )
        if value is not None and value != readiness.ready:
            raise TryAgainLater(
                f"{self.key}: {readiness.field} is {value!r}, waiting for {readiness.ready!r}"
            )

    def render_cloud(self, target: Target, actual: Task | None, changes: Changes) -> None:
        core = self.core(target.context)
        if actual is None:
            desired = self.desired()
            identity = core.create(desired, token=self.token(target.context, desired))
            self.adopt(identity)
            target.created(self, identity)
            state = self._read_back(core, target.context)
            rest = self._mutable_changes(state)
            if not rest:
                return
            core.update(state, rest)
        else:
            core.update(actual.observed, {n: new for n, (_, new) in changes.fields.items()})
        remaining = compute_changes(
            self.spec, self._read_back(core, target.context), self.desired()
        )
        if remaining:
            raise NotConvergedError(self.key, [self.spec.field(n).attr for n in remaining])

    def _mutable_changes(self, state: State) -> dict[str, Any]:
        """What a create could not set (EnableDnsHostnames after CreateVpc)."""
        diff = compute_changes(self.spec, state, self.desired())
        return {
            n: new for n, (_, new) in diff.items() if self.spec.field(n).mutability == "mutable"
        }

    def _read_back(self, core: Core, context: Context) -> State:
        """Read the resource just written; NotFound right after a create is eventual
        consistency, retried with backoff."""
        desired = self.desired()
        for attempt in range(context.retry.attempts):
            found = core.find(desired, self.name, retry_not_found=True)
            if found:
                core.read_separately(found[0], desired)
                self.adopt(found[0])
                return found[0]
            context.retry.sleep(context.retry.delay(attempt))
        raise TaskError(f"{self.key}: created, but not found afterwards")

    def locate(self, context: Context) -> bool:
        """Find the resource without creating anything, keeping its identity: the first half of
        a delete, run in dependency order so that children can be found inside their parents."""
        state = self.find_state(context, dry_run=True, separate_reads=False)
        if state is None:
            self.observed = {}
            return False
        self.adopt(state)
        return True

    def delete(self, context: Context, target: Target, located: bool = False) -> bool:
        """Delete the resource if it exists; True when there was one. ``located``: a
        :meth:`locate` just ran, so what it found (or did not) stands."""
        if self.lifecycle is not Lifecycle.SYNC:
            return False
        if not located and not self.locate(context):
            return False
        if not self.observed:
            return False
        target.remove(self, self.observed)
        if not target.dry_run:
            self.observed = {}
            if hasattr(self, "id"):
                object.__setattr__(self, "id", None)
        return True


@dataclass(kw_only=True, eq=False)
class AwsTask(Task):
    """Base of the generated AWS tasks: calls go through botocore."""

    def core(self, context: Context) -> Core:
        return AwsCore(self.spec, context.client(self.spec.service), context.retry)
