"""A reconciler spec key no field has (a typo) is refused before any cloud call, as a terminal
condition naming the key and the nearest valid one; the kopf operator stops retrying it."""

from __future__ import annotations

from collections.abc import Iterator

import kopf
import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2.operator import register
from tasklayer_tasks.aws.ec2.reconcilers import SubnetReconciler, VpcReconciler
from tasklayer_tasks.runtime import Context
from testbed.stack import Calls, counted_context


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


def test_unknown_spec_key_is_terminal_and_makes_no_call(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    status: dict = {}
    result = VpcReconciler(context, cluster="prod", persist=status.update).reconcile(
        {"name": "typo", "cidrBlok": "10.0.0.0/16"}, status
    )
    ready = result.conditions[0]
    assert (ready.type, ready.status, ready.reason, ready.severity) == ("Ready", "False", "InvalidSpec", "Error")
    assert "'cidrBlok'" in ready.message and "did you mean 'cidrBlock'" in ready.message
    assert result.requeue_after is None  # only a changed spec can fix it
    assert sum(calls.made.values()) == 0 and status == {}


def test_every_unknown_key_is_named_and_valid_keys_pass(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    rec = SubnetReconciler(context, cluster="prod")
    result = rec.reconcile({"name": "a", "vpcID": "vpc-1", "cidrBlock": "10.0.1.0/24", "zzz": 1}, {})
    message = result.conditions[0].message
    assert "'vpcID' (did you mean 'vpcId'?)" in message and "'zzz'" in message
    assert sum(calls.made.values()) == 0
    assert {"name", "shared", "additionalTags", "vpcId", "cidrBlock"} <= rec.spec_keys()
    assert "subnetId" not in rec.spec_keys()  # read-only: the cloud's to say


def test_operator_turns_invalid_spec_into_a_permanent_error(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    registry = kopf.OperatorRegistry()
    register(context, registry)
    create = next(
        h for h in registry._changing.get_all_handlers()
        if h.selector.any_name == "vpcs" and h.reason is not None and h.reason.value == "create"
    )
    labels = {"cluster.x-k8s.io/cluster-name": "prod"}
    patch = kopf.Patch()
    with pytest.raises(kopf.PermanentError, match="InvalidSpec: .*cidrBlok"):
        create.fn(spec={"name": "prod", "cidrBlok": "10.0.0.0/16"}, status={}, patch=patch, labels=labels,
                  namespace="capi-prod", name="main", meta={"labels": labels}, logger=None)
    assert patch.status["conditions"][0]["reason"] == "InvalidSpec"
    assert sum(calls.made.values()) == 0
