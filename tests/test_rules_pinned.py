"""The AWS rules on the pinned botocore models, for the resources kOps and CAPA create.

Each expectation is what the AWS API reference says (create-only fields have no update call;
mutable ones name the call that changes them). Overlay corrections are tested separately, so
these run the rules alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.model import Mutability, Service
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.shapes import aws_tags
from codegen.providers.aws.source import load_pinned

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
C, M, R = Mutability.CREATE_ONLY, Mutability.MUTABLE, Mutability.READ_ONLY


@pytest.fixture(scope="module")
def pinned() -> dict[str, Service]:
    out = {}
    for name in ("ec2", "elbv2", "autoscaling", "iam", "route53"):
        src = load_pinned(SCHEMAS, name)
        _, draft = annotate_model(src.model, service=name, api_version=src.api_version,
                                  paginators=src.paginators, waiters=src.waiters)
        out[name] = draft.freeze()
    return out


# (service, resource, field, mutability, update operation)
FIELDS = [
    ("ec2", "Vpc", "CidrBlock", C, None),
    ("ec2", "Vpc", "EnableDnsHostnames", M, "ModifyVpcAttribute"),
    ("ec2", "Vpc", "EnableDnsSupport", M, "ModifyVpcAttribute"),
    ("ec2", "Vpc", "InstanceTenancy", M, "ModifyVpcTenancy"),
    ("ec2", "Vpc", "VpcId", R, None),
    ("ec2", "Vpc", "Tags", M, "CreateTags"),
    ("ec2", "Subnet", "CidrBlock", C, None),
    ("ec2", "Subnet", "AvailabilityZone", C, None),
    ("ec2", "Subnet", "VpcId", C, None),
    ("ec2", "Subnet", "MapPublicIpOnLaunch", M, "ModifySubnetAttribute"),
    ("ec2", "Subnet", "SubnetId", R, None),
    ("ec2", "InternetGateway", "InternetGatewayId", R, None),
    ("ec2", "InternetGateway", "Attachments", R, None),
    ("ec2", "InternetGatewayAttachment", "VpcId", C, None),
    ("ec2", "RouteTable", "VpcId", C, None),
    ("ec2", "RouteTable", "Routes", R, None),
    ("ec2", "Route", "DestinationCidrBlock", C, None),
    ("ec2", "Route", "GatewayId", M, "ReplaceRoute"),
    ("ec2", "Route", "NatGatewayId", M, "ReplaceRoute"),
    ("ec2", "RouteTableAssociation", "SubnetId", C, None),
    ("ec2", "RouteTableAssociation", "RouteTableId", M, "ReplaceRouteTableAssociation"),
    ("ec2", "SecurityGroup", "GroupName", C, None),
    ("ec2", "SecurityGroup", "Description", C, None),
    ("ec2", "SecurityGroup", "VpcId", C, None),
    ("ec2", "SecurityGroup", "GroupId", R, None),
    ("ec2", "SecurityGroup", "IpPermissions", R, None),
    # ModifySecurityGroupRules takes new values for the rules it names by id (SecurityGroupRuleRequest)
    ("ec2", "SecurityGroupIngress", "IpProtocol", M, "ModifySecurityGroupRules"),
    ("ec2", "SecurityGroupIngress", "FromPort", M, "ModifySecurityGroupRules"),
    ("ec2", "SecurityGroupEgress", "ToPort", M, "ModifySecurityGroupRules"),
    ("ec2", "Address", "Domain", C, None),
    ("ec2", "Address", "PublicIp", R, None),
    ("ec2", "Address", "AllocationId", R, None),
    ("ec2", "NatGateway", "SubnetId", C, None),
    ("ec2", "NatGateway", "AllocationId", C, None),
    ("ec2", "NatGateway", "ConnectivityType", C, None),
    ("ec2", "NatGateway", "NatGatewayId", R, None),
    ("ec2", "LaunchTemplate", "LaunchTemplateName", C, None),
    ("ec2", "LaunchTemplate", "LaunchTemplateData", M, "CreateLaunchTemplateVersion"),
    ("ec2", "KeyPair", "KeyName", C, None),
    ("ec2", "KeyPair", "KeyMaterial", R, None),
    ("elbv2", "LoadBalancer", "Name", C, None),
    ("elbv2", "LoadBalancer", "Scheme", C, None),
    ("elbv2", "LoadBalancer", "Type", C, None),
    ("elbv2", "LoadBalancer", "Subnets", M, "SetSubnets"),
    ("elbv2", "LoadBalancer", "SecurityGroups", M, "SetSecurityGroups"),
    ("elbv2", "LoadBalancer", "IpAddressType", M, "SetIpAddressType"),
    ("elbv2", "LoadBalancer", "Tags", M, "AddTags"),
    ("elbv2", "TargetGroup", "Port", C, None),
    ("elbv2", "TargetGroup", "Protocol", C, None),
    ("elbv2", "TargetGroup", "VpcId", C, None),
    ("elbv2", "TargetGroup", "HealthCheckPath", M, "ModifyTargetGroup"),
    ("elbv2", "Listener", "Port", M, "ModifyListener"),
    ("elbv2", "Listener", "DefaultActions", M, "ModifyListener"),
    ("elbv2", "Listener", "Certificates", M, "ModifyListener"),
    ("elbv2", "Listener", "LoadBalancerArn", C, None),
    ("autoscaling", "AutoScalingGroup", "AutoScalingGroupName", C, None),
    ("autoscaling", "AutoScalingGroup", "MinSize", M, "UpdateAutoScalingGroup"),
    ("autoscaling", "AutoScalingGroup", "MaxSize", M, "UpdateAutoScalingGroup"),
    ("autoscaling", "AutoScalingGroup", "DesiredCapacity", M, "UpdateAutoScalingGroup"),
    ("autoscaling", "AutoScalingGroup", "LaunchTemplate", M, "UpdateAutoScalingGroup"),
    ("autoscaling", "AutoScalingGroup", "VPCZoneIdentifier", M, "UpdateAutoScalingGroup"),
    ("autoscaling", "AutoScalingGroup", "TargetGroupARNs", M, "AttachLoadBalancerTargetGroups"),
    ("autoscaling", "AutoScalingGroup", "Tags", M, "CreateOrUpdateTags"),
    ("iam", "Role", "RoleName", C, None),
    ("iam", "Role", "Path", C, None),
    ("iam", "Role", "AssumeRolePolicyDocument", M, "UpdateAssumeRolePolicy"),
    ("iam", "Role", "Description", M, "UpdateRole"),
    ("iam", "Role", "MaxSessionDuration", M, "UpdateRole"),
    ("iam", "Role", "PermissionsBoundary", M, "PutRolePermissionsBoundary"),
    ("iam", "Role", "Arn", R, None),
    ("iam", "Role", "RoleId", R, None),
    ("iam", "Role", "Tags", M, "TagRole"),
    ("iam", "InstanceProfile", "InstanceProfileName", C, None),
    ("iam", "InstanceProfile", "Roles", M, "AddRoleToInstanceProfile"),
    ("iam", "RolePolicy", "PolicyDocument", M, "PutRolePolicy"),
    ("iam", "RolePolicy", "PolicyName", C, None),
    ("route53", "HostedZone", "Name", C, None),
    ("route53", "HostedZone", "CallerReference", C, None),
    ("route53", "HostedZone", "Id", R, None),
]


@pytest.mark.parametrize(("service", "resource", "field", "mutability", "update"), FIELDS)
def test_field_class(pinned: dict[str, Service], service: str, resource: str, field: str,
                     mutability: Mutability, update: str | None) -> None:
    f = pinned[service].resource(resource).field(field)
    assert (f.mutability, f.update_operation) == (mutability, update), f.provenance
    assert f.source.startswith("rule:aws.")


# (service, resource, primary, natural, parent, arn)
IDENTITY = [
    ("ec2", "Vpc", ("VpcId",), ("tag:Name",), (), None),
    ("ec2", "Subnet", ("SubnetId",), ("tag:Name",), ("VpcId",), "SubnetArn"),
    ("ec2", "InternetGateway", ("InternetGatewayId",), ("tag:Name",), (), None),
    ("ec2", "InternetGatewayAttachment", ("InternetGatewayId", "VpcId"), (), ("InternetGatewayId", "VpcId"), None),
    ("ec2", "RouteTable", ("RouteTableId",), ("tag:Name",), ("VpcId",), None),
    ("ec2", "RouteTableAssociation", ("RouteTableAssociationId",), (), ("RouteTableId",), None),
    ("ec2", "SecurityGroup", ("GroupId",), ("GroupName",), (), "SecurityGroupArn"),
    ("ec2", "SecurityGroupIngress", ("SecurityGroupRuleId",), ("tag:Name",), (), None),
    ("ec2", "Address", ("AllocationId",), ("tag:Name",), (), None),
    ("ec2", "NatGateway", ("NatGatewayId",), ("tag:Name",), (), None),
    ("ec2", "LaunchTemplate", ("LaunchTemplateId",), ("LaunchTemplateName",), (), None),
    ("ec2", "KeyPair", ("KeyPairId",), ("KeyName",), (), None),
    ("elbv2", "LoadBalancer", ("LoadBalancerArn",), ("Name",), (), "LoadBalancerArn"),
    ("elbv2", "TargetGroup", ("TargetGroupArn",), ("Name",), (), "TargetGroupArn"),
    ("elbv2", "Listener", ("ListenerArn",), ("tag:Name",), ("LoadBalancerArn",), "ListenerArn"),
    ("autoscaling", "AutoScalingGroup", ("AutoScalingGroupName",), ("AutoScalingGroupName",), (), "AutoScalingGroupARN"),
    ("iam", "Role", ("RoleName",), ("RoleName",), (), "Arn"),
    ("iam", "InstanceProfile", ("InstanceProfileName",), ("InstanceProfileName",), (), "Arn"),
    ("route53", "HostedZone", ("Id",), ("Name",), (), None),
]


@pytest.mark.parametrize(("service", "resource", "primary", "natural", "parent", "arn"), IDENTITY)
def test_identity(pinned: dict[str, Service], service: str, resource: str, primary: tuple,
                  natural: tuple, parent: tuple, arn: str | None) -> None:
    ident = pinned[service].resource(resource).identity
    assert (ident.primary, ident.natural, ident.parent, ident.arn) == (primary, natural, parent, arn)


def test_vpc_operations(pinned: dict[str, Service]) -> None:
    vpc = pinned["ec2"].resource("Vpc")
    assert vpc.operations.names() == {
        "create": "CreateVpc", "read": "DescribeVpcs", "list": "DescribeVpcs",
        "update": ["AssociateDhcpOptions", "ModifyVpcAttribute", "ModifyVpcTenancy"],
        "delete": "DeleteVpc", "tag": "CreateTags", "untag": "DeleteTags",
    }
    assert vpc.tags is not None and vpc.tags.create_member == "TagSpecifications"
    assert aws_tags(vpc.tags).resource_type == "vpc"
    assert {"VpcAvailable", "VpcExists"} <= set(vpc.waiters)


def test_association_is_a_sub_resource_not_an_update(pinned: dict[str, Service]) -> None:
    """AssociateVpcCidrBlock returns an association id: it does not make CidrBlock mutable."""
    ec2 = pinned["ec2"]
    assert "AssociateVpcCidrBlock" not in ec2.resource("Vpc").operations.names()["update"]
    assoc = ec2.resource("VpcCidrBlockAssociation")
    assert assoc.operations.create is not None and assoc.operations.create.name == "AssociateVpcCidrBlock"


def test_selector_members_are_not_mutable(pinned: dict[str, Service]) -> None:
    """UpdateRole takes RoleName to select the role; that does not make RoleName mutable."""
    role = pinned["iam"].resource("Role")
    assert role.field("RoleName").mutability is C
    assert role.field("AssumeRolePolicyDocument").update_name == "PolicyDocument"  # renamed in the update


def test_create_and_read_names_differ(pinned: dict[str, Service]) -> None:
    lb = pinned["elbv2"].resource("LoadBalancer")
    assert lb.field("Name").read_name == "LoadBalancerName"
    assert "LoadBalancerName" not in [f.name for f in lb.fields]


def test_tokens_sensitive_and_references(pinned: dict[str, Service]) -> None:
    ec2 = pinned["ec2"]
    nat = ec2.resource("NatGateway")
    assert nat.operations.create is not None and nat.operations.create.idempotency_token == "ClientToken"
    assert nat.field("SubnetId").references == "Subnet"
    assert nat.field("AllocationId").references == "Address"
    assert ec2.resource("SecurityGroupIngress").field("GroupId").references == "SecurityGroup"
    assert ec2.resource("KeyPair").field("KeyMaterial").sensitive
    assert ec2.resource("Subnet").field("AvailabilityZone").server_default
    assert not ec2.resource("Vpc").field("CidrBlock").server_default
    assert ec2.resource("Vpc").field("EnableDnsHostnames").read_operation == "DescribeVpcAttribute"


# The rule classes of issue 12 on the pinned models: (service, resource, field, mutability,
# update call, update kind, remove call, deciding rule)
SHAPED = [
    ("route53", "HostedZone", "Tags", M, "ChangeTagsForResource", None, None, "aws.tags-through-tag-operations"),
    ("route53", "HealthCheck", "Tags", M, "ChangeTagsForResource", None, None, "aws.tags-through-tag-operations"),
    ("iam", "ServiceLinkedRole", "Tags", M, "TagRole", None, None, "aws.tags-through-tag-operations"),
    ("iam", "VirtualMFADevice", "Tags", M, "TagMFADevice", None, None, "aws.tags-through-tag-operations"),
    ("route53", "HostedZone", "VPC", M, "AssociateVPCWithHostedZone", "add_remove", "DisassociateVPCFromHostedZone", "aws.add-remove-pair-updates"),
    ("ec2", "NatGateway", "SecondaryPrivateIpAddresses", M, "AssignPrivateNatGatewayAddress", "add_remove", "UnassignPrivateNatGatewayAddress", "aws.add-remove-pair-updates"),
    ("ec2", "NatGateway", "SecondaryAllocationIds", M, "AssociateNatGatewayAddress", "add_remove", "DisassociateNatGatewayAddress", "aws.add-remove-pair-updates"),
    ("autoscaling", "AutoScalingGroup", "TargetGroupARNs", M, "AttachLoadBalancerTargetGroups", "add_remove", "DetachLoadBalancerTargetGroups", "aws.add-remove-pair-updates"),
    ("autoscaling", "AutoScalingGroup", "TrafficSources", M, "AttachTrafficSources", "add_remove", "DetachTrafficSources", "aws.add-remove-pair-updates"),
    ("autoscaling", "AutoScalingGroup", "EnabledMetrics", M, "EnableMetricsCollection", "add_remove", "DisableMetricsCollection", "aws.add-remove-pair-updates"),
    ("autoscaling", "AutoScalingGroup", "LifecycleHookSpecificationList", M, "PutLifecycleHook", "per_item", "DeleteLifecycleHook", "aws.put-delete-per-item"),
    ("iam", "InstanceProfile", "Roles", M, "AddRoleToInstanceProfile", "add_remove", "RemoveRoleFromInstanceProfile", "aws.add-remove-pair-updates"),
    ("elbv2", "Listener", "Certificates", M, "ModifyListener", None, None, "aws.update-by-identity-in-input"),
    ("route53", "HostedZone", "HostedZoneConfig", M, "UpdateHostedZoneComment", "nested", None, "aws.nested-update-member"),
    ("ec2", "Subnet", "PrivateDnsNameOptionsOnLaunch", M, "ModifySubnetAttribute", "flattened", None, "aws.flattened-update-members"),
    ("ec2", "SecurityGroupIngress", "Description", M, "ModifySecurityGroupRules", "keyed_item", None, "aws.keyed-item-update"),
    ("ec2", "SecurityGroupIngress", "CidrIpv6", M, "ModifySecurityGroupRules", "keyed_item", None, "aws.keyed-item-update"),
    ("ec2", "SecurityGroupEgress", "CidrIpv6", M, "ModifySecurityGroupRules", "keyed_item", None, "aws.keyed-item-update"),
]


@pytest.mark.parametrize(("service", "resource", "field", "mutability", "update", "kind", "remove", "rule"), SHAPED)
def test_shaped_update(pinned: dict[str, Service], service: str, resource: str, field: str, mutability: Mutability,
                       update: str, kind: str | None, remove: str | None, rule: str) -> None:
    f = pinned[service].resource(resource).field(field)
    assert (f.mutability, f.update_operation, f.update_kind, f.remove_operation) == (mutability, update, kind, remove)
    assert f.source == f"rule:{rule}"


def test_ipv6_rule_is_created_through_ip_permissions(pinned: dict[str, Service]) -> None:
    ipv6 = pinned["ec2"].resource("SecurityGroupIngress").field("CidrIpv6")
    assert ipv6.create_path == "IpPermissions[].Ipv6Ranges[].CidrIpv6"
    assert ipv6.update_paths == (("SecurityGroupRules[].SecurityGroupRule.CidrIpv6", "CidrIpv6"),)


def test_flattened_paths_and_hosted_zone_tag_calls(pinned: dict[str, Service]) -> None:
    options = pinned["ec2"].resource("Subnet").field("PrivateDnsNameOptionsOnLaunch")
    assert dict(options.update_paths) == {
        "PrivateDnsHostnameTypeOnLaunch": "HostnameType",
        "EnableResourceNameDnsARecordOnLaunch": "EnableResourceNameDnsARecord",
        "EnableResourceNameDnsAAAARecordOnLaunch": "EnableResourceNameDnsAAAARecord",
    }
    zone = pinned["route53"].resource("HostedZone")
    assert zone.tags is not None and aws_tags(zone.tags).selector_extra == (("ResourceType", "hostedzone"),)
    # the field's tag read is the model's: the one reading many zones a call
    assert zone.field("Tags").read_operation == zone.tags.read_operation == "ListTagsForResources"
