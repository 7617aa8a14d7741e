"""A kOps-like AWS cluster built only from generated tasks: ``kops update cluster`` in Python.

The network of kOps' private topology (VPC, internet gateway and public route table; per zone
a public "utility" and a private subnet, an Elastic IP and NAT gateway in the utility subnet,
and a private route table whose default route goes through it; the masters' and nodes'
security groups with kOps' rules, those its NLB needs included), IAM (a role per instance
group, its inline policy, an instance profile), the SSH key, a launch template and an
auto-scaling group per instance group, a network load balancer for the API with its target
group and listener, etcd's "main" and "events" volumes per control-plane zone (as kOps' etcd
manager keeps two clusters), and DNS: the cluster's hosted zone
with ``api.<cluster>`` and ``api.internal.<cluster>`` (kOps' placeholder address until
dns-controller writes the masters'). Every resource carries the cluster's ownership tags (record
sets, which carry none, are the cluster's through its zone); one ``Executor.run`` orders them
by their references.

    python examples/kops_cluster.py                      # starts its own moto_server, applies
    python examples/kops_cluster.py --dry-run            # the plan, as `kops update cluster` would
    python examples/kops_cluster.py --endpoint-url http://127.0.0.1:5000 [--delete]
    python -m examples.kops_cluster --graph mermaid      # the task graph (or dot); no cloud

DNS names are fully qualified, with the final dot, as Route 53 returns them.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tasklayer_tasks.aws.autoscaling import AutoScalingGroup
from tasklayer_tasks.aws.ec2 import (
    ElasticIp,
    InternetGateway,
    InternetGatewayAttachment,
    KeyPair,
    LaunchTemplate,
    NatGateway,
    Route,
    RouteTable,
    RouteTableAssociation,
    SecurityGroup,
    SecurityGroupIngress,
    Subnet,
    Volume,
    Vpc,
)
from tasklayer_tasks.aws.elbv2 import Listener, LoadBalancer, TargetGroup
from tasklayer_tasks.aws.iam import InstanceProfile, Role, RolePolicy
from tasklayer_tasks.aws.route53 import HostedZone, ResourceRecordSet
from tasklayer_tasks.runtime import (
    AwsTask,
    CloudTarget,
    Context,
    DryRunTarget,
    Executor,
    Joined,
    resource_name,
)
from tasklayer_tasks.runtime.kops.graph import to_dot, to_mermaid

ZONES = ("us-east-1a", "us-east-1b", "us-east-1c")
PLACEHOLDER_IP = "203.0.113.123"  # kOps' address for api records until dns-controller sets them
IMAGE = "ami-12c6146b"  # an image moto knows; on a real account, kOps' channel picks one
ASSUME_EC2 = json.dumps(
    {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": {"Service": "ec2.amazonaws.com"},
                "Action": "sts:AssumeRole",
            }
        ],
    }
)


def _policy(*actions: str) -> str:
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": list(actions), "Resource": "*"}],
        }
    )


def kops_cluster(
    cluster: str = "demo.example.com",
    zones: tuple[str, ...] = ZONES,
    master_type: str = "t3.medium",
    node_type: str = "t3.large",
    public_key: str | None = None,
    api_ip: str = PLACEHOLDER_IP,
) -> list[AwsTask]:
    """The cluster's tasks, in no particular order (the executor orders them)."""
    c = cluster
    vpc = Vpc(
        name=c, cidr_block="172.20.0.0/16", enable_dns_hostnames=True, enable_dns_support=True
    )
    igw = InternetGateway(name=c)
    public = RouteTable(name=c, vpc=vpc)
    tasks: list[AwsTask] = [
        vpc,
        igw,
        public,
        InternetGatewayAttachment(name=c, internet_gateway=igw, vpc=vpc),
        Route(
            name="0.0.0.0/0",
            route_table=public,
            destination_cidr_block="0.0.0.0/0",
            internet_gateway=igw,
        ),
    ]
    utility: list[Subnet] = []
    private: list[Subnet] = []
    for i, zone in enumerate(zones):
        u = Subnet(
            name=f"utility-{zone}.{c}",
            vpc=vpc,
            cidr_block=f"172.20.{i * 4}.0/22",
            availability_zone=zone,
        )
        p = Subnet(
            name=f"{zone}.{c}",
            vpc=vpc,
            cidr_block=f"172.20.{32 + i * 32}.0/19",
            availability_zone=zone,
        )
        # private topology: the zone's nodes reach out through a NAT gateway in its utility subnet
        eip = ElasticIp(name=f"{zone}.{c}", domain="vpc")
        nat = NatGateway(name=f"{zone}.{c}", subnet=u, elastic_ip=eip)
        table = RouteTable(name=f"private-{zone}.{c}", vpc=vpc)
        utility.append(u)
        private.append(p)
        tasks += [
            u,
            p,
            eip,
            nat,
            table,
            Route(
                name=f"private-{zone}-0.0.0.0/0",
                route_table=table,
                destination_cidr_block="0.0.0.0/0",
                nat_gateway=nat,
            ),
            RouteTableAssociation(name=f"utility-{zone}.{c}", route_table=public, subnet=u),
            RouteTableAssociation(name=f"private-{zone}.{c}", route_table=table, subnet=p),
        ]
    # a kind whose own name is its key (GroupName, RoleName, LaunchTemplateName, ...) takes the
    # task's name
    masters_sg = SecurityGroup(
        name=f"masters.{c}", description="Security group for masters", vpc=vpc
    )
    nodes_sg = SecurityGroup(name=f"nodes.{c}", description="Security group for nodes", vpc=vpc)
    tasks += [masters_sg, nodes_sg]
    # kOps' rules by name: SSH from the admin's range, the API from anywhere through the NLB, and
    # what an NLB in front of the masters needs (its health checks and kops-controller from the
    # VPC, ICMP "fragmentation needed" so path MTU discovery works through it)
    for rule, group, protocol, ports, cidr in (
        ("ssh-external-to-master-0.0.0.0/0", masters_sg, "tcp", (22, 22), "0.0.0.0/0"),
        ("ssh-external-to-node-0.0.0.0/0", nodes_sg, "tcp", (22, 22), "0.0.0.0/0"),
        ("https-api-elb-0.0.0.0/0", masters_sg, "tcp", (443, 443), "0.0.0.0/0"),
        ("https-elb-to-master", masters_sg, "tcp", (443, 443), "172.20.0.0/16"),
        ("kops-controller-elb-to-cp", masters_sg, "tcp", (3988, 3988), "172.20.0.0/16"),
        ("icmp-pmtu-api-elb-0.0.0.0/0", masters_sg, "icmp", (3, 4), "0.0.0.0/0"),
    ):
        tasks.append(
            SecurityGroupIngress(
                name=rule,
                security_group=group,
                ip_protocol=protocol,
                from_port=ports[0],
                to_port=ports[1],
                cidr_ip=cidr,
            )
        )
    # ... and between the groups: everything among the masters, masters to nodes and nodes to
    # nodes; nodes to masters everything but etcd's ports (2380-2381 and 4001-4002)
    for rule, group, source, protocol, ports in (
        ("all-master-to-master", masters_sg, masters_sg, "-1", None),
        ("all-master-to-node", nodes_sg, masters_sg, "-1", None),
        ("all-node-to-node", nodes_sg, nodes_sg, "-1", None),
        ("node-to-master-tcp-1-2379", masters_sg, nodes_sg, "tcp", (1, 2379)),
        ("node-to-master-tcp-2382-4000", masters_sg, nodes_sg, "tcp", (2382, 4000)),
        ("node-to-master-tcp-4003-65535", masters_sg, nodes_sg, "tcp", (4003, 65535)),
        ("node-to-master-udp-1-65535", masters_sg, nodes_sg, "udp", (1, 65535)),
    ):
        permission = {"IpProtocol": protocol, "UserIdGroupPairs": [{"GroupId": source}]}
        if ports:
            permission |= {"FromPort": ports[0], "ToPort": ports[1]}
        tasks.append(
            SecurityGroupIngress(name=rule, security_group=group, ip_permissions=[permission])
        )  # type: ignore[list-item]
    # kOps imports the admin's public key; without one, AWS makes the key (its private half is
    # returned once)
    key = KeyPair(
        name=f"kubernetes.{c}",
        key_name=f"kubernetes.{c}",
        public_key_material=public_key.encode() if public_key else None,
    )
    tasks.append(key)

    # the account holds each ELBv2 name once: made of the whole cluster name, as kOps makes them
    target_group = TargetGroup(
        name=resource_name(c, "tcp"), protocol="TCP", port=443, vpc_id=vpc, target_type="instance"
    )
    nlb = LoadBalancer(
        name=resource_name(c, "api"), type_="network", scheme="internet-facing", subnets=utility
    )
    listener = Listener(
        name="443",
        load_balancer=nlb,
        port=443,
        protocol="TCP",
        default_actions=[{"Type": "forward", "TargetGroupArn": target_group}],
    )
    tasks += [target_group, nlb, listener]

    for role_name, instance_type, group, subnets, size in (
        ("masters", master_type, masters_sg, private, 1),
        ("nodes", node_type, nodes_sg, private, 2),
    ):
        role = Role(name=f"{role_name}.{c}", assume_role_policy_document=ASSUME_EC2)
        policy = RolePolicy(
            name=f"{role_name}.{c}",
            role_name=role,
            policy_name=f"{role_name}.{c}",
            policy_document=_policy("ec2:Describe*", "autoscaling:Describe*"),
        )
        profile = InstanceProfile(name=f"{role_name}.{c}", roles=[role])  # type: ignore[list-item]
        template = LaunchTemplate(
            name=f"{role_name}.{c}",
            launch_template_data={
                "ImageId": IMAGE,
                "InstanceType": instance_type,
                "KeyName": f"kubernetes.{c}",
                "IamInstanceProfile": {"Name": f"{role_name}.{c}"},
                "SecurityGroupIds": [group],
            },
        )
        asg = AutoScalingGroup(
            name=f"{role_name}.{c}",
            min_size=size,
            max_size=size,
            launch_template={"LaunchTemplateId": template, "Version": "$Default"},
            vpc_zone_identifier=Joined(subnets),
            target_group_arns=[target_group] if role_name == "masters" else None,
            tags={"k8s.io/role/" + role_name[:-1]: "1"},
        )
        tasks += [role, policy, profile, template, asg]
    members = ",".join(z[-1] for z in zones)
    for zone in zones:
        for etcd in (
            "main",
            "events",
        ):  # etcd-manager's two clusters, a volume each per master zone
            tasks.append(
                Volume(
                    name=f"{zone[-1]}.etcd-{etcd}.{c}",
                    availability_zone=zone,
                    size=20,
                    volume_type="gp3",
                    tags={
                        f"k8s.io/etcd/{etcd}": f"{zone[-1]}/{members}",
                        "k8s.io/role/master": "1",
                    },
                )
            )
    zone = HostedZone(name=f"{c}.")
    tasks.append(zone)
    for record in (f"api.{c}.", f"api.internal.{c}."):
        tasks.append(
            ResourceRecordSet(
                name=record,
                hosted_zone=zone,
                type_="A",
                ttl=60,
                resource_records=[{"Value": api_ip}],
            )
        )  # type: ignore[list-item]
    return tasks


@contextmanager
def moto_server() -> Iterator[str]:
    """moto_server in its own process on loopback, for as long as the block runs."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = Path(sys.executable).with_name("moto_server")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "moto.server"]
    proc = subprocess.Popen(
        [*cmd, "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/moto-api/", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit(f"moto_server did not start on {url}") from None
                time.sleep(0.05)  # waiting for the child to listen
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=5)


def run(endpoint_url: str, cluster: str, *, dry_run: bool, delete: bool) -> None:
    from tasklayer_tasks.runtime.contract.retry import RetryPolicy

    context = Context(
        region="us-east-1",
        cluster=cluster,
        endpoint_url=endpoint_url,
        retry=RetryPolicy(sleep=lambda _: None),
    )
    tasks = kops_cluster(cluster)
    if dry_run:
        plan = DryRunTarget(context)
        planned = Executor(plan).run(tasks)
        print(plan.plan.format())  # each change with its values, as kops update cluster shows it
        print(planned.summary())
        return
    executor = Executor(CloudTarget(context))
    report = executor.delete(tasks) if delete else executor.run(tasks)
    print(report.format(), end="")  # what was created, modified, deleted; the calls; the time


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--endpoint-url",
        default=os.environ.get("AWS_ENDPOINT_URL"),
        help="an AWS-compatible endpoint (moto_server); default: start one",
    )
    parser.add_argument("--cluster", default="demo.example.com")
    parser.add_argument("--dry-run", action="store_true", help="print the plan, change nothing")
    parser.add_argument("--delete", action="store_true", help="delete the cluster's resources")
    parser.add_argument(
        "--graph",
        choices=("dot", "mermaid"),
        help="print the task graph (Graphviz DOT or a Mermaid flowchart) and touch no cloud",
    )
    args = parser.parse_args(argv)
    if args.graph:
        draw = to_dot if args.graph == "dot" else to_mermaid
        print(draw(kops_cluster(args.cluster)), end="")
        return
    for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ.setdefault(key, "testing")
    if args.endpoint_url:
        run(args.endpoint_url, args.cluster, dry_run=args.dry_run, delete=args.delete)
        return
    with moto_server() as url:  # a fresh, empty one: the plan creates everything
        run(url, args.cluster, dry_run=args.dry_run, delete=args.delete)


if __name__ == "__main__":
    main()
