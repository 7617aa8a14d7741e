"""The Azure rules, in the order they run, and the entry point that runs them on one service."""

from __future__ import annotations

from collections.abc import Sequence

from codegen.annotate.draft import ServiceDraft
from codegen.annotate.rules import Rule, check_unique
from codegen.providers.azure.rules import calls, classify, resources
from codegen.providers.azure.rules.context import AzureContext
from codegen.providers.azure.shapes import AzureCallShape, AzureFieldShape
from codegen.providers.azure.specs import Specs

AZURE_RULES: Sequence[Rule[AzureContext]] = check_unique(
    (
        # what the documents' resources are, and where each lives
        resources.find_resources,
        resources.scope,
        resources.collect_fields,
        resources.list_operation,
        resources.child_collections,
        # how each field can change: the documents where they can be trusted, then ARM's contract
        classify.read_only,
        classify.server_envelope,
        classify.x_ms_mutability,
        classify.location_create_only,
        classify.patch_model,
        classify.put_mutable,
        classify.secret,
        classify.required,
        # what calls need
        calls.long_running,
        calls.tags,
    )
)


def annotate_specs(
    specs: Specs, *, service: str, api_version: str, source_files: tuple[str, ...] = ()
) -> tuple[AzureContext, ServiceDraft]:
    """Run every Azure rule over one service's pinned documents; overlays come after."""
    draft = ServiceDraft(
        "azure",
        service,
        api_version,
        source_files=source_files,
        call_shape=AzureCallShape,
        field_shape=AzureFieldShape,
    )
    ctx = AzureContext(specs=specs, draft=draft, api_version=api_version)
    for r in AZURE_RULES:
        r(ctx)
    return ctx, draft
