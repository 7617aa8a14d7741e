"""The pipeline, in one place: sources -> rules -> overlay -> model -> render -> format.

Each stage takes what the one before handed it and hands data forward; none reaches back.
A service's overlay is read once and used twice (corrections for the draft, ``generate`` for
what to render); what render needs from the source beyond the model (a discovery document
to trim and ship) travels with the selection as data, not as a path to read again.
"""

from __future__ import annotations

from pathlib import Path

from codegen.annotate.aws.run import annotate_model
from codegen.annotate.gcp.run import annotate_document
from codegen.draft import ServiceDraft
from codegen.model import Service
from codegen.overlays import Overlay, apply_overlay, find_overlay
from codegen.render.formatting import format_python
from codegen.render.package import Selection, render_package
from codegen.sources import aws, gcp
from codegen.writer import WriteResult, write_tree


def _corrected(draft: ServiceDraft, overlay: Overlay | None, operation_names: list[str]) -> Service:
    """The overlay stage (when the service has an overlay), then the frozen model."""
    return (apply_overlay(draft, overlay, operation_names) if overlay is not None else draft).freeze()


def _overlay(schemas_dir: Path | None, provider: str, service: str) -> Overlay | None:
    return find_overlay(schemas_dir, provider, service) if schemas_dir is not None else None


def annotate_aws(source: aws.AwsSource, schemas_dir: Path | None = None, overlay: Overlay | None = None) -> Service:
    """One AWS service through the rules and, with ``schemas_dir`` (or an ``overlay`` already
    read), its overlay."""
    ctx, draft = annotate_model(
        source.model,
        service=source.service,
        api_version=source.api_version,
        paginators=source.paginators,
        waiters=source.waiters,
        source_files=tuple(str(p) for p in source.files),
    )
    overlay = overlay or _overlay(schemas_dir, "aws", source.service)
    return _corrected(draft, overlay, ctx.operation_names)


def annotate_gcp(source: gcp.GcpSource, schemas_dir: Path | None = None, overlay: Overlay | None = None) -> Service:
    """One discovery document through the GCP rules and its overlay (operations an overlay
    names are discovery method ids)."""
    ctx, draft = annotate_document(
        source.document,
        service=source.api,
        api_version=source.version,
        source_files=tuple(str(p) for p in source.files),
    )
    overlay = overlay or _overlay(schemas_dir, "gcp", source.api)
    return _corrected(draft, overlay, ctx.operation_names)


def _wanted(overlay: Overlay | None) -> tuple[str, ...]:
    return tuple(overlay.generate) if overlay is not None and overlay.generate else ()


def selections(schemas_dir: Path) -> list[Selection]:
    """Each pinned service with the resources its overlay's ``generate`` names (none without)."""
    out = []
    for name in aws.pinned_services(schemas_dir):
        overlay = find_overlay(schemas_dir, "aws", name)
        if _wanted(overlay):
            service = annotate_aws(aws.load_pinned(schemas_dir, name), overlay=overlay)
            out.append(Selection(service, _wanted(overlay)))
    for name in gcp.pinned_services(schemas_dir):
        overlay = find_overlay(schemas_dir, "gcp", name)
        if _wanted(overlay):
            source = gcp.load_pinned(schemas_dir, name)
            out.append(Selection(annotate_gcp(source, overlay=overlay), _wanted(overlay), source.document))
    return out


def render(schemas_dir: Path, templates_dir: Path) -> dict[str, str]:
    """Every file of the generated package, formatted: path -> text."""
    return format_python(render_package(selections(schemas_dir), templates_dir))


def generate(schemas_dir: Path, templates_dir: Path, out_dir: Path, check: bool = False) -> WriteResult:
    """Render, then write ``out_dir`` atomically (or compare, with ``check``)."""
    return write_tree(out_dir, render(schemas_dir, templates_dir), check=check)
