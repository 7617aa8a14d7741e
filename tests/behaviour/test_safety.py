"""What keeps the generated tasks safe against a real account (issue: ownership, lost answers,
terminal states, delete scope, update order, answers checked, secrets), against moto in-process.
Faults are injected through botocore's own event hooks on the session every client is made
from; the wire-level campaign over moto_server is tests/behaviour/test_fault_campaign.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ReadTimeoutError
from moto import mock_aws

from examples.aws_network import NetworkReconciler, NetworkSpec
from tasklayer_tasks.aws.ec2 import InternetGateway, SecurityGroupIngress, Subnet, Vpc
from tasklayer_tasks.aws.ec2.reconcilers import InternetGatewayAttachmentReconciler
from tasklayer_tasks.runtime import (
    CloudTarget,
    Context,
    DryRunTarget,
    Executor,
    MalformedResponseError,
    NotOwnedError,
    TaskError,
)
from testbed.stack import Calls, counted_context, network_stack


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


def ec2() -> Any:
    return boto3.client("ec2", region_name="us-east-1")


class _Hooks:
    """Registers on the session (clients made later) and on the clients already made."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def register(self, event: str, handler: Any) -> None:
        self.context.session.get_component("event_emitter").register(event, handler)
        for retries in (True, False):
            if ("ec2", retries) in self.context._clients:
                self.context.client("ec2", sdk_retries=retries).meta.events.register(event, handler)


def emitter(context: Context) -> _Hooks:
    return _Hooks(context)


def apply(context: Context, tasks: list[Any]) -> Executor:
    executor = Executor(CloudTarget(context), sleep=lambda _: None)
    executor.run(tasks)
    return executor


def lose_answers(context: Context, operation: str, times: int = 1) -> list[int]:
    """The server carries the call out, then its answer is lost (a read timeout)."""
    lost = [0]

    def hook(**_: Any) -> None:
        if lost[0] < times:
            lost[0] += 1
            raise ReadTimeoutError(endpoint_url="https://ec2.us-east-1.amazonaws.com/")

    emitter(context).register(f"after-call.ec2.{operation}", hook)
    return lost


def tagged(name: str) -> list[dict[str, Any]]:
    return ec2().describe_vpcs(Filters=[{"Name": "tag:Name", "Values": [name]}])["Vpcs"]


# -- ownership -----------------------------------------------------------------------------------


def test_two_clusters_with_the_same_task_names_stay_separate(cloud: tuple[Context, Calls]) -> None:
    context_a, calls_a = cloud
    context_b, calls_b = counted_context(cluster="b")
    apply(context_a, network_stack("demo").tasks())
    apply(context_b, network_stack("demo").tasks())  # the same names, another cluster
    assert len(tagged("demo")) == 2 and calls_b.writes()["CreateVpc"] == 1
    Executor(CloudTarget(context_b), sleep=lambda _: None).delete(network_stack("demo").tasks())
    [left] = tagged("demo")
    assert {"Key": "kubernetes.io/cluster/demo", "Value": "owned"} in left["Tags"]
    calls_a.clear()
    apply(context_a, network_stack("demo").tasks())  # a's stack is whole: nothing to do
    assert calls_a.writes() == {}


def test_a_vpc_given_by_id_that_is_not_owned_is_an_error_and_untouched(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    theirs = ec2().create_vpc(CidrBlock="10.9.0.0/16", TagSpecifications=[
        {"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "theirs"}]}])["Vpc"]["VpcId"]
    with pytest.raises(NotOwnedError, match=f"Vpc/mine: Vpc {theirs} exists but is not owned by cluster demo"):
        apply(context, [Vpc(name="mine", id=theirs, enable_dns_hostnames=True)])
    with pytest.raises(NotOwnedError):
        Executor(CloudTarget(context), sleep=lambda _: None).delete([Vpc(name="mine", id=theirs)])
    assert calls.writes() == {}


def test_shared_vpc_is_read_and_verified_never_renamed_changed_or_deleted(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    theirs = ec2().create_vpc(CidrBlock="10.9.0.0/16", TagSpecifications=[
        {"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "theirs"}]}])["Vpc"]["VpcId"]
    vpc = Vpc(name="mine", id=theirs, shared=True)
    subnet = Subnet(name="mine-a", vpc=vpc, cidr_block="10.9.1.0/24")
    apply(context, [vpc, subnet])
    assert calls.writes() == {"CreateSubnet": 1}
    assert ec2().describe_vpcs(VpcIds=[theirs])["Vpcs"][0]["Tags"] == [{"Key": "Name", "Value": "theirs"}]
    with pytest.raises(TaskError, match="differs from what was declared: cidr_block"):
        apply(context, [Vpc(name="mine", id=theirs, shared=True, cidr_block="10.0.0.0/16")])
    Executor(CloudTarget(context), sleep=lambda _: None).delete([vpc, subnet])
    assert ec2().describe_vpcs(VpcIds=[theirs])["Vpcs"] and calls.writes()["DeleteSubnet"] == 1
    assert "DeleteVpc" not in calls.writes()


# -- lost answers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("times", [1, 100], ids=["once", "every-attempt"])
def test_create_whose_answer_is_lost_is_found_not_repeated(cloud: tuple[Context, Calls], times: int) -> None:
    context, calls = cloud
    lost = lose_answers(context, "CreateVpc", times)
    stack = network_stack()
    apply(context, stack.tasks())
    assert lost[0] == 1 and calls.made["CreateVpc"] == 1  # never sent again: found by its marker
    [vpc] = tagged("demo")
    assert vpc["VpcId"] == stack.vpc.id
    calls.clear()
    apply(context, network_stack().tasks())
    assert calls.writes() == {}


@pytest.mark.parametrize("operation", ["CreateInternetGateway", "AllocateAddress", "CreateSubnet",
                                       "AttachInternetGateway", "CreateRoute", "AssociateRouteTable"])
def test_lost_answers_on_every_create_converge_without_duplicates(cloud: tuple[Context, Calls], operation: str) -> None:
    context, calls = cloud
    lose_answers(context, operation)
    apply(context, network_stack().tasks())
    assert calls.made[operation] == 1
    calls.clear()
    apply(context, network_stack().tasks())
    assert calls.writes() == {}


def test_lost_attach_answer_in_a_reconciler_is_recognised_as_ours(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    store: dict[str, dict[str, Any]] = {}
    net = NetworkReconciler(context, NetworkSpec("lost"), store)
    lose_answers(context, "AttachInternetGateway")
    results = [net.reconcile() for _ in range(12)]
    assert results[-1].ready, results[-1]
    assert not any(r.conditions[0].reason == "NotOwned" for r in results)
    assert calls.made["AttachInternetGateway"] == 1


def test_attachment_found_in_a_parent_of_another_cluster_is_not_owned(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    igw = ec2().create_internet_gateway()["InternetGateway"]["InternetGatewayId"]
    vpc = ec2().create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    ec2().attach_internet_gateway(InternetGatewayId=igw, VpcId=vpc)
    rec = InternetGatewayAttachmentReconciler(context, "mine")
    result = rec.reconcile({"internetGatewayId": igw, "vpcId": vpc}, {})
    assert result.conditions[0].reason == "NotOwned" and result.status == {}
    rec.delete({"internetGatewayId": igw, "vpcId": vpc}, result.status)
    assert ec2().describe_internet_gateways(InternetGatewayIds=[igw])["InternetGateways"][0]["Attachments"]


# -- terminal states, delete scope, update order ---------------------------------------------------


def test_nat_gateway_deleted_out_of_band_is_recreated(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    stack = network_stack()
    apply(context, stack.tasks())
    ec2().delete_nat_gateway(NatGatewayId=stack.nat.id)  # AWS keeps listing it as "deleted"
    # AWS frees the gateway's Elastic IP as it deletes it; moto keeps the association: free it
    [address] = ec2().describe_addresses(AllocationIds=[stack.eip.id])["Addresses"]
    if address.get("AssociationId"):
        ec2().disassociate_address(AssociationId=address["AssociationId"])
    calls.clear()
    again = network_stack()
    apply(context, again.tasks())
    assert calls.writes() == {"CreateNatGateway": 1} and again.nat.id != stack.nat.id


def test_delete_removes_exactly_the_tasks_given(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    stack = network_stack()
    apply(context, stack.tasks())
    calls.clear()
    Executor(CloudTarget(context), sleep=lambda _: None).delete([network_stack().ssh])
    assert calls.writes() == {"RevokeSecurityGroupIngress": 1}
    assert ec2().describe_security_groups(GroupIds=[stack.nodes.id])["SecurityGroups"]


def test_in_use_by_something_outside_the_delete_fails_fast(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    apply(context, network_stack().tasks())
    calls.clear()
    executor = Executor(CloudTarget(context), sleep=lambda _: None)
    with pytest.raises(TaskError, match="Vpc/demo: in use by .* this delete was not asked to remove") as err:
        executor.delete([network_stack().vpc])
    stack = network_stack()
    Executor(CloudTarget(context), sleep=lambda _: None).run(stack.tasks())  # (learns the ids)
    for blocker in (f"Subnet {stack.subnet.id}", f"SecurityGroup {stack.nodes.id}", f"RouteTable {stack.route_table.id}"):
        assert blocker in str(err.value)  # the blocking ids, by the kinds that refer to a Vpc
    assert calls.writes()["DeleteVpc"] == 1  # asked once: no spinning to the deadline


def test_deleting_twice_makes_no_malformed_call(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    apply(context, network_stack().tasks())
    for _ in range(2):
        Executor(CloudTarget(context), sleep=lambda _: None).delete(network_stack().tasks())
    for _, params in calls.params:
        for f in params.get("Filters", []):
            assert all(v not in ("", None) for v in f["Values"]), params


def test_dns_support_is_enabled_before_dns_hostnames(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    apply(context, [Vpc(name="dns", cidr_block="10.0.0.0/16", enable_dns_support=False, enable_dns_hostnames=False)])
    calls.clear()
    apply(context, [Vpc(name="dns", cidr_block="10.0.0.0/16", enable_dns_hostnames=True, enable_dns_support=True)])
    order = [next(iter(k for k in p if k != "VpcId")) for op, p in calls.params if op == "ModifyVpcAttribute"]
    assert order == ["EnableDnsSupport", "EnableDnsHostnames"]


# -- answers checked before they are believed ---------------------------------------------------


def _garble(context: Context, operation: str, change: Any) -> None:
    emitter(context).register(f"after-call.ec2.{operation}", lambda parsed, **_: change(parsed))


@pytest.mark.parametrize("garbage", [
    lambda parsed: parsed.update(Vpcs="garbage"),
    lambda parsed: parsed.update(Vpcs=["garbage"]),
    lambda parsed: [v.update(Tags=[{"Value": "no key"}]) for v in parsed.get("Vpcs", [])],
], ids=["string", "item-not-object", "tag-without-key"])
def test_a_garbled_read_is_an_error_never_a_reason_to_create(cloud: tuple[Context, Calls], garbage: Any) -> None:
    context, calls = cloud
    ec2().create_vpc(CidrBlock="10.0.0.0/16", TagSpecifications=[{"ResourceType": "vpc", "Tags": [
        {"Key": "Name", "Value": "demo"}, {"Key": "kubernetes.io/cluster/demo", "Value": "owned"}]}])
    _garble(context, "DescribeVpcs", garbage)
    with pytest.raises(MalformedResponseError, match="DescribeVpcs: unexpected response at /Vpcs"):
        apply(context, [Vpc(name="demo", cidr_block="10.0.0.0/16")])
    assert calls.writes() == {}


def test_delete_never_acts_on_another_resource_than_it_asked_for(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    stack = network_stack()
    apply(context, [stack.vpc])
    other = ec2().create_vpc(CidrBlock="10.1.0.0/16")["Vpc"]

    def swap(parsed: dict[str, Any], **_: Any) -> None:
        parsed["Vpcs"] = [other]

    emitter(context).register("after-call.ec2.DescribeVpcs", swap)
    with pytest.raises(MalformedResponseError, match="got another resource"):
        Executor(CloudTarget(context), sleep=lambda _: None).delete([Vpc(name="demo", id=stack.vpc.id)])
    assert "DeleteVpc" not in calls.writes()


# -- secrets and terminals ------------------------------------------------------------------------


def test_plans_escape_control_characters_in_names_and_values(cloud: tuple[Context, Calls]) -> None:
    context, _ = cloud
    target = DryRunTarget(context)
    Executor(target, sleep=lambda _: None).run([InternetGateway(name="evil\x1b[2J\x00\r", tags={"k": "v\x1b[31m"})])
    text = target.plan.format()
    assert "\x1b" not in text and "\x00" not in text and "\r" not in text
    assert "evil\\x1b[2J\\x00\\r" in text


def test_secrets_never_reach_errors_from_the_sdk(cloud: tuple[Context, Calls]) -> None:
    context, _ = cloud
    stack = network_stack()
    apply(context, stack.tasks())
    # botocore's own validation message quotes the value it refused
    rule = SecurityGroupIngress(name="bad", security_group=stack.nodes, ip_protocol="tcp",
                                from_port="hunter2-not-an-int")  # type: ignore[arg-type]
    with pytest.raises(TaskError) as err:
        apply(context, [rule])
    assert "hunter2" not in str(err.value) and "<redacted>" in str(err.value)


def test_create_of_a_kind_its_request_names_is_looked_for_once_after_a_5xx(cloud: tuple[Context, Calls]) -> None:
    """A route is its table and destination: after a 5xx (nothing done) one look, not a patient
    poll; the next attempt's locate looks again before the create is sent again, and that
    create cannot make a second route."""
    from botocore.exceptions import ClientError

    from tasklayer_tasks.aws.ec2.core.route import SPEC as ROUTE
    from tasklayer_tasks.aws.ec2.core.vpc import SPEC as VPC
    from tasklayer_tasks.runtime.engine.create import named_by_request

    assert named_by_request(ROUTE) and not named_by_request(VPC)  # a VPC's id is the cloud's
    context, calls = cloud
    seen: list[str] = []
    refused = [0]

    def record(model: Any, **_: Any) -> None:
        seen.append(model.name)

    def refuse(**_: Any) -> None:
        if refused[0] == 0:
            refused[0] += 1
            seen.append("CreateRoute")  # the general hook runs after this one: it never sees it
            raise ClientError({"Error": {"Code": "InternalError", "Message": "oops"},
                               "ResponseMetadata": {"HTTPStatusCode": 500}}, "CreateRoute")

    hooks = emitter(context)
    hooks.register("before-call.ec2", record)
    hooks.register("before-call.ec2.CreateRoute", refuse)
    stack = network_stack()
    apply(context, stack.tasks())
    assert refused[0] == 1 and seen.count("CreateRoute") == 2
    first, second = [i for i, op in enumerate(seen) if op == "CreateRoute"]
    # one look and the later locate (the association's reads come between): a patient poll
    # made RetryPolicy.attempts (8) looks here
    assert seen[first + 1:second].count("DescribeRouteTables") <= 4, seen[first:second + 1]
    tables = ec2().describe_route_tables(Filters=[{"Name": "tag:kubernetes.io/cluster/demo", "Values": ["owned"]}])
    routes = [r for t in tables["RouteTables"] for r in t["Routes"] if r.get("DestinationCidrBlock") == "0.0.0.0/0"]
    assert len(routes) == 1
    calls.clear()
    apply(context, network_stack().tasks())
    assert calls.writes() == {}
