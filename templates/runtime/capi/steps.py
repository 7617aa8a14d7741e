"""Chaining reconcilers: a network (VPC, subnets, gateways, routes) reconciled as one object.

A ``StepReconciler`` subclass lists its steps, each a key, a generated reconciler class and
that reconciler's spec; a step's spec may read the statuses stored before it (a subnet's
``vpcId`` is the VPC step's ``id``). ``reconcile()`` runs them in order, stores each status the
moment it is persisted, and stops at the first step that is not Ready, returning its condition
(so the caller requeues); ``delete()`` deletes in reverse order, stopping at the first step that
asks to be requeued. CAPA's ``ReconcileNetwork`` and CAPG's network reconcile have this shape.

A reconcile pass keeps each find's own read for the rest of the pass
(``Context.batched_reads(listings=False)``, :mod:`..contract.snapshot`): steps that read the same
thing read it once (the internet gateway by id for its own step, then for its attachment, which
lives in the gateway's item, then again to see whose the attachment is; a route table for itself
and for its route and associations). Nothing is listed by owner, every write drops the reads it
makes stale, and the looks after a lost answer and every read-back read afresh: the engine
decides exactly as it would on direct reads. A delete pass reads directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from ..contract.context import Context
from .reconciler import Condition, Reconciler, Result

Step = tuple[str, type[Reconciler], dict[str, Any]]


class StepReconciler:
    """Runs generated reconcilers in order for one cluster; ``store`` keeps each step's status
    by its key, and ``on_persist(key, status)`` sees every status as it is persisted (write it
    to your object's status there)."""

    def __init__(
        self,
        context: Context,
        cluster: str,
        store: MutableMapping[str, dict[str, Any]],
        on_persist: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> None:
        self.context, self.cluster, self.store, self.on_persist = (
            context,
            cluster,
            store,
            on_persist,
        )

    def steps(self) -> Iterator[Step]:
        """The steps in the order they are reconciled: (key, reconciler class, spec)."""
        raise NotImplementedError

    def _reconciler(self, key: str, kind: type[Reconciler]) -> Reconciler:
        def persist(status: dict[str, Any]) -> None:
            self.store[key] = status
            if self.on_persist is not None:
                self.on_persist(key, status)

        return kind(self.context, self.cluster, persist=persist)

    def reconcile(self) -> Result:
        """Reconcile each step in order; the first that is not Ready ends the pass, its condition
        (its message prefixed with the step's key) and requeue returned. Ready when all are.
        Each find's own read is kept for the pass (see the module's docstring)."""
        with self.context.batched_reads(listings=False):
            for key, kind, spec in self.steps():
                result = self._reconciler(key, kind).reconcile(spec, self.store.get(key, {}))
                self.store[key] = result.status
                if not result.ready:
                    return _summary(key, result)
        return Result({}, (Condition("Ready", "True", "NetworkReady"),))

    def delete(self) -> Result:
        """Delete each step in reverse order; one that asks to be requeued (still in use, still
        going) ends the pass. A deleted step's status leaves the store."""
        for key, kind, spec in reversed(list(self.steps())):
            result = self._reconciler(key, kind).delete(spec, self.store.get(key, {}))
            if result.requeue_after is not None:
                return _summary(key, result)
            self.store.pop(key, None)
        return Result({}, (Condition("Ready", "False", "Deleted", severity="Info"),))


def _summary(key: str, result: Result) -> Result:
    ready = result.conditions[0]
    message = f"{key}: {ready.message}"
    return Result(
        {},
        (Condition("Ready", "False", ready.reason, message, ready.severity),),
        result.requeue_after,
    )
