"""Rules for how a resource's calls are made: one method per changed field, the fingerprints
those methods need, labels as the tags model, ``requestId``, and long-running operations."""

from __future__ import annotations

from dataclasses import replace

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability, Operation, TagsModel
from codegen.providers.gcp.rules.context import Facts, GcpContext, Method, singular
from codegen.providers.gcp.rules.resources import scope_names
from codegen.providers.gcp.rules.updates import own_update, route
from codegen.providers.gcp.shapes import with_gcp

TOKEN = "requestId"
LABELS = "labels"


def lock_fields(ctx: GcpContext, resource: ResourceDraft, facts: Facts) -> list[str]:
    """Optimistic-lock tokens: ``fingerprint``, ``<x>Fingerprint``, ``etag``, and fields the
    resource's methods take as ``if<Field>Match`` preconditions (storage's ``metageneration``)."""
    preconditions = {
        name[2:-5][:1].lower() + name[2:-5][1:]
        for method in facts.collection.methods.values()
        for name in ctx.query(method)
        if name.startswith("if") and name.endswith("Match")
    }
    return [
        n
        for n in resource.fields
        if n in ("fingerprint", "etag") or n.endswith("Fingerprint") or n in preconditions
    ]


@rule("gcp.fingerprints-are-lock-tokens")
def lock_tokens(ctx: GcpContext) -> None:
    """Fingerprints (``fingerprint``, ``labelFingerprint``), etags and precondition generations
    are optimistic-lock tokens the server computes: read-only values, read and sent back."""
    rid = source("gcp.fingerprints-are-lock-tokens")
    for resource, facts in ctx.resources():
        for name in lock_fields(ctx, resource, facts):
            f = resource.fields[name]
            if "mutability" not in f.provenance:
                f.set("mutability", Mutability.READ_ONLY, rid)


def _tokens_sent(
    ctx: GcpContext, resource: ResourceDraft, facts: Facts, method: Method
) -> list[str]:
    """The lock tokens a method sends: those its body carries by name (setLabels's
    ``labelFingerprint``, setTargetPools's ``fingerprint``), the resource-wide ones when its body
    is the resource (a patch sends ``fingerprint``), and its ``if<Field>Match`` preconditions."""
    if method["id"] in facts.borrowed:
        return []  # another resource's method: its lock tokens are that resource's, not ours
    locks = lock_fields(ctx, resource, facts)
    own = own_update(ctx, facts)
    if own is not None and own[1]["id"] == method["id"]:
        # the body is the resource: it holds every token, the call checks the resource-wide one
        sent = [n for n in locks if n in ("fingerprint", "etag")]
    else:
        sent = [n for n in locks if n in ctx.body(method)]
    for name in ctx.query(method):
        field = name[2:-5][:1].lower() + name[2:-5][1:]
        if (
            name.startswith("if")
            and name.endswith("Match")
            and field in locks
            and field not in sent
        ):
            sent.append(field)
    return sent


def _method(facts: Facts, method_id: str) -> Method:
    method = facts.method_by_id(method_id)
    assert method is not None, method_id  # the ids routed here were read from this collection
    return method


def _call(
    ctx: GcpContext, facts: Facts, method_id: str, fields: list[str], tokens: list[str]
) -> Operation:
    method = _method(facts, method_id)
    return Operation(
        method_id,
        "update",
        identity_members=tuple(ctx.path_params(method)),
        fields=tuple(fields + [t for t in tokens if t not in fields]),
        source=source("gcp.one-method-per-field"),
    )


@rule("gcp.one-method-per-field")
def route_updates(ctx: GcpContext) -> None:
    """Each mutable field changes through one method: the action built for it (``setLabels``,
    ``resize``, ``expandIpCidrRange``, ``addInstance`` with its ``removeInstance``) before the
    resource's own ``patch``/``update``. A method sends the lock tokens it needs; a token's
    ``update_operation`` is the first method that sends it (``gcp.fingerprint-belongs-to-method``).
    """
    rid = source("gcp.one-method-per-field")
    lock = source("gcp.fingerprint-belongs-to-method")
    for resource, facts in ctx.resources():
        routed = route(ctx, resource, facts)
        calls: list[Operation] = []
        for method_id, fields in routed.items():
            tokens = _tokens_sent(ctx, resource, facts, _method(facts, method_id))
            calls.append(_call(ctx, facts, method_id, fields, tokens))
            partner = facts.partners.get(method_id)
            if partner is not None:
                calls.append(_call(ctx, facts, partner, fields, tokens))
            for token in tokens:
                if resource.fields[token].get("update_operation") is None:
                    resource.fields[token].set("update_operation", method_id, lock)
        if calls:
            resource.set("update", calls, rid)


@rule("gcp.labels-are-tags")
def labels_model(ctx: GcpContext) -> None:
    """``labels`` (a map of strings) is the tags model: set in the create body itself, changed
    by ``setLabels`` with its ``labelFingerprint`` where the resource has one, else by its own
    update; the same call adds and removes labels, so it is both the tag and the untag call."""
    rid = source("gcp.labels-are-tags")
    for resource, facts in ctx.resources():
        f = resource.fields.get(LABELS)
        if f is None or f.type.kind != "map" or f.get("mutability") is not Mutability.MUTABLE:
            continue
        method_id = f.get("update_operation")
        call = next((op for op in resource.update if op.name == method_id), None)
        tags = TagsModel(
            field=LABELS,
            create_member=LABELS if f.in_create else None,
            tag_operation=method_id,
            untag_operation=method_id,
            selector_member=call.identity_members[-1] if call and call.identity_members else None,
            source=rid,
        )
        resource.set("tags", tags, rid)
        if call is not None:
            resource.set("tag", replace(call, role="tag", source=rid), rid)
            resource.set("untag", replace(call, role="untag", source=rid), rid)
            if set(call.fields) - {LABELS} <= set(lock_fields(ctx, resource, facts)):  # labels only
                resource.set("update", [op for op in resource.update if op.name != method_id], rid)


@rule("gcp.request-id-is-idempotency-token")
def idempotency_token(ctx: GcpContext) -> None:
    """Every mutating call whose method takes ``requestId`` (the create, each update, add…/
    remove… and set… call, the labels call, the delete) carries one: "Specify a unique request
    ID so that if you must retry your request, the server will know to ignore the request if it
    has already been completed." The runtime makes one per logical call."""
    rid = source("gcp.request-id-is-idempotency-token")
    for resource, facts in ctx.resources():
        for role, method in (
            ("create", facts.create),
            ("delete", facts.collection.methods["delete"]),
        ):
            op = getattr(resource, role)
            if op is not None and TOKEN in method.get("parameters", {}):
                resource.set(role, replace(op, idempotency_token=TOKEN), rid)
        for role, op in _update_methods(resource):
            _set_call(resource, role, op, _with_token(facts, op))


def _with_token(facts: Facts, op: Operation) -> Operation:
    method = facts.method_by_id(op.name) or {}
    if TOKEN not in method.get("parameters", {}):
        return op
    return _refined(op, source("gcp.request-id-is-idempotency-token"), idempotency_token=TOKEN)


def _refined(op: Operation, rid: str, **facts: object) -> Operation:
    """The call with more facts about it; its ``source`` lists every rule that decided one."""
    return replace(op, source=f"{op.source}, {rid}" if op.source else rid, **facts)  # type: ignore[arg-type]


def _update_methods(resource: ResourceDraft) -> list[tuple[str, Operation]]:
    ops = [("update", op) for op in resource.update]
    ops += [(role, op) for role in ("tag", "untag") if (op := getattr(resource, role)) is not None]
    return ops


def _set_call(resource: ResourceDraft, role: str, old: Operation, changed: Operation) -> None:
    """Put a refined call in place; which calls the resource has (and why) stays as decided."""
    if role == "update":
        resource.update = [changed if op is old else op for op in resource.update]
    else:
        setattr(resource, role, changed)


@rule("gcp.method-required-members")
def required_members(ctx: GcpContext) -> None:
    """A member the request schema marks required for the method (``annotations.required``:
    ``name`` for ``compute.firewalls.patch``) is sent by the call whatever else changes, as the
    resource has it."""
    rid = source("gcp.method-required-members")
    for resource, facts in ctx.resources():
        for role, op in _update_methods(resource):
            method = facts.method_by_id(op.name)
            if method is None:
                continue
            required = tuple(
                name
                for name, prop in ctx.body(method).items()
                if op.name in (prop.get("annotations") or {}).get("required", [])
                and name not in op.fields
            )
            if required:
                _set_call(
                    resource, role, op, _refined(with_gcp(op, required_members=required), rid)
                )


@rule("gcp.reference-object-items")
def reference_objects(ctx: GcpContext) -> None:
    """A call whose body takes a list of one-member objects (``targetPools.addHealthCheck``:
    ``healthChecks: [HealthCheckReference]``, ``{"healthCheck": url}``) sends each item as such
    an object, though the resource itself lists plain URLs."""
    rid = source("gcp.reference-object-items")
    for resource, facts in ctx.resources():
        for role, op in _update_methods(resource):
            method = facts.method_by_id(op.name)
            if method is None or (method.get("request") or {}).get("$ref") == facts.schema:
                continue  # a body that is the resource holds its lists as the resource does
            keys = []
            for name, prop in ctx.body(method).items():
                item = ctx.properties(prop.get("items")) if prop.get("type") == "array" else {}
                if len(item) == 1 and next(iter(item.values())).get("type") == "string":
                    keys.append((name, next(iter(item))))
            if keys:
                _set_call(resource, role, op, _refined(with_gcp(op, item_keys=tuple(keys)), rid))


def is_operation(ctx: GcpContext, method: Method) -> bool:
    """The method returns a long-running operation: compute's Operation (``status``,
    ``targetLink``) or google.longrunning's (``done``)."""
    ref = (method.get("response") or {}).get("$ref", "")
    props = ctx.properties(method.get("response"))
    return ref.endswith("Operation") and (
        "done" in props or "targetLink" in props or "status" in props
    )


def _operation_waits(ctx: GcpContext) -> list[tuple[tuple[str, ...], str, str]]:
    """(scope, method key, method id) of each operations collection's ``wait`` / ``get``."""
    out = []
    for collection in ctx.collections:
        if not collection.name.lower().endswith("operations"):
            continue
        for key in ("wait", "get"):
            method = collection.methods.get(key)
            if method is not None and is_operation(ctx, method):
                out.append((tuple(scope_names(ctx, method)[:-1]), key, method["id"]))
    return out


@rule("gcp.long-running-operations")
def long_running(ctx: GcpContext) -> None:
    """Calls that return an Operation finish when it is done: waited on with the operations
    collection nested under the resource (AIP ``…/workloadIdentityPools/{id}/operations``, dns's
    managedZoneOperations) or else of its scope (compute's ``regionOperations.wait`` for a
    regional resource), ``wait`` before polling ``get``."""
    rid = source("gcp.long-running-operations")
    for resource, facts in ctx.resources():
        methods = (facts.create, facts.collection.methods["delete"])
        if not any(is_operation(ctx, m) for m in methods):
            continue
        nested = facts.scope + (singular(facts.collection.name),)
        ranked = sorted(
            (scope != nested, key != "wait", method_id)
            for scope, key, method_id in _operation_waits(ctx)
            if scope in (facts.scope, nested)
        )
        if ranked:
            resource.set("waiters", [ranked[0][2]], rid)


@rule("gcp.create-returns-id")
def create_id(ctx: GcpContext) -> None:
    """A create returns the resource itself (its ``name`` is in it), or an Operation whose
    ``targetLink`` is the new resource's selfLink (compute)."""
    rid = source("gcp.create-returns-id")
    for resource, facts in ctx.resources():
        response = facts.create.get("response") or {}
        assert resource.create is not None
        if response.get("$ref") == facts.schema and resource.primary:
            resource.set("create", replace(resource.create, id_member=resource.primary[0]), rid)
        elif "targetLink" in ctx.properties(response):
            resource.set("create", replace(resource.create, id_member="targetLink"), rid)
