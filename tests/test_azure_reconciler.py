"""The CAPI face over the Azure adapter (issue 26 item 5, in part): a reconciler for the resource
group built from the pinned resources document, reconciled over ASO's recorded answers: one
PUT with CAPZ's ownership tag, the id handed to ``persist`` at once, Ready; a second reconcile
writes nothing; delete follows the group's recorded operation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.runtime.contract.spec import ResourceSpec
from tasklayer_tasks.runtime.wiring.azure import AzureReconciler
from testbed import aso_replay
from testbed.azure_kinds import RESOURCE_GROUP

SUB = "00000000-0000-0000-0000-000000000000"
CAPZ = "sigs.k8s.io_cluster-api-provider-azure_cluster_capz"


@dataclass
class ResourceGroupReconciler(AzureReconciler):
    spec: ClassVar[ResourceSpec] = RESOURCE_GROUP


def test_a_resource_group_reconciles_over_the_recording_once() -> None:
    replay = aso_replay.Replay(aso_replay.load("Test_Networking_VirtualNetwork_CRUD.yaml"))
    context = Context(
        subscription=SUB,
        azure_transport=aso_replay.transport(replay),
        retry=RetryPolicy(sleep=lambda _: None),
    )
    persisted: list[dict[str, Any]] = []
    reconciler = ResourceGroupReconciler(context, cluster="capz", persist=persisted.append)
    spec = {"name": "asotest-rg-wniggk", "location": "westus2"}
    first = reconciler.reconcile(spec, {})
    (put,) = replay.writes()
    assert put.body["tags"] == {CAPZ: "owned"} and put.answered_by == 0
    rg_id = replay.exchanges[0].response_body["id"]
    assert any(p.get("id") == rg_id for p in persisted)
    ready = {c.type: c.status for c in first.conditions}
    assert ready.get("Ready") == "True", first
    second = reconciler.reconcile(spec, first.status)
    assert (
        len(replay.writes()) == 1
        and {c.type: c.status for c in second.conditions}["Ready"] == "True"
    )
    gone = reconciler.delete(spec, second.status)
    assert [s.answered_by for s in replay.writes()] == [0, 17], gone
