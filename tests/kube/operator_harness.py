"""What the operator tests share: the generated aws/ec2 kopf operator (``testbed/kopf_ec2.py``)
as its own process against the real API server and ``moto_server`` behind
:class:`testbed.proxy.FaultProxy`, each test in a namespace of its own (the operator watches
every ec2 kind in its namespace and would rightly act on what other tests leave behind), and
probes of the custom resources' state on the server.

Nothing here sleeps for the cloud: waits poll the API server for what the operator wrote.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import boto3
import kubernetes
import pytest

from testbed.apiserver import ApiServer, environ_kubeconfig
from tests.kube.conftest import CRDS, load_crd
from tests.kube.test_crds_on_apiserver import VERSION, Kind

OPERATOR = Path(__file__).resolve().parents[2] / "testbed" / "kopf_ec2.py"
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}
FINALIZER = "kopf.zalando.org/KopfFinalizerMarker"
LAST_HANDLED = "kopf.zalando.org/last-handled-configuration"


class Operator:
    """One ``kopf run`` of the operator in ``namespace``; ``kill()`` is ``kill -9``."""

    started: ClassVar[list[Operator]] = []  # every one a test started: stopped after it

    def __init__(
        self,
        apiserver: ApiServer,
        cloud_url: str,
        namespace: str,
        log: Path,
        peering: str | None = None,
        priority: int = 0,
    ) -> None:
        self.env = {**environ_kubeconfig(apiserver), **CREDENTIALS}
        self.env["TASKLAYER_AWS_ENDPOINT"] = cloud_url
        self.namespace, self.log, self.peering, self.priority = namespace, log, peering, priority
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._since = 0

    def start(self) -> Operator:
        args = [sys.executable, "-m", "kopf", "run", "--namespace", self.namespace]
        if self.peering is None:
            args.append("--standalone")
        else:
            args += [f"--peering={self.peering}", f"--priority={self.priority}"]
        self.starts += 1
        Operator.started.append(self)
        self._since = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as out:
            out.write(f"\n=== start {self.starts} ===\n".encode())
            out.flush()
            self.proc = subprocess.Popen(
                [*args, str(OPERATOR)],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=self.env,
                cwd=self.log.parent,
            )
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL: no finalizer, no status write, no goodbye."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def failed(self) -> bool:
        """Dead, or kopf has failed for good since the last start (a watch answered 404: it
        shuts down, and may hang there), where a Deployment's liveness probe would restart it."""
        if self.proc is None or self.proc.poll() is not None:
            return True
        with open(self.log, "rb") as log:
            log.seek(self._since)
            return b"multitasker has failed" in log.read()

    def said(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


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
