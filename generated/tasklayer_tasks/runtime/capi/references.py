"""References by name: a custom resource names another by its name in its namespace.

A spec may give ``vpcRef: {name: net}`` instead of ``vpcId`` (the field's ``FieldSpec.ref_key``;
``securityGroupRefs: [{name: a}, ...]`` for a list of ids): the object it names is the Vpc
custom resource ``net`` beside it, and the reconciler is handed that object's ``status.id``
under ``vpcId``, once that object is Ready. Until then the reference is unresolved, with the
reason Config Connector gives: ``DependencyNotFound`` (no such object) or
``DependencyNotReady`` (there, but not Ready or without an id yet); the operator requeues.

Nothing here knows Kubernetes: the operator hands in a ``lookup`` over what it watches.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..contract.spec import FieldSpec, ResourceSpec

DEPENDENCY_NOT_FOUND = "DependencyNotFound"
DEPENDENCY_NOT_READY = "DependencyNotReady"


@dataclass(frozen=True)
class Referent:
    """What is known of a referenced custom resource: its ``status.id`` and whether its
    ``Ready`` condition is True."""

    id: str | None
    """The cloud id its status carries, if any yet."""
    ready: bool
    """Its ``Ready`` condition is ``True``."""

    @staticmethod
    def of(status: Mapping[str, Any] | None) -> Referent:
        """From an object's status."""
        status = status or {}
        ready = any(
            c.get("type") == "Ready" and c.get("status") == "True"
            for c in status.get("conditions") or []
            if isinstance(c, Mapping)
        )
        found = status.get("id")
        return Referent(str(found) if found else None, ready)


Lookup = Callable[[str, str], Referent | None]
"""``lookup(kind, name)``: what is known of the custom resource of ``kind`` (``"Vpc"``) named
``name`` in the referring object's namespace; None when there is none."""


@dataclass
class Referents:
    """What an operator has seen of the objects others name by reference, by (kind, namespace,
    name), kept from its watch's events (handlers run in threads: a lock guards it)."""

    _seen: dict[tuple[str, str, str], Referent] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def saw(self, kind: str, namespace: str, name: str, status: Mapping[str, Any] | None) -> None:
        """The object is there with ``status``."""
        with self._lock:
            self._seen[(kind, namespace, name)] = Referent.of(status)

    def forget(self, kind: str, namespace: str, name: str) -> None:
        """The object is gone."""
        with self._lock:
            self._seen.pop((kind, namespace, name), None)

    def lookup(self, namespace: str) -> Lookup:
        """References from an object in ``namespace``."""

        def found(kind: str, name: str) -> Referent | None:
            with self._lock:
                return self._seen.get((kind, namespace, name))

        return found


@dataclass(frozen=True)
class Unresolved:
    """A reference that cannot be resolved yet: the condition's reason and message."""

    reason: str
    message: str


def referenced_kinds(resource: ResourceSpec) -> frozenset[str]:
    """The kinds this kind's spec may name by reference."""
    return frozenset(f.references for f in resource.fields if f.ref_key and f.references)


def _names(f: FieldSpec, value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [str(item.get("name")) for item in items if isinstance(item, Mapping)]


def resolve(
    resource: ResourceSpec,
    spec: Mapping[str, Any],
    lookup: Lookup,
    recorded: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], Unresolved | None]:
    """``spec`` with every reference by name replaced by the id it resolves to, and the first
    reference that does not resolve (None when all do). With ``recorded`` (a status, when the
    object is being deleted and what it named may be gone already) an unresolved reference
    falls back to the id the status recorded under the field's key, and is left out otherwise:
    a delete goes on with what is known."""
    out = dict(spec)
    problem: Unresolved | None = None
    for f in resource.fields:
        if not f.ref_key or f.ref_key not in out:
            continue
        names = _names(f, out.pop(f.ref_key))
        ids: list[str] = []
        for name in names:
            found = lookup(f.references or "", name)
            if found is not None and found.ready and found.id:
                ids.append(found.id)
                continue
            problem = problem or _why(f, name, found)
        if len(ids) == len(names):
            out[f.key] = ids if isinstance(spec[f.ref_key], list) else ids[0]
        elif recorded is not None and recorded.get(f.key) is not None:
            out[f.key] = recorded[f.key]
    return out, (None if recorded is not None else problem)


def _why(f: FieldSpec, name: str, found: Referent | None) -> Unresolved:
    what = f"{f.ref_key} names the {f.references} {name!r}"
    if found is None:
        return Unresolved(DEPENDENCY_NOT_FOUND, f"{what}, which does not exist (yet)")
    state = "has no id yet" if not found.id else "is not Ready"
    return Unresolved(DEPENDENCY_NOT_READY, f"{what}, which {state}")
