"""A chain of reconcilers' pass (runtime/capi/steps.py) reads each thing once, against moto: the
internet gateway is read by id once for its own step, its attachment (which lives in the
gateway's item) and the attachment's owner check; a route table once for itself, its route and
its associations. Only finds' own reads are kept for the pass (nothing is listed by owner):
every write drops the reads it makes stale, and the looks after a lost answer read afresh.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ReadTimeoutError
from moto import mock_aws

from examples.aws_network import NetworkReconciler, NetworkSpec
from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.contract.ownership import ATTEMPT_TAG
from testbed.stack import Calls, counted_context


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


def converged(context: Context, cluster: str) -> tuple[NetworkReconciler, dict[str, Any]]:
    store: dict[str, dict[str, Any]] = {}
    net = NetworkReconciler(context, NetworkSpec(cluster), store)
    assert any(net.reconcile().ready for _ in range(10))
    return net, store


def sent(calls: Calls) -> Counter[tuple[str, str]]:
    return Counter((op, json.dumps(params, sort_keys=True)) for op, params in calls.params)


def test_a_converged_pass_reads_each_thing_once(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    net, store = converged(context, "once")
    calls.clear()
    assert net.reconcile().ready
    assert calls.writes() == {}
    repeated = {call: n for call, n in sent(calls).items() if n > 1}
    assert repeated == {}  # before: the gateway 3 times, each route table 5 times
    gateway = ("DescribeInternetGateways", json.dumps({"InternetGatewayIds": [store["igw"]["id"]]}))
    assert sent(calls)[gateway] == 1
    assert calls.reads()["DescribeRouteTables"] == 2  # one per table
    # no listing by the owner's tag alone: every read names what it finds
    for op, params in calls.params:
        filters = {f["Name"] for f in params.get("Filters", [])}
        assert filters != {"tag:sigs.k8s.io/cluster-api-provider-aws/cluster/once"}, (op, params)


def test_a_write_in_the_pass_drops_the_reads_it_made_stale(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    net, store = converged(context, "stale")
    public = store["rt/public"]["id"]
    boto3.client("ec2", region_name="us-east-1").delete_route(
        RouteTableId=public, DestinationCidrBlock="0.0.0.0/0"
    )
    calls.clear()
    assert net.reconcile().ready
    assert calls.writes() == {"CreateRoute": 1}
    order = [
        op
        for op, params in calls.params
        if op == "CreateRoute" or params.get("RouteTableIds") == [public]
    ]
    # the table read once for itself and its route (which is missing); the route made; then the
    # read-back and the associations' find read the table afresh, never the copy from before
    assert order == ["DescribeRouteTables", "CreateRoute", "DescribeRouteTables", "DescribeRouteTables"]


def test_the_looks_after_a_lost_answer_read_afresh_within_a_chain_pass(
    cloud: tuple[Context, Calls],
) -> None:
    """CreateSubnet commits but its answer is lost; the subnet is not visible to the first two
    looks. The patient look by the attempt's marker reads three times and adopts it in the same
    pass: no look is served from the pass's kept reads, and nothing is created twice."""
    context, calls = cloud
    seen = {"lost": False, "hidden": 0, "looks": 0}

    def lose(**_: Any) -> None:
        if not seen["lost"]:
            seen["lost"] = True
            raise ReadTimeoutError(endpoint_url="https://ec2.us-east-1.amazonaws.com")

    def hide(parsed: dict[str, Any], **_: Any) -> None:
        if seen["lost"] and seen["hidden"] < 2:
            seen["hidden"] += 1
            parsed["Subnets"] = []

    context.session.register("after-call.ec2.CreateSubnet", lose)
    context.session.register("after-call.ec2.DescribeSubnets", hide)
    store: dict[str, dict[str, Any]] = {}
    net = NetworkReconciler(context, NetworkSpec("lost"), store)
    assert net.reconcile().ready  # one pass: the lost create's subnet adopted in it
    looks = [
        params
        for op, params in calls.params
        if op == "DescribeSubnets"
        and any(f["Name"] == f"tag:{ATTEMPT_TAG}" for f in params.get("Filters", []))
    ]
    assert len(looks) == 3 and seen["hidden"] == 2
    assert calls.writes()["CreateSubnet"] == 2  # one per subnet
    subnets = boto3.client("ec2", region_name="us-east-1").describe_subnets()["Subnets"]
    assert sorted(s["CidrBlock"] for s in subnets if s.get("Tags")) == ["10.0.0.0/20", "10.0.16.0/20"]
