"""aws.shared-read-selector on the pinned EC2 model: security group ingress and egress rules are
both read by DescribeSecurityGroupRules, told apart by the shared shape's ``IsEgress`` (a word
of one kind's name only); the generated specs carry it, and a listing of either kind on moto
keeps only its own items."""

from __future__ import annotations

from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from codegen.model import Service
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.shapes import aws
from codegen.providers.aws.source import load_pinned

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@pytest.fixture(scope="module")
def ec2() -> Service:
    src = load_pinned(SCHEMAS, "ec2")
    _, draft = annotate_model(src.model, service="ec2", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    return draft.freeze()


def test_ingress_and_egress_rules_are_told_apart_by_is_egress(ec2: Service) -> None:
    selectors = {}
    for name in ("SecurityGroupIngress", "SecurityGroupEgress"):
        read = ec2.resource(name).operations.read
        assert read is not None and read.name == "DescribeSecurityGroupRules"
        selectors[name] = aws(read).selected_by
    assert selectors == {"SecurityGroupIngress": (("IsEgress", False),),
                         "SecurityGroupEgress": (("IsEgress", True),)}
    # no kind read alone gets one
    assert not aws(ec2.resource("SecurityGroup").operations.read).selected_by  # type: ignore[arg-type]


def test_a_listing_of_ingress_rules_holds_no_egress_rule() -> None:
    from tasklayer_tasks.aws.ec2.core.security_group_egress import SPEC as EGRESS
    from tasklayer_tasks.aws.ec2.core.security_group_ingress import SPEC as INGRESS
    from tasklayer_tasks.runtime import Owner
    from tasklayer_tasks.runtime.aws.core import AwsCore

    owner = Owner.kops_aws("demo")
    tags = [{"Key": k, "Value": v} for k, v in owner.marks.items()]
    with mock_aws():
        client = boto3.client("ec2", region_name="us-east-1")
        vpc = client.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
        group = client.create_security_group(GroupName="g", Description="g", VpcId=vpc)["GroupId"]
        spec = [{"ResourceType": "security-group-rule", "Tags": tags}]
        permission = [{"IpProtocol": "tcp", "FromPort": 80, "ToPort": 80,
                       "IpRanges": [{"CidrIp": "10.1.0.0/16"}]}]
        made_in = client.authorize_security_group_ingress(
            GroupId=group, IpPermissions=permission, TagSpecifications=spec)["SecurityGroupRules"]
        made_out = client.authorize_security_group_egress(
            GroupId=group, IpPermissions=permission, TagSpecifications=spec)["SecurityGroupRules"]
        ingress = AwsCore(INGRESS, client).listed_owned(owner) or []
        egress = AwsCore(EGRESS, client).listed_owned(owner) or []
    assert [s["SecurityGroupRuleId"] for s in ingress] == [made_in[0]["SecurityGroupRuleId"]]
    assert [s["SecurityGroupRuleId"] for s in egress] == [made_out[0]["SecurityGroupRuleId"]]
