"""The kOps-style task: Find, CheckChanges, Render, translated to and from the engine.

A generated task is a dataclass whose optional fields mean "don't care" when ``None``. ``run``
is kOps' DefaultDeltaRunMethod: find the actual resource, compute the changes, check them,
render them on a target (the cloud, or a dry-run plan), then read back and report any field
that still differs by name. Every rule of the safety contract (ownership, create once, terminal
states, delete scope, diff, update routing, verify) is the engine's (docs/architecture.md):
this face translates a task's attributes into the engine's desired state and subject, and the
engine's outcome into the task's ``observed``, its errors and its target's plan.

``shared=True`` means: found by id or name, only read and verified. What the engine remembers
of a task between its runs (the create attempt under way, what it last read) is a
:class:`~..engine.record.Record` kept beside the task (:func:`record_of`), not on it: the
generated class adds its fields and its core, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, ClassVar, Protocol, TypeVar

from ..contract.adapter import Core
from ..contract.context import Context
from ..contract.diff import shown
from ..contract.errors import (
    AccessDeniedError,
    CannotChangeFieldError,
    MissingResourceError,
    TaskError,
)
from ..contract.ownership import Owner
from ..contract.redact import printable, redacted
from ..contract.spec import FieldSpec, ResourceSpec
from ..contract.state import Placeholder, State
from ..engine import plan as make_plan
from ..engine.plan import fixed_fields
from ..engine.required import check_one_form, missing_fields, require
from .field_info import FieldInfo, task_fields
from .lifecycle import Lifecycle
from .nested import Node, tasks_in
from .translate import (
    adopt,
    declared_values,
    desired_state,
    field_value_named,
    find_state,
    from_state,
    owner_of,
    raise_unless_ready,
    record_of,
)

__all__ = ["Changes", "Context", "Placeholder", "Target", "Task"]

T = TypeVar("T", bound="Task")
_CREATING = (Lifecycle.SYNC, Lifecycle.WARN_IF_INSUFFICIENT_ACCESS)


@dataclass
class Changes:
    """The fields that differ, by API name: (actual, desired)."""

    task: Task
    """The task whose resource differs."""
    fields: dict[str, tuple[Any, Any]]
    """API name -> (actual, desired), for each field that differs."""

    def __bool__(self) -> bool:
        return bool(self.fields)

    def __contains__(self, attr: str) -> bool:
        return any(self.task.spec.field(n).attr == attr for n in self.fields)

    def lines(self) -> list[str]:
        """``attr: old -> new`` per changed field, sensitive values redacted."""
        spec = self.task.spec
        return [
            f"{spec.field(n).attr}: {shown(spec, n, old)} -> {shown(spec, n, new)}"
            for n, (old, new) in self.fields.items()
        ]


class Target(Protocol):
    """Where a task's changes go: the cloud, or a dry-run plan (:mod:`.targets`)."""

    dry_run: bool
    """True when nothing is to be changed: the changes are recorded, not made."""
    context: Context
    """The cloud's clients, its region or project, and the owner of what tasks create."""

    def render(self, task: Task, actual: Task | None, changes: Changes) -> None:
        """Apply ``changes``: a create when ``actual`` is None (nothing found), else an update."""

    def created(self, task: Task, identity: State) -> None:
        """The create call returned ``identity``: keep it now, before anything else can fail."""

    def remove(self, task: Task, state: State) -> None:
        """Delete the resource ``state`` names (a dry run only plans it)."""

    def warn(self, message: str) -> None:
        """A difference or a denied access the task's lifecycle makes a warning, not a failure."""


@dataclass(kw_only=True, eq=False, repr=False)
class Task(Node):
    """Base of every generated task, whatever the cloud. Subclasses declare the fields, the
    spec, and the core that makes the calls."""

    name: str
    """The task's own name, unique within its kind (``us-east-1a.demo``); the tag or label that
    finds its resource again when no id is set."""
    lifecycle: Lifecycle = Lifecycle.SYNC
    """What the task may do to its resource (:class:`~.lifecycle.Lifecycle`): by default, sync."""
    shared: bool = False
    """Use an existing resource (found by id or name) without changing or deleting it."""
    recreate: bool = False
    """A change only a create can make replaces the resource (deleted, ours verified, then
    created anew) instead of being refused: for what nothing holds by id, as cloud-provider-gcp
    replaces a forwarding rule whose ports changed."""

    spec: ClassVar[ResourceSpec]
    """The kind as data (set by each generated class): its fields, identity and calls."""

    @classmethod
    def fields(cls) -> tuple[FieldInfo, ...]:
        """The fields this task takes, for tools: attribute, API name, spec key, mutability
        (create-only / mutable / unknown), required, references, documentation."""
        return task_fields(cls)

    @property
    def key(self) -> str:
        """The task's name as kOps writes it, ``<Kind>/<name>`` (``Subnet/us-east-1a.demo``)."""
        return f"{self.spec.name}/{printable(self.name)}"

    @property
    def observed(self) -> State:
        """The resource as last read (empty: not found, or not looked for yet)."""
        return record_of(self).observed

    @property
    def owned(self) -> bool | None:
        """The cluster owns it: known once found or created."""
        return record_of(self).owned

    @property
    def returned(self) -> dict[str, Any]:
        """What its create handed out only once (a private key): redacted wherever shown."""
        return record_of(self).returned

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        """Fields as set, sensitive parts redacted, tasks by their key."""
        by_attr = {f.attr: f for f in self.spec.fields}
        parts = []
        for f in dataclass_fields(self):
            value = field_value_named(self, f.name)
            if isinstance(value, Task):
                shown_value = value.key
            elif f.name in by_attr:
                shown_value = repr(redacted(by_attr[f.name], value))
            else:
                shown_value = repr(value)
            parts.append(f"{f.name}={shown_value}")
        return f"{type(self).__name__}({', '.join(parts)})"

    # -- what each cloud's task base says (wiring/) ------------------------------------------------

    def dependencies(self) -> list[Task]:
        """Tasks this one refers to (a Subnet's ``vpc``): they run first."""
        deps: list[Task] = []
        for f in self.spec.fields:
            for t in tasks_in(field_value_named(self, f.attr)):
                if isinstance(t, Task) and t not in deps:
                    deps.append(t)
        return deps

    @property
    def resource_id(self) -> str | None:
        """The primary id, once found or created (for single-id resources)."""
        value = field_value_named(self, "id")
        return None if value is None else str(value)

    def owner(self, context: Context) -> Owner:
        """The owner of what this task creates: the context's cluster."""
        raise NotImplementedError(f"{type(self).__name__} names no owner")

    def desired(self, dry_run: bool = False) -> State:
        """What the task declares, by API name (its references resolved)."""
        return desired_state(self, dry_run)

    def core(self, context: Context) -> Core:
        """The adapter that makes this task's calls in ``context``."""
        return self.core_for(context, self.spec)

    def core_for(self, context: Context, spec: ResourceSpec) -> Core:
        """The adapter for ``spec`` (this kind or a related one) in ``context``: the cloud's."""
        raise NotImplementedError(f"{type(self).__name__} names no core")

    def placement(self) -> dict[str, Any]:
        """The attributes that place it within the account (a GCP zone or region), as keyword
        arguments for another task of its kind in the same place: none for AWS."""
        return {}

    def reference_to(self, holder: FieldSpec, task: Task) -> str | None:
        """What ``holder`` holds of the task it refers to: its reference value."""
        return task.reference_value()

    def reference_value(self) -> str | None:
        """What a field referring to this resource holds: its id (AWS), its selfLink (GCP)."""
        return self.resource_id

    # -- kOps' verbs -------------------------------------------------------------------------------

    def missing_fields(self) -> list[str]:
        """The attributes its create requires that are not set and that nothing fills in; none
        for a task that never creates (shared, or a lifecycle that only looks)."""
        if self.shared or self.lifecycle not in _CREATING:
            return []
        return missing_fields(self.spec, declared_values(self))

    def find(self: T, context: Context) -> T | None:
        """The resource as the cloud has it, or None; a found id is kept on this task."""
        state = find_state(self, context)
        if state is None:
            return None
        adopt(self, state)
        return from_state(self, state)

    def check_changes(self, actual: Task | None, changes: Changes) -> None:
        """A change to a create-only field cannot be applied, nor a create without a field it
        requires or with a field and its other form both set: say which, before the call."""
        if actual is None:
            require_create_fields([self])
            check_one_form(self.spec, self.key, declared_values(self))
            return
        fixed = [f.attr for f in fixed_fields(self.spec, changes.fields)]
        if fixed and not self.recreate:
            raise CannotChangeFieldError(self.key, fixed)

    def run(self, context: Context, target: Target) -> None:
        """kOps' DefaultDeltaRunMethod: find, diff, check, render."""
        if self.lifecycle is Lifecycle.IGNORE:
            return
        try:
            delta_run(self, context, target)
        except AccessDeniedError as err:
            if self.lifecycle is Lifecycle.WARN_IF_INSUFFICIENT_ACCESS:
                target.warn(f"{self.key}: skipped, not allowed: {err}")
                return
            raise

    def locate(self, context: Context) -> bool:
        """Find the resource without creating anything, keeping its identity: the first half of
        a delete, run in dependency order so that children can be found inside their parents."""
        state = find_state(self, context, dry_run=True, separate_reads=False)
        record = record_of(self)
        record.stale = False
        if state is None:
            record.observed = {}
            return False
        adopt(self, state)
        return True

    def delete(self, context: Context, target: Target, located: bool = False) -> bool:
        """Delete the resource if it exists and is ours; True when there was one. ``located``:
        a :meth:`locate` just ran, so what it found (or did not) stands."""
        if self.lifecycle is not Lifecycle.SYNC or self.shared:
            return False
        if (not located or record_of(self).stale) and not self.locate(context):
            return False
        if not self.observed or not self.owned:
            return False
        target.remove(self, self.observed)
        return True


def require_create_fields(tasks: Iterable[Any]) -> None:
    """Every field the create of any of ``tasks`` requires and nothing fills: one error naming
    them all, before any call."""
    require({t.key: t.missing_fields() for t in tasks})


def delta_run(task: Task, context: Context, target: Target) -> None:
    """Find, plan, check, render: the engine's plan, the task's lifecycle."""
    state = find_state(task, context, dry_run=target.dry_run)
    if state is not None:
        adopt(task, state)
    actual = from_state(task, state) if state is not None else None
    must_exist = (Lifecycle.EXISTS_AND_VALIDATES, Lifecycle.EXISTS_AND_WARN_IF_CHANGES)
    if actual is None and (task.lifecycle in must_exist or task.shared):
        what = "shared" if task.shared else "its lifecycle says it must exist"
        raise MissingResourceError(f"{task.key}: not found, and {what}")
    owner = owner_of(task, context)
    plan = make_plan(task.spec, state, task.desired(target.dry_run), task.name, owner, task.shared)
    changes = Changes(task, plan.changes)
    if actual is not None and not changes:
        if not target.dry_run:
            raise_unless_ready(task)
        return
    if task.lifecycle is Lifecycle.EXISTS_AND_VALIDATES or task.shared:
        raise TaskError(f"{task.key}: differs from what was declared: {'; '.join(changes.lines())}")
    if task.lifecycle is Lifecycle.EXISTS_AND_WARN_IF_CHANGES:
        target.warn(f"{task.key}: differs: {'; '.join(changes.lines())}")
        return
    task.check_changes(actual, changes)
    if actual is not None and task.recreate and fixed_fields(task.spec, changes.fields):
        if not target.dry_run:
            target.remove(task, task.observed)  # located and ours: the engine verifies again
            actual, plan = None, make_plan(task.spec, None, task.desired(), task.name, owner)
            changes = Changes(task, plan.changes)
    target.render(task, actual, changes)
    if not target.dry_run:
        raise_unless_ready(task)
