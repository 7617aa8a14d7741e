"""The generated iam ServiceAccount against the GCP fake: a resource-name (AIP) API, whose
create wraps the resource and names it by accountId, and whose path the server makes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tasklayer_tasks.gcp.iam import ServiceAccount
from tasklayer_tasks.gcp.iam.reconcilers import ServiceAccountReconciler
from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.testing import FakeGcp
from tasklayer_tasks.runtime.retry import RetryPolicy

DOCUMENT = Path(__file__).resolve().parents[2] / "generated" / "tasklayer_tasks" / "gcp" / "iam" / "discovery.json"


@pytest.fixture
def cloud() -> tuple[Context, FakeGcp]:
    fake = FakeGcp(json.loads(DOCUMENT.read_text()))
    return Context(project="proj", cluster="demo", http=fake, retry=RetryPolicy(sleep=lambda _: None)), fake


def account(**changes: str) -> ServiceAccount:
    values = {"account_id": "demo-nodes", "display_name": "demo nodes", **changes}
    return ServiceAccount(name="nodes", **values)  # type: ignore[arg-type]


def writes(fake: FakeGcp, since: int = 0) -> list[tuple[str, str, object]]:
    return [(r.method_id, r.path, r.body) for r in fake.log[since:] if r.http_method != "GET"]


def test_create_find_patch_delete(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    task = account()
    Executor(CloudTarget(context)).run([task])
    assert writes(fake) == [("iam.projects.serviceAccounts.create", "/v1/projects/proj/serviceAccounts",
                             {"serviceAccount": {"displayName": "demo nodes"}, "accountId": "demo-nodes"})]
    assert task.resource_id == "projects/proj/serviceAccounts/demo-nodes"  # the name the server made
    since = len(fake.log)
    Executor(CloudTarget(context)).run([account()])
    assert writes(fake, since) == []  # found by listing and matching the accountId
    since = len(fake.log)
    Executor(CloudTarget(context)).run([account(display_name="nodes of demo")])
    assert writes(fake, since) == [("iam.projects.serviceAccounts.patch",
                                    "/v1/projects/proj/serviceAccounts/demo-nodes",
                                    {"serviceAccount": {"displayName": "nodes of demo"}, "updateMask": "displayName"})]
    Executor(CloudTarget(context)).delete([account()])
    assert fake.store == {}


def test_reconciler_records_the_server_made_name(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    status: dict[str, object] = {}
    reconciler = ServiceAccountReconciler(context, "demo", persist=status.update)
    result = reconciler.reconcile({"accountId": "demo-cp", "displayName": "control plane"}, status)
    assert result.ready and result.status["name"] == "projects/proj/serviceAccounts/demo-cp"
    assert status["name"] == "projects/proj/serviceAccounts/demo-cp"  # persisted on create
    since = len(fake.log)
    assert reconciler.reconcile({"accountId": "demo-cp", "displayName": "control plane"}, result.status).ready
    assert writes(fake, since) == []


def test_found_among_45_others_on_a_later_page(cloud: tuple[Context, FakeGcp]) -> None:
    """iam lists 20 accounts a page by default: re-apply must read every page to find it."""
    context, fake = cloud
    api = fake.build()
    for n in range(45):
        api.projects().serviceAccounts().create(name="projects/proj", body={"accountId": f"other-{n:02d}"}).execute()
    Executor(CloudTarget(context)).run([account(account_id="zz-nodes")])  # sorts after the 45 others
    since = len(fake.log)
    Executor(CloudTarget(context)).run([account(account_id="zz-nodes")])
    assert writes(fake, since) == []
    pages = [r for r in fake.log[since:] if r.method_id == "iam.projects.serviceAccounts.list"]
    assert len(pages) == 3 and [bool(r.query.get("pageToken")) for r in pages] == [False, True, True]
