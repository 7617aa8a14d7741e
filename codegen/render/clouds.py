"""What differs between clouds when a resource is rendered: the view class, the core
template, the bases the task and reconciler extend, how they reach their client, and what
their modules import. Everything else is one set of templates."""

from __future__ import annotations

from dataclasses import dataclass

from codegen.render.gcp_views import GcpResourceView
from codegen.render.views import ResourceView


@dataclass(frozen=True)
class Cloud:
    provider: str
    view_class: type[ResourceView]
    core_template: str
    task_base: str
    reconciler_base: str
    has_document: bool  # ships a discovery document the client is built from

    def task_core(self, view: ResourceView) -> str:
        """The expression a task's ``core()`` returns."""
        core = f"{view.class_name}Core"
        if self.has_document:
            return f"{core}(context.gcp_client(str(DOCUMENT)), self.scope(context), context.retry)"
        service = repr(view.service.name)
        return f"{core}(context.client({service}), context.retry, once=context.client({service}, sdk_retries=False))"

    def task_imports(self, view: ResourceView) -> list[str]:
        base = "from ...runtime.gcp_task import GcpTask" if self.has_document else ""
        task = "from ...runtime.task import Changes, Task" if self.has_document else (
            "from ...runtime.aws_task import AwsTask\nfrom ...runtime.task import Changes, Task")
        core = f"from .core.{view.module} import {'DOCUMENT, ' if self.has_document else ''}SPEC, {view.class_name}Core"
        return [line for line in (base, task, core) if line]

    def reconciler_imports(self, view: ResourceView) -> list[str]:
        if self.has_document:
            return ["from ....runtime.gcp_task import GcpReconciler",
                    f"from ..core.{view.module} import DOCUMENT, SPEC"]
        return ["from ....runtime.aws_task import AwsReconciler",
                f"from ..core.{view.module} import SPEC, {view.class_name}Core"]


CLOUDS = {
    "aws": Cloud("aws", ResourceView, "aws/core.py.jinja", "AwsTask", "AwsReconciler", has_document=False),
    "gcp": Cloud("gcp", GcpResourceView, "gcp/core.py.jinja", "GcpTask", "GcpReconciler", has_document=True),
}
