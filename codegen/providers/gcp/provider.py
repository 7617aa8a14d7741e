"""The GCP provider: discovery documents pinned under ``schemas/gcp``, the GCP rules, AIP call
shapes, GCP views, ``gcp/core.py.jinja`` over ``runtime/gcp/core.py``. The document, trimmed to
what the rendered resources call, ships beside the code; clients are built from it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from codegen.errors import TasklayerError
from codegen.model import CallShape
from codegen.naming import Code, PythonIdentifier
from codegen.providers.base import Annotated
from codegen.providers.gcp import INFO, source
from codegen.providers.gcp.rules.run import GCP_RULES, annotate_document
from codegen.providers.gcp.shapes import GcpCallShape, GcpFieldShape
from codegen.providers.gcp.views import GcpResourceView, trimmed_document
from codegen.render.views import ResourceView
from codegen.sources.manifest import sha256_hex

DOCUMENT_FILE = "discovery.json"


class GcpProvider:
    info = INFO
    rules = GCP_RULES
    call_shape = GcpCallShape
    tag_shape = CallShape  # labels need no call facts beyond the neutral ones
    field_shape = GcpFieldShape
    view_class = GcpResourceView
    core_template = "gcp/core.py.jinja"
    runtime_core = ("gcp/core", "gcp/errors", "gcp/operations", "gcp/refs", "wiring/gcp")
    task_base = PythonIdentifier("GcpTask")
    reconciler_base = PythonIdentifier("GcpReconciler")

    # -- sources ----------------------------------------------------------------------------------

    def pinned_services(self, schemas_dir: Path) -> list[str]:
        return source.pinned_services(schemas_dir)

    def installed_names(self) -> list[str]:
        """Document stems (``compute.v1``) and the API names they start with (``compute``)."""
        stems = source.installed_documents()
        return list(dict.fromkeys([s.split(".", 1)[0] for s in stems] + stems))

    def corpus(self, wanted: Sequence[str]) -> list[str]:
        stems = source.installed_documents()
        if wanted:
            stems = [s for w in wanted for s in stems if s == w or s.split(".", 1)[0] == w] or list(wanted)
        return stems

    def pin(self, services: Sequence[str], schemas_dir: Path, sdk_data: Path | None) -> None:
        if sdk_data is not None:
            raise TasklayerError("--from is for aws (a botocore data folder); gcp pins from the installed googleapiclient")
        source.pin(list(services), schemas_dir)

    def sdk_files(self, service: str, sdk_data: Path | None) -> tuple[dict[str, str], str]:
        _, doc, payload = source.sdk_document(service)
        sdk = f"{doc['version']} rev {doc.get('revision')} in google-api-python-client {source.googleapiclient_version()}"
        return {DOCUMENT_FILE: sha256_hex(payload)}, sdk

    def load_pinned(self, schemas_dir: Path, service: str) -> source.GcpSource:
        return source.load_pinned(schemas_dir, service)

    def load_installed(self, service: str) -> source.GcpSource:
        return source.load_installed(service)

    def annotate(self, loaded: source.GcpSource) -> Annotated:
        """Operations an overlay names are discovery method ids."""
        ctx, draft = annotate_document(
            loaded.document,
            service=loaded.api,
            api_version=loaded.version,
            source_files=tuple(str(p) for p in loaded.files),
        )
        return Annotated(draft, ctx.operation_names, shipped=loaded.document)

    # -- render -----------------------------------------------------------------------------------

    def core_imports(self, view: ResourceView) -> list[Code]:
        return [Code("from collections.abc import Mapping"), Code("from pathlib import Path"),
                Code("from typing import Any"), Code(""), Code("from ....runtime.gcp.core import GcpCore")]

    def task_imports(self, view: ResourceView) -> tuple[list[Code], list[Code], list[Code]]:
        """(standard library, runtime base, own core) imports of a task module."""
        return [Code("from pathlib import Path")], [Code("from ...runtime.wiring.gcp import GcpTask")], [
            Code("from .core.{} import DOCUMENT, SPEC, {}Core", view.module, view.class_name)
        ]

    def reconciler_imports(self, view: ResourceView) -> tuple[list[Code], list[Code], list[Code]]:
        return [Code("from pathlib import Path")], [Code("from ....runtime.wiring.gcp import GcpReconciler")], [
            Code("from ..core.{} import DOCUMENT, SPEC", view.module)
        ]

    def task_core(self, view: ResourceView) -> tuple[Code, list[Code]]:
        """The call a task's ``core()`` returns (callee, arguments): a client built from the
        shipped document, the task's scope, and how long to wait on an operation."""
        return Code("{}Core", view.class_name), [
            Code("context.gcp_client(str(DOCUMENT))"), Code("self.scope(context)"), Code("context.retry"),
            Code("operation_timeout=context.operation_timeout"),
        ]

    def task_class_lines(self, view: ResourceView) -> list[Code]:
        return [Code("    document: ClassVar[Path] = DOCUMENT")]

    def reconciler_class_lines(self, view: ResourceView) -> list[Code]:
        return [Code("    document: ClassVar[Path] = DOCUMENT")]

    def shipped_files(self, shipped: Mapping[str, Any] | None, views: list[ResourceView]) -> dict[str, str]:
        """The discovery document, trimmed to what ``views`` call, beside the service's modules."""
        if shipped is None:
            return {}
        return {DOCUMENT_FILE: trimmed_document(shipped, [v for v in views if isinstance(v, GcpResourceView)])}


PROVIDER = GcpProvider()
