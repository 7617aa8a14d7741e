"""The Azure rules, each decision with its provenance (issue 26, item 2): on the pinned
Microsoft.Network document, and on a small made-up Swagger 2.0 document that has what the pinned
one lacks (a child resource and its collection, x-ms-secret, x-ms-mutability, scopes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codegen.model import Mutability, Resource, Service
from codegen.pipeline import annotated
from codegen.providers.azure.rules.run import AZURE_RULES, annotate_specs
from codegen.providers.azure.shapes import azure, azure_field
from codegen.providers.azure.specs import Document, Specs, validate

REPO_SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
RG = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}"
VNET = f"{RG}/providers/Microsoft.Network/virtualNetworks/{{virtualNetworkName}}"
SUBNET = f"{VNET}/subnets/{{subnetName}}"
ROLE = "/{scope}/providers/Microsoft.Authorization/roleAssignments/{roleAssignmentName}"
GROUP = "/subscriptions/{subscriptionId}/resourcegroups/{resourceGroupName}"
REPO_PATH = "specification/made-up/stable/2024-05-01/made.json"


def _param(name: str, where: str = "path") -> dict[str, Any]:
    return {"name": name, "in": where, "required": True, "type": "string"}


def _op(op_id: str, path: str, *, body: str | None = None, response: str | None = None, **extra: Any) -> dict[str, Any]:
    params = [_param(n.strip("{}")) for n in path.split("/") if n.startswith("{")]
    params.append(_param("api-version", "query"))
    if body:
        params.append({"name": "parameters", "in": "body", "required": True, "schema": {"$ref": f"#/definitions/{body}"}})
    responses: dict[str, Any] = {"200": {"description": "OK"}}
    if response:
        responses["200"]["schema"] = {"$ref": f"#/definitions/{response}"}
    return {"operationId": op_id, "parameters": params, "responses": responses, **extra}


def _resource_ops(kind: str, path: str, **put_extra: Any) -> dict[str, Any]:
    return {
        "put": _op(f"{kind}_CreateOrUpdate", path, body=kind, response=kind, **put_extra),
        "get": _op(f"{kind}_Get", path, response=kind),
        "delete": _op(f"{kind}_Delete", path, **{"x-ms-long-running-operation": True}),
    }


def _object(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **extra}


MADE_UP: dict[str, Any] = {
    "swagger": "2.0",
    "info": {"title": "made up", "version": "2024-05-01"},
    "paths": {
        VNET: {
            **_resource_ops(
                "VirtualNetwork",
                VNET,
                **{
                    "x-ms-long-running-operation": True,
                    "x-ms-long-running-operation-options": {"final-state-via": "azure-async-operation"},
                },
            ),
            "patch": _op("VirtualNetworks_UpdateTags", VNET, body="TagsObject", response="VirtualNetwork"),
        },
        f"{RG}/providers/Microsoft.Network/virtualNetworks": {
            "get": _op("VirtualNetworks_List", f"{RG}/providers/Microsoft.Network/virtualNetworks", response="VirtualNetworkList", **{"x-ms-pageable": {"nextLinkName": "nextLink"}}),
        },
        SUBNET: _resource_ops("Subnet", SUBNET),
        ROLE: _resource_ops("RoleAssignment", ROLE),
        GROUP: _resource_ops("ResourceGroup", GROUP),
    },
    "definitions": {
        "Resource": _object(
            {
                "id": {"type": "string"},
                "name": {"type": "string", "readOnly": True},
                "type": {"type": "string", "readOnly": True},
                "location": {"type": "string"},
                "tags": {"type": "object", "additionalProperties": {"type": "string"}},
            }
        ),
        "ProvisioningState": {"type": "string", "readOnly": True, "enum": ["Succeeded", "Failed"]},
        "TagsObject": _object({"tags": {"type": "object", "additionalProperties": {"type": "string"}}}),
        "VirtualNetwork": _object(
            {
                "properties": {"$ref": "#/definitions/VirtualNetworkProperties", "x-ms-client-flatten": True},
                "etag": {"type": "string", "readOnly": True},
            },
            allOf=[{"$ref": "#/definitions/Resource"}],
        ),
        "VirtualNetworkProperties": _object(
            {
                "addressSpace": _object({"addressPrefixes": {"type": "array", "items": {"type": "string"}}}),
                "subnets": {"type": "array", "items": {"$ref": "#/definitions/Subnet"}},
                "provisioningState": {"$ref": "#/definitions/ProvisioningState"},
                "sharedKey": {"type": "string", "x-ms-secret": True},
                "encryptionZone": {"type": "string", "x-ms-mutability": ["read", "create"]},
                "flowTimeoutInMinutes": {"type": "integer", "x-ms-mutability": ["read", "create", "update"]},
                "bootstrapToken": {"type": "string", "x-ms-mutability": ["create", "update"]},
            },
            required=["addressSpace"],
        ),
        "VirtualNetworkList": _object(
            {"value": {"type": "array", "items": {"$ref": "#/definitions/VirtualNetwork"}}, "nextLink": {"type": "string"}}
        ),
        "Subnet": _object(
            {
                "properties": {"$ref": "#/definitions/SubnetProperties", "x-ms-client-flatten": True},
                "name": {"type": "string"},
                "id": {"type": "string"},
            }
        ),
        "SubnetProperties": _object({"addressPrefix": {"type": "string"}}),
        "RoleAssignment": _object({"id": {"type": "string", "readOnly": True}, "properties": {"$ref": "#/definitions/RoleAssignmentProperties"}}),
        "RoleAssignmentProperties": _object(
            {"roleDefinitionId": {"type": "string"}, "principalId": {"type": "string"}}, required=["roleDefinitionId", "principalId"]
        ),
        "ResourceGroup": _object({"id": {"type": "string", "readOnly": True}, "location": {"type": "string"}}),
    },
}


@pytest.fixture(scope="module")
def made_up() -> Service:
    specs = Specs({REPO_PATH: Document(REPO_PATH, Path("made.json"), MADE_UP)})
    validate(specs)  # the made-up document is itself valid Swagger 2.0
    return annotate_specs(specs, service="made", api_version="2024-05-01")[1].freeze()


@pytest.fixture(scope="module")
def network() -> Service:
    return annotated(REPO_SCHEMAS, "azure", "network")


def _f(resource: Resource, name: str) -> tuple[Mutability, str]:
    f = resource.field(name)
    return f.mutability, f.provenance["mutability"]


def test_every_rule_id_is_an_azure_one() -> None:
    assert all(r.id.startswith("azure.") for r in AZURE_RULES)


def test_the_pinned_application_security_group_is_a_resource_with_provenance(network: Service) -> None:
    asg = network.resource("ApplicationSecurityGroup")
    assert asg.operations.read is not None
    assert asg.operations.read.source == "rule:azure.put-get-path-is-resource"
    assert asg.provenance["read"] == "rule:azure.resource-id-scope"  # the last to set it
    assert asg.provenance["source"].endswith("applicationSecurityGroup.json#/paths/~1subscriptions~1{subscriptionId}"
                                             "~1resourceGroups~1{resourceGroupName}~1providers~1Microsoft.Network"
                                             "~1applicationSecurityGroups~1{applicationSecurityGroupName}")
    ops = asg.operations
    assert (ops.create.name, ops.read.name, ops.delete.name) == (  # type: ignore[union-attr]
        "ApplicationSecurityGroups_CreateOrUpdate",
        "ApplicationSecurityGroups_Get",
        "ApplicationSecurityGroups_Delete",
    )
    assert ops.list is not None and ops.list.name == "ApplicationSecurityGroups_List" and ops.list.paginated
    # identity: the resource-id template in a resource group
    read = azure(ops.read)  # type: ignore[arg-type]
    assert read.path.endswith("/applicationSecurityGroups/{applicationSecurityGroupName}")
    assert (read.scope, read.name_parameter) == ("resource_group", "applicationSecurityGroupName")
    assert asg.identity.parent == ("subscriptionId", "resourceGroupName")
    assert asg.identity.primary == ("id",) and asg.identity.provenance["parent"] == "rule:azure.resource-id-scope"
    # the pinned document's LRO options, as written
    assert (azure(ops.create).long_running, azure(ops.create).final_state_via) == (True, "azure-async-operation")  # type: ignore[arg-type]
    assert azure(ops.delete).final_state_via == "location"  # type: ignore[arg-type]
    assert asg.provenance["delete"] == "rule:azure.long-running-operation"


def test_the_pinned_fields_are_classed_with_the_rule_that_decided(network: Service) -> None:
    asg = network.resource("ApplicationSecurityGroup")
    # readOnly on the definition network.json's ProvisioningState (not on the property's $ref)
    assert _f(asg, "provisioningState") == (Mutability.READ_ONLY, "rule:azure.read-only")
    assert _f(asg, "resourceGuid") == (Mutability.READ_ONLY, "rule:azure.read-only")
    # network's Resource.id carries no readOnly: ARM's contract decides it
    assert _f(asg, "id") == (Mutability.READ_ONLY, "rule:azure.arm-envelope-is-the-servers")
    assert _f(asg, "location") == (Mutability.CREATE_ONLY, "rule:azure.location-is-create-only")
    assert _f(asg, "tags") == (Mutability.MUTABLE, "rule:azure.put-replaces-the-rest")
    assert azure_field(asg.field("provisioningState")).json_path == "properties.provisioningState"
    assert asg.tags is not None and asg.tags.field == "tags" and asg.tags.create_member == "tags"
    assert asg.tags.tag_operation == "ApplicationSecurityGroups_UpdateTags"  # PATCH with TagsObject
    assert asg.tags.source == "rule:azure.tags-map"


def test_a_child_resource_has_its_parent_in_its_scope(made_up: Service) -> None:
    subnet = made_up.resource("Subnet")
    assert subnet.identity.parent == ("subscriptionId", "resourceGroupName", "virtualNetworkName")
    assert azure(subnet.operations.read).scope == "resource"  # type: ignore[arg-type]
    assert azure(subnet.operations.read).name_parameter == "subnetName"  # type: ignore[arg-type]


def test_the_parents_list_of_children_is_known_as_a_child_collection(made_up: Service) -> None:
    vnet = made_up.resource("VirtualNetwork")
    subnets = vnet.field("subnets")
    assert azure_field(subnets).child_resource == "Subnet"
    assert subnets.provenance["child_resource"] == "rule:azure.child-collection"
    # a list of plain strings is no child collection
    assert azure_field(vnet.field("addressSpace")).child_resource is None


def test_scopes_of_a_resource_group_and_an_extension_resource(made_up: Service) -> None:
    group, role = made_up.resource("ResourceGroup"), made_up.resource("RoleAssignment")
    assert azure(group.operations.read).scope == "subscription"  # type: ignore[arg-type]
    assert group.identity.parent == ("subscriptionId",)
    assert azure(role.operations.read).scope == "extension"  # type: ignore[arg-type]
    assert role.identity.parent == ("scope",)


def test_x_ms_mutability_is_trusted_where_it_restricts_and_never_by_its_absence(made_up: Service) -> None:
    vnet = made_up.resource("VirtualNetwork")
    assert _f(vnet, "encryptionZone") == (Mutability.CREATE_ONLY, "rule:azure.x-ms-mutability-restricts")
    # read+create+update says no more than PUT does: the default rule decides, and says so
    assert _f(vnet, "flowTimeoutInMinutes") == (Mutability.MUTABLE, "rule:azure.put-replaces-the-rest")
    assert _f(vnet, "addressSpace") == (Mutability.MUTABLE, "rule:azure.put-replaces-the-rest")
    token = vnet.field("bootstrapToken")  # not readable: write-only
    assert token.write_only and token.provenance["write_only"] == "rule:azure.x-ms-mutability-restricts"


def test_x_ms_secret_is_sensitive_and_write_only(made_up: Service) -> None:
    key = made_up.resource("VirtualNetwork").field("sharedKey")
    assert key.sensitive and key.write_only
    assert key.provenance["sensitive"] == "rule:azure.x-ms-secret"


def test_an_lro_without_options_gets_arms_default_final_state(made_up: Service) -> None:
    vnet = made_up.resource("VirtualNetwork")
    assert azure(vnet.operations.create).final_state_via == "azure-async-operation"  # type: ignore[arg-type]
    assert azure(vnet.operations.delete).final_state_via == "location"  # type: ignore[arg-type]
    subnet = made_up.resource("Subnet")
    assert not azure(subnet.operations.create).long_running  # type: ignore[arg-type]


def test_required_and_the_read_only_ref(made_up: Service) -> None:
    vnet = made_up.resource("VirtualNetwork")
    assert vnet.field("addressSpace").required
    assert vnet.field("addressSpace").provenance["required"] == "rule:azure.required"
    assert _f(vnet, "provisioningState") == (Mutability.READ_ONLY, "rule:azure.read-only")
    role = made_up.resource("RoleAssignment")
    assert role.field("principalId").required and role.field("roleDefinitionId").required


def test_tags_through_a_tags_only_patch(made_up: Service) -> None:
    vnet = made_up.resource("VirtualNetwork")
    assert vnet.tags is not None and vnet.tags.tag_operation == "VirtualNetworks_UpdateTags"
    assert made_up.resource("Subnet").tags is None  # a child resource has no tags map


def test_the_annotation_dump_shows_azure_with_provenance() -> None:
    from codegen.dump import service_document

    doc = service_document(annotated(REPO_SCHEMAS, "azure", "network"), detail=True)
    asg = next(r for r in doc["resources"] if r["name"] == "ApplicationSecurityGroup")
    location = next(f for f in asg["fields"] if f["name"] == "location")
    assert location["source"] == "rule:azure.location-is-create-only"


def test_role_assignment_at_any_scope_with_evidence_where_the_document_is_silent() -> None:
    """The pinned roleAssignments document: an extension resource at ``{scope}``, its by-id
    path the same resource, the common-types v2 file resolved, and what ARM refuses to update
    made create-only by the overlay, which provenance names."""
    service = annotated(REPO_SCHEMAS, "azure", "authorization")
    assert [r.name for r in service.resources] == ["RoleAssignment"]  # /{roleAssignmentId} is an alias
    role = service.resource("RoleAssignment")
    read = azure(role.operations.read)  # type: ignore[arg-type]
    assert (read.scope, read.path) == ("extension", "/{scope}/providers/Microsoft.Authorization/roleAssignments/{roleAssignmentName}")
    assert role.identity.parent == ("scope",)
    assert role.operations.list is not None and role.operations.list.name == "RoleAssignments_ListForScope"
    overlay = "overlay:schemas/overlays/azure/authorization.yaml#resources.RoleAssignment.fields"
    assert _f(role, "principalId") == (Mutability.CREATE_ONLY, f"{overlay}.principalId.mutability")
    assert _f(role, "description") == (Mutability.MUTABLE, "rule:azure.put-replaces-the-rest")
    assert _f(role, "scope") == (Mutability.READ_ONLY, "rule:azure.read-only")
    assert role.field("principalId").required and role.tags is None  # no tags map: none


def test_generate_refuses_an_annotate_only_provider(tmp_path: Path) -> None:
    """Azure has no runtime adapter: an overlay asking to render it is an error naming the
    overlay's ``generate``, never a package that cannot run."""
    import shutil

    from codegen.errors import TasklayerError
    from codegen.inputs import Inputs, PinnedService
    from codegen.pipeline import selections

    schemas = tmp_path / "schemas"
    shutil.copytree(REPO_SCHEMAS / "azure", schemas / "azure")
    shutil.copy(REPO_SCHEMAS / "manifest.json", schemas / "manifest.json")
    (schemas / "overlays" / "azure").mkdir(parents=True)
    (schemas / "overlays" / "azure" / "network.yaml").write_text("generate: [ApplicationSecurityGroup]\n")
    inputs = Inputs((PinnedService("azure", "network", "2024-07-01", "per-file"),), {}, {}, {}, {})
    with pytest.raises(TasklayerError, match="azure is annotate-only") as caught:
        selections(schemas, inputs)
    assert caught.value.pointer == "generate" and "network.yaml" in str(caught.value.file)
    (schemas / "overlays" / "azure" / "network.yaml").unlink()
    assert [s.resources for s in selections(schemas, inputs)] == [()]  # loaded, nothing chosen


def test_resource_groups_and_the_tags_singleton_from_the_pinned_resources_document() -> None:
    """Microsoft.Resources 2024-03-01 with common-types v1: a resource group lives in a
    subscription, its location is required and create-only; tags at a scope are a singleton
    (``.../tags/default``), named by the path, not a parameter; ``/{resourceId}`` is no
    resource of its own."""
    service = annotated(REPO_SCHEMAS, "azure", "resources")
    assert [r.name for r in service.resources] == ["GenericResource", "ResourceGroup", "TagsResource"]
    group = service.resource("ResourceGroup")
    read = azure(group.operations.read)  # type: ignore[arg-type]
    assert (read.scope, read.path) == ("subscription", "/subscriptions/{subscriptionId}/resourcegroups/{resourceGroupName}")
    assert group.identity.parent == ("subscriptionId",) and group.identity.named_by == "name"
    assert _f(group, "location") == (Mutability.CREATE_ONLY, "rule:azure.location-is-create-only")
    assert group.field("location").required
    assert group.tags is not None and group.tags.tag_operation is None  # its PATCH is not tags-only
    assert azure(group.operations.delete).final_state_via == "location"  # type: ignore[arg-type]
    tags = service.resource("TagsResource")
    shape = azure(tags.operations.read)  # type: ignore[arg-type]
    assert (shape.scope, shape.fixed_name, shape.name_parameter) == ("extension", "default", "")
    assert tags.identity.parent == ("scope",) and tags.identity.named_by is None
    assert tags.tags is None  # its properties.tags is what it manages, not an owner's map
    assert azure_field(tags.field("tags")).json_path == "properties.tags"


def test_a_disk_changes_in_place_what_its_patch_model_carries_and_nothing_else() -> None:
    """Microsoft.Compute DiskRP 2024-03-02: no member of a Disk carries x-ms-mutability, so
    the evidence is the RP's own update model (``DiskUpdate``, the PATCH body): what it leaves
    out is create-only (``creationData``, which the document says "cannot be changed after the
    disk has been created", ``extendedLocation``: "cannot be changed", ``zones``), what it
    carries changes through the PATCH, which is long-running with ARM's default final state."""
    disk = annotated(REPO_SCHEMAS, "azure", "disks").resource("Disk")
    rid = "rule:azure.patch-model-names-what-changes"
    for name in ("creationData", "extendedLocation", "zones", "hyperVGeneration"):
        assert _f(disk, name) == (Mutability.CREATE_ONLY, rid), name
    for name in ("diskSizeGB", "tags", "sku", "networkAccessPolicy"):
        assert _f(disk, name) == (Mutability.MUTABLE, rid), name
        assert disk.field(name).update_operation == "Disks_Update"
    assert _f(disk, "diskState") == (Mutability.READ_ONLY, "rule:azure.read-only")  # readOnly on the $ref'd enum
    assert [op.name for op in disk.operations.update] == ["Disks_CreateOrUpdate", "Disks_Update"]
    patch = azure(disk.operations.update[1])
    assert (patch.method, patch.long_running, patch.final_state_via) == ("PATCH", True, "original-uri")
    assert "diskSizeGB" in disk.operations.update[1].fields and "creationData" not in disk.operations.update[1].fields
    assert disk.field("creationData").required  # DiskProperties.required, through the flattening


def test_the_pinned_nat_gateway_and_what_its_document_leaves_to_evidence(network: Service) -> None:
    """NatGateway (2024-07-01): a read-only list of the subnets that use it (not a child
    collection: its items are SubResource references), references it takes in the PUT, and
    ``zones`` with no x-ms-mutability and a tags-only PATCH: nothing in the document says it is
    fixed, so the default rule classes it and says so in its provenance, for recorded evidence
    (issue 26 item 4) or an overlay to correct."""
    assert [r.name for r in network.resources] == ["ApplicationSecurityGroup", "NatGateway"]
    nat = network.resource("NatGateway")
    assert _f(nat, "subnets") == (Mutability.READ_ONLY, "rule:azure.read-only")
    assert azure_field(nat.field("subnets")).child_resource is None
    assert _f(nat, "publicIpAddresses") == (Mutability.MUTABLE, "rule:azure.put-replaces-the-rest")
    assert _f(nat, "zones") == (Mutability.MUTABLE, "rule:azure.put-replaces-the-rest")
    assert nat.field("publicIpAddresses").type.kind == "list"
    assert nat.tags is not None and nat.tags.tag_operation == "NatGateways_UpdateTags"
    assert [op.name for op in nat.operations.update] == ["NatGateways_CreateOrUpdate"]
