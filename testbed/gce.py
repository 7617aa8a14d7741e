"""The GCE stack kOps and CAPG create, as generated tasks, over the GCP fake of
``tasklayer_tasks.testing`` built from the shipped discovery document (calls counted from the
fake's request log)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tasklayer_tasks.gcp.compute import (
    Address,
    BackendService,
    Disk,
    Firewall,
    ForwardingRule,
    GlobalAddress,
    HealthCheck,
    InstanceGroupManager,
    InstanceTemplate,
    Network,
    Router,
    Subnetwork,
    TargetPool,
)
from tasklayer_tasks.runtime import Context, Task
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.testing import FakeGcp

DOCUMENT = (
    Path(__file__).resolve().parents[1]
    / "generated"
    / "tasklayer_tasks"
    / "gcp"
    / "compute"
    / "discovery.json"
)


def gcp_context(operation_polls: int = 1, http: Any = None) -> tuple[Context, FakeGcp]:
    """A context over a fresh fake (or over ``http``, a wrapper of it that injects faults)."""
    fake = FakeGcp(json.loads(DOCUMENT.read_text()), operation_polls=operation_polls)
    context = Context(
        project="proj",
        region="us-central1",
        zone="us-central1-a",
        cluster="demo",
        http=http(fake) if http else fake,
        retry=RetryPolicy(sleep=lambda _: None),
    )
    return context, fake


def writes(fake: FakeGcp, since: int = 0) -> list[str]:
    return [
        r.method_id
        for r in fake.log[since:]
        if r.http_method != "GET" and not r.method_id.endswith(".wait")
    ]


def bodies(fake: FakeGcp, method_id: str, since: int = 0) -> list[Any]:
    return [r.body for r in fake.log[since:] if r.method_id == method_id]


@dataclass
class GceStack:
    network: Network
    subnet: Subnetwork
    ssh: Firewall
    router: Router
    api_address: Address
    global_address: GlobalAddress
    health: HealthCheck
    pool: TargetPool
    api: ForwardingRule
    backend: BackendService
    template: InstanceTemplate
    nodes: InstanceGroupManager
    etcd: Disk

    def tasks(self) -> list[Task]:
        return list(vars(self).values())


def gce_stack(cluster: str = "demo") -> GceStack:
    network = Network(
        name=cluster, auto_create_subnetworks=False, routing_config={"routingMode": "REGIONAL"}
    )
    health = HealthCheck(
        name=f"{cluster}-api", type_="TCP", tcp_health_check={"port": 443}, check_interval_sec=5
    )
    # a legacy HTTP health check, named by a relative name: compared with Google's full URL
    pool = TargetPool(
        name=f"{cluster}-api",
        health_checks=[f"projects/proj/global/httpHealthChecks/{cluster}-api"],
    )
    template = InstanceTemplate(name=f"{cluster}-nodes", properties={"machineType": "e2-medium"})
    address = Address(name=f"{cluster}-api", labels={"role": "api"})
    return GceStack(
        network=network,
        subnet=Subnetwork(
            name=f"{cluster}-nodes",
            network=network,
            ip_cidr_range="10.0.0.0/20",
            private_ip_google_access=True,
        ),
        ssh=Firewall(
            name=f"{cluster}-ssh",
            network=network,
            source_ranges=["0.0.0.0/0"],
            allowed=[{"IPProtocol": "tcp", "ports": ["22"]}],
        ),
        router=Router(
            name=f"{cluster}-nat",
            network=network,
            nats=[
                {
                    "name": "nat",
                    "natIpAllocateOption": "AUTO_ONLY",
                    "sourceSubnetworkIpRangesToNat": "ALL_SUBNETWORKS_ALL_IP_RANGES",
                }
            ],
        ),
        api_address=address,
        global_address=GlobalAddress(name=f"{cluster}-ingress", labels={"role": "ingress"}),
        health=health,
        pool=pool,
        # the Address by reference: Google answers its IP
        api=ForwardingRule(
            name=f"{cluster}-api",
            ip_protocol="TCP",
            port_range="443",
            target=pool,
            ip_address=address,
            labels={"role": "api"},
        ),
        backend=BackendService(name=f"{cluster}-api", health_checks=[health]),
        template=template,
        nodes=InstanceGroupManager(
            name=f"{cluster}-nodes",
            base_instance_name=cluster,
            instance_template=template,
            target_size=2,
            target_pools=[pool],
        ),
        etcd=Disk(name=f"{cluster}-etcd", size_gb="20", labels={"role": "etcd"}),
    )


# kOps' GCE firewall rules for a cluster (pkg/model/gcemodel/firewall.go), by their role
FIREWALLS = {
    "ssh-external-to-master": (["0.0.0.0/0"], "tcp", ["22"]),
    "ssh-external-to-node": (["0.0.0.0/0"], "tcp", ["22"]),
    "https-api": (["0.0.0.0/0"], "tcp", ["443"]),
    "node-to-node": (["10.0.0.0/20"], "tcp", ["1-65535"]),
    "node-to-master": (["10.0.0.0/20"], "tcp", ["443", "4194"]),
    "master-to-node": (["10.0.0.0/20"], "tcp", ["1-65535"]),
    "master-to-master": (["10.0.0.0/20"], "tcp", ["2380-2381", "4001-4002"]),
    "nodeport-external-to-node": (["0.0.0.0/0"], "tcp", ["30000-32767"]),
    "pod-cidrs-to-node": (["100.96.0.0/11"], "tcp", ["1-65535"]),
}


def gce_cluster(
    cluster: str = "demo",
    zones: tuple[str, ...] = ("us-central1-a", "us-central1-b", "us-central1-c"),
) -> list[Task]:
    """A kOps-like GCE cluster over three zones: the network, its subnet and NAT, kOps' firewall
    rules, the API's address, health check, pool and forwarding rule; per zone a control-plane
    template and group, a node group and the two etcd volumes (main, events)."""
    network = Network(
        name=cluster, auto_create_subnetworks=False, routing_config={"routingMode": "REGIONAL"}
    )
    subnet = Subnetwork(name=f"{cluster}-nodes", network=network, ip_cidr_range="10.0.0.0/20")
    health = HealthCheck(
        name=f"{cluster}-api", type_="TCP", tcp_health_check={"port": 443}, check_interval_sec=5
    )
    pool = TargetPool(
        name=f"{cluster}-api",
        health_checks=[f"projects/proj/global/httpHealthChecks/{cluster}-api"],
    )
    address = Address(name=f"{cluster}-api", labels={"role": "api"})
    nodes = InstanceTemplate(name=f"{cluster}-nodes", properties={"machineType": "e2-medium"})
    tasks: list[Task] = [
        network,
        subnet,
        health,
        pool,
        address,
        nodes,
        Router(
            name=f"{cluster}-nat",
            network=network,
            nats=[
                {
                    "name": "nat",
                    "natIpAllocateOption": "AUTO_ONLY",
                    "sourceSubnetworkIpRangesToNat": "ALL_SUBNETWORKS_ALL_IP_RANGES",
                }
            ],
        ),
        ForwardingRule(
            name=f"{cluster}-api",
            ip_protocol="TCP",
            port_range="443",
            target=pool,
            ip_address=address,
            labels={"role": "api"},
        ),
    ]
    for role, (sources, protocol, ports) in FIREWALLS.items():
        tasks.append(
            Firewall(
                name=f"{cluster}-{role}",
                network=network,
                source_ranges=sources,
                allowed=[{"IPProtocol": protocol, "ports": ports}],
            )
        )
    for zone in zones:
        suffix = zone.rsplit("-", 1)[-1]
        master = InstanceTemplate(
            name=f"{cluster}-master-{suffix}", properties={"machineType": "e2-standard-2"}
        )
        tasks += [
            master,
            InstanceGroupManager(
                name=f"{cluster}-master-{suffix}",
                zone=zone,
                base_instance_name=f"{cluster}-master",
                instance_template=master,
                target_size=1,
                target_pools=[pool],
            ),
            InstanceGroupManager(
                name=f"{cluster}-nodes-{suffix}",
                zone=zone,
                base_instance_name=f"{cluster}-nodes",
                instance_template=nodes,
                target_size=2,
            ),
            Disk(
                name=f"{cluster}-etcd-main-{suffix}",
                zone=zone,
                size_gb="20",
                labels={"role": "etcd-main"},
            ),
            Disk(
                name=f"{cluster}-etcd-events-{suffix}",
                zone=zone,
                size_gb="20",
                labels={"role": "etcd-events"},
            ),
        ]
    return tasks
