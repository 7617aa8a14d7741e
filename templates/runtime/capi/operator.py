"""The operator layer: generated reconcilers as kopf handlers (needs ``kopf``; optional).

For each custom resource: create / update / resume run ``reconcile``, delete runs ``delete``
behind kopf's finalizer; the status is patched from the ``Result`` (the id, what reads
return, the cluster-api ``conditions``); a requeue becomes kopf's ``TemporaryError`` with
the reconciler's delay; a terminal failure (an unknown spec key, not owned, a create-only change) a
``PermanentError``, so kopf stops retrying until the object changes.

The owning cluster is the object's ``cluster.x-k8s.io/cluster-name`` label, else its
namespace.

A reference by name (``vpcRef: {name: net}``, :mod:`.references`) is resolved from what the
operator's watch of the referenced kind has seen (its objects' ids and Ready conditions: no
read of the API server per reconcile); one not resolved yet is ``Ready=False`` with its reason and a
requeue after ``dependency_delay`` seconds.

kopf runs each object's handler on its own, so each reconcile is a pass of its own; the
operator's context keeps the cloud's listings across them (``shared_reads`` seconds,
:meth:`..contract.context.Context.share_reads`): a resync, where every object's id is in its
status, reads each kind once by its owner rather than each object by id. Only a find naming
its id is answered from such a listing, and only with what it holds; every write drops what it
touches, and while writes go on finds read directly (:mod:`..contract.snapshot`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import kopf

from ..contract.context import Context
from .reconciler import ATTEMPT, Reconciler, Result
from .references import Lookup, Referent, Referents, referenced_kinds, resolve

CLUSTER_LABEL = "cluster.x-k8s.io/cluster-name"
TERMINAL_REASONS = frozenset(
    {"InvalidSpec", "NotOwned", "CannotChange", "MultipleMatches", "Failed"}
)
DEPENDENCY_DELAY = 5.0
"""Seconds before a reconcile waiting on a referenced object (not Ready yet) is tried again."""
SHARED_READS = 10.0
"""Seconds a listing of a kind is kept for the operator's reconciles (and the quiet, after the
last write touching it, before one is made again)."""


def no_references(kind: str, name: str) -> Referent | None:
    """The lookup where nothing is indexed: every reference by name is to nothing."""
    return None


def cluster_of(labels: Mapping[str, str], namespace: str | None) -> str:
    return labels.get(CLUSTER_LABEL) or namespace or "default"


def patch_status(patch: kopf.Patch, result: Result) -> None:
    patch.status.update(result.status)
    patch.status["conditions"] = [c.as_dict() for c in result.conditions]


def _outcome(result: Result) -> None:
    condition = result.conditions[0] if result.conditions else None
    message = f"{condition.reason}: {condition.message}" if condition else "not ready"
    if result.requeue_after is not None:
        raise kopf.TemporaryError(message, delay=result.requeue_after)
    if (
        condition is not None
        and condition.status == "False"
        and condition.reason in TERMINAL_REASONS
    ):
        raise kopf.PermanentError(message)


class _StoreFirst(Exception):
    """A create is about to be sent under a token (or marker) the stored status does not
    carry. kopf writes a handler's status patch only once the handler returns, so the pass
    stops before the call: the token is stored first, and the next pass, which reads it back,
    sends the create. An operator killed after that call then finds what it made by the token
    instead of creating again (docs/architecture.md, the create-once record)."""

    message = "the create's token is stored before its call"

    def __init__(self, status: dict[str, Any]) -> None:
        super().__init__(self.message)
        self.status = status


def reconcile_handler(
    reconciler: type[Reconciler],
    context: Context,
    spec: Mapping[str, Any],
    status: Mapping[str, Any],
    patch: kopf.Patch,
    labels: Mapping[str, str],
    namespace: str | None,
    lookup: Lookup = no_references,
    dependency_delay: float = DEPENDENCY_DELAY,
) -> None:
    """Reconcile one object; the id goes into the status patch the moment the create returns.
    A reference by name that does not resolve yet is a requeue with its reason."""
    stored = dict(status or {})

    def persist(new: dict[str, Any]) -> None:
        if new.get(ATTEMPT) and new[ATTEMPT] != stored.get(ATTEMPT):
            raise _StoreFirst(new)
        patch.status.update(new)

    subject = reconciler(context, cluster_of(labels, namespace), persist=persist)
    resolved, unresolved = resolve(reconciler.spec, spec, lookup)
    if unresolved is not None:
        waiting = subject.result(stored, False, unresolved.reason, unresolved.message)
        patch_status(patch, waiting)
        raise kopf.TemporaryError(
            f"{unresolved.reason}: {unresolved.message}", delay=dependency_delay
        )
    try:
        result = subject.reconcile(resolved, stored)
    except _StoreFirst as first:
        patch_status(patch, subject.result(first.status, False, "Creating", first.message))
        raise kopf.TemporaryError(first.message, delay=0) from None
    patch_status(patch, result)
    for key in set(status or {}) - set(result.status) - {"conditions"}:
        patch.status[key] = (
            None  # a merge patch keeps what it does not clear (a finished operation)
        )
    _outcome(result)


def delete_handler(
    reconciler: type[Reconciler],
    context: Context,
    spec: Mapping[str, Any],
    status: Mapping[str, Any],
    patch: kopf.Patch,
    labels: Mapping[str, str],
    namespace: str | None,
    lookup: Lookup = no_references,
) -> None:
    """Delete the cloud resource; the finalizer stays until it is gone (or was never ours).
    A reference by name resolves as it can: what it named may be deleted already."""
    resolved, _ = resolve(reconciler.spec, spec, lookup, recorded=status or {})
    result = reconciler(context, cluster_of(labels, namespace)).delete(resolved, dict(status or {}))
    if result.requeue_after is not None:
        patch_status(patch, result)
        raise kopf.TemporaryError(result.conditions[0].message, delay=result.requeue_after)


def register(
    group: str,
    version: str,
    reconcilers: Mapping[str, type[Reconciler]],
    context: Context,
    registry: kopf.OperatorRegistry | None = None,
    dependency_delay: float = DEPENDENCY_DELAY,
    shared_reads: float | None = SHARED_READS,
) -> None:
    """Register create/update/resume and delete (with finalizer) handlers per plural, and an
    index of every kind another one names by reference. The context keeps listings across
    the reconciles for ``shared_reads`` seconds (None or 0: each reconcile reads for itself)."""
    registry = registry or kopf.get_default_registry()
    context.share_reads(shared_reads)
    referents = Referents()
    kinds = {r.spec.name: plural for plural, r in reconcilers.items()}
    named = {k for r in reconcilers.values() for k in referenced_kinds(r.spec) if k in kinds}
    for kind in sorted(named):
        _watch_referents(group, version, kinds[kind], kind, referents, registry)
    for plural, reconciler in reconcilers.items():
        _register_one(
            group, version, plural, reconciler, context, registry, referents, dependency_delay
        )


def _watch_referents(
    group: str,
    version: str,
    plural: str,
    kind: str,
    referents: Referents,
    registry: kopf.OperatorRegistry,
) -> None:
    """Keep what the watch says of a kind others name by reference: its id and Ready. (An
    event handler rather than a kopf index, whose indexers are fixed before the startup
    handlers run, where operators call ``register``.)"""

    def seen(type: Any, name: Any, namespace: Any, status: Any, **_: Any) -> None:
        if type == "DELETED":
            referents.forget(kind, str(namespace), str(name))
        else:
            referents.saw(kind, str(namespace), str(name), status)

    kopf.on.event(group, version, plural, registry=registry, id=f"referents-{plural}")(seen)


def _register_one(
    group: str,
    version: str,
    plural: str,
    reconciler: type[Reconciler],
    context: Context,
    registry: kopf.OperatorRegistry,
    referents: Referents,
    dependency_delay: float,
) -> None:
    def apply(
        spec: Any, status: Any, patch: kopf.Patch, labels: Any, namespace: Any, **_: Any
    ) -> None:
        lookup = referents.lookup(str(namespace))
        reconcile_handler(
            reconciler, context, spec, status, patch, labels, namespace, lookup, dependency_delay
        )

    def remove(
        spec: Any, status: Any, patch: kopf.Patch, labels: Any, namespace: Any, **_: Any
    ) -> None:
        lookup = referents.lookup(str(namespace))
        delete_handler(reconciler, context, spec, status, patch, labels, namespace, lookup)

    for on in (kopf.on.create, kopf.on.update, kopf.on.resume):
        on(group, version, plural, registry=registry, id=f"reconcile-{plural}")(apply)
    kopf.on.delete(group, version, plural, registry=registry, id=f"delete-{plural}")(remove)
