"""The AWS provider: botocore models pinned under ``schemas/aws``, the AWS rules, EC2-style
call shapes, AWS views, ``aws/core.py.jinja`` over ``runtime/aws/core.py``. Tasks and
reconcilers reach their client through the context, one per service."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from codegen.naming import Code, PythonIdentifier, python_literal
from codegen.providers.aws import INFO, source
from codegen.providers.aws.rules.run import AWS_RULES, annotate_model
from codegen.providers.aws.shapes import AwsCallShape, AwsFieldShape, AwsTagShape
from codegen.providers.aws.views import AwsResourceView
from codegen.providers.base import Annotated
from codegen.render.views import ResourceView
from codegen.sources.manifest import sha256_hex


class AwsProvider:
    info = INFO
    rules = AWS_RULES
    call_shape = AwsCallShape
    tag_shape = AwsTagShape
    field_shape = AwsFieldShape
    view_class = AwsResourceView
    core_template = "aws/core.py.jinja"
    runtime_core = ("aws/core", "aws/errors", "aws/listing", "wiring/aws", "aws/tag_reads", "aws/change_batch")
    task_base = PythonIdentifier("AwsTask")
    reconciler_base = PythonIdentifier("AwsReconciler")

    # -- sources ----------------------------------------------------------------------------------

    def pinned_services(self, schemas_dir: Path) -> list[str]:
        return source.pinned_services(schemas_dir)

    def installed_names(self) -> list[str]:
        return source.installed_services()

    def corpus(self, wanted: Sequence[str]) -> list[str]:
        return list(wanted) or source.installed_services()

    def pin(self, services: Sequence[str], schemas_dir: Path, sdk_data: Path | None) -> None:
        source.pin(list(services), schemas_dir, sdk_data)

    def sdk_files(self, service: str, sdk_data: Path | None) -> tuple[dict[str, str], str]:
        """The sha256 of each file the SDK has for ``service``, and which version of it that is."""
        root, version = source.sdk_data_root(sdk_data)
        api_version, payloads = source.sdk_files(service, root)
        return {f: sha256_hex(p) for f, p in payloads.items()}, f"{api_version} in botocore {version}"

    def load_pinned(self, schemas_dir: Path, service: str) -> source.AwsSource:
        return source.load_pinned(schemas_dir, service)

    def load_installed(self, service: str) -> source.AwsSource:
        return source.load_installed(service)

    def annotate(self, loaded: source.AwsSource) -> Annotated:
        ctx, draft = annotate_model(
            loaded.model,
            service=loaded.service,
            api_version=loaded.api_version,
            paginators=loaded.paginators,
            waiters=loaded.waiters,
            source_files=tuple(str(p) for p in loaded.files),
        )
        return Annotated(draft, ctx.operation_names)

    # -- render -----------------------------------------------------------------------------------

    def core_imports(self, view: ResourceView) -> list[Code]:
        return [Code("from typing import Any"), Code(""), Code("from ....runtime.aws.core import AwsCore")]

    def task_imports(self, view: ResourceView) -> tuple[list[Code], list[Code], list[Code]]:
        """(standard library, runtime base, own core) imports of a task module."""
        return [], [Code("from ...runtime.wiring.aws import AwsTask")], [
            Code("from .core.{} import SPEC, {}Core", view.module, view.class_name)
        ]

    def reconciler_imports(self, view: ResourceView) -> tuple[list[Code], list[Code], list[Code]]:
        return [], [Code("from ....runtime.wiring.aws import AwsReconciler")], [
            Code("from ..core.{} import SPEC, {}Core", view.module, view.class_name)
        ]

    def task_core(self, view: ResourceView) -> tuple[Code, list[Code]]:
        """The call a task's ``core()`` returns (callee, arguments): the core over the service's
        client, and one without the SDK's retries for creates that must not be repeated blindly."""
        service = python_literal(view.service.name)
        return Code("{}Core", view.class_name), [
            Code("context.client({})", service), Code("context.retry"),
            Code("once=context.client({}, sdk_retries=False)", service),
        ]

    def task_class_lines(self, view: ResourceView) -> list[Code]:
        return []

    def reconciler_class_lines(self, view: ResourceView) -> list[Code]:
        service = python_literal(view.service.name)
        return [
            Code(""),
            Code("    def core(self) -> {}Core:", view.class_name),
            Code("        return {}Core(", view.class_name),
            Code("            self.context.client({}),", service),
            Code("            self.context.retry,"),
            Code("            once=self.context.client({}, sdk_retries=False),", service),
            Code("        )"),
        ]

    def shipped_files(self, shipped: Mapping[str, Any] | None, views: list[ResourceView]) -> dict[str, str]:
        return {}  # the client comes from botocore's own models


PROVIDER = AwsProvider()
