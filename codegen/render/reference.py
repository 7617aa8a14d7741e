"""The resource reference: one Markdown page per generated resource, one index per service and
one index of the services, rendered from the same views as the code (so a page cannot say
other than the task, the reconciler and the CRD do).

A page says what the annotated model decided and why: the identity, the operations, every
field's mutability with the rule or overlay that decided it (and, where the runtime degraded
it, what it was and why), which call carries each change, what is sensitive, and the custom
resource's keys. The pages sit outside the Python package (``docs/reference/`` in
``generated/``): the site includes them, the wheel does not carry them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import jinja2

from codegen.model import DEGRADED, Mutability, Operation
from codegen.render import crd
from codegen.render.env import render_template
from codegen.render.field_view import FieldView
from codegen.render.values import first_sentence
from codegen.render.views import ResourceView

REFERENCE = "docs/reference"  # in generated/; docs/reference links to it


@dataclass(frozen=True)
class FieldRow:
    """One field as its page's table prints it (raw text: the template escapes it)."""

    name: str
    attr: str  # the task's attribute; "" when the task does not take it (read-only, its name)
    key: str  # its key in the CRD's spec or status; "" when in neither
    mutability: str
    decided_by: str  # the provenance of the mutability: rule:<id> or overlay:<file>#<key>
    routing: str  # the call that carries a change ("" when none)
    flags: tuple[str, ...]
    description: str
    degraded: str  # what the runtime made of its class and why; "" when not degraded

    @property
    def secrecy(self) -> tuple[str, ...]:
        """The flags that say what must not be printed or cannot be compared."""
        return tuple(
            f for f in self.flags if f in ("sensitive", "write-only") or f.startswith("secret part")
        )


@dataclass(frozen=True)
class ResourcePage:
    view: ResourceView
    path: str  # the page, relative to the reference's root
    label: str  # "aws/ec2"
    task: str  # the task class, importable
    reconciler: str
    crd_name: str
    crd_version: str
    fields: tuple[FieldRow, ...]
    operations: tuple[tuple[str, Operation], ...]  # (role, operation), in the kind's life's order
    spec_keys: tuple[str, ...]  # the CRD's spec keys, as the CRD has them
    fixed_keys: tuple[str, ...]  # those the apiserver refuses to change once created
    status_keys: tuple[str, ...]

    @property
    def degraded(self) -> tuple[FieldRow, ...]:
        return tuple(f for f in self.fields if f.degraded)

    @property
    def sensitive(self) -> tuple[FieldRow, ...]:
        return tuple(f for f in self.fields if f.secrecy)

    @staticmethod
    def selectors(op: Operation) -> tuple[str, ...]:
        """The input members that select the resource: its identity, else the read's filters."""
        if op.identity_members:
            return op.identity_members
        return tuple(m for m in (op.id_filter, op.natural_filter) if m)


def resource_path(view: ResourceView) -> str:
    return f"{view.service.provider}/{view.service.name}/{view.class_name}.md"


def service_pages(
    env: jinja2.Environment,
    views: list[ResourceView],
    pinned_from: str,
    not_generated: Mapping[str, str],
) -> dict[str, str]:
    """The pages of one service's resources and the service's index: path -> Markdown."""
    if not views:
        return {}
    service = views[0].service
    pages = [_page(v) for v in views]
    files = {
        f"{REFERENCE}/{page.path}": render_template(
            env, "reference/resource.md.jinja", page=page, pinned_from=pinned_from
        )
        for page in pages
    }
    files[f"{REFERENCE}/{service.provider}/{service.name}/index.md"] = render_template(
        env,
        "reference/service_index.md.jinja",
        service=service,
        pages=pages,
        pinned_from=pinned_from,
        not_generated=sorted(not_generated.items()),
    )
    return files


@dataclass(frozen=True)
class ServiceEntry:
    provider: str
    name: str
    api_version: str
    pinned_from: str
    resources: int


def index_page(env: jinja2.Environment, entries: Iterable[ServiceEntry]) -> dict[str, str]:
    """The index of every service with a page."""
    listed = sorted(entries, key=lambda e: (e.provider, e.name))
    return {
        f"{REFERENCE}/index.md": render_template(
            env,
            "reference/index.md.jinja",
            services=listed,
            total=sum(e.resources for e in listed),
        )
    }


def _page(view: ResourceView) -> ResourcePage:
    service = view.service
    package = f"tasklayer_tasks.{service.provider}.{service.name}"
    return ResourcePage(
        view=view,
        path=resource_path(view),
        label=f"{service.provider}/{service.name}",
        task=f"{package}.{view.class_name}",
        reconciler=f"{package}.reconcilers.{view.class_name}Reconciler",
        crd_name=f"{crd.plural(str(view.class_name))}.{crd.group(view)}",
        crd_version=crd.VERSION,
        fields=tuple(_row(f, view) for f in view.fields),
        operations=_operations(view),
        **_crd_keys(view),
    )


def _row(f: FieldView, view: ResourceView) -> FieldRow:
    field = f.field
    in_crd = (f.on_task and not f.is_tags) or f in view.status_fields
    return FieldRow(
        name=field.name,
        attr=str(f.attr) if f.on_task else "",
        key=f.crd_key if in_crd else "",
        mutability=field.mutability.value.replace("_", "-"),
        decided_by=field.source,
        routing=_routing(f),
        flags=_flags(f),
        description=first_sentence(field.documentation, 300),
        degraded=field.provenance.get(DEGRADED, ""),
    )


def _routing(f: FieldView) -> str:
    field = f.field
    if field.mutability is not Mutability.MUTABLE or not field.update_operation:
        return ""
    via = field.update_operation
    if field.remove_operation:  # a membership list: items added by one call, removed by another
        via += f" / {field.remove_operation}"
    if field.update_name and field.update_name != field.name:
        via += f" (as {field.update_name})"
    return via


def _flags(f: FieldView) -> tuple[str, ...]:
    field = f.field
    flags = [
        name
        for name, on in (
            ("required", field.required),
            ("write-only", field.write_only),
            ("sensitive", field.sensitive or bool(field.sensitive_paths)),
            ("server-default", field.server_default),
            ("unordered", field.unordered),
            ("tags", f.is_tags),
        )
        if on
    ]
    if field.references:
        flags.append(f"references {field.references}")
    if field.read_operation:
        flags.append(f"read by {field.read_operation}")
    flags += [f"secret part {p}" for p in field.sensitive_paths]
    return tuple(flags)


def _operations(view: ResourceView) -> tuple[tuple[str, Operation], ...]:
    ops = view.resource.operations
    single = [("create", ops.create), ("read", ops.read), ("list", ops.list)]
    out = [(role, op) for role, op in single if op is not None]
    out += [("update", op) for op in ops.update]
    tail = [("delete", ops.delete), ("tag", ops.tag), ("untag", ops.untag)]
    return (*out, *((role, op) for role, op in tail if op is not None))


def _crd_keys(view: ResourceView) -> dict[str, tuple[str, ...]]:
    """The CRD's keys, read from the schemas the CRD is written from (a key fixed once created
    is one with a transition rule)."""
    spec = crd.spec_schema(view)["properties"]
    return {
        "spec_keys": tuple(spec),
        "fixed_keys": tuple(k for k, s in spec.items() if "x-kubernetes-validations" in s),
        "status_keys": tuple(crd.status_schema(view)["properties"]),
    }
