"""What the documents' resources are, where each lives, and what fields its state has."""

from __future__ import annotations

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.errors import TasklayerError
from codegen.model import Operation
from codegen.providers.azure.rules.context import AzureContext, Facts, PathItem
from codegen.providers.azure.shapes import AzureCallShape, AzureFieldShape
from codegen.providers.azure.specs import Node

ROLES = {"put": "create", "get": "read", "delete": "delete"}
ENVELOPE = ("id", "name", "type", "location", "tags", "etag", "systemData")


def _schema_of(ctx: AzureContext, item: PathItem, method: str, status: str) -> Node | None:
    responses = item.operations[method].get("responses", {})
    if status not in responses:
        return None
    where = f"{item.pointer}/{method}/responses/{status}"
    response = ctx.specs.deref(Node(item.document, where, responses[status]))
    if not isinstance(response.value, dict) or "schema" not in response.value:
        return None
    return Node(response.document, response.pointer + "/schema", response.value["schema"])


def body_of(ctx: AzureContext, item: PathItem, method: str) -> tuple[str | None, Node | None]:
    params = item.operations[method].get("parameters", [])
    for index, raw in enumerate(params):
        where = f"{item.pointer}/{method}/parameters/{index}"
        node = ctx.specs.deref(Node(item.document, where, raw))
        if isinstance(node.value, dict) and node.value.get("in") == "body":
            schema = Node(node.document, node.pointer + "/schema", node.value.get("schema", {}))
            return node.value.get("name"), schema
    return None, None


def _definition_name(node: Node) -> str:
    ref = node.value.get("$ref", "") if isinstance(node.value, dict) else ""
    return str(ref.rsplit("/", 1)[-1]) if ref else ""


@rule("azure.put-get-path-is-resource")
def find_resources(ctx: AzureContext) -> None:
    """A path with both a PUT and a GET is a resource (ASO's generator's rule, and ARM's: a
    resource is created or replaced by PUT on its id and read by GET on it). Its name is the
    definition the GET answers with; the PUT creates it and is also its update (PUT replaces
    the whole resource); a DELETE on the same path deletes it."""
    rid = source(find_resources.id)
    for item in ctx.path_items():
        if not {"put", "get"} <= set(item.operations) or _by_id(item):
            continue
        schema = _schema_of(ctx, item, "get", "200")
        if schema is None:
            raise TasklayerError(
                "a PUT+GET path whose GET has no 200 schema: the resource's state is unknown",
                file=item.document.file,
                pointer=f"{item.pointer}/get/responses",
            )
        name = _definition_name(schema) or item.segments[-2]
        if name in ctx.draft.resources:
            raise TasklayerError(
                f"two resource paths answer with {name}",
                file=item.document.file,
                pointer=item.pointer,
            )
        body_name, body = body_of(ctx, item, "put")
        resource = ResourceDraft(name, item.segments[-2] if len(item.segments) > 1 else name)
        resource.shape = name
        resource.documentation = str(schema_doc(ctx, schema))
        for method, role in ROLES.items():
            if method in item.operations:
                resource.set(role, _operation(item, method, role, body_name, ctx), rid)
        resource.set("update", [_operation(item, "put", "update", body_name, ctx)], rid)
        resource.provenance["source"] = f"{item.document.repo_path}#{item.pointer}"
        ctx.draft.resources[name] = resource
        ctx.facts[name] = Facts(
            item, ctx.specs.deref(schema), ctx.specs.deref(body) if body is not None else None
        )


def _by_id(item: PathItem) -> bool:
    """``/{roleAssignmentId}``: the same resource addressed by its whole id, not another one
    (its id already names its scope path); the rules find it by its templated path."""
    return len(item.segments) == 1 and item.segments[0].startswith("{")


def schema_doc(ctx: AzureContext, schema: Node) -> str:
    value = ctx.specs.deref(schema).value
    return str(value.get("description", "")) if isinstance(value, dict) else ""


def _operation(
    item: PathItem, method: str, role: str, body: str | None, ctx: AzureContext
) -> Operation:
    op = item.operations[method]
    return Operation(
        name=str(op.get("operationId", f"{method} {item.path}")),
        role=role,
        identity_members=("id",),
        call=AzureCallShape(
            method=method.upper(),
            path=item.path,
            body_parameter=body if method in ("put", "patch") else None,
        ),
        source=source(find_resources.id),
    )


@rule("azure.resource-id-scope")
def scope(ctx: AzureContext) -> None:
    """The ARM resource-id template is the identity: the last path parameter is the
    resource's own name, the ones before it its parent scope. ``/subscriptions/{s}/
    resourcegroups/{rg}`` is a resource group (in a subscription); ``.../resourceGroups/{rg}/
    providers/<ns>/<type>/{name}`` lives in a resource group; a further ``<type>/{name}`` pair
    makes it a child of the resource before it (a subnet of a virtual network); a path that
    starts ``/{scope}/providers`` is an extension resource (a role assignment), at any scope.
    A path that ends with a fixed segment is a singleton (``/{scope}/providers/
    Microsoft.Resources/tags/default``): its name is that segment, not a parameter. The
    resource's ``id`` member holds its full id, which reads and deletes are made on."""
    rid = source(scope.id)
    for resource, facts in ctx.resources():
        segments = facts.item.segments
        names = facts.item.parameter_names()
        own = names[-1:] if segments[-1].startswith("{") else []  # a singleton has none
        facts.name_parameter = own[0] if own else ""
        facts.fixed_name = "" if own else segments[-1]
        facts.scope = _scope_kind(segments)
        parents = tuple(names[: len(names) - len(own)])
        resource.set("primary", ("id",), rid)
        resource.set("arn", "id", rid)
        resource.set("parent", parents, rid)
        resource.set("natural", (*parents, "name"), rid)
        resource.set("named_by", "name" if own else None, rid)
        if resource.create is not None:
            resource.set("create", _scoped(resource.create, facts), rid)
        if resource.read is not None:
            resource.set("read", _scoped(resource.read, facts), rid)
        if resource.delete is not None:
            resource.set("delete", _scoped(resource.delete, facts), rid)
        resource.set("update", [_scoped(op, facts) for op in resource.update], rid)


def _scoped(op: Operation, facts: Facts) -> Operation:
    return op.with_call(
        AzureCallShape,
        scope=facts.scope,
        name_parameter=facts.name_parameter,
        fixed_name=facts.fixed_name or None,
    )


def _scope_kind(segments: list[str]) -> str:
    lower = [s.lower() for s in segments]
    if lower[0] == "{scope}":
        return "extension"
    if "providers" not in lower:
        return "subscription" if lower[:1] == ["subscriptions"] and len(lower) == 4 else "tenant"
    after = lower[lower.index("providers") + 2 :]  # the <type>/{name} pairs after the namespace
    if len(after) > 2:
        return "resource"
    if lower[:1] == ["subscriptions"] and "resourcegroups" in lower:
        return "resource_group"
    return "subscription" if lower[:1] == ["subscriptions"] else "tenant"


@rule("azure.envelope-fields")
def collect_fields(ctx: AzureContext) -> None:
    """The fields are the GET schema's members (``allOf`` parents first), with the members of
    its ``properties`` object flattened beside the envelope's, as ``x-ms-client-flatten`` and
    ARM's SDKs do. A field is in the create when the PUT body has it; every field is in the
    read, since the GET is the read."""
    for resource, facts in ctx.resources():
        body = {n for n, _, _, _ in flattened(ctx, facts.body)} if facts.body is not None else set()
        for name, node, json_path, required in flattened(ctx, facts.schema):
            if name in resource.fields:
                name = json_path  # a properties member named like an envelope member
            facts.members[name] = (ctx.specs.deref(node), json_path, node.value)
            draft = FieldDraft(name, ctx.field_type(node))
            draft.documentation = str(node.value.get("description", ""))
            draft.in_read = True
            draft.in_create = name in body and not node.value.get("readOnly", False)
            draft.call = AzureFieldShape(json_path=json_path)
            draft.provenance["json_path"] = source(collect_fields.id)
            if required:
                facts.required.add(name)
            resource.fields[name] = draft


def flattened(ctx: AzureContext, schema: Node | None) -> list[tuple[str, Node, str, bool]]:
    out: list[tuple[str, Node, str, bool]] = []
    if schema is None:
        return out
    for name, node, required in ctx.properties(schema):
        if name == "properties":
            out.extend(
                (inner, n, f"properties.{inner}", req) for inner, n, req in ctx.properties(node)
            )
        else:
            out.append((name, node, name, required))
    return out


@rule("azure.list-is-collection-get")
def list_operation(ctx: AzureContext) -> None:
    """The list is the GET on the resource's path without its last ``/{name}`` (the
    collection), paged by ``x-ms-pageable``'s ``nextLinkName``."""
    rid = source(list_operation.id)
    items = {item.path: item for item in ctx.path_items()}
    for resource, facts in ctx.resources():
        collection = facts.item.path.rsplit("/", 1)[0]
        item = items.get(collection)
        if item is None or "get" not in item.operations:
            continue
        op = item.operations["get"]
        pageable = op.get("x-ms-pageable")
        next_link = pageable.get("nextLinkName") if isinstance(pageable, dict) else None
        listed = Operation(
            name=str(op.get("operationId", f"get {collection}")),
            role="list",
            output_member="value",
            output_is_list=True,
            paginated=next_link is not None,
            call=AzureCallShape(
                method="GET",
                path=collection,
                scope=facts.scope,
                next_link=next_link,
            ),
            source=rid,
        )
        resource.set("list", listed, rid)


@rule("azure.child-collection")
def child_collections(ctx: AzureContext) -> None:
    """A resource whose path is another resource's path plus ``/<type>/{name}`` is that
    resource's child (a subnet of a virtual network, a security rule of a network security
    group). When the parent's state has a list whose items are the child's own definition
    (``properties.subnets``: Subnet), that list is the child collection: the children are
    managed at their own paths, and a PUT of the parent that leaves the list out deletes them
    (ASO #1944), so the field is marked with the child's resource."""
    rid = source(child_collections.id)
    by_path = {facts.item.path: name for name, facts in ctx.facts.items()}
    for name, facts in ctx.facts.items():
        parent_path = facts.item.path.rsplit("/", 2)[0]
        parent = by_path.get(parent_path)
        if parent is None:
            continue
        facts.parent_resource = parent
        child = (facts.schema.document.repo_path, facts.schema.pointer)
        for field_name, (node, _, _) in ctx.facts[parent].members.items():
            items = node.value.get("items") if isinstance(node.value, dict) else None
            if node.value.get("type") != "array" or not isinstance(items, dict):
                continue
            target = ctx.specs.deref(Node(node.document, node.pointer + "/items", items))
            if (target.document.repo_path, target.pointer) == child:
                f = ctx.draft.resources[parent].fields[field_name]
                f.set_call(AzureFieldShape, "child_resource", name, rid)
