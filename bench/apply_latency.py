"""Benchmark (not a test): apply wall time against the critical-path bound, with latency added to
every API call (issue 13, item 5).

    python bench/apply_latency.py [--latency 0.05] [--concurrency 4 8 16] [--runs 3] [--in-process]

Against ``moto_server`` in its own process (as a cloud is: its work is not on this process's
interpreter lock), or with ``--in-process`` against moto inside this one, each botocore call
first sleeps ``--latency`` seconds (a ``before-call`` hook on the session: every call, reads
and writes, whichever client). Every
call is charged to the task whose step made it (a context variable the executor's worker sets,
which the runtime carries into the reads a task makes at once; a kind's early listing to the
task it was made for). The
bound is the heaviest dependency chain: the most calls along any path of the task graph, times
the latency; nothing can finish sooner than that chain's calls made one after another. Prints,
for the EC2 stack of the behaviour tests, kOps' three-zone network and the whole example cluster
(``examples/kops_cluster.py``: network, IAM, launch templates, ASGs, NLB, volumes, DNS), clean
apply and converged re-apply: wall, bound, wall / bound. Every call spread over the workers
(calls x latency / concurrency) is a second bound, printed beside it: at 10 workers the example
cluster's ~150 calls make it near the chain's. The bound counts the latency alone; the
cloud's own time answering the chain's calls (sending each to its answer, summed over the
chain's tasks) is printed beside it, with wall / (bound + that time): how near the graph's limit
the run is once the cloud's work is counted too.
"""

from __future__ import annotations

import argparse
import contextvars
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "generated")]

from moto import mock_aws

from examples.kops_cluster import kops_cluster
from tasklayer_tasks.aws.ec2 import Vpc
from tasklayer_tasks.runtime import CloudTarget, Context, Executor, Task
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from testbed.kops_network import kops_network
from testbed.moto import MotoServer
from testbed.stack import network_stack

_current = threading.local()  # the thread's call in flight (when it was sent)
_task: contextvars.ContextVar[str | None] = contextvars.ContextVar("task", default=None)


class ChargingExecutor(Executor):
    """The executor as it is, with each step's thread marked with the task it runs."""

    @staticmethod
    def _attempt(task: Task, step: Callable[[Task], object]) -> Exception | None:
        # a context variable: the runtime carries it into the reads a task makes at once
        token = _task.set(task.key)
        try:
            return Executor._attempt(task, step)
        finally:
            _task.reset(token)

    def _look_early(self, task: Task, listing: bool) -> None:
        # a kind's early listing is charged to the task it was made for (the kind's first), an
        # early find's read to its task: that task needs it before it can finish, as if it had
        # read for itself
        token = _task.set(task.key)
        try:
            super()._look_early(task, listing)
        finally:
            _task.reset(token)


def slow_context(
    latency: float,
    charged: Counter[str],
    cluster: str,
    endpoint_url: str | None,
    served: dict[str, float] | None = None,
) -> Context:
    """A context whose every call first sleeps ``latency``; ``served`` sums, per task, the time
    from sending each call to its answer (the cloud's own work and the transfer)."""
    import botocore.session

    session = botocore.session.get_session()

    def delay(**_: Any) -> None:
        charged[_task.get() or "-"] += 1
        time.sleep(latency)

    def sent(**_: Any) -> None:
        _current.sent = time.perf_counter()

    def answered(**_: Any) -> None:
        begun = getattr(_current, "sent", None)
        if served is not None and begun is not None:
            key = _task.get() or "-"
            served[key] = served.get(key, 0.0) + time.perf_counter() - begun
        _current.sent = None

    session.register("before-call.*", delay)
    session.register("before-send.*", sent)
    session.register("needs-retry.*", answered)
    return Context(
        region="us-east-1",
        cluster=cluster,
        session=session,
        endpoint_url=endpoint_url,
        retry=RetryPolicy(sleep=lambda _: None),
    )


def warm_backends(endpoint_url: str | None) -> None:
    """One read on each service the workloads use, so moto builds its backends before the clock
    starts (the EC2 one is built by the warm-up apply)."""
    import botocore.session

    session = botocore.session.get_session()
    for service, read in (
        ("iam", "list_roles"),
        ("autoscaling", "describe_auto_scaling_groups"),
        ("elbv2", "describe_load_balancers"),
        ("route53", "list_hosted_zones"),
    ):
        client = session.create_client(service, region_name="us-east-1", endpoint_url=endpoint_url)
        getattr(client, read)()


def cloud_cpu(pid: int | None) -> float:
    """CPU seconds the moto_server process (and its threads) has used so far: the emulated
    cloud's work, done on one interpreter lock; 0 in-process."""
    if not pid:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def heaviest_chain(tasks: list[Task], charged: Counter[str]) -> tuple[int, list[str]]:
    """The most calls along one dependency path, and that path (first task first)."""
    best: dict[Task, tuple[int, list[str]]] = {}

    def weigh(task: Task) -> tuple[int, list[str]]:
        if task not in best:
            below = max(
                (weigh(d) for d in task.dependencies()), default=(0, []), key=lambda w: w[0]
            )
            best[task] = (below[0] + charged[task.key], [*below[1], task.key])
        return best[task]

    return max((weigh(t) for t in tasks), key=lambda w: w[0])


@dataclass
class Run:
    """One apply: wall, bound and what the cloud did meanwhile."""

    tasks: int
    calls: int
    wall: float
    bound: float
    chain: list[str]
    cloud: float  # the cloud's own time answering the chain's calls (see the module)
    busy: float  # moto_server's CPU over the run
    again: list[str]


def measure(
    name: str,
    make: Callable[[str], list[Task]],
    latency: float,
    concurrency: int,
    endpoint_url: str | None,
    server_pid: int | None = None,
) -> dict[str, Run]:
    """A clean apply, then a converged re-apply, of a cluster (and VPC) of its own."""
    cluster = name
    charged: Counter[str] = Counter()
    served: dict[str, float] = {}
    context = slow_context(latency, charged, cluster, endpoint_url, served)
    for service in (
        "ec2",
        "iam",
        "autoscaling",
        "elbv2",
        "route53",
    ):  # model loading is not the API's
        context.client(service), context.client(service, sdk_retries=False)
    runs: dict[str, Run] = {}
    for phase in ("clean apply", "converged re-apply"):
        charged.clear()
        served.clear()
        tasks = make(cluster)
        busy_before = cloud_cpu(server_pid)
        started = time.perf_counter()
        executor = ChargingExecutor(
            CloudTarget(context), max_concurrency=concurrency, sleep=lambda _: None
        )
        executor.run(tasks)
        wall = time.perf_counter() - started
        busy = cloud_cpu(server_pid) - busy_before
        calls, chain = heaviest_chain(tasks, charged)
        runs[phase] = Run(
            tasks=len(tasks),
            calls=sum(charged.values()),
            wall=wall,
            bound=calls * latency,
            chain=chain,
            cloud=sum(served.get(k, 0.0) for k in chain),
            busy=busy,
            again=sorted(k for k, n in executor.attempts.items() if n > 1),
        )
    return runs


def report(name: str, phase: str, concurrency: int, latency: float, runs: list[Run]) -> None:
    """The median run by wall / bound, with the range over every run."""
    ratios = sorted(r.wall / r.bound for r in runs)
    r = sorted(runs, key=lambda r: r.wall / r.bound)[len(runs) // 2]
    print(
        f"{name:<22} {phase:<19} concurrency {concurrency:>2}: {r.tasks:>3} tasks, {r.calls:>3} calls, "
        f"wall {r.wall:5.2f}s, bound {r.bound:4.2f}s ({round(r.bound / latency)} calls on "
        f"{len(r.chain)} tasks), wall/bound {ratios[len(ratios) // 2]:4.2f} (median of {len(runs)}: "
        f"{ratios[0]:4.2f}-{ratios[-1]:4.2f})\n"
        f"{'':24}all calls over {concurrency} workers {r.calls * latency / concurrency:4.2f}s; "
        f"the cloud's own time on the chain {r.cloud:4.2f}s, wall/(bound+it) "
        f"{r.wall / (r.bound + r.cloud):4.2f}"
        + (f"; moto_server busy {r.busy:4.2f}s CPU" if r.busy else "")
        + (f"; tried again: {', '.join(r.again)}" if r.again else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[4, 10, 16])
    parser.add_argument(
        "--in-process", action="store_true", help="moto in this process, not moto_server"
    )
    parser.add_argument(
        "--only",
        choices=("ec2", "network", "cluster"),
        action="append",
        help="these workloads only (repeatable; default: all three)",
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of each; the median is shown")
    args = parser.parse_args()
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    workloads = {
        "ec2 stack": lambda c: network_stack(c).tasks(),
        "kops 3-zone network": kops_network,
        "kops example cluster": lambda c: list(kops_cluster(f"{c}.example.com")),
    }
    chosen = {
        "ec2": "ec2 stack",
        "network": "kops 3-zone network",
        "cluster": "kops example cluster",
    }
    if args.only:
        workloads = {n: m for n, m in workloads.items() if n in {chosen[o] for o in args.only}}
    server = None if args.in_process else MotoServer().start()
    try:
        for concurrency in args.concurrency:
            for name, make in workloads.items():
                runs: dict[str, list[Run]] = {}
                for n in range(args.runs):
                    # an account of its own each (moto's DescribeKeyPairs ignores KeyPairIds, so
                    # a second cluster's key pair would answer the first's read-back)
                    with nullcontext() if server else mock_aws():
                        if server:
                            server.reset()
                        url = server.url if server else None
                        # moto sets up a service's backend on its first call (EC2's takes seconds;
                        # IAM loads every managed policy): the emulator's start, not the API's time
                        measure(
                            "warm-up",
                            lambda c: [Vpc(name=c, cidr_block="10.9.0.0/16")],
                            0.0001,
                            1,
                            url,
                        )
                        warm_backends(url)
                        pid = server._proc.pid if server and server._proc else None
                        cluster = f"{name.split()[0]}{concurrency}r{n}"
                        for phase, run in measure(
                            cluster, make, args.latency, concurrency, url, pid
                        ).items():
                            runs.setdefault(phase, []).append(run)
                for phase, each in runs.items():
                    report(name, phase, concurrency, args.latency, each)
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    main()
