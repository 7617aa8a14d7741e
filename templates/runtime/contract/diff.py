"""What differs between the cloud and the task: kOps' BuildChanges, by the field metadata.

``None`` in the desired state means "don't care" (so do members a structure leaves out); tags
are compared on the keys the task manages only; unordered lists as multisets; write-only fields
never against reads; server-defaulted fields only when the task sets them; read-only fields
never.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from .redact import REDACTED, redacted
from .spec import Mutability, ResourceSpec

__all__ = ["REDACTED", "compute_changes", "differs", "shown"]


def _multiset(values: list[Any]) -> Counter[str]:
    return Counter(json.dumps(v, sort_keys=True, default=str) for v in values)


def same_name(have: Any, want: Any) -> bool:
    """A natural key as read equals the one declared: also a DNS name the cloud hands back
    fully qualified (Route 53 reads ``example.com.`` for a zone created as ``example.com``)."""
    if isinstance(have, str) and isinstance(want, str) and "." in want.rstrip("."):
        return have.rstrip(".") == want.rstrip(".")
    return bool(have == want)


def differs(spec: ResourceSpec, name: str, have: Any, want: Any) -> bool:
    f = spec.field(name)
    if name in spec.natural:
        return not same_name(have, want)
    if f.is_tags:
        have = have or {}
        return any(have.get(k) != v for k, v in want.items())
    if f.unordered and isinstance(have, list) and isinstance(want, list):
        return _multiset(have) != _multiset(want)
    return not _covers(have, want)


def _covers(have: Any, want: Any) -> bool:
    """``have`` is what ``want`` asks for: inside structures, the members ``want`` leaves out
    are not cared about (a read adds ``LaunchTemplateId`` to the ``{LaunchTemplateName,
    Version}`` an auto-scaling group was given); a JSON document the SDK hands back decoded
    (an IAM policy) is compared with the text that was sent, decoded the same way."""
    if isinstance(want, str) and isinstance(have, (dict, list)):
        try:
            return bool(json.loads(want) == have)
        except ValueError:
            return False
    if isinstance(want, Mapping) and isinstance(have, Mapping):
        return all(k in have and _covers(have[k], v) for k, v in want.items() if v is not None)
    if isinstance(want, list) and isinstance(have, list):
        return len(want) == len(have) and all(
            _covers(h, w) for h, w in zip(have, want, strict=True)
        )
    return bool(have == want)


def compute_changes(
    spec: ResourceSpec, actual: Mapping[str, Any] | None, desired: Mapping[str, Any]
) -> dict[str, tuple[Any, Any]]:
    """Field name -> (old, new) for every field the task cares about that the cloud lacks."""
    changes: dict[str, tuple[Any, Any]] = {}
    for f in spec.fields:
        want = desired.get(f.name)
        if want is None or f.mutability is Mutability.READ_ONLY:
            continue
        if actual is None:
            changes[f.name] = (None, want)
            continue
        if f.write_only:
            continue
        have = actual.get(f.name)
        if f.is_tags:
            have = {k: (have or {}).get(k) for k in want}
        if differs(spec, f.name, have, want):
            changes[f.name] = (have, want)
    return changes


def shown(spec: ResourceSpec, name: str, value: Any) -> str:
    """A value as plans, logs and errors print it: sensitive parts never, control characters
    escaped (``repr`` escapes them inside strings)."""
    value = redacted(spec.field(name), value)
    return REDACTED if value == REDACTED else repr(value)
