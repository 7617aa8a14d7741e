"""The fault campaign (issue 8, item 10): a fault at every mutating call of the EC2 stack's apply
and delete, of a Route 53 zone's and its records' (issue 20, item 1: a create that takes no
tags), and of the CAPA-like network reconcile's, over moto_server behind the fault proxy.

Cells are parametrized from clean runs made at collection time (``testbed/campaign.py``),
so a runtime that makes another call gets a cell for it. Each cell id reads
``<workload>-<phase>-<Action>#<occurrence>-<fault>``, e.g. ``stack-apply-CreateVpc#1-lost``;
the faults are throttle, 5xx after commit, reply lost after commit, and connection reset.
``python bench/fault_matrix.py`` prints the same cells as a matrix.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from testbed import inventory
from testbed.campaign import (
    CLUSTER,
    WORKLOADS,
    Cell,
    Lab,
    Workload,
    cells,
    drive,
    no_sdk_backoff,
    run_cell,
    shared_lab,
)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "cell" in metafunc.fixturenames:
        metafunc.parametrize("cell", cells(shared_lab()), ids=str)


@pytest.fixture(scope="module")
def lab() -> Iterator[Lab]:
    lab = shared_lab()
    try:
        with no_sdk_backoff():
            yield lab
    finally:
        lab.stop()


def converge_apply(workload: Workload) -> None:
    result = drive(workload.apply, workload.max_passes)
    assert result.done, f"{workload.name}/{workload.cluster}: apply did not converge: {result.errors}"


def converge_delete(workload: Workload) -> None:
    result = drive(workload.delete, workload.max_passes)
    assert result.done, f"{workload.name}/{workload.cluster}: delete did not finish: {result.errors}"


@pytest.mark.parametrize("name", list(WORKLOADS))
def test_clean_run_owns_one_of_each_then_deletes_everything(lab: Lab, name: str) -> None:
    lab.reset()
    workload = WORKLOADS[name](lab, CLUSTER)
    converge_apply(workload)
    items = lab.inventory()
    assert inventory.counts(items) == workload.declared
    assert inventory.counts(items, CLUSTER) == workload.declared, "every resource carries the cluster's ownership"
    lab.proxy.clear()
    assert workload.apply().done
    assert lab.proxy.writes() == {}
    converge_delete(workload)
    assert inventory.counts(lab.inventory()) == {}


def test_clean_stack_apply_call_counts_at_the_wire(lab: Lab) -> None:
    lab.reset()
    workload = WORKLOADS["stack"](lab, CLUSTER)
    assert workload.apply().done
    reads, writes = sum(lab.proxy.reads().values()), sum(lab.proxy.writes().values())
    assert reads <= 27 and writes <= 13, f"{reads} reads / {writes} writes: {lab.proxy.reads()} {lab.proxy.writes()}"
    lab.proxy.clear()
    assert workload.apply().done
    assert lab.proxy.writes() == {}


def test_fault_cell(lab: Lab, cell: Cell) -> None:
    outcome = run_cell(lab, cell)
    assert outcome.ok, f"{cell}: " + "; ".join(outcome.problems())


def _owned(lab: Lab, cluster: str) -> set[tuple[str, str]]:
    return inventory.ids(lab.inventory(), cluster)


@pytest.mark.parametrize("name", [n for n, w in WORKLOADS.items() if w.names_coexist])
def test_two_clusters_with_the_same_names_stay_separate(lab: Lab, name: str) -> None:
    """Clusters a and b name every task alike ("shared"); only ownership tells them apart."""
    lab.reset()
    kind = WORKLOADS[name]
    a, b = kind(lab, "a", names="shared"), kind(lab, "b", names="shared")
    declared = Counter({k: 2 * n for k, n in kind.declared.items()})

    converge_apply(a)
    owned_a = _owned(lab, "a")
    assert Counter(k for k, _ in owned_a) == kind.declared
    converge_apply(b)
    owned_b = _owned(lab, "b")
    assert Counter(k for k, _ in owned_b) == kind.declared, "b created its own, adopted none of a's"
    assert _owned(lab, "a") == owned_a and not owned_a & owned_b
    assert inventory.counts(lab.inventory()) == declared

    converge_delete(b)
    assert _owned(lab, "a") == owned_a, "b's delete left a untouched"
    assert inventory.counts(lab.inventory()) == kind.declared
    lab.proxy.clear()
    assert a.apply().done and lab.proxy.writes() == {}, "a still converged"

    b = kind(lab, "b", names="shared")  # b again, after its delete: creates anew
    converge_apply(b)
    owned_b = _owned(lab, "b")
    assert Counter(k for k, _ in owned_b) == kind.declared
    converge_delete(a)
    assert _owned(lab, "b") == owned_b, "a's delete left b untouched"
    converge_delete(b)
    assert inventory.counts(lab.inventory()) == {}
