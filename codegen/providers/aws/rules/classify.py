"""Rules that classify each field once operations and updates are known."""

from __future__ import annotations

import re

from botocore.model import ListShape, Shape, StructureShape

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.aws.rules.context import AwsContext, is_sensitive, members, split_operation
from codegen.providers.aws.rules.resources import references_known_resource
from codegen.providers.aws.shapes import aws


def _unset(f: FieldDraft) -> bool:
    return f.get("mutability") is Mutability.UNKNOWN and "mutability" not in f.provenance


def _nested_names(shape: Shape, depth: int = 3) -> set[str]:
    """Member names inside an input's structures and lists, a few levels down."""
    if depth == 0:
        return set()
    if isinstance(shape, ListShape):
        return _nested_names(shape.member, depth)
    if not isinstance(shape, StructureShape):
        return set()
    names: set[str] = set()
    for name, member in shape.members.items():
        names.add(name)
        names |= _nested_names(member, depth - 1)
    return names


@rule("aws.nested-in-selecting-operation")
def nested_unknown(ctx: AwsContext) -> None:
    """A create member that an operation selecting the resource carries only inside a nested
    structure (ModifyInstanceMaintenanceOptions-style requests, rule-request lists) may or may
    not be changed by it: the rules cannot tell, so it stays ``unknown`` for an overlay."""
    rid = source("aws.nested-in-selecting-operation")
    for resource in ctx.resources():
        nested: set[str] = set()
        for op_name in ctx.selecting_operations.get(resource.name, []):
            for member in ctx.input_members(op_name).values():
                nested |= _nested_names(member)
        for f in resource.fields.values():
            if f.in_create and _unset(f) and f.name in nested:
                f.set("mutability", Mutability.UNKNOWN, rid)


@rule("aws.create-input-without-update")
def create_only(ctx: AwsContext) -> None:
    """A create input member that no update operation carries can only be set at creation."""
    rid = source("aws.create-input-without-update")
    for resource in ctx.resources():
        for f in resource.fields.values():
            if f.in_create and _unset(f):
                f.set("mutability", Mutability.CREATE_ONLY, rid)


@rule("aws.read-shape-only")
def read_only(ctx: AwsContext) -> None:
    """A member only reads (or the create's output) return (ids, state, owner, a KeyPair's
    KeyMaterial) is read-only."""
    rid = source("aws.read-shape-only")
    for resource in ctx.resources():
        for f in resource.fields.values():
            if not f.in_create and _unset(f):
                f.set("mutability", Mutability.READ_ONLY, rid)


def _attribute_reader(ctx: AwsContext, resource: ResourceDraft, field: str) -> str | None:
    """Describe<R>Attribute(s) / Get<R>Attributes operations that return the field."""
    for name, _verb, noun in ctx.ops_with_verb("Describe", "Get", "List"):
        if noun.startswith(resource.name) and noun.endswith(("Attribute", "Attributes")):
            if field in ctx.output_members(name):
                return name
    return None


def _tag_reader(ctx: AwsContext, resource: ResourceDraft) -> str | None:
    readers = sorted(n for n, r in ctx.tag_operations.items() if r == "tag-read")
    specific = [n for n in readers if split_operation(n)[1].startswith(resource.name)]
    chosen = specific or readers
    return chosen[0] if chosen else None


@rule("aws.separate-read-operation")
def separate_reads(ctx: AwsContext) -> None:
    """A field the main read does not return may have a read of its own: an attribute read
    (DescribeVpcAttribute returns EnableDnsHostnames) or the service's tag read (DescribeTags)."""
    rid = source("aws.separate-read-operation")
    for resource in ctx.resources():
        for f in resource.fields.values():
            if f.in_read:
                continue
            is_tags = resource.tags is not None and f.name == resource.tags.field
            reader = (
                _tag_reader(ctx, resource) if is_tags else _attribute_reader(ctx, resource, f.name)
            )
            if reader is not None:
                f.set("read_operation", reader, rid)


@rule("aws.create-input-not-in-read")
def write_only(ctx: AwsContext) -> None:
    """A value the create or an update takes but no read returns is write-only: it cannot be
    compared with what the cloud has."""
    rid = source("aws.create-input-not-in-read")
    for resource in ctx.resources():
        if resource.read is None:
            continue
        nested = aws(resource.read).nested_member is not None
        for f in resource.fields.values():
            # a sub-resource read through its parent knows the parent's id it was found under
            through_parent = nested and f.name in resource.parent
            readable = f.in_read or through_parent or f.get("read_operation") is not None
            f.set(
                "write_only", not readable and f.get("mutability") is not Mutability.READ_ONLY, rid
            )


@rule("aws.sensitive-trait")
def sensitive(ctx: AwsContext) -> None:
    """botocore marks secret shapes ``sensitive``; so are the fields typed with them."""
    rid = source("aws.sensitive-trait")
    for resource in ctx.resources():
        read_shape = ctx.model.shape_for(resource.shape) if resource.shape else None
        creates = ctx.input_members(resource.create.name) if resource.create else {}
        outputs = ctx.output_members(resource.create.name) if resource.create else {}
        for f in resource.fields.values():
            shapes = [creates.get(f.name), outputs.get(f.name)]
            if read_shape is not None:
                shapes.append(members(read_shape).get(f.get("read_name") or f.name))
            f.set("sensitive", any(s is not None and is_sensitive(s) for s in shapes), rid)


_DEFAULT_TEXT = re.compile(
    r"\b(default|defaults|if you (do not|don't) specify|we (choose|select)|selects? one)\b", re.I
)


@rule("aws.documented-default")
def server_default(ctx: AwsContext) -> None:
    """An optional create member that reads return and whose documentation speaks of a default
    ("Default: Amazon Web Services selects one for you") is filled in by the server when left
    unset (a Subnet's AvailabilityZone, a Vpc's InstanceTenancy): not diffed while unset."""
    rid = source("aws.documented-default")
    for resource in ctx.resources():
        for f in resource.fields.values():
            is_tags = resource.tags is not None and f.name == resource.tags.field
            optional_and_read = f.in_create and f.in_read and not f.get("required") and not is_tags
            f.set(
                "server_default",
                optional_and_read and bool(_DEFAULT_TEXT.search(f.documentation)),
                rid,
            )


@rule("aws.id-member-references-resource")
def references(ctx: AwsContext) -> None:
    """A member named or typed ``<Resource>Id`` / ``Name`` / ``Arn`` (``VpcId``, ``GroupId``
    typed ``SecurityGroupId``), or named like another resource's primary id (``AllocationId``),
    refers to that resource."""
    rid = source("aws.id-member-references-resource")
    owners: dict[str, list[str]] = {}
    for r in ctx.resources():
        if len(r.primary) == 1 and r.primary[0].endswith("Id") and r.primary[0] != "Id":
            owners.setdefault(r.primary[0], []).append(r.name)
    # only ids that name one resource (AllocationId); AssociationId names several
    primaries = {member: names[0] for member, names in owners.items() if len(names) == 1}
    for resource in ctx.resources():
        for f in resource.fields.values():
            item = f.type.item if f.type.kind == "list" and f.type.item else f.type
            if item.kind != "string":
                continue
            names = [f.name, f.create_shape, item.name]
            target = next(
                (t for n in names if n for t in [references_known_resource(ctx, n, n)] if t), None
            )
            singulars = [f.name[:-1]] if f.name.endswith("s") else []
            target = target or next(
                (primaries[n] for n in [f.name, *singulars] if n in primaries), None
            )
            if (
                target is not None
                and target != resource.name
                and not _names_itself(resource, f.name, target)
            ):
                f.set("references", target, rid)


def _names_itself(resource: ResourceDraft, member: str, target: str) -> bool:
    """``GroupPolicy.PolicyName`` is the inline policy's own name, part of its identity beside
    its group's: a member of a kind's identity that matches the last word of the kind's name
    names the kind itself, not the resource of that name (a managed Policy)."""
    return (
        resource.name.endswith(target) and member in resource.primary and member.startswith(target)
    )


@rule("aws.lists-of-references-are-unordered")
def unordered(ctx: AwsContext) -> None:
    """A list of ids or names (SecurityGroupIds, Subnets, TargetGroupARNs) is a set: its order
    means nothing to the API, so it is compared as a multiset."""
    rid = source("aws.lists-of-references-are-unordered")
    for resource in ctx.resources():
        for f in resource.fields.values():
            if f.type.kind == "list" and (
                f.get("references") or f.name.endswith(("Ids", "Names", "Arns", "ARNs"))
            ):
                f.set("unordered", True, rid)
