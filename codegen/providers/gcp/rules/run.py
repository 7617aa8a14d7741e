"""The GCP rules, in the order they run, and the entry point that runs them on one document."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from codegen.annotate.draft import ServiceDraft
from codegen.annotate.rules import Rule, check_unique
from codegen.providers.gcp.rules import (
    actions,
    aip,
    calls,
    classify,
    evidence,
    fields,
    identity,
    parents,
    resources,
    setters,
    updates,
)
from codegen.providers.gcp.rules.context import GcpContext
from codegen.providers.gcp.shapes import GcpCallShape, GcpFieldShape

GCP_RULES: Sequence[Rule[GcpContext]] = check_unique(
    (
        # what the document's collections are
        resources.find_resources,
        resources.scope,
        fields.collect_fields,
        # identity
        identity.name_within_scope,
        identity.id_parameter,
        identity.self_link,
        identity.description_owner_record,
        # what the server owns
        classify.output_only,
        classify.standard_output,
        classify.scope_fields,
        calls.lock_tokens,
        identity.name_is_fixed,
        classify.references,
        classify.read_as_member,
        # how each field can change: actions, then the text, then the resource's own update
        actions.action_methods,
        setters.own_setter,
        setters.companion_setter,
        updates.field_doc_names_method,
        evidence.input_only,
        updates.containing_resource,
        evidence.fixed_only_when,
        updates.field_doc_create_only,
        evidence.describes_switch,
        evidence.masked_update,
        updates.update_carries,
        updates.create_only,
        updates.read_only_rest,
        calls.route_updates,
        calls.labels_model,
        # the other facts about each field
        fields.required,
        classify.write_only,
        classify.sensitive,
        classify.server_default,
        classify.unordered,
        # what calls need
        resources.list_operation,
        calls.idempotency_token,
        calls.required_members,
        calls.reference_objects,
        calls.long_running,
        calls.create_id,
        aip.parent_reference,
        aip.resource_name_paths,
        # last: a parent the path names is the caller's input, whatever the rules above said
        parents.parents_are_inputs,
    )
)


def annotate_document(
    document: Mapping[str, Any],
    *,
    service: str,
    api_version: str,
    source_files: tuple[str, ...] = (),
) -> tuple[GcpContext, ServiceDraft]:
    """Run every GCP rule over one discovery document; overlays come after."""
    draft = ServiceDraft(
        "gcp",
        service,
        api_version,
        source_files=source_files,
        call_shape=GcpCallShape,
        field_shape=GcpFieldShape,
    )
    ctx = GcpContext(document=document, draft=draft)
    for r in GCP_RULES:
        r(ctx)
    return ctx, draft
