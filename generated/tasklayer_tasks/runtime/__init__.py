"""The tasklayer runtime: kOps ``fi`` semantics in Python, shared by every generated task.

Copied verbatim into the generated package by ``tasklayer generate``; edit it under
``templates/runtime/`` in the tasklayer repository, never in ``generated/``.
"""

from .aws_task import AwsTask
from .context import Context
from .errors import (
    AccessDeniedError,
    CannotChangeFieldError,
    CloudError,
    ConflictError,
    DependencyCycleError,
    InUseError,
    InvalidRequestError,
    MalformedResponseError,
    MissingFieldsError,
    MissingResourceError,
    MultipleMatchesError,
    NotConvergedError,
    NotFoundError,
    NotOwnedError,
    OutcomeUnknownError,
    PreconditionFailedError,
    TaskError,
    ThrottledError,
    TryAgainLater,
    UnavailableError,
)
from .executor import Executor
from .lifecycle import Lifecycle
from .names import resource_name, truncate_name
from .nested import Joined
from .ownership import Owner
from .report import Action, Report, TaskReport
from .targets import CloudTarget, DryRunTarget, Plan
from .task import Changes, Task

__all__ = [
    "AccessDeniedError",
    "Action",
    "AwsTask",
    "CannotChangeFieldError",
    "Changes",
    "CloudError",
    "CloudTarget",
    "ConflictError",
    "Context",
    "DependencyCycleError",
    "DryRunTarget",
    "Executor",
    "InUseError",
    "InvalidRequestError",
    "Joined",
    "Lifecycle",
    "MalformedResponseError",
    "MissingFieldsError",
    "MissingResourceError",
    "MultipleMatchesError",
    "NotConvergedError",
    "NotFoundError",
    "NotOwnedError",
    "OutcomeUnknownError",
    "Owner",
    "Plan",
    "Report",
    "PreconditionFailedError",
    "Task",
    "TaskError",
    "TaskReport",
    "ThrottledError",
    "TryAgainLater",
    "UnavailableError",
    "resource_name",
    "truncate_name",
]
