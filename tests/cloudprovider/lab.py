"""A cluster for the cloud-provider face to serve, made in moto_server straight with boto3 (not
through the code under test): a VPC with two subnets, the nodes' security group, the cluster's
route table and a few instances; and an account-wide inventory of what the face makes
(load balancers, target groups, listeners, security groups and their rules), read from moto
directly, never through the proxy."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import boto3

from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.cloudprovider.aws import AwsCluster
from tasklayer_tasks.runtime.cloudprovider.service import Node, Service, ServicePort
from testbed.campaign import REGION, Lab

IMAGE = "ami-12c6146b"


def boto(url: str, service: str) -> Any:
    return boto3.client(service, region_name=REGION, endpoint_url=url,
                        aws_access_key_id="testing", aws_secret_access_key="testing")


@dataclass
class Cluster:
    aws: AwsCluster
    nodes: list[Node]


def make_cluster(url: str, cluster_id: str, nodes: int = 3) -> Cluster:
    ec2 = boto(url, "ec2")
    owned = [{"Key": f"kubernetes.io/cluster/{cluster_id}", "Value": "owned"},
             {"Key": "KubernetesCluster", "Value": cluster_id}]
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnets = [ec2.create_subnet(VpcId=vpc, CidrBlock=f"10.0.{i}.0/24",
                                 AvailabilityZone=f"us-east-1{z}")["Subnet"]["SubnetId"]
               for i, z in enumerate("ab")]
    group = ec2.create_security_group(GroupName=f"nodes.{cluster_id}", Description="nodes",
                                      VpcId=vpc)["GroupId"]
    table = ec2.create_route_table(VpcId=vpc)["RouteTable"]["RouteTableId"]
    ec2.create_tags(Resources=[table, group, vpc], Tags=owned)
    made = ec2.run_instances(ImageId=IMAGE, MinCount=nodes, MaxCount=nodes, InstanceType="t3.large",
                             SubnetId=subnets[0], SecurityGroupIds=[group])["Instances"]
    found = [Node(f"node-{i}", f"aws:///{m['Placement']['AvailabilityZone']}/{m['InstanceId']}",
                  f"100.96.{i}.0/24") for i, m in enumerate(made)]
    return Cluster(AwsCluster(cluster_id, vpc, tuple(subnets), group, table), found)


def service(name: str, uid: str, *ports: tuple[int, int], namespace: str = "default") -> Service:
    return Service(namespace, name, uid, tuple(ServicePort(p, n) for p, n in ports))


def inventory(url: str) -> dict[str, Counter[str]]:
    """Per Service tag value (``ns/name``; ``-`` for none), the kinds of what carries it."""
    elb, ec2 = boto(url, "elbv2"), boto(url, "ec2")
    found: dict[str, Counter[str]] = {}

    def add(kind: str, tags: list[dict[str, str]]) -> None:
        owner = next((t["Value"] for t in tags if t["Key"] == "kubernetes.io/service-name"), "-")
        found.setdefault(owner, Counter())[kind] += 1

    balancers = elb.describe_load_balancers()["LoadBalancers"]
    groups = elb.describe_target_groups()["TargetGroups"]
    arns = [b["LoadBalancerArn"] for b in balancers] + [g["TargetGroupArn"] for g in groups]
    listeners = [li for b in balancers
                 for li in elb.describe_listeners(LoadBalancerArn=b["LoadBalancerArn"])["Listeners"]]
    arns += [li["ListenerArn"] for li in listeners]
    tags = {d["ResourceArn"]: d["Tags"] for d in (elb.describe_tags(ResourceArns=arns[i:i + 20])
            ["TagDescriptions"] for i in range(0, len(arns), 20)) for d in d} if arns else {}
    for b in balancers:
        add("load-balancer", tags.get(b["LoadBalancerArn"], []))
    for g in groups:
        add("target-group", tags.get(g["TargetGroupArn"], []))
    for li in listeners:
        add("listener", tags.get(li["ListenerArn"], []))
    for g in ec2.describe_security_groups()["SecurityGroups"]:
        if g["GroupName"] != "default" and g["GroupName"].startswith("k8s-elb-"):
            add("security-group", g.get("Tags", []))
    for r in ec2.describe_security_group_rules()["SecurityGroupRules"]:
        if not r["IsEgress"] and r.get("Tags"):
            add("sg-rule", r["Tags"])
    return found


def context(lab: Lab) -> Context:
    return lab.context("")


def targets(lab: Lab) -> dict[int, set[str]]:
    elb = boto(lab.moto.url, "elbv2")
    return {g["Port"]: {d["Target"]["Id"] for d in elb.describe_target_health(
                TargetGroupArn=g["TargetGroupArn"])["TargetHealthDescriptions"]}
            for g in elb.describe_target_groups()["TargetGroups"]}

