"""The upstream cloud-provider-gcp leaks and gaps this face must not have, each a test named
after its issue, against the project's GCP fake behind a wire that faults or crashes; what is
left is read from the fake's store directly.

kubernetes #51701: on a Service's delete the forwarding rule went but its target pool was
leaked. kubernetes #39420 and #43174: deleting a Service of type LoadBalancer left the network
load balancer (forwarding rule, address). kubernetes #53657: changing externalTrafficPolicy to
Local did not give the load balancer the Service's health check. kubernetes #78124 (found on
AWS; the same on any cloud): a controller restarted while a Service was being deleted left its
parts. And, as kubernetes #79994 on AWS: a Service whose load balancer was never made (its
forwarding rule refused) leaked the firewalls and check made before it."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.cloudprovider.gcp_lab import Crash, Wire, error, inventory, make_lab, service, stored
from tests.cloudprovider.test_gcp_faults import ALL, NAME, UID, WEB, delete, ensure, fresh


def test_kubernetes_51701_a_delete_cut_after_the_forwarding_rule_leaks_no_target_pool() -> None:
    lab = make_lab(wrap=Wire)
    ensure(lab)
    lab.http.crash_after = lab.http.writes + 1  # the forwarding rule's delete, then the end
    try:
        fresh(lab).ensure_load_balancer_deleted(WEB)
        raise AssertionError("the delete was not cut")
    except Crash:
        pass
    assert NAME not in stored(lab.fake, "forwardingRules")
    assert NAME in stored(lab.fake, "targetPools")  # what #51701 leaked
    lab.http.crash_after = None
    delete(lab)
    assert inventory(lab.fake) == {}


def test_kubernetes_39420_43174_deleting_the_service_removes_its_load_balancer_and_address() -> None:
    lab = make_lab()
    other = service("api", "6fa459ea-ee8a-3ca4-894e-db77e160355e", (80, 30081))
    ensure(lab, other)
    ensure(lab)
    ensure(lab, service("web", UID, (8080, 30080)))  # ports changed: the rule replaced
    delete(lab, service("web", UID, (9090, 30080)))  # deleted as it now is (never ensured)
    assert set(inventory(lab.fake)) == {"default/api"}
    assert inventory(lab.fake)["default/api"] == Counter(ALL)
    assert NAME not in stored(lab.fake, "addresses")


def test_kubernetes_53657_local_traffic_policy_gives_the_pool_the_services_check_port() -> None:
    lab = make_lab()
    ensure(lab)
    pool = stored(lab.fake, "targetPools")[NAME]["id"]
    since = len(lab.fake.log)
    local = service("web", UID, (80, 30080), (443, 30443))
    local = type(local)(local.namespace, local.name, local.uid, local.ports,
                        health_check_node_port=31234)
    ensure(lab, local)
    assert lab.writes(since) == Counter({"compute.httpHealthChecks.patch": 1,
                                         "compute.firewalls.patch": 1})
    assert stored(lab.fake, "httpHealthChecks")[NAME]["port"] == 31234
    wall = stored(lab.fake, "firewalls")[f"k8s-{NAME}-http-hc"]
    assert wall["allowed"] == [{"IPProtocol": "tcp", "ports": ["31234"]}]
    assert stored(lab.fake, "targetPools")[NAME]["id"] == pool


def test_kubernetes_78124_a_restart_between_any_two_calls_of_a_delete_completes_it() -> None:
    k, crashed_at = 0, []
    while True:
        k += 1
        lab = make_lab(wrap=Wire)
        ensure(lab)
        lab.http.crash_after = lab.http.writes + k
        try:
            fresh(lab).ensure_load_balancer_deleted(WEB)
            finished = True
        except Crash:
            finished = False
        lab.http.crash_after = None
        if finished:
            break
        crashed_at.append(k)
        delete(lab)  # the restarted controller, from nothing but the Service
        assert inventory(lab.fake) == {}, f"restart after write {k}"
        since = len(lab.fake.log)
        fresh(lab).ensure_load_balancer_deleted(WEB)
        assert lab.writes(since) == Counter(), f"restart after write {k}"
    assert crashed_at == list(range(1, 6))  # a restart between every two of its 6 writes


class Refused(Wire):
    """Every forwarding rule create refused, as a project's quota refuses it."""

    def request(self, uri: str, method: str = "GET", body: Any = None, headers: Any = None,
                **kw: Any) -> Any:
        if method == "POST" and uri.split("?")[0].endswith("/forwardingRules"):
            return error(403, "quotaExceeded")
        return super().request(uri, method, body, headers, **kw)


def test_a_load_balancer_never_made_leaks_no_firewall_or_check_as_kubernetes_79994() -> None:
    lab = make_lab(wrap=Refused)
    try:
        ensure(lab, deadline=0.5)
        raise AssertionError("the forwarding rule was made")
    except AssertionError as err:
        assert "not converged" in str(err)
    made = inventory(lab.fake)["default/web"]
    assert made["firewall"] == 2 and "forwarding-rule" not in made
    delete(lab)
    assert inventory(lab.fake) == {}
