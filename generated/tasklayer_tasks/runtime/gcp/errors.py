"""googleapiclient's errors, translated into the runtime's taxonomy at the GCP boundary: the
HTTP status and the error's ``reason`` decide the kind, so nothing above the GCP core sees an
``HttpError`` or looks for words in a message."""

from __future__ import annotations

import json
import socket
from typing import Any

from ..contract.errors import (
    AccessDeniedError,
    CloudError,
    ConflictError,
    InUseError,
    InvalidRequestError,
    MalformedResponseError,
    NotFoundError,
    OutcomeUnknownError,
    PreconditionFailedError,
    ThrottledError,
    UnavailableError,
)

RATE_REASONS = frozenset(
    {"rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded", "RATE_LIMIT_EXCEEDED"}
)
IN_USE_REASONS = frozenset({"resourceInUseByAnotherResource", "resourceInUse", "resourceNotReady"})


def details(err: Any) -> tuple[int, str, str]:
    """(status, reason, message) of an HttpError, whatever shape its body has."""
    status = int(getattr(getattr(err, "resp", None), "status", 0) or 0)
    content = getattr(err, "content", b"")
    try:
        body = json.loads(content.decode("utf-8") if isinstance(content, bytes) else str(content))
    except (ValueError, UnicodeDecodeError):
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):  # not Google's error shape: report the body as it came
        text = content.decode("utf-8", "replace") if isinstance(content, bytes) else str(content)
        return status, "", text[:500]
    reasons = [e.get("reason", "") for e in error.get("errors") or [] if isinstance(e, dict)]
    reason = next((r for r in reasons if r), str(error.get("status", "")))
    return status, reason, str(error.get("message", ""))


def translate(err: Exception, operation: str) -> Exception:
    """The taxonomy error for a googleapiclient / transport error (others come back unchanged)."""
    if type(err).__name__ == "HttpError" and hasattr(err, "resp"):
        status, reason, message = details(err)
        return _kind(status, reason)(operation, reason or str(status), message, status)
    if isinstance(err, (ConnectionRefusedError, socket.gaierror)):
        return UnavailableError(operation, type(err).__name__, str(err))  # never reached Google
    if isinstance(err, (TimeoutError, ConnectionError, OSError)):
        return OutcomeUnknownError(operation, type(err).__name__, str(err))
    if type(err).__module__.startswith("httplib2"):
        return OutcomeUnknownError(operation, type(err).__name__, str(err))
    return err


def _kind(status: int, reason: str) -> type[CloudError]:
    if status == 429 or reason in RATE_REASONS:
        return ThrottledError
    if status == 404:
        return NotFoundError
    if status == 403 or status == 401:
        return AccessDeniedError
    if status == 409:
        return ConflictError
    if status == 412:
        return PreconditionFailedError
    if reason in IN_USE_REASONS:
        return InUseError
    if status >= 500:
        return OutcomeUnknownError
    return InvalidRequestError


# the error codes a compute Operation carries, by the taxonomy's kinds
OPERATION_CODES: dict[str, type[CloudError]] = {
    "RESOURCE_IN_USE_BY_ANOTHER_RESOURCE": InUseError,
    "RESOURCE_NOT_READY": InUseError,
    "RESOURCE_NOT_FOUND": NotFoundError,
    "NOT_FOUND": NotFoundError,
    "ALREADY_EXISTS": ConflictError,
    "RESOURCE_ALREADY_EXISTS": ConflictError,
    "CONDITION_NOT_MET": PreconditionFailedError,
    "RATE_LIMIT_EXCEEDED": ThrottledError,
    "PERMISSION_DENIED": AccessDeniedError,
    "FORBIDDEN": AccessDeniedError,
}


# google.rpc.Code, the ``code`` of a google.longrunning operation's ``error`` (a Status)
STATUS_CODES: dict[int, str] = {
    5: "NOT_FOUND",
    6: "ALREADY_EXISTS",
    7: "PERMISSION_DENIED",
    8: "RESOURCE_EXHAUSTED",
    9: "FAILED_PRECONDITION",
}
STATUS_KINDS: dict[str, type[CloudError]] = {
    "RESOURCE_EXHAUSTED": ThrottledError,
    # "the system is not in a state required for the operation's execution. For example, the
    # directory to be deleted is non-empty": what a delete of a resource still in use gets
    "FAILED_PRECONDITION": InUseError,
}


def operation_error(operation: str, error: Any) -> Exception:
    """The error a finished operation reports (compute's ``error.errors[]``: ``{code,
    message}``; google.longrunning's ``error``, a google.rpc.Status ``{code: int, message}``),
    as a taxonomy kind; an ``error`` of any other shape is reported as malformed, not guessed at."""
    if isinstance(error, dict) and isinstance(error.get("code"), int) and "errors" not in error:
        code = STATUS_CODES.get(error["code"], str(error["code"]))
        kind = STATUS_KINDS.get(code) or OPERATION_CODES.get(code, CloudError)
        return kind(operation, code, f"{code}: {error.get('message', '')}")
    errors = error.get("errors") if isinstance(error, dict) else None
    if not isinstance(errors, list) or not errors or not all(isinstance(e, dict) for e in errors):
        return MalformedResponseError(
            operation, "error", f"not an operation error: {str(error)[:300]!r}"
        )
    codes = [str(e.get("code", "")) for e in errors]
    message = "; ".join(f"{e.get('code', '')}: {e.get('message', '')}" for e in errors)
    kind = next((OPERATION_CODES[c] for c in codes if c in OPERATION_CODES), CloudError)
    return kind(operation, codes[0], message)
