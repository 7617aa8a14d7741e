"""What the example network reconciles share: run generated reconcilers in order, persist each
status, stop at the first step that is not Ready (asking to be requeued), delete in reverse."""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.reconciler import Condition, Reconciler, Result

Step = tuple[str, type[Reconciler], dict[str, Any]]


class StepReconciler:
    """Subclasses list their steps; each step's spec may read the statuses stored before it."""

    def __init__(self, context: Context, cluster: str, store: MutableMapping[str, dict[str, Any]],
                 on_persist: Callable[[str, dict[str, Any]], None] | None = None) -> None:
        self.context, self.cluster, self.store, self.on_persist = context, cluster, store, on_persist

    def steps(self) -> Iterator[Step]:
        raise NotImplementedError

    def _reconciler(self, key: str, kind: type[Reconciler]) -> Reconciler:
        def persist(status: dict[str, Any]) -> None:
            self.store[key] = status
            if self.on_persist is not None:
                self.on_persist(key, status)

        return kind(self.context, self.cluster, persist=persist)

    def reconcile(self) -> Result:
        for key, kind, spec in self.steps():
            result = self._reconciler(key, kind).reconcile(spec, self.store.get(key, {}))
            self.store[key] = result.status
            if not result.ready:
                return _summary(key, result)
        return Result({}, (Condition("Ready", "True", "NetworkReady"),))

    def delete(self) -> Result:
        for key, kind, spec in reversed(list(self.steps())):
            result = self._reconciler(key, kind).delete(spec, self.store.get(key, {}))
            if result.requeue_after is not None:
                return _summary(key, result)
            self.store.pop(key, None)
        return Result({}, (Condition("Ready", "False", "Deleted", severity="Info"),))


def _summary(key: str, result: Result) -> Result:
    ready = result.conditions[0]
    return Result({}, (Condition("Ready", "False", ready.reason, f"{key}: {ready.message}", ready.severity),),
                  result.requeue_after)
