"""The cloud-provider face's LoadBalancer on GCP, against the project's GCP fake (checked against
Config Connector's recorded real traffic by tests/kcc*); every write counted from the fake's
request log, what is in the project read from its store directly (tests/cloudprovider/gcp_lab.py),
never through the face."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tasklayer_tasks.gcp.compute import Firewall
from tasklayer_tasks.runtime import NotOwnedError, TaskError
from tasklayer_tasks.runtime.cloudprovider.gcp import instance_link
from tasklayer_tasks.runtime.contract.spec import known_specs
from tests.cloudprovider.gcp_lab import face, inventory, make_lab, quick, service, stored

UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
OTHER = "6fa459ea-ee8a-3ca4-894e-db77e160355e"
NAME = "a1b4e28ba2fa111d2883f0016d3cca42"
ONE = {"address": 1, "forwarding-rule": 1, "target-pool": 1, "health-check": 1, "firewall": 2}


def test_the_kinds_without_labels_declare_their_description_as_owner_record() -> None:
    from tasklayer_tasks.gcp.compute import HttpHealthCheck, Route, TargetPool  # noqa: F401

    specs = {s.name: s for s in known_specs() if s.service == "compute"}
    for kind in ("TargetPool", "HttpHealthCheck", "Firewall", "Route", "ForwardingRule"):
        assert specs[kind].capabilities().owner_record == "description", kind
    assert Firewall.spec.tags is None  # no labels: nothing else could say whose it is


def test_ensure_makes_one_of_each_named_and_described_as_cloud_provider_gcp() -> None:
    lab = make_lab()
    lbs = face(lab)
    web = service("web", UID, (80, 30080), (443, 30443))
    status = lbs.ensure_load_balancer(web, lab.nodes)
    assert inventory(lab.fake) == {"default/web": Counter(ONE)}
    rule = stored(lab.fake, "forwardingRules")[NAME]
    assert status.ingress[0].ip == rule["IPAddress"] == stored(lab.fake, "addresses")[NAME]["address"]
    assert rule["portRange"] == "80-443" and rule["target"].endswith(f"/targetPools/{NAME}")
    pool = stored(lab.fake, "targetPools")[NAME]
    assert sorted(p.rsplit("/", 4)[-4:][0] for p in pool["instances"]) == ["zones"] * 3
    assert {p.split("/compute/v1/")[1] for p in pool["instances"]} == {
        instance_link(n) for n in lab.nodes}
    assert pool["healthChecks"][0].endswith(f"/httpHealthChecks/{NAME}")
    assert set(stored(lab.fake, "firewalls")) == {f"k8s-fw-{NAME}", f"k8s-{NAME}-http-hc"}
    wall = stored(lab.fake, "firewalls")[f"k8s-fw-{NAME}"]
    assert wall["allowed"] == [{"IPProtocol": "tcp", "ports": ["80", "443"]}]
    assert wall["targetTags"] == ["demo-node"]
    description = json.loads(pool["description"])
    assert description["kubernetes.io/service-name"] == "default/web"
    assert description["kubernetes.io/cluster-id"] == "demo"
    check = stored(lab.fake, "httpHealthChecks")[NAME]
    assert (check["port"], check["requestPath"]) == (10256, "/healthz")
    assert lbs.get_load_balancer(web) == (status, True)


def test_ensure_twice_writes_nothing_the_second_time() -> None:
    lab = make_lab()
    lbs = face(lab)
    web = service("web", UID, (80, 30080), (443, 30443))
    lbs.ensure_load_balancer(web, lab.nodes)
    since = len(lab.fake.log)
    lbs.ensure_load_balancer(web, lab.nodes)
    assert lab.writes(since) == Counter()


def test_ports_changed_replace_the_forwarding_rule_on_its_address_and_patch_the_firewall() -> None:
    lab = make_lab()
    lbs = face(lab)
    first = lbs.ensure_load_balancer(service("web", UID, (80, 30080)), lab.nodes)
    pool = stored(lab.fake, "targetPools")[NAME]["id"]
    since = len(lab.fake.log)
    again = lbs.ensure_load_balancer(service("web", UID, (8080, 30080)), lab.nodes)
    assert lab.writes(since) == Counter({"compute.forwardingRules.delete": 1,
                                         "compute.forwardingRules.insert": 1,
                                         "compute.firewalls.patch": 1})
    assert again == first  # the same address
    assert stored(lab.fake, "forwardingRules")[NAME]["portRange"] == "8080-8080"
    assert stored(lab.fake, "targetPools")[NAME]["id"] == pool  # not recreated
    wall = stored(lab.fake, "firewalls")[f"k8s-fw-{NAME}"]
    assert wall["allowed"] == [{"IPProtocol": "tcp", "ports": ["8080"]}]
    assert inventory(lab.fake) == {"default/web": Counter(ONE)}
    since = len(lab.fake.log)
    lbs.ensure_load_balancer(service("web", UID, (8080, 30080)), lab.nodes)
    assert lab.writes(since) == Counter()


def test_nodes_added_and_removed_change_only_the_pools_instances() -> None:
    lab = make_lab()
    lbs = face(lab)
    web = service("web", UID, (80, 30080))
    lbs.ensure_load_balancer(web, lab.nodes[:2])
    since = len(lab.fake.log)
    lbs.update_load_balancer(web, lab.nodes[1:])  # node 0 leaves, node 2 joins
    assert lab.writes(since) == Counter({"compute.targetPools.addInstance": 1,
                                         "compute.targetPools.removeInstance": 1})
    added = [r.body for r in lab.fake.log[since:] if r.method_id.endswith("addInstance")]
    assert [i["instance"].split("/compute/v1/")[1] for i in added[0]["instances"]] == [
        instance_link(lab.nodes[2])]
    pool = stored(lab.fake, "targetPools")[NAME]["instances"]
    assert {p.split("/compute/v1/")[1] for p in pool} == {instance_link(n) for n in lab.nodes[1:]}
    since = len(lab.fake.log)
    lbs.update_load_balancer(web, lab.nodes[1:])
    assert lab.writes(since) == Counter()


def test_a_second_service_gets_its_own_and_deleting_one_leaves_the_other() -> None:
    lab = make_lab()
    lbs = face(lab)
    web, api = service("web", UID, (80, 30080)), service("api", OTHER, (80, 30081))
    lbs.ensure_load_balancer(web, lab.nodes)
    lbs.ensure_load_balancer(api, lab.nodes)
    assert inventory(lab.fake) == {"default/web": Counter(ONE), "default/api": Counter(ONE)}
    since = len(lab.fake.log)
    lbs.ensure_load_balancer(web, lab.nodes)  # the other Service's listing changes nothing
    assert lab.writes(since) == Counter()
    lbs.ensure_load_balancer_deleted(api)
    assert inventory(lab.fake) == {"default/web": Counter(ONE)}
    assert lbs.get_load_balancer(api) == (None, False)
    since = len(lab.fake.log)
    lbs.ensure_load_balancer_deleted(api)  # gone already: done, no write
    assert lab.writes(since) == Counter()


def test_another_clusters_service_of_the_same_uid_is_refused_and_left() -> None:
    """The same Service UID in two clusters of one project (a restored backup): the names
    collide project-wide, so the second cluster is refused them and nothing of the first
    changes, on ensure or on delete."""
    lab = make_lab("demo")
    other = make_lab("other", fake=lab.fake)
    web = service("web", UID, (80, 30080))
    face(lab).ensure_load_balancer(web, lab.nodes)
    before = {u: dict(r) for u, r in lab.fake.store.items()}
    refused = "is not owned by cluster other"  # each part refused (one error naming them all)
    with pytest.raises((NotOwnedError, TaskError), match=refused):
        face(other).ensure_load_balancer(web, other.nodes)
    with pytest.raises((NotOwnedError, TaskError), match=refused):
        face(other).ensure_load_balancer_deleted(web)
    assert lab.fake.store == before


def test_a_cluster_wide_kops_prune_leaves_a_services_parts() -> None:
    """kOps' own GCE tasks over the same project and cluster name, with prune: its firewalls are
    owned by their names, the Service's by their descriptions; kOps' prune takes none of the
    Service's (it lists by label, and they carry none)."""
    from tasklayer_tasks.runtime import CloudTarget

    lab = make_lab()
    face(lab).ensure_load_balancer(service("web", UID, (80, 30080)), lab.nodes)
    context = lab.context()
    context.cluster = "demo"
    wall = Firewall(name="demo-ssh", network=f"projects/proj/global/networks/{lab.cluster.network}",
                    source_ranges=["0.0.0.0/0"], allowed=[{"IPProtocol": "tcp", "ports": ["22"]}])
    quick(CloudTarget(context)).run([wall], prune=True)
    assert inventory(lab.fake)["default/web"] == Counter(ONE)
    assert "demo-ssh" in stored(lab.fake, "firewalls")
