"""Errors a task run can end with, and the cloud-neutral error taxonomy.

Task errors name the task (``Kind/name``) they are about. Cloud errors are what a provider core
turns its SDK's errors into at its boundary (botocore error codes, googleapiclient HTTP statuses
and reasons); nothing above the cores ever sees an SDK exception.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence


class TaskError(Exception):
    """A task cannot reach its desired state."""


class TryAgainLater(TaskError):
    """Not an error yet: a dependency is not ready, a resource is still pending. The executor
    retries the task quietly until its deadline."""


class CannotChangeFieldError(TaskError):
    """A change to a field only a create can set: refused before any call, naming the fields."""

    def __init__(self, task: str, fields: Sequence[str]) -> None:
        self.task, self.fields = task, tuple(fields)
        names = ", ".join(self.fields)
        super().__init__(
            f"{task}: cannot change {names}: it can only be set when the resource is created"
        )


class MissingFieldsError(TaskError):
    """Fields the create requires are not set, on one task or several: found before any call,
    so nothing is half made (a VPC and a subnet created, then the security group refused)."""

    def __init__(self, missing: Mapping[str, Sequence[str]]) -> None:
        self.missing = {task: tuple(attrs) for task, attrs in missing.items()}
        listed = "; ".join(f"{task}: {', '.join(attrs)}" for task, attrs in self.missing.items())
        super().__init__(f"required to create, but not set: {listed}")


class MultipleMatchesError(TaskError):
    """More than one live resource has the task's identity: which one is meant cannot be told,
    so none is changed."""

    def __init__(self, task: str, how: str, ids: Iterable[str]) -> None:
        super().__init__(f"{task}: found more than one resource {how}: {', '.join(sorted(ids))}")


class NotOwnedError(TaskError):
    """A resource with the task's identity exists, but this cluster does not own it: it is never
    adopted, changed or deleted. Declare the task ``shared`` to use it as it is."""

    def __init__(self, task: str, resource: str, owner: str) -> None:
        self.task, self.resource = task, resource
        super().__init__(
            f"{task}: {resource} exists but is not owned by {owner}; "
            "it is left alone (declare the task shared to use it without changing it)"
        )


class NotConvergedError(TaskError):
    """After an apply, the read-back still differs from the desired state in these fields."""

    def __init__(self, task: str, fields: Sequence[str]) -> None:
        self.task, self.fields = task, tuple(fields)
        super().__init__(f"{task}: still differs after apply: {', '.join(self.fields)}")


class DependencyCycleError(TaskError):
    """Tasks that depend on each other in a cycle: no order runs them."""

    def __init__(self, cycle: Sequence[str]) -> None:
        self.cycle = tuple(cycle)
        super().__init__("tasks depend on each other in a cycle: " + " -> ".join(self.cycle))


class MissingResourceError(TaskError):
    """A task whose lifecycle says the resource must exist did not find it."""


class MalformedResponseError(TaskError):
    """An answer that does not have the shape the model says: never taken as "not found"."""

    def __init__(self, operation: str, path: str, reason: str) -> None:
        self.operation, self.path = operation, path
        super().__init__(f"{operation}: unexpected response at {path}: {reason}")


# -- the cloud-neutral taxonomy -------------------------------------------------------------------


class CloudError(TaskError):
    """A cloud API call failed. ``operation`` is the API's name for the call (``CreateVpc``,
    ``compute.networks.insert``), ``code`` the cloud's own error code or reason, ``status`` the
    HTTP status when there was one. Messages are the cloud's, with sensitive values redacted."""

    def __init__(self, operation: str, code: str, message: str, status: int = 0) -> None:
        self.operation, self.code, self.message, self.status = operation, code, message, status
        detail = f"{code}: {message}" if code and message else (code or message)
        super().__init__(f"{operation}: {detail}")


class NotFoundError(CloudError):
    """The resource (or one the call names) does not exist."""


class ThrottledError(CloudError):
    """Rate limited: the call was refused, not carried out; safe to send again after a pause."""


class AccessDeniedError(CloudError):
    """The credentials may not make this call."""


class InUseError(CloudError):
    """Something still depends on the resource (EC2 ``DependencyViolation``, GCP
    ``resourceInUseByAnotherResource``)."""


class ConflictError(CloudError):
    """It already exists, or another change conflicts with this one."""


class PreconditionFailedError(CloudError):
    """An optimistic lock (a GCP fingerprint) no longer matches: re-read and recompute."""


class InvalidRequestError(CloudError):
    """The cloud refused the request as malformed or invalid: sending it again will not help."""


class UnavailableError(CloudError):
    """The service failed before it could have acted (no connection was made): safe to resend."""


class OutcomeUnknownError(CloudError):
    """The request was sent, but no trustworthy answer came back (a timeout, a reset connection,
    a 5xx): it may or may not have been carried out. A mutating call is never simply sent again:
    the runtime finds first (by ownership and the attempt's marker), or resends the same
    idempotency token."""
