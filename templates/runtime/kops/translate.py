"""A task's pass in the engine's terms (docs/architecture.md, "faces"): what a task declares
becomes the engine's desired state (references resolved to what their tasks hold; the
resource's own name from the task's name while it is found by it), the task and its context
the engine's :class:`~..engine.subject.Subject`, what the engine found the task's ``observed``
and id. What the engine remembers of a task between its runs is a
:class:`~..engine.record.Record` kept here, beside the task (:func:`record_of`), not on it.

Typed over :class:`TaskLike` (what :class:`.task.Task` is), so that this module sits below it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Protocol, TypeVar
from weakref import WeakKeyDictionary

from ..contract.adapter import Core
from ..contract.context import Context
from ..contract.errors import TaskError, TryAgainLater
from ..contract.ownership import Owner
from ..contract.spec import FieldSpec, Mutability, ResourceSpec
from ..contract.state import Placeholder, State
from ..engine import Record, Subject, locate, readiness
from .lifecycle import Lifecycle
from .nested import Node, resolved


class TaskLike(Protocol):
    """A task, as the translation reads it."""

    spec: ClassVar[ResourceSpec]
    name: str
    lifecycle: Lifecycle
    shared: bool
    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def key(self) -> str:
        """As :attr:`.task.Task.key`."""

    @property
    def resource_id(self) -> str | None:
        """As :attr:`.task.Task.resource_id`."""

    @property
    def observed(self) -> State:
        """As :attr:`.task.Task.observed`."""

    @property
    def owned(self) -> bool | None:
        """As :attr:`.task.Task.owned`."""

    def owner(self, context: Context) -> Owner:
        """As :meth:`.task.Task.owner`."""

    def desired(self, dry_run: bool = False) -> State:
        """As :meth:`.task.Task.desired`."""

    def core(self, context: Context) -> Core:
        """As :meth:`.task.Task.core`."""

    def core_for(self, context: Context, spec: ResourceSpec) -> Core:
        """As :meth:`.task.Task.core_for`."""

    def reference_to(self, holder: FieldSpec, task: Any) -> str | None:
        """As :meth:`.task.Task.reference_to`."""


T = TypeVar("T", bound=TaskLike)

_RECORDS: WeakKeyDictionary[Any, Record] = WeakKeyDictionary()


def record_of(task: TaskLike) -> Record:
    """What the engine remembers of ``task`` (made on first use; a copy of a task starts afresh)."""
    record = _RECORDS.get(task)
    if record is None:
        record = _RECORDS.setdefault(task, Record())
    return record


def field_value_named(task: TaskLike, attr: str) -> Any:
    """The generated dataclass's attribute ``attr`` (data, by field name), None when the class
    declares no such attribute."""
    if attr not in task.__dataclass_fields__:
        return None
    return getattr(task, attr)


def declared_values(task: TaskLike) -> dict[str, Any]:
    """The task's declared values, by attribute, for the fields its class declares."""
    return {
        f.attr: field_value_named(task, f.attr)
        for f in task.spec.fields
        if f.attr in task.__dataclass_fields__
    }


def owner_of(task: TaskLike, context: Context) -> Owner:
    """The owner of what ``task`` creates (the context's own, else the task's convention),
    narrowed by the context's ``owner_marks``; a context without a cluster is refused."""
    if not context.cluster:
        raise TaskError(
            f"{task.key}: Context.cluster is not set; tasks tag what they create as the cluster's"
        )
    owner, marks = context.owner or task.owner(context), context.owner_marks
    return owner.within(marks) if marks else owner


def pass_core(task: TaskLike, context: Context) -> Core:
    """The task's adapter, sharing the pass's batched reads (its finds may be served from them,
    and its writes drop what they make stale) and its call count (where the adapter counts the
    calls it sends; AWS's are counted by botocore's hook instead)."""
    core = task.core(context)
    core.snapshots = context.snapshots
    core.calls = context.calls
    return core


def subject_of(task: TaskLike, context: Context, core: Core | None = None) -> Subject:
    """The task as the engine sees it, in one pass."""
    parent = task.spec.owner_parent
    holder = field_value_named(task, parent_attr(task.spec)) if parent is not None else None
    return Subject(
        spec=task.spec,
        adapter=core if core is not None else pass_core(task, context),
        owner=owner_of(task, context),
        name=task.name,
        key=task.key,
        record=record_of(task),
        retry=context.retry,
        snapshots=context.snapshots,
        shared=task.shared,
        adapter_for=lambda spec: task.core_for(context, spec),
        # a parent task ran before this one: it knows whether the cluster owns it
        parent_owned=bool(holder.owned) if isinstance(holder, Node) else None,
        parent_id=None if isinstance(holder, Node) else holder,
    )


def parent_attr(spec: ResourceSpec) -> str:
    """The task attribute holding the parent a tag-less kind is owned through ("" if none)."""
    parent = spec.owner_parent
    return next((f.attr for f in spec.fields if parent and f.name == parent.field), "")


def desired_state(task: TaskLike, dry_run: bool = False) -> State:
    """What the task declares, by API name; tags are the task's own."""
    state: State = {}
    for f in task.spec.fields:
        if f.mutability is Mutability.READ_ONLY:
            continue  # the cloud's to say (an id, below, comes from what was found)
        value = resolved(_declared(task, f), _reference_in(task, f, dry_run))
        if value is not None:
            state[f.name] = value
    if len(task.spec.primary) == 1 and task.resource_id is not None:
        state[task.spec.primary[0]] = task.resource_id
    return state


def _reference_in(task: TaskLike, f: FieldSpec, dry_run: bool) -> Callable[[Node], Any]:
    """How a task inside field ``f`` is written: its id, or (none yet) the dry run's
    placeholder or a wait."""

    def reference(v: Node) -> Any:
        return (isinstance(v, Node) and task.reference_to(f, v)) or _unresolved(task, v, dry_run)

    return reference


def _declared(task: TaskLike, f: FieldSpec) -> Any:
    """The field as set; the resource's own name (a security group's GroupName), when not set,
    is the task's name while the resource is found by it. Once its id is known the name is the
    cloud's to say: an adopted resource is never renamed."""
    value = field_value_named(task, f.attr)
    if value is None and f.from_task_name and task.resource_id is None:
        return task.name
    return value


def _unresolved(task: TaskLike, dependency: Node, dry_run: bool) -> str:
    key = dependency.key
    if dry_run:
        return Placeholder(f"<id of {key}>")
    raise TryAgainLater(f"{task.key}: waiting for {key} to have an id")


def find_state(
    task: TaskLike, context: Context, dry_run: bool = False, separate_reads: bool = True
) -> State | None:
    """The live resource this task manages, or None (:func:`..engine.locate.locate`)."""
    desired = task.desired(dry_run)
    if any(isinstance(v, Placeholder) for v in desired.values()):
        return None  # its parent does not exist yet, so neither does it
    return locate(subject_of(task, context), desired, separate_reads)


def adopt(task: TaskLike, state: State) -> None:
    """Remember the resource this task now manages, as read."""
    keep_id(task, state)
    record_of(task).seen(state)


def keep_id(task: TaskLike, state: State) -> None:
    """The task's ``id``: the primary id of what it manages (single-id kinds)."""
    primary = task.spec.primary
    if len(primary) == 1 and "id" in task.__dataclass_fields__:
        if state.get(primary[0]) is not None:
            object.__setattr__(task, "id", state[primary[0]])


def forget_id(task: TaskLike) -> None:
    """Deleted: the task's ``id`` names nothing any more."""
    if "id" in task.__dataclass_fields__:
        object.__setattr__(task, "id", None)


def from_state(task: T, state: State) -> T:
    """A task of the same kind holding what the cloud has (kOps' ``actual``)."""
    values: dict[str, Any] = {}
    own = ("name", "lifecycle", "shared")  # the task's, not the cloud's
    for f in task.spec.fields:
        if f.attr in task.__dataclass_fields__ and f.attr not in own and f.name in state:
            values[f.attr] = state[f.name]
    if "id" in task.__dataclass_fields__ and len(task.spec.primary) == 1:
        values["id"] = state.get(task.spec.primary[0])
    kind: Any = type(task)  # the generated dataclass: its fields are keyword arguments
    actual: T = kind(name=task.name, lifecycle=task.lifecycle, shared=task.shared, **values)
    record_of(actual).observed = dict(state)
    return actual


def raise_unless_ready(task: TaskLike) -> None:
    """A resource still being made (a NAT gateway ``pending``) makes its dependents wait: the
    executor tries this task again later; one that will never be ready is an error."""
    ready = readiness(task.spec, task.observed)
    if ready.failed:
        raise TaskError(
            f"{task.key}: {ready.field} is {ready.value!r}; it will not become"
            f" {ready.wanted or 'ready'}"
        )
    if not ready.ready:
        raise TryAgainLater(
            f"{task.key}: {ready.field} is {ready.value!r}, waiting for {ready.wanted!r}"
        )
