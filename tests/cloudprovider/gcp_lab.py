"""A GCE cluster for the cloud-provider face to serve, made in the project's GCP fake straight
through googleapiclient (not through the code under test): the cluster's network and a few
instances; and an inventory of what the face makes, read from the fake's store directly."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.cloudprovider.gcp import GcpCluster, GcpLoadBalancers
from tasklayer_tasks.runtime.cloudprovider.service import Node, Service, ServicePort
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.runtime.kops.executor import Executor
from tasklayer_tasks.runtime.kops.targets import CloudTarget
from tasklayer_tasks.testing import FakeGcp
from testbed.gce import DOCUMENT

PROJECT, REGION, ZONES = "proj", "us-central1", ("us-central1-a", "us-central1-b")
KINDS = {"addresses": "address", "forwardingRules": "forwarding-rule", "targetPools": "target-pool",
         "httpHealthChecks": "health-check", "firewalls": "firewall", "routes": "route"}


@dataclass
class Lab:
    fake: FakeGcp
    http: Any  # what the face's context calls through (the fake, or a fault wrapper of it)
    cluster: GcpCluster
    nodes: list[Node]

    def context(self) -> Context:
        return Context(project=PROJECT, region=REGION, zone=ZONES[0], cluster="",
                       http=self.http, retry=RetryPolicy(sleep=lambda _: None))

    def writes(self, since: int = 0) -> Counter[str]:
        return Counter(r.method_id for r in self.fake.log[since:]
                       if r.http_method != "GET" and not r.method_id.endswith(".wait"))


def quick(target: CloudTarget) -> Executor:
    return Executor(target, sleep=lambda _: None, retry_interval=0.01)


def make_lab(cluster_id: str = "demo", nodes: int = 3, wrap: Any = None,
             fake: FakeGcp | None = None) -> Lab:
    fake = fake or FakeGcp(json.loads(DOCUMENT.read_text()), operation_polls=1)
    compute = fake.build()
    network = f"{cluster_id}-net"
    compute.networks().insert(project=PROJECT, body={"name": network,
                              "autoCreateSubnetworks": False}).execute()
    found = []
    for i in range(nodes):
        zone, name = ZONES[i % 2], f"{cluster_id}-node-{i}"
        compute.instances().insert(project=PROJECT, zone=zone, body={
            "name": name, "machineType": f"zones/{zone}/machineTypes/e2-medium",
            "tags": {"items": [f"{cluster_id}-node"]},
            "networkInterfaces": [{"network": f"global/networks/{network}",
                                   "networkIP": f"10.0.0.{10 + i}"}]}).execute()
        found.append(Node(name, f"gce://{PROJECT}/{zone}/{name}", f"100.96.{i}.0/24"))
    cluster = GcpCluster(cluster_id, network, (f"{cluster_id}-node",), ZONES)
    return Lab(fake, wrap(fake) if wrap else fake, cluster, found)


def face(lab: Lab, executor: Any = quick) -> GcpLoadBalancers:
    return GcpLoadBalancers(lab.context(), lab.cluster, executor=executor)


def service(name: str, uid: str, *ports: tuple[int, int], namespace: str = "default") -> Service:
    return Service(namespace, name, uid, tuple(ServicePort(p, n) for p, n in ports))


def inventory(fake: FakeGcp) -> dict[str, Counter[str]]:
    """Per Service named in the description (``ns/name``; ``-`` for none), the kinds of what
    names it, of the kinds the face makes."""
    found: dict[str, Counter[str]] = {}
    for url, resource in fake.store.items():
        kind = KINDS.get(url.rsplit("/", 2)[-2])
        if kind is None:
            continue
        try:
            owner = json.loads(resource.get("description") or "{}").get(
                "kubernetes.io/service-name", "-")
        except ValueError:
            owner = "-"
        found.setdefault(owner, Counter())[kind] += 1
    return found


def stored(fake: FakeGcp, collection: str) -> dict[str, dict[str, Any]]:
    """The resources of one collection, by name."""
    return {u.rsplit("/", 1)[-1]: r for u, r in fake.store.items()
            if u.rsplit("/", 2)[-2] == collection}


class Crash(BaseException):
    """The controller's process ends: nothing after it runs (not an error the face handles)."""


class Reply(dict[str, Any]):
    """An httplib2-like response."""

    def __init__(self, status: int) -> None:
        super().__init__({"status": str(status), "content-type": "application/json"})
        self.status, self.reason = status, "Error"


def error(status: int, reason: str) -> tuple[Reply, bytes]:
    body = {"error": {"code": status, "message": reason, "errors": [{"reason": reason}]}}
    return Reply(status), json.dumps(body).encode()


def mutating(uri: str, method: str) -> bool:
    return method != "GET" and not uri.split("?")[0].endswith("/wait")


def call_of(uri: str, method: str) -> str:
    """A write as the campaign names it: its HTTP method and path."""
    return f"{method} {uri.split('?')[0].split('googleapis.com', 1)[-1]}"


class Wire:
    """The fake behind a wire that faults the ``occurrence``-th write ``call`` (method and
    path): throttled (429 ``rateLimitExceeded``) or reset before the server sees it, or carried
    out and then answered 503 or its reply lost; or, with ``crash_after``, ends the process
    before the write after that many."""

    def __init__(self, fake: FakeGcp, call: str = "", occurrence: int = 0, kind: str = "",
                 crash_after: int | None = None) -> None:
        self.fake, self.call, self.occurrence, self.kind = fake, call, occurrence, kind
        self.crash_after, self.seen, self.writes, self.fired = crash_after, 0, 0, False

    def request(self, uri: str, method: str = "GET", body: Any = None, headers: Any = None,
                **kw: Any) -> Any:
        if mutating(uri, method):
            if self.crash_after is not None and self.writes >= self.crash_after:
                raise Crash(f"after {self.writes} writes")
            self.writes += 1
            if call_of(uri, method) == self.call and not self.fired:
                self.seen += 1
                if self.seen == self.occurrence:
                    self.fired = True
                    return self.fault(uri, method, body, headers, **kw)
        return self.fake.request(uri, method, body, headers, **kw)

    def fault(self, uri: str, method: str, body: Any, headers: Any, **kw: Any) -> Any:
        if self.kind == "throttle":
            return error(429, "rateLimitExceeded")
        if self.kind == "reset":
            raise ConnectionResetError("connection reset by peer")
        self.fake.request(uri, method, body, headers, **kw)  # carried out
        if self.kind == "5xx-after":
            return error(503, "backendError")
        raise TimeoutError("the reply was lost after the server committed")
