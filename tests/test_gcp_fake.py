"""The GCP fake on its own, through googleapiclient built from the pinned discovery documents
(not through generated tasks): the generic verbs behave like Google's APIs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from googleapiclient.errors import HttpError

from tasklayer_tasks.testing import FakeGcp

ROOT = Path(__file__).resolve().parent.parent

P = "proj"
RID = "6f1c2a4e-8d0b-4c3e-9a57-2b1d0e4f6a10"


def document(api: str) -> dict[str, Any]:
    return dict(json.loads((ROOT / "schemas" / "gcp" / api / "v1" / "discovery.json").read_text()))


@pytest.fixture
def fake() -> FakeGcp:
    return FakeGcp(document("compute"), operation_polls=1)


def compute(fake: FakeGcp) -> Any:
    return fake.build()


def test_insert_returns_a_pending_operation_then_done(fake: FakeGcp) -> None:
    api = compute(fake)
    op = api.networks().insert(project=P, body={"name": "net", "autoCreateSubnetworks": False}).execute()
    assert op["status"] == "RUNNING" and op["targetLink"].endswith("/projects/proj/global/networks/net")
    assert api.globalOperations().get(project=P, operation=op["name"]).execute()["status"] == "DONE"
    net = api.networks().get(project=P, network="net").execute()
    assert net["autoCreateSubnetworks"] is False and net["selfLink"] == op["targetLink"] and net["id"]


def test_conflict_not_found_and_request_id(fake: FakeGcp) -> None:
    api = compute(fake)
    first = api.networks().insert(project=P, body={"name": "net"}, requestId=RID).execute()
    assert api.networks().insert(project=P, body={"name": "net"}, requestId=RID).execute() == first
    with pytest.raises(HttpError) as not_uuid:  # Google: "The request ID must be a valid UUID"
        api.networks().insert(project=P, body={"name": "other"}, requestId="r-1").execute()
    assert not_uuid.value.resp.status == 400
    with pytest.raises(HttpError) as conflict:
        api.networks().insert(project=P, body={"name": "net"}).execute()
    assert conflict.value.resp.status == 409
    with pytest.raises(HttpError) as missing:
        api.networks().get(project=P, network="other").execute()
    assert missing.value.resp.status == 404
    assert [r.method_id for r in fake.log].count("compute.networks.insert") == 4


def test_patch_merges_and_stale_fingerprint_is_412(fake: FakeGcp) -> None:
    api = compute(fake)
    api.firewalls().insert(project=P, body={"name": "fw", "network": "n", "sourceRanges": ["10.0.0.0/8"],
                                            "allowed": [{"IPProtocol": "tcp", "ports": ["22"]}]}).execute()
    api.firewalls().patch(project=P, firewall="fw", body={"name": "fw", "sourceRanges": ["0.0.0.0/0"]}).execute()
    fw = api.firewalls().get(project=P, firewall="fw").execute()
    assert fw["sourceRanges"] == ["0.0.0.0/0"] and fw["allowed"] == [{"IPProtocol": "tcp", "ports": ["22"]}]
    api.disks().insert(project=P, zone="z", body={"name": "d", "sizeGb": "10"}).execute()
    disk = api.disks().get(project=P, zone="z", disk="d").execute()
    stale = disk["labelFingerprint"]
    api.disks().setLabels(project=P, zone="z", resource="d",
                          body={"labels": {"a": "1"}, "labelFingerprint": stale}).execute()
    with pytest.raises(HttpError) as err:
        api.disks().setLabels(project=P, zone="z", resource="d",
                              body={"labels": {"a": "2"}, "labelFingerprint": stale}).execute()
    assert err.value.resp.status == 412
    assert api.disks().get(project=P, zone="z", disk="d").execute()["labels"] == {"a": "1"}


def test_actions_by_body_and_query(fake: FakeGcp) -> None:
    api = compute(fake)
    api.disks().insert(project=P, zone="z", body={"name": "d", "sizeGb": "10"}).execute()
    api.disks().resize(project=P, zone="z", disk="d", body={"sizeGb": "20"}).execute()
    assert api.disks().get(project=P, zone="z", disk="d").execute()["sizeGb"] == "20"
    api.instanceGroupManagers().insert(project=P, zone="z", body={"name": "m", "targetSize": 1}).execute()
    api.instanceGroupManagers().resize(project=P, zone="z", instanceGroupManager="m", size=3).execute()
    assert api.instanceGroupManagers().get(project=P, zone="z", instanceGroupManager="m").execute()["targetSize"] == 3
    api.subnetworks().insert(project=P, region="r", body={"name": "s", "ipCidrRange": "10.0.0.0/24"}).execute()
    api.subnetworks().expandIpCidrRange(project=P, region="r", subnetwork="s",
                                        body={"ipCidrRange": "10.0.0.0/20"}).execute()
    assert api.subnetworks().get(project=P, region="r", subnetwork="s").execute()["ipCidrRange"] == "10.0.0.0/20"
    api.targetPools().insert(project=P, region="r", body={"name": "tp"}).execute()
    api.targetPools().addInstance(project=P, region="r", targetPool="tp",
                                  body={"instances": [{"instance": "i-1"}, {"instance": "i-2"}]}).execute()
    api.targetPools().removeInstance(project=P, region="r", targetPool="tp",
                                     body={"instances": [{"instance": "i-1"}]}).execute()
    assert api.targetPools().get(project=P, region="r", targetPool="tp").execute()["instances"] == ["i-2"]


def test_list_delete_and_the_log(fake: FakeGcp) -> None:
    api = compute(fake)
    for name in ("a", "b"):
        api.networks().insert(project=P, body={"name": name}).execute()
    assert [n["name"] for n in api.networks().list(project=P).execute()["items"]] == ["a", "b"]
    assert [n["name"] for n in api.networks().list(project=P, filter='name = "b"').execute()["items"]] == ["b"]
    api.networks().delete(project=P, network="a").execute()
    assert [n["name"] for n in api.networks().list(project=P).execute()["items"]] == ["b"]
    assert fake.calls(mutating_only=True) == ["compute.networks.insert"] * 2 + ["compute.networks.delete"]


def test_other_apis_share_the_generic_verbs() -> None:
    fake = FakeGcp(document("storage"), document("dns"))
    storage = fake.build(document("storage"))
    bucket = storage.buckets().insert(project=P, body={"name": "b1", "labels": {"k": "v"}}).execute()
    assert bucket["name"] == "b1" and bucket["labels"] == {"k": "v"}
    storage.buckets().patch(bucket="b1", body={"labels": {"k": "w"}}).execute()
    assert storage.buckets().get(bucket="b1").execute()["labels"] == {"k": "w"}
    dns = fake.build(document("dns"))
    dns.managedZones().create(project=P, body={"name": "z", "dnsName": "example.com."}).execute()
    assert dns.managedZones().get(project=P, managedZone="z").execute()["dnsName"] == "example.com."


def test_aip_creates_answer_google_longrunning_operations() -> None:
    """iam's Operation is google.longrunning's (``done``, no ``status``): named under the
    resource ("ending with operations/{unique_id}"), ``done`` left out while running, then
    ``done`` with the resource as its ``response``; a failure is a google.rpc.Status."""
    fake = FakeGcp(document("iam"), operation_polls=1)
    pools = fake.build().projects().locations().workloadIdentityPools()
    parent = f"projects/{P}/locations/global"
    op = pools.create(parent=parent, workloadIdentityPoolId="pool", body={"displayName": "p"}).execute()
    assert "done" not in op and "status" not in op and "selfLink" not in op
    assert op["name"].startswith(f"{parent}/workloadIdentityPools/pool/operations/")
    done = pools.operations().get(name=op["name"]).execute()
    assert done["done"] is True and done["response"]["name"] == f"{parent}/workloadIdentityPools/pool"
    fake.fail_next("iam.projects.locations.workloadIdentityPools.delete")
    failed = pools.delete(name=f"{parent}/workloadIdentityPools/pool").execute()
    assert failed["done"] is True and failed["error"]["code"] == 9  # FAILED_PRECONDITION


def test_a_bucket_answers_its_access_controls_only_where_its_projection_is_full() -> None:
    """storage's ``projection`` defaults to noAcl for get and insert and to full for patch
    (storagebucketbasic#2, #3): the made ACL shows on the patch's answer only."""
    _json = json
    root = Path(__file__).resolve().parents[1] / "schemas" / "gcp" / "storage" / "v1"
    fake = FakeGcp(_json.loads((root / "discovery.json").read_text()))
    base = "https://storage.googleapis.com/storage/v1/b"
    fake.request(f"{base}?project=p", "POST", body=_json.dumps({"name": "b1", "location": "us"}))
    _, got = fake.request(f"{base}/b1")
    read = _json.loads(got)
    assert "acl" not in read and "owner" not in read and read["locationType"] == "multi-region"
    _, patched = fake.request(f"{base}/b1", "PATCH", body=_json.dumps({"labels": {"a": "b"}}))
    teams = [(a["projectTeam"]["team"], a["role"]) for a in _json.loads(patched)["acl"]]
    assert teams == [("owners", "OWNER"), ("editors", "OWNER"), ("viewers", "READER")]
    _, full = fake.request(f"{base}/b1?projection=full")
    assert _json.loads(full)["owner"]["entity"].startswith("project-owners-")
