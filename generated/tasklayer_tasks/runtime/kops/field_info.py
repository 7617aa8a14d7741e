"""What a task's fields are, for tools and people: ``Task.fields()``.

A generated task documents each field in an attribute docstring, which Python does not keep at
run time; this reads it from the class's source (as Sphinx's autodoc does) and pairs it with the
facts of the field's ``FieldSpec``, so an editor, a form or a linter can tell a create-only field
from a mutable one without parsing prose.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import textwrap
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

from ..contract.spec import Mutability


@dataclass(frozen=True)
class FieldInfo:
    """One field a task takes."""

    attr: str  # the task's attribute ("cidr_block")
    api_name: str  # the API's member ("CidrBlock"); a reconciler spec's key is ``key``
    key: str  # the custom resource's spec key ("cidrBlock")
    mutability: Mutability  # create-only, mutable (by its update call), or unknown
    required: bool  # the create needs it, and nothing fills it in
    from_task_name: bool  # the resource's own name: the task's name when not given
    references: str | None  # the kind it may hold a task of (a Subnet's vpc: "Vpc")
    write_only: bool  # sent, never read back, so never compared
    sensitive: bool  # never printed
    documentation: str  # the attribute's docstring


def task_fields(cls: type) -> tuple[FieldInfo, ...]:
    """The fields of task class ``cls``, in declaration order."""
    by_attr = {f.attr: f for f in cls.spec.fields}  # type: ignore[attr-defined]
    docs = attribute_docs(cls)
    return tuple(
        FieldInfo(
            attr=f.attr,
            api_name=f.name,
            key=f.key,
            mutability=f.mutability,
            required=f.required and not f.from_task_name,
            from_task_name=f.from_task_name,
            references=f.references,
            write_only=f.write_only,
            sensitive=f.sensitive,
            documentation=docs.get(f.attr, ""),
        )
        for d in dataclasses.fields(cls)
        if (f := by_attr.get(d.name)) is not None
    )


@cache
def attribute_docs(cls: type) -> dict[str, str]:
    """Attribute docstrings (the string right after ``attr: type = value``) of ``cls``; none
    when its source is not shipped."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    body: list[Any] = ast.parse(source).body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, after in pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs
