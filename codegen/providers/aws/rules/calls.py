"""Rules for how calls are shaped: which member selects by id, where a new id comes back,
how values are wrapped. The renderer needs these facts and never reads botocore itself."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from botocore import xform_name
from botocore.model import ListShape, Shape

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Operation
from codegen.providers.aws.rules.context import (
    AwsContext,
    documentation_text,
    enum_of,
    list_item,
    members,
    singular_candidates,
)
from codegen.providers.aws.rules.tagging import member_named, spells, tag_selectors_of
from codegen.providers.aws.shapes import AwsFieldShape, AwsTagShape, aws, with_aws


def _is_filter_list(shape: Shape) -> bool:
    item = list_item(shape)
    return (
        item is not None
        and item.type_name == "structure"
        and {"Name", "Values"} <= set(members(item))
    )


def _selector_for(members: dict[str, Shape], wanted: list[str]) -> str | None:
    """The input member that carries one of ``wanted`` (``VpcIds`` for ``VpcId``)."""
    for want in wanted:
        for name, shape in members.items():
            if name == want or (shape.type_name == "list" and want in singular_candidates(name)):
                return name
    return None


def name_prefix_member(members: Mapping[str, Shape], natural: list[str]) -> str | None:
    """A string member ``<natural key>Prefix`` (DescribeLogGroups' ``logGroupNamePrefix``): it
    narrows a listing to names starting with the value; the runtime keeps the exact match
    (``aws_find._in_scope``), so it selects by natural key."""
    for want in natural:
        for name, shape in members.items():
            if name.lower() == f"{want}prefix".lower() and shape.type_name == "string":
                return name
    return None


def _read_members(ctx: AwsContext, op: Operation) -> dict[str, Shape]:
    return dict(ctx.input_members(op.name))


def _shaped_read(ctx: AwsContext, resource: ResourceDraft, op: Operation, rid: str) -> Operation:
    members = _read_members(ctx, op)
    # a sub-resource read through its parent is selected by the parent's id
    wanted = list(resource.parent) if aws(op).nested_member else list(resource.primary)
    natural = [n for n in resource.natural if not n.startswith("tag:")]
    id_filter = _selector_for(members, wanted)
    natural_filter = _selector_for(members, natural) if natural else None
    prefix = name_prefix_member(members, natural) if natural and not natural_filter else None
    shaped = dataclasses.replace(op, id_filter=id_filter, natural_filter=natural_filter or prefix)
    return with_aws(
        shaped,
        id_filter_is_list=id_filter is not None and members[id_filter].type_name == "list",
        filters_member=next((n for n, s in members.items() if _is_filter_list(s)), None),
        # the read takes the name as it is typed: a list (Names) or one value (ServiceName)
        **(
            {"natural_filter_is_list": members[shaped.natural_filter].type_name == "list"}
            if shaped.natural_filter
            else {}
        ),
    )


@rule("aws.read-selectors")
def read_selectors(ctx: AwsContext) -> None:
    """A read selects by id through the member that carries the primary id (``VpcIds``,
    ``RoleName``), by natural key through its own member (``Names``, ``KeyNames``) or through
    the list of {Name, Values} filters EC2-style APIs take."""
    rid = source("aws.read-selectors")
    for resource in ctx.resources():
        for role in ("read", "list"):
            op = getattr(resource, role)
            if op is not None:
                resource.set(role, _shaped_read(ctx, resource, op, rid), rid)


@rule("aws.create-returns-id")
def create_id(ctx: AwsContext) -> None:
    """A create returns the new resource inside a member typed with its shape (``Vpc``), as the
    first item of a list (``SecurityGroupRules``), or flat (AllocateAddress); its id is the
    primary member as reads name it."""
    rid = source("aws.create-returns-id")
    for resource in ctx.resources():
        if resource.create is None or len(resource.primary) != 1:
            continue
        outputs = dict(ctx.output_members(resource.create.name))
        member, is_list, item = None, False, outputs
        for name, shape in outputs.items():
            inner = list_item(shape) or shape
            if inner.type_name == "structure" and inner.name == resource.shape:
                member, is_list, item = name, shape.type_name == "list", dict(members(inner))
                break
        primary = resource.primary[0]
        id_member = primary if primary in item else _suffix_match(primary, item)
        if id_member is None:
            continue
        create = dataclasses.replace(
            resource.create, output_member=member, output_is_list=is_list, id_member=id_member
        )
        resource.set("create", create, rid)


def _suffix_match(primary: str, members: dict[str, Shape]) -> str | None:
    """``RouteTableAssociationId`` comes back from AssociateRouteTable as ``AssociationId``."""
    found = [m for m in members if primary.endswith(m) and m.endswith(("Id", "Arn"))]
    return found[0] if len(found) == 1 else None


@rule("aws.attribute-update-one-per-call")
def one_attribute_per_call(ctx: AwsContext) -> None:
    """Modify<R>Attribute calls change one attribute per call (ModifyVpcAttribute,
    ModifySubnetAttribute say so): fields they carry are sent one call each."""
    rid = source("aws.attribute-update-one-per-call")
    for resource in ctx.resources():
        shaped = [
            with_aws(op, one_field_per_call=op.name.endswith("Attribute")) for op in resource.update
        ]
        if shaped != resource.update:
            resource.set("update", shaped, rid)


@rule("aws.attribute-value-wrapper")
def value_wrapper(ctx: AwsContext) -> None:
    """Attribute calls take booleans as ``{"Value": true}`` (AttributeBooleanValue) while reads
    may return them plainly; the field records the wrapper so the value is wrapped on the way in
    and unwrapped on the way out. An attribute read is asked for by the attribute's name."""
    rid = source("aws.attribute-value-wrapper")
    for resource in ctx.resources():
        for f in resource.fields.values():
            op_name = f.get("update_operation")
            if op_name and op_name in ctx.operation_names and op_name not in ctx.tag_operations:
                member = ctx.input_members(op_name).get(f.get("update_name") or f.name)
                if (
                    member is not None
                    and member.type_name == "structure"
                    and list(members(member)) == ["Value"]
                ):
                    f.set_call(AwsFieldShape, "value_wrapper", "Value", rid)
            reader = f.get("read_operation")
            if reader and reader not in ctx.tag_operations:
                attribute = ctx.input_members(reader).get("Attribute")
                for value in enum_of(attribute):
                    if value.lower() == f.name.lower():
                        f.set_call(AwsFieldShape, "read_attribute", value, rid)


@rule("aws.tag-call-selectors")
def tag_selectors(ctx: AwsContext) -> None:
    """Tag calls name the resource by a list of ids (``Resources``), a list of ARNs
    (``ResourceArns``), its own id member (``RoleName``, ``QueueUrl``), or a resource id plus a
    fixed type (route53's ``ResourceType: hostedzone``); they carry the tags as a list of
    {Key, Value} (or {TagKey, TagValue}), a {key: value} map (``TagQueue``) or wrapped
    (``Tagging.TagSet``); untag calls take keys as ``TagKeys`` or as ``Tags`` with keys only."""
    rid = source("aws.tag-call-selectors")
    for resource in ctx.resources():
        tags = resource.tags
        if tags is None or tags.tag_operation is None:
            continue
        members = dict(ctx.input_members(tags.tag_operation))
        extra = _fixed_type(ctx, resource, tags.tag_operation)
        selectors = [m for m in tag_selectors_of(ctx, tags.tag_operation) if m not in dict(extra)]
        selector = selectors[0] if selectors else None
        untag = None
        if tags.untag_operation:
            untag_members = ctx.input_members(tags.untag_operation)
            untag = member_named(untag_members, ("TagKeys", "RemoveTagKeys", "Tags"))
        payload = member_named(members, ("Tags", "AddTags", "Tagging")) or "Tags"
        shape = members.get(payload)
        wrapper, item = _tag_items(shape)
        create_shape = (
            ctx.input_members(resource.create.name).get(tags.create_member or "")
            if resource.create
            else None
        )
        shaped = dataclasses.replace(tags, selector_member=selector).with_call(
            AwsTagShape,
            selector_is_list=selector is not None and members[selector].type_name == "list",
            selector_is_arn=selector is not None and "arn" in selector.lower(),
            untag_member=untag,
            payload_member=payload,
            payload_is_map=shape is not None and shape.type_name == "map",
            payload_wrapper=wrapper,
            key_member=_item_member(item, "Key"),
            value_member=_item_member(item, "Value"),
            create_is_map=create_shape is not None and create_shape.type_name == "map",
            selector_extra=extra,
        )
        resource.set("tags", shaped, rid)


def _tag_items(shape: Shape | None) -> tuple[str | None, Shape | None]:
    """(wrapper member, tag item shape) of a tags payload: a list, or a structure around one."""
    if shape is None:
        return None, None
    if isinstance(shape, ListShape):
        return None, shape.member
    for name, member in members(shape).items():
        if isinstance(member, ListShape):
            return name, member.member
    return None, None


def _item_member(item: Shape | None, suffix: str) -> str:
    """``Key`` / ``Value``, or the item's own spelling (KMS ``TagKey``, logs ``key``)."""
    if item is None or item.type_name != "structure":
        return suffix
    return next((m for m in members(item) if m.lower().endswith(suffix.lower())), suffix)


def _fixed_type(
    ctx: AwsContext, resource: ResourceDraft, op_name: str
) -> tuple[tuple[str, str], ...]:
    """A required enum member of a tag call whose value spells the resource's name (route53
    ChangeTagsForResource's ``ResourceType: hostedzone``) is sent as that fixed value."""
    inputs = ctx.input_members(op_name)
    for name in ctx.required_inputs(op_name):
        for value in enum_of(inputs[name]):
            if spells(value, resource):
                return ((name, str(value)),)
    return ()


# a filter the Filters documentation lists: "<li><p><code>vpc-id</code> - The ID of the VPC...".
# tag:<key> is written with an escaped "<key>" and tag filters are the runtime's own.
_LISTED_FILTER = re.compile(r"<li>\s*<p>\s*<code>\s*([a-z0-9][a-z0-9.\-]*)\s*</code>")


def documented_filters(documentation: str) -> frozenset[str]:
    """The filter names a ``Filters`` member's documentation lists, in its own words."""
    return frozenset(_LISTED_FILTER.findall(documentation or ""))


@rule("aws.documented-filters")
def filters_from_documentation(ctx: AwsContext) -> None:
    """An EC2-style read selects a member by the filter named like it, kebab-cased (``vpc-id``,
    ``group-name``) -- when its ``Filters`` documentation lists that filter. A filter the read
    does not know is an error on AWS (DescribeEgressOnlyInternetGateways takes only tag filters;
    a peering's VPC is ``requester-vpc-info.vpc-id``): such a member gets no filter, and the find
    checks it on the client where the item holds it. Documentation that lists no filter at all
    says nothing either way: the kebab-cased name stands."""
    rid = source("aws.documented-filters")
    for resource in ctx.resources():
        read = resource.read
        filters = aws(read).filters_member if read is not None else None
        if read is None or filters is None:
            continue
        listed = documented_filters(ctx.input_members(read.name)[filters].documentation)
        for f in resource.fields.values():
            name = xform_name(f.name, "-")
            if not listed or name in listed:
                f.set_call(AwsFieldShape, "filter_name", name, rid)


# "The ARN or name of the secret", "The name or Amazon Resource Name (ARN) of the parameter"
_TAKES_NAME = re.compile(
    r"\b(ARN or (the )?name|name or (the )?(ARN|Amazon Resource Name)|Amazon Resource Name "
    r"\(ARN\) or (the )?name)\b",
    re.IGNORECASE,
)


@rule("aws.id-selector-takes-the-name")
def id_selector_takes_name(ctx: AwsContext) -> None:
    """A read whose id member says it takes the name as well ("SecretId: The ARN or name of the
    secret") selects by the natural key through that member: DescribeSecret(SecretId=<Name>)
    finds the secret a fresh run made, where the ARN it was given is not known yet. The runtime
    keeps the exact match on the client, as for any read by natural key."""
    rid = source("aws.id-selector-takes-the-name")
    for resource in ctx.resources():
        read = resource.read
        natural = [n for n in resource.natural if not n.startswith("tag:")]
        if read is None or read.natural_filter or not read.id_filter or len(natural) != 1:
            continue
        member = ctx.input_members(read.name).get(read.id_filter)
        if (
            member is None
            or member.type_name != "string"
            or not _TAKES_NAME.search(documentation_text(member))
        ):
            continue
        shaped = dataclasses.replace(read, natural_filter=read.id_filter, source=rid)
        resource.set("read", with_aws(shaped, natural_filter_is_list=False), rid)
