"""The GCP rules: each behaviour on a tiny hand-written discovery document (with the rule id that
decided it), the text readers, and accuracy on the pinned documents for what kOps and CAPG create.

Pinned expectations are what Google's API reference says. Where the rules alone get one wrong
because the discovery text does not (or no longer) say it, the row is marked ``OVERLAY``: an
expected failure naming what an overlay must correct. Overlay corrections are tested elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codegen.model import Mutability, Service
from codegen.providers.gcp.rules.run import GCP_RULES, annotate_document
from codegen.providers.gcp.rules.text import (
    behaviours,
    methods_named,
    says_create_only,
    update_limit,
)
from codegen.providers.gcp.shapes import gcp, gcp_field
from codegen.providers.gcp.source import load_pinned

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
C, M, R, U = Mutability.CREATE_ONLY, Mutability.MUTABLE, Mutability.READ_ONLY, Mutability.UNKNOWN

# --- a tiny discovery document ---------------------------------------------------------------


def param(location: str = "path", required: bool = True, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "location": location, "required": required, **extra}


def method(mid: str, verb: str, path: str, params: dict[str, Any], *, request: str | None = None,
           response: str | None = "Operation", description: str = "", flat: str | None = None) -> dict[str, Any]:
    order = [n for n, p in params.items() if p["location"] == "path"]
    out: dict[str, Any] = {"id": mid, "httpMethod": verb, "path": path, "parameters": params,
                           "parameterOrder": order, "description": description}
    if flat:
        out["flatPath"] = flat
    if request:
        out["request"] = {"$ref": request}
    if response:
        out["response"] = {"$ref": response}
    return out


def prop(description: str = "", kind: str = "string", **extra: Any) -> dict[str, Any]:
    return {"type": kind, "description": description, **extra}


GLOBAL = "projects/{project}/global/widgets"
WIDGET = GLOBAL + "/{widget}"
WIDGET_AT = {"project": param(), "widget": param()}
REGIONAL = "projects/{project}/regions/{region}/gadgets"
GADGET_AT = {"project": param(), "region": param(), "gadget": param()}
POOLS = "v1/projects/{projectsId}/locations/{locationsId}/pools"


def _widgets() -> dict[str, Any]:
    rid = {"requestId": param("query", False)}
    res = {"resource": param()}
    return {"methods": {
        "insert": method("toy.widgets.insert", "POST", GLOBAL, {"project": param(), **rid}, request="Widget"),
        "get": method("toy.widgets.get", "GET", WIDGET, WIDGET_AT, response="Widget"),
        "delete": method("toy.widgets.delete", "DELETE", WIDGET, {**WIDGET_AT, **rid}),
        "list": method("toy.widgets.list", "GET", GLOBAL, {"project": param(), "filter": param("query", False),
                       "pageToken": param("query", False)}, response="WidgetList"),
        "patch": method("toy.widgets.patch", "PATCH", WIDGET, {**WIDGET_AT, **rid}, request="Widget",
                        description="Patches a widget. Only size can be modified."),
        "setLabels": method("toy.widgets.setLabels", "POST", GLOBAL + "/{resource}/setLabels",
                            {"project": param(), **res}, request="SetLabelsRequest"),
        "resize": method("toy.widgets.resize", "POST", WIDGET + "/resize",
                         {**WIDGET_AT, "count": param("query"), **rid}),
        "addGadget": method("toy.widgets.addGadget", "POST", WIDGET + "/addGadget", WIDGET_AT, request="Gadgets"),
        "removeGadget": method("toy.widgets.removeGadget", "POST", WIDGET + "/removeGadget", WIDGET_AT,
                               request="Gadgets"),
        "expandRange": method("toy.widgets.expandRange", "POST", WIDGET + "/expandRange", WIDGET_AT,
                              request="ExpandRangeRequest"),
        "setIamPolicy": method("toy.widgets.setIamPolicy", "POST", WIDGET + "/setIamPolicy", WIDGET_AT,
                               request="Policy", response="Policy"),
    }}


def _gadgets() -> dict[str, Any]:
    return {"methods": {
        "insert": method("toy.gadgets.insert", "POST", REGIONAL, {"project": param(), "region": param()},
                         request="Gadget"),
        "get": method("toy.gadgets.get", "GET", REGIONAL + "/{gadget}", GADGET_AT, response="Gadget"),
        "delete": method("toy.gadgets.delete", "DELETE", REGIONAL + "/{gadget}", GADGET_AT),
        "update": method("toy.gadgets.update", "PUT", REGIONAL + "/{gadget}", GADGET_AT, request="Gadget"),
        "patch": method("toy.gadgets.patch", "PATCH", REGIONAL + "/{gadget}", GADGET_AT, request="Gadget"),
    }}


def _aip() -> dict[str, Any]:
    name = {"name": param(pattern="^projects/[^/]+/locations/[^/]+/pools/[^/]+$")}
    pool_flat = POOLS + "/{poolsId}"
    accounts = "v1/projects/{projectsId}/accounts"
    return {"resources": {
        "locations": {"resources": {"pools": {
            "methods": {
                "create": method("toy.projects.locations.pools.create", "POST", "v1/{+parent}/pools",
                                 {"parent": param(), "poolId": param("query", False)}, request="Pool",
                                 flat=POOLS),
                "get": method("toy.projects.locations.pools.get", "GET", "v1/{+name}", name, response="Pool",
                              flat=pool_flat),
                "delete": method("toy.projects.locations.pools.delete", "DELETE", "v1/{+name}", name,
                                 flat=pool_flat),
                "patch": method("toy.projects.locations.pools.patch", "PATCH", "v1/{+name}",
                                {**name, "updateMask": param("query", False)}, request="Pool", flat=pool_flat),
            },
            "resources": {"operations": {"methods": {
                "get": method("toy.projects.locations.pools.operations.get", "GET", "v1/{+name}",
                              {"name": param()}, response="LongrunningOperation",
                              flat=pool_flat + "/operations/{operationsId}"),
            }}},
        }}},
        "accounts": {"methods": {
            "create": method("toy.projects.accounts.create", "POST", "v1/{+name}/accounts", {"name": param()},
                             request="CreateAccountRequest", response="Account", flat=accounts),
            "get": method("toy.projects.accounts.get", "GET", "v1/{+name}", {"name": param()},
                          response="Account", flat=accounts + "/{accountsId}"),
            "delete": method("toy.projects.accounts.delete", "DELETE", "v1/{+name}", {"name": param()},
                             response=None, flat=accounts + "/{accountsId}"),
            "patch": method("toy.projects.accounts.patch", "PATCH", "v1/{+name}", {"name": param()},
                            request="PatchAccountRequest", response="Account", flat=accounts + "/{accountsId}"),
        }},
    }}


def _things() -> dict[str, Any]:
    at = {"project": param(), "thing": param()}
    base = "projects/{project}/things"
    return {"methods": {
        "insert": method("toy.things.insert", "POST", base, {"project": param()}, request="Thing"),
        "get": method("toy.things.get", "GET", base + "/{thing}", at, response="Thing"),
        "delete": method("toy.things.delete", "DELETE", base + "/{thing}", at),
        "update": method("toy.things.update", "PUT", base + "/{thing}", at, request="Thing",
                         description="This method can update only a specific set of thing properties."),
    }}


def _schemas() -> dict[str, Any]:
    labels = {"type": "object", "additionalProperties": {"type": "string"}}
    fingerprint = prop("Fingerprint of this resource, used in optimistic locking.", format="byte")
    return {
        "Widget": {"id": "Widget", "type": "object", "properties": {
            "name": prop("Name of the resource.", annotations={"required": ["toy.widgets.insert"]}),
            "id": prop("The unique identifier.", readOnly=True),
            "kind": prop("Type of the resource."),
            "selfLink": prop("[Output Only] Server-defined URL for the resource."),
            "description": prop("An optional description."),
            "size": prop("The widget's size. The default is 10.", "integer"),
            "color": prop("The colour. This field can be set only at resource creation time."),
            "labels": {**labels, "description": "Labels. These can only be modified by thesetLabels method."},
            "labelFingerprint": prop("A fingerprint for the labels, used for optimistic locking.", format="byte"),
            "fingerprint": fingerprint,
            "targetCount": prop("How many widgets.", "integer"),
            "gadgets": {"type": "array", "items": {"type": "string"},
                        "description": "URLs of the gadget resources this widget drives."},
            "ipRange": prop("The range. It can be expanded after creation usingexpandRange."),
            "secretKey": prop("Input only. [Input Only] The key, used once."),
            "gadget": prop("URL of the gadget to which this widget belongs."),
            "creationTimestamp": prop("Output only. [Output Only] Creation timestamp."),
        }},
        "Gadget": {"id": "Gadget", "type": "object", "properties": {
            "name": prop("Name of the resource."),
            "region": prop("[Output Only] URL of the region where the gadget resides."),
            "zone": prop("The zone."),
            "mode": prop("Immutable. The mode."),
            "note": prop("A note."),
            "fingerprint": fingerprint,
        }},
        "Pool": {"id": "Pool", "type": "object", "properties": {
            "name": prop("Identifier. The resource name of the pool."),
            "displayName": prop("Optional. A display name."),
            "state": prop("Output only. The state."),
            "etag": prop("Checksum for optimistic concurrency."),
        }},
        "Account": {"id": "Account", "type": "object", "properties": {
            "name": prop("The resource name of the account."),
            "email": prop("Output only. The email address.", readOnly=True),
            "displayName": prop("Optional. A display name."),
        }},
        "CreateAccountRequest": {"id": "CreateAccountRequest", "type": "object", "properties": {
            "accountId": prop("Required. The id that makes the account's email address."),
            "account": {"$ref": "Account"},
        }},
        "PatchAccountRequest": {"id": "PatchAccountRequest", "type": "object", "properties": {
            "account": {"$ref": "Account"}, "updateMask": prop(),
        }},
        "Thing": {"id": "Thing", "type": "object", "properties": {
            "name": prop("Name."), "shape": prop("The shape."), "size": prop("The size. This field is output only."),
        }},
        "WidgetList": {"id": "WidgetList", "type": "object", "properties": {
            "items": {"type": "array", "items": {"$ref": "Widget"}}, "nextPageToken": prop(),
        }},
        "SetLabelsRequest": {"id": "SetLabelsRequest", "type": "object", "properties": {
            "labels": labels, "labelFingerprint": prop(format="byte"),
        }},
        "Gadgets": {"id": "Gadgets", "type": "object", "properties": {
            "gadgets": {"type": "array", "items": {"type": "string"}},
        }},
        "ExpandRangeRequest": {"id": "ExpandRangeRequest", "type": "object", "properties": {"ipRange": prop()}},
        "Policy": {"id": "Policy", "type": "object", "properties": {"etag": prop(), "bindings": prop()}},
        "Operation": {"id": "Operation", "type": "object", "properties": {
            "name": prop(), "status": prop(), "targetLink": prop(),
        }},
        "LongrunningOperation": {"id": "LongrunningOperation", "type": "object", "properties": {
            "name": prop(), "done": prop(kind="boolean"),
        }},
    }


def _operations(scope: str, path: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"methods": {
        "get": method(f"toy.{scope}.get", "GET", path, params),
        "wait": method(f"toy.{scope}.wait", "POST", path + "/wait", params),
    }}


def toy_document() -> dict[str, Any]:
    region_ops = {"project": param(), "region": param(), "operation": param()}
    return {
        "kind": "discovery#restDescription", "name": "toy", "version": "v1", "revision": "20240101",
        "schemas": _schemas(),
        "resources": {
            "widgets": _widgets(),
            "gadgets": _gadgets(),
            "things": _things(),
            "projects": _aip(),
            "regions": {"methods": {"get": method("toy.regions.get", "GET", "projects/{project}/regions/{region}",
                                                  {"project": param(), "region": param()}, response="Gadget")}},
            "globalOperations": _operations("globalOperations", "projects/{project}/global/operations/{operation}",
                                            {"project": param(), "operation": param()}),
            "regionOperations": _operations("regionOperations",
                                            "projects/{project}/regions/{region}/operations/{operation}", region_ops),
        },
    }


@pytest.fixture(scope="module")
def toy() -> Service:
    _, draft = annotate_document(toy_document(), service="toy", api_version="v1")
    return draft.freeze()


def field_facts(service: Service, resource: str, field: str) -> tuple[Mutability, str | None, str]:
    f = service.resource(resource).field(field)
    return f.mutability, f.update_operation, f.source


# --- the rules on the toy document -----------------------------------------------------------


def test_rule_ids_are_unique_namespaced_and_documented() -> None:
    ids = [r.id for r in GCP_RULES]
    assert len(ids) == len(set(ids)) and all(i.startswith("gcp.") for i in ids)
    assert all(r.doc for r in GCP_RULES), "every rule says what it decides"


def test_resources_are_insert_get_delete_collections(toy: Service) -> None:
    # regions has only get; operations collections have no insert
    assert {r.name for r in toy.resources} == {"Widget", "Gadget", "Thing", "Pool", "Account"}


def test_widget_operations_are_method_ids(toy: Service) -> None:
    w = toy.resource("Widget")
    assert w.operations.names() == {
        "create": "toy.widgets.insert", "read": "toy.widgets.get", "list": "toy.widgets.list",
        "update": ["toy.widgets.patch", "toy.widgets.resize", "toy.widgets.addGadget",
                   "toy.widgets.removeGadget", "toy.widgets.expandRange"],
        "delete": "toy.widgets.delete", "tag": "toy.widgets.setLabels", "untag": "toy.widgets.setLabels",
    }
    listing = w.operations.list
    assert listing is not None and (listing.natural_filter, listing.paginated, listing.output_member) == (
        "filter", True, "items")


def test_widget_identity_scope_and_calls(toy: Service) -> None:
    w = toy.resource("Widget")
    assert (w.identity.primary, w.identity.natural, w.identity.parent, w.identity.arn) == (
        ("name",), ("name",), ("project",), "selfLink")
    assert w.identity.provenance["primary"] == "rule:gcp.name-within-scope"
    create, read = w.operations.create, w.operations.read
    assert create is not None and read is not None
    assert (create.identity_members, create.idempotency_token, create.id_member) == (
        ("project",), "requestId", "targetLink")
    assert (read.identity_members, read.id_filter) == (("project", "widget"), "widget")
    assert w.waiters == ("toy.globalOperations.wait",)


WIDGET_FIELDS = [
    ("id", R, None, "rule:gcp.output-only"),
    ("selfLink", R, None, "rule:gcp.output-only"),
    ("creationTimestamp", R, None, "rule:gcp.output-only"),
    ("kind", R, None, "rule:gcp.standard-output-fields"),
    ("name", C, None, "rule:gcp.name-is-fixed"),
    ("size", M, "toy.widgets.patch", "rule:gcp.update-method-carries-writable-fields"),
    ("description", C, None, "rule:gcp.update-doc-limits-fields"),
    ("color", C, None, "rule:gcp.field-doc-create-only"),
    ("gadget", C, None, "rule:gcp.containing-resource-is-fixed"),
    ("labels", M, "toy.widgets.setLabels", "rule:gcp.action-method-sets-fields"),
    ("labelFingerprint", R, "toy.widgets.setLabels", "rule:gcp.fingerprints-are-lock-tokens"),
    ("fingerprint", R, "toy.widgets.patch", "rule:gcp.fingerprints-are-lock-tokens"),
    ("targetCount", M, "toy.widgets.resize", "rule:gcp.action-method-sets-fields"),
    ("gadgets", M, "toy.widgets.addGadget", "rule:gcp.action-method-sets-fields"),
    ("ipRange", M, "toy.widgets.expandRange", "rule:gcp.action-method-sets-fields"),
]


@pytest.mark.parametrize("field, mutability, update, rule_source", WIDGET_FIELDS)
def test_widget_fields(toy: Service, field: str, mutability: Mutability, update: str | None,
                       rule_source: str) -> None:
    assert field_facts(toy, "Widget", field) == (mutability, update, rule_source)


def test_widget_flags(toy: Service) -> None:
    w = toy.resource("Widget")
    assert w.field("name").required and not w.field("size").required
    assert w.field("size").server_default and not w.field("color").server_default
    assert w.field("secretKey").write_only and w.field("secretKey").sensitive
    assert w.field("gadgets").unordered and w.field("gadgets").references == "Gadget"
    assert w.field("gadget").references == "Gadget"


def test_tokens_travel_with_the_methods_that_need_them(toy: Service) -> None:
    w = toy.resource("Widget")
    patch = next(op for op in w.operations.update if op.name == "toy.widgets.patch")
    assert patch.fields == ("size", "fingerprint")
    assert w.operations.tag is not None and w.operations.tag.fields == ("labels", "labelFingerprint")
    assert w.tags is not None and (w.tags.field, w.tags.create_member, w.tags.tag_operation,
                                   w.tags.selector_member) == ("labels", "labels", "toy.widgets.setLabels", "resource")
    remove = next(op for op in w.operations.update if op.name == "toy.widgets.removeGadget")
    assert remove.fields == ("gadgets",)


def test_iam_policy_methods_are_no_update(toy: Service) -> None:
    assert "toy.widgets.setIamPolicy" not in toy.resource("Widget").operations.names()["update"]


def test_regional_resource_prefers_patch_and_reads_scope_from_path(toy: Service) -> None:
    g = toy.resource("Gadget")
    assert g.identity.parent == ("project", "region")
    assert field_facts(toy, "Gadget", "region") == (R, None, "rule:gcp.output-only")
    assert field_facts(toy, "Gadget", "mode") == (C, None, "rule:gcp.field-doc-create-only")
    assert field_facts(toy, "Gadget", "note")[:2] == (M, "toy.gadgets.patch")
    assert g.operations.names()["update"] == ["toy.gadgets.patch"]
    assert g.waiters == ("toy.regionOperations.wait",)


def test_aip_create_with_id_parameter(toy: Service) -> None:
    p = toy.resource("Pool")
    assert (p.identity.primary, p.identity.natural, p.identity.parent, p.identity.arn) == (
        ("name",), ("poolId",), ("project", "location"), "name")
    assert field_facts(toy, "Pool", "poolId") == (C, None, "rule:gcp.id-parameter-names-resource")
    assert p.field("poolId").write_only
    assert field_facts(toy, "Pool", "name") == (R, None, "rule:gcp.id-parameter-names-resource")
    assert field_facts(toy, "Pool", "displayName")[:2] == (M, "toy.projects.locations.pools.patch")
    assert field_facts(toy, "Pool", "etag") == (R, "toy.projects.locations.pools.patch",
                                                "rule:gcp.fingerprints-are-lock-tokens")
    assert p.waiters == ("toy.projects.locations.pools.operations.get",)


def test_iam_style_wrapper_body(toy: Service) -> None:
    a = toy.resource("Account")
    assert a.identity.natural == ("accountId",) and a.identity.parent == ("project",)
    account_id = a.field("accountId")
    assert (account_id.mutability, account_id.required, account_id.write_only) == (C, True, True)
    assert field_facts(toy, "Account", "name")[0] is R
    assert field_facts(toy, "Account", "email")[0] is R
    assert field_facts(toy, "Account", "displayName")[:2] == (M, "toy.projects.accounts.patch")
    assert a.waiters == ()


def test_unnamed_limit_leaves_fields_unknown(toy: Service) -> None:
    assert field_facts(toy, "Thing", "shape") == (U, None, "rule:gcp.update-doc-limits-fields")
    assert field_facts(toy, "Thing", "size")[0] is R  # "This field is output only."


# --- reading the text ------------------------------------------------------------------------


def test_behaviours_from_leading_words_and_compute_brackets() -> None:
    b = behaviours("Required. Immutable. The zone.")
    assert (b.required, b.immutable, b.output_only) == (True, True, False)
    assert behaviours("Output only. [Output Only] The id.").output_only
    assert behaviours("Unique identifier; defined by the server (output only).").output_only
    assert not behaviours("Output only for PARTNER type, mutable for PARTNER_PROVIDER.").output_only
    assert behaviours("Input only. [Input Only] Additional params.").input_only


def test_create_only_phrases() -> None:
    assert says_create_only("This field can be set only at resource creation time.")
    assert says_create_only("haPolicy can be added only at backend service creation time.")
    assert says_create_only("The IP address can only be set at creation. Once set, it cannot be updated.")
    assert says_create_only("The source image used to create this disk.")
    assert not says_create_only("These can only be added or modified by thesetLabels method.")
    assert not says_create_only("This field can be both set at resource creation time and updated usingpatch.")


def test_method_names_inside_glued_words() -> None:
    methods = {"patch", "setLabels", "setPrivateIpGoogleAccess", "expandIpCidrRange"}
    assert methods_named("can be both set at creation and updated usingpatch.", methods) == ["patch"]
    assert methods_named("This field can be updated with a patch request.", methods) == ["patch"]
    assert methods_named("These can only be modified by thesetLabels method.", methods) == ["setLabels"]
    assert methods_named("The range can be expanded after creation usingexpandIpCidrRange.", methods) == [
        "expandIpCidrRange"]
    assert methods_named("For custom networks, add subnets using the subnetworks insert method.", methods) == []


def test_update_limits() -> None:
    fields = {"routingConfig", "networkTier", "displayName", "description", "mtu"}
    assert update_limit("Patches a network. Only routingConfig can be modified.", fields).fields == ("routingConfig",)
    limit = update_limit("Currently, you can only patch the network_tier field.", fields)
    assert limit is not None and limit.fields == ("networkTier",)
    assert update_limit("You can update only the `display_name` field.", fields).fields == ("displayName",)
    limit = update_limit("Only certain fields can be updated with a patch request as indicated in the field "
                         "descriptions.", fields)
    assert limit is not None and limit.kind == "field-docs"
    limit = update_limit("This method can update only a specific set of instance properties.", fields)
    assert limit is not None and limit.kind == "unnamed"
    assert update_limit("The update is performed only on selected fields included as part of update-mask.",
                        fields) is None
    assert update_limit("Updates the specified firewall rule with the data included in the request.", fields) is None
    assert update_limit("The update method replaces the entire resource, whereas the patch method only replaces "
                        "fields that are provided in the submitted resource.", fields) is None


# --- accuracy on the pinned documents: what kOps and CAPG create -----------------------------


@pytest.fixture(scope="module")
def pinned() -> dict[str, Service]:
    out = {}
    for api in ("compute", "iam", "storage"):
        src = load_pinned(SCHEMAS, api)
        _, draft = annotate_document(src.document, service=api, api_version=src.version)
        out[api] = draft.freeze()
    return out


def OVERLAY(reason: str) -> pytest.MarkDecorator:
    """The documentation text does not decide it (or says something out of date): an overlay must."""
    return pytest.mark.xfail(strict=True, reason=f"text cannot decide: {reason}")


def row(api: str, resource: str, field: str, mutability: Mutability, update: str | None = None,
        overlay: str | None = None) -> Any:
    marks = [OVERLAY(overlay)] if overlay else []
    update = f"{api}.{update}" if update else None
    return pytest.param(api, resource, field, mutability, update, marks=marks, id=f"{resource}.{field}")


CP = "compute"
# (api, resource, field, mutability, update method) — from Google's API reference
FIELDS = [
    row(CP, "Network", "name", C),
    row(CP, "Network", "autoCreateSubnetworks", C),
    row(CP, "Network", "routingConfig", M, "networks.patch"),
    row(CP, "Network", "selfLink", R),
    row(CP, "Network", "subnetworks", R),
    row(CP, "Network", "peerings", R),
    row(CP, "Network", "mtu", C),  # networks.patch: "Only routingConfig can be modified."
    row(CP, "Subnetwork", "name", C),
    row(CP, "Subnetwork", "network", C),
    row(CP, "Subnetwork", "region", R),
    row(CP, "Subnetwork", "description", C),
    row(CP, "Subnetwork", "ipCidrRange", M, "subnetworks.expandIpCidrRange"),
    row(CP, "Subnetwork", "privateIpGoogleAccess", M, "subnetworks.setPrivateIpGoogleAccess"),
    row(CP, "Subnetwork", "secondaryIpRanges", M, "subnetworks.patch"),
    row(CP, "Subnetwork", "stackType", M, "subnetworks.patch"),
    row(CP, "Subnetwork", "fingerprint", R, "subnetworks.patch"),
    row(CP, "Subnetwork", "logConfig", M, "subnetworks.patch"),
    row(CP, "Firewall", "name", C),
    row(CP, "Firewall", "direction", C, overlay="nothing in the text says direction is fixed"),
    row(CP, "Firewall", "network", C, overlay="'the network resource for this firewall rule' does not say fixed"),
    row(CP, "Firewall", "sourceRanges", M, "firewalls.patch"),
    row(CP, "Firewall", "allowed", M, "firewalls.patch"),
    row(CP, "Firewall", "targetTags", M, "firewalls.patch"),
    row(CP, "Firewall", "priority", M, "firewalls.patch"),
    row(CP, "Firewall", "disabled", M, "firewalls.patch"),
    row(CP, "Router", "name", C),
    row(CP, "Router", "network", C),
    row(CP, "Router", "region", R),
    row(CP, "Router", "nats", M, "routers.patch"),
    row(CP, "Router", "bgp", M, "routers.patch"),
    row(CP, "Router", "bgpPeers", M, "routers.patch"),
    row(CP, "Address", "name", C),
    row(CP, "Address", "address", C),
    row(CP, "Address", "addressType", C),
    row(CP, "Address", "subnetwork", C),
    row(CP, "Address", "labels", M, "addresses.setLabels"),
    row(CP, "Address", "labelFingerprint", R, "addresses.setLabels"),
    row(CP, "Address", "status", R),
    row(CP, "Address", "users", R),
    row(CP, "GlobalAddress", "name", C),
    row(CP, "GlobalAddress", "address", C),
    row(CP, "GlobalAddress", "labels", M, "globalAddresses.setLabels"),
    row(CP, "ForwardingRule", "name", C),
    row(CP, "ForwardingRule", "IPAddress", C),
    row(CP, "ForwardingRule", "IPProtocol", C),
    row(CP, "ForwardingRule", "portRange", C),
    row(CP, "ForwardingRule", "loadBalancingScheme", C),
    row(CP, "ForwardingRule", "backendService", C),
    row(CP, "ForwardingRule", "target", M, "forwardingRules.setTarget"),
    row(CP, "ForwardingRule", "labels", M, "forwardingRules.setLabels"),
    row(CP, "ForwardingRule", "networkTier", M, "forwardingRules.patch"),
    row(CP, "ForwardingRule", "allowGlobalAccess", M, "forwardingRules.patch"),
    row(CP, "TargetPool", "name", C),
    row(CP, "TargetPool", "sessionAffinity", C),
    row(CP, "TargetPool", "instances", M, "targetPools.addInstance"),
    row(CP, "TargetPool", "healthChecks", M, "targetPools.addHealthCheck"),
    row(CP, "TargetPool", "backupPool", M, "targetPools.setBackup"),
    row(CP, "TargetPool", "failoverRatio", M, "targetPools.setBackup"),
    row(CP, "HealthCheck", "name", C),
    row(CP, "HealthCheck", "checkIntervalSec", M, "healthChecks.patch"),
    row(CP, "HealthCheck", "timeoutSec", M, "healthChecks.patch"),
    row(CP, "HealthCheck", "tcpHealthCheck", M, "healthChecks.patch"),
    row(CP, "HealthCheck", "unhealthyThreshold", M, "healthChecks.patch"),
    row(CP, "BackendService", "name", C),
    row(CP, "BackendService", "backends", M, "backendServices.patch"),
    row(CP, "BackendService", "healthChecks", M, "backendServices.patch"),
    row(CP, "BackendService", "timeoutSec", M, "backendServices.patch"),
    row(CP, "BackendService", "protocol", M, "backendServices.patch"),
    row(CP, "BackendService", "fingerprint", R, "backendServices.patch"),
    row(CP, "BackendService", "haPolicy", C),
    row(CP, "BackendService", "securityPolicy", M, "backendServices.setSecurityPolicy"),
    row(CP, "InstanceTemplate", "name", C),
    row(CP, "InstanceTemplate", "properties", C),
    row(CP, "InstanceTemplate", "description", C),
    row(CP, "InstanceGroupManager", "name", C),
    row(CP, "InstanceGroupManager", "zone", R),
    row(CP, "InstanceGroupManager", "targetSize", M, "instanceGroupManagers.resize"),
    row(CP, "InstanceGroupManager", "instanceTemplate", M, "instanceGroupManagers.setInstanceTemplate"),
    row(CP, "InstanceGroupManager", "targetPools", M, "instanceGroupManagers.setTargetPools"),
    row(CP, "InstanceGroupManager", "versions", M, "instanceGroupManagers.patch"),
    row(CP, "InstanceGroupManager", "updatePolicy", M, "instanceGroupManagers.patch"),
    row(CP, "InstanceGroupManager", "autoHealingPolicies", M, "instanceGroupManagers.patch"),
    row(CP, "InstanceGroupManager", "fingerprint", R, "instanceGroupManagers.patch"),
    row(CP, "Disk", "name", C),
    row(CP, "Disk", "zone", R),
    row(CP, "Disk", "users", R),
    row(CP, "Disk", "sizeGb", M, "disks.resize"),
    row(CP, "Disk", "labels", M, "disks.setLabels"),
    row(CP, "Disk", "labelFingerprint", R, "disks.setLabels"),
    row(CP, "Disk", "sourceImage", C),
    row(CP, "Disk", "sourceSnapshot", C),
    row(CP, "Disk", "resourcePolicies", M, "disks.addResourcePolicies"),
    row(CP, "Disk", "type", C),
    row("iam", "ServiceAccount", "accountId", C),
    row("iam", "ServiceAccount", "name", R),
    row("iam", "ServiceAccount", "email", R),
    row("iam", "ServiceAccount", "uniqueId", R),
    row("iam", "ServiceAccount", "displayName", M, "projects.serviceAccounts.patch"),
    row("iam", "ServiceAccount", "description", M, "projects.serviceAccounts.patch"),
    row("iam", "ServiceAccount", "etag", R, "projects.serviceAccounts.patch"),
    row("storage", "Bucket", "name", C),
    row("storage", "Bucket", "storageClass", M, "buckets.patch"),
    row("storage", "Bucket", "labels", M, "buckets.patch"),
    row("storage", "Bucket", "versioning", M, "buckets.patch"),
    row("storage", "Bucket", "lifecycle", M, "buckets.patch"),
    row("storage", "Bucket", "iamConfiguration", M, "buckets.patch"),
    row("storage", "Bucket", "timeCreated", R),
    row("storage", "Bucket", "updated", R),
    row("storage", "Bucket", "id", R),
    row("storage", "Bucket", "metageneration", R, "buckets.patch"),
    row("storage", "Bucket", "location", C, overlay="storage's text never says what is fixed (relocate moves it)"),
    row("storage", "Bucket", "locationType", R, overlay="storage marks no field output-only"),
    row("storage", "Bucket", "projectNumber", R, overlay="storage marks no field output-only"),
    row("storage", "Bucket", "owner", R, overlay="storage marks no field output-only"),
]


@pytest.mark.parametrize("api, resource, field, mutability, update", FIELDS)
def test_pinned_field(pinned: dict[str, Service], api: str, resource: str, field: str,
                      mutability: Mutability, update: str | None) -> None:
    f = pinned[api].resource(resource).field(field)
    assert (f.mutability, f.update_operation) == (mutability, update), f.source


KOPS_SET = ["Network", "Subnetwork", "Firewall", "Router", "Address", "GlobalAddress", "ForwardingRule",
            "TargetPool", "HealthCheck", "BackendService", "InstanceTemplate", "InstanceGroupManager", "Disk"]


def test_kops_set_is_found_with_scope_and_waiters(pinned: dict[str, Service]) -> None:
    compute = pinned["compute"]
    scopes = {name: compute.resource(name).identity.parent for name in KOPS_SET}
    assert scopes["Network"] == ("project",) and scopes["GlobalAddress"] == ("project",)
    assert scopes["Subnetwork"] == ("project", "region") and scopes["Address"] == ("project", "region")
    assert scopes["Disk"] == ("project", "zone") and scopes["InstanceGroupManager"] == ("project", "zone")
    waits = {compute.resource(n).waiters[0].split(".")[1] for n in ("Network", "Subnetwork", "Disk")}
    assert waits == {"globalOperations", "regionOperations", "zoneOperations"}
    for name in KOPS_SET:
        r = compute.resource(name)
        assert (r.identity.primary, r.identity.arn) == (("name",), "selfLink"), name
        assert r.operations.create is not None and r.operations.create.idempotency_token == "requestId", name


def test_pinned_references_and_tags(pinned: dict[str, Service]) -> None:
    compute = pinned["compute"]
    assert compute.resource("Subnetwork").field("network").references == "Network"
    assert compute.resource("InstanceGroupManager").field("instanceTemplate").references == "InstanceTemplate"
    assert compute.resource("TargetPool").field("healthChecks").references == "HttpHealthCheck"
    disk = compute.resource("Disk")
    assert disk.tags is not None and (disk.tags.field, disk.tags.create_member, disk.tags.tag_operation) == (
        "labels", "labels", "compute.disks.setLabels")
    bucket = pinned["storage"].resource("Bucket")
    assert bucket.tags is not None and bucket.tags.tag_operation == "storage.buckets.patch"
    account = pinned["iam"].resource("ServiceAccount")
    assert (account.identity.natural, account.identity.parent, account.identity.arn) == (
        ("accountId",), ("project",), "name")
    assert account.field("accountId").write_only and account.field("accountId").required


# --- overlays apply to GCP drafts as to AWS ones ---------------------------------------------


def test_overlay_corrects_gcp_rules_with_method_ids(tmp_path: Path) -> None:
    from codegen.pipeline import annotate

    overlays = tmp_path / "schemas" / "overlays" / "gcp"
    overlays.mkdir(parents=True)
    (overlays / "compute.yaml").write_text(
        "resources:\n"
        "  Firewall:\n"
        "    fields:\n"
        "      direction: {mutability: create_only}\n"
        "  Network:\n"
        "    fields:\n"
        "      mtu: {mutability: mutable, update_operation: compute.networks.patch}\n"
    )
    compute = annotate("gcp", load_pinned(SCHEMAS, "compute"), tmp_path / "schemas")
    direction = compute.resource("Firewall").field("direction")
    assert (direction.mutability, direction.update_operation) == (C, None)
    assert direction.source == "overlay:schemas/overlays/gcp/compute.yaml#resources.Firewall.fields.direction.mutability"
    patch = next(op for op in compute.resource("Network").operations.update if op.name == "compute.networks.patch")
    assert "mtu" in patch.fields


def test_overlay_naming_an_unknown_method_is_an_error(tmp_path: Path) -> None:
    from codegen.errors import TasklayerError
    from codegen.pipeline import annotate

    overlays = tmp_path / "schemas" / "overlays" / "gcp"
    overlays.mkdir(parents=True)
    (overlays / "compute.yaml").write_text(
        "resources:\n  Network:\n    fields:\n      mtu: {mutability: mutable, update_operation: compute.networks.pach}\n"
    )
    with pytest.raises(TasklayerError) as info:
        annotate("gcp", load_pinned(SCHEMAS, "compute"), tmp_path / "schemas")
    assert "compute.networks.pach" in str(info.value)


def test_resource_name_paths_for_aip_calls() -> None:
    """iam addresses a service account by a server-made path: the create and the list take
    their parent's, the rest the account's own name; the create wraps and names it."""
    from pathlib import Path

    from codegen.pipeline import annotate
    from codegen.providers.gcp.source import load_pinned

    schemas = Path(__file__).resolve().parent.parent / "schemas"
    ops = annotate("gcp", load_pinned(schemas, "iam"), schemas).resource("ServiceAccount").operations
    assert ops.create is not None and gcp(ops.create).param_templates == (("name", "projects/{project}"),)
    assert (gcp(ops.create).body_member, gcp(ops.create).id_param, gcp(ops.create).id_in_query) == ("serviceAccount", "accountId", False)
    assert ops.read is not None and gcp(ops.read).param_templates == (("name", "{name}"),)
    patch = ops.update[0]
    assert (gcp(patch).body_member, gcp(patch).mask_param, gcp(patch).mask_in_body) == ("serviceAccount", "updateMask", True)
    compute = annotate("gcp", load_pinned(schemas, "compute"), schemas).resource("Network").operations
    assert compute.read is not None and gcp(compute.read).param_templates == ()  # plain {network} segments


# --- what each call sends, by rule -------------------------------------------------------------


def _declared(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    def walk(resources: dict[str, Any]) -> None:
        for resource in resources.values():
            out.update({m["id"]: m for m in (resource.get("methods") or {}).values()})
            walk(resource.get("resources") or {})

    walk(document["resources"])
    return out


def test_every_mutating_call_that_declares_request_id_carries_it(pinned: dict[str, Service]) -> None:
    methods = _declared(load_pinned(SCHEMAS, "compute").document)
    calls = [op for r in pinned["compute"].resources for op in
             (r.operations.create, r.operations.delete, r.operations.tag, *r.operations.update) if op is not None]
    declared = [op for op in calls if "requestId" in methods[op.name].get("parameters", {})]
    assert len(declared) > 100 and all(op.idempotency_token == "requestId" for op in declared)
    assert all(op.idempotency_token is None for op in calls if op not in declared)
    labels = pinned["compute"].resource("GlobalAddress").operations.tag
    assert labels is not None and labels.name == "compute.globalAddresses.setLabels" and labels.idempotency_token is None


def test_bodies_follow_the_request_schemas(pinned: dict[str, Service]) -> None:
    compute = pinned["compute"]
    firewall = {op.name: op for op in compute.resource("Firewall").operations.update}
    assert gcp(firewall["compute.firewalls.patch"]).required_members == ("name",)  # annotations.required
    assert "rule:gcp.method-required-members" in firewall["compute.firewalls.patch"].source
    pool = {op.name: op for op in compute.resource("TargetPool").operations.update}
    assert gcp(pool["compute.targetPools.addHealthCheck"]).item_keys == (("healthChecks", "healthCheck"),)
    assert gcp(pool["compute.targetPools.removeInstance"]).item_keys == (("instances", "instance"),)
    network = compute.resource("Network")
    # "Only routingConfig can be modified", but enableUlaInternalIpv6's own text describes switching
    # it on (gcp.field-doc-describes-switch): the field's text is the more specific
    assert [op.fields for op in network.operations.update] == [("enableUlaInternalIpv6", "routingConfig")]
    ip = compute.resource("ForwardingRule").field("IPAddress")
    assert (ip.references, gcp_field(ip).reference_member) == ("Address", "address")
    assert ip.provenance["reference_member"] == "rule:gcp.read-returns-referenced-member"


def test_a_set_method_taking_a_reference_object_carries_the_field_under_its_member() -> None:
    """``targetPools.setBackup`` takes a TargetReference body ``{target}``: the backupPool it
    sets travels under ``target``, which the full discovery document requires (sending
    ``backupPool`` is refused as "no such member")."""
    document = toy_document()
    document["schemas"]["Widget"]["properties"]["backupWidget"] = prop("The widget that takes over.")
    document["schemas"]["WidgetReference"] = {"id": "WidgetReference", "type": "object",
                                              "properties": {"target": prop("A widget URL.")}}
    document["resources"]["widgets"]["methods"]["setBackup"] = method(
        "toy.widgets.setBackup", "POST", WIDGET + "/setBackup", WIDGET_AT, request="WidgetReference")
    _, draft = annotate_document(document, service="toy", api_version="v1")
    f = draft.freeze().resource("Widget").field("backupWidget")
    assert (f.mutability, f.update_operation, f.update_name) == (Mutability.MUTABLE, "toy.widgets.setBackup", "target")
