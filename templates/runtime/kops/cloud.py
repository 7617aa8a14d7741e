"""What the cloud target does with a task, through the engine (docs/architecture.md, "apply").

Render: create (once per logical attempt) or change, then verify; what still differs is a
:class:`~..contract.errors.NotConvergedError` naming the task's attributes. Remove: delete
what the task located, only when the cluster owns it. Look early: the read a task's find will
need, made before its turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..contract.context import Context
from ..contract.errors import NotConvergedError, TryAgainLater
from ..contract.state import State
from ..engine import Plan, creation_state
from ..engine import apply as engine_apply
from ..engine import delete as engine_delete
from ..engine import look_early as engine_look_early
from .task import Changes, Target, Task
from .translate import forget_id, keep_id, record_of, subject_of


@dataclass(frozen=True)
class _TaskFace:
    """The engine's questions, answered in the task's terms."""

    task: Task
    target: Target

    def desired_now(self) -> State:
        return self.task.desired()

    def seen(self, state: State) -> None:
        keep_id(self.task, state)

    def identified(self, identity: State, returned: Mapping[str, Any]) -> None:
        keep_id(self.task, identity)
        self.target.created(self.task, {**identity, **returned})


def render_cloud(task: Task, target: Target, actual: Task | None, changes: Changes) -> None:
    """Create or change the resource, then read back what was written and raise
    :class:`NotConvergedError` naming what still differs."""
    subject = subject_of(task, target.context)
    found = actual.observed if actual is not None else None
    wanted = (
        creation_state(task.spec, task.desired(), task.name, subject.owner)
        if actual is None
        else task.desired()
    )
    plan = Plan(actual is None, dict(changes.fields), (), wanted)
    outcome = engine_apply(subject, _TaskFace(task, target), found, plan)
    if outcome.remaining:
        raise NotConvergedError(task.key, [task.spec.field(n).attr for n in outcome.remaining])


def remove(task: Task, context: Context, state: State) -> None:
    """Delete what the task located (only what is owned: the locate just verified it)."""
    try:
        engine_delete(subject_of(task, context), state)
    except TryAgainLater:
        # the delete's answer was lost: the executor tries this task again as located, so what
        # it finds (gone, or still there) is looked for now
        if record_of(task).stale:
            task.locate(context)
        raise
    if not record_of(task).observed:
        forget_id(task)


def look_early(task: Task, context: Context) -> None:
    """Before the task runs: the read its find will make when its kind's listing cannot answer,
    made now and kept in the pass's snapshots. Nothing on the task changes."""
    if task.shared or task.resource_id is not None or context.snapshots is None:
        return
    engine_look_early(subject_of(task, context), task.desired(dry_run=True))
