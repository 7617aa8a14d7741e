"""A steady-state resync of the generated aws/ec2 operator on the real API server reads the
cloud about once per kind, not once per custom resource (issue 24 item 4), counted at the wire
(:class:`testbed.proxy.FaultProxy` in front of ``moto_server``).

50 CRs (10 networks of a Vpc, a Subnet, a SecurityGroup and a RouteTable naming it by CR name,
and an InternetGateway) converge; the operator is stopped and started again, so kopf resumes
every one of them once (the generated operator has no timer: a restart is its resync). The
operator's context keeps one listing of each kind by the owner's tag across those reconciles
(``Context.share_reads``), so the resync lists each of the five kinds once and names no id:
0.1 reads per CR, no write. (Each reconcile read its own object by id before: 1.0 per CR.)

Then two spec changes of one Vpc, one after the other, through the same operator: each costs
exactly its own write. The second one's reconcile must not be answered from the listing the
resync kept, which the first one's write made stale (it would see the Vpc without the tag the
first one wrote, and write it again); it reads the Vpc by id.

The listings are kept for 600 s here (``TASKLAYER_SHARED_READS``), so that how fast this
machine resyncs cannot make a second listing of a kind: the count does not depend on time.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes
import pytest

from testbed.apiserver import ApiServer
from testbed.moto import MotoServer
from testbed.proxy import FaultProxy
from tests.kube.operator_harness import (
    Operator,
    cloud_leftovers,
    delete,
    ec2_client,
    gone,
    handled,
    kind,
    ready,
    stop_operators,  # noqa: F401 (an autouse fixture: imported, it runs)
    until,
)
from tests.kube.test_crds_on_apiserver import VERSION

NAMESPACE = "operator-resync"
UNITS = 10
KINDS = ("vpcs", "subnets", "securitygroups", "routetables", "internetgateways")
OWNER_FILTER = "tag:sigs.k8s.io/cluster-api-provider-aws/cluster/" + NAMESPACE
# kopf's line for a handler run: "[ns/name] Handler 'reconcile-vpcs' succeeded."
SUCCEEDED = re.compile(r"\[(?P<ns>[^/\]]+)/(?P<name>[^\]]+)\] Handler '(?P<id>reconcile-[a-z]+)' succeeded")
ID_PARAM = re.compile(r"Ids?\.\d+$")  # VpcId.1, GroupId.1: a Describe* naming ids


@pytest.fixture
def moto() -> Iterator[MotoServer]:
    with MotoServer() as server:
        yield server


@pytest.fixture
def proxy(moto: MotoServer) -> Iterator[FaultProxy]:
    with FaultProxy(upstream=moto.url) as recorder:
        yield recorder


def crs() -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for unit in range(UNITS):
        vpc = f"vpc-{unit}"
        out += [
            ("vpcs", vpc, {"name": vpc, "cidrBlock": f"10.{unit}.0.0/16"}),
            ("subnets", f"subnet-{unit}", {"name": f"subnet-{unit}", "vpcRef": {"name": vpc}, "cidrBlock": f"10.{unit}.1.0/24"}),
            ("securitygroups", f"sg-{unit}", {"name": f"sg-{unit}", "vpcRef": {"name": vpc}, "groupName": f"sg-{unit}", "description": "resync"}),
            ("routetables", f"rt-{unit}", {"name": f"rt-{unit}", "vpcRef": {"name": vpc}}),
            ("internetgateways", f"igw-{unit}", {"name": f"igw-{unit}"}),
        ]
    return out


def resumed(log: Path, since: int) -> set[tuple[str, str]]:
    """(handler id, name) of every reconcile of the namespace that succeeded after byte ``since``."""
    with open(log, "rb") as f:
        f.seek(since)
        text = f.read().decode(errors="replace")
    return {(m["id"], m["name"]) for m in SUCCEEDED.finditer(text) if m["ns"] == NAMESPACE}


def listed(proxy: FaultProxy) -> list[tuple[str, int, list[str]]]:
    """Each read: its action, how many ids it names, the filters it asks by."""
    out = []
    for r in list(proxy.requests):
        if r.action and not r.mutating:
            ids = sum(1 for key in r.params if ID_PARAM.search(key))
            filters = sorted(v for k, v in r.params.items() if re.fullmatch(r"Filter\.\d+\.Name", k))
            out.append((r.action, ids, filters))
    return out


def test_a_resync_reads_each_kind_once_and_a_write_drops_the_kept_listing(
    apiserver: ApiServer,
    installed_crds: dict[str, Any],
    moto: MotoServer,
    proxy: FaultProxy,
    kube_client: kubernetes.client.ApiClient,
    tmp_path: Path,
) -> None:
    log = tmp_path / "operator.log"
    operator = Operator(apiserver, proxy.url, NAMESPACE, log)
    operator.env["TASKLAYER_SHARED_READS"] = "600"
    operator.start()
    kinds = {plural: kind(kube_client, plural, NAMESPACE) for plural in KINDS}
    objects = crs()
    for plural, name, spec in objects:
        kinds[plural].create(name, spec)
    for plural, name, _ in objects:
        until(f"the {plural} {name} is Ready", ready(kinds[plural], name), log, timeout=300)
    assert proxy.writes() == Counter({f"Create{k}": UNITS for k in ("Vpc", "Subnet", "SecurityGroup", "RouteTable", "InternetGateway")})

    # the resync: a restart, on which kopf resumes every object once
    operator.stop()
    proxy.clear()
    since = log.stat().st_size
    operator.start()
    until(
        "every CR is resumed",
        lambda: len(resumed(log, since)) >= len(objects),
        log,
        timeout=300,
    )
    reads = listed(proxy)
    assert proxy.writes() == Counter(), proxy.writes()
    assert sorted(reads) == sorted(
        (f"Describe{k}", 0, [OWNER_FILTER])
        for k in ("Vpcs", "Subnets", "SecurityGroups", "RouteTables", "InternetGateways")
    ), reads
    assert len(reads) / len(objects) <= 0.1

    # a write in between: the second change's reconcile reads the Vpc afresh, by id
    vpcs = kinds["vpcs"]
    proxy.clear()
    vpcs.api.patch_namespaced_custom_object(
        vpcs.group, VERSION, NAMESPACE, vpcs.plural, "vpc-0", {"spec": {"additionalTags": {"team": "blue"}}}
    )
    until("the tag change is handled", handled(vpcs, "vpc-0", "additionalTags", {"team": "blue"}), log)
    assert proxy.writes() == Counter({"CreateTags": 1}), proxy.writes()
    proxy.clear()
    vpcs.api.patch_namespaced_custom_object(
        vpcs.group, VERSION, NAMESPACE, vpcs.plural, "vpc-0", {"spec": {"enableDnsHostnames": True}}
    )
    until("the DNS change is handled", handled(vpcs, "vpc-0", "enableDnsHostnames", True), log)
    # from the kept listing it would have seen no "team" tag and written it again
    assert proxy.writes() == Counter({"ModifyVpcAttribute": 1}), proxy.writes()
    vpc_reads = [r for r in listed(proxy) if r[0] == "DescribeVpcs"]
    assert vpc_reads and all(ids == 1 for _, ids, _ in vpc_reads), vpc_reads
    status = ready(vpcs, "vpc-0")()
    assert status is not None and status["tags"]["team"] == "blue", status

    for plural, name, _ in objects:
        delete(kinds[plural], name)
    for plural, name, _ in objects:
        until(f"{name} is deleted", gone(kinds[plural], name), log, timeout=300)
    assert cloud_leftovers(ec2_client(moto.url)) == {}
