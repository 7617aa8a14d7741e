"""The operator layer: generated reconcilers as kopf handlers (needs ``kopf``; optional).

For each custom resource: create / update / resume run ``reconcile``, delete runs ``delete``
behind kopf's finalizer; the status is patched from the ``Result`` (the id, what reads
return, the cluster-api ``conditions``); a requeue becomes kopf's ``TemporaryError`` with
the reconciler's delay; a terminal failure (an unknown spec key, not owned, a create-only change) a
``PermanentError``, so kopf stops retrying until the object changes.

The owning cluster is the object's ``cluster.x-k8s.io/cluster-name`` label, else its
namespace.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import kopf

from ..contract.context import Context
from .reconciler import Reconciler, Result

CLUSTER_LABEL = "cluster.x-k8s.io/cluster-name"
TERMINAL_REASONS = frozenset(
    {"InvalidSpec", "NotOwned", "CannotChange", "MultipleMatches", "Failed"}
)


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


def reconcile_handler(
    reconciler: type[Reconciler],
    context: Context,
    spec: Mapping[str, Any],
    status: Mapping[str, Any],
    patch: kopf.Patch,
    labels: Mapping[str, str],
    namespace: str | None,
) -> None:
    """Reconcile one object; the id goes into the status patch the moment the create returns."""
    result = reconciler(
        context, cluster_of(labels, namespace), persist=lambda new: patch.status.update(new)
    ).reconcile(dict(spec), dict(status or {}))
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
) -> None:
    """Delete the cloud resource; the finalizer stays until it is gone (or was never ours)."""
    result = reconciler(context, cluster_of(labels, namespace)).delete(
        dict(spec), dict(status or {})
    )
    if result.requeue_after is not None:
        patch_status(patch, result)
        raise kopf.TemporaryError(result.conditions[0].message, delay=result.requeue_after)


def register(
    group: str,
    version: str,
    reconcilers: Mapping[str, type[Reconciler]],
    context: Context,
    registry: kopf.OperatorRegistry | None = None,
) -> None:
    """Register create/update/resume and delete (with finalizer) handlers per plural."""
    registry = registry or kopf.get_default_registry()
    for plural, reconciler in reconcilers.items():
        _register_one(group, version, plural, reconciler, context, registry)


def _register_one(
    group: str,
    version: str,
    plural: str,
    reconciler: type[Reconciler],
    context: Context,
    registry: kopf.OperatorRegistry,
) -> None:
    def apply(
        spec: Any, status: Any, patch: kopf.Patch, labels: Any, namespace: Any, **_: Any
    ) -> None:
        reconcile_handler(reconciler, context, spec, status, patch, labels, namespace)

    def remove(
        spec: Any, status: Any, patch: kopf.Patch, labels: Any, namespace: Any, **_: Any
    ) -> None:
        delete_handler(reconciler, context, spec, status, patch, labels, namespace)

    for on in (kopf.on.create, kopf.on.update, kopf.on.resume):
        on(group, version, plural, registry=registry, id=f"reconcile-{plural}")(apply)
    kopf.on.delete(group, version, plural, registry=registry, id=f"delete-{plural}")(remove)
