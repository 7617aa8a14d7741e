"""The pipeline, in one place: sources -> rules -> overlay -> model -> render -> format.

Each stage takes what the one before handed it and hands data forward; none reaches back.
A service's overlay is read once and used twice (corrections for the draft, ``generate`` for
what to render); what render needs from the source beyond the model (a discovery document
to trim and ship) travels with the selection as data, not as a path to read again. Which
cloud a service is in decides only which provider object (``codegen.providers``) is asked.

Every pinned service is loaded and annotated (its files checked, its overlay checked against
its model) whether or not anything of it is rendered: a broken input fails every run, not only
the run that first renders it. ``render`` is the whole tree, ``tasklayer-generate-metadata.json``
included; ``codegen.build`` adds the cache, the lock and the summary around it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from codegen.draft import ServiceDraft
from codegen.inputs import Inputs, collect_inputs
from codegen.metadata import metadata_text
from codegen.model import Service
from codegen.overlays import Overlay, apply_overlay, find_overlay
from codegen.providers import registry
from codegen.providers.base import Annotated
from codegen.render.capability import degraded_fields, runtime_service
from codegen.render.formatting import format_python
from codegen.render.package import METADATA_FILE, PackageInfo, Selection, render_package
from codegen.selection import choose
from codegen.writer import WriteResult, write_tree

Progress = Callable[[str], None]  # called with the name of the step just finished
Formatter = Callable[[dict[str, str]], dict[str, str]]


def _corrected(
    draft: ServiceDraft, overlay: Overlay | None, operation_names: Collection[str]
) -> Service:
    """The overlay stage (when the service has an overlay), then the frozen model."""
    return (
        apply_overlay(draft, overlay, operation_names) if overlay is not None else draft
    ).freeze()


def annotate(
    provider_name: str, source: Any, schemas_dir: Path | None = None, overlay: Overlay | None = None
) -> Service:
    """One loaded service (``provider(...).load_pinned(...)``) through its provider's rules and,
    with ``schemas_dir`` (or an ``overlay`` already read), its overlay."""
    found = registry.provider(provider_name).annotate(source)
    if overlay is None and schemas_dir is not None:
        overlay = find_overlay(schemas_dir, provider_name, found.draft.name)
    return _corrected(found.draft, overlay, found.operation_names)


def _pinned(
    schemas_dir: Path, provider_name: str, name: str, overlay: Overlay | None
) -> tuple[Service, Annotated]:
    """One pinned service: sources -> rules -> ``overlay`` -> model, and what the rules saw."""
    cloud = registry.provider(provider_name)
    found = cloud.annotate(cloud.load_pinned(schemas_dir, name))
    return _corrected(found.draft, overlay, found.operation_names), found


def annotated(schemas_dir: Path, provider: str, name: str) -> Service:
    """One pinned service through its rules and its overlay."""
    return _pinned(schemas_dir, provider, name, find_overlay(schemas_dir, provider, name))[0]


def annotated_with_selection(
    schemas_dir: Path, provider: str, name: str
) -> tuple[Service, tuple[str, ...]]:
    """One pinned service through its rules and overlay, and the resources its ``generate``
    selects."""
    overlay = find_overlay(schemas_dir, provider, name)
    service = _pinned(schemas_dir, provider, name, overlay)[0]
    return service, choose(service, overlay)[0]


def generate_list(schemas_dir: Path, provider: str, name: str) -> tuple[str, ...]:
    """The resources the service's overlay selects under ``generate`` (none without one)."""
    return annotated_with_selection(schemas_dir, provider, name)[1]


def selections(
    schemas_dir: Path, inputs: Inputs | None = None, progress: Progress | None = None
) -> list[Selection]:
    """Each pinned service with the resources its overlay's ``generate`` names; a service
    without a list is still loaded and annotated, and has an empty selection."""
    inputs = inputs or collect_inputs(schemas_dir, schemas_dir.parent / "templates")
    out = []
    for pinned in inputs.services:
        overlay = find_overlay(schemas_dir, pinned.provider, pinned.name)
        service, found = _pinned(schemas_dir, pinned.provider, pinned.name, overlay)
        cloud = registry.provider(pinned.provider)
        pinned_from = f"{cloud.info.sdk} {pinned.sdk_version}"
        chosen, left_out = choose(service, overlay)
        if chosen and overlay is not None and not cloud.info.renders:
            raise overlay.error(
                "generate",
                f"{pinned.provider} is annotate-only: it has no runtime adapter to render "
                f"{', '.join(chosen)} against",
                ["drop `generate`; `tasklayer annotations` shows what the rules decided"],
            )
        whole = overlay is not None and overlay.generate_all
        out.append(
            Selection(
                service, chosen, cloud, pinned_from, found.shipped, left_out, whole_service=whole
            )
        )
        if progress:
            progress(f"{pinned.provider}/{pinned.name}")
    return out


def render(
    schemas_dir: Path,
    templates_dir: Path,
    inputs: Inputs | None = None,
    progress: Progress | None = None,
    formatter: Formatter = format_python,
) -> dict[str, str]:
    """Every file of the generated package, formatted, with the metadata file: path -> text."""
    inputs = inputs or collect_inputs(schemas_dir, templates_dir)
    chosen = selections(schemas_dir, inputs, progress)
    unrenderable: dict[str, dict[str, str]] = {}
    rendering = [s for s in chosen if s.resources]
    files = formatter(
        render_package(rendering, templates_dir, PackageInfo.of(inputs), not_rendered=unrenderable)
    )
    rendered = {}
    left_out = {}
    degraded = {}
    for s in chosen:
        key = f"{s.service.provider}/{s.service.name}"
        failed = unrenderable.get(key, {})
        rendered[key] = tuple(n for n in s.resources if n not in failed)
        left_out[key] = {**s.not_generated, **failed}
        degraded[key] = degraded_fields(runtime_service(s.service), rendered[key])
    files[METADATA_FILE] = metadata_text(inputs, rendered, left_out, degraded)
    return files


def generate(
    schemas_dir: Path, templates_dir: Path, out_dir: Path, check: bool = False
) -> WriteResult:
    """Render, then write ``out_dir`` atomically (or compare, with ``check``)."""
    return write_tree(out_dir, render(schemas_dir, templates_dir), check=check)
