"""Find, create, update and delete one kind of Google Cloud resource, driven by its spec.

The same five calls as the AWS core, over a googleapiclient resource built from the shipped
discovery document. A state is the resource as ``get`` returns it, keyed by field name.
Scope parameters (project, region, zone) come from the task or the context; everything else
from the state. Long-running operations are waited on through the API's own ``…Operations.wait``
(tasks), or handed back unfinished (reconcilers, which requeue instead of waiting).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from .core import State
from .errors import NotFoundError, TaskError, TryAgainLater
from .gcp_errors import translate
from .retry import RetryPolicy
from .spec import CallSpec, FieldSpec, ResourceSpec

SCOPE_PLURALS = {"projects": "project", "regions": "region", "zones": "zone", "operations": "operation"}
READ_VERBS = ("get", "list", "aggregatedList", "wait", "getIamPolicy")


def _fix(name: str) -> str:
    from googleapiclient.discovery import fix_method_name  # type: ignore[import-untyped]

    return str(fix_method_name(name))


class GcpCore:
    """The calls for one resource type, in one scope."""

    def __init__(self, spec: ResourceSpec, client: Any, scope: Mapping[str, str],
                 retry: RetryPolicy | None = None, wait: bool = True) -> None:
        self.spec, self.client, self.scope = spec, client, dict(scope)
        self.retry = retry or RetryPolicy()
        self.wait = wait
        self.pending: dict[str, Any] | None = None  # an operation left running (wait=False)

    # -- calling ---------------------------------------------------------------------------------

    def _method(self, method_id: str) -> Any:
        target = self.client
        parts = method_id.split(".")[1:]
        for part in parts[:-1]:
            target = getattr(target, _fix(part))()
        return getattr(target, _fix(parts[-1]))

    def execute(self, method_id: str, retry_not_found: bool = False, **params: Any) -> dict[str, Any]:
        """Call a method with the runtime's retries; errors come out translated. A read, or a
        call that carries a ``requestId`` (the same on every try), is idempotent; any other
        mutating call is sent once and its unknown outcome left to the caller."""
        idempotent = method_id.rsplit(".", 1)[-1] in READ_VERBS or bool(params.get("requestId"))

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
        result: dict[str, Any] = self.retry.call(call, idempotent=idempotent, retry_if=retry_if, **params)
        return result

    def params(self, identity: tuple[tuple[str, str], ...], state: Mapping[str, Any]) -> dict[str, Any] | None:
        """Call parameters: ``@project`` etc. from the scope, the rest from the state; None when
        one is unknown (a parent that does not exist yet)."""
        out: dict[str, Any] = {}
        for param, source in identity:
            if source.startswith("="):  # a resource-name path: "=projects/{project}", "={name}"
                values = {**{k: v for k, v in self.scope.items() if v},
                          **{k: v for k, v in state.items() if isinstance(v, str)}}
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

    def _finish(self, operation: Mapping[str, Any]) -> None:
        """Wait for a long-running operation (or leave it pending); its error is the task's."""
        if "status" not in operation or self.spec.operation_waiter is None:
            return
        current = dict(operation)
        while current.get("status") != "DONE":
            if not self.wait:
                self.pending = current
                return
            current = self.execute(self.spec.operation_waiter, **self._operation_params(current))
        error = current.get("error")
        if error:
            messages = "; ".join(e.get("message", str(e)) for e in error.get("errors", [error]))
            raise TaskError(f"{self.spec.name}: {current.get('operationType', 'operation')} failed: {messages}")

    @staticmethod
    def _operation_params(operation: Mapping[str, Any]) -> dict[str, Any]:
        parts = str(operation.get("selfLink", "")).split("/")
        params = {SCOPE_PLURALS[k]: v for k, v in zip(parts, parts[1:]) if k in SCOPE_PLURALS}
        params.setdefault("operation", str(operation.get("name", "")))
        return params

    def operation_done(self, operation: Mapping[str, Any]) -> dict[str, Any]:
        """Look at a pending operation once (no waiting): for reconcilers' next pass."""
        waiter = self.spec.operation_waiter or ""
        getter = waiter.rsplit(".", 1)[0] + ".get"
        return self.execute(getter, **self._operation_params(operation))

    # -- state -----------------------------------------------------------------------------------

    def state(self, item: Mapping[str, Any]) -> State:
        return {f.name: item[f.read_member or f.name] for f in self.spec.fields if (f.read_member or f.name) in item}

    def find(self, desired: Mapping[str, Any], name: str, *, match_tags: Mapping[str, str] | None = None,
             retry_not_found: bool = False) -> list[State]:
        """The resource with the desired name in its scope (labels checked when ``match_tags``)."""
        found = self._find(desired, name, retry_not_found)
        tags = self.spec.tags
        if not match_tags or tags is None:
            return found
        return [s for s in found if all((s.get(tags.field) or {}).get(k) == v for k, v in match_tags.items())]

    def _find(self, desired: Mapping[str, Any], name: str, retry_not_found: bool) -> list[State]:
        read = self.spec.read
        if read is None:
            return []
        params = self.params(read.identity, desired if self._named_by_path() else {**desired, "name": desired.get("name") or name})
        if params is None:
            return self._find_listed(desired)
        try:
            return [self.state(self.execute(read.operation, retry_not_found=retry_not_found, **params))]
        except NotFoundError:
            return []

    def _named_by_path(self) -> bool:
        return any(source.startswith("=") for _, source in (self.spec.read.identity if self.spec.read else ()))

    def _find_listed(self, desired: Mapping[str, Any]) -> list[State]:
        """A resource named by a server-made path (an IAM account's email) is found, before
        its name is known, by listing its parent and matching the natural key: the item's own
        field, or the id its name ends with (the part before any ``@``)."""
        listing = self.spec.listing
        keys = [k for k in self.spec.natural if desired.get(k) is not None]
        params = self.params(listing.identity, desired) if listing is not None else None
        if listing is None or not keys or params is None:
            return []
        response = self.execute(listing.operation, **params)
        items = next((v for v in response.values() if isinstance(v, list)), [])
        wanted = str(desired[keys[0]])
        found = [
            item for item in items
            if item.get(keys[0]) == wanted or str(item.get("name", "")).rsplit("/", 1)[-1].split("@")[0] == wanted
        ]
        return [self.state(item) for item in found]

    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None:
        """Every field comes back from ``get``."""

    # -- create / update / delete ------------------------------------------------------------------

    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State:
        create = self.spec.create
        assert create is not None
        body = {f.name: desired[f.name] for f in self.spec.fields if f.in_create and desired.get(f.name) is not None}
        tags = self.spec.tags
        if tags is not None and tags.create_member and desired.get(tags.field):
            body[tags.create_member] = dict(desired[tags.field])  # labels in the insert body itself
        params = self.params(create.identity, desired)
        if params is None:
            raise TryAgainLater(f"{self.spec.name}: its scope is not known yet")
        if create.idempotency_token and token:
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
        self._finish(response)
        identity = {p: desired.get(p) for p in self.spec.primary}
        if "status" not in response:  # not an operation: the resource itself, with its name
            identity.update({p: response[p] for p in self.spec.primary if p in response})
        return identity

    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        by_call: dict[str, list[FieldSpec]] = {}
        for name in changes:
            f = self.spec.field(name)
            operation = self.spec.tags.tag_operation if f.is_tags and self.spec.tags else f.update_operation
            if operation:
                by_call.setdefault(operation, []).append(f)
        for operation, fields in by_call.items():
            self._update_call(self.spec.update_call(operation), fields, actual, changes)

    def _update_call(self, call: CallSpec, fields: list[FieldSpec], actual: Mapping[str, Any],
                     changes: Mapping[str, Any]) -> None:
        params = self.params(call.identity, actual) or {}
        verb = call.operation.rsplit(".", 1)[-1]
        if verb.startswith(("add", "remove")):
            self._add_remove(call, fields, actual, changes, params)
            return
        body: dict[str, Any] = {}
        if verb == "update":  # PUT: the whole resource, as read, with the changes
            body = {f.name: actual[f.name] for f in self.spec.fields if f.name in actual and f.mutability != "read_only"}
        for f in fields:
            value = changes[f.name]
            if f.is_tags:
                value = {**(actual.get(f.name) or {}), **value}  # setLabels replaces: keep the rest
            if f.update_param:
                params[f.update_member or f.name] = value
            else:
                body[f.update_member or f.name] = value
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
        self._finish(self.execute(call.operation, **params))

    def _add_remove(self, call: CallSpec, fields: list[FieldSpec], actual: Mapping[str, Any],
                    changes: Mapping[str, Any], params: dict[str, Any]) -> None:
        """add…/remove… pairs change a list by difference: what is missing, what is extra."""
        verb = call.operation.rsplit(".", 1)[-1]
        partner = call.operation[: -len(verb)] + ("remove" + verb[3:] if verb.startswith("add") else "add" + verb[6:])
        for f in fields:
            have, want = list(actual.get(f.name) or []), list(changes[f.name] or [])
            member = f.update_member or f.name
            for operation, items in ((call.operation, [v for v in want if v not in have]),
                                     (partner, [v for v in have if v not in want])):
                if items:
                    self._finish(self.execute(operation, body={member: items}, **params))

    def delete(self, actual: Mapping[str, Any]) -> None:
        call = self.spec.delete
        assert call is not None
        params = self.params(call.identity, actual)
        if params is None:
            return
        try:
            self._finish(self.execute(call.operation, **params))
        except NotFoundError:
            return
