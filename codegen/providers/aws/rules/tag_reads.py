"""Tags that the resource's read does not return.

ELBv2's DescribeLoadBalancers returns no tags; DescribeTags does, for up to twenty ARNs at once
(the same selector its AddTags takes). Route 53's GetHostedZone returns none either;
ListTagsForResources does, for many ids of one kind (``ResourceType`` beside ``ResourceIds``,
where ChangeTagsForResource takes one ``ResourceId``). Ownership is proven by tags, so a
resource whose read lacks them must have them read by the service's tag read, or it could never
be found as owned.
"""

from __future__ import annotations

import dataclasses

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.providers.aws.rules.context import AwsContext, members
from codegen.providers.aws.shapes import AwsTagShape, aws_tags


def _reader(
    ctx: AwsContext, resource: ResourceDraft, readers: list[str]
) -> tuple[str, str | None] | None:
    """(tag read, the member it names resources by when not the tag call's selector): first one
    taking many at once (ListTagsForResources ``ResourceIds``, DescribeTags ``ResourceArns``),
    else one taking the tag call's selector itself (ListTagsForResource ``ResourceId``). A read
    must take the fixed members the tag calls send (``ResourceType``)."""
    tags = resource.tags
    assert tags is not None and tags.selector_member is not None
    selector, fixed = tags.selector_member, dict(aws_tags(tags).selector_extra)
    fitting = []
    for reader in sorted(readers):
        required = ctx.required_inputs(reader)
        if not set(fixed) <= set(ctx.input_members(reader)):
            continue
        rest = [m for m in required if m not in fixed]
        if len(rest) == 1:
            fitting.append((reader, rest[0]))
    for reader, member in fitting:  # many at once
        taken = ctx.input_members(reader)[member]
        if taken.type_name == "list" and member in (selector, selector + "s"):
            return reader, None if member == selector else member
    for reader, member in fitting:  # one at a time
        if member == selector:
            return reader, None
    return None


@rule("aws.tags-read-separately")
def tags_read_separately(ctx: AwsContext) -> None:
    """A resource with a tag operation whose read shape has no tags member gets the service's
    tag read that names resources as its tag call does: by the same selector (DescribeTags
    ``ResourceArns`` for AddTags ``ResourceArns``) or by a list of it (ListTagsForResources
    ``ResourceIds`` for ChangeTagsForResource ``ResourceId``), with the same fixed members
    (``ResourceType``); a list-taking read is preferred, as it reads many resources per call."""
    rid = source("aws.tags-read-separately")
    readers = [n for n, role in ctx.tag_operations.items() if role == "tag-read"]
    for resource in ctx.resources():
        tags = resource.tags
        if tags is None or tags.selector_member is None or resource.shape is None:
            continue
        if tags.field in members(ctx.model.shape_for(resource.shape)):
            continue  # the read returns them
        found = _reader(ctx, resource, readers)
        if found is not None:
            read = dataclasses.replace(tags, read_operation=found[0])
            resource.set("tags", read.with_call(AwsTagShape, read_selector=found[1]), rid)
            field = resource.fields.get(tags.field)
            if field is not None:  # one tag read, on the field as on the tags model
                field.set("read_operation", found[0], rid)
