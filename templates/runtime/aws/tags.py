"""Tags written by AWS calls: in the create (EC2's TagSpecifications, a list of {Key, Value}, or
a {key: value} map such as SQS CreateQueue's ``tags``) and afterwards through the kind's tag
call, in the shape that call takes (:meth:`..contract.spec.TagsSpec.payload`: a map for SQS
TagQueue, S3 PutBucketTagging's Tagging.TagSet, Route 53's AddTags beside ResourceType)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from . import model
from .calls import AwsCalls
from .tag_reads import tag_selector

__all__ = ["create_tags", "tag", "tag_selector"]


def create_tags(core: AwsCalls, desired: Mapping[str, Any]) -> dict[str, Any]:
    """The create's members carrying the desired tags ({} when the create takes none)."""
    tags = core.spec.tags
    wanted = desired.get(tags.field) if tags else None
    if not tags or not tags.create_member or not tags.in_create or not wanted:
        return {}
    if tags.create_is_map:
        return {tags.create_member: dict(wanted)}
    create = core.spec.create.operation if core.spec.create else None
    member = core.inputs(create).get(tags.create_member) if create else None
    if model.is_string(member):
        # a string of URL-encoded pairs (S3 PutObject's Tagging: "Key1=Value1&Key2=Value2")
        return {tags.create_member: urlencode(list(wanted.items()))}
    tag_list = [{"Key": k, "Value": v} for k, v in wanted.items()]
    if tags.create_member == "TagSpecifications":
        return {"TagSpecifications": [{"ResourceType": tags.resource_type, "Tags": tag_list}]}
    return {tags.create_member: tag_list}


def tag(core: AwsCalls, actual: Mapping[str, Any], tags: Mapping[str, str]) -> None:
    """Set the managed tags that differ, through the kind's tag call."""
    spec = core.spec.tags
    if spec is None or spec.tag_operation is None or spec.selector_member is None:
        return
    have = actual.get(spec.field) or {}
    tags = {k: v for k, v in tags.items() if have.get(k) != v}  # only what differs
    if not tags:
        return
    if spec.payload_wrapper:  # a Put…Tagging call replaces the whole set: keep the others
        tags = {**have, **tags}
    key = core.spec.arn if spec.selector_is_arn and core.spec.arn else core.spec.primary[0]
    selector = tag_selector(core.spec.service, actual[key])
    params = {
        spec.selector_member: [selector] if spec.selector_is_list else selector,
        **dict(spec.selector_extra),
        spec.payload_member: spec.payload(dict(tags)),
    }
    # setting a tag to a value twice leaves it as once: safe to resend
    core.call(spec.tag_operation, params, idempotent=True)
