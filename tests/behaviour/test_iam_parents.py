"""A resource created inside another one (an OauthClientCredential in its OauthClient): the
task refers to its parent, runs after it, and its create and list put the parent's whole name
(the reference an iam resource is known by: its ``name``) in their path; every request is
judged by the full discovery document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tasklayer_tasks.gcp.iam import OauthClient, OauthClientCredential
from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.testing import FakeGcp
from testbed.gcp_requests import RequestValidator

DOCUMENT = Path(__file__).resolve().parents[2] / "generated" / "tasklayer_tasks" / "gcp" / "iam" / "discovery.json"
CLIENT = "projects/proj/locations/global/oauthClients/demo-client"


@pytest.fixture
def cloud() -> tuple[Context, FakeGcp]:
    fake = FakeGcp(json.loads(DOCUMENT.read_text()))
    context = Context(project="proj", region="global", cluster="demo", http=fake,
                      retry=RetryPolicy(sleep=lambda _: None))
    return context, fake


def tasks(parent: OauthClient | None = None) -> list[OauthClient | OauthClientCredential]:
    # the discovery document says both lists are "Required." to create an OauthClient
    client = parent or OauthClient(name="client", oauth_client_id="demo-client", display_name="demo",
                                   allowed_redirect_uris=["https://example.com/cb"],
                                   allowed_scopes=["https://www.googleapis.com/auth/cloud-platform"])
    credential = OauthClientCredential(name="cred", oauth_client=client, oauth_client_credential_id="demo-cred")
    return [client, credential]


def writes(fake: FakeGcp, since: int = 0) -> list[tuple[str, str]]:
    return [(r.method_id, r.path) for r in fake.log[since:] if r.http_method != "GET"]


def test_created_inside_its_parent_found_again_and_deleted_first(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    made = tasks()
    Executor(CloudTarget(context)).run(made)
    assert writes(fake) == [
        ("iam.projects.locations.oauthClients.create", "/v1/projects/proj/locations/global/oauthClients"),
        ("iam.projects.locations.oauthClients.credentials.create", f"/v1/{CLIENT}/credentials"),
    ]
    assert made[1].resource_id == f"{CLIENT}/credentials/demo-cred"
    validator = RequestValidator("iam")
    assert [p for r in fake.log for p in validator.check(r.method_id, r.http_method, r.path, r.query, r.body)] == []
    since = len(fake.log)
    Executor(CloudTarget(context)).run(tasks())  # a fresh run: found by listing its parent
    assert writes(fake, since) == []
    lists = [r.path for r in fake.log[since:] if r.method_id.endswith("credentials.list")]
    assert lists == [f"/v1/{CLIENT}/credentials"]
    since = len(fake.log)
    Executor(CloudTarget(context)).delete(tasks())
    assert [m for m, _ in writes(fake, since)] == [
        "iam.projects.locations.oauthClients.credentials.delete",
        "iam.projects.locations.oauthClients.delete",
    ]


def test_the_parent_may_be_given_by_its_name(cloud: tuple[Context, FakeGcp]) -> None:
    context, fake = cloud
    Executor(CloudTarget(context)).run(tasks()[:1])
    since = len(fake.log)
    credential = OauthClientCredential(name="cred", oauth_client=CLIENT, oauth_client_credential_id="demo-cred")
    Executor(CloudTarget(context)).run([credential])
    assert writes(fake, since) == [
        ("iam.projects.locations.oauthClients.credentials.create", f"/v1/{CLIENT}/credentials")]
