"""Rules that find update operations and the fields each one carries.

An update is found by the resource's identity in its input, not only by its name, and it
updates only the fields it carries; members that merely select the resource (its name,
alternate ids) are not thereby mutable.
"""

from __future__ import annotations

from botocore.model import Shape

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability, Operation
from codegen.providers.aws.rules.context import (
    CONTROL_MEMBERS,
    AwsContext,
    documentation_text,
    split_operation,
)
from codegen.providers.aws.rules.fields import create_inputs
from codegen.providers.aws.rules.resources import versioned_nouns
from codegen.providers.aws.shapes import AwsCallShape, with_aws

UPDATE_VERBS = (
    "Modify",
    "Update",
    "Put",
    "Set",
    "Replace",
    "Attach",
    "Detach",
    "Assign",
    "Unassign",
    "Associate",
    "Disassociate",
    "Add",
    "Remove",
    "Authorize",
    "Revoke",
    "Enable",
    "Disable",
    "Change",
)
# Verbs whose operation owns the fields it names: Modify<R>Attribute may bring fields no read
# shape lists (EnableDnsHostnames); Add/Remove may name one item of a list field.
OWNING_VERBS = ("Modify", "Update", "Set", "Put")
LIST_VERBS = ("Add", "Remove", "Attach", "Detach", "Assign", "Unassign")


def _selector_names(ctx: AwsContext, resource: ResourceDraft) -> set[str]:
    names = set(resource.primary) | {n for n in resource.natural if not n.startswith("tag:")}
    if resource.delete is not None:
        # whatever the delete takes selects (a credential's UserName), it is not a new value
        names |= set(ctx.input_members(resource.delete.name))
    if resource.arn:
        names.add(resource.arn)
    for suffix in ("Id", "Name", "Arn", "Ids", "Names", "Arns"):
        names.add(resource.name + suffix)
    return names


def _selects(ctx: AwsContext, resource: ResourceDraft, op_name: str, noun: str) -> bool:
    """The operation's input selects the resource: the members its delete requires are required
    here too (an optional NatGatewayId in ReplaceRoute is a route target, not a selector), and
    for a resource selected by alternatives (a Route's destinations) one of them is named. A
    resource whose delete requires nothing is selected only by operations named after it."""
    if resource.delete is None or not resource.delete.identity_members:
        return False
    members = ctx.input_members(op_name)
    required_here = set(ctx.required_inputs(op_name))
    identity = resource.delete.identity_members
    required = [m for m in identity if m in ctx.required_inputs(resource.delete.name)]
    alternatives = [m for m in identity if m not in required]
    if not required:
        named = noun.startswith((resource.name, resource.api_name))
        return named and any(m in members for m in identity)
    if not all(m in required_here for m in required):
        return False
    return not alternatives or any(m in members for m in alternatives)


def _belongs_to_other(
    ctx: AwsContext, resource: ResourceDraft, noun: str, carried: dict[str, str]
) -> bool:
    """UpdateSecurityGroupRuleDescriptionsIngress names a SecurityGroup's id, but its noun names
    a longer thing (a security group rule): it is not the group's update. AssociateDhcpOptions
    names DhcpOptions, but what it sets on the Vpc is the reference to them: it is the Vpc's."""
    for other in ctx.resources():
        if other is resource:
            continue
        for name in (other.name, other.shape or ""):
            if name and len(name) > len(resource.name) and noun.startswith(name):
                sets_link = bool(carried) and all(
                    resource.fields[f].get("references") == other.name or f == other.name + "Id"
                    for f in carried
                )
                return not sets_link
    return False


def _field_for(resource: ResourceDraft, member: str, verb: str, noun: str) -> str | None:
    fields = resource.fields
    if member in fields:
        return member
    by_read = [n for n, f in fields.items() if f.get("read_name") == member]
    if by_read:
        return by_read[0]
    if member.startswith("New") and member[3:] in fields:  # NewPath -> Path
        return member[3:]
    if verb in LIST_VERBS:  # AddRoleToInstanceProfile(RoleName) -> Roles
        for suffix in ("Name", "Id", "Arn"):
            if member.endswith(suffix) and member[: -len(suffix)] + "s" in fields:
                return member[: -len(suffix)] + "s"
    return None


def _carried(
    ctx: AwsContext, resource: ResourceDraft, op_name: str, verb: str, noun: str
) -> tuple[dict[str, str], dict[str, Shape]]:
    """(field -> input member) this operation carries, and members it brings as new fields."""
    members = dict(ctx.input_members(op_name))
    skip = (
        _selector_names(ctx, resource) | CONTROL_MEMBERS | set(ctx.op(op_name).idempotent_members)
    )
    carried: dict[str, str] = {}
    new: dict[str, Shape] = {}
    payload = [m for m in members if m not in skip]
    for member in payload:
        target = _field_for(resource, member, verb, noun)
        if target is None and len(payload) == 1:
            rest = noun[len(resource.name) :] if noun.startswith(resource.name) else noun
            named = [n for n in resource.fields if rest and n.startswith(rest)]
            target = named[0] if len(named) == 1 else None
        if target is not None:
            carried[target] = member
        elif (
            verb in OWNING_VERBS
            and noun.startswith(resource.name)
            and (noun == resource.name or noun.endswith(("Attribute", "Attributes")))
        ):
            new[member] = members[member]
    return carried, new


@rule("aws.update-by-identity-in-input")
def update_operations(ctx: AwsContext) -> None:
    """An operation with an update-like verb (Modify, Update, Put, Set, Replace, Attach/Detach,
    Assign/Unassign, Associate/Disassociate, Add/Remove, Authorize/Revoke, Enable/Disable,
    Change) whose input selects the resource and carries at least one of its fields updates those
    fields. Modify<R>Attribute brings the attributes it sets as fields of their own."""
    rid = source("aws.update-by-identity-in-input")
    claimed = ctx.draft.claimed_operations() | set(ctx.tag_operations)
    for op_name in ctx.operation_names:
        verb, noun = split_operation(op_name)
        if verb not in UPDATE_VERBS or op_name in claimed:
            continue
        for resource in ctx.resources():
            if not _selects(ctx, resource, op_name, noun):
                continue
            carried, new = _carried(ctx, resource, op_name, verb, noun)
            if _belongs_to_other(ctx, resource, noun, carried):
                continue
            for member, shape in new.items():
                resource.fields[member] = FieldDraft(
                    member, ctx.field_type(shape), documentation_text(shape)
                )
                resource.fields[member].provenance["name"] = rid
                carried[member] = member
            if carried:
                _add_update(resource, op_name, carried, rid)
            else:
                ctx.selecting_operations.setdefault(resource.name, []).append(op_name)


def _add_update(resource: ResourceDraft, op_name: str, carried: dict[str, str], rid: str) -> None:
    delete = resource.delete  # an update selects the resource as its delete does
    members = delete.identity_members if delete else tuple(resource.primary)
    op = Operation(
        op_name,
        "update",
        identity_members=members,
        fields=tuple(carried),
        source=rid,
        call=AwsCallShape.selecting_like(delete, members),
    )
    resource.update.append(op)
    resource.provenance["update"] = rid
    for name, member in carried.items():
        f = resource.fields[name]
        f.set("mutability", Mutability.MUTABLE, rid)
        if member != name and member != f.get("read_name"):
            f.set("update_name", member, rid)


def _preference(
    resource: ResourceDraft, field: str, op: Operation
) -> tuple[bool, bool, bool, int, str]:
    """The resource's own update first (UpdateAutoScalingGroup), then the call named after the
    field (SetIpAddressType), then the narrowest call."""
    noun = split_operation(op.name)[1]
    return (
        noun != resource.name,
        noun != field,
        not noun.startswith(resource.name),
        len(op.fields),
        op.name,
    )


@rule("aws.one-update-operation-per-field")
def route_updates(ctx: AwsContext) -> None:
    """When several operations carry a field, it is routed to the resource's own update
    (UpdateAutoScalingGroup, ModifyListener) before narrower ones (SetDesiredCapacity,
    AddListenerCertificates); an operation left carrying no field is not an update of it."""
    rid = source("aws.one-update-operation-per-field")
    for resource in ctx.resources():
        used: set[str] = set()
        for name, f in resource.fields.items():
            carriers = [op for op in resource.update if name in op.fields]
            if carriers and f.get("update_operation") is None:
                best = min(carriers, key=lambda op: _preference(resource, name, op))
                f.set("update_operation", best.name, f.provenance["mutability"])
                used.add(best.name)
        kept = [op for op in resource.update if op.name in used]
        if kept != resource.update:
            resource.set("update", kept, rid)


@rule("aws.versioned-create-is-update")
def versioned_updates(ctx: AwsContext) -> None:
    """Create<R>Version (CreateLaunchTemplateVersion, CreatePolicyVersion) updates R: the
    fields it takes become mutable through a new version."""
    rid = source("aws.versioned-create-is-update")
    versioned = versioned_nouns(ctx)
    for op_name, _, noun in ctx.ops_with_verb("Create"):
        if noun not in versioned:
            continue
        resource = ctx.draft.resources.get(noun[: -len("Version")])
        if resource is None:
            continue
        members = ctx.input_members(op_name)
        carried = {
            m: m
            for m in members
            if m in resource.fields and m not in _selector_names(ctx, resource)
        }
        if carried:
            _add_update(resource, op_name, carried, rid)


@rule("aws.put-is-upsert")
def put_upsert(ctx: AwsContext) -> None:
    """A resource made by Put… (PutRolePolicy) is replaced by the same call: every field it
    takes, except those that select it, is mutable through the Put."""
    rid = source("aws.put-is-upsert")
    for resource in ctx.resources():
        if resource.create is None or split_operation(resource.create.name)[0] != "Put":
            continue
        selectors = _selector_names(ctx, resource) | set(resource.parent)
        carried = {
            m: m
            for m in create_inputs(ctx, resource)
            if m not in selectors and m in resource.fields
        }
        carried.pop(_overwrite_flag(ctx, resource.create.name) or "", None)  # see put_overwrite
        if carried:
            _add_update(resource, resource.create.name, carried, rid)


def _overwrite_flag(ctx: AwsContext, op_name: str) -> str | None:
    """The boolean a Put takes to replace what exists (PutParameter's ``Overwrite``)."""
    member = ctx.input_members(op_name).get("Overwrite")
    return "Overwrite" if member is not None and member.type_name == "boolean" else None


@rule("aws.put-overwrite-flag")
def put_overwrite(ctx: AwsContext) -> None:
    """A Put that refuses to replace unless told (PutParameter answers ParameterAlreadyExists
    without ``Overwrite``) sends the flag true when it changes what the find proved ours, and
    never in the create: there it would replace a same-named parameter of another owner that
    appeared since the find. The flag steers the call; it is no field of the resource."""
    rid = source("aws.put-overwrite-flag")
    for resource in ctx.resources():
        create = resource.create
        flag = _overwrite_flag(ctx, create.name) if create is not None else None
        if create is None or flag is None or split_operation(create.name)[0] != "Put":
            continue
        resource.fields.pop(flag, None)
        updates = [
            with_aws(op, fixed_members=((flag, True),)) if op.name == create.name else op
            for op in resource.update
        ]
        resource.set("update", updates, rid)


@rule("aws.tags-through-tag-operations")
def tags_mutable(ctx: AwsContext) -> None:
    """Tags are mutable through the service's tag operation (CreateTags, AddTags, TagResource,
    Tag<Resource>, ChangeTagsForResource, …), whatever the create took them as."""
    rid = source("aws.tags-through-tag-operations")
    for resource in ctx.resources():
        if resource.tags is None or resource.tags.tag_operation is None:
            continue
        f = resource.fields.get(resource.tags.field)
        if f is not None:
            f.set("mutability", Mutability.MUTABLE, rid)
            f.set("update_operation", resource.tags.tag_operation, rid)
            f.set("unordered", True, rid)
