"""What botocore's service model says about an operation, read through its typed API
(``client.meta.service_model.operation_model(name)``: input and output shapes, required and
idempotency-token members), in one place.

A client that is not a botocore client (a test's stand-in) has no model: every answer here is
then the empty one ("nothing is known"), never a guess (docs/architecture.md, "The AWS adapter").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from botocore import xform_name
from botocore.client import BaseClient
from botocore.model import ListShape, OperationModel, Shape, StructureShape


def operation(client: Any, name: str) -> OperationModel | None:
    """The operation's model, or None when the client carries no service model."""
    if not isinstance(client, BaseClient):
        return None
    return client.meta.service_model.operation_model(name)


def input_members(client: Any, name: str) -> Mapping[str, Shape]:
    """The members the operation takes, as botocore shapes ({} when nothing is known)."""
    model = operation(client, name)
    shape = model.input_shape if model is not None else None
    return shape.members if isinstance(shape, StructureShape) else {}


def required_inputs(client: Any, name: str) -> tuple[str, ...]:
    """The members the operation cannot be called without (() when nothing is known)."""
    model = operation(client, name)
    shape = model.input_shape if model is not None else None
    return tuple(shape.required_members) if isinstance(shape, StructureShape) else ()


def idempotency_members(client: Any, name: str) -> list[str]:
    """The members botocore fills with an idempotency token ([] when nothing is known)."""
    model = operation(client, name)
    return list(model.idempotent_members) if model is not None else []


def output_member(client: Any, name: str, member: str) -> Shape | None:
    """The shape of one member of the operation's answer (None when nothing is known)."""
    model = operation(client, name)
    shape = model.output_shape if model is not None else None
    if not isinstance(shape, StructureShape):
        return None
    found: Shape | None = shape.members.get(member)
    return found


def listed_items(client: Any, read: str, taken_by: str, member: str) -> tuple[str, str] | None:
    """Where ``read``'s answer lists the items ``taken_by`` takes as ``member``: (the answer's
    list, the member of its items holding one), found by shape (DescribeTargetHealth answers
    ``TargetHealthDescriptions[].Target``, each a ``TargetDescription`` as RegisterTargets'
    ``Targets`` take them); None when the answer holds no such list or nothing is known."""
    wanted = item_shape(input_members(client, taken_by).get(member))
    model = operation(client, read)
    shape = model.output_shape if model is not None else None
    if wanted is None or not isinstance(shape, StructureShape):
        return None
    for name, listed in shape.members.items():
        item = item_shape(listed)
        if not isinstance(listed, ListShape) or not isinstance(item, StructureShape):
            continue
        for inner, inner_shape in item.members.items():
            if inner_shape.name == wanted.name:
                return name, inner
    return None


def requires_members(shape: Shape | None) -> bool:
    """A structure that cannot be whole without some member (an AnalyticsConfiguration's Id)."""
    return isinstance(shape, StructureShape) and bool(shape.required_members)


def item_shape(shape: Shape | None) -> Shape | None:
    """The shape of one item: a list's member shape, else the shape itself."""
    return shape.member if isinstance(shape, ListShape) else shape


def is_string(shape: Shape | None) -> bool:
    """The member is sent as a plain string (S3 PutObject's ``Tagging``: URL-encoded pairs)."""
    return shape is not None and shape.type_name == "string"


def method(client: Any, name: str) -> Callable[..., Any]:
    """The client's method for an API operation, by botocore's Python name for it
    (``DescribeVpcs`` -> ``describe_vpcs``): the one dynamic dispatch of the AWS adapter."""
    found: Callable[..., Any] = getattr(client, xform_name(name))
    return found
