"""Benchmark (not a test): the generated aws/ec2 kopf operator at scale on the real API server
(issue 24, item 4).

    python bench/operator_scale.py [--crs 500] [--kinds vpcs,subnets,securitygroups,routetables,internetgateways]

``--crs`` custom resources spread over ``--kinds`` (plural names, default the five below) in one
namespace, applied at once; every Subnet, SecurityGroup and RouteTable names its Vpc by custom
resource name (``vpcRef: {name: ...}``). The operator (``testbed/kopf_ec2.py`` under ``kopf
run``, :class:`testbed.operator_process.Operator`) runs against the real API server
(:class:`testbed.apiserver.ApiServer`, every ec2 CRD installed) and ``moto_server`` behind
:class:`testbed.proxy.FaultProxy`, which records every cloud request at the wire.

Measured and printed:

* convergence: from the first create to every CR Ready=True with its id; the cloud reads and
  writes (by action) made meanwhile; reconciles (kopf handler runs, from the operator's log)
  per second;
* steady-state resync: the operator is stopped and started again, so kopf runs every CR's
  resume handler once (what it does on restart; the generated operator has no timer); the
  cloud reads per CR (target <= 0.1) and writes (target 0), and resync reconciles per second;
* the operator's RSS (``VmRSS`` of ``/proc/<pid>/status``) idle, converged and after the
  resync, and scaled per 1000 CRs (the whole process's, and above its idle size).

Waits poll the API server's listings (once a second) and the operator's log; nothing sleeps for
the cloud.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "generated")]

import kubernetes
import yaml

from testbed.apiserver import ApiServer
from testbed.moto import MotoServer
from testbed.operator_process import Operator
from testbed.proxy import FaultProxy

GROUP = "ec2.aws.tasklayer.dev"
CRDS = ROOT / "generated" / "tasklayer_tasks" / "crds" / "aws" / "ec2"
NAMESPACE = "scale"
KINDS = ("vpcs", "subnets", "securitygroups", "routetables", "internetgateways")
REFERS_TO_VPC = {"subnets", "securitygroups", "routetables"}
# kopf's log line for each handler run: "[ns/name] Handler 'reconcile-vpcs' succeeded."
HANDLER = re.compile(
    r"^\[(?P<at>[0-9-]+ [0-9:,]+)\].*?\[(?P<ns>[^/\]]+)/(?P<name>[^\]]+)\] "
    r"Handler '(?P<id>reconcile-[a-z]+)' (?P<how>succeeded|failed)(?:[^:]*: (?P<why>[^:.]+))?"
)
ID_PARAM = re.compile(r"Ids?\.\d+$")  # VpcId.1, GroupId.1: a Describe* naming ids


def spec_of(plural: str, unit: int) -> tuple[str, dict[str, Any]]:
    """The name and spec of ``plural``'s CR of network ``unit`` (its Vpc is ``vpc-<unit>``)."""
    vpc = f"vpc-{unit}"
    octet = unit % 256
    if plural == "vpcs":
        return vpc, {"name": vpc, "cidrBlock": f"10.{octet}.0.0/16"}
    if plural == "subnets":
        name = f"subnet-{unit}"
        return name, {"name": name, "vpcRef": {"name": vpc}, "cidrBlock": f"10.{octet}.1.0/24"}
    if plural == "securitygroups":
        name = f"sg-{unit}"
        return name, {
            "name": name,
            "vpcRef": {"name": vpc},
            "groupName": name,
            "description": "scale",
        }
    if plural == "routetables":
        name = f"rt-{unit}"
        return name, {"name": name, "vpcRef": {"name": vpc}}
    if plural == "internetgateways":
        name = f"igw-{unit}"
        return name, {"name": name}
    raise ValueError(plural)


def plan(crs: int, kinds: list[str]) -> list[tuple[str, str, dict[str, Any]]]:
    """``crs`` (plural, name, spec), network by network, each one's Vpc first."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    unit = 0
    while len(out) < crs:
        for plural in kinds:
            if len(out) < crs:
                out.append((plural, *spec_of(plural, unit)))
        unit += 1
    return out


def install_crds(client: kubernetes.client.ApiClient) -> str:
    """Every ec2 CRD (the operator watches every ec2 kind), Established; their version."""
    api = kubernetes.client.ApiextensionsV1Api(client)
    crds = [yaml.safe_load(p.read_text()) for p in sorted(CRDS.glob("*.yaml"))]
    for crd in crds:
        api.create_custom_resource_definition(crd)
    names = {crd["metadata"]["name"] for crd in crds}
    deadline = time.monotonic() + 300
    while True:
        established = {
            c.metadata.name
            for c in api.list_custom_resource_definition().items
            if c.status
            and any(
                x.type == "Established" and x.status == "True" for x in c.status.conditions or []
            )
        }
        if names <= established:
            return str(crds[0]["spec"]["versions"][0]["name"])
        if time.monotonic() > deadline:
            raise RuntimeError(f"CRDs not Established: {sorted(names - established)[:5]}")
        time.sleep(0.5)  # the server establishes CRDs in the background


def ready_count(api: kubernetes.client.CustomObjectsApi, version: str, kinds: list[str]) -> int:
    count = 0
    for plural in kinds:
        listing = api.list_namespaced_custom_object(GROUP, version, NAMESPACE, plural)
        for item in listing["items"]:
            status = item.get("status") or {}
            conditions = [c for c in status.get("conditions") or [] if c.get("type") == "Ready"]
            if conditions and conditions[0].get("status") == "True" and status.get("id"):
                count += 1
    return count


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def handler_runs(log: Path, since: int) -> list[tuple[float, str, str, str, str]]:
    """(time, handler id, name, succeeded|failed, the failure's reason or "") for every reconcile handler run logged
    after byte ``since`` of the operator's log."""
    with open(log, "rb") as f:
        f.seek(since)
        text = f.read().decode(errors="replace")
    runs = []
    for line in text.splitlines():
        m = HANDLER.match(line)
        if m and m["ns"] == NAMESPACE:
            at = datetime.strptime(m["at"], "%Y-%m-%d %H:%M:%S,%f").timestamp()
            runs.append((at, m["id"], m["name"], m["how"], m["why"] or ""))
    return runs


def until(what: str, probe: Callable[[], bool], operator: Operator, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not probe():
        if operator.failed():
            raise RuntimeError(f"the operator failed while {what}:\n{operator.said()[-4000:]}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within {timeout} s:\n{operator.said()[-4000:]}")
        time.sleep(1.0)  # polling the API server's listing / the operator's log


def top(counter: Counter[str], n: int = 6) -> str:
    return ", ".join(f"{a} {c}" for a, c in counter.most_common(n)) or "-"


def run(crs: int, kinds: list[str], timeout: float) -> None:
    work = Path(tempfile.mkdtemp(prefix="tasklayer-operator-scale-"))
    with ApiServer() as apiserver, MotoServer() as moto, FaultProxy(upstream=moto.url) as proxy:
        client = kubernetes.config.new_client_from_config(str(apiserver.kubeconfig))
        client.configuration.connection_pool_maxsize = 8
        version = install_crds(client)
        api = kubernetes.client.CustomObjectsApi(client)
        log = work / "operator.log"
        operator = Operator(apiserver, proxy.url, NAMESPACE, log).start()
        try:
            until(
                "starting",
                lambda: "Activity 'startup' succeeded" in operator.said(),
                operator,
                120,
            )
            idle = rss_kib(operator.pid)
            proxy.clear()
            objects = plan(crs, kinds)
            started = time.monotonic()
            for plural, name, spec in objects:
                body = {
                    "apiVersion": f"{GROUP}/{version}",
                    "kind": KIND_OF[plural],
                    "metadata": {"name": name},
                    "spec": spec,
                }
                api.create_namespaced_custom_object(GROUP, version, NAMESPACE, plural, body)
            applied = time.monotonic() - started
            until(
                "converging",
                lambda: ready_count(api, version, kinds) == crs,
                operator,
                timeout,
            )
            converged = time.monotonic() - started
            conv_reads, conv_writes = proxy.reads(), proxy.writes()
            conv_runs = handler_runs(log, 0)
            conv_rss = rss_kib(operator.pid)

            # steady state: a restart, on which kopf resumes every object once
            operator.stop()
            proxy.clear()
            since = log.stat().st_size
            restarted = time.monotonic()
            operator.start()

            def resumed() -> bool:
                return (
                    len(
                        {
                            (h, n)
                            for _, h, n, how, _ in handler_runs(log, since)
                            if how == "succeeded"
                        }
                    )
                    >= crs
                )

            until("resyncing", resumed, operator, timeout)
            resync_wall = time.monotonic() - restarted
            resync_runs = handler_runs(log, since)
            resync_reads, resync_writes = proxy.reads(), proxy.writes()
            # what each read asked for: how many ids it names (0: a listing by filter)
            ids_named = Counter(
                sum(1 for key in r.params if ID_PARAM.search(key))
                for r in proxy.requests
                if r.action and not r.mutating
            )
            resync_rss = rss_kib(operator.pid)
        finally:
            operator.stop()

    by_kind = Counter(p for p, _, _ in objects)
    conv_span = max(t for t, *_ in conv_runs) - min(t for t, *_ in conv_runs)
    resync_span = max(t for t, *_ in resync_runs) - min(t for t, *_ in resync_runs)
    per_k = 1000 / crs
    rows = [
        ("CRs", f"{crs} ({', '.join(f'{k} {by_kind[k]}' for k in kinds)})"),
        ("apply (create calls to the API server)", f"{applied:.1f} s"),
        ("converge: all Ready, from the first create", f"{converged:.1f} s"),
        ("converge: cloud reads", f"{sum(conv_reads.values())} ({top(conv_reads)})"),
        ("converge: cloud writes", f"{sum(conv_writes.values())} ({top(conv_writes)})"),
        (
            "converge: reconciles (handler runs)",
            f"{len(conv_runs)} "
            f"({top(Counter(r[4] for r in conv_runs if r[3] == 'failed'))} requeued)",
        ),
        (
            "converge: reconciles per second",
            f"{len(conv_runs) / converged:.1f} over the wall, "
            f"{len(conv_runs) / max(conv_span, 1e-9):.1f} over first..last run",
        ),
        ("resync: restart until every CR resumed", f"{resync_wall:.1f} s"),
        (
            "resync: reconciles",
            f"{len(resync_runs)} ({top(Counter(r[4] for r in resync_runs if r[3] == 'failed'))}"
            " requeued)",
        ),
        (
            "resync: reconciles per second",
            f"{len(resync_runs) / resync_wall:.1f} over the wall, "
            f"{len(resync_runs) / max(resync_span, 1e-9):.1f} over first..last run",
        ),
        ("resync: cloud reads", f"{sum(resync_reads.values())} ({top(resync_reads)})"),
        ("resync: cloud reads per CR (target <= 0.1)", f"{sum(resync_reads.values()) / crs:.2f}"),
        (
            "resync: cloud reads by ids named per read",
            ", ".join(f"{n} id(s): {c} reads" for n, c in sorted(ids_named.items())),
        ),
        (
            "resync: cloud writes (target 0)",
            f"{sum(resync_writes.values())} ({top(resync_writes)})",
        ),
        (
            "operator RSS idle / converged / resynced",
            f"{idle / 1024:.0f} / {conv_rss / 1024:.0f} / " f"{resync_rss / 1024:.0f} MiB",
        ),
        (
            "operator RSS per 1000 CRs (converged, resynced)",
            f"{conv_rss * per_k / 1024:.0f}, " f"{resync_rss * per_k / 1024:.0f} MiB",
        ),
        (
            "operator RSS above idle per 1000 CRs (converged, resynced)",
            f"{(conv_rss - idle) * per_k / 1024:.0f}, {(resync_rss - idle) * per_k / 1024:.0f} MiB",
        ),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"operator scale: {crs} CRs, kinds {','.join(kinds)}, log {log}")
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")
    print("resync cloud reads by action:", dict(resync_reads.most_common()))


KIND_OF = {
    "vpcs": "Vpc",
    "subnets": "Subnet",
    "securitygroups": "SecurityGroup",
    "routetables": "RouteTable",
    "internetgateways": "InternetGateway",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crs", type=int, default=500)
    parser.add_argument("--kinds", default=",".join(KINDS), help="plurals, comma-separated")
    parser.add_argument("--timeout", type=float, default=1800.0, help="s per wait")
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kinds {unknown}; choose from {','.join(KINDS)}")
    if REFERS_TO_VPC & set(kinds) and "vpcs" not in kinds:
        parser.error("subnets, securitygroups and routetables name a Vpc: include vpcs")
    run(args.crs, kinds, args.timeout)


if __name__ == "__main__":
    main()
