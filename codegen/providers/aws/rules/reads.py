"""Rules that find how a resource is read: its shape, its read and list operations."""

from __future__ import annotations

import dataclasses
import re

from botocore.model import Shape

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Operation
from codegen.providers.aws.rules.context import (
    AwsContext,
    is_list_of,
    list_item,
    members,
    same_noun,
    singular_candidates,
)
from codegen.providers.aws.rules.tagging import TAGS_IN
from codegen.providers.aws.shapes import AwsCallShape, aws, with_aws

READ_VERBS = ("Get", "Describe", "List")


def _structures(members: dict[str, Shape]) -> list[tuple[str, Shape, bool]]:
    """(member, structure shape, is_list) for the structure-valued members of an output."""
    out = []
    for name, shape in members.items():
        if shape.type_name == "structure":
            out.append((name, shape, False))
        elif (item := list_item(shape)) is not None and item.type_name == "structure":
            out.append((name, item, True))
    return out


def _resource_member(
    ctx: AwsContext, op_name: str, resource: ResourceDraft
) -> tuple[str, Shape, bool] | None:
    """Where in an operation's output the resource sits: a member typed with a shape named after
    the resource, else the only structure-valued member that is not its tags (the tag item is
    every tagged kind's: GetOpenIDConnectProvider answers its members flat beside ``Tags``)."""
    found = [f for f in _structures(dict(ctx.output_members(op_name))) if f[0] not in TAGS_IN]
    wanted = set(singular_candidates(resource.name)) | set(singular_candidates(resource.api_name))
    named = [f for f in found if f[1].name in wanted]
    if named:
        return named[0]
    return found[0] if len(found) == 1 else None


def _read_candidates(ctx: AwsContext, resource: ResourceDraft) -> list[tuple[str, str]]:
    out = []
    for verb in READ_VERBS:
        for name, _, noun in ctx.ops_with_verb(verb):
            if name in ctx.tag_operations:
                continue
            # a sub-resource's API noun is its parent's (AttachInternetGateway): not its reads
            nouns = (
                [resource.name]
                if resource.kind == "sub-resource"
                else [resource.name, resource.api_name]
            )
            if any(same_noun(noun, n) for n in nouns):
                out.append((verb, name))
    return out


@rule("aws.read-operations-by-noun")
def read_by_noun(ctx: AwsContext) -> None:
    """Get<R> reads one resource; Describe<Rs>/List<Rs> read a filtered list. The read is the
    single Get when there is one, else the Describe; the list is the List or Describe. The
    resource's shape is what the read returns (or, failing that, what the create returns)."""
    rid = "aws.read-operations-by-noun"
    for resource in ctx.resources():
        candidates = _read_candidates(ctx, resource)
        by_verb = dict(reversed(candidates))
        read_name = by_verb.get("Get") or by_verb.get("Describe") or by_verb.get("List")
        list_name = by_verb.get("List") or by_verb.get("Describe")
        if read_name:
            located = _resource_member(ctx, read_name, resource)
            flat = _answers_flat(ctx, read_name, resource, located[1] if located else None)
            if flat:
                located = None  # DescribeSecret: the secret's own members, beside a status list
            if located:
                member, shape, is_list = located
                read = _read_op(ctx, read_name, "read", member, is_list, rid)
                resource.set("read", read, source(rid))
                resource.set("shape", shape.name, source(rid))
            elif (answer := ctx.op(read_name).output_shape) is not None and (
                flat or _is_flat(ctx, read_name)
            ):  # GetRolePolicy returns the policy's members itself
                resource.set(
                    "read", _read_op(ctx, read_name, "read", None, False, rid), source(rid)
                )
                resource.set("shape", answer.name, source(rid))
        if list_name and list_name != (resource.read.name if resource.read else None):
            located = _resource_member(ctx, list_name, resource)
            if located:
                resource.set(
                    "list",
                    _read_op(ctx, list_name, "list", located[0], located[2], rid),
                    source(rid),
                )
        elif resource.read is not None and resource.read.output_is_list:
            resource.set("list", dataclasses.replace(resource.read, role="list"), source(rid))


def _answers_flat(
    ctx: AwsContext, op_name: str, resource: ResourceDraft, shape: Shape | None
) -> bool:
    """A read with no structure member named after the resource (DescribeSecret: ReplicationStatus,
    RotationRules) whose answer's own members hold what the create is given by name (``Name``,
    ``Description``): the answer is the resource itself."""
    wanted = set(singular_candidates(resource.name)) | set(singular_candidates(resource.api_name))
    if (shape is not None and shape.name in wanted) or resource.create is None:
        return False
    made = _resource_member(ctx, resource.create.name, resource)
    if made is not None and made[1].name.startswith((resource.name, resource.api_name)):
        return False  # the create answers a shape of its own (DocumentDescription): read as that
    creates = ctx.input_members(resource.create.name)
    outputs = ctx.output_members(op_name)
    shared = [
        m for m in outputs if m in creates and outputs[m].type_name not in ("structure", "list")
    ]
    names = [m for m in ctx.required_inputs(resource.create.name) if m.endswith("Name")]
    return bool(names) and all(m in outputs for m in names) and len(shared) >= 2


def _is_flat(ctx: AwsContext, op_name: str) -> bool:
    """An answer of the resource's own members: no structure-valued member but its tags."""
    outputs = ctx.output_members(op_name)
    return bool(outputs) and not [f for f in _structures(dict(outputs)) if f[0] not in TAGS_IN]


def _read_op(
    ctx: AwsContext,
    name: str,
    role: str,
    member: str | None,
    is_list: bool,
    rid: str,
    nested: str | None = None,
) -> Operation:
    return Operation(
        name,
        role,
        output_member=member,
        output_is_list=is_list,
        call=AwsCallShape(nested_member=nested),
        paginated=name in ctx.paginators,
        source=source(rid),
    )


@rule("aws.read-returns-resource-shape")
def read_by_shape(ctx: AwsContext) -> None:
    """A resource without a read named after it is read by the Describe/Get/List operation that
    returns the shape its create returns (SecurityGroupIngress -> DescribeSecurityGroupRules).
    A create that answers only its tags beside scalars (CreateSAMLProvider: SAMLProviderArn,
    Tags) returns no shape of the resource (see ``_resource_member``): reading the tag item
    would read another kind (GetOpenIDConnectProvider)."""
    rid = "aws.read-returns-resource-shape"
    for resource in ctx.resources():
        if resource.read is not None or resource.create is None:
            continue
        located = _resource_member(ctx, resource.create.name, resource)
        if located is None:
            continue
        shape = located[1]
        for verb in READ_VERBS:
            for name, _, _ in ctx.ops_with_verb(verb):
                hit = [
                    f
                    for f in _structures(dict(ctx.output_members(name)))
                    if f[1].name == shape.name
                ]
                if hit and name not in ctx.tag_operations and resource.read is None:
                    resource.set(
                        "read", _read_op(ctx, name, "read", hit[0][0], hit[0][2], rid), source(rid)
                    )
                    resource.set("shape", shape.name, source(rid))
        if resource.shape is None:
            resource.set("shape", shape.name, source(rid))


@rule("aws.read-through-parent")
def read_through_parent(ctx: AwsContext) -> None:
    """A sub-resource with no read of its own (a Route, a RouteTableAssociation, an
    InternetGatewayAttachment) is read through the parent whose shape lists it."""
    rid = "aws.read-through-parent"
    for resource in ctx.resources():
        if resource.read is not None or resource.name not in ctx.shape_names:
            continue
        # the parent whose name starts the sub-resource's (InternetGateway for
        # InternetGatewayAttachment) before any other shape that lists the same items
        parents = sorted(ctx.resources(), key=lambda p: not resource.name.startswith(p.name))
        for parent in parents:
            if parent is resource or parent.read is None or parent.shape is None:
                continue
            nested = [
                m
                for m, s in members(ctx.model.shape_for(parent.shape)).items()
                if is_list_of(s, resource.name)
            ]
            if nested:
                read = with_aws(
                    dataclasses.replace(parent.read, source=source(rid)), nested_member=nested[0]
                )
                resource.set("read", read, source(rid))
                resource.set("shape", resource.name, source(rid))
                break


@rule("aws.create-output-is-resource-shape")
def shape_from_create(ctx: AwsContext) -> None:
    """Where no read names the resource's shape, the create's output does; a create whose
    output is flat (AllocateAddress, CreateKeyPair) is described by its output shape itself."""
    rid = "aws.create-output-is-resource-shape"
    for resource in ctx.resources():
        if resource.shape is not None or resource.create is None:
            continue
        located = _resource_member(ctx, resource.create.name, resource)
        if located is not None:
            resource.set("shape", located[1].name, source(rid))


@rule("aws.read-answers-the-put-member")
def read_answers_put_member(ctx: AwsContext) -> None:
    """A configuration written whole by a Put call and read back by a Get that answers it under
    the same member, with the same shape (PutBucketAnalyticsConfiguration's
    ``AnalyticsConfiguration``, GetPublicAccessBlock's ``PublicAccessBlockConfiguration``), is
    read as the whole answer: the state then holds that member as the Put sends it (compared and
    changed whole), and the id the Get was asked by (Bucket, Id), which the inner structure does
    not repeat. Read from inside the member, the state held neither: the configuration always
    differed, and its Id was the one written inside it rather than the one that names it."""
    rid = "aws.read-answers-the-put-member"
    for resource in ctx.resources():
        read, create = resource.read, resource.create
        if read is None or create is None or not read.output_member or read.output_is_list:
            continue
        if aws(read).nested_member or not create.name.startswith("Put"):
            continue
        answered = ctx.output_members(read.name).get(read.output_member)
        sent = ctx.input_members(create.name).get(read.output_member)
        if (
            answered is None
            or sent is None
            or answered.type_name != "structure"
            or answered.name != sent.name
        ):
            continue
        resource.set(
            "read", dataclasses.replace(read, output_member=None, source=source(rid)), source(rid)
        )


@rule("aws.read-through-wrapper")
def read_through_wrapper(ctx: AwsContext) -> None:
    """A resource read and made inside a wrapper named otherwise (DescribeInstances lists
    ``Reservations``, RunInstances answers one ``Reservation``; each holds ``Instances``): the
    wrapper is no resource of its own, so the resource's shape is the wrapped one named after it
    (``Instance``) and each listed wrapper's list is read item by item."""
    rid = "aws.read-through-wrapper"
    for resource in ctx.resources():
        read = resource.read
        if (
            read is None
            or resource.shape is None
            or aws(read).nested_member
            or not read.output_member
        ):
            continue
        wanted = set(singular_candidates(resource.name)) | set(
            singular_candidates(resource.api_name)
        )
        if resource.shape in wanted:
            continue
        wrapper = ctx.model.shape_for(resource.shape)
        inner = [
            (name, item)
            for name, shape in members(wrapper).items()
            if (item := list_item(shape)) is not None
            and item.type_name == "structure"
            and item.name in wanted
        ]
        if len(inner) != 1:
            continue
        member, shape = inner[0]
        resource.set(
            "read",
            with_aws(dataclasses.replace(read, source=source(rid)), wrapped_member=member),
            source(rid),
        )
        if resource.list is not None and resource.list.output_member == read.output_member:
            resource.set("list", with_aws(resource.list, wrapped_member=member), source(rid))
        resource.set("shape", shape.name, source(rid))


@rule("aws.shared-read-selector")
def shared_read_selector(ctx: AwsContext) -> None:
    """Kinds one operation reads (SecurityGroupIngress and SecurityGroupEgress, both from
    DescribeSecurityGroupRules) are told apart in its items by a boolean member ``Is<Word>``
    of the shape they share, ``Word`` a word of exactly one of their names (``IsEgress``): that
    kind is the items where it is true, every other where it is false. Without it a listing of
    the read cannot say which kind an item is (nor which delete call applies)."""
    rid = "aws.shared-read-selector"
    by_read: dict[tuple[str, str | None], list[ResourceDraft]] = {}
    for resource in ctx.resources():
        read = resource.read
        if read is not None and resource.shape and not aws(read).nested_member:
            by_read.setdefault((read.name, resource.shape), []).append(resource)
    for (_, shape_name), sharing in sorted(by_read.items(), key=lambda kv: kv[0][0]):
        if len(sharing) < 2 or shape_name is None:
            continue
        words = {r.name: set(re.findall(r"[A-Z][a-z0-9]*", r.name)) for r in sharing}
        flags = [
            (name, having)
            for name, shape in members(ctx.model.shape_for(shape_name)).items()
            if name.startswith("Is") and shape.type_name == "boolean"
            and len(having := [r for r in sharing if name[2:] in words[r.name]]) == 1
        ]  # fmt: skip
        if len(flags) != 1:
            continue
        flag, having = flags[0]
        for resource in sharing:
            read = resource.read
            assert read is not None
            selected = ((flag, resource in having),)
            resource.set("read", with_aws(read, selected_by=selected), source(rid))
