"""The kopf adapter, invoked in-process with realistic bodies against moto: handlers are
registered per resource (delete behind a finalizer), and the status patches are asserted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import kopf
import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2.operator import GROUP, RECONCILERS, VERSION, register
from tasklayer_tasks.runtime import Context
from testbed.stack import Calls, counted_context

LABELS = {"cluster.x-k8s.io/cluster-name": "prod"}


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


@pytest.fixture
def handlers(cloud: tuple[Context, Calls]) -> dict[tuple[str, str], Any]:
    registry = kopf.OperatorRegistry()
    register(cloud[0], registry)
    out = {}
    for handler in registry._changing.get_all_handlers():
        reason = handler.reason.value if handler.reason is not None else "resume" if handler.initial else "?"
        out[(handler.selector.any_name, reason)] = handler
    return out


def body(spec: dict[str, Any], status: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"spec": spec, "status": status or {}, "labels": LABELS, "namespace": "capi-prod",
            "name": "main", "meta": {"labels": LABELS}, "logger": None}


def run(handler: Any, patch: kopf.Patch, spec: dict[str, Any], status: dict[str, Any] | None = None) -> None:
    """Run a reconcile handler as kopf does: a pass that stops to store its create's token
    first (a TemporaryError with no delay) runs again over the status with that patch written."""
    status = dict(status or {})
    for _ in range(3):
        try:
            handler.fn(patch=patch, **body(spec, status))
            return
        except kopf.TemporaryError as err:
            if err.delay != 0:
                raise
            status = {**status, **{k: v for k, v in patch.status.items() if v is not None}}
    raise AssertionError("the pass never got past storing its create's token")


def test_every_resource_has_create_update_resume_and_finalized_delete(handlers: dict[tuple[str, str], Any]) -> None:
    assert GROUP == "ec2.aws.tasklayer.dev" and VERSION == "v1alpha1"
    for plural in RECONCILERS:
        for reason in ("create", "update", "resume", "delete"):
            assert (plural, reason) in handlers, (plural, reason)
        assert handlers[(plural, "delete")].requires_finalizer


def test_create_patches_status_with_id_and_ready_condition(handlers: dict, cloud: tuple[Context, Calls]) -> None:
    _, calls = cloud
    patch = kopf.Patch()
    spec = {"name": "prod", "cidrBlock": "10.0.0.0/16", "enableDnsHostnames": True}
    run(handlers[("vpcs", "create")], patch, spec)
    assert patch.status["id"].startswith("vpc-") and patch.status["cidrBlock"] == "10.0.0.0/16"
    ready = patch.status["conditions"][0]
    assert (ready["type"], ready["status"], ready["reason"]) == ("Ready", "True", "Available")
    assert patch.status["tags"]["sigs.k8s.io/cluster-api-provider-aws/cluster/prod"] == "owned"
    calls.clear()
    again = kopf.Patch()
    handlers[("vpcs", "update")].fn(patch=again, **body(spec, dict(patch.status)))
    assert calls.writes() == {} and again.status["id"] == patch.status["id"]


def test_requeue_becomes_a_temporary_error_with_the_delay(handlers: dict, cloud: tuple[Context, Calls]) -> None:
    context, _ = cloud
    context.client("ec2").meta.events.register(
        "after-call.ec2.DescribeNatGateways",
        lambda parsed, **_: [n.update(State="pending") for n in parsed.get("NatGateways", [])])
    # as AWS answers CreateNatGateway (moto says available at once): its answer is the read-back
    context.client("ec2").meta.events.register(
        "after-call.ec2.CreateNatGateway",
        lambda parsed, **_: parsed.get("NatGateway", {}).update(State="pending"))
    vpc, subnet, eip = kopf.Patch(), kopf.Patch(), kopf.Patch()
    run(handlers[("vpcs", "create")], vpc, {"name": "prod", "cidrBlock": "10.0.0.0/16"})
    run(handlers[("subnets", "create")], subnet,
        {"name": "prod-a", "vpcId": vpc.status["id"], "cidrBlock": "10.0.1.0/24"})
    run(handlers[("elasticips", "create")], eip, {"name": "prod-nat", "domain": "vpc"})
    nat = kopf.Patch()
    with pytest.raises(kopf.TemporaryError) as err:
        run(handlers[("natgateways", "create")], nat,
            {"name": "prod", "subnetId": subnet.status["id"], "allocationId": eip.status["id"]})
    assert err.value.delay == 15.0 and "Pending" in str(err.value)
    assert nat.status["id"].startswith("nat-")  # persisted although not ready
    assert nat.status["conditions"][0]["reason"] == "Pending"


def test_not_owned_is_a_permanent_error(handlers: dict, cloud: tuple[Context, Calls]) -> None:
    import boto3

    theirs = boto3.client("ec2", region_name="us-east-1").create_vpc(CidrBlock="10.0.0.0/16", TagSpecifications=[
        {"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "theirs"}]}])["Vpc"]["VpcId"]
    patch = kopf.Patch()
    # an object whose status names a VPC this cluster does not own (edited, or copied from another)
    with pytest.raises(kopf.PermanentError, match="NotOwned"):
        run(handlers[("vpcs", "create")], patch, {"name": "theirs", "cidrBlock": "10.0.0.0/16"}, {"id": theirs})
    assert patch.status["conditions"][0]["reason"] == "NotOwned"


def test_delete_removes_the_resource_and_tolerates_it_being_gone(handlers: dict, cloud: tuple[Context, Calls]) -> None:
    _, calls = cloud
    patch = kopf.Patch()
    spec = {"name": "prod", "cidrBlock": "10.0.0.0/16"}
    run(handlers[("vpcs", "create")], patch, spec)
    status = dict(patch.status)
    handlers[("vpcs", "delete")].fn(patch=kopf.Patch(), **body(spec, status))
    assert calls.writes()["DeleteVpc"] == 1
    calls.clear()
    handlers[("vpcs", "delete")].fn(patch=kopf.Patch(), **body(spec, status))
    assert calls.writes() == {}


def test_gcp_handlers_requeue_while_the_operation_runs() -> None:
    from tasklayer_tasks.gcp.compute.operator import GROUP as GCP_GROUP
    from tasklayer_tasks.gcp.compute.operator import register as register_gcp
    from testbed.gce import gcp_context, writes

    context, fake = gcp_context(operation_polls=1)
    registry = kopf.OperatorRegistry()
    register_gcp(context, registry)
    create = next(h for h in registry._changing.get_all_handlers()
                  if h.selector.any_name == "networks" and h.reason is not None and h.reason.value == "create")
    assert GCP_GROUP == "compute.gcp.tasklayer.dev"
    spec = {"name": "prod", "autoCreateSubnetworks": False}
    patch = kopf.Patch()
    with pytest.raises(kopf.TemporaryError, match="OperationRunning"):
        run(create, patch, spec)
    assert patch.status["operation"]["name"].startswith("operation-")
    done = kopf.Patch()
    create.fn(patch=done, **body(spec, dict(patch.status)))
    assert done.status["conditions"][0]["reason"] == "Available" and done.status["operation"] is None
    assert done.status["selfLink"].endswith("/global/networks/prod")
    assert writes(fake) == ["compute.networks.insert"]


def test_last_transition_time_moves_only_when_ready_changes(cloud: tuple[Context, Calls]) -> None:
    from tasklayer_tasks.aws.ec2.reconcilers import VpcReconciler

    context, _ = cloud
    ticks = iter(f"2026-11-30T00:00:0{i}Z" for i in range(10))
    reconciler = VpcReconciler(context, "prod", clock=lambda: next(ticks))
    spec = {"name": "prod", "cidrBlock": "10.0.0.0/16"}
    first = reconciler.reconcile(spec, {})
    status = {**first.status, "conditions": [c.as_dict() for c in first.conditions]}
    second = reconciler.reconcile(spec, status)
    assert first.conditions[0].last_transition_time == second.conditions[0].last_transition_time
    gone = reconciler.delete(spec, {**second.status, "conditions": [c.as_dict() for c in second.conditions]})
    assert gone.conditions[0].status == "False"
    assert gone.conditions[0].last_transition_time != second.conditions[0].last_transition_time
