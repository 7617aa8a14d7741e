"""What the operator tests share: the generated aws/ec2 kopf operator (``testbed/kopf_ec2.py``)
as its own process against the real API server and ``moto_server`` behind
:class:`testbed.proxy.FaultProxy`, each test in a namespace of its own (the operator watches
every ec2 kind in its namespace and would rightly act on what other tests leave behind), and
probes of the custom resources' state on the server.

Nothing here sleeps for the cloud: waits poll the API server for what the operator wrote.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import boto3
import kubernetes
import pytest

from testbed.operator_process import Operator
from tests.kube.conftest import CRDS, load_crd
from tests.kube.test_crds_on_apiserver import VERSION, Kind

FINALIZER = "kopf.zalando.org/KopfFinalizerMarker"
LAST_HANDLED = "kopf.zalando.org/last-handled-configuration"


@pytest.fixture(autouse=True)
def stop_operators() -> Iterator[None]:
    """Every operator a test started is stopped after it, passed or failed: one left running
    would act on the next test's API server state."""
    yield
    while Operator.started:
        Operator.started.pop().stop()


def ec2_client(url: str) -> Any:
    return boto3.client(
        "ec2",
        endpoint_url=url,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )


def kind(client: kubernetes.client.ApiClient, plural: str, namespace: str) -> Kind:
    name = f"{plural}.ec2.aws.tasklayer.dev"
    crd = next(c for c in map(load_crd, CRDS) if c["metadata"]["name"] == name)
    return Kind(client, crd, namespace=namespace)


def until(what: str, probe: Callable[[], Any], log: Path, timeout: float = 120) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := probe()):
        if time.monotonic() > deadline:
            said = log.read_text(errors="replace")[-6000:] if log.exists() else ""
            pytest.fail(f"{what}: not within {timeout} s; the operator said:\n{said}")
        time.sleep(0.25)  # the operator acts on a watch event; nothing to wait on but its status
    return found


def ready_condition(status: dict[str, Any]) -> dict[str, Any] | None:
    found = [c for c in status.get("conditions") or [] if c.get("type") == "Ready"]
    return found[0] if found else None


def ready(kind: Kind, name: str, with_id: bool = True) -> Callable[[], dict[str, Any] | None]:
    """The object's status once Ready is True (and, ``with_id``, it carries its id)."""

    def probe() -> dict[str, Any] | None:
        status = kind.get(name).get("status") or {}
        condition = ready_condition(status)
        done = condition is not None and condition.get("status") == "True"
        return status if done and (status.get("id") or not with_id) else None

    return probe


def reason(kind: Kind, name: str, wanted: str) -> Callable[[], dict[str, Any] | None]:
    """The Ready condition once its reason is ``wanted``."""

    def probe() -> dict[str, Any] | None:
        condition = ready_condition(kind.get(name).get("status") or {})
        return condition if condition is not None and condition.get("reason") == wanted else None

    return probe


def gone(kind: Kind, name: str) -> Callable[[], bool]:
    def probe() -> bool:
        try:
            kind.get(name)
        except kubernetes.client.ApiException as error:
            return error.status == 404
        return False

    return probe


def handled(kind: Kind, name: str, key: str, value: Any) -> Callable[[], bool]:
    """kopf has finished handling a spec where ``key`` is ``value`` (its own record of it)."""

    def probe() -> bool:
        annotations = kind.get(name)["metadata"].get("annotations") or {}
        last = json.loads(annotations.get(LAST_HANDLED, "{}"))
        return bool((last.get("spec") or {}).get(key) == value)

    return probe


def delete(kind: Kind, name: str) -> None:
    kind.api.delete_namespaced_custom_object(kind.group, VERSION, kind.namespace, kind.plural, name)


class Network:
    """The network CR set of the tests: a Vpc, an InternetGateway attached to it, a Subnet, a
    SecurityGroup and a RouteTable in it, each naming the others by custom resource name."""

    # (plural, name, spec, has an id), in the order they depend on each other
    SET: tuple[tuple[str, str, dict[str, Any], bool], ...] = (
        ("vpcs", "net", {"name": "net", "cidrBlock": "10.0.0.0/16"}, True),
        ("internetgateways", "net-igw", {"name": "net-igw"}, True),
        (
            "internetgatewayattachments",
            "net-igw-att",
            {
                "name": "net-igw-att",
                "internetGatewayRef": {"name": "net-igw"},
                "vpcRef": {"name": "net"},
            },
            False,
        ),
        (
            "subnets",
            "net-a",
            {"name": "net-a", "vpcRef": {"name": "net"}, "cidrBlock": "10.0.1.0/24"},
            True,
        ),
        (
            "securitygroups",
            "net-sg",
            {
                "name": "net-sg",
                "vpcRef": {"name": "net"},
                "groupName": "net-sg",
                "description": "net",
            },
            True,
        ),
        ("routetables", "net-rt", {"name": "net-rt", "vpcRef": {"name": "net"}}, True),
    )
    CREATES = (
        "CreateVpc",
        "CreateInternetGateway",
        "AttachInternetGateway",
        "CreateSubnet",
        "CreateSecurityGroup",
        "CreateRouteTable",
    )
    DELETES = (
        "DeleteVpc",
        "DeleteInternetGateway",
        "DetachInternetGateway",
        "DeleteSubnet",
        "DeleteSecurityGroup",
        "DeleteRouteTable",
    )

    def __init__(self, client: kubernetes.client.ApiClient, namespace: str) -> None:
        self.kinds = {plural: kind(client, plural, namespace) for plural, *_ in self.SET}

    def apply(self) -> None:
        for plural, name, spec, _ in self.SET:
            self.kinds[plural].create(name, spec)

    def wait_ready(self, log: Path, timeout: float = 120) -> dict[str, dict[str, Any]]:
        return {
            name: until(
                f"the {plural} {name} is Ready",
                ready(self.kinds[plural], name, has_id),
                log,
                timeout,
            )
            for plural, name, _, has_id in self.SET
        }

    def delete_in_order(self, log: Path, timeout: float = 120) -> None:
        """What lives in the VPC first, the VPC last, each gone before the next."""
        for plural, name, _, _ in reversed(self.SET):
            delete(self.kinds[plural], name)
            until(f"{name} is deleted", gone(self.kinds[plural], name), log, timeout)

    def delete_all(self) -> None:
        """Every one at once: the finalizers sort the order out among themselves."""
        for plural, name, _, _ in self.SET:
            delete(self.kinds[plural], name)

    def all_gone(self) -> Callable[[], bool]:
        probes = [gone(self.kinds[plural], name) for plural, name, _, _ in self.SET]
        return lambda: all(p() for p in probes)


def cloud_leftovers(ec2: Any) -> dict[str, list[str]]:
    """What the cloud still holds besides moto's default VPC and what lives in it."""
    default = {v["VpcId"] for v in ec2.describe_vpcs()["Vpcs"] if v["IsDefault"]}
    mine = {
        "vpcs": [v["VpcId"] for v in ec2.describe_vpcs()["Vpcs"] if v["VpcId"] not in default],
        "subnets": [
            s["SubnetId"] for s in ec2.describe_subnets()["Subnets"] if s["VpcId"] not in default
        ],
        "security_groups": [
            g["GroupId"]
            for g in ec2.describe_security_groups()["SecurityGroups"]
            if g.get("VpcId") not in default and g["GroupName"] != "default"
        ],
        "route_tables": [
            t["RouteTableId"]
            for t in ec2.describe_route_tables()["RouteTables"]
            if t["VpcId"] not in default
            and not any(a.get("Main") for a in t.get("Associations", []))
        ],
        "internet_gateways": [
            g["InternetGatewayId"] for g in ec2.describe_internet_gateways()["InternetGateways"]
        ],
    }
    return {k: v for k, v in mine.items() if v}
