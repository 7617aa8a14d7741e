"""The AWS rules, in the order they run, and the entry point that runs them on one service."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from botocore.model import ServiceModel
from botocore.waiter import WaiterModel

from codegen.annotate.draft import ServiceDraft
from codegen.annotate.rules import Rule, check_unique
from codegen.providers.aws.rules import (
    alternatives,
    arn_references,
    calls,
    change_batch,
    classify,
    extras,
    fields,
    id_reads,
    identity,
    membership,
    name_lists,
    read_names,
    reads,
    resources,
    safety,
    service_tags,
    shaped_updates,
    structured_create,
    tag_reads,
    tagging,
    updates,
    versions,
)
from codegen.providers.aws.rules.context import AwsContext
from codegen.providers.aws.shapes import AwsCallShape, AwsFieldShape, AwsTagShape

AWS_RULES: Sequence[Rule[AwsContext]] = check_unique(
    (
        # what the service's operations are for
        tagging.tag_operations,
        resources.lifecycle_families,
        resources.pair_families,
        # how each resource is read
        reads.read_by_noun,
        reads.read_by_shape,
        reads.read_through_parent,
        reads.shape_from_create,
        reads.read_through_wrapper,
        reads.shared_read_selector,
        tagging.tags_model,
        service_tags.service_level_tagging,
        # identity
        identity.primary_identity,
        identity.arn_member,
        identity.natural_key,
        identity.name_member,
        identity.parent_scope,
        id_reads.read_by_id,
        # fields, then how each can change
        fields.collect_fields,
        fields.tags_field,
        updates.update_operations,
        updates.versioned_updates,
        updates.put_upsert,
        updates.put_overwrite,
        updates.route_updates,
        membership.add_remove_pairs,
        membership.put_delete_items,
        shaped_updates.json_patch,
        shaped_updates.nested_member,
        shaped_updates.flattened_members,
        shaped_updates.keyed_items,
        structured_create.structured_create,
        updates.tags_mutable,
        classify.nested_unknown,
        classify.create_only,
        classify.read_only,
        classify.separate_reads,
        classify.write_only,
        read_names.name_read_as_resource_name,
        versions.versioned_resources,
        classify.sensitive,
        classify.server_default,
        classify.references,
        classify.unordered,
        # what calls need
        extras.idempotency_token,
        extras.caller_reference_token,
        extras.token_read_back,
        extras.waiters,
        extras.readiness,
        # what keeps the runtime safe
        safety.owner_parent,
        safety.sensitive_paths,
        safety.returned_once,
        safety.terminal_states,
        safety.terminal_states_from_enum,
        safety.terminal_when_deletion_date,
        safety.terminal_states_from_deleted_waiter,
        # how calls are shaped
        calls.read_selectors,
        calls.filters_from_documentation,
        calls.id_selector_takes_name,
        reads.read_answers_put_member,
        name_lists.found_by_name_list,
        calls.create_id,
        alternatives.alternative_create_by_input,
        calls.one_attribute_per_call,
        calls.value_wrapper,
        calls.tag_selectors,
        tag_reads.tags_read_separately,
        # resources written as changes in their parent's batch, built whole by their rule
        change_batch.change_batch_resources,
        # what a field given another resource sends of it: its id, or its ARN (once fields,
        # references and mutability are all decided)
        arn_references.reference_holds_arn,
    )
)


def annotate_model(
    model: ServiceModel,
    *,
    service: str,
    api_version: str,
    paginators: Mapping[str, Any] | None = None,
    waiters: WaiterModel | None = None,
    source_files: tuple[str, ...] = (),
) -> tuple[AwsContext, ServiceDraft]:
    """Run every AWS rule over one botocore service model; overlays come after."""
    draft = ServiceDraft(
        "aws",
        service,
        api_version,
        source_files=source_files,
        call_shape=AwsCallShape,
        tag_shape=AwsTagShape,
        field_shape=AwsFieldShape,
    )
    ctx = AwsContext(model=model, paginators=paginators or {}, waiters=waiters, draft=draft)
    for r in AWS_RULES:
        r(ctx)
    return ctx, draft
