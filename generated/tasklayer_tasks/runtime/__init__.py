"""The tasklayer runtime: kOps ``fi`` semantics in Python, shared by every generated task.

Copied verbatim into the generated package by ``tasklayer generate``; edit it under
``templates/runtime/`` in the tasklayer repository, never in ``generated/``.
"""

from .contract.context import Context
from .contract.errors import (
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
from .contract.names import resource_name, truncate_name
from .contract.ownership import Owner
from .kops.executor import Executor
from .kops.lifecycle import Lifecycle
from .kops.nested import Joined
from .kops.report import Action, Report, TaskReport
from .kops.targets import CloudTarget, DryRunTarget, Plan
from .kops.task import Changes, Task
from .wiring.aws import AwsTask

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
