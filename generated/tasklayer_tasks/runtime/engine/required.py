"""What a create needs, checked from the tasks alone before any call.

A field the create requires and nobody set would be refused by the cloud only when that create
is sent: after the tasks before it were created (a VPC and a subnet made, then the security
group refused). An executor's run checks its whole graph first, so the error comes before any
call and names every missing field of every task at once. A field and the fields it repeats in
another form (a security group rule's ``ip_permissions`` beside ``from_port``) are not both set
in a create (a change to an existing rule is refused as any create-only change is).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..contract.errors import MissingFieldsError, TaskError
from ..kops.lifecycle import Lifecycle

if TYPE_CHECKING:
    from ..kops.task import Task

_CREATING = (Lifecycle.SYNC, Lifecycle.WARN_IF_INSUFFICIENT_ACCESS)


def missing_fields(task: Task) -> list[str]:
    """The attributes the task's create requires that are not set and that nothing else fills
    in: a reference holds its task, the task's name fills the resource's own name, tags and
    tokens are the runtime's. None for a task that never creates (shared, or a lifecycle that
    only looks)."""
    if task.shared or task.lifecycle not in _CREATING:
        return []
    return [
        f.attr
        for f in task.spec.fields
        if f.required
        and not f.from_task_name
        and f.attr in task.__dataclass_fields__
        and getattr(task, f.attr) is None
    ]


def check_one_form(task: Task) -> None:
    """A field and the fields it repeats in another form are not both set: which one the
    create sends would be a guess."""
    for f in task.spec.fields:
        others = [task.spec.field(n).attr for n in f.other_form_of]
        given = [a for a in others if getattr(task, a, None) is not None]
        if given and getattr(task, f.attr, None) is not None:
            raise TaskError(
                f"{task.key}: give {f.attr} or {', '.join(others)}, not both"
                f" ({', '.join(given)} set beside {f.attr})"
            )


def require_create_fields(tasks: Iterable[Task]) -> None:
    """Every field the create of any of ``tasks`` requires and nothing fills: one error naming
    them all."""
    missing = {t.key: fields for t in tasks if (fields := missing_fields(t))}
    if missing:
        raise MissingFieldsError(missing)
