"""Rules that find resources in a discovery document, their scope, and how they are listed."""

from __future__ import annotations

from dataclasses import replace

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Operation
from codegen.providers.gcp.rules.context import (
    Collection,
    Facts,
    GcpContext,
    Method,
    path_template,
    placeholders,
    singular,
    singular_candidates,
    upper_first,
)
from codegen.providers.gcp.rules.text import clean

CREATE_METHODS = ("insert", "create")
# Required create parameters that place a resource rather than describe it (storage's
# ``buckets.insert?project=``); path placeholders place it too.
SCOPE_PARAMETERS = ("project", "projectId", "region", "zone", "location", "parent")


def _schema_of(ctx: GcpContext, method: Method) -> str | None:
    response = method.get("response") or {}
    ref = response.get("$ref")
    return ref if isinstance(ref, str) and ctx.properties(response) else None


def _name_for(collection: Collection, schema: str) -> str:
    """``globalAddresses`` returning ``Address`` is GlobalAddress (the collection's singular);
    ``serviceAccounts.keys`` returning ``ServiceAccountKey`` is ServiceAccountKey (the schema, when
    what it adds to the noun starts with a parent collection's noun; apigee's
    ``GoogleCloudApigeeV1Alias`` stays Alias)."""
    parents = tuple(upper_first(singular(p)) for p in collection.path[:-1])
    for candidate in singular_candidates(collection.name):
        noun = upper_first(candidate)
        if schema.lower().endswith(noun.lower()):
            prefix = schema[: len(schema) - len(noun)]
            return schema if not prefix or parents and prefix.startswith(parents) else noun
        if noun.lower().endswith(schema.lower()):
            return noun
    return upper_first(singular(collection.name))


@rule("gcp.insert-get-delete-make-a-resource")
def find_resources(ctx: GcpContext) -> None:
    """A resource is a discovery collection with a create-like method (``insert`` or
    ``create``), a ``get`` that returns an object schema (the resource's state) and a
    ``delete``. It is named after the collection (``globalAddresses`` -> GlobalAddress) or its
    schema when that spells the parents too (``serviceAccounts.keys`` -> ServiceAccountKey); two
    collections that would share a name are told apart by their schemas, else by their parent
    collection (ProjectRole, OrganizationRole)."""
    rid = source("gcp.insert-get-delete-make-a-resource")
    found: list[tuple[str, Collection, str, str]] = []
    for collection in ctx.collections:
        methods = collection.methods
        create = next((m for m in CREATE_METHODS if m in methods), None)
        if create is None or "get" not in methods or "delete" not in methods:
            continue
        schema = _schema_of(ctx, methods["get"])
        if schema is not None:
            found.append((_name_for(collection, schema), collection, schema, create))
    for name, collection, schema, create in _distinct(found):
        methods = collection.methods
        draft = ResourceDraft(name=name, api_name=".".join(collection.path), shape=schema)
        draft.set("create", Operation(methods[create]["id"], "create", source=rid), rid)
        draft.set("read", Operation(methods["get"]["id"], "read", source=rid), rid)
        draft.set("delete", Operation(methods["delete"]["id"], "delete", source=rid), rid)
        draft.documentation = _first_paragraph(ctx.resolve({"$ref": schema}).get("description", ""))
        ctx.draft.resources[name] = draft
        ctx.facts[name] = Facts(collection=collection, schema=schema, create_key=create)


def _distinct(
    found: list[tuple[str, Collection, str, str]],
) -> list[tuple[str, Collection, str, str]]:
    out = []
    for name, collection, schema, create in found:
        twins = [f for f in found if f[0] == name]
        if len(twins) > 1:
            if len({t[2] for t in twins}) == len(twins):
                name = schema
            elif len(collection.path) > 1:
                name = upper_first(singular(collection.path[-2])) + name
            else:
                name = "".join(upper_first(p) for p in collection.path)
        out.append((name, collection, schema, create))
    names = [n for n, *_ in out]
    # any name still shared: spell out the whole collection path
    return [
        (n if names.count(n) == 1 else "".join(upper_first(singular(p)) for p in c.path), c, s, m)
        for n, c, s, m in out
    ]


def _first_paragraph(text: str) -> str:
    return clean(text.split("\n\n")[0])


def scope_names(ctx: GcpContext, method: Method) -> list[str]:
    """Where a method places a resource: its path placeholders named as scopes (``{project}``,
    ``{region}``; AIP paths' ``projects/{projectsId}`` -> project) and required scope-like
    query parameters (storage's ``?project=``)."""
    names = []
    for segment, placeholder in placeholders(method):
        generated = placeholder == f"{segment}Id"  # AIP flat paths: locations/{locationsId}
        names.append(singular(segment) if generated else placeholder)
    for name, param in ctx.query(method).items():
        if param.get("required") and name in SCOPE_PARAMETERS:
            names.append(name)
    return names


@rule("gcp.scope-from-method-path")
def scope(ctx: GcpContext) -> None:
    """A resource's scope is where its create puts it: the path ``projects/{project}`` (global),
    ``…/regions/{region}`` (regional) or ``…/zones/{zone}`` (zonal), or an AIP parent
    (``projects/{projectsId}/locations/{locationsId}`` -> project, location); a create that
    addresses the new resource itself (``PUT v1/{+name}``) is scoped by what comes before it. The
    create is called with its own path parameters."""
    rid = source("gcp.scope-from-method-path")
    for resource, facts in ctx.resources():
        create = facts.create
        names = scope_names(ctx, create)
        if names and creates_in_place(facts):  # PUT …/topics/{topic}: the last one is itself
            names = names[:-1]
        facts.scope = tuple(names)
        resource.set("parent", facts.scope, rid)
        identity = tuple(ctx.path_params(create)) + tuple(
            n for n, p in ctx.query(create).items() if p.get("required") and n in SCOPE_PARAMETERS
        )
        assert resource.create is not None
        resource.set("create", replace(resource.create, identity_members=identity), rid)


@rule("gcp.list-and-aggregated-list")
def list_operation(ctx: GcpContext) -> None:
    """The list is the collection's ``list`` in the resource's scope (``filter`` selects by
    name, ``pageToken`` pages); a collection with only ``aggregatedList`` (every region or zone
    at once) is listed with that."""
    rid = source("gcp.list-and-aggregated-list")
    for resource, facts in ctx.resources():
        methods = facts.collection.methods
        name = (
            "list"
            if "list" in methods
            else "aggregatedList" if "aggregatedList" in methods else None
        )
        if name is None:
            continue
        method = methods[name]
        params = method.get("parameters", {})
        op = Operation(
            method["id"],
            "list",
            identity_members=tuple(ctx.path_params(method))
            + tuple(
                n
                for n, p in ctx.query(method).items()
                if p.get("required") and n in SCOPE_PARAMETERS
            ),  # storage's buckets.list names its project in the query
            output_member=_items_member(ctx, method, facts.schema),
            output_is_list=True,
            natural_filter="filter" if "filter" in params else None,
            paginated="pageToken" in params,
            source=rid,
        )
        resource.set("list", op, rid)


def _items_member(ctx: GcpContext, method: Method, schema: str) -> str | None:
    """The response member holding the resources: an array of the schema (``items``,
    ``serviceAccounts``), or compute's aggregated map of scopes (``items``)."""
    for name, prop in ctx.properties(method.get("response")).items():
        if prop.get("type") == "array" and prop.get("items", {}).get("$ref") == schema:
            return str(name)
        if prop.get("type") == "object" and "additionalProperties" in prop:
            return str(name)
    return None


def creates_in_place(facts: Facts) -> bool:
    """The create addresses the new resource itself (pubsub's ``PUT v1/{+name}``), as ``get`` does,
    rather than the collection it is added to."""
    return path_template(facts.create) == path_template(facts.get)


def same_level(get: Method, other: Method) -> bool:
    """``other`` acts on one resource as ``get`` does: its path is get's path, maybe followed by
    a custom verb (``…/subnetworks/{resource}/setLabels``, ``v1/{+name}:disable``)."""
    base, path = path_template(get), path_template(other)
    return path == base or path.startswith((base + "/", base + ":"))
