"""Tag operations and the tags model.

Services tag in several shapes: CreateTags/DeleteTags (ec2), AddTags/RemoveTags (elbv2),
CreateOrUpdateTags/DeleteTags (autoscaling), TagResource/UntagResource,
Tag<Resource>/Untag<Resource> (iam), AddTagsToResource/RemoveTagsFromResource,
Put<Resource>Tagging/Delete<Resource>Tagging (s3) and ChangeTagsForResource (route53, one call
for both). They are found by what they carry, then given to resources; they never become
resources themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Operation, TagsModel
from codegen.providers.aws.rules.context import (
    AwsContext,
    enum_of,
    list_item,
    members,
    split_operation,
    words,
)
from codegen.providers.aws.shapes import AwsTagShape

TAG_WORDS = ("Tag", "Tags", "Tagging", "Untag")
UNTAG_VERBS = ("Untag", "Delete", "Remove")
READ_VERBS = ("Describe", "List", "Get")
TAGS_IN = ("TagSpecifications", "Tags", "TagList", "Tagging", "TagSet")


TAG_PAYLOADS = ("tags", "tagkeys", "tagging", "addtags", "removetagkeys")


def member_named(members: Iterable[str], wanted: Iterable[str]) -> str | None:
    """The member spelled like one of ``wanted`` in any case: services spell tags ``Tags``
    (ec2, iam, sqs TagQueue) or ``tags`` (logs, ecr, CreateQueue)."""
    by_lower = {m.lower(): m for m in members}
    return next((by_lower[w.lower()] for w in wanted if w.lower() in by_lower), None)


def _carries_tags(ctx: AwsContext, op_name: str) -> bool:
    return member_named(ctx.input_members(op_name), TAG_PAYLOADS) is not None


@rule("aws.tag-operations")
def tag_operations(ctx: AwsContext) -> None:
    """Operations whose name speaks of tags and whose input carries tags or tag keys are tag /
    untag operations; Describe/List/Get…Tags operations read tags."""
    for name in ctx.operation_names:
        parts = words(name)
        if not any(w in TAG_WORDS for w in parts):
            continue
        verb = parts[0]
        if verb in READ_VERBS:
            if parts[-1] in ("Tags", "Tagging") or (len(parts) > 1 and parts[1] == "Tags"):
                ctx.tag_operations[name] = "tag-read"
        elif _carries_tags(ctx, name):
            ctx.tag_operations[name] = "untag" if verb in UNTAG_VERBS else "tag"


def specific_noun(op_name: str) -> str:
    """``TagRole`` -> ``Role``; ``PutBucketTagging`` -> ``Bucket``; generic ones -> ``""``."""
    verb, noun = split_operation(op_name)
    for suffix in ("Tagging", "Tags"):
        if noun.endswith(suffix):
            noun = noun[: -len(suffix)]
    return noun


def tag_selectors_of(ctx: AwsContext, op_name: str) -> list[str]:
    """Required members of a tag call that name what is tagged (not the tags themselves)."""
    payload = {*TAG_PAYLOADS, "dryrun"}
    return [m for m in ctx.required_inputs(op_name) if m.lower() not in payload]


def spells(value: str, resource: ResourceDraft) -> bool:
    """An enum value naming the resource: ``hostedzone`` for HostedZone."""
    return value.replace("-", "").replace("_", "").lower() in (
        resource.name.lower(),
        resource.api_name.lower(),
    )


def _fits(ctx: AwsContext, op_name: str, resource: ResourceDraft) -> bool:
    """A required enum member of the call (ChangeTagsForResource's ResourceType) has a value
    for this resource, or the call has none."""
    inputs = ctx.input_members(op_name)
    enums = [enum_of(inputs[m]) for m in ctx.required_inputs(op_name)]
    return all(any(spells(v, resource) for v in e) for e in enums if e)


def _generic(ctx: AwsContext, op_name: str) -> bool:
    """A tag call for any resource of the service: it names what it tags by a resource ARN, id
    or type (TagResource, AddTagsToResource, ChangeTagsForResource, CreateTags' Resources), or
    not at all outside the tags (autoscaling's CreateOrUpdateTags); an OpenIDConnectProviderArn
    names one kind only."""
    selectors = tag_selectors_of(ctx, op_name)
    return all("resource" in m.lower() or m.lower() == "arn" for m in selectors)


def pick(ctx: AwsContext, resource: ResourceDraft, role: str) -> str | None:
    """The resource's own tag call (TagRole, PutBucketTagging), else one that selects it by its
    identity (a service-linked role is tagged by TagRole's RoleName), else the service's generic
    one (TagResource). TagMFADevice, selecting by SerialNumber, is nobody else's."""
    if role == "untag":  # ChangeTagsForResource adds and removes in one call
        tag = pick(ctx, resource, "tag")
        if tag and member_named(ctx.input_members(tag), ("RemoveTagKeys",)):
            return tag
    ops = sorted(n for n, r in ctx.tag_operations.items() if r == role and _fits(ctx, n, resource))
    own = {resource.name, resource.api_name}
    # identity rules run later: what the delete requires selects the resource as well
    deletes = ctx.required_inputs(resource.delete.name) if resource.delete else []
    identity = {*resource.primary, *deletes, *([resource.arn] if resource.arn else [])}
    matchers: tuple[Callable[[str], bool], ...] = (
        lambda n: specific_noun(n) in own,
        lambda n: bool(identity)
        and set(tag_selectors_of(ctx, n)) <= identity
        and bool(tag_selectors_of(ctx, n)),
        lambda n: _generic(ctx, n),
    )
    for matches in matchers:
        found = [n for n in ops if matches(n)]
        if found:
            return found[0]
    return None


def _tag_member(ctx: AwsContext, resource: ResourceDraft) -> tuple[str | None, str | None]:
    """(member in the create input, member in the read shape) that carry tags."""
    create_in = ctx.input_members(resource.create.name) if resource.create else {}
    create = member_named(create_in, TAGS_IN)
    read = None
    if resource.shape:
        read = member_named(
            members(ctx.model.shape_for(resource.shape)), ("Tags", "TagList", "TagSet")
        )
    return create, read


@rule("aws.tags-model")
def tags_model(ctx: AwsContext) -> None:
    """A resource that takes or returns tags gets a tags model: the create member (tags in the
    create call itself), the ResourceType of TagSpecifications, and the tag/untag operations."""
    rid = "aws.tags-model"
    for resource in ctx.resources():
        create, read = _tag_member(ctx, resource)
        if create is None and read is None:
            continue
        tag, untag = pick(ctx, resource, "tag"), pick(ctx, resource, "untag")
        resource_type = _resource_type(ctx, resource, create)
        resource.set(
            "tags",
            TagsModel(
                field="Tags",
                create_member=create,
                tag_operation=tag,
                untag_operation=untag,
                source=source(rid),
            ).with_call(AwsTagShape, resource_type=resource_type),
            source(rid),
        )
        if tag:
            resource.set("tag", Operation(tag, "tag", source=source(rid)), source(rid))
        if untag:
            resource.set("untag", Operation(untag, "untag", source=source(rid)), source(rid))


def _resource_type(ctx: AwsContext, resource: ResourceDraft, create: str | None) -> str | None:
    """The TagSpecifications ResourceType enum value naming the resource: the one whose letters
    spell its name (or its shape's: SecurityGroupIngress is a "security-group-rule"), else the
    one value whose words and the name's words contain one another in order (ManagedPrefixList
    is a "prefix-list", FlowLog a "vpc-flow-log", TransitGatewayVpcAttachment a
    "transit-gateway-attachment" less its "Vpc"); two such values equally close name none."""
    if create != "TagSpecifications" or resource.create is None:
        return None
    spec = list_item(ctx.input_members(resource.create.name)[create])
    enum = enum_of(members(spec).get("ResourceType"))
    for wanted in (resource.name.lower(), (resource.shape or "").lower()):
        for value in enum:
            if value.replace("-", "").lower() == wanted:
                return str(value)
    return _closest_type(resource.name, [str(v) for v in enum])


def _closest_type(name: str, enum: list[str]) -> str | None:
    own = [w.lower() for w in words(name)]
    scored: list[tuple[int, str]] = []
    for value in enum:
        theirs = value.lower().split("-")
        if _within(theirs, own) or _within(own, theirs):
            scored.append((len(set(theirs) & set(own)), value))
    scored.sort(reverse=True)
    if not scored or (len(scored) > 1 and scored[0][0] == scored[1][0]):
        return None
    return scored[0][1]


def _within(part: list[str], whole: list[str]) -> bool:
    """``part`` appears in ``whole`` in order (words may lie between)."""
    it = iter(whole)
    return all(any(w == p for w in it) for p in part)
