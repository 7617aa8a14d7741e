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
from tasklayer_tasks.testing import FakeGcp
from tasklayer_tasks.runtime.retry import RetryPolicy

DOCUMENT = Path(__file__).resolve().parents[2] / "generated" / "tasklayer_tasks" / "gcp" / "compute" / "discovery.json"


def gcp_context(operation_polls: int = 1, http: Any = None) -> tuple[Context, FakeGcp]:
    """A context over a fresh fake (or over ``http``, a wrapper of it that injects faults)."""
    fake = FakeGcp(json.loads(DOCUMENT.read_text()), operation_polls=operation_polls)
    context = Context(project="proj", region="us-central1", zone="us-central1-a", cluster="demo",
                      http=http(fake) if http else fake, retry=RetryPolicy(sleep=lambda _: None))
    return context, fake


def writes(fake: FakeGcp, since: int = 0) -> list[str]:
    return [r.method_id for r in fake.log[since:] if r.http_method != "GET" and not r.method_id.endswith(".wait")]


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
    network = Network(name=cluster, auto_create_subnetworks=False, routing_config={"routingMode": "REGIONAL"})
    health = HealthCheck(name=f"{cluster}-api", type_="TCP", tcp_health_check={"port": 443}, check_interval_sec=5)
    # a legacy HTTP health check, named by a relative name: compared with Google's full URL
    pool = TargetPool(name=f"{cluster}-api", health_checks=[f"projects/proj/global/httpHealthChecks/{cluster}-api"])
    template = InstanceTemplate(name=f"{cluster}-nodes", properties={"machineType": "e2-medium"})
    address = Address(name=f"{cluster}-api", labels={"role": "api"})
    return GceStack(
        network=network,
        subnet=Subnetwork(name=f"{cluster}-nodes", network=network, ip_cidr_range="10.0.0.0/20",
                          private_ip_google_access=True),
        ssh=Firewall(name=f"{cluster}-ssh", network=network, source_ranges=["0.0.0.0/0"],
                     allowed=[{"IPProtocol": "tcp", "ports": ["22"]}]),
        router=Router(name=f"{cluster}-nat", network=network, nats=[
            {"name": "nat", "natIpAllocateOption": "AUTO_ONLY",
             "sourceSubnetworkIpRangesToNat": "ALL_SUBNETWORKS_ALL_IP_RANGES"}]),
        api_address=address,
        global_address=GlobalAddress(name=f"{cluster}-ingress", labels={"role": "ingress"}),
        health=health,
        pool=pool,
        # the Address by reference: Google answers its IP
        api=ForwardingRule(name=f"{cluster}-api", ip_protocol="TCP", port_range="443", target=pool,
                           ip_address=address, labels={"role": "api"}),
        backend=BackendService(name=f"{cluster}-api", health_checks=[health]),
        template=template,
        nodes=InstanceGroupManager(name=f"{cluster}-nodes", base_instance_name=cluster, instance_template=template,
                                   target_size=2, target_pools=[pool]),
        etcd=Disk(name=f"{cluster}-etcd", size_gb="20", labels={"role": "etcd"}),
    )
