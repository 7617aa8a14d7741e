"""Calling one kind of AWS resource's API: the runtime's retries over botocore, errors translated
(:mod:`.errors`), every answer checked against the shape the model promised before it is
believed, and items turned into states. The layer every other module of the AWS adapter calls
through; :class:`~.core.AwsCore` adds the adapter's verbs on top (docs/architecture.md).

Two clients: ``client`` (botocore's retries as the user configured them) for reads and for
calls that carry an idempotency token, and ``once`` (botocore's retries off) for mutating calls
that carry none, which must never be sent twice blindly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from botocore import xform_name
from botocore.model import Shape

from ..contract.calls import READ_PREFIXES, CallCount
from ..contract.errors import CloudError, MalformedResponseError, NotFoundError
from ..contract.retry import RetryPolicy
from ..contract.snapshot import Snapshots
from ..contract.spec import FieldSpec, ReadSpec, ResourceSpec
from ..contract.state import State
from . import model
from .errors import translate
from .tag_reads import with_tags


class AwsCalls:
    """The calls for one resource type over one client, and its items as states."""

    def __init__(
        self,
        spec: ResourceSpec,
        client: Any,
        retry: RetryPolicy | None = None,
        once: Any = None,
        snapshots: Snapshots | None = None,
    ) -> None:
        self.spec = spec
        self.client = client
        self.once = once if once is not None else client
        self.retry = retry or RetryPolicy()
        self.snapshots = snapshots  # the pass's batched reads, when it has them
        self.answer: State | None = None  # the last create's answer, when it is the resource
        # botocore's before-call hook on the context's clients counts every call: none here
        self.calls: CallCount | None = None
        self.pending: dict[str, Any] | None = None  # AWS has no long-running operations

    # -- calling ---------------------------------------------------------------------------

    def call(
        self,
        operation: str,
        params: Mapping[str, Any],
        *,
        idempotent: bool,
        retry_if: Callable[[CloudError], bool] | None = None,
    ) -> Any:
        """One API call, with the runtime's retries; errors come out translated."""
        method = model.method(self.client if idempotent else self.once, operation)
        try:
            return self.retry.call(
                self._translated(operation, method),
                idempotent=idempotent,
                retry_if=retry_if,
                **params,
            )
        finally:
            if self.snapshots is not None and not operation.startswith(READ_PREFIXES):
                # written, or perhaps written (an unknown outcome): what was listed is stale
                self.snapshots.invalidate(self.spec.service, self.spec.listings_touched())

    def _translated(self, operation: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(**params: Any) -> Any:
            try:
                return fn(**params)
            except Exception as err:
                translated = translate(err, operation, self.spec.not_found_codes)
                if translated is err:
                    raise
                raise translated from None  # the SDK's error may quote values: not chained

        return call

    def read_items(
        self, params: Mapping[str, Any], retry_not_found: bool, read: ReadSpec | None = None
    ) -> list[dict[str, Any]]:
        """All items a read (the spec's, or ``read``) returns, every page of it; [] when the API
        says NotFound (after retrying it, when the resource was just created and may not be
        visible yet)."""
        read = read or self.spec.read
        assert read is not None
        operation = read.operation
        method = xform_name(operation)  # botocore's paginator name for the operation

        def fetch(**kwargs: Any) -> list[dict[str, Any]]:
            if not self.client.can_paginate(method):
                return self.items(model.method(self.client, operation)(**kwargs), read)
            items: list[dict[str, Any]] = []
            for page in self.client.get_paginator(method).paginate(**kwargs):
                items += self.items(page, read)
            return items

        def tagged(**kwargs: Any) -> list[dict[str, Any]]:
            items = fetch(**kwargs)
            # an answer about what was asked for by its id (HeadBucket, GetTopicAttributes,
            # GetDeliveryDestinationPolicy's policy, GetBucketCors' rules, a zone's keys from
            # GetDNSSEC) need not repeat the id: it is the id sent (an item's own wins)
            asked = {p: kwargs[p] for p in self.spec.primary if p in kwargs}
            items = [{**asked, **item} for item in items]
            return with_tags(self.spec, self.read_call, items)  # tags the read lacks (ELBv2)

        retry_if = (lambda err: isinstance(err, NotFoundError)) if retry_not_found else None
        try:
            found: list[dict[str, Any]] = self.retry.call(
                self._translated(read.operation, tagged),
                idempotent=True,
                retry_if=retry_if,
                **params,
            )
            return found
        except NotFoundError:
            return []

    def items(self, response: Any, read: ReadSpec | None = None) -> list[dict[str, Any]]:
        """The items of a read's answer, checked: a wrong shape is an error, never "none"."""
        read = read or self.spec.read
        assert read is not None
        if not isinstance(response, Mapping):
            raise MalformedResponseError(
                read.operation, "/", f"expected an object, got {type(response).__name__}"
            )
        if read.output_member is None:
            item = {k: v for k, v in response.items() if k != "ResponseMetadata"}
            return [] if self._names_nothing(read.operation, item) else [item]
        value = response.get(read.output_member)
        if value is None or self._names_nothing(read.operation, {read.output_member: value}):
            return []
        if value == {} and not read.output_is_list:
            # the resource's member with nothing in it (GetDeliveryDestinationPolicy's
            # ``policy: {}`` before any policy is put) names no resource: no id, no field
            return []
        path = f"/{read.output_member}"
        items = value if isinstance(value, list) else [value]
        if read.output_is_list and not isinstance(value, list):
            raise MalformedResponseError(
                read.operation, path, f"expected a list, got {type(value).__name__}"
            )
        for index, item in enumerate(items):
            if not isinstance(item, Mapping):
                raise MalformedResponseError(
                    read.operation, f"{path}/{index}", "expected an object"
                )
            if read.wrapped_member:  # a Reservation wraps the Instances: they are the items
                self._check_wrapped(read.operation, f"{path}/{index}", item, read.wrapped_member)
            else:
                self.check_tags(read.operation, f"{path}/{index}", item)
        if read.wrapped_member:
            return [dict(i) for item in items for i in item.get(read.wrapped_member) or []]
        return [dict(item) for item in items]

    def _check_wrapped(
        self, operation: str, path: str, wrapper: Mapping[str, Any], member: str
    ) -> None:
        inner = wrapper.get(member)
        if inner is not None and not isinstance(inner, list):
            raise MalformedResponseError(operation, f"{path}/{member}", "expected a list")
        for index, item in enumerate(inner or []):
            if not isinstance(item, Mapping):
                raise MalformedResponseError(
                    operation, f"{path}/{member}/{index}", "expected an object"
                )
            self.check_tags(operation, f"{path}/{member}/{index}", item)

    def _names_nothing(self, operation: str, item: Mapping[str, Any]) -> bool:
        """A flat answer made only of empty structures whose shapes require members (an
        ``AnalyticsConfiguration: {}`` without its required Id) describes no resource: some
        servers answer a configuration that was never put that way rather than NotFound. An
        answer with nothing in it at all (HeadBucket's) says nothing either way and stays."""
        if not item or any(v != {} for v in item.values()):
            return False
        return all(
            model.requires_members(model.output_member(self.client, operation, k)) for k in item
        )

    def check_tags(self, operation: str, path: str, item: Mapping[str, Any]) -> None:
        """Tags are how ownership is proven: a malformed tag list is never read as "no tags"."""
        for f in self.spec.fields:
            if not f.is_tags:
                continue
            key = f.read_member or f.name
            value = item.get(key)
            if isinstance(value, Mapping):  # a {key: value} map (CloudWatch Logs deliveries)
                if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
                    raise MalformedResponseError(
                        operation, f"{path}/{key}", "a tag map of non-strings"
                    )
                continue
            if value is not None and not isinstance(value, list):
                raise MalformedResponseError(operation, f"{path}/{key}", "expected a list of tags")
            for index, tag in enumerate(value or []):
                if not isinstance(tag, Mapping) or not isinstance(tag.get("Key"), str):
                    raise MalformedResponseError(
                        operation, f"{path}/{key}/{index}", "a tag without a Key"
                    )

    # -- state -------------------------------------------------------------------------------

    def state(self, item: Mapping[str, Any]) -> State:
        out: State = {}
        for f in self.spec.fields:
            key = f.read_member or f.name
            if key in item:
                out[f.name] = self.from_api(f, item[key])
        for member in self.spec.primary:
            # an id only the calls name (DescribeSecret's SecretId, the name or ARN it was
            # asked by): no field holds it, but the update and delete calls select by it
            if member not in out and member in item:
                out[member] = item[member]
        return out

    def from_api(self, f: FieldSpec, value: Any) -> Any:
        if f.is_tags and isinstance(value, Mapping):
            return dict(value)  # checked by check_tags: strings to strings
        if f.is_tags and isinstance(value, list):
            tags: dict[str, str] = {}
            for index, tag in enumerate(value):
                if not isinstance(tag, Mapping) or not isinstance(tag.get("Key"), str):
                    operation = self.spec.read.operation if self.spec.read else self.spec.name
                    raise MalformedResponseError(
                        operation, f"{f.name}/{index}", "a tag without a Key"
                    )
                tags[tag["Key"]] = str(tag.get("Value", ""))
            return tags
        if f.value_wrapper and isinstance(value, dict):
            return value.get(f.value_wrapper)
        if f.update_kind == "add_remove" and f.update_member and isinstance(value, list):
            # a membership list read as structures is the set of the member the calls take (an
            # instance profile's Roles: their RoleNames)
            return [
                i.get(f.update_member) if isinstance(i, Mapping) and f.update_member in i else i
                for i in value
            ]
        return value

    @staticmethod
    def to_api(f: FieldSpec, value: Any) -> Any:
        return {f.value_wrapper: value} if f.value_wrapper else value

    def state_of(self, spec: ResourceSpec, item: Mapping[str, Any]) -> Any:
        """The tags of another kind's item (a Route's RouteTable), as that kind reads them."""
        if spec.tags is None:
            return None
        return AwsCalls(spec, self.client).state(item).get(spec.tags.field)

    def inputs(self, operation: str) -> Mapping[str, Shape]:
        """The members ``operation`` takes, as botocore shapes (empty when the client has no
        model to say)."""
        return model.input_members(self.client, operation)

    def required_inputs(self, operation: str) -> tuple[str, ...]:
        """The members ``operation`` cannot be called without (empty when the client has no
        model to say)."""
        return model.required_inputs(self.client, operation)

    def read_call(self, operation: str, params: Mapping[str, Any]) -> Any:
        """One read, with the runtime's retries (the tag reads' way in: :mod:`.tag_reads`)."""
        return self.call(operation, params, idempotent=True)
