"""Task lifecycles, as kOps defines them (``fi.Lifecycle``)."""

from __future__ import annotations

from enum import Enum


class Lifecycle(str, Enum):
    """What a task may do to its resource (``fi.Lifecycle``), set per task: ``SYNC`` by
    default; the others only look, warn or do nothing."""

    SYNC = "Sync"  # make the cloud match the task
    IGNORE = "Ignore"  # do nothing at all
    WARN_IF_INSUFFICIENT_ACCESS = "WarnIfInsufficientAccess"  # sync, but only warn on AccessDenied
    EXISTS_AND_VALIDATES = "ExistsAndValidates"  # must exist and match; never changed
    EXISTS_AND_WARN_IF_CHANGES = "ExistsAndWarnIfChanges"  # must exist; differences are warnings
