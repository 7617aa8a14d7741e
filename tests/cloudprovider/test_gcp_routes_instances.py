"""Routes and InstancesV2 of the cloud-provider face on GCP, against the project's GCP fake; the
project is read from the fake's store directly."""

from __future__ import annotations

from collections import Counter

import pytest

from tasklayer_tasks.runtime import NotOwnedError
from tasklayer_tasks.runtime.cloudprovider.gcp import GcpInstances, GcpRoutes
from tasklayer_tasks.runtime.cloudprovider.service import Node, Route
from tests.cloudprovider.gcp_lab import PROJECT, make_lab, quick, stored


def test_routes_are_created_listed_and_deleted_as_cloud_provider_gcp_names_them() -> None:
    lab = make_lab()
    routes = GcpRoutes(lab.context(), lab.cluster, executor=quick)
    wanted = [Route(f"demo-uid-{i}", n.name, n.pod_cidr) for i, n in enumerate(lab.nodes[:2])]
    for i, route in enumerate(wanted):
        routes.create_route(route, f"uid-{i}")
    made = stored(lab.fake, "routes")
    assert set(made) == {"demo-uid-0", "demo-uid-1"}
    one = made["demo-uid-1"]
    assert one["description"] == "k8s-node-route" and one["priority"] == 1000
    assert one["nextHopInstance"].endswith(f"/zones/us-central1-b/instances/{lab.nodes[1].name}")
    assert one["network"].endswith(f"/projects/{PROJECT}/global/networks/demo-net")
    # another cluster's route, a user's route in the same network, a route elsewhere: not listed
    compute = lab.fake.build()
    net = f"projects/{PROJECT}/global/networks/demo-net"
    for name, description in (("other-uid-0", "k8s-node-route"), ("demo-by-hand", "mine")):
        compute.routes().insert(project=PROJECT, body={
            "name": name, "destRange": "100.100.0.0/24", "network": net, "description": description,
            "priority": 1000,
            "nextHopInstance": f"zones/us-central1-a/instances/{lab.nodes[0].name}"}).execute()
    assert sorted(routes.list_routes(), key=lambda r: r.name) == wanted
    since = len(lab.fake.log)
    routes.create_route(wanted[0], "uid-0")  # there already, as declared
    assert lab.writes(since) == Counter()
    routes.delete_route(wanted[0])
    assert lab.writes(since) == Counter({"compute.routes.delete": 1})
    assert routes.list_routes() == wanted[1:]
    since = len(lab.fake.log)
    routes.delete_route(wanted[0])  # gone already
    assert lab.writes(since) == Counter()
    with pytest.raises(NotOwnedError):  # described otherwise: not the cluster's node route
        routes.delete_route(Route("demo-by-hand", lab.nodes[0].name, "100.100.0.0/24"))
    assert "demo-by-hand" in stored(lab.fake, "routes")


def test_instances_exist_shut_down_and_describe_themselves() -> None:
    lab = make_lab()
    instances = GcpInstances(lab.context(), lab.cluster)
    running, stopped, _ = lab.nodes
    url = next(u for u in lab.fake.store if u.endswith(f"/instances/{stopped.name}"))
    lab.fake.store[url]["status"] = "TERMINATED"  # stopped, as Google says it
    since = len(lab.fake.log)
    gone = Node("gone", f"gce://{PROJECT}/us-central1-a/gone")
    assert instances.instance_exists(running) and instances.instance_exists(stopped)
    assert not instances.instance_exists(gone)
    assert not instances.instance_shutdown(running) and instances.instance_shutdown(stopped)
    meta = instances.instance_metadata(running)
    assert meta is not None
    assert meta.provider_id == running.provider_id
    assert (meta.instance_type, meta.zone, meta.region) == ("e2-medium", "us-central1-a",
                                                            "us-central1")
    assert ("InternalIP", "10.0.0.10") in [(a.type, a.address) for a in meta.node_addresses]
    assert instances.instance_metadata(gone) is None
    assert lab.writes(since) == Counter()  # InstancesV2 only reads
