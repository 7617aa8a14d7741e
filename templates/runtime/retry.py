"""Calling AWS: retries with backoff and jitter on throttling, and error classification.

botocore already retries some throttling; this layer retries what is left (and what a
task knows it can wait for, such as NotFound just after a create) with full jitter, bounded in
attempts, and with a sleep that tests replace.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from botocore.exceptions import ClientError

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
    }
)
TRANSIENT_CODES = frozenset({"InternalError", "InternalFailure", "ServiceUnavailable", "Unavailable"})
IN_USE_CODES = frozenset({"DependencyViolation", "ResourceInUse", "ResourceInUseException", "DeleteConflict"})


def error_code(err: ClientError) -> str:
    return str(err.response.get("Error", {}).get("Code", ""))


def is_not_found(err: ClientError, extra: tuple[str, ...] = ()) -> bool:
    code = error_code(err)
    return (
        code in extra
        or code.endswith(("NotFound", ".NotFound", "NotFoundException", "NoSuchEntity"))
        or code.startswith("NoSuch")
    )


ACCESS_DENIED_CODES = frozenset(
    {"AccessDenied", "AccessDeniedException", "UnauthorizedOperation", "AuthorizationError", "Forbidden"}
)


def is_access_denied(err: ClientError) -> bool:
    return error_code(err) in ACCESS_DENIED_CODES


def is_in_use(err: ClientError) -> bool:
    """Something still depends on it (EC2's DependencyViolation, InvalidIPAddress.InUse)."""
    code = error_code(err)
    return code in IN_USE_CODES or code.endswith(("InUse", ".InUse"))


@dataclass
class RetryPolicy:
    attempts: int = 8
    base_delay: float = 0.2
    max_delay: float = 20.0
    sleep: Callable[[float], None] = field(default=time.sleep)
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, attempt: int) -> float:
        """Full jitter: a random wait up to an exponentially growing cap."""
        return self.rng.uniform(0, min(self.max_delay, self.base_delay * 2**attempt))

    def call(self, fn: Callable[..., Any], retry_if: Callable[[ClientError], bool] | None = None, **params: Any) -> Any:
        """Call ``fn(**params)``, retrying throttling, transient errors and ``retry_if`` errors."""
        for attempt in range(self.attempts):
            try:
                return fn(**params)
            except ClientError as err:
                code = error_code(err)
                retryable = code in THROTTLING_CODES or code in TRANSIENT_CODES
                if retry_if is not None and retry_if(err):
                    retryable = True
                if not retryable or attempt == self.attempts - 1:
                    raise
                self.sleep(self.delay(attempt))
        raise AssertionError("unreachable")  # pragma: no cover
