"""Rules for parents a resource lives in that are not scopes: the managed zone of a record set
(``managedZones/{managedZone}/rrsets``), the bucket of an ACL (``b/{bucket}/acl``), the cluster
of a zonal node pool (``clusters/{clusterId}/nodePools``).

Every call names such a parent in its path, and nothing about the resource itself says which
one it is: it is the caller's to say, as a task input, never the resource's own name.
"""

from __future__ import annotations

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import FieldType, Mutability
from codegen.providers.gcp.rules.context import (
    Facts,
    GcpContext,
    Method,
    path_template,
    placeholders,
)
from codegen.providers.gcp.rules.text import clean
from codegen.providers.gcp.shapes import GcpFieldShape

# what a call's path places a resource in without it being another resource of the API
SCOPES = ("project", "region", "zone")


def scope_of(param: str) -> str | None:
    """``projectId`` (container's) -> project; ``clusterId`` -> None: not a scope."""
    name = param[: -len("Id")] if param.endswith("Id") else param
    return name if name in SCOPES else None


def path_parents(resource: ResourceDraft, facts: Facts) -> list[str]:
    """The create's plain path parameters (not AIP ``{+name}`` paths, which name whole
    resource-name parents) that place the resource in another resource: neither a scope nor a
    member naming the resource itself (an in-place create's own name)."""
    create = facts.create
    return [
        param
        for _, param in placeholders(create)
        if param in resource.parent
        and "{+" + param + "}" not in create.get("path", "")
        and scope_of(param) is None
        and param not in (*resource.primary, *resource.natural)
    ]


def parent_kind(
    ctx: GcpContext, resource: ResourceDraft, facts: Facts, param: str
) -> ResourceDraft | None:
    """The resource of the API whose ``get`` path is the create's path up to ``{param}``
    (``…/managedZones/{managedZone}`` is ManagedZone's), when there is exactly one."""
    path = str(facts.create.get("flatPath") or facts.create["path"])
    end = path.find("{" + param + "}")
    wanted = path_template({"path": path[: end + len(param) + 2]})
    found = [r for r, f in ctx.resources() if r is not resource and path_template(f.get) == wanted]
    return found[0] if len(found) == 1 else None


def _input(
    ctx: GcpContext, resource: ResourceDraft, method: Method, param: str, rid: str
) -> FieldDraft:
    """The field carrying the parent: the resource's own member of that name when it has one
    (an ACL's ``bucket``, which reads return), else a new one the calls alone take."""
    f = resource.fields.get(param)
    if f is None:
        described = (method.get("parameters") or {}).get(param) or {}
        f = FieldDraft(param, FieldType("string"), clean(described.get("description")))
        f.provenance["name"] = rid
        resource.fields[param] = f
    f.in_create = False  # a path parameter, never a body member
    return f


@rule("gcp.path-parents-are-inputs")
def parents_are_inputs(ctx: GcpContext) -> None:
    """A create path parameter that places the resource in another resource of the API
    (``managedZones/{managedZone}/rrsets``) is a task input named after it: given at create,
    fixed after (a record set moved to another zone is another record set), required, never
    sent in a body. It refers to the parent's kind when the path says which it is (the resource
    whose ``get`` path the create's path begins with), and holds that parent's name (the member
    its ``get`` selects it by), so a parent task resolves to what the path takes. A parent the
    resource holds as a settable member of its own (a create body's member) is left as it is:
    the calls take it from there."""
    rid = source("gcp.path-parents-are-inputs")
    for resource, facts in ctx.resources():
        for param in path_parents(resource, facts):
            existing = resource.fields.get(param)
            if existing is not None and existing.get("mutability") is not Mutability.READ_ONLY:
                continue  # settable: the calls fill the path from it
            f = _input(ctx, resource, facts.create, param, rid)
            f.set("mutability", Mutability.CREATE_ONLY, rid)
            f.set("required", True, rid)
            f.set("write_only", False, rid)
            f.set("server_default", False, rid)
            parent = parent_kind(ctx, resource, facts, param)
            if parent is not None and len(parent.primary) == 1:
                f.set("references", parent.name, rid)
                f.set_call(GcpFieldShape, "reference_member", parent.primary[0], rid)
