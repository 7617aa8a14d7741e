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
    RouterReconciler,
    SubnetworkReconciler,
)
from tasklayer_tasks.gcp.compute.reconcilers import (
    NetworkReconciler as NetworkResourceReconciler,
)
from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.capi.steps import Step, StepReconciler


@dataclass
class GcpNetworkSpec:
    cluster: str
    shared_network: str | None = None  # use an existing network by name: only read, never changed
    subnets: dict[str, str] = field(
        default_factory=lambda: {"nodes": "10.0.0.0/20", "control-plane": "10.0.16.0/24"}
    )


class GcpNetworkReconciler(StepReconciler):
    def __init__(
        self,
        context: Context,
        spec: GcpNetworkSpec,
        store: MutableMapping[str, dict[str, Any]],
        on_persist: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> None:
        super().__init__(context, spec.cluster, store, on_persist)
        self.network = spec

    def _link(self, key: str) -> str:
        return str(self.store.get(key, {}).get("selfLink", ""))

    def steps(self) -> Iterator[Step]:
        c = self.network.cluster
        if self.network.shared_network:
            yield "network", NetworkResourceReconciler, {
                "name": self.network.shared_network,
                "shared": True,
            }
        else:
            yield "network", NetworkResourceReconciler, {"name": c, "autoCreateSubnetworks": False}
        for name, cidr in self.network.subnets.items():
            yield f"subnet/{name}", SubnetworkReconciler, {
                "name": f"{c}-{name}",
                "network": self._link("network"),
                "ipCidrRange": cidr,
            }
        yield "firewall/internal", FirewallReconciler, {
            "name": f"{c}-internal",
            "network": self._link("network"),
            "sourceRanges": ["10.0.0.0/8"],
            "allowed": [{"IPProtocol": "tcp"}, {"IPProtocol": "udp"}, {"IPProtocol": "icmp"}],
        }
        yield "router", RouterReconciler, {
            "name": f"{c}-router",
            "network": self._link("network"),
            "nats": [
                {
                    "name": f"{c}-nat",
                    "natIpAllocateOption": "AUTO_ONLY",
                    "sourceSubnetworkIpRangesToNat": "ALL_SUBNETWORKS_ALL_IP_RANGES",
                }
            ],
        }


def main() -> None:
    """``python examples/gcp_network.py``: against the runtime's GCP fake, built from the
    discovery document the generated package ships."""
    import json
    from importlib.resources import files

    from tasklayer_tasks.runtime.contract.retry import RetryPolicy
    from tasklayer_tasks.testing import FakeGcp

    document = json.loads(
        files("tasklayer_tasks.gcp.compute").joinpath("discovery.json").read_text()
    )
    fake = FakeGcp(document)
    context = Context(
        project="example",
        region="us-central1",
        zone="us-central1-a",
        http=fake,
        retry=RetryPolicy(sleep=lambda _: None),
    )
    store: dict[str, dict[str, Any]] = {}
    network = GcpNetworkReconciler(context, GcpNetworkSpec("example"), store)
    passes = next(n for n in range(1, 41) if network.reconcile().ready or n == 40)
    writes = [r.method_id for r in fake.log if r.http_method != "GET"]
    print(f"Ready after {passes} passes against the GCP fake; {len(writes)} writes:")
    for method in dict.fromkeys(writes):
        print(f"  {method} x{writes.count(method)}")


if __name__ == "__main__":
    main()
