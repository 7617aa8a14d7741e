"""botocore's errors, translated into the runtime's taxonomy at the AWS boundary (as CAPA's
``awserrors`` does): nothing above the AWS core sees a ``ClientError``.

A botocore ``ParamValidationError`` quotes the offending value, which may be a secret: its
values are redacted before the message travels on.
"""

from __future__ import annotations

import re
from typing import Any

from botocore.exceptions import (
    ClientError,
    ConnectTimeoutError,
    EndpointConnectionError,
    HTTPClientError,
    NoCredentialsError,
    ParamValidationError,
    ReadTimeoutError,
)

from ..contract.errors import (
    AccessDeniedError,
    CloudError,
    ConflictError,
    InUseError,
    InvalidRequestError,
    NotFoundError,
    OutcomeUnknownError,
    ThrottledError,
    UnavailableError,
)

THROTTLING_CODES = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "ThrottledException",
        "RequestLimitExceeded",
        "RequestThrottled",
        "RequestThrottledException",
        "TooManyRequestsException",
        "SlowDown",
        "PriorRequestNotComplete",
        "EC2ThrottledException",
        "BandwidthLimitExceeded",
    }
)
SERVER_CODES = frozenset({"InternalError", "InternalFailure", "ServiceUnavailable", "Unavailable"})
ACCESS_DENIED_CODES = frozenset(
    {
        "AccessDenied",
        "AccessDeniedException",
        "UnauthorizedOperation",
        "AuthorizationError",
        "Forbidden",
    }
)
IN_USE_CODES = frozenset(
    {"DependencyViolation", "ResourceInUse", "ResourceInUseException", "DeleteConflict"}
)
CONFLICT_SUFFIXES = (
    "AlreadyExists",
    "AlreadyExistsException",
    ".Duplicate",
    "AlreadyAssociated",
    "EntityAlreadyExists",
)
_VALUE = re.compile(r"value: .*?, type", re.DOTALL)


def _is_not_found(code: str, extra: tuple[str, ...]) -> bool:
    # a HEAD answer has no body to name an error: botocore gives its status as the code
    # (HeadBucket on a missing bucket: "404")
    return (
        code in extra
        or code == "404"
        or code.endswith(
            ("NotFound", ".NotFound", "NotFoundException", "NotFoundError", "NoSuchEntity")
        )
        or code.startswith("NoSuch")
    )


def translate(err: Exception, operation: str, not_found_codes: tuple[str, ...] = ()) -> Exception:
    """The taxonomy error for a botocore error (other exceptions are returned unchanged)."""
    if isinstance(err, ClientError):
        return _client_error(err, operation, not_found_codes)
    if isinstance(err, ParamValidationError):
        return InvalidRequestError(
            operation, "ParamValidation", _VALUE.sub("value: <redacted>, type", str(err))
        )
    if isinstance(err, (EndpointConnectionError, ConnectTimeoutError)):
        return UnavailableError(
            operation, type(err).__name__, str(err)
        )  # never reached the service
    if isinstance(err, (ReadTimeoutError, HTTPClientError)):
        # sent, and no answer: the service may have carried it out
        return OutcomeUnknownError(operation, type(err).__name__, str(err))
    if isinstance(err, NoCredentialsError):
        return AccessDeniedError(operation, "NoCredentials", str(err))
    return err


def _client_error(err: ClientError, operation: str, not_found_codes: tuple[str, ...]) -> CloudError:
    response: Any = err.response if isinstance(err.response, dict) else {}
    error, metadata = response.get("Error") or {}, response.get("ResponseMetadata") or {}
    code, message = str(error.get("Code", "")), str(error.get("Message", ""))
    status = int(metadata.get("HTTPStatusCode") or 0)
    kind: type[CloudError]
    if code in THROTTLING_CODES:
        kind = ThrottledError
    elif _is_not_found(code, not_found_codes):
        kind = NotFoundError
    elif code in ACCESS_DENIED_CODES:
        kind = AccessDeniedError
    elif code in IN_USE_CODES or code.endswith(("InUse", ".InUse")):
        kind = InUseError
    elif code.endswith(CONFLICT_SUFFIXES):
        kind = ConflictError
    elif code in SERVER_CODES or status >= 500:
        kind = OutcomeUnknownError
    else:
        kind = InvalidRequestError
    return kind(operation, code, message, status)
