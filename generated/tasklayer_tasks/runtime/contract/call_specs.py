"""How a kind's calls are made, as data: its read, its create, its update and delete calls, its
tags (the parts of a :class:`~.spec.ResourceSpec` that name calls; ``spec`` re-exports them).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CallSpec", "CreateSpec", "ReadSpec", "TagsSpec"]


@dataclass(frozen=True)
class ReadSpec:
    operation: str
    output_member: str | None  # None: the output is the resource itself
    output_is_list: bool
    id_filter: str | None  # input member selecting by id ("VpcIds", "RoleName")
    id_filter_is_list: bool
    filters_member: str | None  # EC2-style [{Name, Values}]
    natural_filter: str | None  # input member selecting by natural key ("Names")
    nested_member: str | None  # sub-resources listed inside their parent ("Routes")
    required: tuple[str, ...] = ()  # required input members (Get-style reads), filled from state
    identity: tuple[tuple[str, str], ...] = ()  # GCP: (parameter, "@scope" or state field)
    natural_filter_is_list: bool = True  # "Names" takes a list; DNSName one value
    wrapped_member: str | None = None  # AWS: each listed item wraps the resources ("Instances")
    # the listed items that are this kind, where one read lists two (members and their values:
    # (("IsEgress", False),) for a security group's ingress rules); () when it lists one
    selected_by: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class CreateSpec:
    operation: str
    output_member: str | None
    output_is_list: bool
    id_member: str | None  # where the new id is in the output item
    idempotency_token: str | None
    identity: tuple[tuple[str, str], ...] = ()  # GCP: the scope parameters of the create
    body_member: str | None = None  # GCP resource-name APIs: the body wraps the resource
    id_param: str | None = None  # ... and names it with this member or parameter ("accountId")
    id_in_query: bool = False
    returned_once: tuple[
        str, ...
    ] = ()  # answer members the cloud hands out only here (a private key)
    # another create operation, used when an input only it takes is set: (member, operation)
    alternatives: tuple[tuple[str, str], ...] = ()
    # the token as the reads return it (HostedZone.CallerReference), and the create's error
    # codes that say a request with the token already committed (HostedZoneAlreadyExists)
    token_read: str | None = None
    token_taken: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallSpec:
    """An update or delete call: the operation and how it names the resource, as
    (input member, state field) pairs."""

    operation: str
    identity: tuple[tuple[str, str], ...]
    one_field_per_call: bool = False
    list_members: tuple[str, ...] = ()  # identity members the call takes as a list
    fingerprints: tuple[str, ...] = ()  # GCP: optimistic-lock fields the call must send back
    body_member: str | None = None  # GCP: the body wraps the resource in this member
    mask_param: str | None = None  # GCP: the changed fields are listed in this ("updateMask")
    mask_in_body: bool = False
    idempotency_token: str | None = None  # the parameter that makes a retry of this call safe
    required: tuple[str, ...] = ()  # body members the call requires, sent from the state as read
    item_keys: tuple[tuple[str, str], ...] = ()  # list members whose items are sent as {key: value}
    fixed: tuple[tuple[str, object], ...] = ()  # AWS: sent as they are (a Put's Overwrite=True)

    def identity_params(self, state: dict[str, object] | object) -> dict[str, object]:
        assert isinstance(state, dict)
        params: dict[str, object] = {}
        for member, field in self.identity:
            if state.get(field) is not None:
                value = state[field]
                params[member] = [value] if member in self.list_members else value
        return params


@dataclass(frozen=True)
class TagsSpec:
    field: str
    create_member: str | None
    resource_type: str | None
    tag_operation: str | None
    selector_member: str | None
    selector_is_list: bool
    selector_is_arn: bool
    # how the tag call carries tags: its member, a {key: value} map (SQS TagQueue, logs) or a
    # list of {key_member, value_member} (KMS TagKey / TagValue), inside a wrapper that replaces
    # the whole set (S3 Tagging.TagSet); fixed members beside the selector (route53's
    # ResourceType); the create's member as a map (CreateQueue's ``tags``)
    payload_member: str = "Tags"
    payload_is_map: bool = False
    payload_wrapper: str | None = None
    key_member: str = "Key"
    value_member: str = "Value"
    selector_extra: tuple[tuple[str, str], ...] = ()
    create_is_map: bool = False
    # the read returns no tags: they are read by this (ELBv2 DescribeTags, many at once), naming
    # the resources by ``read_selector`` when not by ``selector_member`` (Route 53 ResourceIds)
    read_operation: str | None = None
    read_selector: str | None = None

    @property
    def in_create(self) -> bool:
        """The create carries the tags: not when it takes TagSpecifications but no ResourceType
        names the kind (botocore refuses a None type); those are tagged right after the create."""
        if self.create_member == "TagSpecifications":
            return self.resource_type is not None
        return self.create_member is not None

    def payload(self, tags: dict[str, str]) -> object:
        """The tags as the tag call takes them."""
        if self.payload_is_map:
            return dict(tags)
        items = [{self.key_member: k, self.value_member: v} for k, v in tags.items()]
        return {self.payload_wrapper: items} if self.payload_wrapper else items
