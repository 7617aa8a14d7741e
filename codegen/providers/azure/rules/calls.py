"""What the calls need: long-running polling, and the tags map."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from codegen.annotate.rules import rule, source
from codegen.model import Operation, TagsModel
from codegen.providers.azure.rules.context import AzureContext, PathItem
from codegen.providers.azure.shapes import AzureCallShape, azure
from codegen.providers.azure.specs import Node

LRO = "x-ms-long-running-operation"
LRO_OPTIONS = "x-ms-long-running-operation-options"
# ARM's defaults when an LRO names no final-state-via (the Azure SDKs' polling defaults): a PUT
# ends by GETting the resource again, a DELETE (and a POST) at the Location header
DEFAULT_FINAL_STATE = {"PUT": "original-uri", "PATCH": "original-uri", "DELETE": "location"}


@rule("azure.long-running-operation")
def long_running(ctx: AzureContext) -> None:
    """``x-ms-long-running-operation: true`` makes the call long-running, polled until it
    ends; ``x-ms-long-running-operation-options.final-state-via`` says where the result is
    (``azure-async-operation``, ``location``, ``original-uri``), ARM's default for the method
    when it says nothing."""
    rid = source(long_running.id)
    for resource, facts in ctx.resources():
        ops = facts.item.operations
        create, delete = _polled(resource.create, ops), _polled(resource.delete, ops)
        update = [p for p in (_polled(u, ops) for u in resource.update) if p is not None]
        if create is not resource.create:
            resource.set("create", create, rid)
        if delete is not resource.delete:
            resource.set("delete", delete, rid)
        if update != resource.update:
            resource.set("update", update, rid)


def _polled(op: Operation | None, ops: Mapping[str, Mapping[str, Any]]) -> Operation | None:
    """``op`` with its long-running facts, when its operation object says it is one."""
    if op is None:
        return None
    shape = azure(op)
    raw = ops.get(shape.method.lower(), {})
    if raw.get(LRO) is not True:
        return op
    options = raw.get(LRO_OPTIONS)
    via = options.get("final-state-via") if isinstance(options, dict) else None
    return op.with_call(
        AzureCallShape,
        long_running=True,
        final_state_via=via or DEFAULT_FINAL_STATE.get(shape.method),
    )


@rule("azure.tags-map")
def tags(ctx: AzureContext) -> None:
    """A resource whose state has ``tags``, a map of strings, is owned through it: the create
    sends the owner's tags in it. A PATCH on the resource's path whose body is only ``tags``
    (network's ``TagsObject``) changes tags without re-PUTting the resource."""
    rid = source(tags.id)
    for resource, facts in ctx.resources():
        f = resource.fields.get("tags")
        if f is None or f.type.kind != "map" or f.type.item is None:
            continue
        if facts.members["tags"][1] != "tags":  # a properties member (the tags resource's own)
            continue
        if f.type.item.kind != "string":
            continue
        patch = facts.item.operations.get("patch")
        tag_call = None
        if patch is not None and tags_only(ctx, facts.item, patch):
            tag_call = Operation(
                name=str(patch.get("operationId", "patch")),
                role="tag",
                identity_members=("id",),
                call=replace(
                    azure(resource.read) if resource.read else AzureCallShape(),
                    method="PATCH",
                    body_parameter=_body_name(patch),
                ),
                source=rid,
            )
            resource.set("tag", tag_call, rid)
        model = TagsModel(
            field="tags",
            create_member="tags" if f.in_create else None,
            tag_operation=tag_call.name if tag_call else None,
            untag_operation=tag_call.name if tag_call else None,
            selector_member="id",
            source=rid,
        )
        resource.set("tags", model, rid)


def _body_name(op: Mapping[str, Any]) -> str | None:
    params = op.get("parameters")
    for p in params if isinstance(params, list) else []:
        if isinstance(p, dict) and p.get("in") == "body":
            return str(p.get("name"))
    return None


def tags_only(ctx: AzureContext, item: PathItem, patch: Mapping[str, Any]) -> bool:
    """The PATCH's body schema has exactly one member, ``tags``."""
    params = patch.get("parameters")
    for index, raw in enumerate(params if isinstance(params, list) else []):
        node = ctx.specs.deref(Node(item.document, f"{item.pointer}/patch/parameters/{index}", raw))
        if isinstance(node.value, dict) and node.value.get("in") == "body":
            schema = Node(node.document, node.pointer + "/schema", node.value.get("schema", {}))
            return [n for n, _, _ in ctx.properties(schema)] == ["tags"]
    return False
