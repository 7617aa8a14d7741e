"""The generated iam ServiceAccount against the GCP fake: a resource-name (AIP) API, whose
create wraps the resource and names it by accountId, and whose path the server makes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from googleapiclient.errors import HttpError

from tasklayer_tasks.gcp.iam import ServiceAccount
from tasklayer_tasks.gcp.iam.reconcilers import ServiceAccountReconciler
from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.testing import FakeGcp
from testbed.gcp_requests import RequestValidator

EMAIL = "demo-nodes@proj.iam.gserviceaccount.com"  # "<accountId>@<project>.iam.gserviceaccount.com"
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
    assert task.resource_id == f"projects/proj/serviceAccounts/{EMAIL}"  # the name the server made
    since = len(fake.log)
    Executor(CloudTarget(context)).run([account()])
    assert writes(fake, since) == []  # found by listing and matching the accountId
    since = len(fake.log)
    Executor(CloudTarget(context)).run([account(display_name="nodes of demo")])
    assert writes(fake, since) == [("iam.projects.serviceAccounts.patch",
                                    f"/v1/projects/proj/serviceAccounts/{EMAIL}",
                                    {"serviceAccount": {"displayName": "nodes of demo"}, "updateMask": "displayName"})]
    Executor(CloudTarget(context)).delete([account()])
    assert fake.store == {}
    assert [r.path for r in fake.log if r.method_id == "iam.projects.serviceAccounts.delete"] == [
        f"/v1/projects/proj/serviceAccounts/{EMAIL}"]
    judge = RequestValidator("iam")  # the full document: a name only in the formats Google documents
    assert [v for r in fake.log for v in judge.check(r.method_id, r.http_method, r.path, r.query, r.body)] == []


def test_reconciler_records_the_server_made_name(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    status: dict[str, object] = {}
    reconciler = ServiceAccountReconciler(context, "demo", persist=status.update)
    result = reconciler.reconcile({"accountId": "demo-cp", "displayName": "control plane"}, status)
    made = "projects/proj/serviceAccounts/demo-cp@proj.iam.gserviceaccount.com"
    assert result.ready and result.status["name"] == made
    assert status["name"] == made  # persisted on create
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


def test_the_fake_names_an_account_as_google_does(cloud: tuple[Context, FakeGcp]) -> None:
    """Google names a service account by its email (or unique id), also under the ``-``
    project wildcard; never by the accountId it was created with. Its answer carries
    ``email``, ``uniqueId`` and ``projectId``, and no ``accountId`` (not a ServiceAccount member)."""
    _, fake = cloud
    accounts = fake.build().projects().serviceAccounts()
    made = accounts.create(name="projects/proj", body={"accountId": "demo-nodes"}).execute()
    assert made["name"] == f"projects/proj/serviceAccounts/{EMAIL}" and made["email"] == EMAIL
    assert made["projectId"] == "proj" and made["uniqueId"].isdigit() and "accountId" not in made
    for name in (f"projects/proj/serviceAccounts/{made['uniqueId']}", f"projects/-/serviceAccounts/{EMAIL}",
                 f"projects/-/serviceAccounts/{made['uniqueId']}"):
        assert accounts.get(name=name).execute() == made
    with pytest.raises(HttpError) as err:
        accounts.get(name="projects/proj/serviceAccounts/demo-nodes").execute()
    assert err.value.resp.status == 404
    accounts.delete(name=f"projects/-/serviceAccounts/{made['uniqueId']}").execute()
    assert fake.store == {}
    judge = RequestValidator("iam")
    refused = [v for r in fake.log for v in judge.check(r.method_id, r.http_method, r.path, r.query, r.body)]
    assert refused == [
        "GET /v1/projects/proj/serviceAccounts/demo-nodes (iam.projects.serviceAccounts.get): path parameter"
        " name='projects/proj/serviceAccounts/demo-nodes' is in none of the formats its text documents"]
