"""One recorded cloud call as a stable, readable entry.

A call is ``{"op": ..., "params": {...}}`` plus, where they say something, the part of the
scenario it belongs to (``seg``), the fault the proxy injected (``fault``), whether the proxy
answered it from its client-token ledger (``replayed``), its HTTP status when not 200
(``status``; absent for a reply never sent: ``lost``, ``reset``) and a REST request's path.

What a fresh run draws at random is replaced by a placeholder numbered in order of first
appearance within the scenario, per kind, so that a fresh run reproduces it and the structure
stays visible (a retry that repeats a token repeats its placeholder; a new attempt's token is
the next number):

- idempotency tokens (a member named ``ClientToken``/``clientToken``, Route 53's
  ``CallerReference``, GCP's ``requestId``) -> ``<token-N>``;
- UUIDs anywhere in a value, with dashes or as 32 hex digits (the create-attempt marker tag)
  -> ``<uuid-N>``;
- moto's resource ids (``vpc-0a1b2c3d...``, ``eipalloc-...``, ``lt-...``) -> ``<vpc-N>`` etc.,
  also inside ARNs and paths; Route 53's zone and change ids (12-32 uppercase letters and
  digits) -> ``<r53-N>``; the 16 hex digits of an ELBv2 ARN -> ``<arn-id-N>``;
- moto's public addresses of Elastic IPs (outside the private ranges the stacks declare) ->
  ``<public-ip-N>``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

TOKEN_KEYS = ("ClientToken", "clientToken", "CallerReference", "requestId")
DROPPED_KEYS = frozenset({"Action", "Version"})
_UUID = re.compile(r"(?<![0-9a-fA-F])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})"
                   r"(?![0-9a-fA-F])", re.I)
# moto's EC2-style ids: a lowercase prefix and 8 or 17 hex digits
_AWS_ID = re.compile(r"\b((?:[a-z]+-)*[a-z]+)-([0-9a-f]{17}|[0-9a-f]{8})\b")
# moto's Route 53 ids (hosted zones, changes): 12 to 32 uppercase letters and digits, both present
_R53_ID = re.compile(r"(?<![A-Za-z0-9])(?=[0-9A-Z]*[0-9])(?=[0-9A-Z]*[A-Z])[0-9A-Z]{12,32}(?![A-Za-z0-9])")
# the random parts of an ELBv2 ARN (``.../app/<name>/<16 hex>/<16 hex>``)
_ARN_HEX = re.compile(r"(?<=/)[0-9a-f]{16}(?![0-9a-fA-F])")
_IPV4 = re.compile(r"(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\d.])")
_PRIVATE = ("10.", "172.", "192.168.", "203.0.113.", "0.0.0.0", "127.")


class Normaliser:
    """Placeholders for one scenario (a fresh one per scenario: numbering restarts)."""

    def __init__(self) -> None:
        self._names: dict[tuple[str, str], str] = {}
        self._counts: Counter[str] = Counter()

    def placeholder(self, kind: str, raw: str) -> str:
        key = (kind, raw)
        if key not in self._names:
            self._counts[kind] += 1
            self._names[key] = f"<{kind}-{self._counts[kind]}>"
        return self._names[key]

    def text(self, value: str) -> str:
        value = _UUID.sub(lambda m: self.placeholder("uuid", m.group(0).lower()), value)
        value = _AWS_ID.sub(lambda m: self.placeholder(m.group(1), m.group(0)), value)
        value = _R53_ID.sub(lambda m: self.placeholder("r53", m.group(0)), value)
        value = _ARN_HEX.sub(lambda m: self.placeholder("arn-id", m.group(0)), value)
        return _IPV4.sub(self._ip, value)

    def _ip(self, match: re.Match[str]) -> str:
        ip = match.group(0)
        return ip if ip.startswith(_PRIVATE) else self.placeholder("public-ip", ip)

    def value(self, key: str, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: self.value(k, v) for k, v in sorted(value.items())}
        if isinstance(value, list):
            return [self.value(key, v) for v in value]
        if isinstance(value, str):
            if key.split(".")[-1] in TOKEN_KEYS and value:
                return self.placeholder("token", value)
            return self.text(value)
        return value

    def params(self, params: dict[str, Any]) -> dict[str, Any]:
        """Sorted, tokens and ids replaced; the query protocol's Action / Version dropped (the
        op names the action; the version is the SDK's)."""
        kept = {k: v for k, v in params.items() if k not in DROPPED_KEYS}
        # numbered keys sort as the wire numbers them (Filter.2 before Filter.10)
        return {k: self.value(k, kept[k]) for k in sorted(kept, key=_natural)}


def _natural(key: str) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key)]


def line(call: dict[str, Any]) -> str:
    """One call as one line of JSON (what the golden files hold, one per line)."""
    return json.dumps(call, sort_keys=False, separators=(", ", ": "), ensure_ascii=False)
