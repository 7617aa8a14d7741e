"""GCP's variant of the model's call shape: how a discovery method is called beyond the
neutral facts — AIP resource-name paths, a body that wraps the resource, update masks,
members a call requires whatever changes — and how a field travels in them (a query
parameter of its update, the member of a referenced resource its reads hold)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from codegen.model import CallShape, Field, Operation


@dataclass(frozen=True)
class GcpCallShape(CallShape):
    kind: ClassVar[str] = "gcp"

    # AIP resource-name paths: parameter -> template over the scope and the resource's own
    # name ("name" -> "projects/{project}" for a create, "{name}" for a get)
    param_templates: tuple[tuple[str, str], ...] = ()
    body_member: str | None = None  # the body wraps the resource in this member ("serviceAccount")
    id_param: str | None = None  # a create names the new resource with this ("accountId")
    id_in_query: bool = False  # ... as a query parameter rather than a body member
    mask_param: str | None = None  # a patch lists the fields it changes in this ("updateMask")
    mask_in_body: bool = False
    required_members: tuple[str, ...] = ()  # body members the call requires whatever changes
    item_keys: tuple[tuple[str, str], ...] = ()  # list members whose items go as {key: value}


def gcp(op: Operation) -> GcpCallShape:
    """The GCP facts of ``op``."""
    return op.call_as(GcpCallShape)


def with_gcp(op: Operation, **facts: Any) -> Operation:
    """``op`` with these GCP facts changed."""
    return op.with_call(GcpCallShape, **facts)


@dataclass(frozen=True)
class GcpFieldShape(CallShape):
    """How GCP calls carry one field beyond the neutral :class:`~codegen.model.Field`."""

    kind: ClassVar[str] = "gcp"

    update_param: bool = False  # its update call takes it as a query parameter (resize's ``size``)
    reference_member: str | None = (
        None  # reads hold this member of what it refers to (an Address's "address")
    )


def gcp_field(f: Field) -> GcpFieldShape:
    """The GCP facts of a field."""
    return f.call_as(GcpFieldShape)
