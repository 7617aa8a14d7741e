"""Prune (issue 13, item 4): what the cluster owns, of the kinds the tasks use, that no task
declares any more is planned as "will delete" and deleted only with ``prune=True``, in
dependency order; never anything not owned."""

from __future__ import annotations

from collections.abc import Iterator

import boto3
import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2 import Subnet, Vpc
from tasklayer_tasks.runtime import CloudTarget, Context, DryRunTarget, Executor
from testbed.stack import Calls, counted_context, network_stack


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


def run(context: Context, tasks: list, prune: bool = False, dry_run: bool = False) -> Executor:
    target = DryRunTarget(context) if dry_run else CloudTarget(context)
    executor = Executor(target, sleep=lambda _: None)
    executor.run(tasks, prune=prune)
    return executor


def subnets() -> list[str]:
    ec2 = boto3.client("ec2", region_name="us-east-1")
    return sorted(next((t["Value"] for t in s.get("Tags", []) if t["Key"] == "Name"), s["SubnetId"])
                  for s in ec2.describe_subnets()["Subnets"])


def with_extra_subnet() -> list:
    stack = network_stack()
    extra = Subnet(name="demo-b", vpc=stack.vpc, cidr_block="10.0.2.0/24", availability_zone="us-east-1b")
    return [*stack.tasks(), extra]


def test_undeclared_owned_resource_is_planned_then_deleted_only_with_prune(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    run(context, with_extra_subnet())
    assert "demo-b" in subnets()
    calls.clear()
    plan_run = Executor(DryRunTarget(context), sleep=lambda _: None)
    plan_run.run(network_stack().tasks())
    assert plan_run.target.plan.format() == "Will delete resources:\n  Subnet/demo-b\n"
    assert calls.writes() == {}
    run(context, network_stack().tasks())  # not asked: nothing deleted
    assert "demo-b" in subnets() and calls.writes() == {}
    executor = run(context, network_stack().tasks(), prune=True)
    assert executor.pruned == ["Subnet/demo-b"]
    assert calls.writes() == {"DeleteSubnet": 1}
    assert "demo-b" not in subnets() and "demo-a" in subnets()
    calls.clear()
    assert run(context, network_stack().tasks(), prune=True).pruned == [] and calls.writes() == {}


def test_what_the_cluster_does_not_own_is_never_pruned(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    stack = network_stack()
    run(context, stack.tasks())
    ec2 = boto3.client("ec2", region_name="us-east-1")
    ec2.create_subnet(VpcId=stack.vpc.id, CidrBlock="10.0.7.0/24", TagSpecifications=[
        {"ResourceType": "subnet", "Tags": [{"Key": "Name", "Value": "theirs"}]}])
    ec2.create_subnet(VpcId=stack.vpc.id, CidrBlock="10.0.8.0/24", TagSpecifications=[
        {"ResourceType": "subnet", "Tags": [{"Key": "Name", "Value": "other-cluster"},
                                            {"Key": "kubernetes.io/cluster/other", "Value": "owned"}]}])
    calls.clear()
    executor = run(context, network_stack().tasks(), prune=True)
    assert executor.pruned == [] and calls.writes() == {}
    assert {"theirs", "other-cluster"} <= set(subnets())


def test_prune_deletes_in_dependency_order(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    old_vpc = Vpc(name="old", cidr_block="10.1.0.0/16")
    old_subnet = Subnet(name="old-a", vpc=old_vpc, cidr_block="10.1.1.0/24")
    run(context, [*network_stack().tasks(), old_vpc, old_subnet])
    calls.clear()
    executor = run(context, network_stack().tasks(), prune=True)
    assert executor.pruned == ["Subnet/old-a", "Vpc/old"]
    order = [op for op, _ in calls.params if op.startswith("Delete")]
    assert order == ["DeleteSubnet", "DeleteVpc"]
    assert "old-a" not in subnets()
    vpcs = boto3.client("ec2", region_name="us-east-1").describe_vpcs(
        Filters=[{"Name": "tag:Name", "Values": ["old"]}])["Vpcs"]
    assert vpcs == []
