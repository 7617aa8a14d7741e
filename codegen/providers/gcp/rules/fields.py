"""Rules that collect a resource's fields from the schema its ``get`` returns and its create
call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codegen.annotate.draft import FieldDraft, ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.gcp.rules.context import Facts, GcpContext, singular
from codegen.providers.gcp.rules.resources import creates_in_place
from codegen.providers.gcp.rules.text import behaviours, clean

IDEMPOTENCY_PARAMETERS = ("requestId",)


def new_field(ctx: GcpContext, name: str, schema: Mapping[str, Any], rid: str) -> FieldDraft:
    ref = schema.get("$ref") or schema.get("items", {}).get("$ref") or ""
    draft = FieldDraft(
        name, ctx.field_type(schema), clean(schema.get("description")), create_shape=ref
    )
    draft.provenance["name"] = rid
    return draft


def names_the_resource(facts: Facts, member: str) -> bool:
    """``workloadIdentityPoolId`` for workloadIdentityPools, ``accountId`` for serviceAccounts,
    ``roleId`` for roles: an ``…Id`` the create takes to name the new resource."""
    if not member.endswith("Id") or member in IDEMPOTENCY_PARAMETERS:
        return False
    own = (singular(facts.collection.name) + "Id").lower()
    return own.endswith(member.lower()) or member.lower().endswith(own)


@rule("gcp.fields-from-resource-schema")
def collect_fields(ctx: GcpContext) -> None:
    """A resource's fields are the top-level properties of the schema its ``get`` returns. The
    create takes the ones its body carries: the body itself (compute), or the member of a
    wrapper body typed with the resource's schema (iam's CreateServiceAccountRequest
    .serviceAccount), whose other members (``accountId``) are fields the create alone takes; so
    is a create parameter named ``<resource>Id`` that names the new resource (AIP ``create``), and
    the ``name`` a create addressing the new resource itself takes in its path (``PUT {+name}``)."""
    rid = source("gcp.fields-from-resource-schema")
    for resource, facts in ctx.resources():
        for name, prop in ctx.properties({"$ref": facts.schema}).items():
            f = new_field(ctx, name, prop, rid)
            f.in_read = True
            resource.fields[name] = f
        _create_body(ctx, resource, facts, rid)
        _create_parameters(ctx, resource, facts, rid)
        if creates_in_place(facts) and "name" in resource.fields:
            resource.fields["name"].in_create = True  # given in the create's own path


def _create_body(ctx: GcpContext, resource: ResourceDraft, facts: Facts, rid: str) -> None:
    request = facts.create.get("request") or {}
    body = ctx.properties(request)
    if request.get("$ref") == facts.schema:
        taken = dict(body)
    else:
        wrapper = [m for m, p in body.items() if p.get("$ref") == facts.schema]
        facts.body_member = wrapper[0] if wrapper else None
        taken = dict(ctx.properties({"$ref": facts.schema})) if wrapper else {}
        taken.update({m: p for m, p in body.items() if m not in wrapper})
    for name, prop in taken.items():
        if name not in resource.fields:
            resource.fields[name] = new_field(ctx, name, prop, rid)
        resource.fields[name].in_create = True
        if (
            facts.id_param is None
            and name not in ctx.properties({"$ref": facts.schema})
            and names_the_resource(facts, name)
        ):
            facts.id_param = name


def _create_parameters(ctx: GcpContext, resource: ResourceDraft, facts: Facts, rid: str) -> None:
    for name, param in ctx.query(facts.create).items():
        if name in resource.fields:
            resource.fields[name].in_create = True
        elif names_the_resource(facts, name):
            resource.fields[name] = new_field(ctx, name, param, rid)
            resource.fields[name].in_create = True
            facts.id_param = facts.id_param or name


@rule("gcp.required-by-create")
def required(ctx: GcpContext) -> None:
    """A field the create must be given: compute marks it in the property's
    ``annotations.required`` with the create's method id, AIP APIs write "Required." first in
    its description, and a required parameter says ``required``. A read-only field is never
    required, whatever its text says."""
    rid = source("gcp.required-by-create")
    for resource, facts in ctx.resources():
        create_id = facts.create["id"]
        schema_props = ctx.properties({"$ref": facts.schema})
        body = ctx.properties(facts.create.get("request"))
        params = facts.create.get("parameters", {})
        for name, f in resource.fields.items():
            if not f.in_create or f.get("mutability") is Mutability.READ_ONLY:
                f.set("required", False, rid)
                continue
            prop = schema_props.get(name) or body.get(name) or params.get(name) or {}
            marked = create_id in prop.get("annotations", {}).get("required", [])
            f.set(
                "required",
                marked or bool(prop.get("required")) or behaviours(f.documentation).required,
                rid,
            )
