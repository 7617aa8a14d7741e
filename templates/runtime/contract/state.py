"""The cloud-neutral state a face and an adapter (:mod:`.adapter`) exchange.

A *state* is a plain dict keyed by the API's member names (``{"VpcId": "vpc-1", "CidrBlock":
"10.0.0.0/16", "Tags": {"Name": "main"}}``): tags and labels as a dict, wrappers removed. A core
translates its SDK at its boundary: its methods take and return states, and raise only the
errors of :mod:`.errors` (``CloudError`` and its kinds, ``TryAgainLater``, ``TaskError``).
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


class Unread(list[State]):
    """A find's "none there", said without a read: the resource would live inside a parent
    this pass made, and its task has neither seen nor made it and has no create under way
    (:mod:`..aws.listing`). A create the cloud refuses as existing sends the task to read it
    properly (:mod:`..kops.task_write`)."""
