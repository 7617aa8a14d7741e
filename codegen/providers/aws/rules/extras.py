"""Rules for what a resource's calls need beyond fields: tokens, waiters, pagination."""

from __future__ import annotations

import dataclasses
import re

from codegen.annotate.rules import rule, source
from codegen.model import Readiness
from codegen.providers.aws.rules.context import AwsContext


@rule("aws.idempotency-token")
def idempotency_token(ctx: AwsContext) -> None:
    """A create whose input has an idempotency-token member (botocore's
    ``OperationModel.idempotent_members``: ClientToken) gets a deterministic token from the task."""
    rid = source("aws.idempotency-token")
    for resource in ctx.resources():
        if resource.create is None:
            continue
        tokens = ctx.op(resource.create.name).idempotent_members
        if tokens:
            create = dataclasses.replace(resource.create, idempotency_token=tokens[0])
            resource.set("create", create, rid)


@rule("aws.waiters-on-read")
def waiters(ctx: AwsContext) -> None:
    """Waiters that poll the resource's read and are named after it (VpcAvailable,
    NatGatewayDeleted) tell when it is ready or gone."""
    rid = source("aws.waiters-on-read")
    if ctx.waiters is None:
        return
    for resource in ctx.resources():
        if resource.read is None:
            continue
        found = []
        for name in ctx.waiters.waiter_names:
            config = ctx.waiters.get_waiter(name)
            if config.operation == resource.read.name and name.startswith(resource.name):
                found.append(name)
        if found:
            resource.set("waiters", sorted(found), rid)


@rule("aws.readiness-from-available-waiter")
def readiness(ctx: AwsContext) -> None:
    """The <R>Available waiter says when a new resource is ready: its success acceptor names
    the state member and value (``NatGateways[].State`` == ``available``), its failure acceptors
    the states that will never become ready."""
    rid = source("aws.readiness-from-available-waiter")
    if ctx.waiters is None:
        return
    for resource in ctx.resources():
        name = f"{resource.name}Available"
        if name not in resource.waiters:
            continue
        acceptors = ctx.waiters.get_waiter(name).acceptors
        success = [
            a for a in acceptors if a.state == "success" and a.matcher in ("pathAll", "path")
        ]
        if len(success) != 1 or not isinstance(success[0].expected, str):
            continue
        member = success[0].argument.rsplit(".", 1)[-1]
        if member not in resource.fields:
            continue
        failed = tuple(
            str(a.expected)
            for a in acceptors
            if a.state == "failure"
            and a.argument == success[0].argument
            and isinstance(a.expected, str)
        )
        resource.set("readiness", Readiness(member, success[0].expected, failed, name), rid)


@rule("aws.caller-reference-token")
def caller_reference_token(ctx: AwsContext) -> None:
    """A create that botocore marks no idempotency token for but that requires a
    ``CallerReference`` (CreateHostedZone, CreateHealthCheck: "a unique string that identifies the
    request and that allows failed requests to be retried without the risk of executing the
    operation twice") takes it as its token: one per logical attempt, as ClientToken."""
    rid = source("aws.caller-reference-token")
    for resource in ctx.resources():
        create = resource.create
        if create is None or create.idempotency_token:
            continue
        if "CallerReference" in ctx.required_inputs(create.name):
            resource.set(
                "create", dataclasses.replace(create, idempotency_token="CallerReference"), rid
            )


@rule("aws.token-read-back")
def token_read_back(ctx: AwsContext) -> None:
    """A create token the resource's reads return (HostedZone.CallerReference) names the
    attempt that made it; the create's errors whose documentation names the token
    (HostedZoneAlreadyExists: "a hosted zone has already been created with the specified
    CallerReference") say a request with it already committed. After such an answer to a
    retry whose first reply was lost, the resource carrying our token is the one we made."""
    rid = source("aws.token-read-back")
    for resource in ctx.resources():
        create = resource.create
        token = create.idempotency_token if create else None
        field = resource.fields.get(token) if token else None
        if create is None or field is None or not field.in_read or field.get("write_only"):
            continue
        mention = re.compile(rf"\b{re.escape(str(token))}\b")
        taken = tuple(
            e.name
            for e in ctx.op(create.name).error_shapes
            if mention.search(e.documentation or "")
        )
        if taken:
            read = field.get("read_name") or field.name
            resource.set(
                "create", dataclasses.replace(create, token_read=read, token_taken=taken), rid
            )
