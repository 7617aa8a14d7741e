"""What the GCP adapter reads of a discovery document and of the googleapiclient resource built
from it, in one place: the base URL its calls go to (``rootUrl`` + ``servicePath``), a method's
parameters as the document declares them, and a method of the client by its discovery id.

The document is the one the client was built from (``Context.gcp_client``), so what it says is
what the client does; no private member of googleapiclient is read (docs/architecture.md,
"The GCP adapter").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=16)
def document(path: str) -> Mapping[str, Any]:
    """The discovery document at ``path``, read once (never changed: shared by every core)."""
    with open(path, encoding="utf-8") as handle:
        loaded: Mapping[str, Any] = json.load(handle)
    return loaded


def base_url(path: str | None) -> str:
    """The base URL the document's client calls, as googleapiclient builds it; "" without one."""
    if path is None:
        return ""
    doc = document(path)
    return str(doc.get("rootUrl", "")) + str(doc.get("servicePath", ""))


def method_parameters(path: str | None, method_id: str) -> dict[str, Any] | None:
    """A method's parameters as its discovery document declares them (``compute.zoneOperations
    .wait``: resources ``zoneOperations``, method ``wait``); None when the document has no such
    method, or there is no document."""
    if path is None:
        return None
    parts = method_id.split(".")[1:]
    node: Mapping[str, Any] = document(path)
    for part in parts[:-1]:
        node = (node.get("resources") or {}).get(part) or {}
    found = (node.get("methods") or {}).get(parts[-1]) or {}
    return dict(found.get("parameters") or {}) or None


def method(client: Any, method_id: str) -> Callable[..., Any]:
    """The client's method for a discovery method id (``compute.firewalls.insert`` ->
    ``client.firewalls().insert``): the one dynamic dispatch of the GCP adapter, by the names
    googleapiclient gives a document's resources and methods."""
    from googleapiclient.discovery import fix_method_name  # type: ignore[import-untyped]

    target = client
    parts = method_id.split(".")[1:]
    for part in parts[:-1]:
        target = getattr(target, str(fix_method_name(part)))()
    found: Callable[..., Any] = getattr(target, str(fix_method_name(parts[-1])))
    return found
