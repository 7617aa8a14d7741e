"""Find, create, update and delete one kind of Google Cloud resource, driven by its spec.

The same five calls as the AWS core, over a googleapiclient resource built from the shipped
discovery document. A state is the resource as ``get`` returns it, keyed by field name, with
its references in canonical form (:mod:`.gcp_refs`). Scope parameters (project, region, zone)
come from the task or the context; everything else from the state. Long-running operations are
waited on (:mod:`.gcp_operations`), or handed back unfinished (reconcilers, which requeue).

Every mutating call whose method declares ``requestId`` carries one: a fresh id per logical
call, the same on each retry of it, so a retry after a lost answer is answered with the first
call's operation. A call that has none, or whose fingerprint went stale (412), is not resent
as it was: the resource is read again and the change recomputed from what it now is.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from .core import State
from .diff import differs
from .errors import (
    NotFoundError,
    OutcomeUnknownError,
    PreconditionFailedError,
    TryAgainLater,
)
from .gcp_errors import translate
from .gcp_listing import find_by_natural_key, find_listed, owned_states
from .gcp_operations import OperationWaiter, finished, is_operation, operation_params
from .gcp_refs import as_wanted, canonical_state
from .ownership import Owner
from .retry import RetryPolicy
from .snapshot import Snapshots
from .spec import CallSpec, FieldSpec, Mutability, ResourceSpec

READ_VERBS = ("get", "list", "aggregatedList", "wait", "getIamPolicy")


def _fix(name: str) -> str:
    from googleapiclient.discovery import fix_method_name  # type: ignore[import-untyped]

    return str(fix_method_name(name))


def request_id() -> str:
    """A new logical call's ``requestId``: a UUID, as Google requires (never the zero one)."""
    return str(uuid.uuid4())


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
        self, method_id: str, retry_not_found: bool = False, **params: Any
    ) -> dict[str, Any]:
        """Call a method with the runtime's retries; errors come out translated. A read, or a
        call that carries a ``requestId`` (the same on every try), is idempotent; any other
        mutating call is sent once and its unknown outcome left to the caller."""
        read = method_id.rsplit(".", 1)[-1] in READ_VERBS
        idempotent = read or bool(params.get("requestId"))

        def call(**kwargs: Any) -> dict[str, Any]:
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
            if self.snapshots is not None and not read:
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
                    **{k: v for k, v in state.items() if isinstance(v, str)},
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

    # -- operations ------------------------------------------------------------------------------

    def _finish(self, operation: Mapping[str, Any], method_id: str) -> None:
        """Wait for a long-running operation (or leave it pending); its error is the call's."""
        if not is_operation(operation) or self.spec.operation_waiter is None:
            return
        if not self.wait and not finished(operation):
            self.pending = dict(operation)
            return
        waiter = OperationWaiter(
            self.spec.operation_waiter, self.execute, self.retry, self.operation_timeout
        )
        waiter.wait(operation, method_id)

    def operation_done(self, operation: Mapping[str, Any]) -> dict[str, Any]:
        """Look at a pending operation once (no waiting): for reconcilers' next pass."""
        waiter = self.spec.operation_waiter or ""
        getter = waiter.rsplit(".", 1)[0] + ".get"
        return self.execute(getter, **operation_params(operation))

    # -- state -----------------------------------------------------------------------------------

    def state(self, item: Mapping[str, Any]) -> State:
        read = {
            f.name: item[f.read_member or f.name]
            for f in self.spec.fields
            if (f.read_member or f.name) in item
        }
        return canonical_state(self.spec, read, self.base, self.scope.get("project", ""))

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
            return [
                self.state(self.execute(read.operation, retry_not_found=retry_not_found, **params))
            ]
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
    ) -> list[State] | None:
        """:meth:`find` served from the pass's list of the collection (one read per collection
        a pass, :mod:`.gcp_listing`); None when only a direct read can say."""
        if match_tags:
            return None
        found = find_listed(self, {**desired, "name": desired.get("name") or name}, owner)
        return None if found is None else [as_wanted(self.spec, s, desired) for s in found]

    def listed_owned(self, owner: Owner) -> list[State] | None:
        """Every resource of this kind in scope carrying the owner's label (prune's inventory)."""
        return owned_states(self, owner)

    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None:
        """Every field comes back from ``get``."""

    def _read_again(self, actual: Mapping[str, Any]) -> State:
        """The resource as it is now, for a change to be recomputed from."""
        read = self.spec.read
        params = self.params(read.identity, actual) if read is not None else None
        if read is None or params is None:
            raise TryAgainLater(f"{self.spec.name}: cannot read it again to recompute a change")
        return self.state(self.execute(read.operation, **params))

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
        response = self.execute(create.operation, body=body, **params)
        self._finish(response, create.operation)
        identity = {p: desired.get(p) for p in self.spec.primary}
        if not is_operation(response):  # not an operation: the resource itself, with its name
            identity.update({p: response[p] for p in self.spec.primary if p in response})
        return identity

    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        by_call: dict[str, list[FieldSpec]] = {}
        for name in changes:
            f = self.spec.field(name)
            operation = (
                self.spec.tags.tag_operation if f.is_tags and self.spec.tags else f.update_operation
            )
            if operation:
                by_call.setdefault(operation, []).append(f)
        current = dict(actual)
        for operation, fields in by_call.items():
            current = self._converge_call(
                self.spec.update_call(operation), fields, current, changes
            )

    def _converge_call(
        self,
        call: CallSpec,
        fields: list[FieldSpec],
        actual: dict[str, Any],
        changes: Mapping[str, Any],
    ) -> dict[str, Any]:
        """Make one update call; when its fingerprint is stale (412), or its outcome unknown
        and it could not be resent safely, read the resource again and recompute: what is
        already in place is not sent again. Returns the state the next call starts from."""
        current = actual
        for attempt in range(self.retry.attempts):
            try:
                self._update_call(call, fields, current, changes)
                return current
            except (PreconditionFailedError, OutcomeUnknownError):
                if attempt == self.retry.attempts - 1:
                    raise
            current = {**current, **as_wanted(self.spec, self._read_again(current), changes)}
            if not any(
                differs(self.spec, f.name, self._have(f, current, changes), changes[f.name])
                for f in fields
            ):
                return current
            self.retry.sleep(self.retry.delay(attempt))
        return current  # pragma: no cover - the loop returns or raises

    @staticmethod
    def _have(f: FieldSpec, current: Mapping[str, Any], changes: Mapping[str, Any]) -> Any:
        have = current.get(f.name)
        if f.is_tags:
            return {k: (have or {}).get(k) for k in changes[f.name]}
        return have

    def _update_call(
        self,
        call: CallSpec,
        fields: list[FieldSpec],
        actual: Mapping[str, Any],
        changes: Mapping[str, Any],
    ) -> None:
        params = self.params(call.identity, actual) or {}
        verb = call.operation.rsplit(".", 1)[-1]
        if verb.startswith(("add", "remove")):
            self._add_remove(call, fields, actual, changes, params)
            return
        if call.idempotency_token:
            params[call.idempotency_token] = request_id()
        body: dict[str, Any] = {}
        if verb == "update":  # PUT: the whole resource, as read, with the changes
            body = {
                f.name: actual[f.name]
                for f in self.spec.fields
                if f.name in actual and f.mutability is not Mutability.READ_ONLY
            }
        for f in fields:
            value = changes[f.name]
            if f.is_tags:
                value = {**(actual.get(f.name) or {}), **value}  # setLabels replaces: keep the rest
            if f.update_param:
                params[f.update_member or f.name] = value
            else:
                body[f.update_member or f.name] = self._items(
                    call, f.update_member or f.name, value
                )
        for (
            name
        ) in call.required:  # members the method requires whatever changes (a firewall's name)
            if actual.get(name) is not None:
                body.setdefault(name, actual[name])
        for token in call.fingerprints:
            if actual.get(token) is not None:
                body[token] = actual[token]
        if call.body_member:  # iam: {serviceAccount: {...}, updateMask: "displayName"}
            body = {call.body_member: body}
        if call.mask_param:
            mask = ",".join(f.update_member or f.name for f in fields)
            if call.mask_in_body:
                body[call.mask_param] = mask
            else:
                params[call.mask_param] = mask
        if body:
            params["body"] = body
        self._finish(self.execute(call.operation, **params), call.operation)

    @staticmethod
    def _items(call: CallSpec, member: str, value: Any) -> Any:
        """A list the method takes as reference objects (``[{"healthCheck": url}]``)."""
        key = dict(call.item_keys).get(member)
        if key is None or not isinstance(value, list):
            return value
        return [v if isinstance(v, dict) else {key: v} for v in value]

    def _add_remove(
        self,
        call: CallSpec,
        fields: list[FieldSpec],
        actual: Mapping[str, Any],
        changes: Mapping[str, Any],
        params: dict[str, Any],
    ) -> None:
        """add…/remove… pairs change a list by difference: what is missing, what is extra;
        each call its own logical operation, with its own ``requestId``."""
        verb = call.operation.rsplit(".", 1)[-1]
        partner_id = call.operation[: -len(verb)] + (
            "remove" + verb[3:] if verb.startswith("add") else "add" + verb[6:]
        )
        partner = next(
            (c for c in self.spec.updates if c.operation == partner_id),
            CallSpec(partner_id, call.identity),
        )
        for f in fields:
            have, want = list(actual.get(f.name) or []), list(changes[f.name] or [])
            member = f.update_member or f.name
            for each, items in (
                (call, [v for v in want if v not in have]),
                (partner, [v for v in have if v not in want]),
            ):
                if not items:
                    continue
                sent = dict(params)
                if each.idempotency_token:
                    sent[each.idempotency_token] = request_id()
                answer = self.execute(
                    each.operation, body={member: self._items(each, member, items)}, **sent
                )
                self._finish(answer, each.operation)

    def delete(self, actual: Mapping[str, Any]) -> None:
        call = self.spec.delete
        assert call is not None
        params = self.params(call.identity, actual)
        if params is None:
            return
        if call.idempotency_token:
            params[call.idempotency_token] = request_id()
        try:
            self._finish(self.execute(call.operation, **params), call.operation)
        except NotFoundError:
            return
