"""The EC2 network stack kOps builds, as generated tasks, and a call counter on botocore's
event hooks (what the client really sent, not what our code thinks it did)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tasklayer_tasks.aws.ec2 import (
    ElasticIp,
    InternetGateway,
    InternetGatewayAttachment,
    NatGateway,
    Route,
    RouteTable,
    RouteTableAssociation,
    SecurityGroup,
    SecurityGroupEgress,
    SecurityGroupIngress,
    Subnet,
    Vpc,
)
from tasklayer_tasks.runtime import AwsTask, Context
from tasklayer_tasks.runtime.contract.retry import RetryPolicy

READ_PREFIXES = ("Describe", "Get", "List")


@dataclass
class Calls:
    """Every API call made through a context's clients, by operation name."""

    made: Counter[str] = field(default_factory=Counter)
    params: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def count(self, model: Any, **_: Any) -> None:
        self.made[model.name] += 1

    def record(self, params: Any, event_name: str, **_: Any) -> None:
        # provide-client-params.<service>.<Operation>: the API-level parameters of the call
        self.params.append((event_name.rsplit(".", 1)[-1], dict(params)))

    def writes(self) -> dict[str, int]:
        return {k: v for k, v in self.made.items() if not k.startswith(READ_PREFIXES)}

    def reads(self) -> dict[str, int]:
        return {k: v for k, v in self.made.items() if k.startswith(READ_PREFIXES)}

    def clear(self) -> None:
        self.made.clear()
        self.params.clear()


def counted_context(
    endpoint_url: str | None = None, cluster: str = "demo"
) -> tuple[Context, Calls]:
    """A context whose every botocore client (the runtime makes two: one with botocore's retries,
    one without) reports its calls: the hooks sit on the session the clients are made from."""
    import botocore.session

    session = botocore.session.get_session()
    calls = Calls()
    session.register("before-call.ec2.*", calls.count)
    session.register("provide-client-params.ec2.*", calls.record)
    context = Context(
        region="us-east-1",
        cluster=cluster,
        endpoint_url=endpoint_url,
        session=session,
        retry=RetryPolicy(sleep=lambda _: None),
    )
    return context, calls


@dataclass
class Stack:
    vpc: Vpc
    subnet: Subnet
    igw: InternetGateway
    attachment: InternetGatewayAttachment
    route_table: RouteTable
    route: Route
    association: RouteTableAssociation
    nodes: SecurityGroup
    ssh: SecurityGroupIngress
    egress: SecurityGroupEgress
    eip: ElasticIp
    nat: NatGateway

    def tasks(self) -> list[AwsTask]:
        return list(vars(self).values())


def network_stack(cluster: str = "demo") -> Stack:
    vpc = Vpc(
        name=cluster,
        cidr_block="10.0.0.0/16",
        enable_dns_hostnames=True,
        tags={"KubernetesCluster": cluster},
    )
    subnet = Subnet(
        name=f"{cluster}-a", vpc=vpc, cidr_block="10.0.1.0/24", availability_zone="us-east-1a"
    )
    igw = InternetGateway(name=cluster)
    route_table = RouteTable(name=cluster, vpc=vpc)
    nodes = SecurityGroup(
        name=f"nodes.{cluster}", group_name=f"nodes.{cluster}", description="nodes", vpc=vpc
    )
    eip = ElasticIp(name=f"nat.{cluster}", domain="vpc")
    return Stack(
        vpc=vpc,
        subnet=subnet,
        igw=igw,
        attachment=InternetGatewayAttachment(name=cluster, internet_gateway=igw, vpc=vpc),
        route_table=route_table,
        route=Route(
            name="0.0.0.0/0",
            route_table=route_table,
            destination_cidr_block="0.0.0.0/0",
            internet_gateway=igw,
        ),
        association=RouteTableAssociation(
            name=f"{cluster}-a", route_table=route_table, subnet=subnet
        ),
        nodes=nodes,
        ssh=SecurityGroupIngress(
            name=f"ssh.{cluster}",
            security_group=nodes,
            ip_protocol="tcp",
            from_port=22,
            to_port=22,
            cidr_ip="0.0.0.0/0",
        ),
        egress=SecurityGroupEgress(
            name=f"egress-https.{cluster}",
            security_group=nodes,
            ip_permissions=[
                {
                    "IpProtocol": "tcp",
                    "FromPort": 443,
                    "ToPort": 443,
                    "IpRanges": [{"CidrIp": "0.0.0.0/0"}],
                }
            ],
        ),
        eip=eip,
        nat=NatGateway(name=cluster, subnet=subnet, elastic_ip=eip),
    )
