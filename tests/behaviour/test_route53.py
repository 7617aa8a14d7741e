"""Route 53 from generated tasks against moto_server: a hosted zone owned through tags set by
ChangeTagsForResource and found by name, never a neighbour's zone of the same name; record sets
as a change-batch resource (one CREATE, one UPSERT per change, one DELETE), owned through their
zone. Calls are counted at botocore's hooks (what the client sent)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import boto3
import botocore.session
import pytest

from tasklayer_tasks.aws.route53 import HostedZone, ResourceRecordSet
from tasklayer_tasks.runtime import CloudTarget, Context, DryRunTarget, Executor
from tasklayer_tasks.runtime.contract.errors import NotOwnedError
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from testbed.moto import MotoServer

ZONE = "demo.example.com."
READS = ("Describe", "Get", "List")


@pytest.fixture(scope="module")
def server() -> Iterator[MotoServer]:
    with MotoServer() as moto:
        yield moto


class Calls:
    def __init__(self) -> None:
        self.made: Counter[str] = Counter()
        self.params: list[tuple[str, dict[str, Any]]] = []

    def record(self, params: Any, event_name: str, **_: Any) -> None:
        op = event_name.rsplit(".", 1)[-1]
        self.made[op] += 1
        self.params.append((op, dict(params)))

    def writes(self) -> Counter[str]:
        return Counter({k: v for k, v in self.made.items() if not k.startswith(READS)})


@pytest.fixture
def cloud(server: MotoServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Context, Calls, Any]]:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    server.reset()
    session = botocore.session.get_session()
    calls = Calls()
    session.register("provide-client-params.route53.*", calls.record)
    context = Context(region="us-east-1", cluster="demo.example.com", endpoint_url=server.url, session=session,
                      retry=RetryPolicy(sleep=lambda _: None))
    client = boto3.client("route53", region_name="us-east-1", endpoint_url=server.url)
    yield context, calls, client


def dns(ip: str = "203.0.113.10") -> list[Any]:
    zone = HostedZone(name=ZONE)
    return [zone,
            ResourceRecordSet(name=f"api.{ZONE}", hosted_zone=zone, type_="A", ttl=60,
                              resource_records=[{"Value": ip}]),  # type: ignore[list-item]
            ResourceRecordSet(name=f"api.internal.{ZONE}", hosted_zone=zone, type_="A", ttl=60,
                              resource_records=[{"Value": "172.20.32.10"}])]  # type: ignore[list-item]


def run(context: Context, tasks: list[Any]) -> None:
    Executor(CloudTarget(context), sleep=lambda _: None).run(tasks)


def test_zone_is_tagged_and_records_are_one_create_each(cloud: tuple[Context, Calls, Any]) -> None:
    context, calls, client = cloud
    tasks = dns()
    run(context, tasks)
    zone_id = tasks[0].resource_id
    assert calls.writes() == Counter({"CreateHostedZone": 1, "ChangeTagsForResource": 1, "ChangeResourceRecordSets": 2})
    made = [p for op, p in calls.params if op == "CreateHostedZone"][0]
    assert made["CallerReference"]  # the attempt's token: a retried create cannot make a second zone
    tags = client.list_tags_for_resource(ResourceType="hostedzone", ResourceId=zone_id.split("/")[-1])
    assert {"Key": "kubernetes.io/cluster/demo.example.com", "Value": "owned"} in tags["ResourceTagSet"]["Tags"]
    actions = [c["Action"] for op, p in calls.params if op == "ChangeResourceRecordSets"
               for c in p["ChangeBatch"]["Changes"]]
    assert actions == ["CREATE", "CREATE"]
    names = {r["Name"] for r in client.list_resource_record_sets(HostedZoneId=zone_id)["ResourceRecordSets"]}
    assert {f"api.{ZONE}", f"api.internal.{ZONE}"} <= names


def test_reapply_writes_nothing_and_a_changed_record_is_one_upsert(cloud: tuple[Context, Calls, Any]) -> None:
    context, calls, client = cloud
    run(context, dns())
    calls.made.clear()
    calls.params.clear()
    run(context, dns())
    assert calls.writes() == Counter()
    tasks = dns("203.0.113.99")
    run(context, tasks)
    assert calls.writes() == Counter({"ChangeResourceRecordSets": 1})
    change = [p for op, p in calls.params if op == "ChangeResourceRecordSets"][0]["ChangeBatch"]["Changes"]
    assert [c["Action"] for c in change] == ["UPSERT"]
    assert change[0]["ResourceRecordSet"]["ResourceRecords"] == [{"Value": "203.0.113.99"}]
    listed = client.list_resource_record_sets(HostedZoneId=tasks[0].resource_id,
                                              StartRecordName=f"api.{ZONE}", StartRecordType="A")
    assert listed["ResourceRecordSets"][0]["ResourceRecords"] == [{"Value": "203.0.113.99"}]


def test_a_neighbours_zone_of_the_same_name_is_never_adopted(cloud: tuple[Context, Calls, Any]) -> None:
    context, calls, client = cloud
    theirs = client.create_hosted_zone(Name=ZONE, CallerReference="someone-else")["HostedZone"]["Id"]
    with pytest.raises(NotOwnedError, match=theirs):
        run(context, dns())
    assert calls.writes() == Counter()  # neither tagged, nor changed, nor a record written into it
    assert client.list_tags_for_resource(ResourceType="hostedzone", ResourceId=theirs.split("/")[-1])[
        "ResourceTagSet"]["Tags"] == []


def test_delete_leaves_no_zone_and_no_record(cloud: tuple[Context, Calls, Any]) -> None:
    context, calls, client = cloud
    tasks = dns()
    run(context, tasks)
    Executor(CloudTarget(context), sleep=lambda _: None).delete(tasks)
    actions = [c["Action"] for op, p in calls.params if op == "ChangeResourceRecordSets"
               for c in p["ChangeBatch"]["Changes"]]
    assert actions.count("DELETE") == 2
    assert client.list_hosted_zones()["HostedZones"] == []


def test_the_plan_names_the_zone_and_its_records(cloud: tuple[Context, Calls, Any]) -> None:
    context, calls, _ = cloud
    plan = DryRunTarget(context)
    Executor(plan).run(dns())
    text = plan.plan.format()
    assert calls.writes() == Counter()
    assert f"HostedZone/{ZONE}" in text and f"ResourceRecordSet/api.internal.{ZONE}" in text


def test_a_zone_declared_without_the_root_dot_is_found_again(cloud: tuple[Context, Calls, Any]) -> None:
    """Route 53 reads a zone's name fully qualified (``demo.example.com.``); a zone declared as
    ``demo.example.com`` is the same zone on re-apply, not a second one created each run."""
    context, calls, client = cloud
    run(context, [HostedZone(name=ZONE.rstrip("."))])
    calls.made.clear()
    run(context, [HostedZone(name=ZONE.rstrip("."))])
    assert calls.writes() == Counter()
    assert len(client.list_hosted_zones()["HostedZones"]) == 1
