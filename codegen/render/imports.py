"""What the generated modules import and print around their views: import lines computed
from what each module uses (never typed into templates), a package's lazy exports and
``__all__``, a task's ``core()`` call, how a task finds its resource."""

from __future__ import annotations

from codegen.naming import (
    Code,
    Docstring,
    PythonIdentifier,
    PythonLiteral,
    class_name,
    python_literal,
    safe_docstring,
)
from codegen.providers.base import Provider
from codegen.render import layout
from codegen.render.views import ResourceView

RECONCILER_NAMES = ("Reconciler", "Spec", "Status")


def lazy_exports(
    views: list[ResourceView], suffixes: tuple[str, ...]
) -> list[tuple[PythonLiteral, PythonLiteral]]:
    """(exported name, module) literals for a package ``__getattr__`` that imports on first use."""
    return sorted(
        (python_literal(f"{v.class_name}{suffix}"), python_literal(str(v.module)))
        for v in views
        for suffix in suffixes
    )


def type_imports(views: list[ResourceView], suffixes: tuple[str, ...]) -> list[Code]:
    """A package's imports for type checkers (inside ``if TYPE_CHECKING:``), one per module."""
    return [
        line
        for v in views
        for line in layout.from_import(
            Code(".{}", v.module), [f"{v.class_name}{s}" for s in suffixes], indent=4
        )
    ]


def exported(views: list[ResourceView], suffixes: tuple[str, ...]) -> list[Code]:
    """A package's ``__all__``, sorted."""
    names = sorted(f"{v.class_name}{suffix}" for v in views for suffix in suffixes)
    return layout.string_list(Code("__all__"), [python_literal(n) for n in names])


def _names(names: list[str]) -> Code:
    """Constant names, sorted, for an import line."""
    return Code.listing(", ", [PythonIdentifier(n) for n in sorted(names)])


def _parent_spec(module: PythonIdentifier) -> PythonIdentifier:
    """The name a core imports its owner parent's ``SPEC`` as (``VPC_SPEC``)."""
    return PythonIdentifier(f"{module.upper()}_SPEC")


def owner_parent(
    view: ResourceView, modules: dict[str, PythonIdentifier]
) -> tuple[PythonLiteral, PythonIdentifier] | None:
    """(field literal, spec constant) of the parent spec an untagged kind is owned through."""
    if view.owner_parent is None:
        return None
    member, resource = view.owner_parent
    return python_literal(member), _parent_spec(modules[resource])


def core_imports(
    view: ResourceView, cloud: Provider, modules: dict[str, PythonIdentifier]
) -> list[Code]:
    specs = ["CallSpec", "FieldSpec", "Mutability", "ResourceSpec"]
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
    if view.versioning_arguments() is not None:
        specs.append("VersionSpec")
    if view.change_batch_arguments() is not None:
        specs.append("ChangeBatchSpec")
    if view.listing_arguments() is not None and "ReadSpec" not in specs:
        specs.append("ReadSpec")
    lines = cloud.core_imports(view) + [
        Code("from ....runtime.contract.retry import RetryPolicy"),
        *layout.from_import(Code("....runtime.contract.spec"), specs),
    ]
    if view.owner_parent is not None:
        module = modules[view.owner_parent[1]]
        lines.append(Code("from .{} import SPEC as {}", module, _parent_spec(module)))
    return lines


def task_imports(
    view: ResourceView, modules: dict[str, PythonIdentifier], cloud: Provider
) -> list[Code]:
    annotations = " ".join(f.annotation for f in view.task_fields)
    typing = ["TYPE_CHECKING", "ClassVar"] + (["Any"] if "Any" in annotations else [])
    standard, runtime, own = cloud.task_imports(view)
    lines = []
    if "datetime." in annotations:
        lines += [Code("import datetime")]
    lines += [Code("from dataclasses import dataclass"), *standard]
    lines += [
        Code("from typing import {}", _names(typing)),
        Code(""),
        *runtime,
        Code("from ...runtime.contract.spec import ResourceSpec"),
        *own,
        Code(""),
        Code("if TYPE_CHECKING:"),
        Code("    from ...runtime.contract.context import Context"),
    ]
    for ref in view.references:
        module = next(m for name, m in modules.items() if class_name(name) == ref)
        lines.append(Code("    from .{} import {}", module, ref))
    return lines


def reconciler_imports(view: ResourceView, cloud: Provider) -> list[Code]:
    annotations = " ".join(f.plain_type for f in view.fields)
    typing = ["ClassVar", "TypedDict"] + (["Any"] if "Any" in annotations else [])
    standard, runtime, own = cloud.reconciler_imports(view)
    lines = [Code("import datetime"), Code("")] if "datetime." in annotations else []
    return lines + [
        *standard,
        Code("from typing import {}", _names(typing)),
        Code(""),
        *runtime,
        Code("from ....runtime.contract.spec import ResourceSpec"),
        *own,
    ]


def core_call(view: ResourceView, cloud: Provider) -> list[Code]:
    """The lines of the task's ``return Core(...)``, at the method body's indent."""
    callee, arguments = cloud.task_core(view)
    return layout.call(Code("return {}", callee), arguments, indent=8)


def find_how(view: ResourceView) -> Docstring:
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
    return safe_docstring(text)
