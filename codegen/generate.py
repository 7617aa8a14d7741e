"""The main job: annotate every pinned service, render the selected resources, format with
black in one batch, and write ``generated/`` atomically (or compare, with ``--check``).

Every pinned service is loaded and annotated — its files checked, its overlay checked against
its model — whether or not anything of it is rendered: a broken input fails every run, not only
the run that first renders it. ``render`` is the whole tree, ``tasklayer-generate-metadata.json``
included; ``codegen.build`` adds the cache, the lock and the summary around it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from codegen.annotate import annotate_aws, annotate_gcp
from codegen.inputs import Inputs, collect_inputs
from codegen.metadata import metadata_text
from codegen.model import Service
from codegen.overlays import find_overlay
from codegen.render.formatting import format_python
from codegen.render.package import METADATA_FILE, Selection, render_package
from codegen.sources import aws, gcp
from codegen.writer import WriteResult, write_tree

Progress = Callable[[str], None]  # called with the name of the step just finished
_LOADERS = {"aws": (aws.load_pinned, annotate_aws), "gcp": (gcp.load_pinned, annotate_gcp)}


def generate_list(schemas_dir: Path, provider: str, name: str) -> tuple[str, ...]:
    """The resources the service's overlay lists under ``generate`` (none without a list)."""
    overlay = find_overlay(schemas_dir, provider, name)
    return tuple(overlay.generate) if overlay is not None and overlay.generate else ()


def annotated(schemas_dir: Path, provider: str, name: str) -> Service:
    load, annotate = _LOADERS[provider]
    return annotate(load(schemas_dir, name), schemas_dir)


def selections(schemas_dir: Path, inputs: Inputs | None = None, progress: Progress | None = None) -> list[Selection]:
    """Each pinned service with the resources its overlay's ``generate`` names; a service
    without a list is still loaded and annotated, and has an empty selection."""
    inputs = inputs or collect_inputs(schemas_dir, schemas_dir.parent / "templates")
    out = []
    for pinned in inputs.services:
        service = annotated(schemas_dir, pinned.provider, pinned.name)
        out.append(Selection(service, generate_list(schemas_dir, pinned.provider, pinned.name),
                             f"{_SDK[pinned.provider]} {pinned.sdk_version}"))
        if progress:
            progress(f"{pinned.provider}/{pinned.name}")
    return out


_SDK = {"aws": "botocore", "gcp": "googleapiclient"}


def render(schemas_dir: Path, templates_dir: Path, inputs: Inputs | None = None,
           progress: Progress | None = None, formatter: Callable[[dict[str, str]], dict[str, str]] = format_python,
           ) -> dict[str, str]:
    inputs = inputs or collect_inputs(schemas_dir, templates_dir)
    chosen = selections(schemas_dir, inputs, progress)
    rendered = [s for s in chosen if s.resources]
    files = formatter(render_package(rendered, templates_dir))
    files[METADATA_FILE] = metadata_text(inputs, {f"{s.service.provider}/{s.service.name}": s.resources for s in chosen})
    return files


def generate(schemas_dir: Path, templates_dir: Path, out_dir: Path, check: bool = False) -> WriteResult:
    return write_tree(out_dir, render(schemas_dir, templates_dir), check=check)
