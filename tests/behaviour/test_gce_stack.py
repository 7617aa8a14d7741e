"""The generated compute tasks against the GCP fake: the kOps behaviours, on Google's API."""

from __future__ import annotations

import pytest

from tasklayer_tasks.runtime import (
    CannotChangeFieldError,
    CloudTarget,
    Context,
    DryRunTarget,
    Executor,
)
from tasklayer_tasks.testing import FakeGcp
from testbed.gce import bodies, gce_stack, gcp_context, writes

INSERTS = sorted(f"compute.{c}.insert" for c in (
    "networks", "subnetworks", "firewalls", "routers", "addresses", "globalAddresses", "healthChecks",
    "targetPools", "forwardingRules", "backendServices", "instanceTemplates", "instanceGroupManagers", "disks"))


@pytest.fixture
def cloud() -> tuple[Context, FakeGcp]:
    return gcp_context()


def apply(context: Context, tasks: list) -> None:
    Executor(CloudTarget(context), sleep=lambda _: None).run(tasks)


def test_clean_apply_inserts_each_resource_once_with_labels_in_the_body(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    apply(context, gce_stack().tasks())
    assert sorted(writes(fake)) == INSERTS
    # the cluster's ownership label (kOps': k8s-io-cluster-name) rides in the insert itself
    assert bodies(fake, "compute.disks.insert")[0]["labels"] == {"role": "etcd", "k8s-io-cluster-name": "demo"}
    subnet = bodies(fake, "compute.subnetworks.insert")[0]
    assert subnet["network"].endswith("/projects/proj/global/networks/demo")  # a selfLink
    igm = bodies(fake, "compute.instanceGroupManagers.insert")[0]
    assert igm["instanceTemplate"].endswith("/global/instanceTemplates/demo-nodes")
    request_ids = [r.query.get("requestId") for r in fake.log if r.method_id.endswith(".insert")]
    assert all(request_ids) and len(set(request_ids)) == len(request_ids)


def test_second_apply_makes_no_mutating_call(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    apply(context, gce_stack().tasks())
    since = len(fake.log)
    apply(context, gce_stack().tasks())
    assert writes(fake, since) == [] and len(fake.log) - since == 13  # one list per collection


def test_the_report_counts_the_requests_the_fake_received(cloud: tuple[Context, FakeGcp]) -> None:
    """Executor.run's report counts GCP calls as they are sent: what the fake logged, the
    inserts as writes and the lists, gets and operation waits as reads."""
    context, fake = cloud
    made = Executor(CloudTarget(context), sleep=lambda _: None).run(gce_stack().tasks())
    assert made.writes == len(writes(fake)) == len(INSERTS)
    assert made.reads + made.writes == len(fake.log) and made.reads > 0
    since = len(fake.log)
    again = Executor(CloudTarget(context), sleep=lambda _: None).run(gce_stack().tasks())
    assert (again.reads, again.writes) == (len(fake.log) - since, 0) and not again.changed


def test_patch_sends_only_the_changed_field(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    apply(context, gce_stack().tasks())
    since = len(fake.log)
    stack = gce_stack()
    stack.ssh.source_ranges = ["10.0.0.0/8"]
    apply(context, stack.tasks())
    assert writes(fake, since) == ["compute.firewalls.patch"]
    # name: the document marks it required for firewalls.patch (annotations.required)
    assert bodies(fake, "compute.firewalls.patch", since) == [{"sourceRanges": ["10.0.0.0/8"], "name": "demo-ssh"}]


def test_set_method_sends_the_current_fingerprint(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    apply(context, gce_stack().tasks())
    current = next(r for u, r in fake.store.items() if u.endswith("/disks/demo-etcd"))["labelFingerprint"]
    since = len(fake.log)
    stack = gce_stack()
    stack.etcd.labels = {"role": "etcd", "backup": "daily"}
    apply(context, stack.tasks())
    assert writes(fake, since) == ["compute.disks.setLabels"]
    assert bodies(fake, "compute.disks.setLabels", since) == [
        {"labels": {"role": "etcd", "backup": "daily", "k8s-io-cluster-name": "demo"}, "labelFingerprint": current}]


def test_action_methods_by_body_and_query(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    apply(context, gce_stack().tasks())
    since = len(fake.log)
    stack = gce_stack()
    stack.etcd.size_gb = "50"
    stack.nodes.target_size = 5
    stack.subnet.ip_cidr_range = "10.0.0.0/16"
    apply(context, stack.tasks())
    assert sorted(writes(fake, since)) == ["compute.disks.resize", "compute.instanceGroupManagers.resize",
                                           "compute.subnetworks.expandIpCidrRange"]
    resize = next(r for r in fake.log[since:] if r.method_id == "compute.instanceGroupManagers.resize")
    assert resize.query["size"] == "5" and resize.body is None
    assert bodies(fake, "compute.disks.resize", since) == [{"sizeGb": "50"}]


def test_create_only_change_fails_before_any_call_naming_it(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    apply(context, gce_stack().tasks())
    since = len(fake.log)
    stack = gce_stack()
    stack.ssh.direction = "EGRESS"
    with pytest.raises(CannotChangeFieldError) as err:
        apply(context, stack.tasks())
    assert err.value.fields == ("direction",) and "Firewall/demo-ssh" in str(err.value)
    assert writes(fake, since) == []


def test_dry_run_plans_and_writes_nothing(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    target = DryRunTarget(context)
    Executor(target, sleep=lambda _: None).run(gce_stack().tasks())
    assert writes(fake) == []
    text = target.plan.format()
    assert "  Network/demo\n    auto_create_subnetworks: False" in text
    assert "network: '<id of Network/demo>'" in text


def test_delete_leaves_nothing(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    apply(context, gce_stack().tasks())
    assert len(fake.store) == 14  # and the instance group the manager made
    Executor(CloudTarget(context), sleep=lambda _: None).delete(gce_stack().tasks())
    assert fake.store == {}
    assert sorted(w.replace(".delete", ".insert") for w in writes(fake) if w.endswith(".delete")) == INSERTS


def test_lost_response_after_commit_is_retried_with_the_same_request_id(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    real = fake.request
    lost = []

    def drop_first_insert_reply(uri: str, method: str = "GET", body=None, headers=None, **kw):  # type: ignore[no-untyped-def]
        reply = real(uri, method, body, headers, **kw)
        if method == "POST" and uri.split("?")[0].endswith("/global/networks") and not lost:
            lost.append(uri)
            raise TimeoutError("the reply was lost after the server committed")
        return reply

    fake.request = drop_first_insert_reply  # type: ignore[method-assign]
    apply(context, [gce_stack().network])
    inserts = [r for r in fake.log if r.method_id == "compute.networks.insert"]
    assert len(inserts) == 2 and inserts[0].query["requestId"] == inserts[1].query["requestId"]
    assert [u for u in fake.store if "/networks/" in u] == [
        "https://compute.googleapis.com/compute/v1/projects/proj/global/networks/demo"]
