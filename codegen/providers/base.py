"""What a provider is: the light facts every stage may read (:class:`ProviderInfo`) and the
object that owns the rest (:class:`Provider`), which the pipeline, the commands and render
call instead of asking which cloud they are in."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from codegen.draft import ServiceDraft
    from codegen.model import CallShape
    from codegen.naming import Code, PythonIdentifier
    from codegen.render.views import ResourceView


@dataclass(frozen=True)
class ProviderInfo:
    """What the CLI, the input checks and the metadata need, importable without an SDK."""

    name: str  # the folder name: schemas/<name>/, overlays/<name>/, tasklayer_tasks/<name>/
    sdk: str  # what schemas are pinned from, as a generate's progress names it ("botocore")
    distribution: str  # ... as a package index names it ("google-api-python-client")
    manifest_key: str  # the manifest key recording its version ("botocore_version")
    corpus_noun: str = "services"  # what ``annotations --all`` counts ("discovery documents")
    scope_parameters: tuple[str, ...] = ()  # call parameters an identity may name besides fields
    # False: annotate-only. Its services are loaded, validated and annotated on every run (and
    # shown by ``annotations``), but no runtime adapter exists yet to render them against, so an
    # overlay's ``generate`` for one is refused rather than rendered into something broken.
    renders: bool = True


@dataclass(frozen=True)
class Annotated:
    """One loaded service through the provider's rules, before its overlay: the draft, the
    operations an overlay may name, and what render ships beside the code (GCP: the document)."""

    draft: ServiceDraft
    operation_names: Collection[str]
    shipped: Mapping[str, Any] | None = None


class Provider(Protocol):
    """One cloud. ``codegen/providers/<name>/provider.py`` defines ``PROVIDER``, an object
    with these members; nothing outside the provider's folder branches on which cloud it is."""

    info: ProviderInfo
    rules: Sequence[
        Any
    ]  # the annotation rules, in the order they run (``codegen.annotate.rules.Rule``)
    call_shape: type[CallShape]  # its variant of the model's call shape
    tag_shape: type[CallShape]  # its variant of a tags model's call facts (TagsModel.call)
    field_shape: type[CallShape]  # its variant of a field's call facts (Field.call)
    view_class: type[ResourceView]  # how its resources are printed
    core_template: str  # the template of a core module (``aws/core.py.jinja``)
    # its modules in templates/runtime/ (``aws/core``, ``wiring/aws``, ...)
    runtime_core: tuple[str, ...]
    task_base: PythonIdentifier  # the runtime class a task extends (``AwsTask``)
    reconciler_base: PythonIdentifier

    # sources: pinned schemas, and what the installed SDK has
    def pinned_services(self, schemas_dir: Path) -> list[str]: ...
    def installed_names(self) -> list[str]: ...
    def corpus(self, wanted: Sequence[str]) -> list[str]: ...
    def pin(self, services: Sequence[str], schemas_dir: Path, sdk_data: Path | None) -> None: ...
    def sdk_files(self, service: str, sdk_data: Path | None) -> tuple[dict[str, str], str]: ...

    # sources -> rules (the overlay stage and freezing are the pipeline's)
    def load_pinned(self, schemas_dir: Path, service: str) -> Any: ...
    def load_installed(self, service: str) -> Any: ...
    def annotate(self, source: Any) -> Annotated: ...

    # render
    def core_imports(self, view: ResourceView) -> list[Code]: ...
    def task_imports(self, view: ResourceView) -> tuple[list[Code], list[Code], list[Code]]: ...
    def reconciler_imports(
        self, view: ResourceView
    ) -> tuple[list[Code], list[Code], list[Code]]: ...
    def task_core(self, view: ResourceView) -> tuple[Code, list[Code]]: ...
    def task_class_lines(self, view: ResourceView) -> list[Code]: ...
    def reconciler_class_lines(self, view: ResourceView) -> list[Code]: ...
    def shipped_files(
        self, shipped: Mapping[str, Any] | None, views: list[ResourceView]
    ) -> dict[str, str]: ...
