"""Batched reads on GCE: a pass lists each collection once per scope (by the cluster's label
where the kind has labels) and serves each task's find from it. Counted from the fake's
request log; every request is judged by the full compute discovery document."""

from __future__ import annotations

from collections import Counter

import pytest

from tasklayer_tasks.gcp.compute import Disk, Firewall, Network
from tasklayer_tasks.runtime import (
    CloudTarget,
    Context,
    DryRunTarget,
    Executor,
    NotOwnedError,
    TaskError,
)
from tasklayer_tasks.runtime.kops.translate import pass_core
from tasklayer_tasks.testing import FakeGcp
from testbed.gce import gce_cluster, gcp_context, writes
from testbed.gcp_requests import RequestValidator


@pytest.fixture
def cloud() -> tuple[Context, FakeGcp]:
    return gcp_context()


def run(context: Context, tasks: list, prune: bool = False) -> None:
    Executor(CloudTarget(context), sleep=lambda _: None).run(tasks, prune=prune)


def reads(fake: FakeGcp, since: int) -> Counter[str]:
    return Counter(r.method_id for r in fake.log[since:] if r.http_method == "GET" and not r.method_id.endswith(".wait"))


def test_converged_reapply_reads_each_collection_once_per_scope(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    tasks = gce_cluster()
    run(context, tasks)
    since = len(fake.log)
    run(context, gce_cluster())
    seen = reads(fake, since)
    assert writes(fake, since) == []
    assert all(op.endswith(".list") for op in seen), seen  # no get: every find from a listing
    assert seen["compute.firewalls.list"] == 1 and seen["compute.disks.list"] == 3  # one per zone
    assert sum(seen.values()) / len(tasks) <= 0.5
    judge = RequestValidator("compute")
    refused = [v for r in fake.log for v in judge.check(r.method_id, r.http_method, r.path, r.query, r.body)]
    assert refused == []


def test_labelled_kinds_are_listed_by_the_cluster_label(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    run(context, gce_cluster())
    since = len(fake.log)
    run(context, gce_cluster())
    filters = {r.query.get("filter") for r in fake.log[since:] if r.method_id == "compute.disks.list"}
    assert filters == {'labels.k8s-io-cluster-name = "demo"'}
    # a network carries no labels: its collection is listed whole and matched by name
    assert {r.query.get("filter") for r in fake.log[since:] if r.method_id == "compute.networks.list"} == {None}


def test_another_clusters_same_named_disk_is_refused_not_adopted(cloud: tuple[Context, FakeGcp]) -> None:
    """Not in our label's listing: the direct read sees theirs and the task refuses it."""
    context, fake = cloud
    other = Context(project="proj", region="us-central1", zone="us-central1-a", cluster="other", http=fake,
                    retry=context.retry)
    run(other, [Disk(name="shared-name", size_gb="20")])
    with pytest.raises((NotOwnedError, TaskError), match="shared-name"):
        run(context, [Disk(name="shared-name", size_gb="20")])
    assert [w for w in writes(fake) if w == "compute.disks.insert"] == ["compute.disks.insert"]


def test_a_write_drops_the_listing_so_a_later_find_sees_it(cloud: tuple[Context, FakeGcp]) -> None:
    """The network is created in the pass; the firewall that refers to it and the second pass see
    it (no stale empty listing is kept across the write)."""
    context, fake = cloud
    network = Network(name="demo", auto_create_subnetworks=False)
    run(context, [network, Firewall(name="demo-ssh", network=network, source_ranges=["0.0.0.0/0"],
                                    allowed=[{"IPProtocol": "tcp", "ports": ["22"]}])])
    since = len(fake.log)
    network = Network(name="demo", auto_create_subnetworks=False)
    run(context, [network, Firewall(name="demo-ssh", network=network, source_ranges=["0.0.0.0/0"],
                                    allowed=[{"IPProtocol": "tcp", "ports": ["22"]}])])
    assert writes(fake, since) == []


def test_deleted_out_of_band_is_recreated(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    run(context, gce_cluster())
    url = next(u for u in fake.store if u.endswith("/disks/demo-etcd-main-a"))
    del fake.store[url]
    since = len(fake.log)
    run(context, gce_cluster())
    assert writes(fake, since) == ["compute.disks.insert"]


def test_prune_deletes_an_undeclared_labelled_disk_only_when_asked(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    run(context, gce_cluster())
    fewer = [t for t in gce_cluster() if t.name != "demo-etcd-events-c"]
    plan = Executor(DryRunTarget(context), sleep=lambda _: None)
    plan.run(fewer, prune=True)
    assert plan.target.plan.format() == "Will delete resources:\n  Disk/demo-etcd-events-c\n"
    since = len(fake.log)
    run(context, fewer)
    assert writes(fake, since) == []
    run(context, fewer, prune=True)
    assert writes(fake, since) == ["compute.disks.delete"]


def listings(fake: FakeGcp, since: int = 0) -> Counter[tuple[str, str]]:
    """How often each collection was listed, by method and scope (its path)."""
    return Counter((r.method_id, r.path) for r in fake.log[since:] if r.method_id.endswith(".list") and not
                   r.query.get("pageToken"))


def test_a_clean_apply_lists_each_collection_once_per_scope_however_the_tasks_interleave() -> None:
    """Nine firewalls, six managed groups and six disks over three zones, created concurrently:
    a create drops only its own item (and the items its references name) from the pass's
    listings, so no create makes the next task of its kind list the collection again. The same
    reads on every run: a listing per collection and scope, a get per resource made (its
    read-back) and, for the labelled kinds, a get confirming each name not in the cluster's
    listing (another owner's must still be seen)."""
    totals = set()
    for _ in range(5):
        context, fake = gcp_context()
        tasks = gce_cluster()
        run(context, tasks)
        counted = listings(fake)
        assert set(counted.values()) == {1}, [k for k, n in counted.items() if n > 1]
        assert len(counted) == 15  # 9 global or regional collections, disks and groups in 3 zones
        assert len(tasks) == 32
        totals.add(sum(reads(fake, 0).values()))
    assert totals == {55}  # 15 listings, 32 read-backs (one per task), 8 misses confirmed (2 + 6 disks)


def firewall(name: str) -> Firewall:
    return Firewall(name=name, network="projects/proj/global/networks/demo", source_ranges=["0.0.0.0/0"],
                    allowed=[{"IPProtocol": "tcp", "ports": ["22"]}])


def test_an_item_written_in_the_pass_is_read_directly_the_rest_from_the_listing(cloud: tuple[Context, FakeGcp]) -> None:
    """After the pass writes a firewall, a find for it never takes the listing's word (made before
    the write) and reads it; a find for another firewall is still served from that listing. A
    subnetwork's create names its network: the network's item is read directly too."""
    context, fake = cloud
    run(context, [Network(name="demo", auto_create_subnetworks=False), firewall("demo-a"), firewall("demo-b")])
    with context.batched_reads():
        core = pass_core(firewall("demo-a"), context)
        owner = firewall("demo-a").owner(context)
        desired_a, desired_b = firewall("demo-a").desired(), firewall("demo-b").desired()
        assert [s["name"] for s in core.find_listed(desired_a, "demo-a", owner=owner)] == ["demo-a"]
        network = Network(name="demo", auto_create_subnetworks=False)
        network_core = pass_core(network, context)
        assert [s["name"] for s in network_core.find_listed(network.desired(), "demo", owner=owner)] == ["demo"]
        core.update(core.find(desired_a, "demo-a")[0], {"sourceRanges": ["10.0.0.0/8"]})
        since = len(fake.log)
        assert core.find_listed(desired_a, "demo-a", owner=owner) is None  # written: read it directly
        assert [s["name"] for s in core.find_listed(desired_b, "demo-b", owner=owner)] == ["demo-b"]
        assert listings(fake, since) == Counter()  # from the listing made before the write
        # the firewall's call carried its network: that item is read directly too
        assert network_core.find_listed(network.desired(), "demo", owner=owner) is None
