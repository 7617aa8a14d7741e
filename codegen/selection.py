"""Which resources of a service are rendered, and why each other one is not.

An overlay's ``generate:`` either lists resources (rendered as listed) or says ``all``: every
resource whose annotation is complete — an identity to find it by, and create, read and delete
calls — minus the ones its ``except:`` names, each with a reason. What is left out is data
(resource -> reason), carried to the metadata file and printed by ``generate``, so a whole
service never silently loses a resource.
"""

from __future__ import annotations

from collections.abc import Mapping

from codegen.model import Resource, Service
from codegen.overlays import Overlay

PARTS = ("identity", "create", "read", "delete")


def missing_parts(resource: Resource) -> list[str]:
    """The parts of ``PARTS`` the annotation lacks: identity when no member selects the
    resource (neither a primary id nor a natural key), a call when no operation was found."""
    ident = resource.identity
    ops = resource.operations
    present = {
        "identity": bool(ident.primary or ident.natural),
        "create": ops.create is not None,
        "read": ops.read is not None,
        "delete": ops.delete is not None,
    }
    return [part for part in PARTS if not present[part]]


def incomplete_reason(resource: Resource) -> str | None:
    missing = missing_parts(resource)
    return f"incomplete: no {', '.join(missing)}" if missing else None


def choose(service: Service, overlay: Overlay | None) -> tuple[tuple[str, ...], Mapping[str, str]]:
    """(resources to render, in the service's order; resource -> why it is not rendered).
    A listed ``generate:`` is taken as it is (the rest is simply not asked for)."""
    if overlay is None or (overlay.generate is None and not overlay.generate_all):
        return (), {}
    if not overlay.generate_all:
        return tuple(overlay.generate or ()), {}
    chosen: list[str] = []
    left_out: dict[str, str] = {}
    for resource in service.resources:
        why = overlay.generate_except.get(resource.name)
        if why is not None:
            left_out[resource.name] = f"excluded by overlay: {why}"
        elif (incomplete := incomplete_reason(resource)) is not None:
            left_out[resource.name] = incomplete
        else:
            chosen.append(resource.name)
    return tuple(chosen), left_out
