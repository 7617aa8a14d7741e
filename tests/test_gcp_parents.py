"""Parents a GCP resource lives in that are not scopes (a record set's managed zone, an ACL's
bucket, a zonal node pool's cluster): task inputs (gcp.path-parents-are-inputs), never the
resource's own name; a parent no field holds stops the resource from being rendered; the fake
refuses a request under a parent that does not exist, as Google answers 404."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from codegen.errors import TasklayerError
from codegen.model import Mutability
from codegen.providers.gcp.rules.run import annotate_document
from codegen.providers.gcp.shapes import gcp_field
from codegen.providers.gcp.views import GcpResourceView
from tasklayer_tasks.gcp.dns import ManagedZone, ResourceRecordSet
from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.testing import FakeGcp

ROOT = Path(__file__).resolve().parent.parent


def _method(mid: str, http: str, path: str, params: list[str], response: str | None = None,
            request: str | None = None) -> dict[str, Any]:
    method: dict[str, Any] = {
        "id": mid, "httpMethod": http, "path": path, "parameterOrder": params,
        "parameters": {p: {"location": "path", "required": True, "type": "string",
                           "description": f"The {p} of the request."} for p in params},
    }
    if response:
        method["response"] = {"$ref": response}
    if request:
        method["request"] = {"$ref": request}
    return method


def _collection(api: str, name: str, base: str, params: list[str], own: str, schema: str) -> dict[str, Any]:
    item = f"{base}/{{{own}}}"
    return {"methods": {
        "insert": _method(f"{api}.{name}.insert", "POST", base, params, "Operation", schema),
        "get": _method(f"{api}.{name}.get", "GET", item, params + [own], schema),
        "delete": _method(f"{api}.{name}.delete", "DELETE", item, params + [own], "Operation"),
    }}


def toy_document() -> dict[str, Any]:
    """boxes in a project; items in a box; notes on a shelf the API has no collection for."""
    plain = {"type": "object", "properties": {"name": {"type": "string"}, "size": {"type": "integer"}}}
    return {
        "name": "toy", "version": "v1", "rootUrl": "https://toy.googleapis.com/", "servicePath": "toy/v1/",
        "schemas": {"Box": plain, "Item": plain, "Note": plain,
                    "Operation": {"type": "object", "properties": {"name": {"type": "string"}}}},
        "resources": {
            "boxes": _collection("toy", "boxes", "projects/{project}/boxes", ["project"], "box", "Box"),
            "items": _collection("toy", "items", "projects/{project}/boxes/{box}/items", ["project", "box"],
                                 "item", "Item"),
            "notes": _collection("toy", "notes", "projects/{project}/shelves/{shelf}/notes",
                                 ["project", "shelf"], "note", "Note"),
        },
    }


def toy_service() -> Any:
    _, draft = annotate_document(toy_document(), service="toy", api_version="v1")
    return draft.freeze()


# -- the rule, on a toy document -----------------------------------------------------------------


def test_a_path_parent_is_a_required_create_only_input_referring_to_its_kind() -> None:
    item = toy_service().resource("Item")
    box = item.field("box")
    assert (box.mutability, box.required, box.in_create) == (Mutability.CREATE_ONLY, True, False)
    assert box.references == "Box"
    assert gcp_field(box).reference_member == "name"  # what boxes.get selects a box by
    assert box.provenance["mutability"] == "rule:gcp.path-parents-are-inputs"
    assert "box" not in item.identity.primary  # a parent, not part of the item's own name


def test_a_parent_of_a_kind_the_api_does_not_create_is_given_as_a_name() -> None:
    shelf = toy_service().resource("Note").field("shelf")
    assert shelf.mutability is Mutability.CREATE_ONLY and shelf.references is None


def test_call_paths_take_the_parent_from_its_field_and_the_item_from_its_name() -> None:
    service = toy_service()
    view = GcpResourceView(service.resource("Item"), service, frozenset({"Box", "Item", "Note"}))
    ops = service.resource("Item").operations
    for op in (ops.create, ops.read, ops.delete):
        assert op is not None
        assert dict(view._identity(op)) == {"project": "@project", "box": "box",
                                             **({} if op is ops.create else {"item": "name"})}


def test_a_parent_no_field_holds_is_refused_rather_than_filled_with_the_own_name() -> None:
    service = toy_service()
    item = service.resource("Item")
    bare = replace(item, fields=tuple(f for f in item.fields if f.name != "box"))
    view = GcpResourceView(bare, replace(service, resources=(bare,)), frozenset({"Item"}))
    assert bare.operations.read is not None
    with pytest.raises(TasklayerError, match="parent by its path parameter 'box'"):
        view._identity(bare.operations.read)


# -- the pinned corpus -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "field", "param", "kind"),
    [
        ("dns.core.resource_record_set", "managedZone", "managedZone", "ManagedZone"),
        ("storage.core.bucket_access_control", "bucket", "bucket", "Bucket"),
        ("container.core.project_zone_cluster_node_pool", "clusterId", "clusterId", "ZoneCluster"),
        ("dns.core.response_policy_rule", "responsePolicy", "responsePolicy", "ResponsePolicy"),
    ],
)
def test_pinned_parents_are_inputs(module: str, field: str, param: str, kind: str) -> None:
    import importlib

    spec = importlib.import_module(f"tasklayer_tasks.gcp.{module}").SPEC
    f = spec.field(field)
    assert f.mutability.value == "create_only" and f.references == kind and not f.in_create
    calls = [spec.create, spec.read, spec.delete, spec.listing, *spec.updates]
    for call in calls:
        assert dict(call.identity)[param] == field, call.operation  # never the own name


# -- the fake refuses a wrong parent, the runtime names the right one --------------------------


def _dns() -> tuple[Context, FakeGcp]:
    document = json.loads((ROOT / "generated" / "tasklayer_tasks" / "gcp" / "dns" / "discovery.json").read_text())
    fake = FakeGcp(document)
    return Context(project="proj", cluster="demo", http=fake, retry=RetryPolicy(sleep=lambda _: None)), fake


def test_the_fake_answers_404_under_a_parent_that_does_not_exist() -> None:
    _, fake = _dns()
    api = fake.build()
    record = {"name": "www.example.com.", "type": "A", "ttl": 300, "rrdatas": ["10.0.0.1"]}
    with pytest.raises(Exception, match="managedZones/z1' was not found"):
        api.resourceRecordSets().create(project="proj", managedZone="z1", body=record).execute()
    api.managedZones().create(project="proj", body={"name": "z1", "dnsName": "example.com."}).execute()
    api.resourceRecordSets().create(project="proj", managedZone="z1", body=record).execute()
    with pytest.raises(Exception, match="managedZones/other' was not found"):
        api.resourceRecordSets().list(project="proj", managedZone="other").execute()


def test_a_record_set_goes_to_its_zone_and_reapplies_with_no_write() -> None:
    context, fake = _dns()

    def tasks() -> list[Any]:
        zone = ManagedZone(name="z1", dns_name="example.com.", description="d")
        record = ResourceRecordSet(name="www.example.com.", type_="A", ttl=300, rrdatas=["10.0.0.1"],
                                   managed_zone=zone)
        return [zone, record]

    Executor(CloudTarget(context)).run(tasks())
    creates = [r for r in fake.log if r.method_id == "dns.resourceRecordSets.create"]
    assert [r.path.rsplit("/", 2)[-2] for r in creates] == ["z1"]  # the zone's name, not the record's
    since = len(fake.log)
    Executor(CloudTarget(context)).run(tasks())
    assert [r.method_id for r in fake.log[since:] if r.http_method != "GET"] == []
