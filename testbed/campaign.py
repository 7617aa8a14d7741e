"""The fault campaign: one cell per (mutating call of a workload's apply or delete) x (fault).

A *workload* is what a user runs: the kOps-style EC2 stack through ``Executor`` (one pass =
one ``run`` or ``delete``, as a user re-running the tool), the same for a Route 53 hosted zone
and its records (a create that takes no tags, tagged by a second call), or the CAPA-like network reconcile
(one pass = one ``reconcile()`` or ``delete()``, as a controller's requeue; its status store
survives between passes as a CR's status would). A clean run records, at the wire, the
sequence of mutating calls; each occurrence (``CreateSubnet#2``) times each fault kind is a
cell. A cell injects its fault, lets the faulted pass fail if it must, re-runs (bounded), then
judges from the independent inventory: exactly the declared resources, all owned by the
cluster; a further apply makes no write; delete leaves nothing.
"""

from __future__ import annotations

import atexit
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, ClassVar

import botocore.endpoint
import botocore.session
from botocore.config import Config

from examples.aws_network import NetworkReconciler, NetworkSpec
from tasklayer_tasks.aws.route53 import HostedZone, ResourceRecordSet
from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from testbed import inventory
from testbed.moto import MotoServer
from testbed.proxy import Fault, FaultKind, FaultProxy, WireRequest
from testbed.stack import Stack, network_stack

REGION = "us-east-1"
CLUSTER = "demo"
PHASES = ("apply", "delete")
# The four faults. A 500 sent before forwarding (``FaultKind.ERROR_BEFORE``) is left to
# the bench: to the runtime it is the same outcome-unknown failure as ``reset`` on a request
# that did not commit, and its error translation is the same as ``5xx-after``'s, which did.
SUITE_KINDS = (FaultKind.THROTTLE, FaultKind.ERROR_AFTER, FaultKind.LOST, FaultKind.RESET)


def _no_sleep(_: float) -> None:
    pass


@contextmanager
def no_sdk_backoff() -> Iterator[None]:
    """botocore sleeps between its own retries (``time.sleep`` in ``botocore.endpoint``); the
    retries still happen, only the waiting goes, so the campaign runs in seconds."""
    original = vars(botocore.endpoint)["time"]
    botocore.endpoint.time = SimpleNamespace(sleep=_no_sleep, time=original.time)
    try:
        yield
    finally:
        botocore.endpoint.time = original


class ClosingSession(botocore.session.Session):
    """A botocore session that can close every client made from it: each cell's runtime
    clients are closed with the cell, so no kept-alive connection (nor the proxy and moto
    threads serving it) outlives the cell."""

    def __init__(self) -> None:
        super().__init__()
        self.clients: list[Any] = []

    def create_client(self, *args: Any, **kwargs: Any) -> Any:
        client = super().create_client(*args, **kwargs)
        self.clients.append(client)
        return client

    def close_clients(self) -> None:
        for client in self.clients:
            client.close()
        self.clients.clear()


class Lab:
    """moto_server, the proxy in front of it, and one botocore session (its loader caches the
    EC2 model once instead of once per client)."""

    def __init__(self) -> None:
        self.moto = MotoServer()
        self.proxy = FaultProxy("")
        self.session = ClosingSession()
        self.session.set_credentials("testing", "testing")
        self.started = False

    def start(self) -> Lab:
        if not self.started:
            self.moto.start()
            self.proxy.upstream = self.moto.url
            self.proxy.start()
            self.started = True
        return self

    def stop(self) -> None:
        if self.started:
            self.session.close_clients()
            self.proxy.stop()
            self.moto.stop()
            self.started = False

    def reset(self) -> None:
        """A new account: moto emptied, the proxy's log, plans and tokens forgotten, the last
        cell's clients closed."""
        self.session.close_clients()
        self.moto.reset()
        self.proxy.reset()

    def context(self, cluster: str) -> Context:
        # bounded waits should a reply never come; retries stay the runtime's own choice
        return Context(
            region=REGION,
            cluster=cluster,
            endpoint_url=self.proxy.url,
            session=self.session,
            config=Config(connect_timeout=5, read_timeout=15),
            retry=RetryPolicy(sleep=_no_sleep),
        )

    def inventory(self) -> list[inventory.Item]:
        return inventory.take(self.moto.url, REGION)


@lru_cache(maxsize=1)
def shared_lab() -> Lab:
    """One lab per process: cells are parametrized from its clean runs at collection time."""
    lab = Lab().start()
    atexit.register(lab.stop)
    return lab


@dataclass(frozen=True)
class Pass:
    done: bool
    error: str = ""
    permanent: bool = False  # the workload gave up: no further pass would be made


@dataclass
class Drive:
    done: bool = False
    passes: int = 0
    errors: list[str] = field(default_factory=list)


def drive(step: Callable[[], Pass], max_passes: int) -> Drive:
    result = Drive()
    for _ in range(max_passes):
        outcome = step()
        result.passes += 1
        if outcome.error:
            result.errors.append(outcome.error)
        if outcome.done or outcome.permanent:
            result.done = outcome.done
            break
    return result


def _described(err: BaseException) -> str:
    return f"{type(err).__name__}: {str(err)[:300]}"


class Workload:
    name: ClassVar[str]
    declared: ClassVar[Counter[str]]  # what one clean apply must leave, per inventory kind
    max_passes: ClassVar[int]
    # two clusters may give their resources the same names (false: a name is found, and a
    # neighbour's of that name is refused as not ours, never made twice)
    names_coexist: ClassVar[bool] = True
    # the executor's workers (None: its default); tests/golden records with 1, so that the
    # order of independent tasks' calls is the scheduler's, not the threads'
    workers: ClassVar[int | None] = None
    # the executor's pause before a task that asked to try again is tried again (None: its
    # default, 2 s of wall time: whether another task's calls finish within it decides the
    # order); tests/golden records with its short PAUSE, so that the order is not the clock's
    retry_interval: ClassVar[float | None] = None

    def __init__(self, lab: Lab, cluster: str, names: str | None = None) -> None:
        self.lab, self.cluster, self.names = lab, cluster, names or cluster
        self.context = lab.context(cluster)

    def apply(self) -> Pass:
        raise NotImplementedError

    def delete(self) -> Pass:
        raise NotImplementedError


class StackWorkload(Workload):
    """testbed/stack.py's kOps stack; each pass is a fresh run of the tool."""

    name = "stack"
    declared = Counter(dict.fromkeys(inventory.KINDS, 1) | {"sg-rule": 2})
    max_passes = 4

    def tasks(self) -> Stack:
        stack = network_stack(self.names)
        if self.names != self.cluster and stack.vpc.tags:
            # the stack tags its VPC with its own name; with names shared between clusters
            # ownership must come from the cluster the context names, not from that tag
            stack.vpc.tags = {
                k: v for k, v in stack.vpc.tags.items() if k != inventory.KOPS_LEGACY_TAG
            }
        return stack

    def task_list(self) -> list[Any]:
        return self.tasks().tasks()

    def _executor(self) -> Executor:
        options: dict[str, Any] = {}
        if self.workers is not None:
            options["max_concurrency"] = self.workers
        if self.retry_interval is not None:
            options["retry_interval"] = self.retry_interval
        return Executor(CloudTarget(self.context), sleep=_no_sleep, **options)

    def apply(self) -> Pass:
        try:
            self._executor().run(self.task_list())
            return Pass(True)
        except Exception as err:
            return Pass(False, _described(err))

    def delete(self) -> Pass:
        try:
            self._executor().delete(self.task_list())
            return Pass(True)
        except Exception as err:
            return Pass(False, _described(err))


class DnsWorkload(StackWorkload):
    """A hosted zone and two record sets, as tests/behaviour/test_route53.py declares them; each
    pass a fresh run. CreateHostedZone takes no tags: ChangeTagsForResource marks the zone."""

    name = "dns"
    declared = Counter({"hosted-zone": 1, "record-set": 2})
    names_coexist = False

    def task_list(self) -> list[Any]:
        zone = HostedZone(name=f"{self.names}.example.com.")
        records = [
            ResourceRecordSet(
                name=f"{host}.{zone.name}",
                hosted_zone=zone,
                type_="A",
                ttl=60,
                resource_records=[{"Value": ip}],
            )  # type: ignore[list-item]
            for host, ip in (("api", "203.0.113.10"), ("api.internal", "172.20.32.10"))
        ]
        return [zone, *records]


class NetworkWorkload(Workload):
    """examples/aws_network.py's CAPA-like reconcile; its store plays the CR status."""

    name = "network"
    declared = Counter(
        dict.fromkeys(inventory.KINDS, 1)
        | {"subnet": 2, "route-table": 2, "route": 2, "rt-association": 2, "sg-rule": 1}
    )
    max_passes = 12  # a pass stops at the first step not Ready; the clean run needs 1

    def __init__(self, lab: Lab, cluster: str, names: str | None = None) -> None:
        super().__init__(lab, cluster, names)
        self.store: dict[str, dict[str, Any]] = {}

    def _reconciler(self) -> NetworkReconciler:
        reconciler = NetworkReconciler(self.context, NetworkSpec(self.names), self.store)
        # the example names everything after its cluster; to give two clusters the same names,
        # the names come from ``names`` and the ownership from the cluster
        reconciler.cluster = self.cluster
        return reconciler

    def apply(self) -> Pass:
        try:
            result = self._reconciler().reconcile()
        except Exception as err:
            return Pass(False, "raised " + _described(err))
        ready = result.conditions[0]
        error = "" if result.ready else f"{ready.reason}: {ready.message}"[:300]
        return Pass(
            result.ready, error, permanent=not result.ready and result.requeue_after is None
        )

    def delete(self) -> Pass:
        try:
            result = self._reconciler().delete()
        except Exception as err:
            return Pass(False, "raised " + _described(err))
        condition = result.conditions[0]
        done = result.requeue_after is None
        return Pass(done, "" if done else f"{condition.reason}: {condition.message}"[:300])


WORKLOADS: dict[str, type[Workload]] = {
    w.name: w for w in (StackWorkload, DnsWorkload, NetworkWorkload)
}


@dataclass(frozen=True)
class Cell:
    workload: str
    phase: str
    fault: Fault

    def __str__(self) -> str:
        return f"{self.workload}-{self.phase}-{self.fault}"


@dataclass
class Outcome:
    cell: Cell
    fired: int = 0
    drive: Drive = field(default_factory=Drive)
    duplicates: dict[str, int] = field(default_factory=dict)  # kinds with more than declared
    missing: dict[str, int] = field(default_factory=dict)
    unowned: dict[str, int] = field(default_factory=dict)  # present but not the cluster's
    reapply_writes: dict[str, int] = field(default_factory=dict)
    reapply_error: str = ""  # the apply after convergence failed
    delete_done: bool = True
    leaks: dict[str, int] = field(default_factory=dict)  # what is left after the delete
    setup_error: str = ""
    seconds: float = 0.0
    # every request at the wire, with the part of the cell it belongs to ("setup": the clean
    # apply before a delete cell's fault; "apply" / "delete": the faulted passes; "re-apply";
    # then "delete" after an apply cell): what tests/golden records
    wire: list[tuple[str, WireRequest]] = field(default_factory=list)

    @property
    def converged(self) -> bool:
        return self.drive.done

    def problems(self) -> list[str]:
        found = []
        if self.setup_error:
            return [f"setup: {self.setup_error}"]
        if not self.fired:
            found.append("the fault never fired")
        if not self.converged:
            last = self.drive.errors[-1] if self.drive.errors else "no error"
            found.append(f"not converged after {self.drive.passes} passes: {last}")
        for label, value in (
            ("duplicates", self.duplicates),
            ("missing", self.missing),
            ("not owned", self.unowned),
            ("writes on re-apply", self.reapply_writes),
            ("left after delete", self.leaks),
        ):
            if value:
                found.append(f"{label}: {dict(sorted(value.items()))}")
        if self.reapply_error:
            found.append(f"re-apply failed: {self.reapply_error}")
        if not self.delete_done:
            found.append("delete did not finish")
        return found

    @property
    def ok(self) -> bool:
        return not self.problems()


def _compare(outcome: Outcome, workload: Workload, items: list[inventory.Item]) -> None:
    present, owned = inventory.counts(items), inventory.counts(items, workload.cluster)
    outcome.duplicates = {
        k: n - workload.declared[k] for k, n in present.items() if n > workload.declared[k]
    }
    outcome.missing = {k: n - present[k] for k, n in workload.declared.items() if present[k] < n}
    outcome.unowned = {k: n - owned[k] for k, n in present.items() if n > owned[k]}


def run_cell(lab: Lab, cell: Cell, workload_type: type[Workload] | None = None) -> Outcome:
    started = time.perf_counter()
    outcome = Outcome(cell)
    lab.reset()
    workload = (workload_type or WORKLOADS[cell.workload])(lab, CLUSTER)
    taken = 0

    def take(segment: str) -> None:
        nonlocal taken
        requests = list(lab.proxy.requests)
        outcome.wire += [(segment, r) for r in requests[taken:]]
        taken = len(requests)

    if cell.phase == "delete":
        setup = drive(workload.apply, workload.max_passes)
        take("setup")
        if not setup.done:
            outcome.setup_error = f"the clean apply failed: {setup.errors[-1:] or 'not done'}"
            return outcome
    lab.proxy.plan(cell.fault)
    if cell.phase == "apply":
        outcome.drive = drive(workload.apply, workload.max_passes)
        take("apply")
        outcome.fired = len(lab.proxy.fired())
        _compare(outcome, workload, lab.inventory())
        lab.proxy.clear()
        taken = 0
        again = workload.apply()
        take("re-apply")
        outcome.reapply_writes = dict(lab.proxy.writes())
        if not again.done:
            outcome.reapply_error = again.error or "not done"
        outcome.delete_done = drive(workload.delete, workload.max_passes).done
        take("delete")
    else:
        outcome.drive = drive(workload.delete, workload.max_passes)
        take("delete")
        outcome.fired = len(lab.proxy.fired())
        outcome.delete_done = outcome.drive.done
    outcome.leaks = dict(inventory.counts(lab.inventory()))
    outcome.seconds = time.perf_counter() - started
    return outcome


def mutating_calls(
    lab: Lab, workload: str, workload_type: type[Workload] | None = None
) -> dict[str, list[tuple[str, int]]]:
    """Per phase, each mutating call of a clean run as (action, occurrence), in wire order."""
    lab.reset()
    run = (workload_type or WORKLOADS[workload])(lab, CLUSTER)
    calls: dict[str, list[tuple[str, int]]] = {}
    for phase, step in (("apply", run.apply), ("delete", run.delete)):
        lab.proxy.clear()
        with no_sdk_backoff():
            result = drive(step, run.max_passes)
        if not result.done:
            raise RuntimeError(f"the clean {workload} {phase} failed: {result.errors}")
        seen: Counter[str] = Counter()
        calls[phase] = []
        for request in list(lab.proxy.requests):
            if request.mutating:
                seen[request.action] += 1
                calls[phase].append((request.action, seen[request.action]))
    lab.reset()
    return calls


def cells(
    lab: Lab,
    kinds: tuple[FaultKind, ...] = SUITE_KINDS,
    times: int = 1,
    workloads: dict[str, type[Workload]] | None = None,
) -> list[Cell]:
    """``times`` > 1 faults that many consecutive requests of the action: retries within the
    faulted pass meet the fault again, so the next pass (a new run) must cope with it.
    ``workloads``: other classes for the names of ``WORKLOADS`` (tests/golden's, with 1 worker)."""
    found = []
    for workload in WORKLOADS:
        for phase, calls in mutating_calls(lab, workload, (workloads or {}).get(workload)).items():
            found += [
                Cell(workload, phase, Fault(action, n, kind, times))
                for action, n in calls
                for kind in kinds
            ]
    return found
