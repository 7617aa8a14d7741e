"""A create retried with its token and answered "already exists": the earlier try committed.

Route 53's ``CreateHostedZone`` takes a ``CallerReference``; when the first reply is lost and
the retry carries the same one, AWS answers ``HostedZoneAlreadyExists`` ("a hosted zone has
already been created with the specified CallerReference"). That zone is ours: it is the one
whose read-back token is the token this attempt sent, and nothing else is. A zone with another
token (a neighbour's, or one of ours from another attempt) is never taken this way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.adapter import Core
from ..contract.errors import ConflictError
from ..contract.spec import ResourceSpec
from ..contract.state import State


def token_taken(spec: ResourceSpec, err: ConflictError) -> bool:
    """The create's answer says a request with its token already committed."""
    create = spec.create
    return create is not None and bool(create.token_read) and err.code in create.token_taken


def made_with(
    core: Core, spec: ResourceSpec, desired: Mapping[str, Any], name: str, token: str
) -> State | None:
    """The live resource carrying ``token`` as its read-back token, if one is visible."""
    create = spec.create
    assert create is not None and create.token_read
    found = [
        s
        for s in core.find(dict(desired), name)
        if s.get(create.token_read) == token and not spec.terminal(s)
    ]
    return found[0] if found else None
