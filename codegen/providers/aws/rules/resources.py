"""Rules that find resources: operation families, and sub-resources made by pair operations."""

from __future__ import annotations

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Operation
from codegen.providers.aws.rules.context import (
    AwsContext,
    documentation_text,
    members,
    same_noun,
    split_operation,
)

# Verbs that bring a resource into being, and the verbs that end it.
LIFECYCLE_FAMILIES: tuple[tuple[str, str], ...] = (
    ("Create", "Delete"),
    ("Allocate", "Release"),
    ("Run", "Terminate"),
    ("Put", "Delete"),
    ("Register", "Deregister"),
)

# Pair operations that make a link between two things; the suffix names the link.
PAIR_FAMILIES: tuple[tuple[str, str, str], ...] = (
    ("Associate", "Disassociate", "Association"),
    ("Attach", "Detach", "Attachment"),
    ("Authorize", "Revoke", ""),
)


def versioned_nouns(ctx: AwsContext) -> set[str]:
    """Nouns like ``LaunchTemplateVersion``: Create<R>Version updates R, it is no resource."""
    nouns = {noun for _, _, noun in ctx.ops_with_verb("Create")}
    return {n for n in nouns if n.endswith("Version") and n[: -len("Version")] in nouns}


def _find_partner(ctx: AwsContext, verb: str, noun: str) -> str | None:
    for name, _, other in ctx.ops_with_verb(verb):
        if same_noun(noun, other) and name not in ctx.tag_operations:
            return name
    return None


@rule("aws.lifecycle-operation-families")
def lifecycle_families(ctx: AwsContext) -> None:
    """A resource is a noun with a create-like and a matching delete-like operation
    (Create/Delete, Allocate/Release, Run/Terminate, Put/Delete, Register/Deregister); plural and
    singular spellings of the noun are one resource (DescribeAddresses, AllocateAddress)."""
    skip = versioned_nouns(ctx)
    rid = "aws.lifecycle-operation-families"
    for create_verb, delete_verb in LIFECYCLE_FAMILIES:
        for create_name, _, noun in ctx.ops_with_verb(create_verb):
            if create_name in ctx.tag_operations or noun in skip or not noun:
                continue
            delete_name = _find_partner(ctx, delete_verb, noun)
            if delete_name is None or _sets_a_field(ctx, create_verb, noun):
                continue
            name = ctx.canonical_noun([noun, split_operation(delete_name)[1]])
            if name in ctx.draft.resources or name in ctx.draft.claimed_operations():
                continue
            _add(ctx, name, noun, create_name, delete_name, rid, kind="resource")


def _sets_a_field(ctx: AwsContext, verb: str, noun: str) -> bool:
    """Put<R><Field> (PutRolePermissionsBoundary) sets a field of R that R's create takes:
    an update of R, not a resource of its own."""
    if verb != "Put":
        return False
    for resource in ctx.resources():
        rest = noun[len(resource.name) :]
        if noun.startswith(resource.name) and rest and resource.create is not None:
            if rest in ctx.input_members(resource.create.name):
                return True
    return False


def _add(
    ctx: AwsContext, name: str, noun: str, create: str, delete: str, rid: str, kind: str
) -> None:
    draft = ResourceDraft(name=name, api_name=noun, kind=kind)
    draft.set("create", Operation(create, "create", source=source(rid)), source(rid))
    draft.set("delete", Operation(delete, "delete", source=source(rid)), source(rid))
    draft.documentation = documentation_text(ctx.op(create)).split("\n\n")[0]
    ctx.draft.resources[name] = draft


def references_known_resource(ctx: AwsContext, member: str, shape_name: str) -> str | None:
    """The resource a member points at by its name or its shape's name (``VpcId``, ``RoleName``,
    ``GroupId`` typed ``SecurityGroupId``), or None."""
    for candidate in (member, shape_name):
        for suffix in ("Id", "Name", "Arn"):
            if candidate.endswith(suffix) and candidate[: -len(suffix)] in ctx.draft.resources:
                return candidate[: -len(suffix)]
    return None


def _links_two_resources(ctx: AwsContext, op_name: str) -> bool:
    members = ctx.input_members(op_name)
    linked = {
        references_known_resource(ctx, m, members[m].name)
        for m in ctx.required_inputs(op_name)
        if members[m].type_name == "string"
    }
    linked.discard(None)
    return len(linked) >= 2


def _returns_new_id(ctx: AwsContext, op_name: str) -> bool:
    """The call's output carries a new association/attachment id, at its top or one level down
    (AssociateVpcCidrBlock returns CidrBlockAssociation.AssociationId)."""
    outputs = ctx.output_members(op_name)
    names = list(outputs)
    for shape in outputs.values():
        if shape.type_name == "structure":
            names += list(members(shape))
    return any(m.endswith(("AssociationId", "AttachmentId")) for m in names)


@rule("aws.pair-operations-make-sub-resources")
def pair_families(ctx: AwsContext) -> None:
    """Associate/Disassociate, Attach/Detach and Authorize/Revoke pairs make a sub-resource (a
    RouteTableAssociation, an InternetGatewayAttachment, a SecurityGroupIngress rule) when the
    first call returns a new association/attachment id or links two existing resources; otherwise
    they are updates of the one resource they name (found later by its identity)."""
    rid = "aws.pair-operations-make-sub-resources"
    claimed = ctx.draft.claimed_operations()
    for make_verb, break_verb, suffix in PAIR_FAMILIES:
        for make_name, _, noun in ctx.ops_with_verb(make_verb):
            if make_name in claimed or make_name in ctx.tag_operations:
                continue
            break_name = _find_partner(ctx, break_verb, noun)
            if break_name is None:
                continue
            if suffix and not (
                _returns_new_id(ctx, make_name) or _links_two_resources(ctx, make_name)
            ):
                continue
            name = noun + suffix if not noun.endswith(suffix) else noun
            if name not in ctx.draft.resources:
                _add(ctx, name, noun, make_name, break_name, rid, kind="sub-resource")
