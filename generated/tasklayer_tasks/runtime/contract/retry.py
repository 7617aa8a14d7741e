"""Calling a cloud: retries with backoff and jitter, by the neutral error kinds.

What is retried, and why it is safe:

- ``ThrottledError`` and ``UnavailableError``: the call was refused or never reached the
  service, so it was not carried out;
- ``OutcomeUnknownError`` only for *idempotent* calls: reads, and mutating calls that carry the
  same idempotency token on every try (the cloud answers a repeat with the first result). A
  mutating call without a token is never sent again here: the caller finds first;
- whatever ``retry_if`` accepts (NotFound just after a create: eventual consistency).

Bounded in attempts, full jitter, and a sleep that tests replace.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import CloudError, OutcomeUnknownError, ThrottledError, UnavailableError


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

    def retryable(
        self, err: CloudError, idempotent: bool, retry_if: Callable[[CloudError], bool] | None
    ) -> bool:
        if isinstance(err, (ThrottledError, UnavailableError)):
            return True
        if isinstance(err, OutcomeUnknownError):
            return idempotent
        return retry_if is not None and retry_if(err)

    def call(
        self,
        fn: Callable[..., Any],
        *,
        idempotent: bool,
        retry_if: Callable[[CloudError], bool] | None = None,
        **params: Any,
    ) -> Any:
        """Call ``fn(**params)``; ``fn`` raises only :class:`CloudError` kinds for cloud
        failures."""
        for attempt in range(self.attempts):
            try:
                return fn(**params)
            except CloudError as err:
                if not self.retryable(err, idempotent, retry_if) or attempt == self.attempts - 1:
                    raise
                self.sleep(self.delay(attempt))
        raise AssertionError("unreachable")  # pragma: no cover
