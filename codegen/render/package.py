"""Render the generated package: the runtime (copied verbatim), one core and one kOps-style
task per selected resource, and the package files. Returns file path -> source text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import jinja2

from codegen.errors import TasklayerError
from codegen.inputs import Inputs
from codegen.model import Service
from codegen.naming import (
    Docstring,
    PythonIdentifier,
    safe_docstring,
)
from codegen.providers.base import Provider
from codegen.render import crd, imports, reference
from codegen.render.capability import runtime_service
from codegen.render.contract import FIELD_SPEC, SpecType, runtime_type
from codegen.render.env import make_environment, render_template
from codegen.render.names import check_resources, check_service_name
from codegen.render.runtime_files import runtime_files
from codegen.render.verify import check_modules
from codegen.render.views import ResourceView

PACKAGE = "tasklayer_tasks"
GOOGLEAPICLIENT_FLOOR = "2.100"
METADATA_FILE = "tasklayer-generate-metadata.json"  # written by codegen.metadata
CRDS = "crds"  # inside the package, so the wheel (flit packs only the module) carries them


@dataclass(frozen=True)
class PackageInfo:
    """What the generated package's metadata declares. ``version`` is the one the schema
    manifest records (``tasklayer drift --bump`` sets it); ``botocore_floor`` is the botocore
    the AWS schemas were pinned from: botocore validates every call against its own installed
    models, so an older one refuses members the generated calls send (botocore 1.34.0 refuses
    ``CreateRouteTable``'s ``ClientToken``), and tests/test_botocore_range.py proves the floor
    and the newest botocore on the index."""

    version: str
    botocore_floor: str

    @classmethod
    def of(cls, inputs: Inputs) -> PackageInfo:
        return cls(
            version=inputs.package_version,
            botocore_floor=inputs.sdk_versions.get("botocore", "unknown"),
        )


@dataclass(frozen=True)
class Selection:
    """A service and which of its resources to render (from its overlay's ``generate``);
    ``pinned_from`` names the SDK its schema came from (``botocore 1.43.11``)."""

    service: Service
    resources: tuple[str, ...]
    provider: Provider  # the service's cloud: its views, templates and runtime modules
    pinned_from: str = ""
    # what the provider ships beside the code (GCP: its document)
    shipped: Mapping[str, Any] | None = None
    # resource -> why it is not generated (generate: all)
    not_generated: Mapping[str, str] = field(default_factory=dict)
    whole_service: bool = False  # selected by `generate: all`: an unrenderable resource is left out

    @property
    def label(self) -> str:
        s = self.service
        sdk = f" ({self.pinned_from})" if self.pinned_from else ""
        return f"{s.provider}/{s.name} {s.api_version}{sdk}"


def render_package(
    selections: list[Selection],
    templates_dir: Path,
    package: PackageInfo,
    sources: list[str] | None = None,
    not_rendered: dict[str, dict[str, str]] | None = None,
) -> dict[str, str]:
    """``sources``: the services the whole package is made of, when only some of them are
    rendered now (``generate --service``); default: the selections. ``not_rendered`` collects,
    for a ``generate: all`` selection, the resources that cannot be rendered ("aws/ec2" ->
    {resource: why}); any other selection stops at the first problem."""
    env = make_environment(templates_dir)
    field_spec = runtime_type(templates_dir, FIELD_SPEC)
    held = {f"{s.service.provider}/{s.service.name}" for s in selections}
    files = runtime_files(templates_dir, PACKAGE, held)
    # service labels carry schema text (names, versions): escaped once, as prose
    listed = safe_docstring(
        ", ".join(sources if sources is not None else [s.label for s in selections])
    )
    files["pyproject.toml"] = render_template(
        env,
        "package/pyproject.toml.jinja",
        botocore_floor=safe_docstring(package.botocore_floor),
        googleapiclient_floor=safe_docstring(GOOGLEAPICLIENT_FLOOR),
        version=safe_docstring(package.version),
        metadata_file=safe_docstring(METADATA_FILE),
    )
    files["README.md"] = render_template(env, "package/README.md.jinja", sources=listed)
    files["LICENSE"] = (templates_dir / "package" / "LICENSE").read_text(encoding="utf-8")
    files[f"{PACKAGE}/__init__.py"] = render_template(env, "package/init.py.jinja", sources=listed)
    files[f"{PACKAGE}/py.typed"] = ""
    providers = sorted({s.service.provider for s in selections})
    for provider in providers:
        files[f"{PACKAGE}/{provider}/__init__.py"] = (
            f'"""Generated {provider} services; do not edit."""\n'
        )
    services = []
    for selection in selections:
        rendered, dropped = _service_dropping_failures(env, selection, field_spec)
        files.update(rendered)
        if dropped and not_rendered is not None:
            not_rendered[f"{selection.service.provider}/{selection.service.name}"] = dropped
        if kept := len([n for n in selection.resources if n not in dropped]):
            s = selection.service
            entry = reference.ServiceEntry(
                s.provider, s.name, s.api_version, selection.pinned_from, kept
            )
            services.append(entry)
    files.update(reference.index_page(env, services))
    return files


class _ResourceFailed(Exception):
    def __init__(self, resource: str, error: TasklayerError) -> None:
        super().__init__(resource)
        self.resource, self.error = resource, error


def _service_dropping_failures(
    env: jinja2.Environment, selection: Selection, field_spec: SpecType
) -> tuple[dict[str, str], dict[str, str]]:
    """The service's files; under ``generate: all`` a resource that cannot be rendered (a name
    collision, an unrepresentable shape) is left out with the reason, and the rest rendered
    again without it (its neighbours' references to it change)."""
    dropped: dict[str, str] = {}
    while True:
        kept = tuple(n for n in selection.resources if n not in dropped)
        if not kept:
            return {}, dropped
        try:
            # what is left out, now with why, is listed on the service's reference index
            left_out = {**selection.not_generated, **dropped}
            chosen = replace(selection, resources=kept, not_generated=left_out)
            return _service(env, chosen, field_spec), dropped
        except _ResourceFailed as failed:
            if not selection.not_generated and not selection.whole_service:
                raise failed.error from None
            dropped[failed.resource] = f"cannot render: {failed.error.reason}"


def _service(env: jinja2.Environment, selection: Selection, field_spec: SpecType) -> dict[str, str]:
    service = runtime_service(selection.service)
    pinned_from = safe_docstring(f" ({selection.pinned_from})" if selection.pinned_from else "")
    cloud = selection.provider
    check_service_name(service)
    check_resources(service, selection.resources)
    generated = frozenset(selection.resources)
    views = [
        cloud.view_class(service.resource(n), service, generated, field_spec)
        for n in selection.resources
    ]
    base = f"{PACKAGE}/{service.provider}/{service.name}"
    modules = {v.name: v.module for v in views}
    files: dict[str, str] = {}
    for view in views:  # each resource first: a problem is then blamed on the resource that has it
        try:
            files.update(
                check_modules(
                    _resource_files(env, selection, view, cloud, modules, base, pinned_from)
                )
            )
        except TasklayerError as err:
            raise _ResourceFailed(view.name, err) from None
    service_files = {
        f"{base}/__init__.py": render_template(
            env,
            "service_init.py.jinja",
            service=service,
            type_imports=imports.type_imports(views, ("",)),
            exported=imports.exported(views, ("",)),
            lazy=imports.lazy_exports(views, ("",)),
        ),
        f"{base}/core/__init__.py": (
            f'"""Cores of the {service.name} resources; generated, do not edit."""\n'
        ),
        f"{base}/reconcilers/__init__.py": render_template(
            env,
            "reconcilers_init.py.jinja",
            service=service,
            type_imports=imports.type_imports(views, imports.RECONCILER_NAMES),
            exported=imports.exported(views, imports.RECONCILER_NAMES),
            lazy=imports.lazy_exports(views, imports.RECONCILER_NAMES),
        ),
    }
    service_files.update(
        {
            f"{base}/{name}": text
            for name, text in cloud.shipped_files(selection.shipped, views).items()
        }
    )
    if views:
        service_files[f"{base}/operator.py"] = render_template(
            env,
            "operator.py.jinja",
            service=service,
            views=views,
            package=PythonIdentifier(PACKAGE),
            group=crd.group(views[0]),
            version=crd.VERSION,
            plurals=[(crd.plural(str(v.class_name)), v) for v in views],
        )
    pages = reference.service_pages(env, views, selection.pinned_from, selection.not_generated)
    return {**check_modules(service_files), **files, **pages}


def _resource_files(
    env: jinja2.Environment,
    selection: Selection,
    view: ResourceView,
    cloud: Provider,
    modules: dict[str, PythonIdentifier],
    base: str,
    pinned_from: Docstring,
) -> dict[str, str]:
    """One resource's core, reconciler and task modules, and its custom resource definition."""
    service = selection.service
    crds = f"{PACKAGE}/{CRDS}/{service.provider}/{service.name}"
    return {
        f"{crds}/{crd.plural(str(view.class_name))}.yaml": crd.crd_yaml(view),
        f"{base}/core/{view.module}.py": render_template(
            env,
            cloud.core_template,
            service=service,
            view=view,
            core_imports=imports.core_imports(view, cloud, modules),
            owner_parent=imports.owner_parent(view, modules),
            pinned_from=pinned_from,
        ),
        f"{base}/reconcilers/{view.module}.py": render_template(
            env,
            "reconciler.py.jinja",
            service=service,
            view=view,
            cloud=cloud,
            reconciler_imports=imports.reconciler_imports(view, cloud),
            pinned_from=pinned_from,
        ),
        f"{base}/{view.module}.py": render_template(
            env,
            "kops_task.py.jinja",
            service=service,
            view=view,
            cloud=cloud,
            task_imports=imports.task_imports(view, modules, cloud),
            find_how=imports.find_how(view),
            pinned_from=pinned_from,
            core_call=imports.core_call(view, cloud),
        ),
    }
