"""Find, create, update and delete one kind of AWS resource, driven by its ResourceSpec.

The AWS side of the runtime's contract (:mod:`..contract.state`): botocore calls go in, states and the
runtime's own errors come out. botocore's errors are translated here (:mod:`.errors`), and
every answer is checked against the shape the model promised before it is believed.

Two clients: ``client`` (botocore's retries as the user configured them) for reads and for
calls that carry an idempotency token, and ``once`` (botocore's retries off) for mutating calls
that carry none, which must never be sent twice blindly.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from botocore import xform_name

from . import create as aws_create, find as aws_find, updates as aws_updates
from .errors import translate
from .find import known, read_ahead
from .listing import find_listed, owned_states
from .tag_reads import with_tags
from ..contract.state import State
from ..contract.calls import READ_PREFIXES, CallCount
from ..contract.errors import CloudError, MalformedResponseError, NotFoundError
from ..contract.ownership import Owner
from ..contract.retry import RetryPolicy
from ..contract.snapshot import Snapshots
from ..contract.spec import FieldSpec, ReadSpec, ResourceSpec
from .versions import read_default_version


class AwsCore:
    """The calls for one resource type; one instance per client."""

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
        method = getattr(self.client if idempotent else self.once, xform_name(operation))
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

    def _read(
        self, params: Mapping[str, Any], retry_not_found: bool, read: ReadSpec | None = None
    ) -> list[dict[str, Any]]:
        """All items a read (the spec's, or ``read``) returns, every page of it; [] when the API
        says NotFound (after retrying it, when the resource was just created and may not be
        visible yet)."""
        read = read or self.spec.read
        assert read is not None
        method = xform_name(read.operation)

        def fetch(**kwargs: Any) -> list[dict[str, Any]]:
            if not self.client.can_paginate(method):
                return self._items(getattr(self.client, method)(**kwargs), read)
            items: list[dict[str, Any]] = []
            for page in self.client.get_paginator(method).paginate(**kwargs):
                items += self._items(page, read)
            return items

        def tagged(**kwargs: Any) -> list[dict[str, Any]]:
            items = fetch(**kwargs)
            # an answer about what was asked for by its id (HeadBucket, GetTopicAttributes,
            # GetDeliveryDestinationPolicy's policy, GetBucketCors' rules, a zone's keys from
            # GetDNSSEC) need not repeat the id: it is the id sent (an item's own wins)
            asked = {p: kwargs[p] for p in self.spec.primary if p in kwargs}
            items = [{**asked, **item} for item in items]
            return with_tags(self, items)  # tags the read lacks (ELBv2)

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

    def _items(self, response: Any, read: ReadSpec | None = None) -> list[dict[str, Any]]:
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
                self._check_tags(read.operation, f"{path}/{index}", item)
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
            self._check_tags(operation, f"{path}/{member}/{index}", item)

    def _names_nothing(self, operation: str, item: Mapping[str, Any]) -> bool:
        """A flat answer made only of empty structures whose shapes require members (an
        ``AnalyticsConfiguration: {}`` without its required Id) describes no resource: some
        servers answer a configuration that was never put that way rather than NotFound. An
        answer with nothing in it at all (HeadBucket's) says nothing either way and stays."""
        if not item or any(v != {} for v in item.values()):
            return False
        model = getattr(getattr(self.client, "meta", None), "service_model", None)
        if model is None:
            return False
        output = model.operation_model(operation).output_shape
        members = output.members if output is not None else {}
        return all(k in members and getattr(members[k], "required_members", None) for k in item)

    def _check_tags(self, operation: str, path: str, item: Mapping[str, Any]) -> None:
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
                out[f.name] = self._from_api(f, item[key])
        for member in self.spec.primary:
            # an id only the calls name (DescribeSecret's SecretId, the name or ARN it was
            # asked by): no field holds it, but the update and delete calls select by it
            if member not in out and member in item:
                out[member] = item[member]
        return out

    def _from_api(self, f: FieldSpec, value: Any) -> Any:
        if f.is_tags and isinstance(value, Mapping):
            return dict(value)  # checked by _check_tags: strings to strings
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
    def _to_api(f: FieldSpec, value: Any) -> Any:
        return {f.value_wrapper: value} if f.value_wrapper else value

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

    def inputs(self, operation: str) -> Any:
        """The members ``operation`` takes, as botocore shapes (empty when the client has no
        model to say)."""
        model = getattr(getattr(self.client, "meta", None), "service_model", None)
        shape = model.operation_model(operation).input_shape if model else None
        return shape.members if shape is not None else {}

    def required_inputs(self, operation: str) -> tuple[str, ...]:
        """The members ``operation`` cannot be called without (empty when the client has no
        model to say)."""
        model = getattr(getattr(self.client, "meta", None), "service_model", None)
        shape = model.operation_model(operation).input_shape if model else None
        return tuple(shape.required_members) if shape is not None else ()

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
        """Make, before the task runs, the read its find will need (:func:`.find.read_ahead`)."""
        read_ahead(self, desired, name, owner, match_tags, first_look)

    def listed_owned(self, owner: Owner) -> list[State] | None:
        """Every live resource of this kind ``owner`` owns (prune's inventory); None when the
        kind cannot be listed by tag."""
        return owned_states(self, owner)

    def state_of(self, spec: ResourceSpec, item: Mapping[str, Any]) -> Any:
        """The tags of another kind's item (a Route's RouteTable), as that kind reads them."""
        if spec.tags is None:
            return None
        return AwsCore(spec, self.client).state(item).get(spec.tags.field)

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
        for f, response in zip(fields, responses):
            if f.name in response:
                state[f.name] = self._from_api(f, response[f.name])

    # -- create / update / delete --------------------------------------------------------------

    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State:
        """Create the resource with every create-time field and its tags in one call; return
        the identity the create gave it, plus what the answer holds only once (a private key).

        With an idempotency token the call is retried with that same token; without one it is
        sent once: a lost answer is an :class:`OutcomeUnknownError` for the caller to resolve
        by finding, never by sending it again (:mod:`.create`)."""
        return aws_create.create(self, desired, token)

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
            core = AwsCore(other, self.client, self.retry)
            try:
                items = core._read(
                    {
                        read.filters_member: [
                            {"Name": f.filter_name, "Values": [actual[self.spec.primary[0]]]}
                        ]
                    },
                    retry_not_found=False,
                )
            except Exception:  # noqa: BLE001
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
