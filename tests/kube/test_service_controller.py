"""The cloud-provider face as a controller (issue 25, item 5): ``testbed/service_controller.py``
as its own process on the real kube-apiserver (``ApiServer(recipe="full")``: core v1 Services
and Nodes), the face's AWS side on moto_server behind the fault proxy, which counts every write
at the wire; what is in the account is read from moto directly (tests/cloudprovider/lab.py).

A Service of type LoadBalancer and its Nodes become an NLB, a target group and a listener per
port, and the NLB's DNS name in ``status.loadBalancer.ingress``; a port changed changes the
listener, not the NLB; a node added registers a target only; the Service deleted (or no longer
of type LoadBalancer) removes all of it and the controller's finalizer. Each test has its own
namespace and cluster id; nothing sleeps for the cloud: waits poll what the controller wrote.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import kubernetes
import pytest
from kubernetes.client import ApiException, CoreV1Api

from testbed.apiserver import ApiServer, build, environ_kubeconfig
from testbed.campaign import Lab
from testbed.service_controller import FINALIZER
from tests.cloudprovider.lab import Cluster, boto, inventory, make_cluster
from tests.faults.fixtures import lab, module_lab  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
ONE_PORT = {"load-balancer": 1, "target-group": 1, "listener": 1, "security-group": 1, "sg-rule": 2}


@pytest.fixture(scope="module")
def full_apiserver() -> Iterator[ApiServer]:
    with ApiServer(recipe="full") as server:
        yield server


@pytest.fixture(scope="module")
def core(full_apiserver: ApiServer) -> CoreV1Api:
    return CoreV1Api(kubernetes.config.new_client_from_config(str(full_apiserver.kubeconfig)))


class World:
    """One test's namespace, cluster (in moto and as Node objects) and controller process."""

    def __init__(self, core: CoreV1Api, server: ApiServer, lab: Lab, log: Path) -> None:
        self.core, self.server, self.lab, self.log = core, server, lab, log
        self.namespace = f"svc-{uuid.uuid4().hex[:8]}"
        self.cluster_id = self.namespace
        core.create_namespace({"metadata": {"name": self.namespace}})
        self.cluster: Cluster = make_cluster(lab.moto.url, self.cluster_id, nodes=3)
        self.node_names: list[str] = []
        self.proc: subprocess.Popen[bytes] | None = None

    def add_node(self, index: int) -> None:
        node = self.cluster.nodes[index]
        name = f"{self.namespace}-{node.name}"
        self.core.create_node(
            {"metadata": {"name": name}, "spec": {"providerID": node.provider_id}}
        )
        self.node_names.append(name)

    def start(self) -> None:
        fields = asdict(self.cluster.aws)
        env = {
            **environ_kubeconfig(self.server),
            "TASKLAYER_AWS_ENDPOINT": self.lab.proxy.url,
            "TASKLAYER_CLUSTER": json.dumps(fields),
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": "us-east-1",
        }
        args = [sys.executable, "-m", "testbed.service_controller", "--namespace", self.namespace]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [*args, "--retry", "0.2"], stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT
            )

    def kill(self) -> None:
        """SIGKILL: the controller stops mid-whatever, with no goodbye."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def close(self) -> None:
        self.stop()
        for name in self.node_names:
            self.core.delete_node(name)

    def until(self, what: str, probe: Callable[[], Any], timeout: float = 120) -> Any:
        deadline = time.monotonic() + timeout
        while not (found := probe()):
            if self.proc is not None and self.proc.poll() is not None:
                pytest.fail(f"{what}: the controller exited; it said:\n{self.said()}")
            if time.monotonic() > deadline:
                pytest.fail(f"{what}: not within {timeout} s; the controller said:\n{self.said()}")
            time.sleep(0.25)  # the controller acts on a watch event; nothing to wait on but it
        return found

    def said(self) -> str:
        return self.log.read_text(errors="replace")[-6000:] if self.log.exists() else ""

    # -- the Service -------------------------------------------------------------------------

    def create_service(self, name: str, port: int) -> None:
        self.core.create_namespaced_service(
            self.namespace,
            {
                "metadata": {"name": name},
                "spec": {
                    "type": "LoadBalancer",
                    "selector": {"app": name},
                    "ports": [{"name": "http", "port": port, "targetPort": 8080}],
                },
            },
        )

    def service(self, name: str) -> Any:
        return self.core.read_namespaced_service(name, self.namespace)

    def ingress(self, name: str) -> Callable[[], list[Any]]:
        def probe() -> list[Any]:
            balancer = self.service(name).status.load_balancer
            return list(balancer.ingress or []) if balancer else []

        return probe

    def events(self, name: str, reason: str) -> list[Any]:
        selector = f"involvedObject.name={name},reason={reason}"
        return list(self.core.list_namespaced_event(self.namespace, field_selector=selector).items)

    def event(self, name: str, reason: str, version: str = "") -> Callable[[], list[Any]]:
        """The controller's Events of ``reason``; with ``version``, only those about the
        Service as it was at that resource version (the one the controller synced)."""

        def probe() -> list[Any]:
            found = self.events(name, reason)
            return [
                e for e in found if not version or e.involved_object.resource_version == version
            ]

        return probe

    def gone(self, name: str) -> Callable[[], bool]:
        def probe() -> bool:
            try:
                self.service(name)
            except ApiException as error:
                return error.status == 404
            return False

        return probe


@pytest.fixture
def world(core: CoreV1Api, full_apiserver: ApiServer, lab: Lab, tmp_path: Path) -> Iterator[World]:
    made = World(core, full_apiserver, lab, tmp_path / "controller.log")
    try:
        yield made
    finally:
        made.close()


def balancers(world: World) -> list[dict[str, Any]]:
    return list(boto(world.lab.moto.url, "elbv2").describe_load_balancers()["LoadBalancers"])


def listener_ports(world: World, arn: str) -> list[int]:
    elb = boto(world.lab.moto.url, "elbv2")
    return sorted(li["Port"] for li in elb.describe_listeners(LoadBalancerArn=arn)["Listeners"])


def registered(world: World) -> set[str]:
    elb = boto(world.lab.moto.url, "elbv2")
    return {
        d["Target"]["Id"]
        for g in elb.describe_target_groups()["TargetGroups"]
        for d in elb.describe_target_health(TargetGroupArn=g["TargetGroupArn"])[
            "TargetHealthDescriptions"
        ]
    }


def test_the_full_server_is_built_once_keyed_on_its_own_recipe(full_apiserver: ApiServer) -> None:
    binary = build("full")  # the fixture's build, or .ci/run's: a cache hit
    assert binary == full_apiserver.binary and binary.name == "tasklayer-kube-apiserver"
    assert binary.parent.parent.name == "kube-apiserver" and len(binary.parent.name) == 64
    assert binary.parent.name != build().parent.name  # the CRD-only server's recipe is another


def test_the_full_server_serves_the_core_api_and_crds(core: CoreV1Api) -> None:
    groups = kubernetes.client.ApisApi(core.api_client).get_api_versions()
    assert "apiextensions.k8s.io" in {g.name for g in groups.groups}
    resources = {r.name for r in core.get_api_resources().resources}
    assert {"services", "services/status", "nodes", "namespaces", "events"} <= resources


def test_a_load_balancer_service_lives_and_dies_with_its_nlb(world: World) -> None:
    world.add_node(0)
    world.add_node(1)
    world.start()
    world.create_service("web", 80)
    ingress = world.until("the Service has an ingress", world.ingress("web"))

    # made: one NLB, its target group and listener, tagged for the Service; its DNS name written
    [nlb] = balancers(world)
    assert nlb["Type"] == "network" and ingress[0].hostname == nlb["DNSName"]
    assert inventory(world.lab.moto.url) == {f"{world.namespace}/web": ONE_PORT}
    writes = world.lab.proxy.writes()
    assert writes["CreateLoadBalancer"] == 1
    assert writes["CreateTargetGroup"] == 1 and writes["CreateListener"] == 1
    made = world.service("web")
    assert FINALIZER in made.metadata.finalizers
    assert registered(world) == {n.instance_id for n in world.cluster.nodes[:2]}
    assert listener_ports(world, nlb["LoadBalancerArn"]) == [80]

    # a port changed: the listener changes, the NLB stays
    world.lab.proxy.clear()
    changed = world.core.patch_namespaced_service(
        "web", world.namespace, [{"op": "replace", "path": "/spec/ports/0/port", "value": 8080}]
    )
    world.until(
        "the port change is ensured",
        world.event("web", "EnsuredLoadBalancer", changed.metadata.resource_version),
    )
    writes = world.lab.proxy.writes()
    assert not {"CreateLoadBalancer", "DeleteLoadBalancer"} & set(writes), writes
    assert writes["CreateListener"] == 1 and writes["DeleteListener"] == 1, writes
    assert [b["LoadBalancerArn"] for b in balancers(world)] == [nlb["LoadBalancerArn"]]
    assert listener_ports(world, nlb["LoadBalancerArn"]) == [8080]
    assert world.ingress("web")()[0].hostname == nlb["DNSName"]
    assert inventory(world.lab.moto.url) == {f"{world.namespace}/web": ONE_PORT}

    # a node added: a target registered, nothing else written
    world.lab.proxy.clear()
    world.add_node(2)
    world.until("the new node is handled", world.event("web", "UpdatedLoadBalancer"))
    assert set(world.lab.proxy.writes()) == {"RegisterTargets"}, world.lab.proxy.writes()
    assert registered(world) == {n.instance_id for n in world.cluster.nodes}

    # deleted: everything of it gone from the account, then the Service (the finalizer released)
    world.lab.proxy.clear()
    world.core.delete_namespaced_service("web", world.namespace)
    world.until("the Service is gone", world.gone("web"))
    assert inventory(world.lab.moto.url) == {}
    assert balancers(world) == []
    writes = world.lab.proxy.writes()
    assert writes["DeleteLoadBalancer"] == 1 and writes["DeleteTargetGroup"] == 1, writes
    assert writes["DeleteSecurityGroup"] == 1, writes


def test_a_type_changed_from_load_balancer_deletes_it_and_releases_the_service(
    world: World,
) -> None:
    world.add_node(0)
    world.start()
    world.create_service("api", 443)
    world.until("the Service has an ingress", world.ingress("api"))
    world.core.patch_namespaced_service(
        "api",
        world.namespace,
        [
            {"op": "replace", "path": "/spec/type", "value": "ClusterIP"}
        ],  # the server drops the node port
    )
    world.until("the load balancer is deleted", world.event("api", "DeletedLoadBalancer"))
    world.until(
        "the finalizer is released",
        lambda: FINALIZER not in (world.service("api").metadata.finalizers or []),
    )
    assert world.ingress("api")() == []
    assert inventory(world.lab.moto.url) == {}
    assert world.service("api").spec.type == "ClusterIP"


def test_a_service_deleted_while_the_controller_is_down_is_cleaned_up_when_it_is_back(
    world: World,
) -> None:
    world.add_node(0)
    world.start()
    world.create_service("web", 80)
    world.until("the Service has an ingress", world.ingress("web"))
    world.kill()
    world.core.delete_namespaced_service("web", world.namespace)
    held = world.service("web")  # the finalizer holds it for the controller
    assert held.metadata.deletion_timestamp is not None
    assert inventory(world.lab.moto.url) == {f"{world.namespace}/web": ONE_PORT}
    world.start()
    world.until("the Service is gone", world.gone("web"))
    assert inventory(world.lab.moto.url) == {}
