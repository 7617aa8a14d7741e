"""A create the reads do not show yet is waited for, never made again; a read that needs its
parent is called with it (found by the conformance sweep, issue 12)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2 import Subnet, SubnetCidrReservation, Vpc
from tasklayer_tasks.runtime import CloudTarget, Context, Executor, TaskError
from tasklayer_tasks.runtime.aws.find import natural_params
from tasklayer_tasks.runtime.aws.listing import listable
from tasklayer_tasks.runtime.kops.translate import pass_core
from testbed.stack import Calls, counted_context


@pytest.fixture
def cloud() -> Iterator[tuple[Context, Calls]]:
    with mock_aws():
        yield counted_context()


def hide_vpcs(context: Context) -> None:
    """Every DescribeVpcs answers no VPC (a read lagging behind its create, for ever), and
    CreateVpc's answer holds no tags, so it cannot stand for the read-back."""

    def hide(parsed: dict[str, Any], **_: Any) -> None:
        parsed["Vpcs"] = []

    def untag(parsed: dict[str, Any], **_: Any) -> None:
        parsed.get("Vpc", {}).pop("Tags", None)

    events = context.session.get_component("event_emitter")
    events.register("after-call.ec2.DescribeVpcs", hide)
    events.register("after-call.ec2.CreateVpc", untag)


def test_a_create_never_seen_is_waited_for_not_repeated(cloud: tuple[Context, Calls]) -> None:
    context, calls = cloud
    hide_vpcs(context)
    executor = Executor(CloudTarget(context), sleep=lambda _: None, retry_interval=0.01, task_deadline=0.5)
    with pytest.raises(TaskError, match="created, but not visible yet"):
        executor.run([Vpc(name="unseen", cidr_block="10.0.0.0/16")])
    assert executor.attempts["Vpc/unseen"] > 1  # it was tried again ...
    assert calls.made["CreateVpc"] == 1  # ... by reading, never by a second create


def test_a_read_that_needs_its_parent_is_not_listed_by_owner_and_sends_the_parent(
    cloud: tuple[Context, Calls],
) -> None:
    context, _ = cloud
    vpc = Vpc(name="net", cidr_block="10.0.0.0/16")
    subnet = Subnet(name="net-a", vpc=vpc, cidr_block="10.0.1.0/24", availability_zone="us-east-1a")
    Executor(CloudTarget(context), sleep=lambda _: None).run([vpc, subnet])
    reservation = SubnetCidrReservation(
        name="r", subnet=subnet, cidr="10.0.1.16/28", reservation_type="prefix"
    )
    core = pass_core(reservation, context)
    assert not listable(core)  # GetSubnetCidrReservations cannot be called without a SubnetId
    params = natural_params(core, reservation.desired(), reservation.name, None)
    assert params is not None and params["SubnetId"] == subnet.id
    assert reservation.find(context) is None  # the read is accepted (botocore validates it)


def test_an_error_without_text_is_named_by_its_type() -> None:
    class Broken:
        key = "Vpc/broken"

    executor = Executor(CloudTarget(Context(region="us-east-1", cluster="c")), sleep=lambda _: None)
    failures: list[TaskError] = []
    executor._settle(Broken(), StopIteration(), set(), set(), set(), {}, failures)  # type: ignore[arg-type]
    assert [str(f) for f in failures] == ["Vpc/broken: StopIteration"]
