"""An instance profile's role as a membership list, against moto_server: the role is added
after the profile is made, a different role is one Remove and one Add, and delete takes the
role out before the profile goes: IAM refuses (DeleteConflict) to delete a profile that holds
one, and the runtime empties membership lists only after such a refusal."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import boto3
import botocore.session
import pytest

from tasklayer_tasks.aws.iam import InstanceProfile, Role
from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from testbed.moto import MotoServer

TRUST = json.dumps({"Version": "2012-10-17", "Statement": [
    {"Effect": "Allow", "Principal": {"Service": "ec2.amazonaws.com"}, "Action": "sts:AssumeRole"}]})


@pytest.fixture(scope="module")
def server() -> Iterator[MotoServer]:
    with MotoServer() as moto:
        yield moto


@pytest.fixture
def cloud(server: MotoServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Context, Counter[str], Any]]:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    server.reset()
    session = botocore.session.get_session()
    made: Counter[str] = Counter()
    session.register("before-call.iam.*", lambda model, **_: made.update([model.name]))
    context = Context(region="us-east-1", cluster="demo", endpoint_url=server.url, session=session,
                      retry=RetryPolicy(sleep=lambda _: None))
    yield context, made, boto3.client("iam", region_name="us-east-1", endpoint_url=server.url)


def tasks(role_name: str) -> list[Any]:
    roles = [Role(name=n, role_name=n, assume_role_policy_document=TRUST) for n in ("masters", "nodes")]
    chosen = next(r for r in roles if r.name == role_name)
    return [*roles, InstanceProfile(name="profile", instance_profile_name="profile",
                                    roles=[chosen])]  # type: ignore[list-item]


def writes(made: Counter[str]) -> Counter[str]:
    return Counter({k: v for k, v in made.items() if not k.startswith(("Get", "List"))})


def test_the_role_is_added_swapped_and_taken_out_before_delete(cloud: tuple[Context, Counter[str], Any]) -> None:
    context, made, iam = cloud
    run = Executor(CloudTarget(context), sleep=lambda _: None)
    run.run(tasks("masters"))
    assert made["AddRoleToInstanceProfile"] == 1
    held = iam.get_instance_profile(InstanceProfileName="profile")["InstanceProfile"]["Roles"]
    assert [r["RoleName"] for r in held] == ["masters"]
    made.clear()
    run.run(tasks("masters"))
    assert writes(made) == Counter()
    run.run(tasks("nodes"))
    assert writes(made) == Counter({"AddRoleToInstanceProfile": 1, "RemoveRoleFromInstanceProfile": 1})
    held = iam.get_instance_profile(InstanceProfileName="profile")["InstanceProfile"]["Roles"]
    assert [r["RoleName"] for r in held] == ["nodes"]
    made.clear()
    run.delete(tasks("nodes"))
    # IAM refuses to delete a profile that holds a role: the role goes first, the delete once
    assert made["RemoveRoleFromInstanceProfile"] == 1 and made["DeleteInstanceProfile"] == 1
    assert iam.list_instance_profiles()["InstanceProfiles"] == [] and iam.list_roles()["Roles"] == []
