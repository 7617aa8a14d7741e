"""The cloud-neutral model every stage after ``sources`` works on.

Plain frozen dataclasses: Service -> Resource -> Field / Operation. Nothing here knows about
botocore or discovery documents; sources and annotation rules fill it in. Every annotated value
carries its provenance: the id of the rule that decided it
(``rule:aws.create-input-without-update``) or the overlay file and key that corrected it
(``overlay:schemas/overlays/aws/ec2.yaml#resources.Vpc.fields.X.mutability``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, ClassVar, TypeVar


class Mutability(str, Enum):
    CREATE_ONLY = "create_only"
    MUTABLE = "mutable"
    READ_ONLY = "read_only"
    UNKNOWN = "unknown"


# how an update call changes a field when it does not take the new value itself (Field.update_kind)
UPDATE_KINDS = ("add_remove", "per_item", "json_patch", "nested", "flattened", "keyed_item")

Provenance = Mapping[str, str]
"""Annotated attribute name -> where its value came from (``rule:<id>`` or
``overlay:<file>#<key>``)."""

DEGRADED = "mutability.degraded"
"""The provenance key of a field whose class the runtime cannot honour (render/capability.py):
what the class was, what it is rendered as, why, and which rule or overlay had decided it; its
``mutability`` then names the ``runtime.*`` rule that degraded it."""


@dataclass(frozen=True)
class FieldType:
    """A field's type, as a tree. ``kind`` is one of string, integer, float, boolean, timestamp,
    blob, list, map, structure, or ``ref`` for a recursive structure already being described."""

    kind: str
    name: str = ""  # the schema's own name for the type (botocore shape name, discovery schema id)
    item: FieldType | None = None  # list items, map values
    members: tuple[tuple[str, FieldType], ...] = ()  # structure members, in schema order
    enum: tuple[str, ...] = ()

    def python(self) -> str:
        """The Python annotation this type renders as."""
        simple = {
            "string": "str",
            "integer": "int",
            "long": "int",
            "float": "float",
            "double": "float",
            "boolean": "bool",
            "timestamp": "datetime.datetime",
            "blob": "bytes",
        }
        if self.kind in simple:
            return simple[self.kind]
        if self.kind == "list" and self.item is not None:
            return f"list[{self.item.python()}]"
        if self.kind == "map" and self.item is not None:
            return f"dict[str, {self.item.python()}]"
        return "dict[str, Any]"


@dataclass(frozen=True)
class CallShape:
    """How one provider calls an operation, beyond the neutral facts on :class:`Operation`: a
    tagged variant. Each provider subclasses it in its folder (``codegen/providers/aws/shapes.py``:
    EC2's filters and attribute calls; ``gcp/shapes.py``: AIP resource-name templates, update
    masks) and names itself in ``kind``. This base, with no facts, is what an operation carries
    until its provider's rules record some (an overlay's new tag call carries it for good).
    A field (``Field.call``) and a tags model (``TagsModel.call``) carry their provider's facts
    the same way, in their own subclasses (``AwsFieldShape``, ``AwsTagShape``, ...)."""

    kind: ClassVar[str] = ""
    # the annotation dump (a public format) prints a variant's facts under "call", except
    # these: flat keys of the object that carries it, and facts it never printed
    DUMPED_FLAT: ClassVar[tuple[str, ...]] = ()
    NOT_DUMPED: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def selecting_like(cls, delete: Operation | None, members: tuple[str, ...]) -> CallShape:
        """The shape of a call an overlay adds (an update), which selects the resource by
        ``members`` as its ``delete`` call does: by default, no facts of its own."""
        return cls()


S = TypeVar("S", bound=CallShape)


class CarriesCall:
    """A model object with its provider's facts in ``call``: the accessors every variant
    holder shares (an operation, a field, a tags model)."""

    call: CallShape

    def _variant_owner(self) -> str:
        raise NotImplementedError

    def call_as(self, shape: type[S]) -> S:
        """The provider facts as ``shape`` (its defaults while no rule has recorded any)."""
        if isinstance(self.call, shape):
            return self.call
        if type(self.call) is CallShape:
            return shape()
        raise TypeError(f"{self._variant_owner()} {self.call.kind} call facts, not {shape.kind}")

    def with_call(self: H, shape: type[CallShape], **facts: Any) -> H:
        """A copy with these provider facts changed; the same object when nothing changes, so
        a rule that finds nothing new records nothing."""
        current = self.call_as(shape)
        changed = replace(current, **facts)
        return self if changed == current else replace(self, call=changed)  # type: ignore[type-var]


H = TypeVar("H", bound=CarriesCall)


@dataclass(frozen=True)
class Field(CarriesCall):
    """One top-level member of a resource's state, named as the API names it."""

    name: str
    type: FieldType
    documentation: str = ""
    mutability: Mutability = Mutability.UNKNOWN
    update_operation: str | None = None
    write_only: bool = False  # sent on create/update but never returned by reads
    required: bool = False  # required by the create operation
    sensitive: bool = False
    server_default: bool = False  # the server fills it in when the create leaves it unset
    unordered: bool = False  # a list compared as a multiset
    references: str | None = None  # name of the resource this field refers to (by id)
    read_name: str | None = None  # the member that carries it in reads, when named differently
    update_name: str | None = None  # the member that carries it in its update input, when renamed
    read_operation: str | None = (
        None  # a separate read (DescribeVpcAttribute) when not in the main read
    )
    after: tuple[str, ...] = ()  # fields whose updates must be applied before this one's
    sensitive_paths: tuple[str, ...] = ()  # secret parts inside it ("LaunchTemplateData.UserData")
    # how its update call changes it, when not by sending the new value (None): "add_remove"
    # (an add call and a remove call take the items that differ: AttachLoadBalancerTargetGroups /
    # DetachLoadBalancerTargetGroups), "per_item" (one put / delete call per list item:
    # PutLifecycleHook / DeleteLifecycleHook), "json_patch" (patchOperations on a path),
    # "nested" / "flattened" (the call carries members of the field's structure, under their own
    # or flattened names: UpdateHostedZoneComment, ModifySubnetAttribute), "keyed_item" (a list
    # of {id, new value} items: ModifySecurityGroupRules)
    update_kind: str | None = None
    remove_operation: str | None = None  # the call that takes items away ("add_remove", "per_item")
    remove_name: str | None = None  # the member of that call carrying them, when renamed
    # the kind's delete is refused while this membership list holds items (IAM: "The instance
    # profile must not have an associated role"): its items are removed before the delete
    emptied_before_delete: bool = False
    # (update input path, path inside the field) for "nested", "flattened", "keyed_item" and
    # "json_patch" updates: ("PrivateDnsHostnameTypeOnLaunch", "HostnameType")
    update_paths: tuple[tuple[str, str], ...] = ()
    # the create sets it only inside another member's structure:
    # "IpPermissions[].Ipv6Ranges[].CidrIpv6"
    create_path: str | None = None
    in_create: bool = False  # the create call takes it (a fact of the schema, not a judgement)
    in_read: bool = False  # the main read returns it
    # the provider's variant: how its calls carry the field beyond the facts above (AWS:
    # ``AwsFieldShape``, a {"Value": v} wrapper, the attribute a separate read asks for; GCP:
    # ``GcpFieldShape``, a query parameter of the update, the member of a referenced resource)
    call: CallShape = CallShape()
    provenance: Provenance = field(default_factory=dict, compare=False)

    @property
    def source(self) -> str:
        """Where the field's class (its mutability) came from."""
        return self.provenance.get("mutability", "")

    def _variant_owner(self) -> str:
        return f"field {self.name} carries"


@dataclass(frozen=True)
class Operation(CarriesCall):
    """An API operation in a resource's life, with what the rules learned about how to call it:
    the facts every cloud has here, the provider's own in ``call``."""

    name: str  # AWS operation name or discovery method id
    role: str  # create | read | list | update | delete | tag | untag
    identity_members: tuple[str, ...] = ()  # input members that select the resource
    output_member: str | None = (
        None  # where the resource sits in the output ("Vpc", "Vpcs", "items")
    )
    output_is_list: bool = False
    id_filter: str | None = None  # member that selects by id in a read ("VpcIds", "network")
    natural_filter: str | None = None  # member that selects by the natural key ("Names", "filter")
    id_member: str | None = None  # where the new resource's id is in a create's output item
    idempotency_token: str | None = None
    # a create's token the reads return (HostedZone.CallerReference), and the create's errors
    # that say a request with this token already committed (HostedZoneAlreadyExists)
    token_read: str | None = None
    token_taken: tuple[str, ...] = ()
    paginated: bool = False
    fields: tuple[str, ...] = ()  # for updates: the resource fields this call carries
    returned_once: tuple[
        str, ...
    ] = ()  # a create's answer members no read returns again (a private key)
    # a create made by another operation when an input only it takes is set: (member, operation),
    # ("PublicKeyMaterial", "ImportKeyPair") beside CreateKeyPair
    alternatives: tuple[tuple[str, str], ...] = ()
    call: CallShape = CallShape()  # the provider's call-shape variant
    source: str = ""

    def _variant_owner(self) -> str:
        return f"{self.name} carries"


@dataclass(frozen=True)
class Operations:
    create: Operation | None = None
    read: Operation | None = None
    list: Operation | None = None
    update: tuple[Operation, ...] = ()
    delete: Operation | None = None
    tag: Operation | None = None
    untag: Operation | None = None

    def names(self) -> dict[str, object]:
        """The dump's view: operation names only."""
        return {
            "create": self.create.name if self.create else None,
            "read": self.read.name if self.read else None,
            "list": self.list.name if self.list else None,
            "update": [op.name for op in self.update],
            "delete": self.delete.name if self.delete else None,
            "tag": self.tag.name if self.tag else None,
            "untag": self.untag.name if self.untag else None,
        }


@dataclass(frozen=True)
class Identity:
    primary: tuple[str, ...] = ()  # what delete/read need to select exactly this resource
    arn: str | None = None  # the member holding the ARN / selfLink, when there is one
    natural: tuple[str, ...] = ()  # how to find it without an id: "tag:Name" or name members
    parent: tuple[str, ...] = ()  # scope members: VpcId for a Subnet, RouteTableId for a Route
    owner_parent: str | None = None  # kinds without tags: the parent member whose owner owns it
    # the free-text member an owner may record its marks in (GCP's description, which the
    # Kubernetes cloud-provider writes JSON into): runtime ResourceSpec.owner_record
    owner_record: str | None = None
    # the natural-key member that is the resource's own name (a security group's GroupName):
    # a task's name fills it when not given
    named_by: str | None = None
    provenance: Provenance = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class TagsModel(CarriesCall):
    """How a resource carries tags (AWS) or labels (GCP)."""

    field: str  # the logical field name in the resource's state ("Tags")
    create_member: str | None = None  # "TagSpecifications" or "Tags" in the create input
    tag_operation: str | None = None
    untag_operation: str | None = None
    selector_member: str | None = None  # how tag calls name the resource ("Resources", "RoleName")
    # tags the resource's read does not return are read by this call, for many resources at
    # once where it takes a list (ELBv2 DescribeTags, Route 53 ListTagsForResources)
    read_operation: str | None = None
    # the provider's variant: how its tag calls carry the tags and name what they tag, beyond
    # the facts above (AWS: ``AwsTagShape``, EC2's TagSpecifications ResourceType, a list or
    # ARN selector, a {key: value} map, S3's Tagging.TagSet wrapper)
    call: CallShape = CallShape()
    source: str = ""

    def _variant_owner(self) -> str:
        return f"tags {self.field} carry"


@dataclass(frozen=True)
class Readiness:
    """When a created resource is ready: a state field's value, from the cloud's own waiter
    (NatGatewayAvailable: ``NatGateways[].State == "available"``; "failed" ends the wait).
    ``ready`` is None where only the states a resource never leaves are known (a state enum's
    ``deleting`` / ``deleted``, with no waiter to say which state is ready): nothing is waited for.
    """

    field: str
    ready: str | None
    failed: tuple[str, ...] = ()
    waiter: str = ""
    gone_if_set: bool = False  # any value of ``field`` means deleted (a secret's DeletedDate)


@dataclass(frozen=True)
class Versioning:
    """A resource changed by making a new version and moving its default to it, as kOps changes a
    launch template: ``Create<R>Version`` with the versioned fields, then the resource's own
    update setting ``default_member`` to the number the answer gave; the versioned fields are
    read from the default version (``read_operation`` selecting ``versions_member``)."""

    create_operation: str  # CreateLaunchTemplateVersion
    answer_member: str  # LaunchTemplateVersion: the new version in the create's answer
    number_member: str  # VersionNumber, inside it
    read_operation: str  # DescribeLaunchTemplateVersions
    read_output: str  # LaunchTemplateVersions
    versions_member: str  # Versions: the input member selecting versions by number
    default_number: str  # DefaultVersionNumber: the resource's read names its default version
    default_operation: str | None  # ModifyLaunchTemplate
    default_member: str | None  # DefaultVersion
    fields: tuple[str, ...]  # the fields a version holds
    source: str = ""


@dataclass(frozen=True)
class ChangeBatch:
    """A resource written only as one change in a batch sent to its parent: create, update and
    delete are ``{action_member: CREATE | UPSERT | DELETE, item_member: <the resource>}`` in
    ``batch_member``.``changes_member`` of ``operation`` (Route 53's ChangeResourceRecordSets;
    Cloud DNS's changes.create has the same form). Found by listing the parent from a start
    key: ``start`` pairs the list's input members with the fields they start at."""

    operation: str  # ChangeResourceRecordSets
    batch_member: str  # ChangeBatch
    changes_member: str  # Changes
    action_member: str  # Action
    item_member: str  # ResourceRecordSet
    create_action: str  # CREATE: fails when it exists (never overwrites what find did not see)
    upsert_action: str  # UPSERT: the whole item, replaced
    delete_action: str  # DELETE: must name the item exactly as it is
    parent_member: str  # HostedZoneId: the operation's and the list's member naming the parent
    start: tuple[tuple[str, str], ...] = ()  # (StartRecordName, Name), (StartRecordType, Type)
    source: str = ""


@dataclass(frozen=True)
class Resource:
    name: str
    api_name: str  # the noun as the API spells it, before any overlay rename
    shape: str | None  # the schema type describing the resource in reads
    operations: Operations
    identity: Identity
    fields: tuple[Field, ...]
    tags: TagsModel | None = None
    waiters: tuple[str, ...] = ()
    readiness: Readiness | None = None
    documentation: str = ""
    provenance: Provenance = field(default_factory=dict, compare=False)
    versioning: Versioning | None = None
    change_batch: ChangeBatch | None = None

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.name} has no field {name!r}")


@dataclass(frozen=True)
class Service:
    provider: str  # the provider's name ("aws", "gcp"): a key of codegen.providers.PROVIDERS
    name: str  # "ec2", "compute"
    api_version: str
    resources: tuple[Resource, ...]
    source_files: tuple[str, ...] = ()

    def resource(self, name: str) -> Resource:
        for r in self.resources:
            if r.name == name:
                return r
        raise KeyError(f"{self.provider}/{self.name} has no resource {name!r}")
