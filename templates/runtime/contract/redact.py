"""Sensitive values never printed: in ``repr()``, plans, logs and errors they are ``<redacted>``,
at whatever depth the model marks them; and nothing printed carries a control character to a
terminal."""

from __future__ import annotations

import copy
from typing import Any

from .spec import FieldSpec

REDACTED = "<redacted>"


def redacted(f: FieldSpec, value: Any) -> Any:
    """``value`` with every sensitive part replaced: the whole of it when the field is
    sensitive, else each ``sensitive_paths`` entry (``"LaunchTemplateData.UserData"``;
    ``[]`` steps into every list item)."""
    if value is None:
        return None
    if f.sensitive:
        return REDACTED
    if not f.sensitive_paths:
        return value
    value = copy.deepcopy(value)
    for path in f.sensitive_paths:
        _blank(value, path.split("."))
    return value


def _blank(node: Any, steps: list[str]) -> None:
    if not steps:
        return
    step, rest = steps[0], steps[1:]
    items = step.endswith("[]")
    key = step[:-2] if items else step
    if not isinstance(node, dict) or key not in node:
        return
    if items:
        for item in node[key] if isinstance(node[key], list) else []:
            if rest:
                _blank(item, rest)
        if not rest and isinstance(node[key], list):
            node[key] = [REDACTED for _ in node[key]]
    elif rest:
        _blank(node[key], rest)
    else:
        node[key] = REDACTED


def printable(text: str) -> str:
    """Text safe for a terminal: control characters (escape sequences, NUL, CR) shown escaped."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
