"""Rules for resource-name APIs (AIP style: iam, and most newer Google APIs).

Their methods take one ``{+name}`` path parameter whose ``pattern`` spells the resource's
path (``^projects/[^/]+/serviceAccounts/[^/]+$``): a collection's parent for create and list,
the resource's own full name for get, patch and delete. Creates may wrap the resource in a
body member (``{accountId, serviceAccount: {...}}``) and patches list the fields they change
in an ``updateMask``.
"""

from __future__ import annotations

from typing import Any

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import FieldType, Mutability, Operation
from codegen.providers.gcp.rules.context import Facts, GcpContext, Method
from codegen.providers.gcp.shapes import with_gcp

SCOPE_COLLECTIONS = {
    "projects": "project",
    "locations": "region",
    "regions": "region",
    "zones": "zone",
}
MASKS = ("updateMask", "fieldMask")


def template(pattern: str, item: bool, short_name: bool = False) -> str | None:
    """``^projects/[^/]+$`` -> ``projects/{project}``; an item's own path -> ``{name}``, or,
    for a resource whose ``name`` is the short one the client chose (container's Cluster:
    ``{cluster: {name: "c1"}}``), its full path built from the scope and that name
    (``^projects/[^/]+/locations/[^/]+/clusters/[^/]+$`` ->
    ``projects/{project}/locations/{region}/clusters/{name}``)."""
    if item:
        parts = pattern.strip("^$").replace("[^/]+", "*").split("/")
        parent = (
            template("/".join(parts[:-2]), item=False) if short_name and len(parts) > 2 else None
        )
        return f"{parent}/{parts[-2]}/{{name}}" if parent and parts[-1] == "*" else "{name}"
    parts = pattern.strip("^$").replace("[^/]+", "*").split("/")
    out = []
    for collection, value in zip(parts[::2], parts[1::2], strict=False):
        if value != "*" or collection not in SCOPE_COLLECTIONS:
            return None
        out.append(f"{collection}/{{{SCOPE_COLLECTIONS[collection]}}}")
    return "/".join(out) if out and len(parts) % 2 == 0 else None


def _name_params(ctx: GcpContext, method: Method) -> list[str]:
    """The path parameters that hold a resource-name path (``{+name}``, ``{+parent}``)."""
    return [n for n in ctx.path_params(method) if "{+" + n + "}" in method.get("path", "")]


def _pattern(method: Method, param: str) -> str | None:
    pattern = method.get("parameters", {}).get(param, {}).get("pattern")
    return str(pattern) if pattern else None


def _templates(
    ctx: GcpContext,
    method: Method,
    item: bool,
    short_name: bool = False,
    parent: tuple[str, str] | None = None,
) -> tuple[tuple[str, str], ...]:
    found = []
    for name in _name_params(ctx, method):  # not a plain segment (compute's {network})
        pattern = _pattern(method, name)
        if not item and parent is not None and name == parent[0]:
            found.append((name, "{" + parent[1] + "}"))  # the parent resource's whole name
            continue
        made = template(pattern, item, short_name) if pattern else None
        if made is not None:
            found.append((name, made))
    return tuple(found)


def _method_for(facts: Facts, op: Operation) -> Method | None:
    return facts.collection.method(op.name)


@rule("gcp.resource-name-paths")
def resource_name_paths(ctx: GcpContext) -> None:
    """Calls that address a resource by a ``{+name}`` path get a template for it: a create or a
    list its parent's (``projects/{project}``), a get/patch/delete the resource's own name; a
    create's wrapper member and naming parameter, and a patch's update mask, are recorded.
    """
    rid = source("gcp.resource-name-paths")
    for resource, facts in ctx.resources():
        for role in ("create", "read", "list", "delete", "tag", "untag"):
            op = getattr(resource, role)
            method = _method_for(facts, op) if op is not None else None
            if op is None or method is None:
                continue
            item = role not in ("create", "list")
            shaped = with_gcp(
                op,
                param_templates=_templates(
                    ctx, method, item, _short_name(resource, facts), facts.parent_field
                ),
            )
            if role == "create":
                shaped = _create_shape(ctx, resource, facts, shaped, method)
            if shaped != op:
                resource.set(role, shaped, rid)
        updates = [_patch_shape(ctx, resource, facts, op) for op in resource.update]
        if updates != resource.update:
            resource.set("update", updates, rid)


def parent_resource(ctx: GcpContext, facts: Facts) -> tuple[str, str] | None:
    """(the create's path parameter, the resource it names) when the create's resource-name
    path is not made of scopes but is another resource's whole name: the pattern of
    oauthClients.credentials.create's ``{+parent}`` is that of oauthClients.get's ``{+name}``.
    """
    create = facts.create
    for param in _name_params(ctx, create):
        pattern = _pattern(create, param)
        if pattern is None or template(pattern, item=False) is not None:
            continue  # made of scopes (projects/{project}/locations/{region})
        for other, other_facts in ctx.resources():
            own = _name_params(ctx, other_facts.get)
            if own and other_facts is not facts and _pattern(other_facts.get, own[-1]) == pattern:
                return param, other.name
    return None


@rule("gcp.parent-resource-is-reference")
def parent_reference(ctx: GcpContext) -> None:
    """A resource created inside another one (AIP: an OauthClientCredential's ``{+parent}`` is
    its OauthClient's whole name, a ServiceAccountKey's ``{+name}`` its ServiceAccount's) is
    given that resource by a field named as its path names it (``oauthClient``,
    ``serviceAccount``), which refers to it: the task runs after it and puts its name in the
    create's and the list's path. Given once, at create (create-only), and never read back
    as such (write-only: the resource's own ``name`` holds it)."""
    rid = source("gcp.parent-resource-is-reference")
    for resource, facts in ctx.resources():
        found = parent_resource(ctx, facts)
        if found is None or not facts.scope or facts.scope[-1] in resource.fields:
            continue
        param, parent = found
        name = facts.scope[-1]
        f = FieldDraft(
            name,
            FieldType("string"),
            f"The {parent} this {resource.name} is created in.",
        )
        f.provenance["name"] = rid
        f.set("mutability", Mutability.CREATE_ONLY, rid)
        f.set("references", parent, rid)
        f.set("write_only", True, rid)
        resource.fields[name] = f
        facts.parent_field = (param, name)


def _create_shape(
    ctx: GcpContext,
    resource: ResourceDraft,
    facts: Facts,
    op: Operation,
    method: Method,
) -> Operation:
    in_query = facts.id_param is not None and facts.id_param in ctx.query(method)
    return with_gcp(
        op, body_member=facts.body_member, id_param=facts.id_param, id_in_query=in_query
    )


def _short_name(resource: ResourceDraft, facts: Facts) -> bool:
    """The create sends the resource's ``name`` as the client chose it, not a full path the
    server makes from an ``…Id`` (iam's ``accountId``)."""
    return (
        facts.id_param is None and "name" in resource.fields and resource.fields["name"].in_create
    )


def _patch_shape(
    ctx: GcpContext, resource: ResourceDraft, facts: Facts, op: Operation
) -> Operation:
    method = _method_for(facts, op)
    if method is None:
        return op
    body: dict[str, Any] = dict(ctx.body(method))
    wrapper = [m for m, p in body.items() if p.get("$ref") == facts.schema]
    mask_in_body = next((m for m in MASKS if m in body), None)
    mask_in_query = next((m for m in MASKS if m in ctx.query(method)), None)
    return with_gcp(
        op,
        param_templates=_templates(ctx, method, True, _short_name(resource, facts)),
        body_member=wrapper[0] if wrapper else None,
        mask_param=mask_in_body or mask_in_query,
        mask_in_body=mask_in_body is not None,
    )
