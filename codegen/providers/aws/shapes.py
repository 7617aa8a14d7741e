"""AWS's variant of the model's call shape: how botocore-described operations are called
beyond the neutral facts (EC2's ``{Name, Values}`` filters, attribute calls that change one
field each, ids that go in as members named differently or as lists)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from codegen.model import CallShape, Operation, TagsModel


@dataclass(frozen=True)
class AwsCallShape(CallShape):
    kind: ClassVar[str] = "aws"

    id_filter_is_list: bool = False  # VpcIds takes a list; GetRole's RoleName one value
    filters_member: str | None = None  # a list of {Name, Values} filters (EC2 "Filters")
    nested_member: str | None = None  # sub-resources read through their parent ("Routes")
    one_field_per_call: bool = False  # ModifyVpcAttribute changes one attribute per call
    # (input member, state field it is filled from): ("AssociationId", "RouteTableAssociationId")
    identity_pairs: tuple[tuple[str, str], ...] = ()
    list_members: tuple[str, ...] = ()  # identity members that take a list of the one value
    natural_filter_is_list: bool = True  # "Names" takes a list; ListHostedZonesByName's DNSName one

    @classmethod
    def selecting_like(cls, delete: Operation | None, members: tuple[str, ...]) -> AwsCallShape:
        """A new call (an update an overlay adds) selects the resource as its delete does, or
        by the primary members as they are named in the state."""
        if delete is None:
            return cls(identity_pairs=tuple(zip(members, members)))
        call = aws(delete)
        return cls(identity_pairs=call.identity_pairs, list_members=call.list_members)


def aws(op: Operation) -> AwsCallShape:
    """The AWS facts of ``op``."""
    return op.call_as(AwsCallShape)


def with_aws(op: Operation, **facts: Any) -> Operation:
    """``op`` with these AWS facts changed."""
    return op.with_call(AwsCallShape, **facts)


@dataclass(frozen=True)
class AwsTagShape(CallShape):
    """How AWS tag calls carry the tags, beyond the neutral :class:`~codegen.model.TagsModel`:
    the member holding them ("Tags", "tags", "AddTags", "Tagging"), as a ``{key: value}`` map
    rather than a list of ``{Key, Value}``, with other key / value member names (KMS TagKey /
    TagValue), inside a wrapper that replaces the whole set (S3 Tagging.TagSet); fixed members
    every tag call (and the tag read) takes beside the selector (Route 53's ResourceType); the
    member the tag read names many resources by ("ResourceIds" beside the calls' "ResourceId")."""

    kind: ClassVar[str] = "aws"

    payload_member: str = "Tags"
    payload_is_map: bool = False
    payload_wrapper: str | None = None
    key_member: str = "Key"
    value_member: str = "Value"
    create_is_map: bool = False  # the create's tags member is a {key: value} map (SQS, logs)
    selector_extra: tuple[tuple[str, str], ...] = ()  # (("ResourceType", "hostedzone"),)
    read_selector: str | None = None


def aws_tags(tags: TagsModel) -> AwsTagShape:
    """The AWS facts of a tags model."""
    return tags.call_as(AwsTagShape)
