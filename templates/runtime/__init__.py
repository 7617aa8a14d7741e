"""The tasklayer runtime: kOps ``fi`` semantics in Python, shared by every generated task.

Copied verbatim into the generated package by ``tasklayer generate``; edit it under
``templates/runtime/`` in the tasklayer repository, never in ``generated/``.
"""

from .errors import (
    CannotChangeFieldError,
    DependencyCycleError,
    MultipleMatchesError,
    NotConvergedError,
    TaskError,
    TryAgainLater,
)
from .executor import Executor
from .lifecycle import Lifecycle
from .targets import CloudTarget, DryRunTarget, Plan
from .task import AwsTask, Changes, Context, Task

__all__ = [
    "AwsTask",
    "CannotChangeFieldError",
    "Changes",
    "CloudTarget",
    "Context",
    "DependencyCycleError",
    "DryRunTarget",
    "Executor",
    "Lifecycle",
    "MultipleMatchesError",
    "NotConvergedError",
    "Plan",
    "Task",
    "TaskError",
    "TryAgainLater",
]
