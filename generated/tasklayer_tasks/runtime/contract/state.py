"""The cloud-neutral contract between tasks / reconcilers and a provider's core.

A *state* is a plain dict keyed by the API's member names (``{"VpcId": "vpc-1", "CidrBlock":
"10.0.0.0/16", "Tags": {"Name": "main"}}``): tags and labels as a dict, wrappers removed. A core
translates its SDK at its boundary: its methods take and return states, and raise only the
errors of :mod:`.errors` (``CloudError`` and its kinds, ``TryAgainLater``, ``TaskError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .spec import ResourceSpec

State = dict[str, Any]


class Unread(list[State]):
    """A find's "none there", said without a read: the resource would live inside a parent
    this pass made, and its task has neither seen nor made it and has no create under way
    (:mod:`..aws.listing`). A create the cloud refuses as existing sends the task to read it
    properly (:mod:`..kops.task_write`)."""


class Core(Protocol):
    """What a task or reconciler needs from a cloud: the same calls on every cloud.

    ``find`` returns every live resource with the desired identity (never one in a terminal
    state such as ``deleted``); ``create`` returns the new resource's identity (and, under
    ``returned``, values the cloud hands out only once, such as a private key); a create whose
    outcome is unknown raises :class:`~.errors.OutcomeUnknownError` and is never sent again
    blindly by the core."""

    spec: ResourceSpec

    def find(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        match_tags: Mapping[str, str] | None = None,
        retry_not_found: bool = False,
    ) -> list[State]: ...
    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None: ...
    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State: ...
    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None: ...
    def delete(self, actual: Mapping[str, Any]) -> None: ...
