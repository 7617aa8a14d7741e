"""The generated kopf operator for aws/ec2, run as its own process against the real API server
and ``moto_server`` (issue 24 item 3): a Vpc, InternetGateway (attached to the Vpc), Subnet,
SecurityGroup and RouteTable CR set that names its references by custom resource name
(``vpcRef: {name: net}``) becomes cloud resources whose ids and Ready conditions land in the
status, a mutable change costs exactly one cloud write, a create-only change is refused by the
API server, and deleting the CRs in dependency order runs the finalizers that delete the cloud
resources, leaving nothing in moto.

The operator talks to moto through :class:`testbed.proxy.FaultProxy` (no faults planned), which
records every request at the wire: that is how the cloud writes are counted.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes
import pytest

from testbed.apiserver import ApiServer
from testbed.moto import MotoServer
from testbed.proxy import FaultProxy
from tests.kube.operator_harness import (
    FINALIZER,
    Network,
    Operator,
    cloud_leftovers,
    delete,
    ec2_client,
    gone,
    handled,
    ready,
    reason,
    stop_operators,  # noqa: F401 (an autouse fixture: imported, it runs)
    until,
)
from tests.kube.test_crds_on_apiserver import VERSION, refusal

# the operator watches every ec2 kind in its namespace: the CRD tests leave their custom resources
# in the shared one, and an operator started there would (rightly) create every one of them
NAMESPACE = "operator-e2e"


@pytest.fixture
def moto() -> Iterator[MotoServer]:
    with MotoServer() as server:
        yield server


@pytest.fixture
def proxy(moto: MotoServer) -> Iterator[FaultProxy]:
    with FaultProxy(upstream=moto.url) as recorder:
        yield recorder


@pytest.fixture
def operator(
    apiserver: ApiServer, installed_crds: dict[str, Any], proxy: FaultProxy, tmp_path: Path
) -> Iterator[Path]:
    running = Operator(apiserver, proxy.url, NAMESPACE, tmp_path / "operator.log").start()
    try:
        yield running.log
    finally:
        running.stop()


def test_network_crs_become_cloud_resources_and_finalizers_delete_them(
    operator: Path,
    moto: MotoServer,
    proxy: FaultProxy,
    kube_client: kubernetes.client.ApiClient,
) -> None:
    ec2 = ec2_client(moto.url)
    net = Network(kube_client, NAMESPACE)
    vpcs, subnets = net.kinds["vpcs"], net.kinds["subnets"]
    # applied all at once: what names another waits for it (DependencyNotReady), then goes on
    net.apply()
    status = net.wait_ready(operator)
    vpc, subnet, gateway = status["net"], status["net-a"], status["net-igw"]
    assert ec2.describe_vpcs(VpcIds=[vpc["id"]])["Vpcs"][0]["CidrBlock"] == "10.0.0.0/16"
    assert ec2.describe_subnets(SubnetIds=[subnet["id"]])["Subnets"][0]["VpcId"] == vpc["id"]
    group = ec2.describe_security_groups(GroupIds=[status["net-sg"]["id"]])["SecurityGroups"]
    assert group[0]["VpcId"] == vpc["id"]
    table = ec2.describe_route_tables(RouteTableIds=[status["net-rt"]["id"]])["RouteTables"]
    assert table[0]["VpcId"] == vpc["id"]
    igw = ec2.describe_internet_gateways(InternetGatewayIds=[gateway["id"]])["InternetGateways"]
    assert [a["VpcId"] for a in igw[0]["Attachments"]] == [vpc["id"]]
    assert status["net-igw-att"]["vpcId"] == vpc["id"]
    for plural, name, _, _ in Network.SET:
        got = net.kinds[plural].get(name)
        assert FINALIZER in got["metadata"]["finalizers"], name
        ready_ = [c for c in got["status"]["conditions"] if c["type"] == "Ready"]
        assert ready_[0].get("reason"), f"{name}: Ready carries no reason: {ready_}"
        assert "createAttempt" not in got["status"], f"{name}: the attempt outlived its create"

    # one create each, however often a reference was not Ready yet
    assert proxy.writes() == Counter(Network.CREATES), proxy.writes()

    # a mutable field: the one write that changes it, and nothing else (the rest of the set
    # is Ready and unchanged, so no other reconcile writes)
    # (a merge patch of the spec, as a user's apply would send: a PUT of a bare body would also
    # drop the finalizer and kopf's annotations, and so be handled as a fresh create)
    proxy.clear()
    vpcs.api.patch_namespaced_custom_object(
        vpcs.group, VERSION, NAMESPACE, vpcs.plural, "net", {"spec": {"enableDnsHostnames": True}}
    )
    until(
        "the DNS hostnames change is handled",
        handled(vpcs, "net", "enableDnsHostnames", True),
        operator,
    )
    attribute = ec2.describe_vpc_attribute(VpcId=vpc["id"], Attribute="enableDnsHostnames")
    assert attribute["EnableDnsHostnames"]["Value"] is True
    assert proxy.writes() == Counter({"ModifyVpcAttribute": 1}), proxy.writes()
    assert FINALIZER in vpcs.get("net")["metadata"]["finalizers"]
    assert ready(vpcs, "net")()

    # create-only: the server's own CEL refuses a change, and a reference's too
    current = subnets.get("net-a")
    causes = refusal(subnets.replace, current, {**current["spec"], "cidrBlock": "10.0.2.0/24"})
    assert causes and causes[0]["field"] == "spec.cidrBlock"
    causes = refusal(subnets.replace, current, {**current["spec"], "vpcRef": {"name": "other"}})
    assert causes and causes[0]["field"] == "spec.vpcRef", causes
    # an id and a reference to the same field: refused, not guessed between
    both = {
        "name": "net-b",
        "vpcRef": {"name": "net"},
        "vpcId": vpc["id"],
        "cidrBlock": "10.0.2.0/24",
    }
    causes = refusal(subnets.create, "net-b", both)
    assert causes and causes[0]["field"] == "spec.vpcRef", causes

    # a reference to nothing: Ready=False with Config Connector's reason, no cloud call
    proxy.clear()
    subnets.create(
        "net-c", {"name": "net-c", "vpcRef": {"name": "nowhere"}, "cidrBlock": "10.0.3.0/24"}
    )
    waiting = until(
        "the dangling reference is reported",
        reason(subnets, "net-c", "DependencyNotFound"),
        operator,
    )
    assert waiting["status"] == "False" and "nowhere" in waiting["message"], waiting
    assert proxy.writes() == Counter(), proxy.writes()
    delete(subnets, "net-c")
    until("net-c is deleted", gone(subnets, "net-c"), operator)

    # dependency order: what lives in the VPC first, the VPC last; one delete call each
    proxy.clear()
    net.delete_in_order(operator)
    assert proxy.writes() == Counter(Network.DELETES), proxy.writes()
    assert cloud_leftovers(ec2) == {}
    assert os.path.getsize(operator) > 0
