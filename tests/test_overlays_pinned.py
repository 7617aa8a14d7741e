"""The committed overlays on the pinned models: each entry takes effect and says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.model import Mutability, Service
from codegen.pipeline import annotate
from codegen.providers.aws.shapes import aws_tags
from codegen.providers.aws.source import load_pinned

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@pytest.fixture(scope="module")
def services() -> dict[str, Service]:
    return {n: annotate("aws", load_pinned(SCHEMAS, n), SCHEMAS) for n in ("ec2", "elbv2", "iam", "autoscaling", "route53")}


def test_address_is_renamed_and_references_follow(services: dict[str, Service]) -> None:
    ec2 = services["ec2"]
    eip = ec2.resource("ElasticIp")
    assert eip.api_name == "Address"
    assert eip.tags is not None and aws_tags(eip.tags).resource_type == "elastic-ip"
    assert ec2.resource("NatGateway").field("AllocationId").references == "ElasticIp"
    with pytest.raises(KeyError):
        ec2.resource("Address")


def test_security_group_scopes(services: dict[str, Service]) -> None:
    ec2 = services["ec2"]
    sg = ec2.resource("SecurityGroup")
    assert sg.identity.parent == ("VpcId",)
    assert sg.identity.provenance["parent"] == (
        "overlay:schemas/overlays/aws/ec2.yaml#resources.SecurityGroup.identity.parent"
    )
    cidr = ec2.resource("SecurityGroupIngress").field("CidrIp")
    assert cidr.read_name == "CidrIpv4" and not cidr.write_only


def test_other_services(services: dict[str, Service]) -> None:
    assert services["elbv2"].resource("Listener").identity.natural == ("Port",)
    policy = services["iam"].resource("RolePolicy")
    assert policy.identity.parent == ("RoleName",)
    assert policy.field("PolicyName").references is None
    instances = services["autoscaling"].resource("AutoScalingGroup").field("Instances")
    assert instances.mutability is Mutability.READ_ONLY and instances.update_operation is None
    assert instances.source.startswith("overlay:schemas/overlays/aws/autoscaling.yaml#")
    assert services["route53"].resource("HostedZone").field("HostedZoneConfig").read_name == "Config"

