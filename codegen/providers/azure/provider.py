"""The Azure provider: Swagger 2.0 files pinned under ``schemas/azure``, the Azure rules, ARM
call shapes. Annotate-only (``INFO.renders`` is False): there is no runtime adapter yet
(``runtime/azure/``), so it has no core template, no runtime modules and no views; the
pipeline refuses an overlay's ``generate`` for it, and each render member says why if called.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from codegen.errors import TasklayerError
from codegen.model import CallShape
from codegen.naming import Code, PythonIdentifier
from codegen.providers.azure import INFO, source
from codegen.providers.azure.rules.run import AZURE_RULES, annotate_specs
from codegen.providers.azure.shapes import AzureCallShape, AzureFieldShape
from codegen.render.views import ResourceView


def _annotate_only(what: str) -> NoReturn:
    raise TasklayerError(
        f"azure is annotate-only: {what}",
        notes=["no runtime adapter renders Azure resources yet (issue 26, item 3)"],
    )


class AzureProvider:
    info = INFO
    rules = AZURE_RULES
    call_shape = AzureCallShape
    tag_shape = CallShape  # the tags map needs no call facts beyond the neutral ones
    field_shape = AzureFieldShape
    view_class = ResourceView  # never instantiated: nothing of an annotate-only provider renders
    core_template = ""
    runtime_core: tuple[str, ...] = ()
    task_base = PythonIdentifier("AzureTask")
    reconciler_base = PythonIdentifier("AzureReconciler")

    # -- sources ----------------------------------------------------------------------------------

    def pinned_services(self, schemas_dir: Path) -> list[str]:
        return source.pinned_services(schemas_dir)

    def installed_names(self) -> list[str]:
        """No SDK ships the specs: nothing is installed to pin from."""
        return []

    def corpus(self, wanted: Sequence[str]) -> list[str]:
        return list(wanted)

    def pin(self, services: Sequence[str], schemas_dir: Path, sdk_data: Path | None) -> None:
        """No SDK ships the specs and the repository is too large to install: files are copied
        one by one and recorded by hand (``source.py`` says what the manifest holds)."""
        raise TasklayerError(
            "azure files are pinned one by one from Azure/azure-rest-api-specs, not from an SDK",
            notes=[
                "copy the file byte for byte into schemas/azure/<service>/<api-version>/ and "
                "record its sha256, repository path and commit in the manifest's azure section",
            ],
        )

    def sdk_files(self, service: str, sdk_data: Path | None) -> tuple[dict[str, str], str]:
        """No installed SDK to compare a pin with: nothing, said so."""
        return {}, f"{INFO.distribution} not-installed"

    def load_pinned(self, schemas_dir: Path, service: str) -> source.AzureSource:
        return source.load_pinned(schemas_dir, service)

    def load_installed(self, service: str) -> source.AzureSource:
        _annotate_only("no installed SDK holds its documents; only pinned ones are read")

    def annotate(self, loaded: source.AzureSource) -> Any:
        """Operations an overlay names are ``operationId``s."""
        from codegen.providers.base import Annotated

        ctx, draft = annotate_specs(
            loaded.specs,
            service=loaded.service,
            api_version=loaded.api_version,
            source_files=tuple(str(p) for p in loaded.files),
        )
        names = {
            str(op["operationId"])
            for item in ctx.path_items()
            for op in item.operations.values()
            if "operationId" in op
        }
        return Annotated(draft, names)

    # -- render: none yet -------------------------------------------------------------------------

    def core_imports(self, view: ResourceView) -> list[Code]:
        _annotate_only("no core module to import")

    def task_imports(self, view: ResourceView) -> tuple[list[Code], list[Code], list[Code]]:
        _annotate_only("no task module")

    def reconciler_imports(self, view: ResourceView) -> tuple[list[Code], list[Code], list[Code]]:
        _annotate_only("no reconciler module")

    def task_core(self, view: ResourceView) -> tuple[Code, list[Code]]:
        _annotate_only("no core to call")

    def task_class_lines(self, view: ResourceView) -> list[Code]:
        _annotate_only("no task class")

    def reconciler_class_lines(self, view: ResourceView) -> list[Code]:
        _annotate_only("no reconciler class")

    def shipped_files(
        self, shipped: Mapping[str, Any] | None, views: list[ResourceView]
    ) -> dict[str, str]:
        return {}


PROVIDER = AzureProvider()
