"""The cloud-provider face's fault campaign on GCP: a fault (throttled 429
``rateLimitExceeded``, a 503 after the server carried the call out, the reply lost after it,
the connection reset before it) at every write a clean ``EnsureLoadBalancer`` and a clean
``EnsureLoadBalancerDeleted`` make, on the wire in front of the project's GCP fake. Each pass
after the fault is a fresh face (a restarted controller: nothing kept in memory). Then, read
from the fake's store: one of each part for the Service, nothing leaked, and a further call
makes no write. The cells are each phase's clean writes, read from the clean run itself."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import pytest

from tasklayer_tasks.runtime.cloudprovider.gcp import GcpLoadBalancers, instance_link
from tasklayer_tasks.runtime.cloudprovider.service import Service
from tasklayer_tasks.runtime.kops.executor import Executor
from tasklayer_tasks.runtime.kops.targets import CloudTarget
from tests.cloudprovider.gcp_lab import (
    Lab,
    Wire,
    call_of,
    inventory,
    make_lab,
    mutating,
    service,
    stored,
)

UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
WEB = service("web", UID, (80, 30080), (443, 30443))
NAME = "a1b4e28ba2fa111d2883f0016d3cca42"
ALL = {"address": 1, "forwarding-rule": 1, "target-pool": 1, "health-check": 1, "firewall": 2}
KINDS = ("throttle", "5xx-after", "lost", "reset")
PASSES = 6


def fresh(lab: Lab, deadline: float = 600.0) -> GcpLoadBalancers:
    def quick(target: CloudTarget) -> Executor:
        return Executor(target, sleep=lambda _: None, retry_interval=0.01, task_deadline=deadline)

    return GcpLoadBalancers(lab.context(), lab.cluster, executor=quick)


def ensure(lab: Lab, svc: Service = WEB, deadline: float = 600.0, nodes: Any = None) -> list[str]:
    """Passes until one succeeds (a fresh face each): the errors of those that failed."""
    errors = []
    for _ in range(PASSES):
        try:
            fresh(lab, deadline).ensure_load_balancer(svc, lab.nodes if nodes is None else nodes)
            return errors
        except Exception as err:  # the faulted pass may fail; the next one must recover
            errors.append(f"{type(err).__name__}: {err}")
    raise AssertionError(f"not converged after {PASSES} passes: {errors}")


def delete(lab: Lab, svc: Service = WEB) -> list[str]:
    errors = []
    for _ in range(PASSES):
        try:
            fresh(lab).ensure_load_balancer_deleted(svc)
            return errors
        except Exception as err:
            errors.append(f"{type(err).__name__}: {err}")
    raise AssertionError(f"not deleted after {PASSES} passes: {errors}")


def occurrences(calls: list[str]) -> list[tuple[str, int]]:
    seen: Counter[str] = Counter()
    out = []
    for call in calls:
        seen[call] += 1
        out.append((call, seen[call]))
    return out


def clean(phase: str) -> list[tuple[str, int]]:
    lab = make_lab()
    since = len(lab.fake.log)
    ensure(lab)
    if phase == "delete":
        since = len(lab.fake.log)
        delete(lab)
    return occurrences([call_of(r.path, r.http_method) for r in lab.fake.log[since:]
                        if mutating(r.path, r.http_method)])


def judge_applied(lab: Lab) -> None:
    assert inventory(lab.fake) == {"default/web": Counter(ALL)}
    pool = stored(lab.fake, "targetPools")[NAME]["instances"]
    assert sorted(p.split("/compute/v1/")[1] for p in pool) == sorted(
        instance_link(n) for n in lab.nodes)
    since = len(lab.fake.log)
    fresh(lab).ensure_load_balancer(WEB, lab.nodes)
    assert lab.writes(since) == Counter()


def judge_deleted(lab: Lab) -> None:
    assert inventory(lab.fake) == {}
    since = len(lab.fake.log)
    fresh(lab).ensure_load_balancer_deleted(WEB)
    assert lab.writes(since) == Counter()


APPLY, DELETE = clean("apply"), clean("delete")


def test_the_cells_are_every_write_of_a_clean_run() -> None:
    assert [c.split(" ")[0] for c, _ in APPLY] == ["POST"] * 6  # address, 2 firewalls, check, pool, rule
    assert [c.split(" ")[0] for c, _ in DELETE] == ["DELETE"] * 6


@pytest.mark.parametrize("kind", KINDS)
def test_a_fault_at_every_write_of_ensure_load_balancer(kind: str) -> None:
    failed = []
    for call, occurrence in APPLY:
        lab = make_lab(wrap=partial(Wire, call=call, occurrence=occurrence, kind=kind))
        try:
            ensure(lab)
            assert lab.http.fired, "the fault was planned at a write the run made"
            judge_applied(lab)
        except AssertionError as err:
            failed.append(f"{call}#{occurrence}-{kind}: {err}")
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("kind", KINDS)
def test_a_fault_at_every_write_of_ensure_load_balancer_deleted(kind: str) -> None:
    failed = []
    for call, occurrence in DELETE:
        lab = make_lab(wrap=Wire)
        ensure(lab)
        lab.http.call, lab.http.occurrence, lab.http.kind = call, occurrence, kind
        try:
            delete(lab)
            assert lab.http.fired
            judge_deleted(lab)
        except AssertionError as err:
            failed.append(f"{call}#{occurrence}-{kind}: {err}")
    assert not failed, "\n".join(failed)
