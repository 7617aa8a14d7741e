"""Tags set and read by kind: Route 53's ChangeTagsForResource / ListTagsForResources.

A hosted zone's create takes no tags and its read returns none; the service tags it through
one call for every taggable kind, naming the kind in ``ResourceType`` (an enum: ``hostedzone``,
``healthcheck``) and the resource in ``ResourceId``, with the tags in ``AddTags``. Ownership is
proven by tags, so without this model such a resource could never be found as the cluster's.
"""

from __future__ import annotations

from botocore.model import Shape

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Operation, TagsModel
from codegen.providers.aws.rules.context import AwsContext

ADD_MEMBERS = ("AddTags", "Tags")


def _kind_value(shape: Shape | None, resource: ResourceDraft) -> str | None:
    """The enum value whose letters spell the resource's name (``hostedzone``)."""
    for value in getattr(shape, "enum", None) or []:
        if value.replace("-", "").replace("_", "").lower() == resource.name.lower():
            return str(value)
    return None


def _list_taking(ctx: AwsContext, type_member: str, single: str, readers: list[str]) -> tuple[str, str] | None:
    """(tag read, its selector): the one taking the ids as a list (ListTagsForResources
    ``ResourceIds``) before the one taking a single id (ListTagsForResource ``ResourceId``)."""
    for reader in readers:
        required = ctx.required_inputs(reader)
        others = [m for m in required if m != type_member]
        if type_member in required and len(others) == 1:
            member = others[0]
            if ctx.input_members(reader)[member].type_name == "list":
                return reader, member
    for reader in readers:
        if sorted(ctx.required_inputs(reader)) == sorted((type_member, single)):
            return reader, single
    return None


@rule("aws.tags-by-resource-type")
def tags_by_resource_type(ctx: AwsContext) -> None:
    """A resource with no tags in its create or read, whose service's tag call names the kind by
    an enum member with a value spelling the resource's name (ChangeTagsForResource
    ``ResourceType=hostedzone``), is tagged by that call after it is made and its tags are read
    by the tag read taking the same kind (ListTagsForResources, many ids at once)."""
    rid = source("aws.tags-by-resource-type")
    tag_calls = sorted(n for n, role in ctx.tag_operations.items() if role == "tag")
    readers = sorted(n for n, role in ctx.tag_operations.items() if role == "tag-read")
    for resource in ctx.resources():
        if resource.tags is not None or resource.create is None:
            continue
        for call in tag_calls:
            members = ctx.input_members(call)
            kind = next(((m, v) for m, s in members.items() if (v := _kind_value(s, resource))), None)
            add = next((m for m in ADD_MEMBERS if m in members), None)
            if kind is None or add is None:
                continue
            single = next((m for m in ctx.required_inputs(call) if m not in (kind[0], add)), None)
            read = _list_taking(ctx, kind[0], single, readers) if single else None
            if read is None:
                continue
            resource.set("tags", TagsModel(
                field="Tags", resource_type=kind[1], tag_operation=call,
                untag_operation=call if "RemoveTagKeys" in members else None,
                read_operation=read[0], read_selector=read[1] if read[1] != single else None,
                type_member=kind[0], tags_member=add if add != "Tags" else None, source=rid,
            ), rid)
            resource.set("tag", Operation(call, "tag", source=rid), rid)
            break
