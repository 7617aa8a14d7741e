"""The kOps-style task: Find, CheckChanges, Render, over one generated core.

A generated task is a dataclass whose optional fields mean "don't care" when ``None``. ``run``
is kOps' DefaultDeltaRunMethod: find the actual resource, compute the changes, check them,
render them on a target (the cloud, or a dry-run plan), then read back and report any field
that still differs by name.

What keeps it safe against a real account (DESIGN.md's runtime rules):

- **ownership**: creates carry the cluster's tags or labels (:mod:`..contract.ownership`); find only
  takes what carries them, so another cluster's same-named resource is never adopted, changed
  or deleted. ``shared=True`` means: found by id or name, only read and verified. Kinds that
  carry no tags are owned through their owned parent. An adopted resource's Name is never
  rewritten.
- **a create whose answer was lost** is resolved by finding (ownership tags plus the attempt's
  marker), or by resending the same idempotency token: one token per logical attempt, a new one
  after the resource is gone;
- **terminal states** (``deleted``, ``failed``) are not resources.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ..contract.context import Context
from ..contract.state import Core, State, Unread
from ..contract.diff import compute_changes, shown
from ..contract.errors import (
    AccessDeniedError,
    CannotChangeFieldError,
    MissingResourceError,
    MultipleMatchesError,
    NotOwnedError,
    OutcomeUnknownError,
    TaskError,
    TryAgainLater,
)
from .field_info import FieldInfo, task_fields
from .lifecycle import Lifecycle
from .nested import resolved, tasks_in
from ..contract.ownership import Owner, made_by_token, marks_missing
from ..contract.redact import printable, redacted
from ..engine.required import check_one_form, missing_fields, require_create_fields
from ..contract.spec import FieldSpec, Mutability, ResourceSpec
from .task_write import render_cloud

if TYPE_CHECKING:
    from .targets import Target

__all__ = ["Changes", "Context", "Placeholder", "Task"]

T = TypeVar("T", bound="Task")


class Placeholder(str):
    """The id of a resource a dry run has not created: printed, never sent."""

    placeholder = True


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


@dataclass(kw_only=True, eq=False, repr=False)
class Task:
    """Base of every generated task, whatever the cloud. Subclasses declare the fields, the
    spec, and the core that makes the calls."""

    name: str
    lifecycle: Lifecycle = Lifecycle.SYNC
    shared: bool = False
    """Use an existing resource (found by id or name) without changing or deleting it."""
    # the resource as last read: the runtime's, not a constructor argument
    observed: dict[str, Any] = field(default_factory=dict, init=False)

    spec: ClassVar[ResourceSpec]

    def __post_init__(self) -> None:
        self.owned: bool | None = None  # known once found or created
        self._attempt: str | None = None  # the token / marker of the create under way
        self._unseen = False  # a create of ours returned, but its resource was not read yet
        self._unread = False  # the last find said "none" without reading (core.Unread)
        self.returned: dict[str, Any] = {}  # what a create handed out only once (redacted in repr)

    @classmethod
    def fields(cls) -> tuple[FieldInfo, ...]:
        """The fields this task takes, for tools: attribute, API name, spec key, mutability
        (create-only / mutable / unknown), required, references, documentation."""
        return task_fields(cls)

    @property
    def key(self) -> str:
        return f"{self.spec.name}/{printable(self.name)}"

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        """Fields as set, sensitive parts redacted, tasks by their key."""
        by_attr = {f.attr: f for f in self.spec.fields}
        parts = []
        for f in dataclass_fields(self):
            if f.name == "observed":
                continue
            value = getattr(self, f.name)
            if isinstance(value, Task):
                shown_value = value.key
            elif f.name in by_attr:
                shown_value = repr(redacted(by_attr[f.name], value))
            else:
                shown_value = repr(value)
            parts.append(f"{f.name}={shown_value}")
        return f"{type(self).__name__}({', '.join(parts)})"

    # -- desired state ---------------------------------------------------------------------------

    def dependencies(self) -> list[Task]:
        """Tasks this one refers to (a Subnet's ``vpc``): they run first."""
        deps: list[Task] = []
        for f in self.spec.fields:
            deps.extend(t for t in tasks_in(getattr(self, f.attr, None)) if t not in deps)
        return deps

    @property
    def resource_id(self) -> str | None:
        """The primary id, once found or created (for single-id resources)."""
        return getattr(self, "id", None)

    def owner(self, context: Context) -> Owner:
        """The owner of what this task creates: the context's cluster."""
        raise NotImplementedError(f"{type(self).__name__} names no owner")

    def _owner(self, context: Context) -> Owner:
        if not context.cluster:
            raise TaskError(
                f"{self.key}: Context.cluster is not set; tasks tag what they create as the cluster's"
            )
        return self.owner(context)

    def desired(self, dry_run: bool = False) -> State:
        """What the task declares, by API name; tags are the task's own (see :meth:`to_create`)."""
        state: State = {}
        for f in self.spec.fields:
            if f.mutability is Mutability.READ_ONLY:
                continue  # the cloud's to say (an id, below, comes from what was found)
            value = resolved(
                self._declared(f),
                lambda v: self.reference_to(f, v) or self._unresolved(v, dry_run),
            )
            if value is not None:
                state[f.name] = value
        if len(self.spec.primary) == 1 and self.resource_id is not None:
            state[self.spec.primary[0]] = self.resource_id
        return state

    def _declared(self, f: FieldSpec) -> Any:
        """The field as set; the resource's own name (a security group's GroupName), when not
        set, is the task's name while the resource is found by it. Once its id is known the name
        is the cloud's to say: an adopted resource is never renamed."""
        value = getattr(self, f.attr, None)
        if value is None and f.from_task_name and self.resource_id is None:
            return self.name
        return value

    def missing_fields(self) -> list[str]:
        """The attributes its create requires that are not set and that nothing fills in
        (:mod:`..engine.required`)."""
        return missing_fields(self)

    def to_create(self, context: Context, dry_run: bool = False) -> State:
        """The desired state a create sends: with the Name tag and the owner's marks."""
        state = self.desired(dry_run)
        tags = self.spec.tags
        if tags is not None:
            wanted = dict(state.get(tags.field) or {})
            if "tag:Name" in self.spec.natural:
                wanted.setdefault("Name", self.name)
            wanted.update(self._owner(context).marks)
            state[tags.field] = wanted
        return state

    def reference_to(self, holder: FieldSpec, task: Task) -> str | None:
        """What ``holder`` holds of the task it refers to: its reference value (an id; a
        selfLink), once it has one."""
        return task.reference_value()

    def _unresolved(self, dependency: Task, dry_run: bool) -> str:
        if dry_run:
            return Placeholder(f"<id of {dependency.key}>")
        raise TryAgainLater(f"{self.key}: waiting for {dependency.key} to have an id")

    def attempt_token(self) -> str:
        """The token of the logical create under way: the same on every retry of it, a new one
        once it has ended (created, or the resource deleted)."""
        if self._attempt is None:
            self._attempt = uuid.uuid4().hex
        return self._attempt

    # -- find --------------------------------------------------------------------------------------

    def core(self, context: Context) -> Core:
        return self.core_for(context, self.spec)

    def placement(self) -> dict[str, Any]:
        """The attributes that place it within the account (a GCP zone or region), as keyword
        arguments for another task of its kind in the same place: none for AWS."""
        return {}

    def pass_core(self, context: Context) -> Core:
        """The core, sharing the pass's batched reads (:mod:`..contract.snapshot`): its finds may be
        served from them, and its writes drop what they make stale."""
        core = self.core(context)
        if hasattr(core, "snapshots"):
            core.snapshots = context.snapshots
        if hasattr(core, "calls"):  # a GCP core counts what it sends (AWS: the client's hook)
            core.calls = context.calls
        return core

    def core_for(self, context: Context, spec: ResourceSpec) -> Core:
        raise NotImplementedError(f"{type(self).__name__} names no core")

    def reference_value(self) -> str | None:
        """What a field referring to this resource holds: its id (AWS), its selfLink (GCP)."""
        return self.resource_id

    def find_state(
        self, context: Context, dry_run: bool = False, separate_reads: bool = True
    ) -> State | None:
        """The live resource this task manages, or None. Raises when one with its identity
        exists that this cluster does not own (unless the task is shared)."""
        desired = self.desired(dry_run)
        if any(getattr(v, "placeholder", False) for v in desired.values()):
            return None  # its parent does not exist yet, so neither does it
        core = self.pass_core(context)
        owner = self._owner(context)
        match = self._match(owner)
        # a shared resource is not the cluster's, so never in its listing: read it directly
        listed = None if self.shared else getattr(core, "find_listed", None)
        first_look = self._first_look()
        batch = (
            listed(desired, self.name, owner=owner, match_tags=match, first_look=first_look)
            if listed
            else None
        )
        self._unread = isinstance(batch, Unread)  # absent without a read (see task_write)
        every = batch if batch is not None else core.find(desired, self.name, match_tags=match)
        found = [s for s in every if not self.spec.terminal(s)]
        if self.shared:
            chosen = self._one(found, desired)
            self.owned = False
        else:
            mine = [s for s in found if self._owns(context, owner, s)]
            if not mine and found:
                raise NotOwnedError(self.key, self._describe(found[0]), owner.description)
            chosen = self._one(mine, desired)
            self.owned = chosen is not None or None
        if chosen is not None and separate_reads:
            core.read_separately(chosen, desired)
        return chosen

    def _first_look(self) -> bool:
        """The task has neither seen nor made its resource (nothing observed) and has no create
        under way: nothing of its making can be anywhere, untagged or not yet visible."""
        return self._attempt is None and not self._unseen and not self.observed

    def _match(self, owner: Owner) -> dict[str, str] | None:
        """The owner's tag a find asks for: only where the kind is found by its Name tag."""
        has_id = len(self.spec.primary) == 1 and self.resource_id is not None
        by_tag = self.spec.tags is not None and "tag:Name" in self.spec.natural and not has_id
        return {owner.key: owner.value} if by_tag and not self.shared else None

    def look_early(self, context: Context) -> None:
        """Before the task runs: the read its find will make when its kind's listing cannot
        answer (a launch template found by a name unique in the account), made now and kept in
        the pass's snapshots for the find. Only what its identity needs, none of its
        dependencies (an identity that waits for one is read when the task runs); nothing on
        the task changes."""
        if self.shared or self.resource_id is not None:
            return
        core = self.pass_core(context)
        ahead = getattr(core, "read_ahead", None)
        if ahead is None or getattr(core, "snapshots", None) is None:
            return
        desired = self.desired(dry_run=True)  # a dependency's id is a placeholder: not read
        owner = self._owner(context)
        match, first_look = self._match(owner), self._first_look()
        ahead(desired, self.name, owner=owner, match_tags=match, first_look=first_look)

    def _one(self, found: list[State], desired: State) -> State | None:
        if len(found) > 1:
            ids = [self._describe(s) for s in found]
            raise MultipleMatchesError(self.key, self._how_found(desired), ids)
        return found[0] if found else None

    def _describe(self, state: State) -> str:
        ids = [str(state[p]) for p in self.spec.primary if state.get(p) is not None]
        return f"{self.spec.name} {printable('/'.join(ids)) or '?'}"

    def _owns(self, context: Context, owner: Owner, state: State) -> bool:
        """Owned: it carries the owner's tag; a kind that carries no tags is owned when the
        parent it lives in is (and it matched our identity to be found at all)."""
        tags = self.spec.tags
        if tags is not None:  # or its create token names us: made, its tag call not yet made
            return owner.owns(state.get(tags.field)) or made_by_token(self.spec, owner, state)
        parent = self.spec.owner_parent
        if parent is None:
            return True  # nothing but its identity can say: the identity matched
        holder = next(
            (getattr(self, f.attr) for f in self.spec.fields if f.name == parent.field), None
        )
        if isinstance(holder, Task):
            return bool(holder.owned)
        parent_id = state.get(parent.field) or holder
        if not parent_id:
            return False
        spec = parent.spec
        found = self.core_for(context, spec).find({spec.primary[0]: parent_id}, "")
        return bool(found) and spec.tags is not None and owner.owns(found[0].get(spec.tags.field))

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
        own = ("name", "lifecycle", "observed", "shared")  # the task's, not the cloud's
        for f in self.spec.fields:
            if f.attr in self.__dataclass_fields__ and f.attr not in own and f.name in state:
                values[f.attr] = state[f.name]
        if "id" in self.__dataclass_fields__ and len(self.spec.primary) == 1:
            values["id"] = state.get(self.spec.primary[0])
        actual = type(self)(name=self.name, lifecycle=self.lifecycle, shared=self.shared, **values)
        actual.observed = dict(state)
        return actual

    # -- check and render ------------------------------------------------------------------------

    def check_changes(self, actual: Task | None, changes: Changes) -> None:
        """A change to a create-only field cannot be applied, nor a create without a field it
        requires or with a field and its other form both set: say which, before the call."""
        if actual is None:
            require_create_fields([self])
            check_one_form(self)
            return
        fixed = [
            self.spec.field(n).attr
            for n in changes.fields
            if self.spec.field(n).mutability is not Mutability.MUTABLE
        ]
        if fixed:
            raise CannotChangeFieldError(self.key, fixed)

    def run(self, context: Context, target: Target) -> None:
        """kOps' DefaultDeltaRunMethod: find, diff, check, render."""
        if self.lifecycle is Lifecycle.IGNORE:
            return
        try:
            self._run(context, target)
        except AccessDeniedError as err:
            if self.lifecycle is Lifecycle.WARN_IF_INSUFFICIENT_ACCESS:
                target.warn(f"{self.key}: skipped, not allowed: {err}")
                return
            raise

    def _run(self, context: Context, target: Target) -> None:
        state = self.find_state(context, dry_run=target.dry_run)
        if state is not None:
            self.adopt(state)
            self._unseen = False  # seen: from now on, gone means gone
        actual = self.from_state(state) if state is not None else None
        must_exist = (Lifecycle.EXISTS_AND_VALIDATES, Lifecycle.EXISTS_AND_WARN_IF_CHANGES)
        if actual is None and (self.lifecycle in must_exist or self.shared):
            what = "shared" if self.shared else "its lifecycle says it must exist"
            raise MissingResourceError(f"{self.key}: not found, and {what}")
        # ours by its create token, its tag call never made (a run ended between): the owner's
        # marks are still to be written, as the create would have
        marks_due = (
            state is not None
            and not self.shared
            and marks_missing(self.spec, self._owner(context), state)
        )
        wanted = (
            self.to_create(context, target.dry_run)
            if actual is None or marks_due
            else self.desired(target.dry_run)
        )
        changes = Changes(self, compute_changes(self.spec, state, wanted))
        if actual is not None and not changes:
            if not target.dry_run:
                self.check_ready()
            return
        if self.lifecycle is Lifecycle.EXISTS_AND_VALIDATES or self.shared:
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
        value = self.spec.readiness_value(self.observed)
        if self.spec.terminal(self.observed):
            raise TaskError(
                f"{self.key}: {readiness.field} is {value!r}; it will not become"
                f" {readiness.ready or 'ready'}"
            )
        if value is not None and readiness.ready is not None and value != readiness.ready:
            raise TryAgainLater(
                f"{self.key}: {readiness.field} is {value!r}, waiting for {readiness.ready!r}"
            )

    def render_cloud(self, target: Target, actual: Task | None, changes: Changes) -> None:
        """Create or change the resource on the cloud, then read back what was written and
        report what still differs (:mod:`.task_write`)."""
        render_cloud(self, target, actual, changes)

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
        """Delete the resource if it exists and is ours; True when there was one. ``located``:
        a :meth:`locate` just ran, so what it found (or did not) stands."""
        if self.lifecycle is not Lifecycle.SYNC or self.shared:
            return False
        if not located and not self.locate(context):
            return False
        if not self.observed or not self.owned:
            return False
        try:
            target.remove(self, self.observed)
        except OutcomeUnknownError as err:
            self.locate(context)  # gone, or still there: the next attempt knows
            raise TryAgainLater(f"{self.key}: {err}; looked again") from None
        if not target.dry_run:
            self.observed = {}
            self._attempt = None  # a later create is a new logical attempt
            self._unseen = False
            if hasattr(self, "id"):
                object.__setattr__(self, "id", None)
        return True
