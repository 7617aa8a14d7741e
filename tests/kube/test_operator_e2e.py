"""The generated kopf operator for aws/ec2, run as its own process against the real API server
and ``moto_server`` (issue 24 item 3, first part): a Vpc and a Subnet CR become cloud resources
whose ids and Ready conditions land in the status, a create-only change is refused by the API
server, and deleting the CRs runs the finalizers that delete the cloud resources.

The Subnet names its VPC by id, read from the Vpc's status: the generated CRDs carry no
references by CR name yet.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import boto3
import kubernetes
import pytest

from testbed.apiserver import ApiServer, environ_kubeconfig
from testbed.moto import MotoServer
from tests.kube.conftest import CRDS, NAMESPACE, load_crd
from tests.kube.test_crds_on_apiserver import VERSION, Kind, refusal

OPERATOR = Path(__file__).resolve().parents[2] / "testbed" / "kopf_ec2.py"
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}
FINALIZER = "kopf.zalando.org/KopfFinalizerMarker"


@pytest.fixture
def moto() -> Iterator[MotoServer]:
    with MotoServer() as server:
        yield server


@pytest.fixture
def operator(
    apiserver: ApiServer, installed_crds: dict[str, Any], moto: MotoServer, tmp_path: Path
) -> Iterator[Path]:
    env = {**environ_kubeconfig(apiserver), **CREDENTIALS, "TASKLAYER_AWS_ENDPOINT": moto.url}
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
    return Kind(client, next(c for c in map(load_crd, CRDS) if c["metadata"]["name"] == name))


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


def test_vpc_and_subnet_crs_become_cloud_resources_and_finalizers_delete_them(
    operator: Path, moto: MotoServer, kube_client: kubernetes.client.ApiClient
) -> None:
    ec2 = boto3.client(
        "ec2",
        endpoint_url=moto.url,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    vpcs, subnets = _kind(kube_client, "vpcs"), _kind(kube_client, "subnets")
    vpcs.create("net", {"name": "net", "cidrBlock": "10.0.0.0/16"})
    vpc = _until("the Vpc is Ready", _ready(vpcs, "net"), operator)
    assert ec2.describe_vpcs(VpcIds=[vpc["id"]])["Vpcs"][0]["CidrBlock"] == "10.0.0.0/16"

    subnets.create("net-a", {"name": "net-a", "vpcId": vpc["id"], "cidrBlock": "10.0.1.0/24"})
    subnet = _until("the Subnet is Ready", _ready(subnets, "net-a"), operator)
    assert ec2.describe_subnets(SubnetIds=[subnet["id"]])["Subnets"][0]["VpcId"] == vpc["id"]
    assert FINALIZER in vpcs.get("net")["metadata"]["finalizers"]

    current = subnets.get("net-a")
    causes = refusal(subnets.replace, current, {**current["spec"], "cidrBlock": "10.0.2.0/24"})
    assert causes and causes[0]["field"] == "spec.cidrBlock"

    for kind, name in ((subnets, "net-a"), (vpcs, "net")):
        kind.api.delete_namespaced_custom_object(kind.group, VERSION, NAMESPACE, kind.plural, name)
        _until(f"{name} is deleted", _gone(kind, name), operator)
    assert (
        ec2.describe_subnets(Filters=[{"Name": "subnet-id", "Values": [subnet["id"]]}])["Subnets"]
        == []
    )
    assert ec2.describe_vpcs(Filters=[{"Name": "vpc-id", "Values": [vpc["id"]]}])["Vpcs"] == []
    assert os.path.getsize(operator) > 0
