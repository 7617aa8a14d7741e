"""The AWS adapter (:class:`~..contract.adapter.Adapter`) for one kind: find, create, update and
delete driven by its ResourceSpec, over :class:`~.calls.AwsCalls` (botocore calls in, states and
the runtime's own errors out, every answer checked). Each verb hands the work to the module that
knows it (:mod:`.find`, :mod:`.listing`, :mod:`.create`, :mod:`.updates`, :mod:`.versions`);
none of them calls back up here (docs/architecture.md, "The AWS adapter").
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..contract.ownership import Owner
from ..contract.spec import FieldSpec
from ..contract.state import State, known
from . import create as aws_create
from . import find as aws_find
from . import updates as aws_updates
from .calls import AwsCalls
from .listing import find_listed, owned_states, owned_within, read_ahead
from .members import is_listed_membership, read_members
from .versions import read_default_version


class AwsCore(AwsCalls):
    """The calls for one resource type; one instance per client."""

    # -- find --------------------------------------------------------------------------------

    def find(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        match_tags: Mapping[str, str] | None = None,
        retry_not_found: bool = False,
    ) -> list[State]:
        """Every resource matching the desired identity: by primary id when known, else by
        natural key within the parent scope, carrying ``match_tags`` when given. [] when there
        is none, or no way to look (:mod:`.find`)."""
        return aws_find.find(self, desired, name, match_tags, retry_not_found)

    def nested_states(
        self, parents: list[dict[str, Any]], desired: Mapping[str, Any]
    ) -> list[State]:
        """The sub-resources inside parents' items that match the desired identity."""
        return aws_find.nested_states(self, parents, desired)

    def find_listed(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        owner: Owner,
        match_tags: Mapping[str, str] | None = None,
        first_look: bool = False,
    ) -> list[State] | None:
        """:meth:`find` served from the pass's listing of what ``owner`` owns (one read per
        type a pass, :mod:`.listing`); None when only a direct read can say."""
        return find_listed(self, desired, name, owner, match_tags, first_look)

    def read_ahead(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        owner: Owner,
        match_tags: Mapping[str, str] | None = None,
        first_look: bool = False,
    ) -> None:
        """Make, before the task runs, the read its find will need (:func:`.listing.read_ahead`)."""
        read_ahead(self, desired, name, owner, match_tags, first_look)

    def listed_owned(
        self, owner: Owner, within: Mapping[str, Any] | None = None
    ) -> list[State] | None:
        """Every live resource of this kind ``owner`` owns (prune's inventory), or only those
        inside the parent ``within`` names; None when the kind cannot be listed by tag."""
        if within is not None:
            return owned_within(self, owner, within)
        return owned_states(self, owner)

    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None:
        """Fields the main read does not return (DescribeVpcAttribute, a launch template's
        default version), read only when wanted."""
        read_default_version(self, state, wanted)
        fields = [
            f
            for f in self.spec.fields
            if f.read_operation and f.read_attribute and wanted.get(f.name) is not None
        ]
        ids = {p: state[p] for p in self.spec.primary if p in state}

        def read(f: FieldSpec) -> Any:
            assert f.read_operation is not None
            return self.call(
                f.read_operation, {**ids, "Attribute": f.read_attribute}, idempotent=True
            )

        if len(fields) > 1:  # independent reads (a VPC's two DNS attributes): made at once,
            # each in a copy of the caller's context (its context variables: tracing, logging)
            with ThreadPoolExecutor(max_workers=len(fields)) as pool:
                runs = [(contextvars.copy_context(), f) for f in fields]
                responses = list(pool.map(lambda run: run[0].run(read, run[1]), runs))
        else:
            responses = [read(f) for f in fields]
        for f, response in zip(fields, responses, strict=True):  # one answer per read
            if f.name in response:
                state[f.name] = self.from_api(f, response[f.name])
        for f in self.spec.fields:
            if is_listed_membership(f) and wanted.get(f.name) is not None:
                state[f.name] = read_members(self, f, ids)

    # -- create / update / delete --------------------------------------------------------------

    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State:
        """Create the resource with every create-time field and its tags in one call; return
        the identity the create gave it, plus what the answer holds only once (a private key).

        With an idempotency token the call is retried with that same token; without one it is
        sent once: a lost answer is an :class:`OutcomeUnknownError` for the caller to resolve
        by finding, never by sending it again (:mod:`.create`)."""
        identity, self.answer = aws_create.create(self, desired, token)
        return identity

    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        """Send each changed field through the call that carries it (:mod:`.updates`)."""
        aws_updates.update(self, actual, changes)

    def delete(self, actual: Mapping[str, Any]) -> None:
        """Delete; gone already is fine. In use raises :class:`InUseError` for the caller."""
        aws_updates.delete(self, actual)

    def operation_done(self, operation: Mapping[str, Any]) -> dict[str, Any]:
        """AWS calls finish before they answer: no operation is ever left running."""
        return {"status": "DONE"}

    def blockers(self, actual: Mapping[str, Any]) -> list[str]:
        """What keeps this resource in use, as far as the kinds that refer to it can say (a
        Subnet's VpcId, found with the ``vpc-id`` filter): "Subnet subnet-1", for a message."""
        if len(self.spec.primary) != 1 or not known(actual.get(self.spec.primary[0])):
            return []
        found: list[str] = []
        for other, f in self.spec.dependents():
            read = other.read
            if read is None or not read.filters_member or not f.filter_name or read.nested_member:
                continue
            core = AwsCalls(other, self.client, self.retry)
            try:
                items = core.read_items(
                    {
                        read.filters_member: [
                            {"Name": f.filter_name, "Values": [actual[self.spec.primary[0]]]}
                        ]
                    },
                    retry_not_found=False,
                )
            except Exception:
                # a best effort for a message: never the reason a delete fails (of a whole
                # service's kinds, one an emulator lacks raises its own NotImplementedError)
                continue
            for item in items:
                state = core.state(item)
                if other.terminal(state):
                    continue
                ids = [str(state[p]) for p in other.primary if state.get(p) is not None]
                found.append(f"{other.name} {'/'.join(ids) or '?'}")
        return sorted(set(found))
