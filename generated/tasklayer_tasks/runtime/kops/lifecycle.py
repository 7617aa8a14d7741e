"""Task lifecycles, as kOps defines them (``fi.Lifecycle``)."""

from __future__ import annotations

from enum import Enum


class Lifecycle(str, Enum):
    """What a task may do to its resource (``fi.Lifecycle``), set per task: ``SYNC`` by
    default; the others only look, warn or do nothing."""

    SYNC = "Sync"
    """Make the cloud match the task: create its resource, or update it."""
    IGNORE = "Ignore"
    """Do nothing at all: not even a read."""
    WARN_IF_INSUFFICIENT_ACCESS = "WarnIfInsufficientAccess"
    """Sync, but only warn when the cloud says AccessDenied."""
    EXISTS_AND_VALIDATES = "ExistsAndValidates"
    """The resource must exist and match the task; it is never changed."""
    EXISTS_AND_WARN_IF_CHANGES = "ExistsAndWarnIfChanges"
    """The resource must exist; differences from the task are warnings, not changes."""
