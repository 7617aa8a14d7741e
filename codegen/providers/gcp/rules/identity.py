"""Rules for identity: the name within a scope, AIP ``…Id`` creates, and selfLink."""

from __future__ import annotations

from dataclasses import replace

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.gcp.rules.context import Facts, GcpContext, singular


def own_parameters(ctx: GcpContext, facts: Facts) -> list[str]:
    """The ``get`` path parameters that select this resource within its scope: those the create
    does not take (``{subnetwork}``; dns's ``{name}`` and ``{type}``), else the last one (AIP's
    ``{+name}``, which the create also uses for its parent)."""
    get_params = ctx.path_params(facts.get)
    create_params = set(ctx.path_params(facts.create))
    own = [p for p in get_params if p not in create_params]
    return own or get_params[-1:]


def _state_name(resource: ResourceDraft, facts: Facts, param: str) -> str:
    """The field a selecting parameter carries: the resource's ``name`` (or ``<resource>Name``)
    for the parameter named after the resource (``{address}`` of globalAddresses, whose Address
    also has an ``address`` field: the IP), else the field of the same name (dns's ``type``)."""
    own = singular(facts.collection.name).lower()
    if param in resource.fields and not own.endswith(param.lower()):
        return param
    # dns's responsePolicies are named by ``responsePolicyName``, their rules by ``ruleName``
    named = [n for n in resource.fields if n.endswith("Name") and own.endswith(n[:-4].lower())]
    for candidate in ("name", *named, "id"):
        if candidate in resource.fields:
            return candidate
    return param


@rule("gcp.name-within-scope")
def name_within_scope(ctx: GcpContext) -> None:
    """A resource is named within its scope: the ``get`` parameters after the scope select it. A
    parameter that is a field (dns's ``name`` and ``type``) is that field; the one named after
    the resource (``{subnetwork}``, ``{bucket}``, AIP's ``{+name}``) carries its ``name``. Reads,
    deletes and updates take the scope and those; the name also finds it without an id."""
    rid = source("gcp.name-within-scope")
    for resource, facts in ctx.resources():
        own = own_parameters(ctx, facts)
        primary = tuple(dict.fromkeys(_state_name(resource, facts, p) for p in own))
        resource.set("primary", primary, rid)
        resource.set("natural", primary, rid)
        get_params = tuple(ctx.path_params(facts.get))
        assert resource.read is not None and resource.delete is not None
        resource.set(
            "read", replace(resource.read, identity_members=get_params, id_filter=own[-1]), rid
        )
        delete_params = tuple(ctx.path_params(facts.collection.methods["delete"]))
        resource.set("delete", replace(resource.delete, identity_members=delete_params), rid)


@rule("gcp.id-parameter-names-resource")
def id_parameter(ctx: GcpContext) -> None:
    """APIs that create with an ``…Id`` (iam's ``accountId``, AIP ``workloadIdentityPoolId``) are
    found by that id, which is fixed once created and not returned as such; the server makes
    the full ``name`` from it and returns it: ``name`` is output."""
    rid = source("gcp.id-parameter-names-resource")
    for resource, facts in ctx.resources():
        if facts.id_param is None:
            continue
        resource.set("natural", (facts.id_param,), rid)
        id_field = resource.fields[facts.id_param]
        id_field.set("mutability", Mutability.CREATE_ONLY, rid)
        name = resource.fields.get("name")
        if name is not None:
            name.set("mutability", Mutability.READ_ONLY, rid)


@rule("gcp.name-is-fixed")
def name_is_fixed(ctx: GcpContext) -> None:
    """What names a resource within its scope (``name``; dns's ``name`` and ``type``) cannot be
    changed by any update: a new name is a new resource."""
    rid = source("gcp.name-is-fixed")
    for resource, _ in ctx.resources():
        for name in resource.natural:
            f = resource.fields.get(name)
            if f is not None and f.in_create and "mutability" not in f.provenance:
                f.set("mutability", Mutability.CREATE_ONLY, rid)


@rule("gcp.self-link-is-reference")
def self_link(ctx: GcpContext) -> None:
    """The canonical reference to a resource is its ``selfLink`` (compute, storage); an AIP
    resource, read by its full resource name (``{+name}``), is referred to by ``name``."""
    rid = source("gcp.self-link-is-reference")
    for resource, facts in ctx.resources():
        if "selfLink" in resource.fields:
            resource.set("arn", "selfLink", rid)
        elif "name" in resource.fields and "{+" in facts.get["path"]:
            resource.set("arn", "name", rid)


@rule("gcp.description-owner-record")
def description_owner_record(ctx: GcpContext) -> None:
    """A resource whose create takes a free-text ``description`` can record who owns it there:
    the Kubernetes cloud-provider writes ``{"kubernetes.io/service-name":"<ns>/<name>"}`` into
    the description of each part of a load balancer (``makeServiceDescription``,
    cloud-provider-gcp's gce_loadbalancer_naming.go), since target pools, HTTP health checks,
    firewalls and routes carry no labels. Only an owner that records itself so uses it."""
    rid = source("gcp.description-owner-record")
    for resource, _ in ctx.resources():
        found = resource.fields.get("description")
        if found is not None and found.in_create and found.type.kind == "string":
            resource.set("owner_record", "description", rid)
