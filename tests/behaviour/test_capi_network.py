"""A CAPI-like network reconcile from generated reconcilers only, against moto: convergence,
no writes once Ready, ids persisted before the next call, crashes without duplicates, shared
resources untouched, delete removing only what the cluster owns."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from examples.aws_network import NetworkReconciler, NetworkSpec
from tasklayer_tasks.aws.ec2.reconcilers import VpcReconciler
from tasklayer_tasks.runtime import Context
from testbed.stack import Calls, counted_context


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


def converge(reconciler: NetworkReconciler, passes: int = 30) -> int:
    for attempt in range(1, passes + 1):
        if reconciler.reconcile().ready:
            return attempt
    raise AssertionError(f"not Ready after {passes} passes: {reconciler.reconcile()}")


def ec2() -> Any:
    return boto3.client("ec2", region_name="us-east-1")


def inventory() -> dict[str, int]:
    client = ec2()
    return {
        "vpcs": len(client.describe_vpcs()["Vpcs"]),
        "subnets": len(client.describe_subnets()["Subnets"]),
        "igws": len(client.describe_internet_gateways()["InternetGateways"]),
        "route_tables": len(client.describe_route_tables()["RouteTables"]),
        "groups": len(client.describe_security_groups()["SecurityGroups"]),
        "addresses": len(client.describe_addresses()["Addresses"]),
        "nat": len([n for n in client.describe_nat_gateways()["NatGateways"] if n["State"] != "deleted"]),
    }


def test_network_converges_then_reconciles_without_writes(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    store: dict[str, dict[str, Any]] = {}
    net = NetworkReconciler(context, NetworkSpec("capi"), store)
    converge(net)
    writes = calls.writes()
    assert writes["CreateVpc"] == 1 and writes["CreateSubnet"] == 2 and writes["CreateNatGateway"] == 1
    assert writes["CreateRoute"] == 2 and writes["AssociateRouteTable"] == 2
    vpc = ec2().describe_vpcs(VpcIds=[store["vpc"]["id"]])["Vpcs"][0]
    assert {"Key": "sigs.k8s.io/cluster-api-provider-aws/cluster/capi", "Value": "owned"} in vpc["Tags"]
    calls.clear()
    assert net.reconcile().ready
    assert calls.writes() == {}


def test_each_id_is_persisted_before_the_next_call(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    persisted: list[tuple[str, int]] = []
    store: dict[str, dict[str, Any]] = {}
    attempts: list[int] = []
    last: dict[str, dict[str, Any]] = {}

    def on_persist(key: str, status: dict[str, Any]) -> None:
        # the create's token is persisted before the call (it alone is new); the new id right
        # after it (the token stays beside it until the resource is seen)
        before, last[key] = last.get(key, {}), dict(status)
        begun = set(status) - set(before) == {"createAttempt"}
        (attempts if begun else persisted).append((key, len(calls.params)))  # type: ignore[arg-type]

    net = NetworkReconciler(context, NetworkSpec("persist"), store, on_persist=on_persist)
    converge(net)
    creates = [i for i, (op, _) in enumerate(calls.params)
               if op.startswith(("Create", "Allocate", "Associate", "Attach", "Authorize")) and op != "CreateTags"]
    # the persist callback ran right after each create call: no API call in between
    assert sorted(n - 1 for _, n in persisted) == creates
    assert sorted(n for _, n in attempts) == creates  # ... and the attempt's token right before it
    assert {key for key, _ in persisted} >= {"vpc", "subnet/public-a", "igw", "nat", "sg/nodes"}


class Crash(Exception):
    pass


def test_crash_right_after_create_makes_no_duplicate(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    store: dict[str, dict[str, Any]] = {}
    crashed: set[str] = set()

    def crash_once(key: str, status: dict[str, Any]) -> None:
        if key not in crashed:
            crashed.add(key)
            raise Crash(key)  # the controller dies right after the id reached the store

    net = NetworkReconciler(context, NetworkSpec("crash"), store, on_persist=crash_once)
    for _ in range(60):
        try:
            if net.reconcile().ready:
                break
        except Crash:
            continue
    assert net.reconcile().ready
    creates = {op: n for op, n in calls.writes().items() if op.startswith(("Create", "Allocate"))}
    assert creates["CreateVpc"] == 1 and creates["CreateSubnet"] == 2 and creates["CreateNatGateway"] == 1
    assert creates["AllocateAddress"] == 1 and creates["CreateSecurityGroup"] == 1


def test_crash_before_the_status_was_stored_is_adopted_by_name_and_ownership(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    lost: dict[str, dict[str, Any]] = {}
    reconciler = VpcReconciler(context, "lost", persist=lambda status: (_ for _ in ()).throw(Crash()))
    with pytest.raises(Crash):
        reconciler.reconcile({"name": "lost", "cidrBlock": "10.0.0.0/16"}, lost)
    result = VpcReconciler(context, "lost").reconcile({"name": "lost", "cidrBlock": "10.0.0.0/16"}, lost)
    assert result.ready and result.status["id"].startswith("vpc-")
    assert calls.writes()["CreateVpc"] == 1


def test_shared_vpc_is_only_read_and_survives_delete(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    shared = ec2().create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    before = inventory()
    store: dict[str, dict[str, Any]] = {}
    net = NetworkReconciler(context, NetworkSpec("byo", shared_vpc_id=shared), store)
    converge(net)
    touched = [p for op, p in calls.params if p.get("VpcId") == shared and not op.startswith("Describe")
               and op not in ("CreateSubnet", "CreateRouteTable", "CreateSecurityGroup", "AttachInternetGateway")]
    assert touched == [] and "CreateVpc" not in calls.writes()
    assert store["vpc"]["id"] == shared
    for _ in range(20):
        if not net.delete().requeue_after:
            break
    assert ec2().describe_vpcs(VpcIds=[shared])["Vpcs"]  # still there
    assert inventory() == before


def test_same_name_not_owned_is_never_adopted_and_survives_delete(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    theirs = ec2().create_vpc(CidrBlock="10.0.0.0/16", TagSpecifications=[
        {"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "theirs"}]}])["Vpc"]["VpcId"]
    calls.clear()
    result = VpcReconciler(context, "mine").reconcile({"name": "theirs", "cidrBlock": "10.1.0.0/16"}, {})
    assert result.ready and result.status["id"] != theirs  # a Name tag proves nothing: ours is made
    deleted = VpcReconciler(context, "mine").delete({"name": "theirs"}, result.status)
    assert deleted.requeue_after is None and calls.writes()["DeleteVpc"] == 1
    assert [v["VpcId"] for v in ec2().describe_vpcs(VpcIds=[theirs])["Vpcs"]] == [theirs]


def test_found_by_id_but_not_owned_is_an_error_and_left_alone(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    theirs = ec2().create_vpc(CidrBlock="10.0.0.0/16", TagSpecifications=[
        {"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "theirs"}]}])["Vpc"]["VpcId"]
    calls.clear()
    result = VpcReconciler(context, "mine").reconcile({"name": "theirs", "cidrBlock": "10.0.0.0/16"}, {"id": theirs})
    condition = result.conditions[0]
    assert (condition.status, condition.reason, condition.severity) == ("False", "NotOwned", "Error")
    assert "declare it shared" in condition.message and theirs in condition.message
    assert "id" not in result.status  # never recorded: a later delete cannot find its way to it
    assert calls.writes() == {}
    deleted = VpcReconciler(context, "mine").delete({"name": "theirs"}, {"id": theirs})
    assert deleted.requeue_after is None and calls.writes() == {}
    assert ec2().describe_vpcs(VpcIds=[theirs])["Vpcs"]


def test_delete_removes_everything_owned(cloud: tuple[Context, Calls]) -> None:
    context, _ = cloud
    before = inventory()
    store: dict[str, dict[str, Any]] = {}
    net = NetworkReconciler(context, NetworkSpec("gone"), store)
    converge(net)
    for _ in range(20):
        if not net.delete().requeue_after:
            break
    assert inventory() == before


def test_pending_resource_is_not_ready_with_a_requeue(cloud: tuple[Context, Calls]) -> None:
    context, _ = cloud

    def pending(parsed: dict[str, Any], **_: Any) -> None:
        for nat in parsed.get("NatGateways", []):
            nat["State"] = "pending"

    context.client("ec2").meta.events.register("after-call.ec2.DescribeNatGateways", pending)
    net = NetworkReconciler(context, NetworkSpec("slow"), {})
    for _ in range(10):
        result = net.reconcile()
    condition = result.conditions[0]
    assert (condition.status, condition.reason) == ("False", "Pending")
    assert condition.message.startswith("nat: state is 'pending'") and result.requeue_after == 15.0
