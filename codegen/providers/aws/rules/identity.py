"""Rules for identity: primary id, ARN, natural key and parent scope."""

from __future__ import annotations

import dataclasses

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.providers.aws.rules.context import (
    CONTROL_MEMBERS,
    AwsContext,
    members,
    singular_candidates,
)
from codegen.providers.aws.rules.resources import references_known_resource
from codegen.providers.aws.shapes import aws, with_aws


def read_members(ctx: AwsContext, resource: ResourceDraft) -> list[str]:
    if resource.shape is None:
        return []
    return list(members(ctx.model.shape_for(resource.shape)))


def state_name(ctx: AwsContext, resource: ResourceDraft, member: str) -> str:
    """The name a delete/update input member has in the resource's state: itself, or the read
    member that ends with it (AssociationId -> RouteTableAssociationId)."""
    members = read_members(ctx, resource)
    if member in members or not members:
        return member
    longer = [m for m in members if m.endswith(member)]
    return longer[0] if len(longer) == 1 else member


def _delete_selectors(ctx: AwsContext, resource: ResourceDraft) -> list[str]:
    """The delete input members that select the resource."""
    assert resource.delete is not None
    op = ctx.op(resource.delete.name)
    members = ctx.input_members(resource.delete.name)
    tokens = set(op.idempotent_members)
    required = [m for m in ctx.required_inputs(resource.delete.name) if m not in tokens]
    # Expected… members (S3's ExpectedBucketOwner) are preconditions on the caller, not selectors
    optional = [
        m
        for m in members
        if m not in required and m not in CONTROL_MEMBERS | tokens and not m.startswith("Expected")
    ]
    readable = set(read_members(ctx, resource))
    # an id of its own that reads return: AllocationId, or SecurityGroupRuleIds for one rule
    stems = tuple(n for n in (resource.name, resource.shape) if n)
    own = [
        m
        for m in optional
        if any(
            s in readable and any(s in (f"{n}Id", f"{n}Arn") for n in stems)
            for s in singular_candidates(m)
        )
        and not _refers_elsewhere(ctx, resource, m)
    ]
    if required and not all(
        references_known_resource(ctx, m, members[m].name) not in (None, resource.name)
        for m in required
    ):
        # a required member that names no other resource (DeleteDocument's Name, typed
        # DocumentName: the document's own name) selects it whole
        return required
    if own:
        return required + own[:1] + _scope(ctx, resource, optional, readable)[:1]
    if required:
        # A sub-resource without an id of its own (a Route) is also selected by the optional
        # members its create took: RouteTableId plus one of its destinations.
        creates = ctx.input_members(resource.create.name) if resource.create else {}
        return required + [
            m for m in optional if m in creates and not _refers_elsewhere(ctx, resource, m)
        ]
    names = [
        m
        for m in optional
        if m.endswith(("Id", "Arn", "Name")) and not _refers_elsewhere(ctx, resource, m)
    ]
    return names[:1]


def _scope(
    ctx: AwsContext, resource: ResourceDraft, optional: list[str], readable: set[str]
) -> list[str]:
    """Optional delete members naming the resource's parent: the create takes them, the state
    reads them under the same name, and they name another known resource (a security group
    rule's GroupId). A delete by the own id alone may be refused or ignored without them
    (RevokeSecurityGroupIngress with SecurityGroupRuleIds but no GroupId revokes nothing)."""
    creates = ctx.input_members(resource.create.name) if resource.create else {}
    return [
        m
        for m in optional
        if m in creates
        and m in readable
        and m.endswith(("Id", "Arn"))
        and _refers_elsewhere(ctx, resource, m)
    ]


def _refers_elsewhere(ctx: AwsContext, resource: ResourceDraft, member: str) -> bool:
    members = ctx.input_members(resource.delete.name) if resource.delete else {}
    shape = members[member].name if member in members else member
    target = references_known_resource(ctx, member, shape)
    return target is not None and target != resource.name


@rule("aws.delete-input-is-identity")
def primary_identity(ctx: AwsContext) -> None:
    """The primary identity is what the delete operation needs to select the resource: its
    required members, else its own id member, named as the resource's state names it."""
    rid = "aws.delete-input-is-identity"
    for resource in ctx.resources():
        if resource.delete is None:
            continue
        selectors = _delete_selectors(ctx, resource)
        stems = tuple(n for n in (resource.name, resource.shape) if n)
        own_ids = [
            m for m in selectors if any(m in (f"{n}Id", f"{n}Ids", f"{n}Arn") for n in stems)
        ]
        # scope members (a rule's GroupId) select too, but the rule's own id is its identity
        chosen = own_ids if own_ids and len(own_ids) < len(selectors) else selectors
        pairs = {m: _state_field(ctx, resource, m) for m in selectors}
        # a list member (SecurityGroupRuleIds) filled from one value in the state is sent as a list
        shapes = ctx.input_members(resource.delete.name)
        lists = tuple(m for m in selectors if shapes[m].type_name == "list" and pairs[m] != m)
        delete = with_aws(
            dataclasses.replace(resource.delete, identity_members=tuple(selectors)),
            identity_pairs=tuple(pairs.items()),
            list_members=lists,
        )
        resource.set("delete", delete, source(rid))
        resource.set("primary", tuple(pairs[m] for m in chosen), source(rid))


def _state_field(ctx: AwsContext, resource: ResourceDraft, member: str) -> str:
    """The state field an identity member is filled from: itself, the read member ending with
    it (AssociationId -> RouteTableAssociationId), or its singular (SecurityGroupRuleIds)."""
    name = state_name(ctx, resource, member)
    singles = [s for s in singular_candidates(name) if s in read_members(ctx, resource)]
    return singles[0] if name not in read_members(ctx, resource) and singles else name


@rule("aws.arn-member")
def arn_member(ctx: AwsContext) -> None:
    """The ARN is the read member named ``Arn`` or ``<Resource>Arn``, in whichever case the
    service spells its members (CloudWatch Logs' ``arn``, ``destinationArn``)."""
    rid = "aws.arn-member"
    for resource in ctx.resources():
        members = {m.lower(): m for m in read_members(ctx, resource)}
        names = (resource.name, resource.api_name)
        candidates = [f"{n}{suffix}" for suffix in ("Arn", "ARN") for n in names] + ["Arn", "ARN"]
        for candidate in candidates:
            if candidate.lower() in members:
                resource.set("arn", members[candidate.lower()], source(rid))
                break


@rule("aws.natural-key")
def natural_key(ctx: AwsContext) -> None:
    """A resource is found without its id by a name the create requires (``GroupName``,
    ``RoleName``, ``Name``); failing that, by the ``Name`` tag when it is tagged on create."""
    rid = "aws.natural-key"
    for resource in ctx.resources():
        if resource.create is None:
            continue
        members = ctx.input_members(resource.create.name)
        names = [
            m
            for m in ctx.required_inputs(resource.create.name)
            if m.endswith("Name")
            and members[m].type_name == "string"
            and not _refers_elsewhere_create(ctx, resource, m)
        ]
        if names:
            resource.set("natural", tuple(names), source(rid))
        elif resource.tags is not None and resource.tags.create_member is not None:
            resource.set("natural", ("tag:Name",), source(rid))


@rule("aws.name-member")
def name_member(ctx: AwsContext) -> None:
    """The one name member of a natural key that names the kind itself (a LaunchTemplate's
    ``LaunchTemplateName``) or its head noun (a SecurityGroup's ``GroupName``) is the resource's
    own name, so a task's name can fill it. A name of something else the create requires (a
    service-linked role's ``AWSServiceName``, a data export's ``S3BucketName``) is not; a bare
    ``Name`` is the task's ``name`` attribute already."""
    rid = "aws.name-member"
    for resource in ctx.resources():
        if len(resource.natural) != 1 or resource.natural[0].startswith("tag:"):
            continue
        member = resource.natural[0]
        stem = member.removesuffix("Name")
        if stem and stem != member and resource.name.lower().endswith(stem.lower()):
            resource.set("named_by", member, source(rid))


def _refers_elsewhere_create(ctx: AwsContext, resource: ResourceDraft, member: str) -> bool:
    assert resource.create is not None
    shape = ctx.input_members(resource.create.name)[member].name
    target = references_known_resource(ctx, member, shape)
    return target is not None and target != resource.name


@rule("aws.parent-scope")
def parent_scope(ctx: AwsContext) -> None:
    """The parent scope is what the create requires that names another resource (a Subnet's
    VpcId, a Route's RouteTableId, a Listener's LoadBalancerArn, a RolePolicy's RoleName)."""
    rid = "aws.parent-scope"
    for resource in ctx.resources():
        if resource.create is None:
            continue
        parents = tuple(
            m
            for m in ctx.required_inputs(resource.create.name)
            if _refers_elsewhere_create(ctx, resource, m)
        )
        # read inside a parent's item (a VolumeAttachment in its Volume's Attachments), the
        # parent whose read that is comes first: the runtime reads it by that id
        holders = _nested_read_holders(ctx, resource)
        parents = tuple(sorted(parents, key=lambda m: m not in holders))
        if parents:
            resource.set("parent", parents, source(rid))


def _nested_read_holders(ctx: AwsContext, resource: ResourceDraft) -> set[str]:
    """The primary members of the kinds whose own read lists ``resource`` inside their items."""
    read = resource.read
    if read is None or not aws(read).nested_member:
        return set()
    return {
        m
        for other in ctx.resources()
        if other is not resource
        and other.read is not None
        and other.read.name == read.name
        and not aws(other.read).nested_member
        for m in other.primary
    }
