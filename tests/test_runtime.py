"""The runtime's own rules: diffing, redaction, retries, eventual consistency, the executor."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import botocore.awsrequest
import pytest
from moto import mock_aws

from tasklayer_tasks.aws.ec2 import SecurityGroup, Vpc
from tasklayer_tasks.runtime import (
    AwsTask,
    CloudTarget,
    DependencyCycleError,
    Executor,
    TaskError,
    TryAgainLater,
)
from tasklayer_tasks.runtime.contract.calls import CallCount
from tasklayer_tasks.runtime.contract.diff import compute_changes, shown
from tasklayer_tasks.runtime.contract.spec import FieldSpec, ResourceSpec
from testbed.stack import counted_context

SPEC = ResourceSpec(
    service="toy", name="Thing",
    fields=(
        FieldSpec(name="Password", attr="password", mutability="mutable", sensitive=True),
        FieldSpec(name="Ports", attr="ports", mutability="mutable", unordered=True),
        FieldSpec(name="Secret", attr="secret", mutability="create_only", write_only=True),
        FieldSpec(name="State", attr="state", mutability="read_only"),
        FieldSpec(name="Tags", attr="tags", mutability="mutable", is_tags=True),
    ),
    primary=("Id",), natural=(), parent=(), arn=None, create=None, read=None, updates=(), delete=None, tags=None,
)


def test_diff_rules() -> None:
    actual = {"Password": "a", "Ports": [1, 2], "Secret": None, "State": "up", "Tags": {"Name": "x", "Other": "y"}}
    desired = {"Password": "a", "Ports": [2, 1], "Secret": "s", "State": "down", "Tags": {"Name": "x"}}
    assert compute_changes(SPEC, actual, desired) == {}  # order, write-only, read-only, unmanaged tags
    desired = {"Ports": [2, 2], "Tags": {"Name": "z"}, "Password": None}
    assert compute_changes(SPEC, actual, desired) == {"Ports": ([1, 2], [2, 2]), "Tags": ({"Name": "x"}, {"Name": "z"})}


def test_sensitive_values_are_redacted() -> None:
    assert shown(SPEC, "Password", "hunter2") == "<redacted>"
    assert shown(SPEC, "Ports", [1]) == "[1]"


@pytest.fixture
def cloud() -> Iterator[Any]:
    with mock_aws():
        yield counted_context()


def _error(code: str, status: int = 400) -> tuple[botocore.awsrequest.AWSResponse, dict[str, Any]]:
    response = botocore.awsrequest.AWSResponse("https://example.invalid", status, {}, None)
    return response, {"Error": {"Code": code, "Message": code}, "ResponseMetadata": {"HTTPStatusCode": status}}


def _fail_first(context: Any, operation: str, code: str, times: int) -> list[int]:
    seen = [0]

    def hook(model: Any, **_: Any) -> Any:
        if model.name == operation and seen[0] < times:
            seen[0] += 1
            return _error(code)
        return None

    context.session.get_component("event_emitter").register_first(f"before-call.ec2.{operation}", hook)  # on every client made
    return seen


def test_throttled_create_is_retried_and_made_once(cloud: Any) -> None:
    context, calls = cloud
    failed = _fail_first(context, "CreateVpc", "RequestLimitExceeded", times=2)
    vpc = Vpc(name="throttled", cidr_block="10.0.0.0/16")
    Executor(CloudTarget(context), sleep=lambda _: None).run([vpc])
    assert failed[0] == 2 and calls.made["CreateVpc"] == 3  # two throttled attempts, then one that worked
    import boto3
    vpcs = boto3.client("ec2", region_name="us-east-1").describe_vpcs(
        Filters=[{"Name": "tag:Name", "Values": ["throttled"]}])["Vpcs"]
    assert [v["VpcId"] for v in vpcs] == [vpc.id]


def test_not_found_right_after_create_is_eventual_consistency(cloud: Any) -> None:
    # CreateSecurityGroup answers only the GroupId, so the group is read back; the first reads
    # do not see it yet
    context, calls = cloud
    vpc = Vpc(name="slow", cidr_block="10.0.0.0/16")
    group = SecurityGroup(name="slow", group_name="slow", description="slow", vpc=vpc)
    created = []
    context.session.register("after-call.ec2.CreateSecurityGroup", lambda **kw: created.append(1))
    seen = [0]

    def not_yet(model: Any, **_: Any) -> Any:
        if created and seen[0] < 2:
            seen[0] += 1
            return _error("InvalidGroup.NotFound")
        return None

    context.session.get_component("event_emitter").register_first("before-call.ec2.DescribeSecurityGroups", not_yet)
    Executor(CloudTarget(context), sleep=lambda _: None).run([group])
    assert seen[0] == 2 and calls.writes() == {"CreateVpc": 1, "CreateSecurityGroup": 1}
    assert group.resource_id and group.resource_id.startswith("sg-")


def test_a_changed_attribute_is_read_back_alone(cloud: Any) -> None:
    # after CreateVpc (whose answer is the VPC) only the attribute switched on is read again:
    # not the VPC listing, not the attribute left alone
    context, calls = cloud
    Executor(CloudTarget(context), sleep=lambda _: None).run(
        [Vpc(name="dns", cidr_block="10.1.0.0/16", enable_dns_hostnames=True, enable_dns_support=True)])
    assert calls.writes() == {"CreateVpc": 1, "ModifyVpcAttribute": 1}
    assert calls.made["DescribeVpcs"] == 1  # the pass's listing, none after the change
    assert calls.made["DescribeVpcAttribute"] == 3  # both after the create, hostnames after the change


@dataclass(kw_only=True, eq=False)
class Step(AwsTask):
    """A stand-in task for exercising the executor alone."""

    after: list[AwsTask] | None = None
    ready_after: int = 0
    spec: ClassVar[ResourceSpec] = SPEC

    def dependencies(self) -> list[AwsTask]:
        return list(self.after or [])

    def run(self, context: Any, target: Any) -> None:
        RUNNING.append(self.name)
        try:
            time.sleep(0.02)
            if self.ready_after > 0:
                self.ready_after -= 1
                raise TryAgainLater(f"{self.key}: not ready")
            ORDER.append(self.name)
        finally:
            RUNNING.remove(self.name)
            PEAK[0] = max(PEAK[0], len(RUNNING) + 1)


RUNNING: list[str] = []
ORDER: list[str] = []
PEAK = [0]


@pytest.fixture(autouse=True)
def _reset() -> None:
    RUNNING.clear()
    ORDER.clear()
    PEAK[0] = 0


class _Target:
    dry_run = False
    context = None


def test_executor_runs_dependencies_first_and_bounds_concurrency() -> None:
    a = Step(name="a")
    leaves = [Step(name=f"leaf{i}", after=[a]) for i in range(6)]
    Executor(_Target(), max_concurrency=2, sleep=lambda _: None).run(leaves)  # type: ignore[arg-type]
    assert ORDER[0] == "a" and sorted(ORDER[1:]) == [f"leaf{i}" for i in range(6)]
    assert PEAK[0] <= 2


def test_with_one_worker_the_head_of_the_longest_chain_goes_first() -> None:
    # "a…" leaves sort first by name; "z0" heads a chain of three: it must not wait behind them
    leaves = [Step(name=f"a{i}") for i in range(3)]
    z0 = Step(name="z0")
    z2 = Step(name="z2", after=[Step(name="z1", after=[z0])])
    Executor(_Target(), max_concurrency=1, sleep=lambda _: None).run([*leaves, z2])  # type: ignore[arg-type]
    assert ORDER[:2] == ["z0", "z1"] and sorted(ORDER[2:]) == ["a0", "a1", "a2", "z2"]


def test_a_run_ends_when_only_a_waiting_task_and_an_early_listing_are_left() -> None:
    # "a" asks to try again while the listing made early for "b"'s kind is still under way: no
    # task runs, one listing does. The executor must wait for the listing, then give "a" its
    # retry (a finished listing left in its books made it spin for ever).
    import dataclasses
    from contextlib import nullcontext

    listed = threading.Event()

    class _Core:
        snapshots = None

        def listed_owned(self, owner: Any) -> None:
            time.sleep(0.2)
            listed.set()

    class Listed(Step):
        spec: ClassVar[ResourceSpec] = dataclasses.replace(SPEC, name="Other")

        def core(self, context: Any) -> Any:
            return _Core()

        def owner(self, context: Any) -> Any:
            return None

    class _Context:
        cluster = "demo"
        calls = CallCount()
        snapshots = None
        owner = None  # Context.owner: the task's own convention
        owner_marks: dict[str, str] = {}

        def batched_reads(self) -> Any:
            return nullcontext()

    class _WithContext(_Target):
        context = _Context()

    a = Step(name="a", ready_after=1)
    b = Listed(name="b", after=[a])
    done = threading.Event()
    runner = threading.Thread(
        target=lambda: (Executor(_WithContext(), sleep=lambda _: None, retry_interval=0.01).run([b]),  # type: ignore[arg-type]
                        done.set()),
        daemon=True)
    runner.start()
    assert done.wait(10), "the run did not end"
    assert listed.is_set() and ORDER == ["a", "b"]


def test_try_again_later_is_retried_quietly_until_ready() -> None:
    slow = Step(name="slow", ready_after=2)
    after = Step(name="after", after=[slow])
    executor = Executor(_Target(), sleep=lambda _: None)  # type: ignore[arg-type]
    executor.run([after])
    assert ORDER == ["slow", "after"] and executor.attempts["Thing/slow"] == 3


def test_deadline_ends_a_task_that_never_gets_ready() -> None:
    clock = iter(range(0, 10_000, 100))
    never = Step(name="never", ready_after=10**6)
    with pytest.raises(TaskError, match=r"Thing/never: gave up after 300s"):
        Executor(_Target(), task_deadline=300, clock=lambda: float(next(clock)),  # type: ignore[arg-type]
                 sleep=lambda _: None).run([never])


def test_cycle_is_a_clear_error_naming_the_tasks() -> None:
    a, b = Step(name="a"), Step(name="b")
    a.after, b.after = [b], [a]
    with pytest.raises(DependencyCycleError) as err:
        Executor(_Target()).run([a])  # type: ignore[arg-type]
    assert set(err.value.cycle) == {"Thing/a", "Thing/b"} and "cycle" in str(err.value)
    assert ORDER == []


def test_concurrent_callers_get_one_shared_client(cloud: Any) -> None:
    context, _ = cloud
    clients = []
    threads = [threading.Thread(target=lambda: clients.append(context.client("ec2"))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(c) for c in clients}) == 1


def test_warn_if_insufficient_access_turns_access_denied_into_a_warning(cloud: Any) -> None:
    from tasklayer_tasks.runtime import Lifecycle

    context, calls = cloud
    _fail_first(context, "DescribeVpcs", "UnauthorizedOperation", times=10)
    target = CloudTarget(context)
    Executor(target, sleep=lambda _: None).run(
        [Vpc(name="denied", cidr_block="10.0.0.0/16", lifecycle=Lifecycle.WARN_IF_INSUFFICIENT_ACCESS)]
    )
    assert calls.writes() == {} and len(target.warnings) == 1 and "Vpc/denied" in target.warnings[0]
    with pytest.raises(TaskError, match="UnauthorizedOperation"):
        Executor(target, sleep=lambda _: None).run([Vpc(name="denied", cidr_block="10.0.0.0/16")])
