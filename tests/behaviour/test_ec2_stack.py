"""The generated EC2 tasks against moto (in-process): the kOps behaviours, counted through
botocore's event hooks."""

from __future__ import annotations

from collections.abc import Iterator

import boto3
import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2 import SecurityGroupIngress, Vpc
from tasklayer_tasks.runtime import (
    CannotChangeFieldError,
    CloudTarget,
    Context,
    DryRunTarget,
    Executor,
    MultipleMatchesError,
)
from testbed.stack import Calls, counted_context, network_stack

CREATES = {
    "CreateVpc", "CreateSubnet", "CreateInternetGateway", "AttachInternetGateway", "CreateRouteTable",
    "CreateRoute", "AssociateRouteTable", "CreateSecurityGroup", "AuthorizeSecurityGroupIngress",
    "AuthorizeSecurityGroupEgress", "AllocateAddress", "CreateNatGateway",
}


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


def apply(context: Context, tasks: list) -> None:
    Executor(CloudTarget(context), sleep=lambda _: None).run(tasks)


def test_clean_apply_creates_each_resource_once_with_tags_in_create(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    apply(context, network_stack().tasks())
    writes = calls.writes()
    assert {op: writes.get(op) for op in CREATES} == dict.fromkeys(CREATES, 1)
    # EnableDnsHostnames is not a CreateVpc member: one ModifyVpcAttribute after the create
    assert set(writes) - CREATES == {"ModifyVpcAttribute"}
    assert "CreateTags" not in writes
    create_vpc = next(p for op, p in calls.params if op == "CreateVpc")
    tags = create_vpc["TagSpecifications"][0]
    assert tags["ResourceType"] == "vpc"
    assert {"Key": "Name", "Value": "demo"} in tags["Tags"]
    assert {"Key": "KubernetesCluster", "Value": "demo"} in tags["Tags"]


def test_second_apply_makes_no_mutating_call(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    apply(context, network_stack().tasks())
    calls.clear()
    apply(context, network_stack().tasks())
    assert calls.writes() == {}
    assert calls.reads()  # it did look


def test_mutable_field_change_makes_exactly_its_update_call(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    apply(context, network_stack().tasks())
    calls.clear()
    stack = network_stack()
    stack.vpc.enable_dns_hostnames = False
    apply(context, stack.tasks())
    assert calls.writes() == {"ModifyVpcAttribute": 1}
    params = next(p for op, p in calls.params if op == "ModifyVpcAttribute")
    assert params == {"VpcId": stack.vpc.id, "EnableDnsHostnames": {"Value": False}}


def test_tag_change_makes_only_create_tags(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    apply(context, network_stack().tasks())
    calls.clear()
    stack = network_stack()
    stack.ssh.tags = {"Purpose": "ssh"}
    apply(context, stack.tasks())
    assert calls.writes() == {"CreateTags": 1}
    params = next(p for op, p in calls.params if op == "CreateTags")
    assert params["Resources"] == [stack.ssh.id] and params["Tags"] == [{"Key": "Purpose", "Value": "ssh"}]


def test_new_security_group_rule_is_one_authorize_call(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    stack = network_stack()
    apply(context, stack.tasks())
    calls.clear()
    https = SecurityGroupIngress(name="https.demo", security_group=stack.nodes, ip_protocol="tcp",
                                 from_port=443, to_port=443, cidr_ip="0.0.0.0/0")
    apply(context, [*network_stack().tasks(), https])
    assert calls.writes() == {"AuthorizeSecurityGroupIngress": 1}


def test_create_only_change_fails_before_any_write_naming_the_field(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    apply(context, network_stack().tasks())
    calls.clear()
    stack = network_stack()
    stack.vpc.cidr_block = "10.1.0.0/16"
    with pytest.raises(CannotChangeFieldError) as err:
        apply(context, stack.tasks())
    assert err.value.fields == ("cidr_block",)
    assert "Vpc/demo" in str(err.value) and "cidr_block" in str(err.value)
    assert calls.writes() == {}


def test_dry_run_prints_the_plan_and_writes_nothing(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    target = DryRunTarget(context)
    Executor(target, sleep=lambda _: None).run(network_stack().tasks())
    assert calls.writes() == {}
    text = target.plan.format()
    assert text.startswith("Will create resources:")
    assert "  Vpc/demo\n    cidr_block: '10.0.0.0/16'" in text
    assert "vpc: '<id of Vpc/demo>'" in text  # the subnet's VPC does not exist yet
    apply(context, network_stack().tasks())
    calls.clear()
    stack = network_stack()
    stack.vpc.enable_dns_hostnames = False
    target = DryRunTarget(context)
    Executor(target, sleep=lambda _: None).run(stack.tasks())
    assert calls.writes() == {}
    assert target.plan.format() == "Will modify resources:\n  Vpc/demo\n    enable_dns_hostnames: True -> False\n"


OWNED_DEMO = [{"Key": "KubernetesCluster", "Value": "demo"}, {"Key": "kubernetes.io/cluster/demo", "Value": "owned"}]


def test_same_name_of_another_owner_is_never_adopted_nor_deleted(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    ec2 = boto3.client("ec2", region_name="us-east-1")
    theirs = ec2.create_vpc(CidrBlock="10.0.0.0/16", TagSpecifications=[
        {"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "demo"}]}])["Vpc"]["VpcId"]
    vpc = Vpc(name="demo", cidr_block="10.0.0.0/16")
    apply(context, [vpc])
    assert vpc.id != theirs and calls.writes() == {"CreateVpc": 1}
    Executor(CloudTarget(context), sleep=lambda _: None).delete([Vpc(name="demo")])
    left = ec2.describe_vpcs(Filters=[{"Name": "tag:Name", "Values": ["demo"]}])["Vpcs"]
    assert [v["VpcId"] for v in left] == [theirs] and left[0]["Tags"] == [{"Key": "Name", "Value": "demo"}]


def test_same_name_with_the_clusters_ownership_tags_is_adopted(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    ec2 = boto3.client("ec2", region_name="us-east-1")
    existing = ec2.create_vpc(CidrBlock="10.0.0.0/16", TagSpecifications=[
        {"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "demo"}, *OWNED_DEMO]}])["Vpc"]["VpcId"]
    vpc = Vpc(name="demo", cidr_block="10.0.0.0/16")
    apply(context, [vpc])
    assert vpc.id == existing
    assert "CreateVpc" not in calls.writes()


def test_two_owned_matches_is_a_clear_error(cloud: tuple[Context, Calls]) -> None:
    context, _ = cloud
    ec2 = boto3.client("ec2", region_name="us-east-1")
    for _ in range(2):
        ec2.create_vpc(CidrBlock="10.0.0.0/16", TagSpecifications=[
            {"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "demo"}, *OWNED_DEMO]}])
    with pytest.raises(MultipleMatchesError, match=r"Vpc/demo: found more than one resource with tag:Name='demo'"):
        apply(context, [Vpc(name="demo", cidr_block="10.0.0.0/16")])


def _inventory() -> dict[str, list[str]]:
    ec2 = boto3.client("ec2", region_name="us-east-1")
    return {
        "vpcs": sorted(v["VpcId"] for v in ec2.describe_vpcs()["Vpcs"]),
        "subnets": sorted(s["SubnetId"] for s in ec2.describe_subnets()["Subnets"]),
        "igws": sorted(i["InternetGatewayId"] for i in ec2.describe_internet_gateways()["InternetGateways"]),
        "route_tables": sorted(r["RouteTableId"] for r in ec2.describe_route_tables()["RouteTables"]),
        "groups": sorted(g["GroupId"] for g in ec2.describe_security_groups()["SecurityGroups"]),
        "addresses": sorted(a["AllocationId"] for a in ec2.describe_addresses()["Addresses"]),
        "nat": sorted(n["NatGatewayId"] for n in ec2.describe_nat_gateways()["NatGateways"] if n["State"] != "deleted"),
    }


def test_delete_in_reverse_order_leaves_nothing_behind(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    before = _inventory()
    apply(context, network_stack().tasks())
    assert _inventory() != before
    calls.clear()
    Executor(CloudTarget(context), sleep=lambda _: None).delete(network_stack().tasks())
    assert _inventory() == before
    writes = calls.writes()
    assert writes["DeleteVpc"] == 1 and writes["ReleaseAddress"] == 1 and writes["DetachInternetGateway"] == 1
    order = [op for op, _ in calls.params if not op.startswith("Describe")]
    assert order.index("DeleteNatGateway") < order.index("ReleaseAddress")
    assert order.index("DeleteSubnet") < order.index("DeleteVpc")


def test_pending_nat_gateway_makes_its_dependents_wait_without_a_duplicate(cloud: tuple[Context, Calls]) -> None:
    """NatGatewayAvailable's acceptors say when it is ready; until then the route that uses it
    waits (the executor retries quietly) and the gateway is not created twice."""
    from tasklayer_tasks.aws.ec2 import Route

    context, calls = cloud
    pending_reads = [3]

    def still_pending(parsed: dict, **_: object) -> None:
        if pending_reads[0] > 0:
            pending_reads[0] -= 1
            for nat in parsed.get("NatGateways", []):
                nat["State"] = "pending"

    def answered_pending(parsed: dict, **_: object) -> None:
        parsed["NatGateway"]["State"] = "pending"  # as AWS answers a new one (its answer is read)

    context.client("ec2").meta.events.register("after-call.ec2.DescribeNatGateways", still_pending)
    context.client("ec2", sdk_retries=False).meta.events.register("after-call.ec2.CreateNatGateway", answered_pending)
    context.client("ec2").meta.events.register("after-call.ec2.CreateNatGateway", answered_pending)
    stack = network_stack()
    private = Route(name="private-default", route_table=stack.route_table, destination_cidr_block="10.9.0.0/16",
                    nat_gateway=stack.nat)
    executor = Executor(CloudTarget(context), sleep=lambda _: None)
    executor.run([*stack.tasks(), private])
    assert calls.writes()["CreateNatGateway"] == 1 and calls.writes()["CreateRoute"] == 2
    assert executor.attempts["NatGateway/demo"] > 1 and pending_reads[0] == 0
    route_params = [p for op, p in calls.params if op == "CreateRoute" and p.get("NatGatewayId")]
    assert route_params and route_params[0]["NatGatewayId"] == stack.nat.id
