"""Tags that the resource's read does not return.

ELBv2's DescribeLoadBalancers returns no tags; DescribeTags does, for up to twenty ARNs at once
(the same selector its AddTags takes). Ownership is proven by tags, so a resource whose read
lacks them must have them read by the service's tag read, or it could never be found as owned.
"""

from __future__ import annotations

import dataclasses

from codegen.providers.aws.rules.context import AwsContext
from codegen.annotate.rules import rule, source


@rule("aws.tags-read-separately")
def tags_read_separately(ctx: AwsContext) -> None:
    """A resource with a tag operation whose read shape has no tags member gets the service's
    tag read whose required input is the tag call's selector (DescribeTags ``ResourceArns``
    for AddTags ``ResourceArns``)."""
    rid = source("aws.tags-read-separately")
    readers = [n for n, role in ctx.tag_operations.items() if role == "tag-read"]
    for resource in ctx.resources():
        tags = resource.tags
        if tags is None or tags.selector_member is None or resource.shape is None:
            continue
        if tags.field in ctx.model.shape_for(resource.shape).members:
            continue  # the read returns them
        for reader in sorted(readers):
            if ctx.required_inputs(reader) == [tags.selector_member]:
                resource.set("tags", dataclasses.replace(tags, read_operation=reader), rid)
                break
