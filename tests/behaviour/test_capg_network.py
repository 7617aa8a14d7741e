"""A CAPG-like network reconcile from generated GCP reconcilers, against the GCP fake."""

from __future__ import annotations

from typing import Any

from examples.gcp_network import GcpNetworkReconciler, GcpNetworkSpec
from tasklayer_tasks.gcp.compute.reconcilers import DiskReconciler, NetworkReconciler
from testbed.gce import gcp_context, writes


def converge(net: GcpNetworkReconciler, passes: int = 40) -> int:
    for attempt in range(1, passes + 1):
        if net.reconcile().ready:
            return attempt
    raise AssertionError(f"not Ready: {net.reconcile()}")


def test_converges_through_running_operations_then_writes_nothing() -> None:
    context, fake = gcp_context(operation_polls=1)
    store: dict[str, dict[str, Any]] = {}
    net = GcpNetworkReconciler(context, GcpNetworkSpec("capg"), store)
    first = net.reconcile()
    condition = first.conditions[0]
    assert (condition.status, condition.reason) == ("False", "OperationRunning") and first.requeue_after == 15.0
    assert store["network"]["operation"]["name"].startswith("operation-")
    passes = converge(net)
    assert passes > 1
    assert sorted(writes(fake)) == sorted(["compute.networks.insert", "compute.subnetworks.insert",
                                           "compute.subnetworks.insert", "compute.firewalls.insert",
                                           "compute.routers.insert"])
    assert not any(r.method_id.endswith(".wait") for r in fake.log)  # requeued, never waited
    since = len(fake.log)
    assert net.reconcile().ready and writes(fake, since) == []


def test_ids_are_persisted_before_the_next_call() -> None:
    context, fake = gcp_context(operation_polls=0)
    seen: list[tuple[str, int]] = []
    attempts: list[tuple[str, int]] = []

    last: dict[str, dict[str, Any]] = {}

    def on_persist(key: str, status: dict[str, Any]) -> None:
        # the insert's requestId is persisted before the call (it alone is new), the new identity
        # right after it (the requestId stays beside it until the resource is seen)
        before, last[key] = last.get(key, {}), dict(status)
        begun = set(status) - set(before) == {"createAttempt"}
        (attempts if begun else seen).append((key, len(fake.log)))

    net = GcpNetworkReconciler(context, GcpNetworkSpec("persist"), {}, on_persist=on_persist)
    converge(net)
    inserts = [i + 1 for i, r in enumerate(fake.log) if r.method_id.endswith(".insert")]
    assert sorted(n for _, n in seen) == inserts
    assert sorted(n + 1 for _, n in attempts) == inserts


def test_crash_right_after_insert_makes_no_duplicate() -> None:
    context, fake = gcp_context(operation_polls=0)
    crashed: set[str] = set()

    def crash_once(key: str, status: dict[str, Any]) -> None:
        if key not in crashed:
            crashed.add(key)
            raise RuntimeError(f"controller died after {key}")

    net = GcpNetworkReconciler(context, GcpNetworkSpec("crash"), {}, on_persist=crash_once)
    for _ in range(30):
        try:
            if net.reconcile().ready:
                break
        except RuntimeError:
            continue
    assert net.reconcile().ready
    assert sorted(writes(fake)).count("compute.subnetworks.insert") == 2
    assert writes(fake).count("compute.networks.insert") == 1


def test_unrecorded_network_is_not_owned_and_shared_one_is_only_read() -> None:
    context, fake = gcp_context(operation_polls=0)
    api = fake.build()
    api.networks().insert(project="proj", body={"name": "theirs", "autoCreateSubnetworks": False}).execute()
    since = len(fake.log)
    result = NetworkReconciler(context, "c1").reconcile({"name": "theirs", "autoCreateSubnetworks": False}, {})
    assert result.conditions[0].reason == "NotOwned" and writes(fake, since) == []
    store: dict[str, dict[str, Any]] = {}
    net = GcpNetworkReconciler(context, GcpNetworkSpec("c1", shared_network="theirs"), store)
    converge(net)
    assert store["network"]["selfLink"].endswith("/global/networks/theirs")
    for _ in range(10):
        if not net.delete().requeue_after:
            break
    assert [u.rsplit("/", 1)[-1] for u in fake.store] == ["theirs"]  # only the shared network is left
    assert "compute.networks.delete" not in writes(fake)


def test_labels_carry_ownership_and_delete_spares_what_is_not_owned() -> None:
    context, fake = gcp_context(operation_polls=0)
    status: dict[str, Any] = {}
    disk = DiskReconciler(context, "c2", persist=status.update)
    result = disk.reconcile({"name": "etcd", "sizeGb": "10", "additionalTags": {"role": "etcd"}}, status)
    assert result.ready
    stored = next(r for u, r in fake.store.items() if u.endswith("/disks/etcd"))
    assert stored["labels"] == {"role": "etcd", "capg-cluster-c2": "owned"}
    other = DiskReconciler(context, "someone-else")
    assert other.reconcile({"name": "etcd", "sizeGb": "10"}, {}).conditions[0].reason == "NotOwned"
    other.delete({"name": "etcd"}, {})
    assert any(u.endswith("/disks/etcd") for u in fake.store)
    disk.delete({"name": "etcd"}, status)
    assert not any(u.endswith("/disks/etcd") for u in fake.store)
