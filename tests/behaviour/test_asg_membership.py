"""An Auto Scaling group's target groups as a membership list, against moto_server: the
group is created with one, a second is attached by AttachLoadBalancerTargetGroups, a swap is
one Detach and one Attach (each carrying every item of its side in one call, the member taking
a list), re-applying writes nothing, and delete sends no detach (the API deletes a group that
has target groups)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import botocore.session
import pytest

from tasklayer_tasks.aws.autoscaling import AutoScalingGroup
from tasklayer_tasks.aws.ec2 import LaunchTemplate, Subnet, Vpc
from tasklayer_tasks.aws.elbv2 import TargetGroup
from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from testbed.moto import MotoServer

IMAGE = "ami-12c6146b"  # an image moto knows
READS = ("Describe", "Get", "List")


@pytest.fixture(scope="module")
def server() -> Iterator[MotoServer]:
    with MotoServer() as moto:
        yield moto


@pytest.fixture
def cloud(
    server: MotoServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Context, list[tuple[str, dict[str, Any]]], Any]]:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    server.reset()
    session = botocore.session.get_session()
    sent: list[tuple[str, dict[str, Any]]] = []
    session.register("provide-client-params.*.*",
                     lambda params, event_name, **_: sent.append((event_name.rsplit(".", 1)[-1], dict(params))))
    context = Context(region="us-east-1", cluster="demo", endpoint_url=server.url, session=session,
                      retry=RetryPolicy(sleep=lambda _: None))
    yield context, sent, boto3.client("autoscaling", region_name="us-east-1", endpoint_url=server.url)


def tasks(groups: list[str]) -> list[Any]:
    vpc = Vpc(name="demo", cidr_block="10.0.0.0/16")
    subnet = Subnet(name="demo-a", vpc=vpc, cidr_block="10.0.1.0/24", availability_zone="us-east-1a")
    targets = {n: TargetGroup(name=n, protocol="TCP", port=port, vpc_id=vpc, target_type="instance")
               for n, port in (("tg-a", 443), ("tg-b", 8443), ("tg-c", 9443))}
    template = LaunchTemplate(name="nodes", launch_template_name="nodes",
                              launch_template_data={"ImageId": IMAGE, "InstanceType": "t3.medium"})
    asg = AutoScalingGroup(name="nodes", auto_scaling_group_name="nodes", min_size=0, max_size=0,
                           launch_template={"LaunchTemplateId": template, "Version": "$Default"},
                           vpc_zone_identifier=subnet,
                           target_group_arns=[targets[n] for n in groups])  # type: ignore[misc]
    return [vpc, subnet, *targets.values(), template, asg]


def writes(sent: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [op for op, _ in sent if not op.startswith(READS)]


def attached(autoscaling: Any) -> list[str]:
    group = autoscaling.describe_auto_scaling_groups(AutoScalingGroupNames=["nodes"])["AutoScalingGroups"][0]
    return sorted(arn.rsplit("/", 2)[-2] for arn in group["TargetGroupARNs"])


def test_target_groups_are_attached_swapped_and_left_to_the_delete(cloud: Any) -> None:
    context, sent, autoscaling = cloud
    run = Executor(CloudTarget(context), sleep=lambda _: None)
    run.run(tasks(["tg-a"]))
    assert attached(autoscaling) == ["tg-a"]
    sent.clear()
    run.run(tasks(["tg-a", "tg-b"]))
    assert writes(sent) == ["AttachLoadBalancerTargetGroups"]
    assert attached(autoscaling) == ["tg-a", "tg-b"]
    sent.clear()
    run.run(tasks(["tg-c"]))
    ops = [(op, p) for op, p in sent if op in ("AttachLoadBalancerTargetGroups", "DetachLoadBalancerTargetGroups")]
    assert [op for op, _ in ops] == ["DetachLoadBalancerTargetGroups", "AttachLoadBalancerTargetGroups"]
    assert len(ops[0][1]["TargetGroupARNs"]) == 2 and len(ops[1][1]["TargetGroupARNs"]) == 1  # one call a side
    assert attached(autoscaling) == ["tg-c"]
    sent.clear()
    run.run(tasks(["tg-c"]))
    assert writes(sent) == []
    sent.clear()
    run.delete(tasks(["tg-c"]))
    assert "DetachLoadBalancerTargetGroups" not in [op for op, _ in sent]
    assert autoscaling.describe_auto_scaling_groups()["AutoScalingGroups"] == []
