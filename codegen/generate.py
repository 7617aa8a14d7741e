"""The main job: annotate every pinned service, render the selected resources, format with
black in one batch, and write ``generated/`` atomically (or compare, with ``--check``)."""

from __future__ import annotations

from pathlib import Path

from codegen.annotate import annotate_aws
from codegen.overlays import find_overlay
from codegen.render.formatting import format_python
from codegen.render.package import Selection, render_package
from codegen.sources.aws import load_pinned, pinned_services
from codegen.writer import WriteResult, write_tree


def selections(schemas_dir: Path) -> list[Selection]:
    """Each pinned service with the resources its overlay's ``generate`` names (none without)."""
    out = []
    for name in pinned_services(schemas_dir):
        overlay = find_overlay(schemas_dir, "aws", name)
        wanted = tuple(overlay.generate) if overlay is not None and overlay.generate else ()
        if wanted:
            out.append(Selection(annotate_aws(load_pinned(schemas_dir, name), schemas_dir), wanted))
    return out


def render(schemas_dir: Path, templates_dir: Path) -> dict[str, str]:
    return format_python(render_package(selections(schemas_dir), templates_dir))


def generate(schemas_dir: Path, templates_dir: Path, out_dir: Path, check: bool = False) -> WriteResult:
    return write_tree(out_dir, render(schemas_dir, templates_dir), check=check)
