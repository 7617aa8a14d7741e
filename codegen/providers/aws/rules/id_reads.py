"""A read by id where the noun's read is a listing that cannot select the resource."""

from __future__ import annotations

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Operation
from codegen.providers.aws.rules.calls import name_prefix_member
from codegen.providers.aws.rules.context import AwsContext, singular_candidates, split_operation
from codegen.providers.aws.shapes import AwsCallShape, aws

ID_READ_VERBS = ("Head", "Get")


def lists_without_identity(ctx: AwsContext, resource: ResourceDraft) -> bool:
    """The read is a listing that takes no member selecting the resource (its id, name or
    parent) and no filters: ListBuckets, ListTopics, ListQueues. The runtime never lists a
    whole account to match on the client, so such a read finds nothing it made."""
    read = resource.read
    if (
        read is None
        or aws(read).nested_member
        or (not read.output_is_list and read.output_member is not None)
    ):
        return False  # read through its parent, or one resource per answer
    members = ctx.input_members(read.name)
    if name_prefix_member(members, [n for n in resource.natural if not n.startswith("tag:")]):
        return False  # selects by name through the prefix (aws.read-selectors)
    return not any(_selects(ctx, resource, m) for m in members)


def _selects(ctx: AwsContext, resource: ResourceDraft, member: str) -> bool:
    """An input member that narrows a listing to some resources: a required one, a filter, one
    of the resource's identity members (or its plural: InternetGatewayIds), or any id, ARN,
    name or URL (a parent's). Paging members and name prefixes (QueueNamePrefix) do not."""
    assert resource.read is not None
    identity = {*resource.primary, *resource.natural, *resource.parent}
    return (
        member in ctx.required_inputs(resource.read.name)
        or "Filter" in member
        or member in identity
        or bool(set(singular_candidates(member)) & identity)
        or member.endswith(("Id", "Ids", "Arn", "Arns", "ARN", "Name", "Names", "Url", "Urls"))
    )


def _id_read(ctx: AwsContext, resource: ResourceDraft) -> str | None:
    """``Head<R>`` / ``Get<R>`` / ``Get<R>Attributes`` whose required input is exactly the
    primary id (HeadBucket's Bucket, GetTopicAttributes' TopicArn), answering flat members."""
    primary = set(resource.primary)
    nouns = {resource.name, resource.api_name}
    for verb in ID_READ_VERBS:
        for name, _, noun in ctx.ops_with_verb(verb):
            if name in ctx.tag_operations or noun not in nouns | {f"{n}Attributes" for n in nouns}:
                continue
            required = set(ctx.required_inputs(name))
            outputs = ctx.output_members(name)
            if required == primary and outputs and split_operation(name)[0] == verb:
                return name
    return None


@rule("aws.read-by-id-over-unselecting-list")
def read_by_id(ctx: AwsContext) -> None:
    """A resource whose read is a listing that cannot select it (:func:`lists_without_identity`) is
    read by the ``Head<R>``/``Get<R>``/``Get<R>Attributes`` call that takes exactly its primary
    id (a bucket by HeadBucket, a topic by GetTopicAttributes); the listing stays its list. With
    no such call the read is dropped: the resource is not complete, so ``generate: all`` leaves
    it out with "no read" rather than generate a task that never finds what it made."""
    rid = "aws.read-by-id-over-unselecting-list"
    for resource in ctx.resources():
        if not resource.primary or not lists_without_identity(ctx, resource):
            continue
        name = _id_read(ctx, resource)
        if name is None:
            resource.set("read", None, source(rid))
            continue
        read = Operation(
            name,
            "read",
            output_member=None,
            output_is_list=False,
            call=AwsCallShape(),
            paginated=False,
            source=source(rid),
        )
        resource.set("read", read, source(rid))
