"""Two tools on one cluster, the normal case: kOps applies the cluster (its own API load balancer,
target group, listener and security group) with prune, while the cloud-provider face keeps a
Service's NLB over the same cluster id. Both tag ``kubernetes.io/cluster/<id>=owned``; what the
Service's owner made also carries the marker naming the key that narrows it, so the cluster's
prune, not narrowed, takes none of it for its orphan, and still prunes its own. Against
moto_server behind the fault proxy; what is left is read from moto directly."""

from __future__ import annotations

from collections import Counter

from tasklayer_tasks.aws.ec2 import SecurityGroup
from tasklayer_tasks.aws.elbv2 import Listener, LoadBalancer, TargetGroup
from tasklayer_tasks.runtime.cloudprovider.aws import AwsCluster, AwsLoadBalancers
from tasklayer_tasks.runtime.kops.executor import Executor
from tasklayer_tasks.runtime.kops.targets import CloudTarget
from testbed.campaign import Lab
from tests.cloudprovider.lab import boto, inventory, make_cluster, service
from tests.faults.fixtures import lab, module_lab  # noqa: F401

UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
ONE_PORT = {"load-balancer": 1, "target-group": 1, "listener": 1, "security-group": 1, "sg-rule": 2}


def quick(target: CloudTarget) -> Executor:
    return Executor(target, sleep=lambda _: None, retry_interval=0.01)


def kops_tasks(cluster: AwsCluster, *extra: str) -> list:  # type: ignore[type-arg]
    """kOps' API load balancer for the cluster (and the nodes' group, its too); each of ``extra`` a target group and security
    group more (what an earlier cluster spec had and this one no longer does)."""
    nodes = SecurityGroup(name="nodes.demo", description="nodes", vpc=cluster.vpc_id)
    group = SecurityGroup(name="api-elb.demo", description="api", vpc=cluster.vpc_id)
    target = TargetGroup(name="tcp-api-demo", protocol="TCP", port=443, vpc_id=cluster.vpc_id,
                         target_type="instance")
    balancer = LoadBalancer(name="api-demo", type_="network", scheme="internet-facing",
                            subnets=list(cluster.subnet_ids),
                            security_groups=[group])  # type: ignore[list-item]
    listener = Listener(name="api-demo-443", load_balancer=balancer, port=443, protocol="TCP",
                        default_actions=[{"Type": "forward", "TargetGroupArn": target}])
    tasks: list = [nodes, group, target, balancer, listener]  # type: ignore[type-arg]
    for name in extra:
        tasks += [TargetGroup(name=f"tcp-{name}", protocol="TCP", port=8443,
                              vpc_id=cluster.vpc_id, target_type="instance"),
                  SecurityGroup(name=f"{name}.demo", description=name, vpc=cluster.vpc_id)]
    return tasks


def names(lab: Lab) -> tuple[set[str], set[str]]:
    """Target group names, and security group names, in the account."""
    elb, ec2 = boto(lab.moto.url, "elbv2"), boto(lab.moto.url, "ec2")
    return ({g["TargetGroupName"] for g in elb.describe_target_groups()["TargetGroups"]},
            {g["GroupName"] for g in ec2.describe_security_groups()["SecurityGroups"]})


def test_a_cluster_wide_prune_leaves_a_services_load_balancer_and_prunes_its_own(lab: Lab) -> None:
    cluster = make_cluster(lab.moto.url, "demo")
    kops = quick(CloudTarget(lab.context("demo")))  # the cluster's owner, not narrowed
    kops.run(kops_tasks(cluster.aws, "old"), prune=True)
    lbs = AwsLoadBalancers(lab.context(""), cluster.aws, executor=quick)
    web = service("web", UID, (80, 30080))
    lbs.ensure_load_balancer(web, cluster.nodes)
    assert inventory(lab.moto.url)["default/web"] == Counter(ONE_PORT)
    groups, sgs = names(lab)
    assert {"tcp-api-demo", "tcp-old"} <= groups and {"api-elb.demo", "old.demo"} <= sgs

    lab.proxy.clear()
    kops.run(kops_tasks(cluster.aws), prune=True)  # "old" dropped from the cluster spec
    writes = lab.proxy.writes()
    assert writes == Counter({"DeleteTargetGroup": 1, "DeleteSecurityGroup": 1})
    groups, sgs = names(lab)
    assert "tcp-old" not in groups and "old.demo" not in sgs  # kOps' orphans pruned
    assert "tcp-api-demo" in groups and "api-elb.demo" in sgs  # kOps' declared ones stay
    assert inventory(lab.moto.url)["default/web"] == Counter(ONE_PORT)  # the Service's all stay
    lab.proxy.clear()
    lbs.ensure_load_balancer(web, cluster.nodes)  # and still converged as the face left it
    assert lab.proxy.writes() == Counter()
