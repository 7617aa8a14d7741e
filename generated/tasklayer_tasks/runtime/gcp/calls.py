"""Calling one kind of Google Cloud resource's API: googleapiclient methods by their discovery
id with the runtime's retries, errors translated (:mod:`.errors`), long-running operations
waited on or left pending (:mod:`.operations`), and items turned into states in canonical form
(:mod:`.refs`). The layer the other modules of the GCP adapter call through;
:class:`~.core.GcpCore` adds the adapter's verbs on top (docs/architecture.md).

Every mutating call whose method declares ``requestId`` carries one: a fresh id per logical
call, the same on each retry of it, so a retry after a lost answer is answered with the first
call's operation. A call that has none, or whose fingerprint went stale (412), is not resent
as it was: the resource is read again and the change recomputed from what it now is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.calls import CallCount
from ..contract.errors import NotFoundError, TryAgainLater
from ..contract.retry import RetryPolicy
from ..contract.snapshot import Snapshots
from ..contract.spec import ResourceSpec
from ..contract.state import State
from . import discovery
from .errors import translate
from .operations import OperationWaiter, finished, is_operation, operation_params
from .refs import canonical_state
from .written import mark_written

READ_VERBS = ("get", "list", "aggregatedList", "wait", "getIamPolicy")


class GcpCalls:
    """The calls for one resource type, in one scope."""

    def __init__(
        self,
        spec: ResourceSpec,
        client: Any,
        scope: Mapping[str, str],
        retry: RetryPolicy | None = None,
        wait: bool = True,
        operation_timeout: float = 300.0,
        document: str | None = None,
    ) -> None:
        self.spec, self.client, self.scope = spec, client, dict(scope)
        self.retry = retry or RetryPolicy()
        self.wait = wait
        self.operation_timeout = operation_timeout
        self.document = document  # the discovery document the client was built from
        self.pending: dict[str, Any] | None = None  # an operation left running (wait=False)
        self.snapshots: Snapshots | None = None  # the pass's batched reads, when it has them
        self.calls: CallCount | None = None  # where the calls it sends are counted
        self.answer: State | None = None  # an insert answers an operation, never the resource
        # the client's base URL (its document's): references are compared as full URLs on it
        self.base = discovery.base_url(document)

    # -- calling ---------------------------------------------------------------------------------

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
        its items (:func:`.written.mark_written`); without them, every listing it touches."""
        read = method_id.rsplit(".", 1)[-1] in READ_VERBS
        idempotent = read or bool(params.get("requestId"))
        marked = not read and mark_written(self.spec, self.snapshots, *writes)

        def call(**kwargs: Any) -> dict[str, Any]:
            if self.calls is not None:
                self.calls.count(read)
            try:
                result = discovery.method(self.client, method_id)(**kwargs).execute()
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

    def finish(self, operation: Mapping[str, Any], method_id: str) -> dict[str, Any]:
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
        return discovery.method_parameters(self.document, method_id)

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

    def named_by_path(self) -> bool:
        """Named by a path the server makes (an IAM service account's email), not by ``name``."""
        return any(
            source.startswith("=")
            for _, source in (self.spec.read.identity if self.spec.read else ())
        )

    def read_again(self, actual: Mapping[str, Any]) -> State:
        """The resource as it is now, for a change to be recomputed from."""
        read = self.spec.read
        params = self.params(read.identity, actual) if read is not None else None
        if read is None or params is None:
            raise TryAgainLater(f"{self.spec.name}: cannot read it again to recompute a change")
        return self.state(
            self.execute(read.operation, **params), self.placed(read.identity, params)
        )
