"""Service-level tagging: resources whose create and read say nothing of tags, yet the service's
tag calls address them by name.

Route 53's CreateHostedZone takes no tags and GetHostedZone returns none, but
ChangeTagsForResource takes ``ResourceType: hostedzone``; S3's CreateBucket takes none but
PutBucketTagging is the bucket's own. Such a resource is tagged after its create, through those
calls, and its tags are read through the service's tag read (ListTagsForResource,
GetBucketTagging).
"""

from __future__ import annotations

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Operation, TagsModel
from codegen.providers.aws.rules.context import AwsContext, enum_of
from codegen.providers.aws.rules.tagging import pick, specific_noun, spells


def _names_resource(ctx: AwsContext, resource: ResourceDraft, op_name: str) -> bool:
    """The tag call is the resource's own (PutBucketTagging, TagQueue) or takes a required
    enum member with a value spelling it (ChangeTagsForResource's ResourceType)."""
    own = {resource.name, resource.api_name}
    if specific_noun(op_name) in own:
        return True
    members = ctx.input_members(op_name)
    return any(
        spells(value, resource)
        for name in ctx.required_inputs(op_name)
        for value in enum_of(members[name])
    )


@rule("aws.service-level-tagging")
def service_level_tagging(ctx: AwsContext) -> None:
    """A resource whose create and read carry no tags is still tagged when one of the service's
    tag calls names it (its own Put<R>Tagging / Tag<R>, or a ResourceType value spelling it):
    it gets a tags model with no create member, tagged after the create through that call."""
    rid = source("aws.service-level-tagging")
    tag_calls = sorted(n for n, r in ctx.tag_operations.items() if r == "tag")
    for resource in ctx.resources():
        if resource.tags is not None or resource.kind == "sub-resource":
            continue
        if not any(_names_resource(ctx, resource, op) for op in tag_calls):
            continue
        tag, untag = pick(ctx, resource, "tag"), pick(ctx, resource, "untag")
        if tag is None or not _names_resource(ctx, resource, tag):
            continue
        resource.set(
            "tags",
            TagsModel(field="Tags", tag_operation=tag, untag_operation=untag, source=rid),
            rid,
        )
        resource.set("tag", Operation(tag, "tag", source=rid), rid)
        if untag:
            resource.set("untag", Operation(untag, "untag", source=rid), rid)
