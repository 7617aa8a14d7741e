"""The service controller of a cloud-controller-manager (k8s.io/cloud-provider's
``controllers/service``) over the cloud-provider face, on a real API server with the core API
(``ApiServer(recipe="full")``): it watches the Services of one namespace and every Node, and for
each Service of type LoadBalancer (no ``spec.loadBalancerClass``) calls the face's
``EnsureLoadBalancer`` and writes ``status.loadBalancer.ingress``; nodes changed call
``UpdateLoadBalancer`` for every such Service; a Service deleted, or no longer of type
LoadBalancer, calls ``EnsureLoadBalancerDeleted``, clears its status and releases it.

As upstream: the finalizer ``service.kubernetes.io/load-balancer-cleanup`` is on a Service before
its load balancer is made and leaves it only once the load balancer is gone, so a Service
deleted while the controller is down, or while a call fails, is still cleaned up; the nodes are
those with a provider id, not labelled ``node.kubernetes.io/exclude-from-external-load-balancers``
and not tainted ``ToBeDeletedByClusterAutoscaler`` (the stable node set, KEP-3458); a failed
sync is retried with a delay that doubles up to a bound; Events ``EnsuringLoadBalancer``,
``EnsuredLoadBalancer``, ``UpdatedLoadBalancer``, ``DeletingLoadBalancer``,
``DeletedLoadBalancer`` and ``SyncLoadBalancerFailed`` say what it did.

One worker syncs one Service at a time (keys de-duplicated), so no two calls of the face ever
overlap for a Service. ``python -m testbed.service_controller`` runs it on AWS: the cluster
as JSON in ``TASKLAYER_CLUSTER`` (``AwsCluster``'s fields), the cloud at
``TASKLAYER_AWS_ENDPOINT``, the API server from ``KUBECONFIG``.
"""

from __future__ import annotations

import argparse
import heapq
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Protocol

import kubernetes
from kubernetes.client import ApiException, CoreV1Api

from tasklayer_tasks.runtime.cloudprovider.service import (
    LoadBalancerStatus,
    Node,
    Service,
    ServicePort,
)

FINALIZER = "service.kubernetes.io/load-balancer-cleanup"
EXCLUDE_LABEL = "node.kubernetes.io/exclude-from-external-load-balancers"
TO_BE_DELETED_TAINT = "ToBeDeletedByClusterAutoscaler"
INTERNAL_ANNOTATION = "service.beta.kubernetes.io/aws-load-balancer-internal"
COMPONENT = "service-controller"
log = logging.getLogger(COMPONENT)


class LoadBalancers(Protocol):
    """What the controller calls: ``cloudprovider.LoadBalancer``'s writes (the face's
    ``AwsLoadBalancers``, or any cloud's)."""

    def ensure_load_balancer(
        self, service: Service, nodes: Sequence[Node]
    ) -> LoadBalancerStatus: ...

    def update_load_balancer(self, service: Service, nodes: Sequence[Node]) -> None: ...

    def ensure_load_balancer_deleted(self, service: Service) -> None: ...


def wants_load_balancer(obj: Any) -> bool:
    """Of type LoadBalancer, for this controller (no other class named), not being deleted."""
    spec = obj.spec
    return bool(
        spec.type == "LoadBalancer"
        and not spec.load_balancer_class
        and obj.metadata.deletion_timestamp is None
    )


def needs_cleanup(obj: Any) -> bool:
    """Has our finalizer and no longer wants a load balancer (deleted, or its type changed)."""
    return FINALIZER in (obj.metadata.finalizers or []) and not wants_load_balancer(obj)


def service_of(obj: Any) -> Service:
    """The face's Service from a ``V1Service``."""
    spec, meta = obj.spec, obj.metadata
    ports = tuple(
        ServicePort(p.port, p.node_port or 0, p.protocol or "TCP", p.name or "")
        for p in spec.ports or []
    )
    internal = (meta.annotations or {}).get(INTERNAL_ANNOTATION, "") not in ("", "false")
    ranges = tuple(spec.load_balancer_source_ranges or ()) or ("0.0.0.0/0",)
    return Service(meta.namespace, meta.name, meta.uid, ports, ranges, internal)


def node_of(obj: Any) -> Node | None:
    """The face's Node from a ``V1Node``, or None when it is not a load balancer's target."""
    labels, spec = obj.metadata.labels or {}, obj.spec
    taints = {t.key for t in spec.taints or []} if spec else set()
    if EXCLUDE_LABEL in labels or TO_BE_DELETED_TAINT in taints or obj.metadata.deletion_timestamp:
        return None
    if spec is None or not spec.provider_id:
        return None
    return Node(obj.metadata.name, spec.provider_id, spec.pod_cidr or "")


def ingress_of(status: LoadBalancerStatus) -> list[dict[str, str]]:
    return [
        {k: v for k, v in (("hostname", i.hostname), ("ip", i.ip)) if v} for i in status.ingress
    ]


class Queue:
    """Keys to sync, each at most once, the soonest due first; ``add(key, delay)`` of a key
    already waiting keeps the sooner time."""

    def __init__(self) -> None:
        self._due: dict[str, float] = {}
        self._heap: list[tuple[float, str]] = []
        self._cv = threading.Condition()

    def add(self, key: str, delay: float = 0.0) -> None:
        when = time.monotonic() + delay
        with self._cv:
            if key in self._due and self._due[key] <= when:
                return
            self._due[key] = when
            heapq.heappush(self._heap, (when, key))
            self._cv.notify()

    def get(self, stop: threading.Event) -> str | None:
        with self._cv:
            while not stop.is_set():
                while self._heap and self._due.get(self._heap[0][1]) != self._heap[0][0]:
                    heapq.heappop(self._heap)  # superseded by a sooner add
                wait = self._heap[0][0] - time.monotonic() if self._heap else 1.0
                if self._heap and wait <= 0:
                    _, key = heapq.heappop(self._heap)
                    del self._due[key]
                    return key
                self._cv.wait(min(wait, 1.0))
            return None


@dataclass
class Retry:
    """Delays between failed syncs of one Service: ``first``, doubled up to ``most``."""

    first: float = 1.0
    most: float = 60.0


class ServiceController:
    def __init__(
        self,
        core: CoreV1Api,
        face: LoadBalancers,
        namespace: str,
        retry: Retry | None = None,
    ) -> None:
        self.core, self.face, self.namespace = core, face, namespace
        self.retry = retry or Retry()
        self.queue = Queue()
        self.stopped = threading.Event()
        self._nodes: dict[str, Node] = {}
        self._services: dict[str, Any] = {}  # the watch's last copy of each Service, by name
        self._failures: dict[str, int] = {}
        self._lock = threading.Lock()
        self._nodes_synced = threading.Event()

    # -- watches ---------------------------------------------------------------------------

    def _watch(
        self,
        what: str,
        list_call: Callable[..., Any],
        args: tuple[str, ...],
        seen: Callable[[str, Any], None],
    ) -> None:
        """List, then watch from the list's version; a watch ended or expired (410) lists again.
        ``list_call`` is the client's own method: the watch reads its answer's type from it."""
        while not self.stopped.is_set():
            try:
                listed = list_call(*args)
                for item in listed.items:
                    seen("ADDED", item)
                version = listed.metadata.resource_version
                if what == "nodes":
                    self._nodes_synced.set()
                stream = kubernetes.watch.Watch().stream(
                    list_call, *args, resource_version=version, timeout_seconds=60
                )
                for event in stream:
                    if self.stopped.is_set():
                        return
                    seen(event["type"], event["object"])
            except ApiException as error:
                if error.status != 410:
                    log.warning("watch of %s: %s", what, error.reason)
                    self.stopped.wait(1.0)
            except Exception as error:  # the API server away (restarted): look again
                log.warning("watch of %s: %s", what, error)
                self.stopped.wait(1.0)

    def _service_seen(self, kind: str, obj: Any) -> None:
        """A Service added, or changed where a load balancer depends on it (as upstream's
        ``needsUpdate``: not its status, which this controller writes itself), is synced."""
        name = obj.metadata.name
        with self._lock:
            before = self._services.pop(name, None)
            if kind != "DELETED":
                self._services[name] = obj
        if kind != "DELETED" and (before is None or _relevant(before) != _relevant(obj)):
            self.queue.add(name)

    def _node_seen(self, kind: str, obj: Any) -> None:
        node = None if kind == "DELETED" else node_of(obj)
        with self._lock:
            before = self._nodes.get(obj.metadata.name)
            if node is None:
                self._nodes.pop(obj.metadata.name, None)
            else:
                self._nodes[obj.metadata.name] = node
            changed = before != node
            names = [n for n, s in self._services.items() if wants_load_balancer(s)]
        if changed and self._nodes_synced.is_set():
            for name in names:
                self.queue.add("nodes:" + name)

    def nodes(self) -> list[Node]:
        with self._lock:
            return sorted(self._nodes.values(), key=lambda n: n.name)

    # -- syncs -----------------------------------------------------------------------------

    def sync(self, key: str) -> None:
        """One Service: its load balancer made or changed, or deleted and the Service released."""
        name = key.removeprefix("nodes:")
        try:
            obj = self.core.read_namespaced_service(name, self.namespace)
        except ApiException as error:
            if error.status == 404:
                return  # gone: its finalizer saw its load balancer deleted first
            raise
        if needs_cleanup(obj):
            self._delete(obj)
        elif wants_load_balancer(obj):
            self._ensure(obj, nodes_changed=key.startswith("nodes:"))

    def _ensure(self, obj: Any, nodes_changed: bool) -> None:
        service = service_of(obj)
        if FINALIZER not in (obj.metadata.finalizers or []):
            obj = self._patch_finalizers(obj, [*(obj.metadata.finalizers or []), FINALIZER])
        if nodes_changed:
            self.face.update_load_balancer(service, self.nodes())
            self.event(obj, "UpdatedLoadBalancer", "Updated load balancer with new hosts")
            return
        self.event(obj, "EnsuringLoadBalancer", "Ensuring load balancer")
        status = self.face.ensure_load_balancer(service, self.nodes())
        ingress = ingress_of(status)
        if _current_ingress(obj) != ingress:
            self.core.patch_namespaced_service_status(
                obj.metadata.name,
                self.namespace,
                [{"op": "replace", "path": "/status/loadBalancer", "value": {"ingress": ingress}}],
            )
        self.event(
            obj,
            "EnsuredLoadBalancer",
            "Ensured load balancer",
        )

    def _delete(self, obj: Any) -> None:
        self.event(obj, "DeletingLoadBalancer", "Deleting load balancer")
        self.face.ensure_load_balancer_deleted(service_of(obj))
        if _current_ingress(obj):
            self.core.patch_namespaced_service_status(
                obj.metadata.name,
                self.namespace,
                [{"op": "replace", "path": "/status/loadBalancer", "value": {}}],
            )
        self.event(obj, "DeletedLoadBalancer", "Deleted load balancer")
        self._patch_finalizers(obj, [f for f in obj.metadata.finalizers or [] if f != FINALIZER])

    def _patch_finalizers(self, obj: Any, finalizers: list[str]) -> Any:
        """The list replaced only if it is still the one read: a 422 (another writer) retries."""
        before = obj.metadata.finalizers
        patch: list[dict[str, Any]] = [
            (
                {"op": "test", "path": "/metadata/finalizers", "value": before}
                if before is not None
                else {
                    "op": "test",
                    "path": "/metadata/resourceVersion",
                    "value": obj.metadata.resource_version,
                }
            ),
            {"op": "add", "path": "/metadata/finalizers", "value": finalizers},
        ]
        return self.core.patch_namespaced_service(obj.metadata.name, self.namespace, patch)

    def event(self, obj: Any, reason: str, message: str, kind: str = "Normal") -> None:
        now = datetime.now(timezone.utc)
        body = kubernetes.client.CoreV1Event(
            metadata=kubernetes.client.V1ObjectMeta(generate_name=f"{obj.metadata.name}."),
            involved_object=kubernetes.client.V1ObjectReference(
                kind="Service",
                api_version="v1",
                namespace=self.namespace,
                name=obj.metadata.name,
                uid=obj.metadata.uid,
                resource_version=obj.metadata.resource_version,
            ),
            reason=reason,
            message=message,
            type=kind,
            source=kubernetes.client.V1EventSource(component=COMPONENT),
            first_timestamp=now,
            last_timestamp=now,
            count=1,
        )
        try:
            self.core.create_namespaced_event(self.namespace, body)
        except ApiException as error:  # an Event is news, never a reason to fail a sync
            log.warning("event %s for %s: %s", reason, obj.metadata.name, error.reason)

    # -- the loop --------------------------------------------------------------------------

    def start(self) -> ServiceController:
        watches: tuple[
            tuple[str, Callable[..., Any], tuple[str, ...], Callable[[str, Any], None]], ...
        ] = (
            ("nodes", self.core.list_node, (), self._node_seen),
            ("services", self.core.list_namespaced_service, (self.namespace,), self._service_seen),
        )
        for what, call, args, seen in watches:
            thread = threading.Thread(
                target=self._watch, args=(what, call, args, seen), daemon=True
            )
            thread.start()
            if what == "nodes":
                self._nodes_synced.wait(60)  # no Service synced against a half-listed node set
        return self

    def run(self) -> None:
        while (key := self.queue.get(self.stopped)) is not None:
            try:
                self.sync(key)
                self._failures.pop(key, None)
            except Exception as error:
                failures = self._failures[key] = self._failures.get(key, 0) + 1
                delay = min(self.retry.first * 2 ** (failures - 1), self.retry.most)
                log.warning(
                    "sync of %s failed (%d), again in %.1f s: %s", key, failures, delay, error
                )
                self._failed_event(key, error)
                self.queue.add(key, delay)

    def _failed_event(self, key: str, error: Exception) -> None:
        with self._lock:
            obj = self._services.get(key.removeprefix("nodes:"))
        if obj is not None:
            self.event(
                obj, "SyncLoadBalancerFailed", f"Error syncing load balancer: {error}", "Warning"
            )

    def stop(self) -> None:
        self.stopped.set()


def _relevant(obj: Any) -> tuple[Any, ...]:
    meta = obj.metadata
    return (obj.spec.to_dict(), meta.annotations, meta.uid, meta.deletion_timestamp)


def _current_ingress(obj: Any) -> list[dict[str, str]]:
    balancer = obj.status.load_balancer if obj.status else None
    return [
        {k: v for k, v in (("hostname", i.hostname), ("ip", i.ip)) if v}
        for i in (balancer.ingress or [] if balancer else [])
    ]


def main() -> None:
    """The controller on AWS, as the tests start it: one namespace, the face over the cloud
    at ``TASKLAYER_AWS_ENDPOINT``."""
    from tasklayer_tasks.runtime import Context
    from tasklayer_tasks.runtime.cloudprovider.aws import AwsCluster, AwsLoadBalancers

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--namespace", required=True)
    parser.add_argument("--retry", type=float, default=1.0, help="first delay after a failed sync")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    fields = json.loads(os.environ["TASKLAYER_CLUSTER"])
    cluster = AwsCluster(**{**fields, "subnet_ids": tuple(fields["subnet_ids"])})
    context = Context(region="us-east-1", endpoint_url=os.environ["TASKLAYER_AWS_ENDPOINT"])
    core = CoreV1Api(kubernetes.config.new_client_from_config(os.environ["KUBECONFIG"]))
    controller = ServiceController(
        core, AwsLoadBalancers(context, cluster), args.namespace, Retry(args.retry)
    )
    controller.start()
    log.info("watching Services in %s and every Node", args.namespace)
    controller.run()


if __name__ == "__main__":
    main()
