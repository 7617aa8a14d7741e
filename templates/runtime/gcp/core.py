"""The GCP adapter (:class:`~..contract.adapter.Adapter`) for one kind: find, create, update and
delete driven by its spec, over :class:`~.calls.GcpCalls` (googleapiclient methods by discovery
id, retried and translated). A state is the resource as ``get`` returns it, keyed by field name,
with its references in canonical form (:mod:`.refs`). Scope parameters (project, region, zone)
come from the task or the context; everything else from the state. Long-running operations are
waited on (:mod:`.operations`), or handed back unfinished (reconcilers, which requeue).
Finds may be served from the pass's listings (:mod:`.listing`); changes go through
:mod:`.updates`. None of them calls back up here (docs/architecture.md, "The GCP adapter").
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from ..contract.errors import NotFoundError, TryAgainLater
from ..contract.ownership import Owner
from ..contract.state import State
from . import updates as gcp_updates
from .calls import GcpCalls
from .listing import find_by_natural_key, find_listed, owned_states
from .operations import is_operation
from .refs import as_wanted
from .updates import request_id


class GcpCore(GcpCalls):
    """The calls for one resource type, in one scope."""

    # -- find ------------------------------------------------------------------------------------

    def find(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        match_tags: Mapping[str, str] | None = None,
        retry_not_found: bool = False,
    ) -> list[State]:
        """The resource with the desired name in its scope (labels checked when ``match_tags``),
        seen through what the desired state sets (nested server defaults are not compared)."""
        found = [
            as_wanted(self.spec, s, desired) for s in self._find(desired, name, retry_not_found)
        ]
        tags = self.spec.tags
        if not match_tags or tags is None:
            return found
        return [
            s
            for s in found
            if all((s.get(tags.field) or {}).get(k) == v for k, v in match_tags.items())
        ]

    def _find(self, desired: Mapping[str, Any], name: str, retry_not_found: bool) -> list[State]:
        read = self.spec.read
        if read is None:
            return []
        params = self.params(
            read.identity,
            desired if self.named_by_path() else {**desired, "name": desired.get("name") or name},
        )
        if params is None:
            return find_by_natural_key(self, desired)
        try:
            item = self.execute(read.operation, retry_not_found=retry_not_found, **params)
            return [self.state(item, self.placed(read.identity, params))]
        except NotFoundError:
            return []

    def find_listed(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        owner: Owner,
        match_tags: Mapping[str, str] | None = None,
        first_look: bool = False,
    ) -> list[State] | None:
        """:meth:`find` served from the pass's list of the collection (one read per collection
        a pass, :mod:`.listing`); None when only a direct read can say. A miss of a
        labelled collection is always confirmed by a get (``first_look`` is not used: GCP
        names are unique in a project, region or zone, none of which a pass makes)."""
        if match_tags:
            return None
        found = find_listed(self, {**desired, "name": desired.get("name") or name}, owner)
        return None if found is None else [as_wanted(self.spec, s, desired) for s in found]

    def read_ahead(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        owner: Owner,
        match_tags: Mapping[str, str] | None = None,
        first_look: bool = False,
    ) -> None:
        """Nothing to read ahead: a pass's finds are served by its one list of each collection
        (:meth:`find_listed`), made when the first task of the collection runs."""

    def listed_owned(
        self, owner: Owner, within: Mapping[str, Any] | None = None
    ) -> list[State] | None:
        """Every resource of this kind in scope carrying the owner's label (prune's inventory);
        GCP lists every kind by label in its scope, so ``within`` narrows nothing further."""
        return owned_states(self, owner)

    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None:
        """Every field comes back from ``get``."""

    # -- create / update / delete ------------------------------------------------------------------

    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State:
        create = self.spec.create
        assert create is not None
        body = {
            f.name: desired[f.name]
            for f in self.spec.fields
            if f.in_create and desired.get(f.name) is not None
        }
        tags = self.spec.tags
        if tags is not None and tags.create_member and desired.get(tags.field):
            body[tags.create_member] = dict(desired[tags.field])  # labels in the insert body itself
        params = self.params(create.identity, desired)
        if params is None:
            raise TryAgainLater(f"{self.spec.name}: its scope is not known yet")
        if create.idempotency_token and token:  # the logical attempt's token, as a UUID
            params[create.idempotency_token] = str(uuid.UUID(hex=token[:32]))
        if create.id_param:  # iam: {accountId, serviceAccount: {...}}; others: ?<x>Id=
            given = body.pop(create.id_param, desired.get(create.id_param))
            if create.body_member:
                body = {create.body_member: body}
            if create.id_in_query:
                params[create.id_param] = given
            else:
                body[create.id_param] = given
        elif create.body_member:
            body = {create.body_member: body}
        response = self.execute(create.operation, body=body, writes=(desired,), **params)
        ended = self.finish(response, create.operation)
        identity = {p: desired.get(p) for p in self.spec.primary}
        # the resource itself, with its name; or a finished longrunning operation's ``response``
        made = response if not is_operation(response) else ended.get("response")
        if isinstance(made, Mapping):
            identity.update({p: made[p] for p in self.spec.primary if p in made})
        return identity

    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        """Send each changed field through the method that carries it (:mod:`.updates`)."""
        gcp_updates.update(self, actual, changes)

    def blockers(self, actual: Mapping[str, Any]) -> list[str]:
        """GCP's in-use error names what uses the resource itself; nothing more is asked."""
        return []

    def delete(self, actual: Mapping[str, Any]) -> None:
        call = self.spec.delete
        assert call is not None
        params = self.params(call.identity, actual)
        if params is None:
            return
        if call.idempotency_token:
            params[call.idempotency_token] = request_id()
        try:
            self.finish(self.execute(call.operation, writes=(actual,), **params), call.operation)
        except NotFoundError:
            return
