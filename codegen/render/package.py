"""Render the generated package: the runtime (copied verbatim), one core and one kOps-style
task per selected resource, and the package files. Returns file path -> source text."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2

from codegen.model import Service
from codegen.naming import class_name
from codegen.render import crd
from codegen.render.env import make_environment, render_template
from codegen.render.clouds import CLOUDS, Cloud
from codegen.render.gcp_views import trimmed_document
from codegen.render.views import ResourceView, python_literal

PACKAGE = "tasklayer_tasks"
BOTOCORE_FLOOR = "1.34"


@dataclass(frozen=True)
class Selection:
    """A service and which of its resources to render (from its overlay's ``generate``)."""

    service: Service
    resources: tuple[str, ...]


def render_package(selections: list[Selection], templates_dir: Path) -> dict[str, str]:
    env = make_environment(templates_dir)
    files = dict(_runtime(templates_dir))
    sources = [f"{s.service.provider}/{s.service.name} {s.service.api_version}" for s in selections]
    files["pyproject.toml"] = render_template(env, "package/pyproject.toml.jinja", botocore_floor=BOTOCORE_FLOOR)
    files["README.md"] = render_template(env, "package/README.md.jinja", sources=sources)
    files[f"{PACKAGE}/__init__.py"] = render_template(env, "package/init.py.jinja", sources=sources)
    files[f"{PACKAGE}/py.typed"] = ""
    providers = sorted({s.service.provider for s in selections})
    for provider in providers:
        files[f"{PACKAGE}/{provider}/__init__.py"] = f'"""Generated {provider} services; do not edit."""\n'
    for selection in selections:
        files.update(_service(env, selection))
    return files


def _runtime(templates_dir: Path) -> dict[str, str]:
    runtime = templates_dir / "runtime"
    return {
        f"{PACKAGE}/runtime/{path.name}": path.read_text(encoding="utf-8")
        for path in sorted(runtime.glob("*.py"))
    }


def _service(env: jinja2.Environment, selection: Selection) -> dict[str, str]:
    service = selection.service
    cloud = CLOUDS[service.provider]
    generated = frozenset(selection.resources)
    views = [cloud.view_class(service.resource(n), service, generated) for n in selection.resources]
    base = f"{PACKAGE}/{service.provider}/{service.name}"
    files = {
        f"{base}/__init__.py": render_template(
            env, "service_init.py.jinja", service=service, views=views,
            exported=sorted(str(v.class_name) for v in views),
        ),
        f"{base}/core/__init__.py": f'"""Cores of the {service.name} resources; generated, do not edit."""\n',
        f"{base}/reconcilers/__init__.py": render_template(
            env, "reconcilers_init.py.jinja", service=service, views=views,
            exported=sorted(f"{v.class_name}{suffix}" for v in views for suffix in ("Reconciler", "Spec", "Status")),
        ),
    }
    if cloud.has_document and service.source_files:
        files[f"{base}/discovery.json"] = trimmed_document(service.source_files[0], views)  # type: ignore[arg-type]
    if views:
        files[f"{base}/operator.py"] = render_template(
            env, "operator.py.jinja", service=service, views=views, package=PACKAGE,
            group=crd.group(views[0]), version=crd.VERSION,
            plurals=[(crd.plural(str(v.class_name)), v) for v in views],
        )
    for view in views:
        files[f"crds/{service.provider}/{service.name}/{crd.plural(str(view.class_name))}.yaml"] = crd.crd_yaml(view)
    modules = {v.name: v.module for v in views}
    for view in views:
        files[f"{base}/core/{view.module}.py"] = render_template(
            env, cloud.core_template, service=service, view=view, core_imports=_core_imports(view, cloud, modules),
            owner_parent=_owner_parent(view, modules),
        )
        files[f"{base}/reconcilers/{view.module}.py"] = render_template(
            env, "reconciler.py.jinja", service=service, view=view, cloud=cloud,
            reconciler_imports=_reconciler_imports(view, cloud),
        )
        files[f"{base}/{view.module}.py"] = render_template(
            env, "kops_task.py.jinja", service=service, view=view, cloud=cloud,
            task_imports=_task_imports(view, modules, cloud), find_how=_find_how(view),
        )
    return files


def _owner_parent(view: ResourceView, modules: dict[str, str]) -> tuple[str, str] | None:
    """(field literal, spec constant) of the parent spec an untagged kind is owned through."""
    if view.owner_parent is None:
        return None
    member, resource = view.owner_parent
    return python_literal(member), f"{modules[resource].upper()}_SPEC"


def _core_imports(view: ResourceView, cloud: Cloud, modules: dict[str, str]) -> list[str]:
    specs = ["CallSpec", "FieldSpec", "ResourceSpec"]
    if view.owner_parent is not None:
        specs.append("ParentSpec")
    if view.create_arguments() is not None:
        specs.append("CreateSpec")
    if view.read_arguments() is not None:
        specs.append("ReadSpec")
    if view.tags_arguments() is not None:
        specs.append("TagsSpec")
    if view.readiness_arguments() is not None:
        specs.append("ReadinessSpec")
    if cloud.has_document:
        head = ["from collections.abc import Mapping", "from pathlib import Path", "from typing import Any", "",
                "from ....runtime.gcp_core import GcpCore"]
    else:
        head = ["from typing import Any", "", "from ....runtime.aws_core import AwsCore"]
    lines = head + [
        "from ....runtime.retry import RetryPolicy",
        f"from ....runtime.spec import {', '.join(sorted(specs))}",
    ]
    if view.owner_parent is not None:
        module = modules[view.owner_parent[1]]
        lines.append(f"from .{module} import SPEC as {module.upper()}_SPEC")
    return lines


def _task_imports(view: ResourceView, modules: dict[str, str], cloud: Cloud) -> list[str]:
    annotations = " ".join(f.annotation for f in view.task_fields)
    typing = ["TYPE_CHECKING", "ClassVar"] + (["Any"] if "Any" in annotations else [])
    lines = []
    if "datetime." in annotations:
        lines += ["import datetime"]
    lines += ["from dataclasses import dataclass"]
    if cloud.has_document:
        lines += ["from pathlib import Path"]
    lines += [
        f"from typing import {', '.join(sorted(typing))}",
        "",
        "from ...runtime.errors import CannotChangeFieldError",
        "from ...runtime.spec import ResourceSpec",
        *cloud.task_imports(view),
        "",
        "if TYPE_CHECKING:",
        "    from ...runtime.context import Context",
    ]
    for ref in view.references:
        module = next(m for name, m in modules.items() if class_name(name) == ref)
        lines.append(f"    from .{module} import {ref}")
    return lines


def _reconciler_imports(view: ResourceView, cloud: Cloud) -> list[str]:
    annotations = " ".join(f.plain_type for f in view.fields)
    typing = ["ClassVar", "TypedDict"] + (["Any"] if "Any" in annotations else [])
    lines = ["import datetime", ""] if "datetime." in annotations else []
    if cloud.has_document:
        lines += ["from pathlib import Path"]
    return lines + [
        f"from typing import {', '.join(sorted(typing))}",
        "",
        *cloud.reconciler_imports(view)[:1],
        "from ....runtime.spec import ResourceSpec",
        *cloud.reconciler_imports(view)[1:],
    ]


def _find_how(view: ResourceView) -> str:
    ident = view.resource.identity
    how = []
    if ident.primary:
        how.append(f"{', '.join(ident.primary)}")
    natural = [("its Name tag" if n == "tag:Name" else n) for n in ident.natural]
    if natural and tuple(natural) != ident.primary:
        how.append(", ".join(natural))
    text = " else by ".join(how) or "no key"
    if ident.parent:
        text += f", within its {', '.join(ident.parent)}"
    return text
