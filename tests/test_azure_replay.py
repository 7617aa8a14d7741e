"""Our Azure tasks judged by ASO's recorded ARM traffic (issue 26 item 4): the resource group,
virtual network and subnet of ``Test_Networking_VirtualNetwork_CRUD`` created, re-applied,
changed and deleted through the kOps face and the Azure adapter over azure-core, every request
answered from the pinned cassette (``testbed/aso_replay.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from testbed import aso_pin, aso_replay
from testbed.azure_kinds import NETWORK_API, ResourceGroup, Subnet, VirtualNetwork

CASSETTE = "Test_Networking_VirtualNetwork_CRUD.yaml"
SUBSCRIPTION = "00000000-0000-0000-0000-000000000000"
OURS = {"KubernetesCluster": "aso", "kubernetes.io_cluster_aso": "owned"}


def _context(replay: aso_replay.Replay) -> Context:
    return Context(
        cluster="aso",
        subscription=SUBSCRIPTION,
        azure_transport=aso_replay.transport(replay),
        retry=RetryPolicy(sleep=lambda _: None),
    )


def _tasks(delegated: bool = False) -> list[Any]:
    """The cassette's three resources, as ASO's test declares them."""
    rg = ResourceGroup(name="asotest-rg-wniggk", location="westus2")
    vn = VirtualNetwork(
        name="asotest-vn-bxrysz",
        resource_group_name=rg,
        location="westus2",
        address_space={"addressPrefixes": ["10.0.0.0/8"]},
    )
    delegations = [
        {"name": "mydelegation", "properties": {"serviceName": "Microsoft.DBforMySQL/serversv2"}}
    ]
    sn = Subnet(
        name="asotest-subnet-emhesg",
        resource_group_name=rg,
        virtual_network_name=vn,
        address_prefix="10.0.0.0/24",
        delegations=delegations if delegated else None,
    )
    return [rg, vn, sn]


def _run(replay: aso_replay.Replay, tasks: list[Any], delete: bool = False) -> Any:
    executor = Executor(CloudTarget(_context(replay)), sleep=lambda _: None)
    return executor.delete(tasks) if delete else executor.run(tasks)


@pytest.fixture()
def replay() -> aso_replay.Replay:
    assert aso_pin.check() == [], "a pinned cassette is not what its manifest says"
    return aso_replay.Replay(aso_replay.load(CASSETTE))


def test_create_sends_the_recorded_writes_with_our_tags_and_the_pinned_api_version(
    replay: aso_replay.Replay,
) -> None:
    _run(replay, _tasks())
    writes = [(s.method, s.path.rsplit("/", 2)[-2]) for s in replay.writes()]
    assert writes == [
        ("PUT", "resourcegroups"),
        ("PUT", "virtualnetworks"),
        ("PUT", "subnets"),
    ]
    assert replay.unmatched() == []
    judgement = aso_replay.judge(replay)
    # the only body differences: the owner's tags ours carry, ASO's CreatedAt tag
    assert sorted({d.member for d in judgement.differences}) == sorted(
        {f"tags.{k}" for k in OURS} | {"tags.CreatedAt"}
    )
    # ASO recorded older api-versions; ours are the pinned documents'
    assert judgement.api_versions == {("2024-03-01", "2020-06-01"), (NETWORK_API, "2020-11-01")}
    # every create is conditional: a same-named resource made meanwhile is refused, never overwritten
    assert all(s.headers.get("If-None-Match") == "*" for s in replay.writes())
    # the subnet's PUT answered 201 Updating: its operation was polled (the recorded poll)
    polled = [s for s in replay.sent if "/operations/" in s.path]
    assert [s.answered_by for s in polled] == [5]


def test_reapply_over_the_recorded_answers_writes_nothing(replay: aso_replay.Replay) -> None:
    tasks = _tasks()
    _run(replay, tasks)
    before = len(replay.writes())
    report = _run(replay, _tasks())
    assert len(replay.writes()) == before, [
        f"{s.method} {s.path}" for s in replay.writes()[before:]
    ]
    assert report.writes == 0 and report.reads == 3
    assert {t.action.value for t in report.tasks} == {"unchanged"}


def test_a_change_is_a_read_modify_put_with_the_etag_as_recorded(
    replay: aso_replay.Replay,
) -> None:
    _run(replay, _tasks())
    before = len(replay.sent)
    _run(replay, _tasks(delegated=True))
    writes = [s for s in replay.sent[before:] if s.method != "GET"]
    assert [(s.method, s.answered_by) for s in writes] == [("PUT", 8)]  # ASO's delegation PUT
    put = writes[0]
    recorded = replay.exchanges[6].response_body  # the subnet as read just before
    assert put.headers == {"If-Match": recorded["etag"]}
    assert (
        put.body["properties"]["delegations"]
        == replay.exchanges[8].request_body["properties"]["delegations"]
    )
    # read-modify-PUT sends back what ARM holds, read-only members left out
    assert "etag" not in put.body and "provisioningState" not in put.body["properties"]
    assert put.body["properties"]["privateLinkServiceNetworkPolicies"] == "Enabled"


def test_delete_in_reverse_order_follows_each_operation(replay: aso_replay.Replay) -> None:
    tasks = _tasks(delegated=True)
    _run(replay, tasks)
    _run(replay, tasks)  # the delegation change: the recording's order
    before = len(replay.sent)
    _run(replay, tasks, delete=True)
    sent = replay.sent[before:]
    deletes = [s.answered_by for s in sent if s.method == "DELETE"]
    assert deletes == [12, 14, 17]  # subnet, network, group: the recorded deletes
    polls = [s.answered_by for s in sent if "/operation" in s.path]
    assert polls == [13, 15, 18]  # Azure-AsyncOperation twice, then the group's Location
    assert replay.unmatched() == []
