"""The cloud-provider face's LoadBalancer on AWS against moto_server, behind the fault proxy that
counts every write at the wire; what is in the account is read from moto directly
(tests/cloudprovider/lab.py), never through the face."""

from __future__ import annotations

from collections import Counter

import pytest

from tasklayer_tasks.runtime import NotOwnedError
from tasklayer_tasks.runtime.cloudprovider.aws import AwsLoadBalancers
from tasklayer_tasks.runtime.cloudprovider.service import default_load_balancer_name
from tasklayer_tasks.runtime.kops.executor import Executor
from testbed.campaign import Lab
from tests.cloudprovider.lab import boto, inventory, make_cluster, service, targets
from tests.faults.fixtures import lab, module_lab  # noqa: F401

UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
OTHER = "6fa459ea-ee8a-3ca4-894e-db77e160355e"
ONE_PORT = {"load-balancer": 1, "target-group": 1, "listener": 1, "security-group": 1, "sg-rule": 2}


def face(lab: Lab, cluster_id: str = "demo") -> tuple[AwsLoadBalancers, list]:  # type: ignore[type-arg]
    cluster = make_cluster(lab.moto.url, cluster_id)
    quick = lambda target: Executor(target, sleep=lambda _: None, retry_interval=0.01)  # noqa: E731
    return AwsLoadBalancers(lab.context(""), cluster.aws, executor=quick), cluster.nodes


def test_the_name_is_a_and_the_uid_without_dashes_cut_to_32() -> None:
    assert default_load_balancer_name(service("web", UID)) == "a1b4e28ba2fa111d2883f0016d3cca42"


def test_ensure_makes_one_of_each_tagged_for_the_service_and_cluster(lab: Lab) -> None:
    lbs, nodes = face(lab)
    web = service("web", UID, (80, 30080))
    status = lbs.ensure_load_balancer(web, nodes)
    assert status.ingress and status.ingress[0].hostname.startswith(lbs.get_load_balancer_name(web))
    assert inventory(lab.moto.url) == {"default/web": Counter(ONE_PORT)}
    elb = boto(lab.moto.url, "elbv2")
    balancer = elb.describe_load_balancers(Names=[lbs.get_load_balancer_name(web)])["LoadBalancers"][0]
    assert balancer["Type"] == "network"
    tags = {t["Key"]: t["Value"] for t in elb.describe_tags(
        ResourceArns=[balancer["LoadBalancerArn"]])["TagDescriptions"][0]["Tags"]}
    assert tags["kubernetes.io/service-name"] == "default/web"
    assert tags["kubernetes.io/cluster/demo"] == "owned"
    assert lbs.get_load_balancer(web) == (status, True)


def test_ensure_twice_writes_nothing_the_second_time(lab: Lab) -> None:
    lbs, nodes = face(lab)
    web = service("web", UID, (80, 30080), (443, 30443))
    lbs.ensure_load_balancer(web, nodes)
    lab.proxy.clear()
    lbs.ensure_load_balancer(web, nodes)
    assert lab.proxy.writes() == Counter()


def test_ports_changed_change_listeners_not_the_load_balancer(lab: Lab) -> None:
    lbs, nodes = face(lab)
    lbs.ensure_load_balancer(service("web", UID, (80, 30080)), nodes)
    elb = boto(lab.moto.url, "elbv2")
    before = elb.describe_load_balancers()["LoadBalancers"][0]["LoadBalancerArn"]
    lab.proxy.clear()
    lbs.ensure_load_balancer(service("web", UID, (8080, 30080)), nodes)
    writes = lab.proxy.writes()
    assert not {"CreateLoadBalancer", "DeleteLoadBalancer"} & set(writes)
    assert writes["CreateListener"] == 1 and writes["DeleteListener"] == 1
    after = elb.describe_load_balancers()["LoadBalancers"]
    assert [b["LoadBalancerArn"] for b in after] == [before]
    ports = [li["Port"] for li in elb.describe_listeners(LoadBalancerArn=before)["Listeners"]]
    assert ports == [8080]
    assert inventory(lab.moto.url)["default/web"]["target-group"] == 1


def test_a_second_service_gets_its_own_and_deleting_one_leaves_the_other(lab: Lab) -> None:
    lbs, nodes = face(lab)
    web, api = service("web", UID, (80, 30080)), service("api", OTHER, (80, 30081))
    lbs.ensure_load_balancer(web, nodes)
    lbs.ensure_load_balancer(api, nodes)
    assert inventory(lab.moto.url) == {"default/web": Counter(ONE_PORT),
                                       "default/api": Counter(ONE_PORT)}
    lab.proxy.clear()
    lbs.ensure_load_balancer(web, nodes)  # the other Service's listing changes nothing of web's
    assert lab.proxy.writes() == Counter()
    lbs.ensure_load_balancer_deleted(api)
    assert inventory(lab.moto.url) == {"default/web": Counter(ONE_PORT)}
    assert lbs.get_load_balancer(api) == (None, False)
    lab.proxy.clear()
    lbs.ensure_load_balancer_deleted(api)  # gone already: done, no write
    assert lab.proxy.writes() == Counter()


def test_deleting_a_service_leaves_another_clusters_of_the_same_name(lab: Lab) -> None:
    """The same Service UID in two clusters (a restored backup): names collide account-wide for
    the load balancer, so the second cluster is refused it, and nothing of the first changes."""
    first, nodes = face(lab, "demo")
    second, _ = face(lab, "other")
    web = service("web", UID, (80, 30080))
    first.ensure_load_balancer(web, nodes)
    mine = arns(lab)
    assert len(mine) == 3
    with pytest.raises(NotOwnedError):
        second.ensure_load_balancer(web, nodes)
    with pytest.raises(NotOwnedError):
        second.ensure_load_balancer_deleted(web)
    assert arns(lab) >= mine  # the first cluster's load balancer, listener, target group stay


def arns(lab: Lab) -> set[str]:
    elb = boto(lab.moto.url, "elbv2")
    found = {g["TargetGroupArn"] for g in elb.describe_target_groups()["TargetGroups"]}
    for b in elb.describe_load_balancers()["LoadBalancers"]:
        found.add(b["LoadBalancerArn"])
        found |= {li["ListenerArn"] for li in
                  elb.describe_listeners(LoadBalancerArn=b["LoadBalancerArn"])["Listeners"]}
    return found


def test_nodes_added_and_removed_change_only_the_targets(lab: Lab) -> None:
    lbs, nodes = face(lab)
    web = service("web", UID, (80, 30080), (443, 30443))
    lbs.ensure_load_balancer(web, nodes[:2])
    ids = [n.instance_id for n in nodes]
    assert targets(lab) == {30080: set(ids[:2]), 30443: set(ids[:2])}
    lab.proxy.clear()
    lbs.update_load_balancer(web, nodes[1:])  # node 0 leaves, node 2 joins
    assert lab.proxy.writes() == Counter({"RegisterTargets": 2, "DeregisterTargets": 2})
    assert targets(lab) == {30080: set(ids[1:]), 30443: set(ids[1:])}
    lab.proxy.clear()
    lbs.update_load_balancer(web, nodes[1:])
    assert lab.proxy.writes() == Counter()


def ingress_rules(lab: Lab, group_name: str) -> dict[tuple[int, str], str]:
    """(port, range) -> rule id, of the ingress rules of the group named ``group_name``."""
    ec2 = boto(lab.moto.url, "ec2")
    group = ec2.describe_security_groups(
        Filters=[{"Name": "group-name", "Values": [group_name]}])["SecurityGroups"][0]["GroupId"]
    rules = ec2.describe_security_group_rules(
        Filters=[{"Name": "group-id", "Values": [group]}])["SecurityGroupRules"]
    return {(r["FromPort"], r.get("CidrIpv4", "")): r["SecurityGroupRuleId"]
            for r in rules if not r["IsEgress"]}


def test_a_port_changed_revokes_its_old_rule_and_touches_nothing_else(lab: Lab) -> None:
    """The load balancer's own group lets the Service's ranges reach its ports: a port gone
    takes its rule with it at the next ensure (prune tells an ingress rule from an egress one
    by the read's ``IsEgress``), not only at the Service's delete; the egress rule, the node
    ports rule and the other port's rule stay as they were."""
    lbs, nodes = face(lab)
    lbs.ensure_load_balancer(service("web", UID, (80, 30080), (443, 30443)), nodes)
    group = f"k8s-elb-{lbs.get_load_balancer_name(service('web', UID))}"
    before = ingress_rules(lab, group)
    assert set(before) == {(80, "0.0.0.0/0"), (443, "0.0.0.0/0")}
    ec2 = boto(lab.moto.url, "ec2")
    everything = {r["SecurityGroupRuleId"] for r in ec2.describe_security_group_rules()[
        "SecurityGroupRules"]}
    lab.proxy.clear()
    lbs.ensure_load_balancer(service("web", UID, (8080, 30080), (443, 30443)), nodes)
    writes = lab.proxy.writes()
    assert writes["RevokeSecurityGroupIngress"] == 1 and writes["AuthorizeSecurityGroupIngress"] == 1
    assert "RevokeSecurityGroupEgress" not in writes
    after = ingress_rules(lab, group)
    assert set(after) == {(8080, "0.0.0.0/0"), (443, "0.0.0.0/0")}
    assert after[(443, "0.0.0.0/0")] == before[(443, "0.0.0.0/0")]
    now = {r["SecurityGroupRuleId"] for r in ec2.describe_security_group_rules()[
        "SecurityGroupRules"]}
    assert everything - now == {before[(80, "0.0.0.0/0")]}  # only the old port's rule went
    assert len(now - everything) == 1  # the new port's
    lab.proxy.clear()
    lbs.ensure_load_balancer(service("web", UID, (8080, 30080), (443, 30443)), nodes)
    assert lab.proxy.writes() == Counter()
