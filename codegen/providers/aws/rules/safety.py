"""Rules for what the runtime needs to be safe against a real account: which parent owns a kind
that carries no tags, where secrets sit inside a field, what a create hands out only once, and
which states are not resources any more."""

from __future__ import annotations

import dataclasses

from botocore.model import ListShape, MapShape, Shape

from codegen.annotate.rules import rule, source
from codegen.model import Readiness
from codegen.providers.aws.rules.context import AwsContext, enum_of, is_sensitive, members
from codegen.providers.aws.shapes import aws

MAX_DEPTH = 8  # nested structures deeper than this are not searched for secrets


@rule("aws.owner-through-tagged-parent")
def owner_parent(ctx: AwsContext) -> None:
    """A kind that carries no tags (a Route, an attachment, an association) is owned through
    the first parent scope member that refers to a kind that does: the RouteTable a Route
    lives in, the InternetGateway an attachment joins."""
    rid = source("aws.owner-through-tagged-parent")
    tagged = {r.name for r in ctx.resources() if r.tags is not None}
    for resource in ctx.resources():
        if resource.tags is not None:
            continue
        for member in resource.parent:
            f = resource.fields.get(member)
            target = f.get("references") if f is not None else None
            if target in tagged:
                resource.set("owner_parent", member, rid)
                break


def _secret_paths(shape: Shape, prefix: str, depth: int) -> list[str]:
    if depth > MAX_DEPTH:
        return []
    if is_sensitive(shape):
        return [prefix]
    if shape.type_name == "structure":
        return [
            p
            for name, member in members(shape).items()
            for p in _secret_paths(member, f"{prefix}.{name}" if prefix else name, depth + 1)
        ]
    if isinstance(shape, ListShape):
        return _secret_paths(shape.member, f"{prefix}[]", depth + 1)
    if isinstance(shape, MapShape):
        return [f"{prefix}{{}}"] if is_sensitive(shape.value) else []
    return []


@rule("aws.nested-sensitive-trait")
def sensitive_paths(ctx: AwsContext) -> None:
    """A field whose type holds a shape botocore marks ``sensitive`` somewhere inside (a launch
    template's ``LaunchTemplateData.UserData``) has that part redacted wherever it is printed,
    not only when the whole field is secret."""
    rid = source("aws.nested-sensitive-trait")
    for resource in ctx.resources():
        creates = ctx.input_members(resource.create.name) if resource.create else {}
        read_shape = ctx.model.shape_for(resource.shape) if resource.shape else None
        for f in resource.fields.values():
            if f.get("sensitive"):
                continue
            shapes = [creates.get(f.name)]
            if read_shape is not None:
                shapes.append(members(read_shape).get(f.get("read_name") or f.name))
            paths = sorted(
                {p for s in shapes if s is not None for p in _secret_paths(s, "", 0) if p}
            )
            if paths:
                f.set("sensitive_paths", tuple(paths), rid)


@rule("aws.create-returns-secret-once")
def returned_once(ctx: AwsContext) -> None:
    """Members of a create's answer that botocore marks ``sensitive`` and no read returns (a key
    pair's ``KeyMaterial``, an access key's ``SecretAccessKey``) exist only in that answer: the
    runtime hands them to the caller's callback instead of dropping them."""
    rid = source("aws.create-returns-secret-once")
    for resource in ctx.resources():
        create = resource.create
        if create is None:
            continue
        output = ctx.op(create.name).output_shape
        if output is None:
            continue
        item = output.members.get(create.output_member) if create.output_member else output
        if isinstance(item, ListShape):
            item = item.member
        if item is None or item.type_name != "structure":
            continue
        readable = set(members(ctx.model.shape_for(resource.shape))) if resource.shape else set()
        once = tuple(
            name
            for name, member in members(item).items()
            if is_sensitive(member) and name not in readable
        )
        if once:
            resource.set("create", dataclasses.replace(create, returned_once=once), rid)


@rule("aws.terminal-states-from-waiters")
def terminal_states(ctx: AwsContext) -> None:
    """The states a resource never leaves: its Available waiter's failure states (already on
    the readiness) and its ``<R>Deleted`` waiter's success states on the same member. find and
    delete skip what is in one of them (a NAT gateway AWS keeps listing as ``deleted``)."""
    rid = source("aws.terminal-states-from-waiters")
    if ctx.waiters is None:
        return
    for resource in ctx.resources():
        readiness = resource.readiness
        name = f"{resource.name}Deleted"
        if readiness is None or name not in resource.waiters:
            continue
        gone = [
            str(a.expected)
            for a in ctx.waiters.get_waiter(name).acceptors
            if a.state == "success"
            and isinstance(a.expected, str)
            and str(a.argument).endswith(f".{readiness.field}")
        ]
        extra = tuple(s for s in gone if s not in readiness.failed)
        if extra:
            resource.set(
                "readiness", dataclasses.replace(readiness, failed=readiness.failed + extra), rid
            )


GONE_STATES = ("deleting", "deleted")  # on the way out or out: never a live resource


@rule("aws.terminal-states-from-state-enum")
def terminal_states_from_enum(ctx: AwsContext) -> None:
    """A kind with no waiter to say when it is ready still says when it is gone: its read item's
    ``State`` enum holds ``deleting`` / ``deleted`` (a VPN gateway, a transit gateway route
    table, which AWS keeps listing for a while after their delete). find and delete skip those;
    nothing is waited for (``ready`` None), since no waiter names the ready state. ``failed``
    and the like are left out: a failed resource may still hold what it was given and need its
    delete."""
    rid = source("aws.terminal-states-from-state-enum")
    for resource in ctx.resources():
        if resource.readiness is not None or not resource.shape or "State" not in resource.fields:
            continue
        shape = ctx.model.shape_for(resource.shape)
        member = members(shape).get("State")
        gone = tuple(
            value
            for value in enum_of(member)
            if isinstance(value, str) and value.lower() in GONE_STATES
        )
        if gone:
            resource.set("readiness", Readiness("State", None, gone, ""), rid)


DELETION_MARKS = ("DeletedDate", "DeletionDate")  # set once a delete is scheduled


@rule("aws.terminal-when-deletion-date")
def terminal_when_deletion_date(ctx: AwsContext) -> None:
    """A kind whose delete is scheduled rather than done says so by a date in its read item
    (Secrets Manager's ``DeletedDate``: "the date the secret was marked for deletion"): a secret
    AWS keeps describing through its recovery window is on the way out, as ``deleting`` is. find
    and delete skip it; a new one may be made (AWS refuses the name until the window ends: an
    error that names it, never an adoption)."""
    rid = source("aws.terminal-when-deletion-date")
    for resource in ctx.resources():
        if resource.readiness is not None or not resource.shape:
            continue
        read = members(ctx.model.shape_for(resource.shape))
        mark = next(
            (
                m
                for m in DELETION_MARKS
                if m in resource.fields
                and read.get(m) is not None
                and read[m].type_name == "timestamp"
            ),
            None,
        )
        if mark is not None:
            resource.set("readiness", Readiness(mark, None, (), "", gone_if_set=True), rid)


@rule("aws.terminal-states-from-deleted-waiter")
def terminal_states_from_deleted_waiter(ctx: AwsContext) -> None:
    """A kind with no Available waiter whose ``<R>Deleted`` / ``<R>Terminated`` waiter says when
    it is gone (InstanceTerminated: ``Reservations[].Instances[].State.Name == terminated``;
    VpcPeeringConnectionDeleted: ``...Status.Code == deleted``): those states are terminal, at
    the waiter's path into the item (``State.Name``). AWS keeps listing such items for a while;
    find and delete skip them. Nothing is waited for (``ready`` None)."""
    rid = source("aws.terminal-states-from-deleted-waiter")
    if ctx.waiters is None:
        return
    for resource in ctx.resources():
        read = resource.read
        if resource.readiness is not None or read is None or not read.output_member:
            continue
        prefix = f"{read.output_member}[]."
        if aws(read).wrapped_member:
            prefix += f"{aws(read).wrapped_member}[]."
        for name in (f"{resource.name}Deleted", f"{resource.name}Terminated"):
            if name not in resource.waiters:
                continue
            success = [
                a
                for a in ctx.waiters.get_waiter(name).acceptors
                if a.state == "success"
                and a.matcher == "pathAll"
                and isinstance(a.expected, str)
                and str(a.argument).startswith(prefix)
            ]
            paths = {str(a.argument)[len(prefix) :] for a in success}
            if len(paths) != 1 or next(iter(paths)).split(".")[0] not in resource.fields:
                continue
            gone = tuple(str(a.expected) for a in success)
            resource.set("readiness", Readiness(paths.pop(), None, gone, name), rid)
            break
