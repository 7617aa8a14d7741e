"""What differs by kind, declared as data on its :class:`~.spec.ResourceSpec` (never discovered
with getattr/hasattr at run time): readiness and terminal states, versioned kinds, change
batches, child collections a parent's write must not drop, and :class:`Capabilities`, the one
summary of them an engine or a reader looks at (docs/architecture.md, "Capabilities").

The other capabilities are fields of the specs they belong to: separately read attributes
(``FieldSpec.read_operation`` / ``read_attribute``), long-running operations
(``ResourceSpec.operation_waiter``), fingerprints and etags sent back with a change
(``CallSpec.fingerprints``), tag-less kinds owned through a parent
(``ResourceSpec.owner_parent``), the field an owner's marks may be recorded in
(``ResourceSpec.owner_record``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadinessSpec:
    """A created resource is ready when ``field`` reads ``ready``; ``failed`` values never will,
    and a resource in one of them (``deleted``, ``failed``) is not a resource any more: find and
    delete skip it. ``ready`` None: nothing to wait for, only those states are known."""

    field: str
    ready: str | None
    failed: tuple[str, ...] = ()
    gone_if_set: bool = False  # any value of ``field`` means deleted (a secret's DeletedDate)


@dataclass(frozen=True)
class VersionSpec:
    """A resource changed by a new version made its default (a launch template): the fields a
    version holds are sent to ``create_operation`` and read from the default version
    (``read_operation``, selecting ``[default_number]`` by ``versions_member``); the number the
    answer gives (``answer_member``.``number_member``) goes to ``default_operation`` as
    ``default_member``. See :mod:`..aws.versions`."""

    create_operation: str
    answer_member: str
    number_member: str
    read_operation: str
    read_output: str
    versions_member: str
    default_number: str
    default_operation: str | None
    default_member: str | None
    fields: tuple[str, ...]


@dataclass(frozen=True)
class ChangeBatchSpec:
    """A resource written as one change in its parent's batch (a Route 53 record set): see
    :mod:`..aws.change_batch`. ``start`` pairs the list's start members with the fields."""

    operation: str
    batch_member: str
    changes_member: str
    action_member: str
    item_member: str
    create_action: str
    upsert_action: str
    delete_action: str
    parent_member: str
    start: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ChildCollectionSpec:
    """A collection of child resources the parent's own representation holds (``field``, of
    kind ``kind``), which a write of the parent replaces whole: a parent update must send the
    children as they are, or it deletes them. Azure's virtual network holds its ``subnets`` so
    (a PUT of the network without them removes every subnet). No AWS or GCP kind declares one:
    their children are written by calls of their own."""

    field: str  # the parent's member holding the children ("subnets")
    kind: str  # the child resource's name in the same service ("Subnet")


@dataclass(frozen=True)
class Capabilities:
    """The kind's capabilities at a glance, read from its spec's data (see the module doc)."""

    separate_reads: tuple[str, ...]  # fields read by a call of their own (DescribeVpcAttribute)
    versioned: bool  # changed by a new default version (a launch template)
    change_batch: bool  # written as a change in its parent's batch (a record set)
    long_running: bool  # its writes answer operations, waited on or left pending (GCP)
    fingerprints: tuple[str, ...]  # optimistic-lock fields its changes send back (GCP)
    owned_through_parent: bool  # carries no tags: its parent's prove whose it is (a Route)
    owner_record: str | None  # the field an owner may record its marks in (GCP's description)
    child_collections: tuple[ChildCollectionSpec, ...]  # children a parent write must keep
