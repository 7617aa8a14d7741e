"""Find, create, update and delete one kind of Google Cloud resource, driven by its spec.

The same five calls as the AWS core, over a googleapiclient resource built from the shipped
discovery document. A state is the resource as ``get`` returns it, keyed by field name, with
its references in canonical form (:mod:`.refs`). Scope parameters (project, region, zone)
come from the task or the context; everything else from the state. Long-running operations are
waited on (:mod:`.operations`), or handed back unfinished (reconcilers, which requeue).

Every mutating call whose method declares ``requestId`` carries one: a fresh id per logical
call, the same on each retry of it, so a retry after a lost answer is answered with the first
call's operation. A call that has none, or whose fingerprint went stale (412), is not resent
as it was: the resource is read again and the change recomputed from what it now is.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from . import updates as gcp_updates
from ..contract.state import State
from ..contract.errors import NotFoundError, TryAgainLater
from .errors import translate
from .listing import find_by_natural_key, find_listed, mark_written, owned_states
from .operations import OperationWaiter, finished, is_operation, operation_params
from .refs import as_wanted, canonical_state
from .updates import request_id
from ..contract.ownership import Owner
from ..contract.calls import CallCount
from ..contract.retry import RetryPolicy
from ..contract.snapshot import Snapshots
from ..contract.spec import ResourceSpec

READ_VERBS = ("get", "list", "aggregatedList", "wait", "getIamPolicy")


def _fix(name: str) -> str:
    from googleapiclient.discovery import fix_method_name  # type: ignore[import-untyped]

    return str(fix_method_name(name))


class GcpCore:
    """The calls for one resource type, in one scope."""

    def __init__(
        self,
        spec: ResourceSpec,
        client: Any,
        scope: Mapping[str, str],
        retry: RetryPolicy | None = None,
        wait: bool = True,
        operation_timeout: float = 300.0,
    ) -> None:
        self.spec, self.client, self.scope = spec, client, dict(scope)
        self.retry = retry or RetryPolicy()
        self.wait = wait
        self.operation_timeout = operation_timeout
        self.pending: dict[str, Any] | None = None  # an operation left running (wait=False)
        self.snapshots: Snapshots | None = None  # the pass's batched reads, when it has them
        self.calls: CallCount | None = None  # where the calls it sends are counted
        self.answer: State | None = None  # an insert answers an operation, never the resource
        # the client's own base URL: references are compared as full URLs on it
        self.base = str(getattr(client, "_baseUrl", "") or "")

    # -- calling ---------------------------------------------------------------------------------

    def _method(self, method_id: str) -> Any:
        target = self.client
        parts = method_id.split(".")[1:]
        for part in parts[:-1]:
            target = getattr(target, _fix(part))()
        return getattr(target, _fix(parts[-1]))

    def execute(
        self,
        method_id: str,
        retry_not_found: bool = False,
        writes: tuple[Mapping[str, Any], ...] = (),
        **params: Any,
    ) -> dict[str, Any]:
        """Call a method with the runtime's retries; errors come out translated. A read, or a
        call that carries a ``requestId`` (the same on every try), is idempotent; any other
        mutating call is sent once and its unknown outcome left to the caller. ``writes``: the
        states of the resource a mutating call writes, so that the pass's listings drop only
        its items (:func:`.listing.mark_written`); without them, every listing it touches."""
        read = method_id.rsplit(".", 1)[-1] in READ_VERBS
        idempotent = read or bool(params.get("requestId"))
        marked = not read and mark_written(self, *writes)

        def call(**kwargs: Any) -> dict[str, Any]:
            if self.calls is not None:
                self.calls.count(read)
            try:
                result = self._method(method_id)(**kwargs).execute()
            except Exception as err:
                translated = translate(err, method_id)
                if translated is err:
                    raise
                raise translated from None
            # a method without a response body (storage's delete) hands back raw bytes
            return result if isinstance(result, dict) else {}

        retry_if = (lambda err: isinstance(err, NotFoundError)) if retry_not_found else None
        try:
            result: dict[str, Any] = self.retry.call(
                call, idempotent=idempotent, retry_if=retry_if, **params
            )
        finally:
            if self.snapshots is not None and not read and not marked:
                # written, or perhaps written (an unknown outcome): what was listed is stale
                self.snapshots.invalidate(self.spec.service, self.spec.listings_touched())
        return result

    def params(
        self, identity: tuple[tuple[str, str], ...], state: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """Call parameters: ``@project`` etc. from the scope, the rest from the state; None when
        one is unknown (a parent that does not exist yet)."""
        out: dict[str, Any] = {}
        for param, source in identity:
            if source.startswith("="):  # a resource-name path: "=projects/{project}", "={name}"
                values = {
                    **{k: v for k, v in self.scope.items() if v},
                    **{k: self.relative(v) for k, v in state.items() if isinstance(v, str)},
                }
                try:
                    value: Any = source[1:].format(**values)
                except KeyError:
                    return None
            else:
                value = self.scope.get(source[1:]) if source.startswith("@") else state.get(source)
            if value in (None, ""):
                return None
            out[param] = value
        return out

    def relative(self, value: str) -> str:
        """A resource-name path holds relative names: a reference held as a full URL on the
        client's base (its canonical form, :mod:`.refs`) goes in as the name after it."""
        return value[len(self.base) :] if self.base and value.startswith(self.base) else value

    # -- operations ------------------------------------------------------------------------------

    def _finish(self, operation: Mapping[str, Any], method_id: str) -> dict[str, Any]:
        """Wait for a long-running operation (or leave it pending); its error is the call's.
        The operation as it ended ({} when not waited on)."""
        if not is_operation(operation) or self.spec.operation_waiter is None:
            return {}
        if not self.wait and not finished(operation):
            self.pending = dict(operation)
            return {}
        waiter = OperationWaiter(
            self.spec.operation_waiter,
            self.execute,
            self.retry,
            self.operation_timeout,
            parameters=self.parameters_of(self.spec.operation_waiter),
        )
        return waiter.wait(operation, method_id)

    def operation_done(self, operation: Mapping[str, Any]) -> dict[str, Any]:
        """Look at a pending operation once (no waiting): for reconcilers' next pass."""
        waiter = self.spec.operation_waiter or ""
        getter = waiter.rsplit(".", 1)[0] + ".get"
        return self.execute(getter, **operation_params(operation, self.parameters_of(getter)))

    def parameters_of(self, method_id: str) -> dict[str, Any] | None:
        """A method's parameters as its discovery document describes them (the client was
        built from it), so an operation's poll names its parameters as that API does."""
        target = self.client
        parts = method_id.split(".")[1:]
        try:
            for part in parts[:-1]:
                target = getattr(target, _fix(part))()
        except AttributeError:
            return None
        methods = (getattr(target, "_resourceDesc", None) or {}).get("methods") or {}
        found = methods.get(parts[-1]) or {}
        return dict(found.get("parameters") or {}) or None

    # -- state -----------------------------------------------------------------------------------

    def state(self, item: Mapping[str, Any], placed: Mapping[str, Any] | None = None) -> State:
        """The resource as read; ``placed``: the parents the read found it in (:meth:`placed`)."""
        read = {
            f.name: item[f.read_member or f.name]
            for f in self.spec.fields
            if (f.read_member or f.name) in item
        }
        read = {**(placed or {}), **read}
        return canonical_state(self.spec, read, self.base, self.scope.get("project", ""))

    def placed(
        self, identity: tuple[tuple[str, str], ...], params: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The fields a call's path filled (a record set's ``managedZone``): what a resource
        read at that path holds, though its read may not say so (the path said it)."""
        fields = {f.name for f in self.spec.fields}
        return {
            source: params[param]
            for param, source in identity
            if source in fields and param in params
        }

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

    def named_by_path(self) -> bool:
        """Named by a path the server makes (an IAM service account's email), not by ``name``."""
        return any(
            source.startswith("=")
            for _, source in (self.spec.read.identity if self.spec.read else ())
        )

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

    def listed_owned(self, owner: Owner) -> list[State] | None:
        """Every resource of this kind in scope carrying the owner's label (prune's inventory)."""
        return owned_states(self, owner)

    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None:
        """Every field comes back from ``get``."""

    def read_again(self, actual: Mapping[str, Any]) -> State:
        """The resource as it is now, for a change to be recomputed from."""
        read = self.spec.read
        params = self.params(read.identity, actual) if read is not None else None
        if read is None or params is None:
            raise TryAgainLater(f"{self.spec.name}: cannot read it again to recompute a change")
        return self.state(
            self.execute(read.operation, **params), self.placed(read.identity, params)
        )

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
        ended = self._finish(response, create.operation)
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
            self._finish(self.execute(call.operation, writes=(actual,), **params), call.operation)
        except NotFoundError:
            return
