"""What differs between clouds when a resource is rendered: the view class, the core
template, the bases the task and reconciler extend, how they reach their client, and what
their modules import. Everything else is one set of templates."""

from __future__ import annotations

from dataclasses import dataclass

from codegen.naming import Code, PythonIdentifier, python_literal
from codegen.render.gcp_views import GcpResourceView
from codegen.render.views import ResourceView


@dataclass(frozen=True)
class Cloud:
    provider: str
    view_class: type[ResourceView]
    core_template: str
    task_base: PythonIdentifier
    reconciler_base: PythonIdentifier
    has_document: bool  # ships a discovery document the client is built from

    def task_core(self, view: ResourceView) -> Code:
        """The expression a task's ``core()`` returns."""
        if self.has_document:
            return Code("{}Core(context.gcp_client(str(DOCUMENT)), self.scope(context), context.retry, "
                        "operation_timeout=context.operation_timeout)", view.class_name)
        service = python_literal(view.service.name)
        return Code("{}Core(context.client({}), context.retry, once=context.client({}, sdk_retries=False))",
                    view.class_name, service, service)

    def task_imports(self, view: ResourceView) -> list[Code]:
        if self.has_document:
            return [Code("from ...runtime.gcp_task import GcpTask"),
                    Code("from .core.{} import DOCUMENT, SPEC, {}Core", view.module, view.class_name)]
        return [Code("from ...runtime.aws_task import AwsTask"),
                Code("from .core.{} import SPEC, {}Core", view.module, view.class_name)]

    def reconciler_imports(self, view: ResourceView) -> list[Code]:
        if self.has_document:
            return [Code("from ....runtime.gcp_task import GcpReconciler"),
                    Code("from ..core.{} import DOCUMENT, SPEC", view.module)]
        return [Code("from ....runtime.aws_task import AwsReconciler"),
                Code("from ..core.{} import SPEC, {}Core", view.module, view.class_name)]


CLOUDS = {
    "aws": Cloud("aws", ResourceView, "aws/core.py.jinja", PythonIdentifier("AwsTask"),
                 PythonIdentifier("AwsReconciler"), has_document=False),
    "gcp": Cloud("gcp", GcpResourceView, "gcp/core.py.jinja", PythonIdentifier("GcpTask"),
                 PythonIdentifier("GcpReconciler"), has_document=True),
}
