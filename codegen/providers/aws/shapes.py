"""AWS's variants of the model's call shapes: how botocore-described operations are called
beyond the neutral facts (EC2's ``{Name, Values}`` filters, attribute calls that change one
field each, ids that go in as members named differently or as lists), how a field travels in
them (``{"Value": v}`` wrappers, attribute reads) and how tag calls name what they tag."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from codegen.model import CallShape, Field, Operation, TagsModel


@dataclass(frozen=True)
class AwsCallShape(CallShape):
    kind: ClassVar[str] = "aws"

    id_filter_is_list: bool = False  # VpcIds takes a list; GetRole's RoleName one value
    filters_member: str | None = None  # a list of {Name, Values} filters (EC2 "Filters")
    nested_member: str | None = None  # sub-resources read through their parent ("Routes")
    wrapped_member: str | None = (
        None  # each listed item wraps the resources in this list ("Instances")
    )
    # the read's items that are this kind, where a read lists two: (("IsEgress", False),)
    selected_by: tuple[tuple[str, Any], ...] = ()
    one_field_per_call: bool = False  # ModifyVpcAttribute changes one attribute per call
    # (input member, state field it is filled from): ("AssociationId", "RouteTableAssociationId")
    identity_pairs: tuple[tuple[str, str], ...] = ()
    list_members: tuple[str, ...] = ()  # identity members that take a list of the one value
    natural_filter_is_list: bool = True  # "Names" takes a list; ListHostedZonesByName's DNSName one
    fixed_members: tuple[
        tuple[str, Any], ...
    ] = ()  # sent as they are in every call (Overwrite=True)

    @classmethod
    def selecting_like(cls, delete: Operation | None, members: tuple[str, ...]) -> AwsCallShape:
        """A new call (an update an overlay adds) selects the resource as its delete does, or
        by the primary members as they are named in the state."""
        if delete is None:
            return cls(identity_pairs=tuple(zip(members, members, strict=True)))
        call = aws(delete)
        return cls(identity_pairs=call.identity_pairs, list_members=call.list_members)


def aws(op: Operation) -> AwsCallShape:
    """The AWS facts of ``op``."""
    return op.call_as(AwsCallShape)


def with_aws(op: Operation, **facts: Any) -> Operation:
    """``op`` with these AWS facts changed."""
    return op.with_call(AwsCallShape, **facts)


@dataclass(frozen=True)
class AwsFieldShape(CallShape):
    """How AWS calls carry one field beyond the neutral :class:`~codegen.model.Field`: attribute
    calls (ModifyVpcAttribute) take it wrapped as ``{"Value": v}`` (AttributeBooleanValue), and
    the separate read (DescribeVpcAttribute) is asked for it by an ``Attribute`` name; a
    reference may take the referred resource's ARN rather than its id (``destinationArn``)."""

    kind: ClassVar[str] = "aws"

    value_wrapper: str | None = None  # updates send it as {"Value": v}
    read_attribute: str | None = (
        None  # the attribute its separate read is asked for ("enableDnsHostnames")
    )
    filter_name: str | None = None  # the {Name, Values} filter the read selects it by ("vpc-id")
    holds_arn: bool = False  # a reference sent as the referred resource's ARN, not its id


def aws_field(f: Field) -> AwsFieldShape:
    """The AWS facts of a field."""
    return f.call_as(AwsFieldShape)


@dataclass(frozen=True)
class AwsTagShape(CallShape):
    """How AWS tag calls carry the tags, beyond the neutral :class:`~codegen.model.TagsModel`:
    the member holding them ("Tags", "tags", "AddTags", "Tagging"), as a ``{key: value}`` map
    rather than a list of ``{Key, Value}``, with other key / value member names (KMS TagKey /
    TagValue), inside a wrapper that replaces the whole set (S3 Tagging.TagSet); fixed members
    every tag call (and the tag read) takes beside the selector (Route 53's ResourceType); the
    member the tag read names many resources by ("ResourceIds" beside the calls' "ResourceId").
    How the calls name the resource: EC2's TagSpecifications ``ResourceType`` in a create, a
    selector taking a list (``Resources``) or an ARN, the member an untag call takes keys in."""

    kind: ClassVar[str] = "aws"

    payload_member: str = "Tags"
    payload_is_map: bool = False
    payload_wrapper: str | None = None
    key_member: str = "Key"
    value_member: str = "Value"
    create_is_map: bool = False  # the create's tags member is a {key: value} map (SQS, logs)
    selector_extra: tuple[tuple[str, str], ...] = ()  # (("ResourceType", "hostedzone"),)
    read_selector: str | None = None
    resource_type: str | None = None  # TagSpecifications ResourceType value ("vpc")
    selector_is_list: bool = False  # the selector takes a list of ids ("Resources")
    selector_is_arn: bool = False  # tag calls take the ARN rather than the primary id
    untag_member: str | None = None  # "Tags" (EC2 DeleteTags takes [{Key}]) or "TagKeys"

    # the annotation dump (a public format) printed these before they were AWS's: resource_type
    # as a flat key of every tags model, the others nowhere, and "call" holds the rest
    DUMPED_FLAT: ClassVar[tuple[str, ...]] = ("resource_type",)
    NOT_DUMPED: ClassVar[tuple[str, ...]] = ("selector_is_list", "selector_is_arn", "untag_member")


def aws_tags(tags: TagsModel) -> AwsTagShape:
    """The AWS facts of a tags model."""
    return tags.call_as(AwsTagShape)
