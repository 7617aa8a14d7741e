"""A field the create requires is checked before any call, for every task of a run (apply and
dry run alike), and a kind's own name (a security group's GroupName) is the task's name unless
given: against moto, calls counted at botocore's before-call."""

from __future__ import annotations

from collections.abc import Iterator

import boto3
import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2 import LaunchTemplate, SecurityGroup, Subnet, Vpc
from tasklayer_tasks.runtime import (
    CloudTarget,
    Context,
    DryRunTarget,
    Executor,
    Lifecycle,
    MissingFieldsError,
)
from testbed.stack import Calls, counted_context


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


def network() -> tuple[Vpc, Subnet]:
    vpc = Vpc(name="demo", cidr_block="10.0.0.0/16")
    return vpc, Subnet(name="demo-a", vpc=vpc, cidr_block="10.0.1.0/24")


@pytest.mark.parametrize("target", [CloudTarget, DryRunTarget])
def test_every_missing_create_field_is_reported_before_any_call(cloud: tuple[Context, Calls], target: type) -> None:
    context, calls = cloud
    vpc, subnet = network()
    nodes = SecurityGroup(name="nodes", vpc=vpc)  # no description: CreateSecurityGroup requires one
    template = LaunchTemplate(name="nodes")  # no launch_template_data
    with pytest.raises(MissingFieldsError) as err:
        Executor(target(context)).run([vpc, subnet, nodes, template])
    assert err.value.missing == {
        "SecurityGroup/nodes": ("description",), "LaunchTemplate/nodes": ("launch_template_data",)
    }
    assert "SecurityGroup/nodes: description" in str(err.value)
    assert sum(calls.made.values()) == 0  # not a read, let alone the VPC's create


def test_references_names_and_tasks_that_never_create_are_not_missing() -> None:
    vpc, subnet = network()
    assert Subnet(name="demo-b", vpc=vpc).missing_fields() == []  # VpcId comes from the reference
    assert SecurityGroup(name="nodes", description="d").missing_fields() == []  # GroupName: the name
    assert Subnet(name="demo-c").missing_fields() == ["vpc"]
    assert SecurityGroup(name="byo", shared=True).missing_fields() == []  # only read
    assert SecurityGroup(name="ro", lifecycle=Lifecycle.EXISTS_AND_VALIDATES).missing_fields() == []


def test_a_security_groups_name_is_the_tasks_unless_given(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    vpc, subnet = network()
    nodes = SecurityGroup(name="nodes.demo", vpc=vpc, description="nodes")
    masters = SecurityGroup(name="masters", group_name="masters.demo", vpc=vpc, description="masters")
    Executor(CloudTarget(context)).run([vpc, subnet, nodes, masters])
    ec2 = boto3.client("ec2", region_name="us-east-1")
    names = {g["GroupName"] for g in ec2.describe_security_groups(GroupIds=[nodes.id, masters.id])["SecurityGroups"]}
    assert names == {"nodes.demo", "masters.demo"}
    assert calls.writes()["CreateSecurityGroup"] == 2
    calls.clear()
    again = [SecurityGroup(name="nodes.demo", vpc=vpc, description="nodes")]
    Executor(CloudTarget(context)).run([vpc, subnet, *again])  # found by its name: adopted, unchanged
    assert calls.writes() == {} and again[0].id == nodes.id
