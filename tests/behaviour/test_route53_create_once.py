"""A hosted zone whose create answer was lost is ours (issue 20, item 1), over moto_server behind
the fault proxy, which answers a repeated CallerReference as Route 53 does
(``HostedZoneAlreadyExists``, see testbed/rest.py).

CreateHostedZone takes no tags: they go on with a later ChangeTagsForResource. The zone is
recognised as ours by its CallerReference, which names the owner and the attempt, both after
botocore's retry is told "already exists" and after a run ended between the create and the
tag call. A zone whose CallerReference is not ours (a neighbour cluster's, made the same way)
stays foreign."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from tasklayer_tasks.aws.route53 import HostedZone, ResourceRecordSet
from tasklayer_tasks.aws.route53.reconcilers.hosted_zone import HostedZoneReconciler
from tasklayer_tasks.runtime import CloudTarget, Executor
from tasklayer_tasks.runtime.contract.errors import NotOwnedError
from testbed.campaign import Lab
from testbed.proxy import Fault, FaultKind
from tests.faults.fixtures import lab, module_lab  # noqa: F401 (fixtures)

ZONE = "demo.example.com."
OWNED = {"Key": "kubernetes.io/cluster/a", "Value": "owned"}


def route53(lab: Lab) -> Any:  # straight to moto, past the proxy: what is really there
    return boto3.client("route53", endpoint_url=lab.moto.url, region_name="us-east-1",
                        aws_access_key_id="testing", aws_secret_access_key="testing")


def dns() -> list[Any]:
    zone = HostedZone(name=ZONE)
    return [zone, ResourceRecordSet(name=f"api.{ZONE}", hosted_zone=zone, type_="A", ttl=60,
                                    resource_records=[{"Value": "203.0.113.10"}])]  # type: ignore[list-item]


def run(lab: Lab, cluster: str = "a") -> None:
    Executor(CloudTarget(lab.context(cluster)), sleep=lambda _: None).run(dns())


class Crash(BaseException):
    """The process ends: nothing of the runtime's gets to run after it."""


def crash(**_: Any) -> None:
    raise Crash


def run_ending_after_the_create(lab: Lab, cluster: str) -> None:
    """A run whose process ends the moment CreateHostedZone has answered, before its tag call."""
    lab.session.register("after-call.route53.CreateHostedZone", crash)
    try:
        with pytest.raises(Crash):
            run(lab, cluster)
    finally:
        lab.session.unregister("after-call.route53.CreateHostedZone", crash)


def zones(lab: Lab) -> list[dict[str, Any]]:
    return list(route53(lab).list_hosted_zones()["HostedZones"])


def tags(lab: Lab, zone: dict[str, Any]) -> list[dict[str, str]]:
    found = route53(lab).list_tags_for_resource(ResourceType="hostedzone", ResourceId=zone["Id"].split("/")[-1])
    return list(found["ResourceTagSet"]["Tags"])


@pytest.mark.parametrize("kind", [FaultKind.LOST, FaultKind.ERROR_AFTER])
def test_a_lost_create_answered_already_exists_is_adopted_and_tagged(lab: Lab, kind: FaultKind) -> None:
    lab.proxy.plan(Fault("CreateHostedZone", 1, kind))
    run(lab)
    sent = [r for r in lab.proxy.requests if r.action == "CreateHostedZone"]
    assert [r.status for r in sent] == [None if kind is FaultKind.LOST else 500, 409]  # the retry: already exists
    assert sent[0].params["CallerReference"] == sent[1].params["CallerReference"]
    [zone] = zones(lab)
    assert zone["CallerReference"] == sent[0].params["CallerReference"]
    assert OWNED in tags(lab, zone)
    lab.proxy.clear()
    run(lab)
    assert lab.proxy.writes() == {}  # converged: the re-apply writes nothing


def test_a_run_that_ended_before_the_tag_call_leaves_a_zone_the_next_run_adopts(lab: Lab) -> None:
    run_ending_after_the_create(lab, "a")
    [zone] = zones(lab)
    assert tags(lab, zone) == []  # made, never tagged
    lab.proxy.clear()
    run(lab)  # a new run, new tasks: only the CallerReference says whose it is
    assert [z["Id"] for z in zones(lab)] == [zone["Id"]] and OWNED in tags(lab, zone)
    assert lab.proxy.writes() == {"ChangeTagsForResource": 1, "ChangeResourceRecordSets": 1}


def test_a_neighbours_untagged_zone_is_never_adopted(lab: Lab) -> None:
    """Cluster b's zone, made the same way and left untagged, carries b's CallerReference."""
    run_ending_after_the_create(lab, "b")
    lab.proxy.clear()
    with pytest.raises(NotOwnedError):
        run(lab, "a")
    assert lab.proxy.writes() == {}
    [zone] = zones(lab)
    assert tags(lab, zone) == []


CAPA_OWNED = {"Key": "sigs.k8s.io/cluster-api-provider-aws/cluster/a", "Value": "owned"}


def reconcile(lab: Lab, store: dict[str, Any]) -> Any:
    reconciler = HostedZoneReconciler(lab.context("a"), "a", persist=store.update)
    result = reconciler.reconcile({"name": ZONE}, dict(store))
    store.update(result.status)
    return result


def test_a_reconciler_adopts_and_tags_the_zone_its_lost_create_made(lab: Lab) -> None:
    lab.proxy.plan(Fault("CreateHostedZone", 1, FaultKind.LOST))
    store: dict[str, Any] = {}
    assert reconcile(lab, store).ready
    [zone] = zones(lab)
    assert CAPA_OWNED in tags(lab, zone) and store["id"] == zone["Id"]
    lab.proxy.clear()
    assert reconcile(lab, store).ready and lab.proxy.writes() == {}


def test_a_reconciler_pass_ended_after_the_create_leaves_a_zone_the_next_pass_tags(lab: Lab) -> None:
    store: dict[str, Any] = {}
    lab.session.register("after-call.route53.CreateHostedZone", crash)
    try:
        with pytest.raises(Crash):
            reconcile(lab, store)
    finally:
        lab.session.unregister("after-call.route53.CreateHostedZone", crash)
    [zone] = zones(lab)
    assert tags(lab, zone) == []
    lab.proxy.clear()
    assert reconcile(lab, store).ready
    assert lab.proxy.writes() == {"ChangeTagsForResource": 1} and CAPA_OWNED in tags(lab, zone)
