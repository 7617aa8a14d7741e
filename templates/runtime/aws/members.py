"""Membership lists read on their own: the items a pair of calls adds and removes (RegisterTargets
/ DeregisterTargets, a target group's targets) that the kind's main read does not return, read
by the field's ``read_operation`` (DescribeTargetHealth) and taken from its answer where the
model says the items are (:func:`.model.listed_items`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.errors import MalformedResponseError
from ..contract.spec import FieldSpec
from . import model
from .calls import AwsCalls

ADD_REMOVE = "add_remove"


def is_listed_membership(f: FieldSpec) -> bool:
    """A membership list with a read of its own that is not an attribute read (those take an
    ``Attribute``) nor the tags' (read by :mod:`.tag_reads`)."""
    return bool(
        f.read_operation
        and not f.read_attribute
        and not f.is_tags
        and f.update_kind == ADD_REMOVE
        and f.update_operation
    )


def read_members(core: AwsCalls, f: FieldSpec, ids: Mapping[str, Any]) -> list[Any]:
    """The list as it is now: one read naming the resource, every item its answer lists."""
    assert f.read_operation and f.update_operation
    where = model.listed_items(core.client, f.read_operation, f.update_operation, f.name)
    if where is None:
        raise MalformedResponseError(f.read_operation, "/", f"no list of {f.name} in the answer")
    listed, member = where
    response = core.call(f.read_operation, dict(ids), idempotent=True)
    items = response.get(listed) or []
    if not isinstance(items, list):
        raise MalformedResponseError(f.read_operation, f"/{listed}", "expected a list")
    found = []
    for item in items:
        value = item.get(member) if isinstance(item, Mapping) else None
        if not isinstance(value, Mapping):
            raise MalformedResponseError(
                f.read_operation, f"/{listed}/{member}", "expected an object"
            )
        found.append(dict(value))
    return found
