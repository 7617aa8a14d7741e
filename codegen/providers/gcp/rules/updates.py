"""Rules for what ``patch``/``update`` change, what the documentation says, and what is left.

In compute a ``patch`` does not make every field patchable: ``name`` is fixed, a Network's
patch changes only ``routingConfig``, a Subnetwork's only the fields whose text says so. So the
text is read first — the field's ("can be set only at resource creation time", "updated using
setPrivateIpGoogleAccess") and the method's ("Only routingConfig can be modified") — and only
what it leaves open is taken to change through the resource's own update.
"""

from __future__ import annotations

import re

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.gcp.rules.actions import writable
from codegen.providers.gcp.rules.classify import unset
from codegen.providers.gcp.rules.context import Facts, GcpContext, Method, verb
from codegen.providers.gcp.rules.resources import same_level
from codegen.providers.gcp.rules.text import Limit, methods_named, says_create_only, update_limit
from codegen.providers.gcp.shapes import GcpFieldShape

UPDATE_METHODS = ("patch", "update")  # the resource's own update, most specific first
_CONTAINED = re.compile(r"\b(belongs?|resides?|lives?|in which)\b", re.I)


def own_update(ctx: GcpContext, facts: Facts) -> tuple[str, Method] | None:
    """The resource's own update: ``patch``, else ``update``, taking the resource (or a wrapper
    of it, iam's PatchServiceAccountRequest) as its body."""
    for key in UPDATE_METHODS:
        method = facts.method(key)
        if (
            method is not None
            and same_level(facts.get, method)
            and _takes_resource(ctx, facts, method)
        ):
            return key, method
    return None


def _takes_resource(ctx: GcpContext, facts: Facts, method: Method) -> bool:
    request = method.get("request") or {}
    if request.get("$ref") == facts.schema:
        return True
    return any(p.get("$ref") == facts.schema for p in ctx.body(method).values())


def carry(facts: Facts, method_id: str, field: str) -> None:
    """Record that the method changes the field (a candidate for routing)."""
    known = facts.carriers.setdefault(method_id, [])
    if field not in known:
        known.append(field)


@rule("gcp.field-doc-names-update-method")
def field_doc_names_method(ctx: GcpContext) -> None:
    """A field whose text names the resource's method that changes it ("can be both set at
    resource creation time and updated using setPrivateIpGoogleAccess", "can be updated with a
    patch request") is mutable through that method."""
    rid = source("gcp.field-doc-names-update-method")
    for resource, facts in ctx.resources():
        methods = facts.collection.methods
        levels = {k for k, m in methods.items() if same_level(facts.get, m) and k != "get"}
        for name, f in writable(resource).items():
            for key in methods_named(f.documentation, levels):
                carry(facts, methods[key]["id"], name)
                if unset(f):
                    f.set("mutability", Mutability.MUTABLE, rid)


@rule("gcp.containing-resource-is-fixed")
def containing_resource(ctx: GcpContext) -> None:
    """A reference to the resource this one lives in ("URI of the network to which this router
    belongs", "the network in which to reserve the address") is fixed: resources do not move."""
    rid = source("gcp.containing-resource-is-fixed")
    for resource, _ in ctx.resources():
        for f in resource.fields.values():
            if unset(f) and f.get("references") and _CONTAINED.search(f.documentation):
                f.set("mutability", Mutability.CREATE_ONLY, rid)


@rule("gcp.field-doc-create-only")
def field_doc_create_only(ctx: GcpContext) -> None:
    """A field whose text says it is fixed ("This field can be set only at resource creation
    time", "The IP address can only be set at creation. Once set, it cannot be updated",
    "Immutable.") is create-only, whatever the update methods take."""
    rid = source("gcp.field-doc-create-only")
    for resource, _ in ctx.resources():
        for f in resource.fields.values():
            if unset(f) and f.in_create and says_create_only(f.documentation):
                f.set("mutability", Mutability.CREATE_ONLY, rid)


@rule("gcp.update-method-carries-writable-fields")
def update_carries(ctx: GcpContext) -> None:
    """The resource's own ``patch`` (else ``update``) changes every writable field it takes,
    unless its text limits it: "Only routingConfig can be modified" and "you can only patch the
    network_tier field" name the fields it changes; "Only certain fields can be updated ... as
    indicated in the field descriptions" leaves it to each field's text (read above); "can update
    only a specific set of properties" names none, and the rules cannot tell."""
    rid = source("gcp.update-method-carries-writable-fields")
    limited = source("gcp.update-doc-limits-fields")
    for resource, facts in ctx.resources():
        found = own_update(ctx, facts)
        if found is None:
            continue
        _, method = found
        fields = writable(resource)
        limit = update_limit(method.get("description", ""), fields)
        for name, f in fields.items():
            if f.get("mutability") is Mutability.CREATE_ONLY or not f.in_read:
                continue  # a value only the create takes (accountId) is no part of the body
            if limit is None or name in limit.fields:
                carry(facts, method["id"], name)
                if unset(f):
                    f.set("mutability", Mutability.MUTABLE, rid)
            elif unset(f) and (f.in_create or f.in_read):
                _limited(f, limit, limited)


def _limited(f: FieldDraft, limit: Limit, rid: str) -> None:
    """Named or left to the field docs: the others cannot change. Unnamed: nobody can tell."""
    fixed = limit.kind in ("named", "field-docs")
    f.set("mutability", Mutability.CREATE_ONLY if fixed else Mutability.UNKNOWN, rid)


@rule("gcp.create-only-without-update")
def create_only(ctx: GcpContext) -> None:
    """A field the create takes and no method changes can only be set at creation."""
    rid = source("gcp.create-only-without-update")
    for resource, _ in ctx.resources():
        for f in resource.fields.values():
            if unset(f) and f.in_create:
                f.set("mutability", Mutability.CREATE_ONLY, rid)


@rule("gcp.server-set-otherwise")
def read_only_rest(ctx: GcpContext) -> None:
    """A field of the resource's state that neither the create nor any method sets is filled in
    by the server: read-only."""
    rid = source("gcp.server-set-otherwise")
    for resource, _ in ctx.resources():
        for f in resource.fields.values():
            if unset(f):
                f.set("mutability", Mutability.READ_ONLY, rid)


def _preference(facts: Facts, own: str | None, field: str, method_id: str) -> tuple[int, int, str]:
    """The action built for the field (``setLabels`` for labels, ``resize`` for sizeGb) first,
    then other actions, then the resource's own update, then anything else; narrowest first."""
    key = method_id.rsplit(".", 1)[-1]
    what = key[len(verb(key)) :].lower()
    if method_id in facts.actions:
        rank = 0 if field.lower().startswith(what) else 1
    else:
        rank = 2 if method_id == own else 3
    return (rank, len(facts.carriers[method_id]), method_id)


def route(ctx: GcpContext, resource: ResourceDraft, facts: Facts) -> dict[str, list[str]]:
    """Pick each mutable field's update method; returns method id -> the fields routed to it."""
    found = own_update(ctx, facts)
    own = found[1]["id"] if found else None
    routed: dict[str, list[str]] = {}
    for name, f in resource.fields.items():
        if f.get("mutability") is not Mutability.MUTABLE:
            continue
        carriers = [m for m, fields in facts.carriers.items() if name in fields]
        if not carriers:
            continue
        best = min(carriers, key=lambda m: _preference(facts, own, name, m))
        f.set("update_operation", best, f.provenance["mutability"])
        member, in_query = facts.members.get((best, name), (name, False))
        if member != name:
            f.set("update_name", member, f.provenance["mutability"])
        if in_query:
            f.set_call(GcpFieldShape, "update_param", True, f.provenance["mutability"])
        routed.setdefault(best, []).append(name)
    return routed
