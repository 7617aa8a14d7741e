"""Annotate: run a provider's generic rules over a loaded schema, then its overlay.

``annotate_aws`` reads botocore models, ``annotate_gcp`` Google discovery documents. The result
is the frozen, cloud-neutral model (``codegen.model.Service``) that the dump and the
renderers read; nothing after this stage looks at botocore or discovery documents again.
"""

from __future__ import annotations

from pathlib import Path

from codegen.annotate.aws.run import annotate_model
from codegen.annotate.gcp.run import annotate_document
from codegen.model import Service
from codegen.sources.aws import AwsSource
from codegen.sources.gcp import GcpSource


def annotate_aws(source: AwsSource, schemas_dir: Path | None = None) -> Service:
    """Annotate one AWS service; with ``schemas_dir``, apply its overlay file if it has one."""
    files = tuple(str(p) for p in source.files)
    ctx, draft = annotate_model(
        source.model,
        service=source.service,
        api_version=source.api_version,
        paginators=source.paginators,
        waiters=source.waiters,
        source_files=files,
    )
    if schemas_dir is not None:
        from codegen.overlays import apply_overlay, find_overlay

        overlay = find_overlay(schemas_dir, "aws", source.service)
        if overlay is not None:
            apply_overlay(draft, overlay, ctx.operation_names)
    return draft.freeze()


def annotate_gcp(source: GcpSource, schemas_dir: Path | None = None) -> Service:
    """Annotate one discovery document; with ``schemas_dir``, apply its overlay file if it has
    one (operations an overlay names are discovery method ids)."""
    ctx, draft = annotate_document(
        source.document,
        service=source.api,
        api_version=source.version,
        source_files=tuple(str(p) for p in source.files),
    )
    if schemas_dir is not None:
        from codegen.overlays import apply_overlay, find_overlay

        overlay = find_overlay(schemas_dir, "gcp", source.api)
        if overlay is not None:
            apply_overlay(draft, overlay, ctx.operation_names)
    return draft.freeze()
