"""What the generator knows about a resource, as data the runtime reads.

Every generated core module holds one ``ResourceSpec``; nothing here is computed at run time
from a schema. Names are the API's own (botocore operation and member names).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from .capabilities import (
    Capabilities,
    ChangeBatchSpec,
    ChildCollectionSpec,
    ReadinessSpec,
    VersionSpec,
)

__all__ = [
    "CallSpec",
    "Capabilities",
    "ChangeBatchSpec",
    "ChildCollectionSpec",
    "CreateSpec",
    "FieldSpec",
    "Mutability",
    "ParentSpec",
    "ReadSpec",
    "ReadinessSpec",
    "ResourceSpec",
    "TagsSpec",
    "VersionSpec",
    "known_specs",
    "lower_camel",
    "update_order",
]


class Mutability(str, Enum):
    """How a field may change: the one place this fact is spelled (generated specs name the
    members; the generator's model holds the same values, a test checks)."""

    CREATE_ONLY = "create_only"
    """Set when the resource is created, never after."""
    MUTABLE = "mutable"
    """Changed through its update call."""
    READ_ONLY = "read_only"
    """The cloud's to say: read, never written."""
    UNKNOWN = "unknown"
    """Treated as create-only: never changed blindly."""


@dataclass(frozen=True)
class FieldSpec:
    """One field of a kind, every fact about it in one place (written by the generator into each
    kind's ``core/<kind>.py``): its API ``name`` and task ``attr``, its CRD ``key``, its
    ``mutability`` (create-only, mutable, read-only or unknown, which is treated as create-only),
    the update call that carries it (``update_operation``, under ``update_member``, as a new value
    or, with ``update_kind`` ``"add_remove"``, as items added and removed), how it is read
    (``read_member``; ``read_operation`` and ``read_attribute`` for a separate read), whether it is
    ``write_only``, ``sensitive`` (or holds ``sensitive_paths``), filled in by the server, compared
    as an unordered list, and which kind it ``references``."""

    name: str  # API member name ("CidrBlock"); the key in a state dict
    attr: str  # attribute on the task ("cidr_block")
    mutability: Mutability
    in_create: bool = False  # sent in the create call
    required: bool = False  # the create cannot be sent without it (checked before any call)
    from_task_name: bool = False  # the resource's own name: the task's name when not given
    update_operation: str | None = None
    update_member: str | None = None  # member in the update input, when renamed
    update_param: bool = False  # sent as a query parameter of the update call (GCP resize)
    read_member: str | None = None  # member in reads, when renamed
    read_operation: str | None = None  # separate read (DescribeVpcAttribute)
    read_attribute: str | None = None  # attribute asked of that read ("enableDnsHostnames")
    value_wrapper: str | None = None  # sent as {"Value": v}
    write_only: bool = False
    sensitive: bool = False
    # sensitive parts inside it ("LaunchTemplateData.UserData")
    sensitive_paths: tuple[str, ...] = ()
    server_default: bool = False
    unordered: bool = False
    references: str | None = None  # the resource this field holds the id of
    # ... or, in reads, this member of it (an Address's "address")
    reference_member: str | None = None
    holds_arn: bool = False  # AWS: it holds that resource's ARN, not its id (destinationArn)
    is_tags: bool = False
    filter_name: str | None = None  # name of the {Name, Values} filter that selects by it
    after: tuple[str, ...] = ()  # fields whose updates must be applied before this one's
    key: str = ""  # the custom resource's key ("cidrBlock"); generated specs always give it
    # "add_remove": a membership list (an instance profile's Roles, an Auto Scaling group's
    # TargetGroupARNs) whose missing items go to update_operation and extra ones to
    # remove_operation, under update_member (items read as structures are compared by that
    # member: a Role by its RoleName); None: the update call takes the new value
    update_kind: str | None = None
    remove_operation: str | None = None
    # the fields it repeats in another form (IpPermissions: FromPort, ToPort, IpProtocol):
    # never set together, since only those are read back and compared
    other_form_of: tuple[str, ...] = ()
    # its items must be removed before the kind's delete, which is refused while it holds any
    # (an instance profile's Roles)
    emptied_before_delete: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "mutability", Mutability(self.mutability))
        if not self.key:  # a hand-written spec: the generator's rule, lowerCamel of the name
            object.__setattr__(self, "key", lower_camel(self.name))


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


_KNOWN: list[ResourceSpec] = []


def known_specs() -> tuple[ResourceSpec, ...]:
    """Every ResourceSpec made so far: each imported core module's SPEC (and any hand-written
    one); what dependents and prune look among."""
    return tuple(_KNOWN)


@dataclass(frozen=True)
class ParentSpec:
    """The parent that owns a kind which cannot carry tags itself (a Route's RouteTable): the
    field holding its id, and the parent's own spec, to read its ownership tags."""

    field: str
    spec: ResourceSpec


@dataclass(frozen=True)
class ResourceSpec:
    """One kind as data (``SPEC`` in each generated ``core/<kind>.py``): its fields, its identity
    (``primary`` id members, ``natural`` key, ``parent`` scope, ``arn``), its create, read, update
    and delete calls, its tags, and what differs by kind (readiness, versioning, change batches,
    long-running operations, an owning parent). The engine and the adapters read only this; what
    a kind can do is summed up by ``capabilities()``."""

    service: str  # botocore service name ("ec2")
    name: str  # resource name ("Vpc")
    fields: tuple[FieldSpec, ...]
    primary: tuple[str, ...]
    natural: tuple[str, ...]  # "tag:Name" or field names
    parent: tuple[str, ...]
    arn: str | None
    create: CreateSpec | None
    read: ReadSpec | None
    updates: tuple[CallSpec, ...]
    delete: CallSpec | None
    tags: TagsSpec | None
    readiness: ReadinessSpec | None = None
    not_found_codes: tuple[str, ...] = ()
    api_version: str = ""  # GCP: the discovery document's version ("v1")
    operation_waiter: str | None = None  # GCP: the method that waits on its operations
    listing: ReadSpec | None = None  # GCP: the collection's list in the resource's scope
    owner_parent: ParentSpec | None = None  # kinds without tags: owned through this parent
    versioning: VersionSpec | None = None  # changed by a new default version (a launch template)
    change_batch: ChangeBatchSpec | None = (
        None  # written in its parent's change batch (a record set)
    )
    # children its own representation holds, which a write of it must send back (Azure)
    child_collections: tuple[ChildCollectionSpec, ...] = ()

    def __post_init__(self) -> None:
        _KNOWN.append(self)  # each generated core module's SPEC, as it is imported

    def capabilities(self) -> Capabilities:
        """What differs for this kind, from its data (:mod:`.capabilities`)."""
        calls = (*self.updates, *((self.delete,) if self.delete is not None else ()))
        return Capabilities(
            separate_reads=tuple(f.name for f in self.fields if f.read_operation),
            versioned=self.versioning is not None,
            change_batch=self.change_batch is not None,
            long_running=self.operation_waiter is not None,
            fingerprints=tuple(sorted({p for call in calls for p in call.fingerprints})),
            owned_through_parent=self.owner_parent is not None,
            child_collections=self.child_collections,
        )

    def dependents(self) -> list[tuple[ResourceSpec, FieldSpec]]:
        """Kinds of the same service (among those imported) with a field that refers to this
        one: what may keep it in use."""
        return [
            (other, f)
            for other in _KNOWN
            if other.service == self.service and other is not self
            for f in other.fields
            if f.references == self.name
        ]

    def listings_touched(self) -> frozenset[str]:
        """The read operations whose listings a write to this kind may make stale: its own, its
        owning parent's (a Route is an item of its RouteTable), and those of the kinds it refers
        to in its service (an attachment changes its gateway, a rule its security group) by a
        field it writes. A reference the cloud fills in (an Elastic IP's SubnetId, once it is
        associated) is not written by this kind's calls: allocating an address leaves the
        subnets' listing as it was."""
        names = {
            f.references
            for f in self.fields
            if f.references and f.mutability is not Mutability.READ_ONLY
        }
        if self.owner_parent is not None:
            names.add(self.owner_parent.spec.name)
        kinds = [self] + [
            other
            for other in _KNOWN
            if other.service == self.service and other.name in names and other is not self
        ]
        return frozenset(
            call.operation for kind in kinds for call in (kind.read, kind.listing) if call
        )

    def terminal(self, state: dict[str, object]) -> bool:
        """In a state it will never leave (a NAT gateway ``deleted``): not a live resource."""
        r = self.readiness
        value = self.readiness_value(state)
        if r is not None and r.gone_if_set:
            return value is not None
        # compared without case: models spell some enums unlike the wire (a VPC endpoint's
        # "Deleted" is sent as "deleted")
        return (
            r is not None
            and isinstance(value, str)
            and value.lower() in {s.lower() for s in r.failed}
        )

    def readiness_value(self, state: Mapping[str, object]) -> object:
        """The readiness field's value; a dotted field is a path into a structure (an instance's
        ``State.Name``)."""
        r = self.readiness
        if r is None:
            return None
        value: object = state
        for part in r.field.split("."):
            value = value.get(part) if isinstance(value, Mapping) else None
        return value

    def field(self, name: str) -> FieldSpec:
        """The field whose API name is ``name``; ``KeyError`` when the kind has none."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.name} has no field {name}")

    def update_call(self, operation: str) -> CallSpec:
        """The update call named ``operation``; ``KeyError`` when the kind has none."""
        for call in self.updates:
            if call.operation == operation:
                return call
        raise KeyError(f"{self.name} has no update call {operation}")


def update_order(spec: ResourceSpec, names: list[str]) -> list[FieldSpec]:
    """The changed fields in the order their updates must go: each after the fields its
    ``after`` names (when those change too), otherwise as given."""
    fields = [spec.field(n) for n in names]
    changing = {f.name for f in fields}
    done: list[FieldSpec] = []
    placed: set[str] = set()
    while len(done) < len(fields):
        for f in fields:
            if f.name not in placed and all(a in placed or a not in changing for a in f.after):
                done.append(f)
                placed.add(f.name)
                break
        else:
            raise ValueError(
                f"{spec.name}: update order has a cycle among {sorted(changing - placed)}"
            )
    return done


def lower_camel(name: str) -> str:
    """API member name to a custom resource key: ``CidrBlock`` -> ``cidrBlock``,
    ``VPCZoneIdentifier`` -> ``vpcZoneIdentifier`` (the generator's rule; generated specs carry
    its result in ``FieldSpec.key``)."""
    upper = 0
    while upper < len(name) and name[upper].isupper():
        upper += 1
    if upper <= 1:
        return name[:1].lower() + name[1:]
    if upper == len(name):
        return name.lower()
    return name[: upper - 1].lower() + name[upper - 1 :]
