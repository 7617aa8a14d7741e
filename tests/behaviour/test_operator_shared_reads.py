"""The operator's reconciles share one listing of each kind by its owner (issue 24 item 4;
runtime/contract/snapshot.py, "across passes"; Context.share_reads), against moto in-process
through the generated kopf handlers, with a clock of the test's own for the window:

- a resync (every object's resume handler, each with its id in its status) lists each kind once
  by the owner's tag, where each reconcile read its own object by id before; the same statuses,
  no write;
- a write through any reconcile (an update, a delete) drops the kept listing: the next find
  never gets the answer from before it, and while writes go on finds read directly;
- what a kept listing does not hold is read directly before anything is created: a resource made
  by someone else after the listing was made is adopted, never made twice;
- a kept listing lasts ``window`` seconds.

Calls are counted at botocore's before-call hook on the context's clients (testbed.stack).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import kopf
import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2.operator import register
from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.contract.ownership import Owner
from tasklayer_tasks.runtime.contract.snapshot import Snapshots
from testbed.stack import Calls, counted_context

CLUSTER = "prod"
LABELS = {"cluster.x-k8s.io/cluster-name": CLUSTER}
WINDOW = 10.0
OWNER_TAG = Owner.capa(CLUSTER).key
KINDS = ("vpcs", "subnets", "securitygroups", "routetables", "internetgateways")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


def handlers(context: Context, shared: bool, clock: Clock) -> dict[tuple[str, str], Any]:
    """The ec2 operator's handler functions by (plural, reason); ``shared``: the context keeps
    listings across reconciles as ``register`` makes it, on the test's clock."""
    registry = kopf.OperatorRegistry()
    register(context, registry, shared_reads=WINDOW if shared else None)
    if shared:
        assert context.snapshots is not None and context.snapshots.window == WINDOW
        context.snapshots = Snapshots(window=WINDOW, clock=clock)
    out = {}
    for handler in registry._changing.get_all_handlers():
        reason = handler.reason.value if handler.reason is not None else "resume"
        out[(handler.selector.any_name, reason)] = handler.fn
    return out


def run(fn: Any, spec: dict[str, Any], status: dict[str, Any]) -> dict[str, Any]:
    """One handler run as kopf makes it; the status it leaves (a pass that stops to store its
    create's token first runs again over that status, as kopf does at once)."""
    for _ in range(3):
        patch = kopf.Patch()
        try:
            fn(spec=spec, status=status, patch=patch, labels=LABELS, namespace="ns", logger=None)
        except kopf.TemporaryError as err:
            if err.delay != 0:
                raise
            status = {**status, **{k: v for k, v in patch.status.items() if v is not None}}
            continue
        return {**status, **{k: v for k, v in patch.status.items() if v is not None}}
    raise AssertionError("the pass never got past storing its create's token")


def specs(units: int) -> list[tuple[str, dict[str, Any]]]:
    """(plural, spec) for ``units`` networks of the five kinds, each VPC's id left to fill."""
    out = []
    for unit in range(units):
        out += [
            ("vpcs", {"name": f"vpc-{unit}", "cidrBlock": f"10.{unit}.0.0/16"}),
            ("subnets", {"name": f"subnet-{unit}", "cidrBlock": f"10.{unit}.1.0/24"}),
            ("securitygroups", {"name": f"sg-{unit}", "groupName": f"sg-{unit}", "description": "x"}),
            ("routetables", {"name": f"rt-{unit}"}),
            ("internetgateways", {"name": f"igw-{unit}"}),
        ]
    return out


def converge(fns: dict[tuple[str, str], Any], units: int) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    objects = []
    vpc_id = ""
    for plural, spec in specs(units):
        if plural == "vpcs":
            status = run(fns[(plural, "create")], spec, {})
            vpc_id = status["id"]
        else:
            if plural != "internetgateways":
                spec = {**spec, "vpcId": vpc_id}
            status = run(fns[(plural, "create")], spec, {})
        assert status["conditions"][0]["status"] == "True", (plural, status)
        objects.append((plural, spec, status))
    return objects


def resync(fns: dict[tuple[str, str], Any], objects: list[tuple[str, dict[str, Any], dict[str, Any]]]) -> list[dict[str, Any]]:
    return [run(fns[(plural, "resume")], spec, status) for plural, spec, status in objects]


def by_owner(calls: Calls) -> list[str]:
    """The reads made, each as its operation, and whether it listed by the owner's tag alone."""
    return [
        f"{op} by owner" if [f["Name"] for f in params.get("Filters", [])] == [f"tag:{OWNER_TAG}"] else op
        for op, params in calls.params
    ]


@pytest.mark.parametrize("shared", [False, True], ids=["each-reads", "shared"])
def test_a_resync_lists_each_kind_once_instead_of_reading_each_object(
    cloud: tuple[Context, Calls], shared: bool
) -> None:
    context, calls = cloud
    clock = Clock()
    fns = handlers(context, shared, clock)
    units = 6
    objects = converge(fns, units)
    clock.now += WINDOW  # the writes of converging are over: the kinds are quiet
    calls.clear()
    statuses = resync(fns, objects)
    assert calls.writes() == {}
    assert [s["id"] for s in statuses] == [s["id"] for _, _, s in objects]
    assert all(s["conditions"][0]["reason"] == "Available" for s in statuses)
    reads = sum(calls.reads().values())
    if not shared:  # before: each reconcile read its own object by id
        assert reads == len(objects) == units * len(KINDS)
        return
    assert sorted(by_owner(calls)) == sorted(
        f"{op} by owner"
        for op in ("DescribeVpcs", "DescribeSubnets", "DescribeSecurityGroups", "DescribeRouteTables", "DescribeInternetGateways")
    )
    assert reads / len(objects) <= 0.2


@pytest.mark.parametrize("write", ["update", "delete"])
def test_a_write_drops_the_kept_listing(cloud: tuple[Context, Calls], write: str) -> None:
    """A reconcile's write (a tag changed; a subnet deleted) drops the listing the others were
    served from: the next find of the kind is never answered from before the write, and while
    the write is recent it reads directly, by id; once the kind is quiet again, one listing."""
    context, calls = cloud
    clock = Clock()
    fns = handlers(context, True, clock)
    objects = converge(fns, 2)
    clock.now += WINDOW
    resync(fns, objects)  # the kept listings are made
    subnets = [(spec, status) for plural, spec, status in objects if plural == "subnets"]
    (spec_a, status_a), (spec_b, status_b) = subnets
    clock.now += 1  # well within the window: the listing made by the resync is still held
    calls.clear()
    if write == "update":
        spec_a = {**spec_a, "additionalTags": {"team": "blue"}}
        status_a = run(fns[("subnets", "update")], spec_a, status_a)
        assert calls.writes() == {"CreateTags": 1}
        assert status_a["tags"]["team"] == "blue"
    else:
        run(fns[("subnets", "delete")], spec_b, status_b)
        assert calls.writes() == {"DeleteSubnet": 1}
    calls.clear()
    again = run(fns[("subnets", "resume")], spec_a, status_a)
    # the kept listing said the subnet had no "team" tag: used, it would be written again
    assert calls.writes() == {}
    assert again["tags"].get("team") == ("blue" if write == "update" else None)
    assert calls.params == [("DescribeSubnets", {"SubnetIds": [status_a["id"]]})]
    clock.now += WINDOW  # quiet again: one listing serves what is left
    calls.clear()
    run(fns[("subnets", "resume")], spec_a, status_a)
    if write == "update":
        run(fns[("subnets", "resume")], spec_b, status_b)
    assert by_owner(calls) == ["DescribeSubnets by owner"] and calls.writes() == {}


def test_what_a_kept_listing_does_not_hold_is_read_before_a_create(cloud: tuple[Context, Calls]) -> None:
    """Made by someone else after the listing was kept (another process; or one not visible
    when it was listed): a new object's find is not answered "none" from the listing, so the
    resource is read and adopted, and nothing is made twice; an object whose id the listing
    does not hold is read by that id."""
    context, calls = cloud
    clock = Clock()
    fns = handlers(context, True, clock)
    objects = converge(fns, 1)
    clock.now += WINDOW
    resync(fns, objects)  # the kept listing of the VPCs holds vpc-0 only
    ec2 = boto3.client("ec2", region_name="us-east-1")
    late = ec2.create_vpc(
        CidrBlock="10.9.0.0/16",
        TagSpecifications=[{"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "late"}, {"Key": OWNER_TAG, "Value": "owned"}]}],
    )["Vpc"]["VpcId"]
    calls.clear()
    status = run(fns[("vpcs", "create")], {"name": "late", "cidrBlock": "10.9.0.0/16"}, {})
    assert status["id"] == late and calls.writes() == {}
    assert [op for op, _ in calls.params] == ["DescribeVpcs"] and by_owner(calls) == ["DescribeVpcs"]
    calls.clear()
    status = run(fns[("vpcs", "resume")], {"name": "late", "cidrBlock": "10.9.0.0/16"}, {"id": late})
    assert status["id"] == late and calls.writes() == {}
    assert calls.params == [("DescribeVpcs", {"VpcIds": [late]})]
    vpcs = ec2.describe_vpcs(Filters=[{"Name": "tag:Name", "Values": ["late"]}])["Vpcs"]
    assert len(vpcs) == 1


def test_a_kept_listing_lasts_the_window(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    clock = Clock()
    fns = handlers(context, True, clock)
    objects = [o for o in converge(fns, 3) if o[0] == "vpcs"]
    clock.now += WINDOW
    calls.clear()
    resync(fns, objects)
    assert by_owner(calls) == ["DescribeVpcs by owner"]
    clock.now += WINDOW - 0.5
    calls.clear()
    resync(fns, objects)
    assert calls.params == []
    clock.now += 0.5
    calls.clear()
    resync(fns, objects)
    assert by_owner(calls) == ["DescribeVpcs by owner"]


def test_a_pass_opened_on_a_context_that_shares_reads_keeps_them(cloud: tuple[Context, Calls]) -> None:
    """A chain's pass (batched_reads) on the operator's context shares the kept snapshots as
    they are and leaves them in place; the context refuses to change them mid-pass."""
    context, _ = cloud
    kept = context.share_reads(WINDOW)
    assert kept is not None and kept.across_passes and not kept.keeps_finds
    with context.batched_reads(listings=False) as snapshots:
        assert snapshots is kept
    assert context.snapshots is kept
    assert context.share_reads(WINDOW) is kept
    context.share_reads(None)
    with context.batched_reads():
        with pytest.raises(RuntimeError):
            context.share_reads(WINDOW)
    assert context.snapshots is None
