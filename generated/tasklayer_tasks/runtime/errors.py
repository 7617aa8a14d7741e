"""Errors a task run can end with. Each names the task (``Kind/name``) it is about."""

from __future__ import annotations

from typing import Iterable, Sequence


class TaskError(Exception):
    """A task cannot reach its desired state."""


class TryAgainLater(TaskError):
    """Not an error yet: a dependency is not ready, a resource is still pending. The executor
    retries the task quietly until its deadline."""


class CannotChangeFieldError(TaskError):
    def __init__(self, task: str, fields: Sequence[str]) -> None:
        self.task, self.fields = task, tuple(fields)
        names = ", ".join(self.fields)
        super().__init__(
            f"{task}: cannot change {names}: it can only be set when the resource is created"
        )


class MultipleMatchesError(TaskError):
    def __init__(self, task: str, how: str, ids: Iterable[str]) -> None:
        super().__init__(f"{task}: found more than one resource {how}: {', '.join(sorted(ids))}")


class NotConvergedError(TaskError):
    def __init__(self, task: str, fields: Sequence[str]) -> None:
        self.task, self.fields = task, tuple(fields)
        super().__init__(f"{task}: still differs after apply: {', '.join(self.fields)}")


class DependencyCycleError(TaskError):
    def __init__(self, cycle: Sequence[str]) -> None:
        self.cycle = tuple(cycle)
        super().__init__("tasks depend on each other in a cycle: " + " -> ".join(self.cycle))


class MissingResourceError(TaskError):
    """A task whose lifecycle says the resource must exist did not find it."""
