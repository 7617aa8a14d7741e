"""What a run did: per task what was found and what was done, the calls it made (reads and
writes, counted as they are sent: :class:`CallCount`), and how long it took.

``Executor.run`` and ``Executor.delete`` return a :class:`Report`; each change is also logged
at INFO on the ``tasklayer`` logger as it is made (field names only: values may be secret).
``Report.format()`` is the summary ``kops update cluster --yes`` prints.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from ..contract.calls import CallCount
from ..contract.state import State

if TYPE_CHECKING:
    from .targets import Target
    from .task import Changes, Context, Task

__all__ = ["Action", "CallCount", "Report", "TaskReport"]

log = logging.getLogger("tasklayer")


class Action(str, Enum):
    """What a run did to one task's resource (on a dry run: what it would do)."""

    CREATED = "created"
    """Not found, so created."""
    UPDATED = "updated"
    """Found and changed to match the task."""
    DELETED = "deleted"
    """Found and deleted (a delete, or a prune)."""
    UNCHANGED = "unchanged"
    """Found as declared (a delete: found and kept, not ours to remove)."""
    ABSENT = "absent"
    """Not there, and nothing made (a delete of what is gone; an ignored task)."""


_CHANGES = (Action.CREATED, Action.UPDATED, Action.DELETED)


@dataclass(frozen=True)
class TaskReport:
    """One task's line of a :class:`Report`: its key, its action, whether its resource was
    there before the run, and the attributes an update changed."""

    key: str
    """The task's key as kOps writes it, ``<Kind>/<name>``."""
    action: Action
    """What the run did to the task's resource."""
    found: bool
    """The task's resource existed before the run changed anything."""
    fields: tuple[str, ...] = ()
    """The task attributes an update changed (empty for any other action)."""


@dataclass(frozen=True)
class Report:
    """One run's account. On a dry run the actions are what it would do, and no write is made."""

    tasks: tuple[TaskReport, ...]
    """One line per task: the caller's, in its order, then the dependencies it did not list,
    then what was pruned."""
    reads: int
    """The read calls the run sent (finds, listings)."""
    writes: int
    """The mutating calls the run sent (none on a dry run)."""
    seconds: float
    """How long the run took."""
    dry_run: bool = False
    """The actions are what the run would do; no write was made."""

    def of(self, action: Action) -> list[TaskReport]:
        """The tasks whose action was ``action``, in the report's order."""
        return [t for t in self.tasks if t.action is action]

    @property
    def changed(self) -> bool:
        """Something was created, updated or deleted (or would be, on a dry run)."""
        return any(t.action in _CHANGES for t in self.tasks)

    def format(self) -> str:
        """Like ``kops update cluster --yes``: what was created, modified and deleted, then one
        line with the counts, the calls and the time."""
        out: list[str] = []
        for action, planned, made in (
            (Action.CREATED, "Will create resources:", "Created resources:"),
            (Action.UPDATED, "Will modify resources:", "Modified resources:"),
            (Action.DELETED, "Will delete resources:", "Deleted resources:"),
        ):
            done = self.of(action)
            if done:
                out.append(planned if self.dry_run else made)
                out.extend(
                    f"  {t.key}{': ' + ', '.join(t.fields) if t.fields else ''}"
                    for t in sorted(done, key=lambda t: t.key)
                )
                out.append("")
        out.append(self.summary())
        return "\n".join(out) + "\n"

    def summary(self) -> str:
        """One line: how many tasks each action took, the reads and writes, the time."""
        counts = ", ".join(
            f"{len(self.of(a))} {a.value}" for a in Action if self.of(a) or a in _CHANGES
        )
        if not self.changed:
            head = "No changes"
        elif self.dry_run:
            head = "Changes planned, none made"
        else:
            head = "Cluster changes have been applied to the cloud"
        return f"{head}: {counts}; {self.reads} reads, {self.writes} writes in {self.seconds:.1f}s"


@dataclass
class Recording:
    """A target that passes everything to ``target`` and notes, per task, what was rendered or
    removed there (after it returned: a change that raised is not reported as made), logging
    each change as it is made."""

    target: Target
    rendered: dict[Task, tuple[Action, tuple[str, ...]]] = field(default_factory=dict)
    found: dict[Task, bool] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    dry_run: bool = field(init=False)
    context: Context = field(init=False)

    def __post_init__(self) -> None:
        self.dry_run, self.context = self.target.dry_run, self.target.context

    def render(self, task: Task, actual: Task | None, changes: Changes) -> None:
        """Render on the target, then note it as created (``actual`` None) or updated."""
        self.target.render(task, actual, changes)
        attrs = tuple(task.spec.field(n).attr for n in changes.fields) if actual is not None else ()
        action = Action.CREATED if actual is None else Action.UPDATED
        with self._lock:
            first, before = self.rendered.get(task, (action, ()))
            self.rendered[task] = (first, tuple(dict.fromkeys((*before, *attrs))))
            self.found.setdefault(task, actual is not None)
        if not self.dry_run:
            log.info("%s %s%s", action.value, task.key, f": {', '.join(attrs)}" if attrs else "")

    def created(self, task: Task, identity: State) -> None:
        """Passed on to the target (the id the moment the create returned)."""
        self.target.created(task, identity)

    def remove(self, task: Task, state: State) -> None:
        """Remove on the target, then note it as deleted."""
        self.target.remove(task, state)
        with self._lock:
            self.rendered[task] = (Action.DELETED, ())
            self.found[task] = True
        if not self.dry_run:
            log.info("deleted %s", task.key)

    def warn(self, message: str) -> None:
        """Passed on to the target."""
        self.target.warn(message)

    def report(self, tasks: list[Task], calls: tuple[int, int], seconds: float) -> Report:
        """Every task's line: what was rendered or removed, else unchanged when it was found
        (it holds what it observed) and absent when not."""
        lines = []
        for task in tasks:
            action, attrs = self.rendered.get(
                task, (Action.UNCHANGED if task.observed else Action.ABSENT, ())
            )
            found = self.found.get(task, bool(task.observed))
            lines.append(TaskReport(task.key, action, found, attrs))
        return Report(tuple(lines), calls[0], calls[1], seconds, self.dry_run)
