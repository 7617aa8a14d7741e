"""A CAPI-like network reconcile built only from generated reconcilers.

Like CAPA's ``ReconcileNetwork``: VPC, subnets, internet gateway (+ attachment), an Elastic IP
and NAT gateway, route tables with their routes and associations, and a security group with a
rule. Each step is one generated reconciler; a step that is not Ready stops the pass and asks
to be requeued, exactly as a controller would. Statuses live in ``store`` (the CR status a
controller would patch), and every new id reaches it through the persist callback the moment
the create call returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from tasklayer_tasks.aws.ec2.reconcilers import (
    ElasticIpReconciler,
    InternetGatewayAttachmentReconciler,
    InternetGatewayReconciler,
    NatGatewayReconciler,
    RouteReconciler,
    RouteTableAssociationReconciler,
    RouteTableReconciler,
    SecurityGroupIngressReconciler,
    SecurityGroupReconciler,
    SubnetReconciler,
    VpcReconciler,
)
from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.capi.steps import Step, StepReconciler


@dataclass
class SubnetSpec:
    name: str
    cidr_block: str
    availability_zone: str
    public: bool


@dataclass
class NetworkSpec:
    cluster: str
    vpc_cidr: str = "10.0.0.0/16"
    shared_vpc_id: str | None = None  # bring your own VPC: it is only read, never changed
    subnets: list[SubnetSpec] = field(
        default_factory=lambda: [
            SubnetSpec("public-a", "10.0.0.0/20", "us-east-1a", public=True),
            SubnetSpec("private-a", "10.0.16.0/20", "us-east-1a", public=False),
        ]
    )


class NetworkReconciler(StepReconciler):
    def __init__(
        self,
        context: Context,
        spec: NetworkSpec,
        store: MutableMapping[str, dict[str, Any]],
        on_persist: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> None:
        super().__init__(context, spec.cluster, store, on_persist)
        self.network = spec

    def _id(self, key: str) -> str:
        return str(self.store.get(key, {}).get("id", ""))

    def steps(self) -> Iterator[Step]:
        """The steps in order; each reads the ids the earlier ones stored."""
        n, c = self.network, self.network.cluster
        vpc: dict[str, Any] = {"name": c, "cidrBlock": n.vpc_cidr, "enableDnsHostnames": True}
        if n.shared_vpc_id:
            vpc = {"name": c, "shared": True}
            self.store.setdefault("vpc", {"id": n.shared_vpc_id})
        yield "vpc", VpcReconciler, vpc
        for s in n.subnets:
            yield f"subnet/{s.name}", SubnetReconciler, {
                "name": f"{c}-{s.name}",
                "vpcId": self._id("vpc"),
                "cidrBlock": s.cidr_block,
                "availabilityZone": s.availability_zone,
            }
        yield "igw", InternetGatewayReconciler, {"name": c}
        yield "igw-attachment", InternetGatewayAttachmentReconciler, {
            "internetGatewayId": self._id("igw"),
            "vpcId": self._id("vpc"),
        }
        public = [s for s in n.subnets if s.public]
        yield "eip/nat", ElasticIpReconciler, {"name": f"{c}-nat", "domain": "vpc"}
        yield "nat", NatGatewayReconciler, {
            "name": f"{c}-nat",
            "subnetId": self._id(f"subnet/{public[0].name}"),
            "allocationId": self._id("eip/nat"),
        }
        for kind, target in (
            ("public", {"gatewayId": self._id("igw")}),
            ("private", {"natGatewayId": self._id("nat")}),
        ):
            yield f"rt/{kind}", RouteTableReconciler, {
                "name": f"{c}-{kind}",
                "vpcId": self._id("vpc"),
            }
            yield f"route/{kind}", RouteReconciler, {
                "routeTableId": self._id(f"rt/{kind}"),
                "destinationCidrBlock": "0.0.0.0/0",
                **target,
            }
        for s in n.subnets:
            kind = "public" if s.public else "private"
            yield f"assoc/{s.name}", RouteTableAssociationReconciler, {
                "routeTableId": self._id(f"rt/{kind}"),
                "subnetId": self._id(f"subnet/{s.name}"),
            }
        yield "sg/nodes", SecurityGroupReconciler, {
            "name": f"nodes.{c}",
            "groupName": f"nodes.{c}",
            "description": "nodes",
            "vpcId": self._id("vpc"),
        }
        yield "sg/nodes/ssh", SecurityGroupIngressReconciler, {
            "name": f"ssh.nodes.{c}",
            "groupId": self._id("sg/nodes"),
            "ipProtocol": "tcp",
            "fromPort": 22,
            "toPort": 22,
            "cidrIp": "10.0.0.0/8",
        }


def main() -> None:
    """``python examples/aws_network.py``: against moto_server when ``AWS_ENDPOINT_URL`` is set
    (``moto_server -p 5000`` and ``AWS_ENDPOINT_URL=http://127.0.0.1:5000``), else against moto
    in this process; never against a real account unless you point it there yourself."""
    import contextlib
    import os

    from tasklayer_tasks.runtime.contract.retry import RetryPolicy

    local = not os.environ.get("AWS_ENDPOINT_URL")
    if local:
        from moto import mock_aws

        for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
            os.environ.setdefault(key, "testing")
    with mock_aws() if local else contextlib.nullcontext():
        context = Context(region="us-east-1", retry=RetryPolicy(sleep=lambda _: None))
        store: dict[str, dict[str, Any]] = {}
        network = NetworkReconciler(context, NetworkSpec("example"), store)
        passes = next(n for n in range(1, 31) if network.reconcile().ready or n == 30)
        where = "moto in-process" if local else os.environ["AWS_ENDPOINT_URL"]
        print(f"Ready after {passes} passes ({where}):")
        for key, status in store.items():
            print(f"  {key:<24} {status.get('id', '-')}")


if __name__ == "__main__":
    main()
