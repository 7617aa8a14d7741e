"""What is really in the account, read with boto3 straight from moto_server (never through the
proxy, never through the runtime under test).

Every resource of the kinds the network stacks create is listed, with the clusters that own it:
a taggable resource is owned by a cluster when it carries one of the ownership tags kOps or CAPA
write; a kind without tags (route, attachment, association, rule) is owned by the owners of
its parent. What AWS creates by itself is left out: the default VPC and everything in it, a
VPC's main route table and local route, a VPC's ``default`` group, a new group's allow-all
egress rule, a hosted zone's own SOA and NS records. Items in a terminal state (a NAT gateway ``deleted``/``deleting``/``failed``)
are not resources any more.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import boto3

KOPS_LEGACY_TAG = "KubernetesCluster"
KOPS_OWNED_PREFIX = "kubernetes.io/cluster/"
CAPA_OWNED_PREFIX = "sigs.k8s.io/cluster-api-provider-aws/cluster/"
NAT_GONE = frozenset({"deleted", "deleting", "failed"})

KINDS = (
    "vpc",
    "subnet",
    "internet-gateway",
    "igw-attachment",
    "route-table",
    "route",
    "rt-association",
    "security-group",
    "sg-rule",
    "address",
    "nat-gateway",
)
DNS_KINDS = ("hosted-zone", "record-set")  # a record set is owned by the owners of its zone


@dataclass(frozen=True)
class Item:
    kind: str
    id: str
    owners: frozenset[str]  # the clusters that own it; empty: nobody's


def owners_of(tags: list[dict[str, str]] | None) -> frozenset[str]:
    found = set()
    for tag in tags or []:
        key, value = tag.get("Key", ""), tag.get("Value", "")
        if key == KOPS_LEGACY_TAG and value:
            found.add(value)
        for prefix in (KOPS_OWNED_PREFIX, CAPA_OWNED_PREFIX):
            if key.startswith(prefix) and value == "owned":
                found.add(key[len(prefix) :])
    return frozenset(found)


@lru_cache(maxsize=8)
def client(endpoint_url: str, region: str = "us-east-1", service: str = "ec2") -> Any:
    return boto3.client(
        service,
        endpoint_url=endpoint_url,
        region_name=region,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )


def take(endpoint_url: str, region: str = "us-east-1") -> list[Item]:
    """Every non-default network resource in the region."""
    ec2 = client(endpoint_url, region)
    items: list[Item] = []
    vpcs = set()
    for v in ec2.describe_vpcs()["Vpcs"]:
        if not v.get("IsDefault"):
            vpcs.add(v["VpcId"])
            items.append(Item("vpc", v["VpcId"], owners_of(v.get("Tags"))))
    for s in ec2.describe_subnets()["Subnets"]:
        if s["VpcId"] in vpcs:
            items.append(Item("subnet", s["SubnetId"], owners_of(s.get("Tags"))))
    for g in ec2.describe_internet_gateways()["InternetGateways"]:
        owners = owners_of(g.get("Tags"))
        items.append(Item("internet-gateway", g["InternetGatewayId"], owners))
        for a in g.get("Attachments", []):
            if a.get("VpcId") in vpcs:
                items.append(
                    Item("igw-attachment", f"{g['InternetGatewayId']}:{a['VpcId']}", owners)
                )
    items += _route_tables(ec2, vpcs)
    items += _security_groups(ec2, vpcs)
    for a in ec2.describe_addresses()["Addresses"]:
        items.append(Item("address", a["AllocationId"], owners_of(a.get("Tags"))))
    for n in ec2.describe_nat_gateways()["NatGateways"]:
        if n.get("State") not in NAT_GONE:
            items.append(Item("nat-gateway", n["NatGatewayId"], owners_of(n.get("Tags"))))
    return items + _dns(client(endpoint_url, region, "route53"))


def _dns(route53: Any) -> list[Item]:
    items = []
    for zone in route53.list_hosted_zones()["HostedZones"]:
        zone_id = zone["Id"].split("/")[-1]
        tags = route53.list_tags_for_resource(ResourceType="hostedzone", ResourceId=zone_id)
        owners = owners_of(tags["ResourceTagSet"].get("Tags"))
        items.append(Item("hosted-zone", zone_id, owners))
        for record in route53.list_resource_record_sets(HostedZoneId=zone_id)["ResourceRecordSets"]:
            if record["Name"] == zone["Name"] and record["Type"] in ("SOA", "NS"):
                continue  # Route 53 makes these with the zone
            items.append(Item("record-set", f"{zone_id}:{record['Name']}:{record['Type']}", owners))
    return items


def _route_tables(ec2: Any, vpcs: set[str]) -> list[Item]:
    items = []
    for t in ec2.describe_route_tables()["RouteTables"]:
        if t["VpcId"] not in vpcs or any(a.get("Main") for a in t.get("Associations", [])):
            continue
        owners = owners_of(t.get("Tags"))
        items.append(Item("route-table", t["RouteTableId"], owners))
        for r in t.get("Routes", []):
            if r.get("Origin") == "CreateRoute":
                destination = r.get("DestinationCidrBlock") or r.get("DestinationIpv6CidrBlock", "")
                items.append(Item("route", f"{t['RouteTableId']}:{destination}", owners))
        for a in t.get("Associations", []):
            items.append(Item("rt-association", a["RouteTableAssociationId"], owners))
    return items


def _security_groups(ec2: Any, vpcs: set[str]) -> list[Item]:
    groups = {
        g["GroupId"]: owners_of(g.get("Tags"))
        for g in ec2.describe_security_groups()["SecurityGroups"]
        if g.get("VpcId") in vpcs and g["GroupName"] != "default"
    }
    items = [Item("security-group", group, owners) for group, owners in groups.items()]
    for rule in ec2.describe_security_group_rules()["SecurityGroupRules"]:
        if rule["GroupId"] not in groups or _aws_default_egress(rule):
            continue
        items.append(Item("sg-rule", rule["SecurityGroupRuleId"], groups[rule["GroupId"]]))
    return items


def _aws_default_egress(rule: dict[str, Any]) -> bool:
    return (
        bool(rule.get("IsEgress"))
        and rule.get("IpProtocol") == "-1"
        and rule.get("CidrIpv4") == "0.0.0.0/0"
    )


def counts(items: list[Item], cluster: str | None = None) -> Counter[str]:
    """Items per kind: all of them, or those the cluster owns."""
    return Counter(i.kind for i in items if cluster is None or cluster in i.owners)


def ids(items: list[Item], cluster: str) -> set[tuple[str, str]]:
    return {(i.kind, i.id) for i in items if cluster in i.owners}
