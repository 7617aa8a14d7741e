"""Azure kinds for the tests, until the Azure provider renders (issue 26 item 5). The resource
group and the NAT gateway are built from the pinned documents' annotation
(:mod:`.azure_model_kinds`); the virtual network (its ``subnets`` a child collection), subnet and
network security group (its ``securityRules`` one) are written by hand with the same conventions,
since their documents are not pinned yet (their shapes are ARM's as ASO's recording shows them):
a field's API name is its flattened member, ``read_member`` its path in ARM's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tasklayer_tasks.runtime.contract.spec import (
    CallSpec,
    ChildCollectionSpec,
    CreateSpec,
    FieldSpec,
    Mutability,
    ParentSpec,
    ReadinessSpec,
    ReadSpec,
    ResourceSpec,
    TagsSpec,
)
from tasklayer_tasks.runtime.wiring.azure import AzureTask

from .azure_model_kinds import spec_from_model

RO, CO, MU = Mutability.READ_ONLY, Mutability.CREATE_ONLY, Mutability.MUTABLE
SUB = ("subscriptionId", "@subscriptionId")
NETWORK_API = "2024-07-01"
RG_PATH = "/subscriptions/{subscriptionId}/resourcegroups/{resourceGroupName}"
NET = RG_PATH + "/providers/Microsoft.Network"
TAGS = TagsSpec(
    "tags", "tags", None, None, None, False, False, payload_is_map=True, create_is_map=True
)
READY = ReadinessSpec("provisioningState", "Succeeded", ("Failed", "Deleting"))


def _read(operation: str, *identity: tuple[str, str]) -> ReadSpec:
    return ReadSpec(
        operation, None, False, None, False, None, None, None, identity=(SUB, *identity)
    )


def _envelope(tags: bool = True) -> tuple[FieldSpec, ...]:
    fields = [
        FieldSpec("id", "id", RO),
        FieldSpec("name", "name", CO, in_create=True, from_task_name=True),
        FieldSpec("type", "type", RO),
        FieldSpec(
            "provisioningState",
            "provisioning_state",
            RO,
            read_member="properties.provisioningState",
        ),
    ]
    if tags:
        fields += [
            FieldSpec("location", "location", CO, in_create=True, required=True),
            FieldSpec("tags", "tags", MU, in_create=True, is_tags=True),
        ]
    return tuple(fields)


def _kind(
    name: str,
    op: str,
    path: str,
    api: str,
    fields: tuple[FieldSpec, ...],
    identity: tuple[tuple[str, str], ...],
    **more: Any,
) -> ResourceSpec:
    return ResourceSpec(
        service="network" if api == NETWORK_API else "resources",
        name=name,
        fields=fields,
        primary=("id",),
        natural=("name",),
        parent=tuple(src for _, src in identity if src != "name"),
        arn=None,
        create=CreateSpec(f"{op}_CreateOrUpdate", None, False, "id", None),
        read=_read(f"{op}_Get", *identity),
        updates=(CallSpec(f"{op}_CreateOrUpdate", (), fingerprints=("etag",)),),
        delete=CallSpec(f"{op}_Delete", ()),
        api_version=api,
        resource_path=path,
        readiness=READY,
        **more,
    )


RG = ("resourceGroupName", "resourceGroupName")
# the resource group is built from the pinned resources 2024-03-01 document's annotation
RESOURCE_GROUP = spec_from_model("resources", "ResourceGroup")
NAT_GATEWAY = spec_from_model("network", "NatGateway")
_RG_FIELD = FieldSpec(
    "resourceGroupName",
    "resource_group_name",
    CO,
    in_create=True,
    required=True,
    references="ResourceGroup",
)
VIRTUAL_NETWORK = _kind(
    "VirtualNetwork",
    "VirtualNetworks",
    NET + "/virtualNetworks/{virtualNetworkName}",
    NETWORK_API,
    (
        *_envelope(),
        _RG_FIELD,
        FieldSpec("etag", "etag", RO),
        FieldSpec("resourceGuid", "resource_guid", RO, read_member="properties.resourceGuid"),
        FieldSpec(
            "addressSpace",
            "address_space",
            MU,
            in_create=True,
            read_member="properties.addressSpace",
        ),
        FieldSpec("subnets", "subnets", MU, in_create=True, read_member="properties.subnets"),
    ),
    (RG, ("virtualNetworkName", "name")),
    tags=TAGS,
    child_collections=(ChildCollectionSpec("subnets", "Subnet"),),
)
SUBNET = _kind(
    "Subnet",
    "Subnets",
    NET + "/virtualNetworks/{virtualNetworkName}/subnets/{subnetName}",
    NETWORK_API,
    (
        *_envelope(tags=False),
        _RG_FIELD,
        FieldSpec(
            "virtualNetworkName",
            "virtual_network_name",
            CO,
            in_create=True,
            required=True,
            references="VirtualNetwork",
        ),
        FieldSpec("etag", "etag", RO),
        FieldSpec(
            "addressPrefix",
            "address_prefix",
            MU,
            in_create=True,
            read_member="properties.addressPrefix",
        ),
        FieldSpec(
            "delegations", "delegations", MU, in_create=True, read_member="properties.delegations"
        ),
    ),
    (RG, ("virtualNetworkName", "virtualNetworkName"), ("subnetName", "name")),
    tags=None,
    owner_parent=ParentSpec("virtualNetworkName", VIRTUAL_NETWORK),
)
NETWORK_SECURITY_GROUP = _kind(
    "NetworkSecurityGroup",
    "NetworkSecurityGroups",
    NET + "/networkSecurityGroups/{networkSecurityGroupName}",
    NETWORK_API,
    (
        *_envelope(),
        _RG_FIELD,
        FieldSpec("etag", "etag", RO),
        FieldSpec(
            "securityRules",
            "security_rules",
            MU,
            in_create=True,
            read_member="properties.securityRules",
        ),
    ),
    (RG, ("networkSecurityGroupName", "name")),
    tags=TAGS,
    child_collections=(ChildCollectionSpec("securityRules", "SecurityRule"),),
)


@dataclass(kw_only=True, eq=False, repr=False)
class ResourceGroup(AzureTask):
    location: str | None = None
    tags: dict[str, str] | None = None
    spec: ClassVar[ResourceSpec] = RESOURCE_GROUP


@dataclass(kw_only=True, eq=False, repr=False)
class NatGateway(AzureTask):
    resource_group_name: Any = None
    location: str | None = None
    tags: dict[str, str] | None = None
    sku: dict[str, Any] | None = None
    idle_timeout_in_minutes: int | None = None
    spec: ClassVar[ResourceSpec] = NAT_GATEWAY


@dataclass(kw_only=True, eq=False, repr=False)
class VirtualNetwork(AzureTask):
    resource_group_name: Any = None
    location: str | None = None
    tags: dict[str, str] | None = None
    address_space: dict[str, Any] | None = None
    subnets: list[dict[str, Any]] | None = None
    spec: ClassVar[ResourceSpec] = VIRTUAL_NETWORK


@dataclass(kw_only=True, eq=False, repr=False)
class Subnet(AzureTask):
    resource_group_name: Any = None
    virtual_network_name: Any = None
    address_prefix: str | None = None
    delegations: list[dict[str, Any]] | None = None
    spec: ClassVar[ResourceSpec] = SUBNET


@dataclass(kw_only=True, eq=False, repr=False)
class NetworkSecurityGroup(AzureTask):
    resource_group_name: Any = None
    location: str | None = None
    tags: dict[str, str] | None = None
    security_rules: list[dict[str, Any]] | None = None
    spec: ClassVar[ResourceSpec] = NETWORK_SECURITY_GROUP
