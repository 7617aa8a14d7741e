"""What a create needs, checked from the declared values alone before any call
(docs/architecture.md, "create-only check").

A field the create requires and nobody set would be refused by the cloud only when that create
is sent: after the resources before it were created (a VPC and a subnet made, then the security
group refused). A face checks its whole graph first, so the error comes before any call and names
every missing field of every resource at once. A field and the fields it repeats in another form
(a security group rule's ``ip_permissions`` beside ``from_port``) are not both set in a create (a
change to an existing rule is refused as any create-only change is).

``values``: the face's declared values by field attribute, for the fields it declares.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.errors import MissingFieldsError, TaskError
from ..contract.spec import ResourceSpec


def missing_fields(spec: ResourceSpec, values: Mapping[str, Any]) -> list[str]:
    """The attributes the create requires that are not set and that nothing else fills in: a
    reference holds its resource, the face's name fills the resource's own name, tags and tokens
    are the engine's."""
    return [
        f.attr
        for f in spec.fields
        if f.required and not f.from_task_name and f.attr in values and values[f.attr] is None
    ]


def check_one_form(spec: ResourceSpec, key: str, values: Mapping[str, Any]) -> None:
    """A field and the fields it repeats in another form are not both set: which one the create
    sends would be a guess."""
    for f in spec.fields:
        others = [spec.field(n).attr for n in f.other_form_of]
        given = [a for a in others if values.get(a) is not None]
        if given and values.get(f.attr) is not None:
            raise TaskError(
                f"{key}: give {f.attr} or {', '.join(others)}, not both"
                f" ({', '.join(given)} set beside {f.attr})"
            )


def require(missing: Mapping[str, list[str]]) -> None:
    """One error naming every missing field of every resource (by its key), when any is."""
    found = {key: fields for key, fields in missing.items() if fields}
    if found:
        raise MissingFieldsError(found)
