"""Azure's variant of the model's call shape: how an ARM operation is called beyond the neutral
facts (the resource-id path template, the HTTP method, long-running polling; the api-version is
the service's) and how a field travels in the ARM envelope (under ``properties``, a child
collection)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from codegen.model import CallShape, Field, Operation

SCOPES = ("tenant", "subscription", "resource_group", "resource", "extension")
"""Where an ARM resource lives: under a subscription (a resource group), in a resource group
(a virtual network), under a parent resource (a subnet), or at any ``{scope}`` (a role
assignment, an extension resource)."""


@dataclass(frozen=True)
class AzureCallShape(CallShape):
    kind: ClassVar[str] = "azure"

    method: str = ""  # "PUT", "GET", "PATCH", "DELETE"
    # the ARM resource-id template the call is made on:
    # "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/..."
    path: str = ""
    scope: str = ""  # one of SCOPES
    name_parameter: str = ""  # the path parameter that is the resource's own name
    fixed_name: str | None = None  # a singleton's name instead ("default": tags at a scope)
    body_parameter: str | None = None  # the body parameter's name ("parameters")
    long_running: bool = False  # x-ms-long-running-operation
    final_state_via: str | None = None  # x-ms-long-running-operation-options, or ARM's default
    next_link: str | None = None  # x-ms-pageable nextLinkName


def azure(op: Operation) -> AzureCallShape:
    """The Azure facts of ``op``."""
    return op.call_as(AzureCallShape)


@dataclass(frozen=True)
class AzureFieldShape(CallShape):
    """How ARM carries one field beyond the neutral :class:`~codegen.model.Field`."""

    kind: ClassVar[str] = "azure"

    json_path: str = ""  # where it sits in the resource's JSON: "location", "properties.subnets"
    # a list whose items are another resource of this service, managed at its own path (a
    # virtual network's ``subnets``: Subnet): a PUT of the parent that omits it deletes them
    child_resource: str | None = None


def azure_field(f: Field) -> AzureFieldShape:
    return f.call_as(AzureFieldShape)


def with_azure(op: Operation, **facts: Any) -> Operation:
    return op.with_call(AzureCallShape, **facts)
