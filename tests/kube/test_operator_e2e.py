"""The generated kopf operator for aws/ec2, run as its own process against the real API server
and ``moto_server`` (issue 24 item 3, first part): a Vpc, Subnet, SecurityGroup, InternetGateway
and RouteTable CR set becomes cloud resources whose ids and Ready conditions land in the status,
a mutable change costs exactly one cloud write, a create-only change is refused by the API
server, and deleting the CRs in dependency order runs the finalizers that delete the cloud
resources, leaving nothing in moto.

The operator talks to moto through :class:`testbed.proxy.FaultProxy` (no faults planned), which
records every request at the wire: that is how the cloud writes are counted.

The Subnet, SecurityGroup and RouteTable name their VPC by id, read from the Vpc's status: the
generated CRDs carry no references by CR name yet.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import boto3
import kubernetes
import pytest

from testbed.apiserver import ApiServer, environ_kubeconfig
from testbed.moto import MotoServer
from testbed.proxy import FaultProxy
from tests.kube.conftest import CRDS, load_crd
from tests.kube.test_crds_on_apiserver import VERSION, Kind, refusal

OPERATOR = Path(__file__).resolve().parents[2] / "testbed" / "kopf_ec2.py"
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}
FINALIZER = "kopf.zalando.org/KopfFinalizerMarker"
LAST_HANDLED = "kopf.zalando.org/last-handled-configuration"
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
    env = {**environ_kubeconfig(apiserver), **CREDENTIALS, "TASKLAYER_AWS_ENDPOINT": proxy.url}
    log = tmp_path / "operator.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kopf",
                "run",
                "--standalone",
                "--namespace",
                NAMESPACE,
                str(OPERATOR),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=tmp_path,
        )
    try:
        yield log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _kind(client: kubernetes.client.ApiClient, plural: str) -> Kind:
    name = f"{plural}.ec2.aws.tasklayer.dev"
    crd = next(c for c in map(load_crd, CRDS) if c["metadata"]["name"] == name)
    return Kind(client, crd, namespace=NAMESPACE)


def _until(what: str, probe: Callable[[], Any], log: Path, timeout: float = 120) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := probe()):
        if time.monotonic() > deadline:
            pytest.fail(
                f"{what}: not within {timeout} s; the operator said:\n{log.read_text()[-6000:]}"
            )
        time.sleep(
            0.25
        )  # the operator acts on a watch event; nothing here to wait on but its status
    return found


def _ready(kind: Kind, name: str) -> Callable[[], dict[str, Any] | None]:
    def probe() -> dict[str, Any] | None:
        status = kind.get(name).get("status") or {}
        ready = [
            c
            for c in status.get("conditions", [])
            if c["type"] == "Ready" and c["status"] == "True"
        ]
        return status if ready and status.get("id") else None

    return probe


def _gone(kind: Kind, name: str) -> Callable[[], bool]:
    def probe() -> bool:
        try:
            kind.get(name)
        except kubernetes.client.ApiException as error:
            return error.status == 404
        return False

    return probe


def _handled(kind: Kind, name: str, key: str, value: Any) -> Callable[[], bool]:
    """kopf has finished handling a spec where ``key`` is ``value`` (its own record of it)."""

    def probe() -> bool:
        annotations = kind.get(name)["metadata"].get("annotations") or {}
        handled = json.loads(annotations.get(LAST_HANDLED, "{}"))
        return bool((handled.get("spec") or {}).get(key) == value)

    return probe


def _delete(kind: Kind, name: str) -> None:
    kind.api.delete_namespaced_custom_object(kind.group, VERSION, NAMESPACE, kind.plural, name)


def test_network_crs_become_cloud_resources_and_finalizers_delete_them(
    operator: Path,
    moto: MotoServer,
    proxy: FaultProxy,
    kube_client: kubernetes.client.ApiClient,
) -> None:
    ec2 = boto3.client(
        "ec2",
        endpoint_url=moto.url,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    vpcs, subnets = _kind(kube_client, "vpcs"), _kind(kube_client, "subnets")
    groups, gateways = _kind(kube_client, "securitygroups"), _kind(kube_client, "internetgateways")
    tables = _kind(kube_client, "routetables")
    vpcs.create("net", {"name": "net", "cidrBlock": "10.0.0.0/16"})
    gateways.create("net-igw", {"name": "net-igw"})
    vpc = _until("the Vpc is Ready", _ready(vpcs, "net"), operator)
    assert ec2.describe_vpcs(VpcIds=[vpc["id"]])["Vpcs"][0]["CidrBlock"] == "10.0.0.0/16"

    subnets.create("net-a", {"name": "net-a", "vpcId": vpc["id"], "cidrBlock": "10.0.1.0/24"})
    groups.create(
        "net-sg",
        {"name": "net-sg", "vpcId": vpc["id"], "groupName": "net-sg", "description": "net"},
    )
    tables.create("net-rt", {"name": "net-rt", "vpcId": vpc["id"]})
    subnet = _until("the Subnet is Ready", _ready(subnets, "net-a"), operator)
    group = _until("the SecurityGroup is Ready", _ready(groups, "net-sg"), operator)
    gateway = _until("the InternetGateway is Ready", _ready(gateways, "net-igw"), operator)
    table = _until("the RouteTable is Ready", _ready(tables, "net-rt"), operator)
    assert ec2.describe_subnets(SubnetIds=[subnet["id"]])["Subnets"][0]["VpcId"] == vpc["id"]
    assert (
        ec2.describe_security_groups(GroupIds=[group["id"]])["SecurityGroups"][0]["VpcId"]
        == vpc["id"]
    )
    assert (
        ec2.describe_route_tables(RouteTableIds=[table["id"]])["RouteTables"][0]["VpcId"]
        == vpc["id"]
    )
    assert ec2.describe_internet_gateways(InternetGatewayIds=[gateway["id"]])["InternetGateways"]
    for kind, name in (
        (vpcs, "net"),
        (subnets, "net-a"),
        (groups, "net-sg"),
        (gateways, "net-igw"),
        (tables, "net-rt"),
    ):
        assert FINALIZER in kind.get(name)["metadata"]["finalizers"], name
        ready = [c for c in kind.get(name)["status"]["conditions"] if c["type"] == "Ready"]
        assert ready[0].get("reason"), f"{name}: Ready carries no reason: {ready}"

    # a mutable field: the one write that changes it, and nothing else (the rest of the set
    # is Ready and unchanged, so no other reconcile writes)
    # (a merge patch of the spec, as a user's apply would send: a PUT of a bare body would also
    # drop the finalizer and kopf's annotations, and so be handled as a fresh create)
    creates = ("Vpc", "Subnet", "SecurityGroup", "InternetGateway", "RouteTable")
    assert proxy.writes() == Counter(f"Create{kind}" for kind in creates), proxy.writes()
    proxy.clear()
    vpcs.api.patch_namespaced_custom_object(
        vpcs.group, VERSION, NAMESPACE, vpcs.plural, "net", {"spec": {"enableDnsHostnames": True}}
    )
    _until(
        "the DNS hostnames change is handled",
        _handled(vpcs, "net", "enableDnsHostnames", True),
        operator,
    )
    attribute = ec2.describe_vpc_attribute(VpcId=vpc["id"], Attribute="enableDnsHostnames")
    assert attribute["EnableDnsHostnames"]["Value"] is True
    assert proxy.writes() == Counter({"ModifyVpcAttribute": 1}), proxy.writes()
    assert FINALIZER in vpcs.get("net")["metadata"]["finalizers"]
    assert _ready(vpcs, "net")()

    current = subnets.get("net-a")
    causes = refusal(subnets.replace, current, {**current["spec"], "cidrBlock": "10.0.2.0/24"})
    assert causes and causes[0]["field"] == "spec.cidrBlock"

    # dependency order: what lives in the VPC first, the VPC last; one delete call each
    proxy.clear()
    for kind, name in (
        (tables, "net-rt"),
        (groups, "net-sg"),
        (subnets, "net-a"),
        (gateways, "net-igw"),
        (vpcs, "net"),
    ):
        _delete(kind, name)
        _until(f"{name} is deleted", _gone(kind, name), operator)
    assert proxy.writes() == Counter(f"Delete{kind}" for kind in creates), proxy.writes()
    in_vpc = [{"Name": "vpc-id", "Values": [vpc["id"]]}]
    assert ec2.describe_subnets(Filters=in_vpc)["Subnets"] == []
    assert ec2.describe_security_groups(Filters=in_vpc)["SecurityGroups"] == []
    assert ec2.describe_route_tables(Filters=in_vpc)["RouteTables"] == []
    assert (
        ec2.describe_internet_gateways(
            Filters=[{"Name": "internet-gateway-id", "Values": [gateway["id"]]}]
        )["InternetGateways"]
        == []
    )
    assert ec2.describe_vpcs(Filters=[{"Name": "vpc-id", "Values": [vpc["id"]]}])["Vpcs"] == []
    assert [v for v in ec2.describe_vpcs()["Vpcs"] if not v["IsDefault"]] == []
    assert os.path.getsize(operator) > 0
