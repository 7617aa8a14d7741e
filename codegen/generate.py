"""The main job: annotate every pinned service, render the selected resources, format with
black in one batch, and write ``generated/`` atomically (or compare, with ``--check``)."""

from __future__ import annotations

from pathlib import Path

from codegen.annotate import annotate_aws, annotate_gcp
from codegen.overlays import find_overlay
from codegen.render.formatting import format_python
from codegen.render.package import Selection, render_package
from codegen.sources import aws, gcp
from codegen.writer import WriteResult, write_tree


def _wanted(schemas_dir: Path, provider: str, name: str) -> tuple[str, ...]:
    overlay = find_overlay(schemas_dir, provider, name)
    return tuple(overlay.generate) if overlay is not None and overlay.generate else ()


def selections(schemas_dir: Path) -> list[Selection]:
    """Each pinned service with the resources its overlay's ``generate`` names (none without)."""
    out = []
    for name in aws.pinned_services(schemas_dir):
        wanted = _wanted(schemas_dir, "aws", name)
        if wanted:
            out.append(Selection(annotate_aws(aws.load_pinned(schemas_dir, name), schemas_dir), wanted))
    for name in gcp.pinned_services(schemas_dir):
        wanted = _wanted(schemas_dir, "gcp", name)
        if wanted:
            out.append(Selection(annotate_gcp(gcp.load_pinned(schemas_dir, name), schemas_dir), wanted))
    return out


def render(schemas_dir: Path, templates_dir: Path) -> dict[str, str]:
    return format_python(render_package(selections(schemas_dir), templates_dir))


def generate(schemas_dir: Path, templates_dir: Path, out_dir: Path, check: bool = False) -> WriteResult:
    return write_tree(out_dir, render(schemas_dir, templates_dir), check=check)
