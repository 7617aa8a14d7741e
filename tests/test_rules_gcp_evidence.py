"""The rules that weigh a field's text against its update method's, and the set… methods over
output-only fields, each on a tiny hand-written discovery document (with the rule id that
decided it)."""

from __future__ import annotations

from typing import Any

import pytest

from codegen.model import Mutability, Service
from codegen.providers.gcp.rules.run import annotate_document
from tests.test_rules_gcp import method, param, prop

C, M, R = Mutability.CREATE_ONLY, Mutability.MUTABLE, Mutability.READ_ONLY
ZONE = "projects/{project}/zones/{zone}"
RID = {"requestId": param("query", False)}


def _collection(name: str, schema: str, at: str, extra: dict[str, Any], **verbs: dict[str, Any]) -> dict[str, Any]:
    """insert/get/delete of ``ZONE/<name>/{<at>}``, plus ``extra`` methods."""
    base, one = f"{ZONE}/{name}", {"project": param(), "zone": param(), at: param()}
    scope = {"project": param(), "zone": param()}
    methods = {
        "insert": method(f"toy.{name}.insert", "POST", base, {**scope, **RID}, request=schema),
        "get": method(f"toy.{name}.get", "GET", base + "/{" + at + "}", one, response=schema),
        "delete": method(f"toy.{name}.delete", "DELETE", base + "/{" + at + "}", {**one, **RID}),
    }
    for key, (verb, body, params, description) in extra.items():
        path = base + "/{" + at + "}" + ("" if key in ("update", "patch") else "/" + key)
        methods[key] = method(f"toy.{name}.{key}", verb, path, {**one, **RID, **params}, request=body,
                              description=description)
    return {"methods": methods, **verbs}


def toy_document() -> dict[str, Any]:
    mask = {"paths": param("query", False, repeated=True),
            "updateMask": param("query", False, description="update_mask indicates fields to be updated.")}
    params = prop("Input only. [Input Only] Additional params passed with the request, but not persisted.")
    blob = {
        "name": prop("Name of the resource."), "arch": prop("The architecture of the blob."),
        "tier": prop("The tier. This value can be changed later."), "params": params,
        "sizeGb": prop("Size of the blob.", "integer"),
        "status": prop("Output only. [Output Only] The status."),
    }
    rule = {
        "name": prop("Name of the resource."), "tier": prop("The network tier."),
        "globalAccess": prop("Whether clients from all regions reach it. Note that for INTERNAL_MANAGED rules, "
                             "this field cannot be changed after the rule is created."),
        "flowLogs": prop("Flow logging options. If logging is enabled, logs are exported."),
        "port": prop("The port. This field cannot be changed after creation."),
        "note": prop("A note."), "params": params,
    }
    service = {
        "name": prop("Name of the resource."),
        "securityPolicy": prop("[Output Only] The resource URL for the security policy of this service."),
        "edgeSecurityPolicy": prop("[Output Only] The resource URL for the edge security policy."),
        "usedBy": prop("[Output Only] What uses it."),
    }
    manager = {
        "name": prop("Name of the resource."), "size": prop("Target size.", "integer"),
        "namedPorts": {"type": "array", "items": {"$ref": "NamedPort"},
                       "description": "[Output Only] Named ports configured on the Groups complementary to this "
                                      "Group Manager."},
        "fingerprint": prop("Fingerprint of this resource, used in optimistic locking.", format="byte"),
    }
    reference = {"securityPolicy": prop()}
    return {
        "kind": "discovery#restDescription", "name": "toy", "version": "v1",
        "schemas": {
            "Blob": {"id": "Blob", "type": "object", "properties": blob},
            "Rule": {"id": "Rule", "type": "object", "properties": rule},
            "Service": {"id": "Service", "type": "object", "properties": service},
            "GroupManager": {"id": "GroupManager", "type": "object", "properties": manager},
            "Group": {"id": "Group", "type": "object", "properties": {"name": prop(), "fingerprint": prop()}},
            "NamedPort": {"id": "NamedPort", "type": "object", "properties": {"name": prop(), "port": prop()}},
            "SecurityPolicyReference": {"id": "SecurityPolicyReference", "type": "object", "properties": reference},
            "SetNamedPortsRequest": {"id": "SetNamedPortsRequest", "type": "object", "properties": {
                "namedPorts": {"type": "array", "items": {"$ref": "NamedPort"}}, "fingerprint": prop(format="byte")}},
            "ResizeRequest": {"id": "ResizeRequest", "type": "object", "properties": {"sizeGb": prop()}},
            "Operation": {"id": "Operation", "type": "object", "properties": {
                "name": prop(), "status": prop(), "targetLink": prop()}},
        },
        "resources": {
            "blobs": _collection("blobs", "Blob", "blob", {
                "update": ("PATCH", "Blob", mask, "Updates the blob. The update is performed only on selected "
                                                  "fields included as part of update-mask."),
                "resize": ("POST", "ResizeRequest", {}, "Resizes the blob."),
            }),
            "rules": _collection("rules", "Rule", "rule", {
                "patch": ("PATCH", "Rule", {}, "Updates the rule. Currently, you can only patch the tier field."),
            }),
            "services": _collection("services", "Service", "service", {
                "patch": ("PATCH", "Service", {}, "Patches the service."),
                "setSecurityPolicy": ("POST", "SecurityPolicyReference", {}, "Sets the security policy."),
                "setEdgeSecurityPolicy": ("POST", "SecurityPolicyReference", {}, "Sets the edge security policy."),
            }),
            "groupManagers": _collection("groupManagers", "GroupManager", "groupManager", {
                "patch": ("PATCH", "GroupManager", {}, "Patches the manager."),
            }),
            "groups": {"methods": {
                "get": method("toy.groups.get", "GET", ZONE + "/groups/{group}",
                              {"project": param(), "zone": param(), "group": param()}, response="Group"),
                "setNamedPorts": method("toy.groups.setNamedPorts", "POST", ZONE + "/groups/{group}/setNamedPorts",
                                        {"project": param(), "zone": param(), "group": param(), **RID},
                                        request="SetNamedPortsRequest"),
            }},
        },
    }


@pytest.fixture(scope="module")
def toy() -> Service:
    _, draft = annotate_document(toy_document(), service="toy", api_version="v1")
    return draft.freeze()


ROWS = [
    # a masked update that names no fields: only what says it changes (or has its own action) does
    ("Blob", "arch", C, None, "gcp.masked-update-names-no-fields"),
    ("Blob", "tier", M, "toy.blobs.update", "gcp.update-method-carries-writable-fields"),
    ("Blob", "sizeGb", M, "toy.blobs.resize", "gcp.action-method-sets-fields"),
    ("Blob", "params", C, None, "gcp.input-only-is-create-only"),
    # the field's text is more specific than the patch's ("you can only patch the tier field")
    ("Rule", "tier", M, "toy.rules.patch", "gcp.update-method-carries-writable-fields"),
    ("Rule", "globalAccess", M, "toy.rules.patch", "gcp.field-doc-fixed-only-when"),
    ("Rule", "flowLogs", M, "toy.rules.patch", "gcp.field-doc-describes-switch"),
    ("Rule", "port", C, None, "gcp.field-doc-create-only"),
    ("Rule", "note", C, None, "gcp.update-doc-limits-fields"),
    ("Rule", "params", C, None, "gcp.input-only-is-create-only"),
    # [Output Only] in the body, set by the resource's own set… method
    ("Service", "securityPolicy", M, "toy.services.setSecurityPolicy", "gcp.set-method-sets-output-only-field"),
    ("Service", "edgeSecurityPolicy", M, "toy.services.setEdgeSecurityPolicy", "gcp.set-method-sets-output-only-field"),
    ("Service", "usedBy", R, None, "gcp.output-only"),
    # ... or by the set… method of the resource it is named after and keeps under its own name
    ("GroupManager", "namedPorts", M, "toy.groups.setNamedPorts", "gcp.companion-set-method"),
]


@pytest.mark.parametrize("resource, field, mutability, update, rule_id", ROWS)
def test_field(toy: Service, resource: str, field: str, mutability: Mutability, update: str | None,
               rule_id: str) -> None:
    f = toy.resource(resource).field(field)
    assert (f.mutability, f.update_operation, f.source) == (mutability, update, f"rule:{rule_id}")


def test_output_only_fields_set_later_are_not_sent_in_the_create(toy: Service) -> None:
    assert not toy.resource("Service").field("securityPolicy").in_create
    assert not toy.resource("GroupManager").field("namedPorts").in_create
    assert toy.resource("Service").field("name").in_create


def test_a_companion_call_addresses_the_group_by_the_managers_name_and_sends_no_token(toy: Service) -> None:
    calls = {op.name: op for op in toy.resource("GroupManager").operations.update}
    ports = calls["toy.groups.setNamedPorts"]
    assert ports.identity_members == ("project", "zone", "group") and ports.fields == ("namedPorts",)
    assert ports.idempotency_token == "requestId"
    assert calls["toy.groupManagers.patch"].fields == ("size", "fingerprint")  # its own token stays


def test_security_policy_members_carry_the_field(toy: Service) -> None:
    edge = toy.resource("Service").field("edgeSecurityPolicy")
    assert edge.update_name == "securityPolicy"  # SecurityPolicyReference's member
