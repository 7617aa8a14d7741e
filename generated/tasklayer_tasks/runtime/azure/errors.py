"""ARM's answers, translated into the runtime's taxonomy at the Azure boundary: the HTTP status
and ARM's error ``code`` decide the kind, so nothing above the Azure core sees an azure-core
exception or looks for words in a message."""

from __future__ import annotations

import json
from typing import Any

from ..contract.errors import (
    AccessDeniedError,
    CloudError,
    ConflictError,
    InUseError,
    InvalidRequestError,
    NotFoundError,
    OutcomeUnknownError,
    PreconditionFailedError,
    ThrottledError,
    UnavailableError,
)

# ARM error codes that say something still uses the resource (a subnet with NICs in it, an NSG
# on a subnet): the delete is refused, nothing was done
IN_USE_CODES = frozenset(
    {
        "InUseSubnetCannotBeDeleted",
        "InUseNetworkSecurityGroupCannotBeDeleted",
        "InUseRouteTableCannotBeDeleted",
        "PublicIPAddressInUse",
        "InUseNatGatewayCannotBeDeleted",
        "CannotDeleteResource",
    }
)
# a change the RP refuses because another is running on the same resource: try again later
BUSY_CODES = frozenset(
    {"AnotherOperationInProgress", "RetryableError", "ReferencedResourceNotProvisioned"}
)


def error_of(body: Any) -> tuple[str, str]:
    """(code, message) of ARM's error body ``{"error": {"code", "message"}}``, whatever came."""
    if isinstance(body, (bytes, str)):
        try:
            body = json.loads(body or "null")
        except ValueError:
            return "", str(body)[:500]
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return "", ""
    return str(error.get("code") or ""), str(error.get("message") or "")


def translate(status: int, body: Any, operation: str) -> CloudError:
    """The contract's error for an ARM answer of ``status`` (400 and up)."""
    code, message = error_of(body)
    kind: type[CloudError]
    if status == 404:
        kind = NotFoundError
    elif status == 429 or code in BUSY_CODES:
        kind = ThrottledError
    elif status == 412:
        kind = PreconditionFailedError
    elif status in (401, 403):
        kind = AccessDeniedError
    elif code in IN_USE_CODES:
        kind = InUseError
    elif status == 409:
        kind = ConflictError
    elif status >= 500:
        kind = OutcomeUnknownError  # sent, and the RP failed: it may have acted
    elif status >= 400:
        kind = InvalidRequestError
    else:
        kind = CloudError
    return kind(operation, code or str(status), message, status)


def transport_error(err: Exception, operation: str, sent: bool) -> CloudError:
    """azure-core's ``ServiceRequestError`` (not sent: safe to resend) or
    ``ServiceResponseError`` (sent, no answer: it may have acted)."""
    kind = OutcomeUnknownError if sent else UnavailableError
    return kind(operation, type(err).__name__, str(err)[:500])
