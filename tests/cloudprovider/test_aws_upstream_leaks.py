"""The upstream cloud-provider leaks this face must not have, each a test named after its issue,
against moto_server behind the fault proxy; what is left is read from moto directly.

kubernetes #79994: a Service whose load balancer was never made (the account's ELB limit) leaked
its security group when it was deleted. kubernetes #57568 and #81610: an NLB Service's security
group rules were left behind on delete. kubernetes #78124: a controller restarted while a
Service was being deleted left its load balancer. cloud-provider-aws #528: changing a Service
from LoadBalancer to ClusterIP (the service controller then calls EnsureLoadBalancerDeleted)
left the NLB's resources."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tasklayer_tasks.runtime.cloudprovider.service import Service
from testbed.campaign import Lab
from testbed.proxy import READ_PREFIXES, Fault, FaultKind
from tests.cloudprovider.lab import boto, inventory, make_cluster, service
from tests.cloudprovider.test_aws_faults import delete, ensure, fresh, names
from tests.faults.fixtures import lab, module_lab  # noqa: F401

UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"


def rules_of(lab: Lab, group_id: str) -> list[dict[str, Any]]:
    rules = boto(lab.moto.url, "ec2").describe_security_group_rules(
        Filters=[{"Name": "group-id", "Values": [group_id]}])["SecurityGroupRules"]
    return [r for r in rules if not r["IsEgress"]]


def test_kubernetes_79994_a_load_balancer_never_made_leaks_no_security_group(lab: Lab) -> None:
    cluster = make_cluster(lab.moto.url, "demo").aws
    web = service("web", UID, (80, 30080))
    lab.proxy.plan(Fault("CreateLoadBalancer", 1, FaultKind.ERROR_BEFORE, times=10**6))
    with pytest.raises(AssertionError, match="not converged"):
        ensure(lab, cluster, web, deadline=0.5)  # the load balancer refused, its group made
    assert inventory(lab.moto.url)["default/web"]["security-group"] == 1
    assert "load-balancer" not in inventory(lab.moto.url)["default/web"]
    delete(lab, cluster, web)
    assert inventory(lab.moto.url) == {}
    assert names(lab) == Counter()


def test_kubernetes_57568_81610_no_security_group_rule_is_left_on_delete(lab: Lab) -> None:
    cluster = make_cluster(lab.moto.url, "demo").aws
    web = Service("default", "web", UID, service("web", UID, (443, 30443)).ports,
                  source_ranges=("8.8.8.8/32", "10.0.0.0/8"))
    before = rules_of(lab, cluster.node_security_group_id)
    ensure(lab, cluster, web)
    assert len(rules_of(lab, cluster.node_security_group_id)) == len(before) + 1
    assert inventory(lab.moto.url)["default/web"]["sg-rule"] == 3  # 2 ranges + the node ports
    delete(lab, cluster, web)
    assert rules_of(lab, cluster.node_security_group_id) == before
    assert inventory(lab.moto.url) == {}


class Crash(BaseException):
    """The controller's process ends: nothing after it runs (not an error the face handles)."""


def test_kubernetes_78124_a_restart_between_any_two_calls_of_a_delete_completes_it(lab: Lab) -> None:
    web = service("web", UID, (80, 30080), (443, 30443))
    k, crashed_at = 0, []
    while True:
        k += 1
        lab.reset()
        cluster = make_cluster(lab.moto.url, "demo").aws
        ensure(lab, cluster, web)
        sent = 0

        def crash_after_k(model: Any, k: int = k, **_: Any) -> None:
            nonlocal sent
            if not model.name.startswith(READ_PREFIXES):
                sent += 1
                if sent > k:
                    raise Crash(f"after {k} writes")

        lab.session.register("before-call.*.*", crash_after_k)
        try:
            fresh(lab, cluster).ensure_load_balancer_deleted(web)
            finished = True
        except Crash:
            finished = False
        finally:
            lab.session.unregister("before-call.*.*", crash_after_k)
        if finished:
            break
        crashed_at.append(k)
        delete(lab, cluster, web)  # the restarted controller, from nothing but the Service
        assert inventory(lab.moto.url) == {}, f"restart after write {k}"
        assert names(lab) == Counter(), f"restart after write {k}"
    assert crashed_at == list(range(1, 9))  # a restart between every two of its 9 writes


def test_cloud_provider_aws_528_load_balancer_to_cluster_ip_leaves_nothing(lab: Lab) -> None:
    """... after the Service's ports had changed, and changed again with the type (the controller
    calls EnsureLoadBalancerDeleted with the Service as it now is, never ensured), so that what
    its load balancer is made of is no longer what the Service declares."""
    cluster = make_cluster(lab.moto.url, "demo").aws
    other = service("api", "6fa459ea-ee8a-3ca4-894e-db77e160355e", (80, 30081))
    ensure(lab, cluster, other)
    ensure(lab, cluster, service("web", UID, (80, 30080)))
    ensure(lab, cluster, service("web", UID, (8080, 30080)))
    assert inventory(lab.moto.url)["default/web"]["sg-rule"] == 2  # the old port's went, pruned
    delete(lab, cluster, service("web", UID, (9090, 30080)))  # none of its listener, group, rule
    left = inventory(lab.moto.url)
    assert set(left) == {"default/api"}
    assert left["default/api"]["load-balancer"] == 1
