"""The fault proxy itself, with a plain boto3 client: each fault as a client sees it and what
moto committed behind it; the client-token rule as the EC2 documentation states it."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError, ConnectionClosedError

from testbed import inventory
from testbed.campaign import Lab
from testbed.proxy import Fault, FaultKind, _comparable
from tests.faults.fixtures import lab, module_lab  # noqa: F401 (fixtures)


def ec2(lab: Lab, region: str = "us-east-1", attempts: int = 1) -> Any:
    return boto3.client("ec2", endpoint_url=lab.proxy.url, region_name=region, aws_access_key_id="testing",
                        aws_secret_access_key="testing", config=Config(retries={"total_max_attempts": attempts}))


def causes(err: BaseException) -> list[type[BaseException]]:
    found: list[type[BaseException]] = []
    current: BaseException | None = err
    while current is not None:
        found.append(type(current))
        current = current.__context__
    return found


# kind -> (what the client sees, whether moto committed the create)
EXPECTED = {
    FaultKind.THROTTLE: ("RequestLimitExceeded", 503, False),
    FaultKind.ERROR_BEFORE: ("InternalError", 500, False),
    FaultKind.ERROR_AFTER: ("InternalError", 500, True),
    FaultKind.LOST: ("RemoteDisconnected", None, True),
    FaultKind.RESET: ("ConnectionResetError", None, False),
}


@pytest.mark.parametrize("kind", list(FaultKind), ids=lambda k: k.value)
def test_fault_at_the_planned_occurrence_only(lab: Lab, kind: FaultKind) -> None:
    client = ec2(lab)
    lab.proxy.plan(Fault("CreateVpc", 2, kind))
    client.create_vpc(CidrBlock="10.0.0.0/16")
    seen, status, committed = EXPECTED[kind]
    with pytest.raises((ClientError, ConnectionClosedError)) as caught:
        client.create_vpc(CidrBlock="10.1.0.0/16")
    if status is not None:
        assert isinstance(caught.value, ClientError)
        assert caught.value.response["Error"]["Code"] == seen
        assert caught.value.response["ResponseMetadata"]["HTTPStatusCode"] == status
    else:
        assert seen in {t.__name__ for t in causes(caught.value)}
    client.create_vpc(CidrBlock="10.2.0.0/16")  # the third one is not faulted
    cidrs = {v["CidrBlock"] for v in client.describe_vpcs()["Vpcs"] if not v.get("IsDefault")}
    assert cidrs == ({"10.0.0.0/16", "10.1.0.0/16", "10.2.0.0/16"} if committed else {"10.0.0.0/16", "10.2.0.0/16"})
    assert [r.fault for r in lab.proxy.requests if r.action == "CreateVpc"] == [None, kind, None]


def test_requests_are_recorded_at_the_wire(lab: Lab) -> None:
    client = ec2(lab)
    vpc = client.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    client.describe_vpcs(VpcIds=[vpc])
    assert [(r.action, r.mutating, r.region, r.status) for r in lab.proxy.requests] == [
        ("CreateVpc", True, "us-east-1", 200), ("DescribeVpcs", False, "us-east-1", 200)]
    assert lab.proxy.requests[1].params["VpcId.1"] == vpc
    assert lab.proxy.writes() == {"CreateVpc": 1} and lab.proxy.reads() == {"DescribeVpcs": 1}


def _route_tables(lab: Lab, region: str = "us-east-1") -> list[str]:
    return [i.id for i in inventory.take(lab.moto.url, region) if i.kind == "route-table"]


def test_same_token_same_parameters_returns_the_original_and_creates_nothing(lab: Lab) -> None:
    client = ec2(lab)
    vpc = client.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    first = client.create_route_table(VpcId=vpc, ClientToken="token-1")["RouteTable"]["RouteTableId"]
    again = client.create_route_table(VpcId=vpc, ClientToken="token-1")["RouteTable"]["RouteTableId"]
    assert again == first and _route_tables(lab) == [first]
    assert [r.replayed for r in lab.proxy.requests if r.action == "CreateRouteTable"] == [False, True]


def test_same_token_other_parameters_is_a_mismatch(lab: Lab) -> None:
    client = ec2(lab)
    vpc = client.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    other = client.create_vpc(CidrBlock="10.1.0.0/16")["Vpc"]["VpcId"]
    client.create_route_table(VpcId=vpc, ClientToken="token-1")
    with pytest.raises(ClientError) as caught:
        client.create_route_table(VpcId=other, ClientToken="token-1")
    assert caught.value.response["Error"]["Code"] == "IdempotentParameterMismatch"
    assert len(_route_tables(lab)) == 1


def test_a_token_is_only_remembered_once_the_request_succeeded(lab: Lab) -> None:
    client = ec2(lab)
    with pytest.raises(ClientError):
        client.create_route_table(VpcId="vpc-missing", ClientToken="token-1")
    vpc = client.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    client.create_route_table(VpcId=vpc, ClientToken="token-1")  # not a mismatch: nothing was done
    assert len(_route_tables(lab)) == 1


def test_the_same_token_in_another_region_is_another_request(lab: Lab) -> None:
    east, west = ec2(lab), ec2(lab, "us-west-2")
    east.create_route_table(VpcId=east.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"], ClientToken="t")
    west.create_route_table(VpcId=west.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"], ClientToken="t")
    assert len(_route_tables(lab, "us-east-1")) == 1 and len(_route_tables(lab, "us-west-2")) == 1


def test_availability_zone_and_token_are_not_compared() -> None:
    base = {"Action": "CreateSubnet", "VpcId": "vpc-1", "ClientToken": "t", "AvailabilityZone": "us-east-1a"}
    assert _comparable(base, "ClientToken") == _comparable(base | {"AvailabilityZone": "us-east-1b"}, "ClientToken")
    assert _comparable(base, "ClientToken") != _comparable(base | {"VpcId": "vpc-2"}, "ClientToken")


def test_lost_reply_then_sdk_retry_with_its_token_creates_once(lab: Lab) -> None:
    """botocore fills ``ClientToken`` (the model marks it) once per call and keeps it across its
    own retries: judged as AWS would, the retry gets the original answer."""
    client = ec2(lab, attempts=3)
    vpc = client.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    lab.proxy.plan(Fault("CreateRouteTable", 1, FaultKind.LOST))
    table = client.create_route_table(VpcId=vpc)["RouteTable"]["RouteTableId"]
    assert _route_tables(lab) == [table]
    sent = [r for r in lab.proxy.requests if r.action == "CreateRouteTable"]
    assert [(r.fault, r.replayed) for r in sent] == [(FaultKind.LOST, False), (None, True)]
    assert sent[0].params["ClientToken"] == sent[1].params["ClientToken"] != ""


def route53(lab: Lab) -> Any:
    return boto3.client("route53", endpoint_url=lab.proxy.url, region_name="us-east-1", aws_access_key_id="testing",
                        aws_secret_access_key="testing", config=Config(retries={"total_max_attempts": 1}))


def test_a_repeated_caller_reference_is_refused_as_route53_does(lab: Lab) -> None:
    """moto makes a second zone for a repeated CallerReference; the proxy answers as AWS:
    409 HostedZoneAlreadyExists, nothing made. Another reference makes another zone."""
    client = route53(lab)
    client.create_hosted_zone(Name="demo.example.com.", CallerReference="ref-1")
    with pytest.raises(ClientError) as caught:
        client.create_hosted_zone(Name="demo.example.com.", CallerReference="ref-1")
    assert caught.value.response["Error"]["Code"] == "HostedZoneAlreadyExists"
    assert caught.value.response["ResponseMetadata"]["HTTPStatusCode"] == 409
    client.create_hosted_zone(Name="demo.example.com.", CallerReference="ref-2")
    made = boto3.client("route53", endpoint_url=lab.moto.url, region_name="us-east-1", aws_access_key_id="testing",
                        aws_secret_access_key="testing").list_hosted_zones()["HostedZones"]
    assert sorted(z["CallerReference"] for z in made) == ["ref-1", "ref-2"]
    assert [r.action for r in lab.proxy.requests if r.mutating] == ["CreateHostedZone"] * 3  # named from its route
    assert [r.replayed for r in lab.proxy.requests if r.mutating] == [False, True, False]
