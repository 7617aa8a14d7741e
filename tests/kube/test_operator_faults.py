"""The generated aws/ec2 operator under faults, on the real API server and ``moto_server``
(issue 24 item 3): killed (``kill -9``) right after each create reached the cloud, two replicas
behind kopf peering, a custom resource deleted while its create is in flight, the API server
restarted mid-run. Each test runs its own operator in a namespace of its own, and ends with
the CRs deleted and nothing left in moto.

A create "reaches the cloud" when moto has answered it: :meth:`FaultProxy.on_committed` runs
the fault there, before the answer goes back to the operator.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes
import pytest
import urllib3

from testbed.apiserver import ApiServer
from testbed.kube_proxy import ConflictProxy
from testbed.moto import MotoServer
from testbed.proxy import FaultProxy, WireRequest
from tests.kube.operator_harness import (
    Network,
    Operator,
    cloud_leftovers,
    delete,
    ec2_client,
    gone,
    ready,
    stop_operators,  # noqa: F401 (an autouse fixture: imported, it runs)
    until,
)

# the custom resource each create is for (Network.SET's order)
CREATED_FOR = dict(zip(Network.CREATES, ((p, n) for p, n, _, _ in Network.SET), strict=True))


@pytest.fixture
def moto() -> Iterator[MotoServer]:
    with MotoServer() as server:
        yield server


@pytest.fixture
def proxy(moto: MotoServer) -> Iterator[FaultProxy]:
    with FaultProxy(upstream=moto.url) as recorder:
        yield recorder


def _sent(proxy: FaultProxy) -> Counter[str]:
    """Mutating calls that reached moto (not those the client-token ledger answered)."""
    return Counter(r.action for r in list(proxy.requests) if r.mutating and not r.replayed)


def _one_of_each(ec2: Any) -> None:
    left = cloud_leftovers(ec2)
    assert {k: len(v) for k, v in left.items()} == {
        "vpcs": 1,
        "subnets": 1,
        "security_groups": 1,
        "route_tables": 1,
        "internet_gateways": 1,
    }, left


def _converge(net: Network, operators: list[Operator], timeout: float = 180) -> dict[str, Any]:
    """Every CR Ready, restarting an operator whenever it was killed."""
    deadline = time.monotonic() + timeout
    probes = [(name, ready(net.kinds[p], name, has_id)) for p, name, _, has_id in Network.SET]
    while True:
        for operator in operators:
            if operator.proc is not None and operator.failed():
                operator.kill()
                operator.start()
        found = {name: _asked(probe) for name, probe in probes}
        if all(found.values()):
            return found
        if time.monotonic() > deadline:
            said = "\n".join(o.said()[-4000:] for o in operators)
            pytest.fail(f"not all Ready within {timeout} s: {found}\n{said}")
        time.sleep(0.25)  # waiting on the operator's status writes


def _asked(probe: Any) -> Any:
    """The probe's answer; None while the API server is away (restarting) or not serving the
    CRDs yet."""
    try:
        return probe()
    except urllib3.exceptions.HTTPError:
        return None
    except kubernetes.client.ApiException as error:
        if error.status in (0, 404, 429, 500, 503):
            return None
        raise


def _clean_up(net: Network, operator: Operator, ec2: Any) -> None:
    net.delete_in_order(operator.log)
    assert cloud_leftovers(ec2) == {}


def test_killed_right_after_each_create_adopts_what_that_create_made(
    apiserver: ApiServer,
    installed_crds: dict[str, Any],
    kube_client: kubernetes.client.ApiClient,
    moto: MotoServer,
    proxy: FaultProxy,
    tmp_path: Path,
) -> None:
    namespace = "op-kill"
    operator = Operator(apiserver, proxy.url, namespace, tmp_path / "operator.log")
    net = Network(kube_client, namespace)
    stored: dict[str, str | None] = {}  # per create: the attempt the server held when it was sent
    killed: set[int] = set()  # two creates in flight at once are both the one process's

    def kill_after(request: WireRequest) -> None:
        plural, name = CREATED_FOR[request.action]
        status = net.kinds[plural].get(name).get("status") or {}
        stored[request.action] = status.get("createAttempt")
        killed.add(operator.pid)
        operator.kill()

    for action in Network.CREATES:
        proxy.on_committed(action, kill_after)
    operator.start()
    net.apply()
    status = _converge(net, [operator])

    assert sorted(stored) == sorted(Network.CREATES), stored
    assert 2 <= operator.starts == 1 + len(killed), (operator.starts, killed)
    # the token / marker was on the server before each create was sent: what the restarted
    # operator found the resource by
    missing = [action for action, attempt in stored.items() if not attempt]
    assert not missing, f"no createAttempt stored before {missing}"
    # one create each reached the cloud, one resource each exists, the status names it
    assert _sent(proxy) == Counter(Network.CREATES), _sent(proxy)
    ec2 = ec2_client(moto.url)
    _one_of_each(ec2)
    assert [v["VpcId"] for v in ec2.describe_vpcs()["Vpcs"] if not v["IsDefault"]] == [
        status["net"]["id"]
    ]
    for name, got in status.items():
        assert "createAttempt" not in got, f"{name}: the attempt outlived its resource"
    _clean_up(net, operator, ec2)
    operator.stop()


KOPF_PEERING = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "kopfpeerings.kopf.dev"},
    "spec": {
        "group": "kopf.dev",
        "scope": "Namespaced",
        "names": {"kind": "KopfPeering", "plural": "kopfpeerings", "singular": "kopfpeering"},
        "versions": [
            {
                "name": "v1",
                "served": True,
                "storage": True,
                "schema": {
                    "openAPIV3Schema": {
                        "type": "object",
                        "properties": {
                            "status": {
                                "type": "object",
                                "x-kubernetes-preserve-unknown-fields": True,
                            }
                        },
                    }
                },
            }
        ],
    },
}


def _peering(client: kubernetes.client.ApiClient, namespace: str, name: str) -> None:
    """kopf's own peering CRD (as its docs give it) and one peering object in ``namespace``."""
    extensions = kubernetes.client.ApiextensionsV1Api(client)
    try:
        extensions.create_custom_resource_definition(KOPF_PEERING)
    except kubernetes.client.ApiException as error:
        assert error.status == 409, error.body  # another test made it
    objects = kubernetes.client.CustomObjectsApi(client)
    body = {"apiVersion": "kopf.dev/v1", "kind": "KopfPeering", "metadata": {"name": name}}
    deadline = time.monotonic() + 60
    while True:
        try:
            objects.create_namespaced_custom_object(
                "kopf.dev", "v1", namespace, "kopfpeerings", body
            )
            return
        except kubernetes.client.ApiException as error:
            if error.status == 409:
                return
            if error.status != 404 or time.monotonic() > deadline:
                raise
        time.sleep(0.25)  # the new CRD is not served yet


def _peer_priorities(client: kubernetes.client.ApiClient, namespace: str, name: str) -> list[int]:
    """The priorities of the live replicas' keep-alive records in the peering object."""
    objects = kubernetes.client.CustomObjectsApi(client)
    body = objects.get_namespaced_custom_object("kopf.dev", "v1", namespace, "kopfpeerings", name)
    return [int(peer.get("priority", 0)) for peer in (body.get("status") or {}).values()]


def _paused(operator: Operator) -> bool:
    """The replica's last word on peering is not a resume (no word at all: still paused)."""
    said = operator.said()
    return said.rfind("Resuming operations") <= said.rfind("Pausing operations in favour of")


def _handled_by(operator: Operator) -> int:
    """How many reconciles or deletes the replica ran to success."""
    return sum(
        1
        for line in operator.said().splitlines()
        if ("Handler 'reconcile-" in line or "Handler 'delete-" in line) and "succeeded" in line
    )


def test_two_replicas_behind_kopf_peering_only_one_acts_and_the_other_takes_over(
    apiserver: ApiServer,
    installed_crds: dict[str, Any],
    kube_client: kubernetes.client.ApiClient,
    moto: MotoServer,
    proxy: FaultProxy,
    tmp_path: Path,
) -> None:
    namespace = "op-peering"
    _peering(kube_client, namespace, "ec2")
    high, low = (
        Operator(apiserver, proxy.url, namespace, tmp_path / f"{which}.log", "ec2", priority)
        for which, priority in (("high", 200), ("low", 100))
    )
    for operator in (high, low):
        operator.env["TASKLAYER_PEERING_LIFETIME"] = "5"
    try:
        _two_replicas(kube_client, moto, proxy, namespace, high, low)
    finally:
        high.stop()
        low.stop()


def _two_replicas(
    kube_client: kubernetes.client.ApiClient,
    moto: MotoServer,
    proxy: FaultProxy,
    namespace: str,
    high: Operator,
    low: Operator,
) -> None:
    # one after the other: the second finds the first's record in the peering object
    high.start()
    # it starts paused too, and resumes on its first peering event: no one above it
    until("the first replica resumes", lambda: "Resuming operations" in high.said(), high.log)
    low.start()
    # kopf says nothing when it stays paused: with --peering=NAME the peering is mandatory and a
    # replica starts paused (its toggle preactivated), and it logs "Pausing" only when it turns
    # from resumed to paused. So: the server holds the low replica's record, and the replica
    # has not resumed since (or paused again after a resume, seeing the other late under load).
    until(
        "the low-priority replica joins the peering, paused",
        lambda: low.priority in _peer_priorities(kube_client, namespace, "ec2") and _paused(low),
        low.log,
    )
    net = Network(kube_client, namespace)
    net.apply()
    _converge(net, [])
    assert _sent(proxy) == Counter(Network.CREATES), _sent(proxy)
    assert _handled_by(high) >= len(Network.SET), high.said()[-3000:]
    assert _handled_by(low) == 0, low.said()[-3000:]

    # the acting replica dies without a word: once its peering record expires, the other acts
    high.kill()
    proxy.clear()
    subnets = net.kinds["subnets"]
    spec = {"name": "net-b", "vpcRef": {"name": "net"}, "cidrBlock": "10.0.2.0/24"}
    subnets.create("net-b", spec)
    until("the other replica creates net-b", ready(subnets, "net-b"), low.log, timeout=120)
    assert _sent(proxy) == Counter({"CreateSubnet": 1}), _sent(proxy)
    assert _handled_by(low) >= 1
    assert not _paused(low), low.said()[-3000:]
    delete(subnets, "net-b")
    until("net-b is deleted", gone(subnets, "net-b"), low.log)
    _clean_up(net, low, ec2_client(moto.url))


def test_a_cr_deleted_while_its_create_is_in_flight_leaves_nothing(
    apiserver: ApiServer,
    installed_crds: dict[str, Any],
    kube_client: kubernetes.client.ApiClient,
    moto: MotoServer,
    proxy: FaultProxy,
    tmp_path: Path,
) -> None:
    namespace = "op-delete-in-flight"
    operator = Operator(apiserver, proxy.url, namespace, tmp_path / "operator.log").start()
    net = Network(kube_client, namespace)
    deleted: list[str] = []

    def delete_now(request: WireRequest) -> None:
        plural, name = CREATED_FOR[request.action]
        if request.action == "CreateVpc":
            plural, name = "vpcs", "net2"
        delete(net.kinds[plural], name)
        deleted.append(name)

    # what lives in the VPC (and the gateway's attachment): deleted the moment moto made it
    leaves = ("AttachInternetGateway", "CreateSubnet", "CreateSecurityGroup", "CreateRouteTable")
    for action in leaves:
        proxy.on_committed(action, delete_now)
    net.apply()
    for plural, name, _, _ in Network.SET[2:]:
        until(f"{name} is deleted", gone(net.kinds[plural], name), operator.log, timeout=180)
    assert sorted(deleted) == sorted(name for _, name, _, _ in Network.SET[2:])
    ec2 = ec2_client(moto.url)
    assert {k: len(v) for k, v in cloud_leftovers(ec2).items()} == {
        "vpcs": 1,
        "internet_gateways": 1,
    }, cloud_leftovers(ec2)
    assert ec2.describe_internet_gateways()["InternetGateways"][0]["Attachments"] == []
    # and a VPC deleted while its own create is in flight
    vpcs = net.kinds["vpcs"]
    proxy.on_committed("CreateVpc", delete_now)
    vpcs.create("net2", {"name": "net2", "cidrBlock": "10.1.0.0/16"})
    until("net2 is deleted", gone(vpcs, "net2"), operator.log, timeout=120)
    for plural, name in (("internetgateways", "net-igw"), ("vpcs", "net")):
        delete(net.kinds[plural], name)
        until(f"{name} is deleted", gone(net.kinds[plural], name), operator.log)
    sent = _sent(proxy)
    assert {k: v for k, v in sent.items() if k.startswith(("Create", "Attach"))} == Counter(
        [*Network.CREATES, "CreateVpc"]
    ), sent
    assert cloud_leftovers(ec2) == {}
    operator.stop()


def test_the_api_server_restarted_mid_run_converges(
    apiserver: ApiServer,
    installed_crds: dict[str, Any],
    kube_client: kubernetes.client.ApiClient,
    moto: MotoServer,
    proxy: FaultProxy,
    tmp_path: Path,
) -> None:
    namespace = "op-apiserver-restart"
    operator = Operator(apiserver, proxy.url, namespace, tmp_path / "operator.log").start()
    restarted: list[str] = []

    def restart(request: WireRequest) -> None:
        apiserver.restart()  # the create's answer waits for it: its status goes to the new one
        restarted.append(request.action)

    proxy.on_committed("CreateSubnet", restart)
    net = Network(kube_client, namespace)
    net.apply()
    # kopf fails for good when a watch it holds answers 404, which the restarted server does
    # for a CRD it has not served again yet, and exits or hangs in its shutdown: killed and
    # started again then, as a Deployment's liveness probe and restart would
    _converge(net, [operator])
    assert restarted == ["CreateSubnet"]
    print(f"operator starts across the API server's restart: {operator.starts}")
    assert _sent(proxy) == Counter(Network.CREATES), _sent(proxy)
    ec2 = ec2_client(moto.url)
    _one_of_each(ec2)
    _clean_up(net, operator, ec2)
    operator.stop()


def test_conflicts_on_status_writes_are_retried_and_converge(
    apiserver: ApiServer,
    installed_crds: dict[str, Any],
    kube_client: kubernetes.client.ApiClient,
    moto: MotoServer,
    proxy: FaultProxy,
    tmp_path: Path,
) -> None:
    namespace = "op-conflicts"
    with ConflictProxy(apiserver, tmp_path) as conflicts:
        operator = Operator(apiserver, proxy.url, namespace, tmp_path / "operator.log")
        operator.env["KUBECONFIG"] = str(conflicts.kubeconfig)
        # the first status writes of the set, the create tokens' and the new ids' among them
        conflicts.plan(namespace, 10)
        operator.start()
        net = Network(kube_client, namespace)
        net.apply()
        _converge(net, [])
        assert len(conflicts.conflicts) == 10, conflicts.conflicts
        assert "409" in operator.said() or "Conflict" in operator.said()
        assert _sent(proxy) == Counter(Network.CREATES), _sent(proxy)
        ec2 = ec2_client(moto.url)
        _one_of_each(ec2)
        _clean_up(net, operator, ec2)
        operator.stop()
