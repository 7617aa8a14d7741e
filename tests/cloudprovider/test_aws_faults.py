"""The cloud-provider face's fault campaign on AWS: a fault (throttle, 5xx after commit, reply
lost after commit, connection reset) at every write a clean ``EnsureLoadBalancer`` and a clean
``EnsureLoadBalancerDeleted`` make, at the wire (moto_server behind the fault proxy). Each pass
after the fault is a fresh face (a restarted controller: nothing kept in memory), as the
service controller would requeue. Then, judged from moto directly: one of each resource for the
Service, nothing leaked, and a further call makes no write.

The cells are each phase's clean writes, read from the clean run itself, so a face that made
another call would get a cell for it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from tasklayer_tasks.runtime.cloudprovider.aws import AwsCluster, AwsLoadBalancers
from tasklayer_tasks.runtime.cloudprovider.service import Node, Service
from tasklayer_tasks.runtime.kops.executor import Executor
from tasklayer_tasks.runtime.kops.targets import CloudTarget
from testbed.campaign import SUITE_KINDS, Lab
from testbed.proxy import Fault, FaultKind
from tests.cloudprovider.lab import boto, inventory, make_cluster, service, targets
from tests.faults.fixtures import lab, module_lab  # noqa: F401

UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
WEB = service("web", UID, (80, 30080), (443, 30443))
TWO_PORTS = {"load-balancer": 1, "target-group": 2, "listener": 2, "security-group": 1,
             "sg-rule": 3}
PASSES = 6


def fresh(lab: Lab, cluster: AwsCluster, deadline: float = 600.0) -> AwsLoadBalancers:
    def quick(target: CloudTarget) -> Executor:
        return Executor(target, sleep=lambda _: None, retry_interval=0.01, task_deadline=deadline)

    return AwsLoadBalancers(lab.context(""), cluster, executor=quick)


def occurrences(writes: list[str]) -> list[tuple[str, int]]:
    seen: Counter[str] = Counter()
    out = []
    for action in writes:
        seen[action] += 1
        out.append((action, seen[action]))
    return out


def wire_writes(lab: Lab) -> list[str]:
    return [r.action for r in lab.proxy.requests if r.mutating]


def ensure(
    lab: Lab,
    cluster: AwsCluster,
    svc: Service = WEB,
    deadline: float = 600.0,
    nodes: Sequence[Node] = (),
) -> list[str]:
    """Passes until one succeeds (a fresh face each): the errors of those that failed."""
    errors = []
    for _ in range(PASSES):
        try:
            fresh(lab, cluster, deadline).ensure_load_balancer(svc, nodes)
            return errors
        except Exception as err:  # the faulted pass may fail; the next one must recover
            errors.append(f"{type(err).__name__}: {err}")
    raise AssertionError(f"not converged after {PASSES} passes: {errors}")


def delete(lab: Lab, cluster: AwsCluster, svc: Service = WEB) -> list[str]:
    errors = []
    for _ in range(PASSES):
        try:
            fresh(lab, cluster).ensure_load_balancer_deleted(svc)
            return errors
        except Exception as err:
            errors.append(f"{type(err).__name__}: {err}")
    raise AssertionError(f"not deleted after {PASSES} passes: {errors}")


def names(lab: Lab) -> Counter[str]:
    """Every load balancer, target group and load-balancer security group by name: a second one
    of a name would be a duplicate (names are unique per account or VPC, so this also holds
    that nothing was made twice under another name)."""
    elb, ec2 = boto(lab.moto.url, "elbv2"), boto(lab.moto.url, "ec2")
    found = Counter(b["LoadBalancerName"] for b in elb.describe_load_balancers()["LoadBalancers"])
    found.update(g["TargetGroupName"] for g in elb.describe_target_groups()["TargetGroups"])
    found.update(g["GroupName"] for g in ec2.describe_security_groups()["SecurityGroups"]
                 if g["GroupName"].startswith("k8s-elb-"))
    return found


def clean(lab: Lab, phase: str) -> list[tuple[str, int]]:
    lab.reset()
    made = make_cluster(lab.moto.url, "demo")
    cluster = made.aws
    lab.proxy.clear()
    ensure(lab, cluster, nodes=made.nodes)
    if phase == "delete":
        lab.proxy.clear()
        delete(lab, cluster)
    return occurrences(wire_writes(lab))


def judge_applied(lab: Lab, cluster: AwsCluster, nodes: Sequence[Node]) -> None:
    assert inventory(lab.moto.url) == {"default/web": Counter(TWO_PORTS)}
    assert set(names(lab).values()) == {1}
    assert targets(lab) == {30080: {n.instance_id for n in nodes},
                            30443: {n.instance_id for n in nodes}}
    lab.proxy.clear()
    fresh(lab, cluster).ensure_load_balancer(WEB, nodes)
    assert lab.proxy.writes() == Counter()


def judge_deleted(lab: Lab, cluster: AwsCluster) -> None:
    assert inventory(lab.moto.url) == {}
    assert names(lab) == Counter()
    lab.proxy.clear()
    fresh(lab, cluster).ensure_load_balancer_deleted(WEB)
    assert lab.proxy.writes() == Counter()


@pytest.mark.parametrize("kind", SUITE_KINDS, ids=lambda k: k.value)
def test_a_fault_at_every_write_of_ensure_load_balancer(lab: Lab, kind: FaultKind) -> None:
    cells = clean(lab, "apply")
    assert len(cells) == 11  # SG, 3 rules, LB, 2 target groups, their targets, 2 listeners
    failed = []
    for action, occurrence in cells:
        lab.reset()
        made = make_cluster(lab.moto.url, "demo")
        lab.proxy.clear()
        lab.proxy.plan(Fault(action, occurrence, kind))
        try:
            ensure(lab, made.aws, nodes=made.nodes)
            assert lab.proxy.fired(), "the fault was planned at a write the run made"
            judge_applied(lab, made.aws, made.nodes)
        except AssertionError as err:
            failed.append(f"{action}#{occurrence}-{kind.value}: {err}")
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("kind", SUITE_KINDS, ids=lambda k: k.value)
def test_a_fault_at_every_write_of_ensure_load_balancer_deleted(lab: Lab, kind: FaultKind) -> None:
    cells = clean(lab, "delete")
    assert len(cells) == 9
    failed = []
    for action, occurrence in cells:
        lab.reset()
        made = make_cluster(lab.moto.url, "demo")
        cluster = made.aws
        ensure(lab, cluster, nodes=made.nodes)
        lab.proxy.clear()
        lab.proxy.plan(Fault(action, occurrence, kind))
        try:
            delete(lab, cluster)
            assert lab.proxy.fired()
            judge_deleted(lab, cluster)
        except AssertionError as err:
            failed.append(f"{action}#{occurrence}-{kind.value}: {err}")
    assert not failed, "\n".join(failed)
