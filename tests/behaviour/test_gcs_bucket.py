"""The generated storage Bucket against the GCP fake: an API without Operations, where labels
and settings change through one patch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tasklayer_tasks.gcp.storage import Bucket
from tasklayer_tasks.runtime import CannotChangeFieldError, CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.testing import FakeGcp

DOCUMENT = Path(__file__).resolve().parents[2] / "generated" / "tasklayer_tasks" / "gcp" / "storage" / "discovery.json"


@pytest.fixture
def cloud() -> tuple[Context, FakeGcp]:
    fake = FakeGcp(json.loads(DOCUMENT.read_text()))
    return Context(project="proj", cluster="demo", http=fake, retry=RetryPolicy(sleep=lambda _: None)), fake


def bucket(**changes: object) -> Bucket:
    values: dict[str, object] = {"location": "US", "labels": {"cluster": "demo"}, "versioning": {"enabled": True}}
    values.update(changes)
    return Bucket(name="demo-state-store", **values)  # type: ignore[arg-type]


def writes(fake: FakeGcp, since: int = 0) -> list[tuple[str, object]]:
    return [(r.method_id, r.body) for r in fake.log[since:] if r.http_method != "GET"]


def test_apply_reapply_change_delete(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    Executor(CloudTarget(context)).run([bucket()])
    owned = {"k8s-io-cluster-name": "demo"}  # the cluster's ownership label, in the insert itself
    assert writes(fake) == [("storage.buckets.insert", {"location": "US", "name": "demo-state-store",
                                                         "versioning": {"enabled": True},
                                                         "labels": {"cluster": "demo", **owned}})]
    assert fake.log[1].query == {"project": "proj"}
    since = len(fake.log)
    Executor(CloudTarget(context)).run([bucket()])
    assert writes(fake, since) == []
    since = len(fake.log)
    Executor(CloudTarget(context)).run([bucket(labels={"cluster": "demo", "tier": "state"}, versioning={"enabled": False})])
    assert writes(fake, since) == [("storage.buckets.patch", {"labels": {"cluster": "demo", "tier": "state", **owned},
                                                              "versioning": {"enabled": False}})]
    since = len(fake.log)
    with pytest.raises(CannotChangeFieldError, match="location"):
        Executor(CloudTarget(context)).run([bucket(location="EU")])
    assert writes(fake, since) == []
    Executor(CloudTarget(context)).delete([Bucket(name="demo-state-store")])
    assert fake.store == {}
