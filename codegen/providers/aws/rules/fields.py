"""Rules that collect a resource's fields from its create input and its read shape."""

from __future__ import annotations

from botocore.model import Shape

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import FieldType
from codegen.providers.aws.rules.context import (
    CONTROL_MEMBERS,
    AwsContext,
    documentation_text,
    is_list_of,
    members,
)
from codegen.providers.aws.rules.identity import read_members


def create_inputs(ctx: AwsContext, resource: ResourceDraft) -> dict[str, Shape]:
    """Create input members that describe the resource (no DryRun, tokens or tag members)."""
    if resource.create is None:
        return {}
    tokens = set(ctx.op(resource.create.name).idempotent_members)
    tags = resource.tags.create_member if resource.tags else None
    return {
        name: shape
        for name, shape in ctx.input_members(resource.create.name).items()
        if name not in CONTROL_MEMBERS and name not in tokens and name != tags
    }


def _read_name_for(resource: ResourceDraft, member: str, readable: list[str]) -> str | None:
    """The read member carrying a create member: the same name, or the resource-prefixed one
    (create ``Name`` is read as ``LoadBalancerName``)."""
    for candidate in (member, resource.name + member, resource.api_name + member):
        if candidate in readable:
            return candidate
    return None


@rule("aws.fields-from-create-and-read")
def collect_fields(ctx: AwsContext) -> None:
    """A resource's fields are the members of its create input and of its read shape, one field
    per value: a create member read back under the resource-prefixed name (``Name`` ->
    ``LoadBalancerName``) is one field with a ``read_name``."""
    rid = source("aws.fields-from-create-and-read")
    for resource in ctx.resources():
        read_shape = ctx.model.shape_for(resource.shape) if resource.shape else None
        readable = read_members(ctx, resource)
        taken: set[str] = set()
        creates = create_inputs(ctx, resource)
        required = set(ctx.required_inputs(resource.create.name)) if resource.create else set()
        for name, shape in creates.items():
            draft = FieldDraft(
                name,
                ctx.field_type(shape),
                documentation_text(shape),
                in_create=True,
                create_shape=shape.name,
            )
            read_name = _read_name_for(resource, name, readable)
            if read_name is not None:
                draft.in_read = True
                taken.add(read_name)
                if read_name != name:
                    draft.set("read_name", read_name, rid)
            draft.set("required", name in required, source("aws.required-by-create"))
            resource.fields[name] = draft
        for name in readable:
            if name in taken or name in resource.fields:
                continue
            assert read_shape is not None
            shape = members(read_shape)[name]
            resource.fields[name] = FieldDraft(
                name, ctx.field_type(shape), documentation_text(shape), in_read=True
            )
        for name, shape in _flat_create_outputs(ctx, resource).items():
            if name not in resource.fields and name not in taken:
                # returned once, by the create only (a KeyPair's KeyMaterial)
                resource.fields[name] = FieldDraft(
                    name, ctx.field_type(shape), documentation_text(shape)
                )
        for f in resource.fields.values():
            f.provenance.setdefault("name", rid)


def _flat_create_outputs(ctx: AwsContext, resource: ResourceDraft) -> dict[str, Shape]:
    """Members of a create output that is the resource itself rather than a wrapper of it."""
    if resource.create is None or resource.kind == "sub-resource":
        return {}
    outputs = dict(ctx.output_members(resource.create.name))
    wrapped = any(
        s.name == resource.shape or is_list_of(s, resource.shape) for s in outputs.values()
    )
    return {} if wrapped else {n: s for n, s in outputs.items() if n not in CONTROL_MEMBERS}


@rule("aws.tags-are-one-field")
def tags_field(ctx: AwsContext) -> None:
    """Tags are one logical field, ``Tags``, whether the create takes ``TagSpecifications`` and
    reads return ``Tags`` (or ``TagSet``, or ``tags``), or both say ``Tags``."""
    rid = source("aws.tags-are-one-field")
    for resource in ctx.resources():
        tags = resource.tags
        if tags is None:
            continue
        spelled = next(
            (
                n
                for n in resource.fields
                if n != tags.field and n.lower() in ("tags", "tagset", "taglist")
            ),
            None,
        )
        if tags.field not in resource.fields and spelled is not None:
            # read back as TagSet (an ENI) or tags (logs): one field, named Tags, read under that
            # name
            read = resource.fields.pop(spelled)
            read.name = tags.field
            read.set("read_name", spelled, rid)
            resource.fields[tags.field] = read
        if tags.field not in resource.fields:
            # tagged on create (TagSpecifications) but the read shape lists no tags
            tag_shape = ctx.model.shape_for("Tag") if "Tag" in ctx.shape_names else None
            item = (
                ctx.field_type(tag_shape)
                if tag_shape is not None
                else FieldType("structure", "Tag")
            )
            tag_list = FieldType("list", "TagList", item=item)
            resource.fields[tags.field] = FieldDraft(tags.field, tag_list, "The tags.")
        f = resource.fields[tags.field]
        f.in_create = tags.create_member is not None
        f.provenance["name"] = rid
