"""What the generator knows about a resource, as data the runtime reads.

Every generated core module holds one ``ResourceSpec``; nothing here is computed at run time
from a schema. Names are the API's own (botocore operation and member names).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from .call_specs import CallSpec, CreateSpec, ReadSpec, TagsSpec
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

    name: str
    """The API member name (``CidrBlock``): the field's key in a state dict."""
    attr: str
    """The task's attribute (``cidr_block``)."""
    mutability: Mutability
    """How the field may change (:class:`Mutability`)."""
    in_create: bool = False
    """Sent in the create call."""
    required: bool = False
    """The create cannot be sent without it (checked before any call)."""
    from_task_name: bool = False
    """The resource's own name: the task's name when not given."""
    update_operation: str | None = None
    """The call that changes it; None when no call does."""
    update_member: str | None = None
    """Its member in the update call's input, when renamed there."""
    update_param: bool = False
    """Sent as a query parameter of the update call (GCP's resize)."""
    read_member: str | None = None
    """Its member in reads, when renamed there."""
    read_operation: str | None = None
    """A separate read that returns it (``DescribeVpcAttribute``)."""
    read_attribute: str | None = None
    """The attribute asked of that read (``enableDnsHostnames``)."""
    value_wrapper: str | None = None
    """Sent wrapped, as ``{wrapper: value}`` (``{"Value": v}``)."""
    write_only: bool = False
    """Sent, never read back: it cannot be compared."""
    sensitive: bool = False
    """Its value is never printed (plans, reports, logs, errors)."""
    sensitive_paths: tuple[str, ...] = ()
    """The sensitive parts inside it (``LaunchTemplateData.UserData``)."""
    server_default: bool = False
    """The cloud fills it in when it is not given: unset, it is not a difference."""
    unordered: bool = False
    """A list compared as a set: the order the cloud returns is not a difference."""
    references: str | None = None
    """The kind whose id (or ARN) it holds: a dependency of the task."""
    reference_member: str | None = None
    """In reads, the member of the referenced resource it holds (an Address's ``address``)."""
    holds_arn: bool = False
    """AWS: it holds the referenced resource's ARN, not its id (``destinationArn``)."""
    is_tags: bool = False
    """The kind's tags or labels."""
    filter_name: str | None = None
    """The name of the ``{Name, Values}`` filter that selects by it."""
    after: tuple[str, ...] = ()
    """The fields whose updates must be applied before this one's."""
    key: str = ""
    """The custom resource's key (``cidrBlock``); generated specs always give it."""
    ref_key: str | None = None
    """The custom resource's key that names the referenced object by its name instead of by id
    (``vpcRef: {name: net}`` beside ``vpcId``; a list of them, ``securityGroupRefs``, for a list
    of ids): the operator puts that object's ``status.id`` here once it is Ready."""
    update_kind: str | None = None
    """``"add_remove"``: a membership list (an instance profile's Roles, an Auto Scaling group's
    TargetGroupARNs) whose missing items go to ``update_operation`` and extra ones to
    ``remove_operation``, under ``update_member`` (items read as structures are compared by
    that member: a Role by its RoleName); None: the update call takes the new value."""
    remove_operation: str | None = None
    """With ``update_kind`` ``"add_remove"``: the call that removes an item."""
    other_form_of: tuple[str, ...] = ()
    """The fields it repeats in another form (IpPermissions: FromPort, ToPort, IpProtocol):
    never set together, since only those are read back and compared."""
    emptied_before_delete: bool = False
    """Its items must be removed before the kind's delete, which is refused while it holds any
    (an instance profile's Roles)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "mutability", Mutability(self.mutability))
        if not self.key:  # a hand-written spec: the generator's rule, lowerCamel of the name
            object.__setattr__(self, "key", lower_camel(self.name))


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

    service: str
    """The service's name (botocore's ``ec2``, GCP's ``compute``)."""
    name: str
    """The kind's name (``Vpc``)."""
    fields: tuple[FieldSpec, ...]
    """Every field of the kind (:class:`FieldSpec`)."""
    primary: tuple[str, ...]
    """The fields that hold its id (the cloud assigns it, or the task names it)."""
    natural: tuple[str, ...]
    """How it is found without an id: ``tag:Name`` or field names."""
    parent: tuple[str, ...]
    """The fields that place it inside another resource (a route's table)."""
    arn: str | None
    """AWS: the field that holds its ARN; None when it has none."""
    create: CreateSpec | None
    """Its create call; None when it cannot be created."""
    read: ReadSpec | None
    """How one resource is read (by id, else by its natural key)."""
    updates: tuple[CallSpec, ...]
    """The calls that change its mutable fields."""
    delete: CallSpec | None
    """Its delete call; None when it cannot be deleted."""
    tags: TagsSpec | None
    """How its tags or labels are written and read; None when it has none."""
    readiness: ReadinessSpec | None = None
    """Which state field says it is ready (or failed, or gone); None when it is at once."""
    not_found_codes: tuple[str, ...] = ()
    """AWS: error codes that also mean it is not there, beyond ``*NotFound``, ``NoSuch*``, 404."""
    api_version: str = ""
    """GCP: the discovery document's version (``v1``)."""
    operation_waiter: str | None = None
    """GCP: the method that waits on its long-running operations."""
    listing: ReadSpec | None = None
    """GCP: the collection's list in the resource's scope."""
    owner_parent: ParentSpec | None = None
    """Kinds without tags: owned through this parent."""
    owner_record: str | None = None
    """The free-text field an owner that records itself there (:attr:`..ownership.Owner.records`,
    the Kubernetes cloud-provider's convention) writes its marks in at create and is read from:
    compute's ``description``, for kinds without labels (a target pool, a firewall); None where
    the kind has no such field."""
    versioning: VersionSpec | None = None
    """Changed by a new default version (a launch template)."""
    change_batch: ChangeBatchSpec | None = None
    """Written in its parent's change batch (a Route 53 record set)."""
    child_collections: tuple[ChildCollectionSpec, ...] = ()
    """Children its own representation holds, which a write of it must send back (Azure)."""
    resource_path: str | None = None
    """Azure: the ARM resource-id template its PUT, GET, PATCH and DELETE share
    (``/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/...``)."""

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
            owner_record=self.owner_record,
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
