"""A CAPG-like network reconcile built only from generated reconcilers.

Like CAPG's network service: the VPC network, its subnetworks, the firewall rules the cluster
needs, and a Cloud Router with NAT for the nodes. Each step is one generated reconciler; a step
that is not Ready (an operation still running) stops the pass and asks to be requeued.
Statuses live in ``store``; every new resource reaches it through the persist callback the
moment the insert call returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from tasklayer_tasks.gcp.compute.reconcilers import (
    FirewallReconciler,
    NetworkReconciler as NetworkResourceReconciler,
    RouterReconciler,
    SubnetworkReconciler,
)
from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.reconciler import Condition, Reconciler, Result


@dataclass
class GcpNetworkSpec:
    cluster: str
    shared_network: str | None = None  # use an existing network by name: only read, never changed
    subnets: dict[str, str] = field(default_factory=lambda: {"nodes": "10.0.0.0/20", "control-plane": "10.0.16.0/24"})


Step = tuple[str, type[Reconciler], dict[str, Any]]


class GcpNetworkReconciler:
    def __init__(self, context: Context, spec: GcpNetworkSpec, store: MutableMapping[str, dict[str, Any]],
                 on_persist: Callable[[str, dict[str, Any]], None] | None = None) -> None:
        self.context, self.network, self.store, self.on_persist = context, spec, store, on_persist

    def _link(self, key: str) -> str:
        return str(self.store.get(key, {}).get("selfLink", ""))

    def _steps(self) -> Iterator[Step]:
        c = self.network.cluster
        if self.network.shared_network:
            yield "network", NetworkResourceReconciler, {"name": self.network.shared_network, "shared": True}
        else:
            yield "network", NetworkResourceReconciler, {"name": c, "autoCreateSubnetworks": False}
        for name, cidr in self.network.subnets.items():
            yield f"subnet/{name}", SubnetworkReconciler, {"name": f"{c}-{name}", "network": self._link("network"),
                                                          "ipCidrRange": cidr}
        yield "firewall/internal", FirewallReconciler, {
            "name": f"{c}-internal", "network": self._link("network"), "sourceRanges": ["10.0.0.0/8"],
            "allowed": [{"IPProtocol": "tcp"}, {"IPProtocol": "udp"}, {"IPProtocol": "icmp"}]}
        yield "router", RouterReconciler, {"name": f"{c}-router", "network": self._link("network"), "nats": [
            {"name": f"{c}-nat", "natIpAllocateOption": "AUTO_ONLY",
             "sourceSubnetworkIpRangesToNat": "ALL_SUBNETWORKS_ALL_IP_RANGES"}]}

    def _reconciler(self, key: str, kind: type[Reconciler]) -> Reconciler:
        def persist(status: dict[str, Any]) -> None:
            self.store[key] = status
            if self.on_persist is not None:
                self.on_persist(key, status)

        return kind(self.context, self.network.cluster, persist=persist)

    def reconcile(self) -> Result:
        for key, kind, spec in self._steps():
            result = self._reconciler(key, kind).reconcile(spec, self.store.get(key, {}))
            self.store[key] = result.status
            if not result.ready:
                ready = result.conditions[0]
                return Result({}, (Condition("Ready", "False", ready.reason, f"{key}: {ready.message}",
                                             ready.severity),), result.requeue_after)
        return Result({}, (Condition("Ready", "True", "NetworkReady"),))

    def delete(self) -> Result:
        for key, kind, spec in reversed(list(self._steps())):
            result = self._reconciler(key, kind).delete(spec, self.store.get(key, {}))
            if result.requeue_after is not None:
                return Result({}, (Condition("Ready", "False", "Deleting", f"{key}: {result.conditions[0].message}",
                                             "Info"),), result.requeue_after)
            self.store.pop(key, None)
        return Result({}, (Condition("Ready", "False", "Deleted", severity="Info"),))
