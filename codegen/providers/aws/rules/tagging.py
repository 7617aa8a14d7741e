"""Tag operations and the tags model.

Services tag in several shapes: CreateTags/DeleteTags (ec2), AddTags/RemoveTags (elbv2),
CreateOrUpdateTags/DeleteTags (autoscaling), TagResource/UntagResource, Tag<Resource>/Untag<Resource>
(iam), AddTagsToResource/RemoveTagsFromResource, Put<Resource>Tagging/Delete<Resource>Tagging
(s3) and ChangeTagsForResource (route53, one call for both). They are found by what they
carry, then given to resources; they never become resources themselves.
"""

from __future__ import annotations

from codegen.providers.aws.rules.context import AwsContext, split_operation, words
from codegen.annotate.rules import rule
from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import source
from codegen.model import Operation, TagsModel

TAG_WORDS = ("Tag", "Tags", "Tagging", "Untag")
UNTAG_VERBS = ("Untag", "Delete", "Remove")
READ_VERBS = ("Describe", "List", "Get")
TAGS_IN = ("TagSpecifications", "Tags", "TagList", "Tagging", "TagSet")


def _carries_tags(ctx: AwsContext, op_name: str) -> bool:
    members = ctx.input_members(op_name)
    return any(m in members for m in ("Tags", "TagKeys", "Tagging", "AddTags", "RemoveTagKeys"))


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


def _specific_noun(op_name: str) -> str:
    """``TagRole`` -> ``Role``; ``PutBucketTagging`` -> ``Bucket``; generic ones -> ``""``."""
    verb, noun = split_operation(op_name)
    for suffix in ("Tagging", "Tags"):
        if noun.endswith(suffix):
            noun = noun[: -len(suffix)]
    return noun


def _pick(ctx: AwsContext, resource: ResourceDraft, role: str) -> str | None:
    names = set(ctx.draft.resources)
    ops = [n for n, r in ctx.tag_operations.items() if r == role]
    specific = [n for n in ops if _specific_noun(n) == resource.name]
    # CreateOrUpdateTags names no resource: it is the service's generic tag call
    generic = [n for n in ops if _specific_noun(n) not in names]
    if specific or generic:
        return sorted(specific)[0] if specific else sorted(generic)[0]
    if role == "untag":  # ChangeTagsForResource adds and removes in one call
        tag = _pick(ctx, resource, "tag")
        if tag and "RemoveTagKeys" in ctx.input_members(tag):
            return tag
    return None


def _tag_member(ctx: AwsContext, resource: ResourceDraft) -> tuple[str | None, str | None]:
    """(member in the create input, member in the read shape) that carry tags."""
    create_in = ctx.input_members(resource.create.name) if resource.create else {}
    create = next((m for m in TAGS_IN if m in create_in), None)
    read = None
    if resource.shape:
        members = ctx.model.shape_for(resource.shape).members
        read = next((m for m in ("Tags", "TagList", "TagSet") if m in members), None)
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
        tag, untag = _pick(ctx, resource, "tag"), _pick(ctx, resource, "untag")
        resource.set(
            "tags",
            TagsModel(
                field="Tags",
                create_member=create,
                resource_type=_resource_type(ctx, resource, create),
                tag_operation=tag,
                untag_operation=untag,
                source=source(rid),
            ),
            source(rid),
        )
        if tag:
            resource.set("tag", Operation(tag, "tag", source=source(rid)), source(rid))
        if untag:
            resource.set("untag", Operation(untag, "untag", source=source(rid)), source(rid))


def _resource_type(ctx: AwsContext, resource: ResourceDraft, create: str | None) -> str | None:
    """The TagSpecifications ResourceType enum value whose letters spell the resource's name."""
    if create != "TagSpecifications" or resource.create is None:
        return None
    spec = ctx.input_members(resource.create.name)[create].member
    enum = getattr(spec.members.get("ResourceType"), "enum", None) or []
    # the resource's name, else its shape's (SecurityGroupIngress is a "security-group-rule")
    for wanted in (resource.name.lower(), (resource.shape or "").lower()):
        for value in enum:
            if value.replace("-", "").lower() == wanted:
                return str(value)
    return None
