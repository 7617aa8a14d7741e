"""kOps' AWS network over three zones, from the generated EC2 tasks: per zone a public and a
private subnet, an Elastic IP and NAT gateway, a private route table with its default route,
and the associations; one VPC, internet gateway, public route table, and the masters' and
nodes' security groups with their rules. What a cluster of several zones does to the number of
tasks per resource type (the kinds the later example cluster adds come on top of it)."""

from __future__ import annotations

from tasklayer_tasks.aws.ec2 import (
    ElasticIp,
    InternetGateway,
    InternetGatewayAttachment,
    NatGateway,
    Route,
    RouteTable,
    RouteTableAssociation,
    SecurityGroup,
    SecurityGroupIngress,
    Subnet,
    Vpc,
)
from tasklayer_tasks.runtime import AwsTask

ZONES = ("us-east-1a", "us-east-1b", "us-east-1c")


def kops_network(cluster: str = "demo", zones: tuple[str, ...] = ZONES) -> list[AwsTask]:
    vpc = Vpc(name=cluster, cidr_block="10.0.0.0/16", enable_dns_hostnames=True)
    igw = InternetGateway(name=cluster)
    public = RouteTable(name=f"public.{cluster}", vpc=vpc)
    tasks: list[AwsTask] = [
        vpc,
        igw,
        public,
        InternetGatewayAttachment(name=cluster, internet_gateway=igw, vpc=vpc),
        Route(
            name="0.0.0.0/0",
            route_table=public,
            destination_cidr_block="0.0.0.0/0",
            internet_gateway=igw,
        ),
    ]
    for i, zone in enumerate(zones):
        utility = Subnet(
            name=f"utility-{zone}.{cluster}",
            vpc=vpc,
            cidr_block=f"10.0.{i}.0/24",
            availability_zone=zone,
        )
        private = Subnet(
            name=f"{zone}.{cluster}",
            vpc=vpc,
            cidr_block=f"10.0.{32 + i * 32}.0/19",
            availability_zone=zone,
        )
        eip = ElasticIp(name=f"{zone}.{cluster}", domain="vpc")
        nat = NatGateway(name=f"{zone}.{cluster}", subnet=utility, elastic_ip=eip)
        table = RouteTable(name=f"private-{zone}.{cluster}", vpc=vpc)
        tasks += [
            utility,
            private,
            eip,
            nat,
            table,
            Route(
                name=f"private-{zone}-0.0.0.0/0",
                route_table=table,
                destination_cidr_block="0.0.0.0/0",
                nat_gateway=nat,
            ),
            RouteTableAssociation(name=f"utility-{zone}", route_table=public, subnet=utility),
            RouteTableAssociation(name=f"private-{zone}", route_table=table, subnet=private),
        ]
    masters = SecurityGroup(
        name=f"masters.{cluster}", group_name=f"masters.{cluster}", description="masters", vpc=vpc
    )
    nodes = SecurityGroup(
        name=f"nodes.{cluster}", group_name=f"nodes.{cluster}", description="nodes", vpc=vpc
    )
    tasks += [masters, nodes]
    for group, port in ((masters, 443), (masters, 22), (nodes, 22), (masters, 2380)):
        tasks.append(
            SecurityGroupIngress(
                name=f"{port}.{group.name}",
                security_group=group,
                ip_protocol="tcp",
                from_port=port,
                to_port=port,
                cidr_ip="10.0.0.0/16",
            )
        )
    return tasks
