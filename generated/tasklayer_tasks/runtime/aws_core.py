"""Find, create, update and delete one kind of AWS resource, driven by its ResourceSpec.

A *state* is a plain dict keyed by the API's member names (``{"VpcId": "vpc-1", "CidrBlock":
"10.0.0.0/16", "Tags": {"Name": "main"}}``): tags as a dict, ``{"Value": x}`` wrappers
removed, members the read renames put back under the field's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from botocore import xform_name
from botocore.exceptions import ClientError

from .errors import TryAgainLater
from .retry import RetryPolicy, is_in_use, is_not_found
from .spec import FieldSpec, ResourceSpec

State = dict[str, Any]


class Core(Protocol):
    """What a task or reconciler needs from a cloud: the same five calls on every cloud."""

    spec: ResourceSpec

    def find(
        self, desired: Mapping[str, Any], name: str, *, retry_not_found: bool = False
    ) -> list[State]: ...
    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None: ...
    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State: ...
    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None: ...
    def delete(self, actual: Mapping[str, Any]) -> None: ...


class AwsCore:
    """The calls for one resource type; one instance per client."""

    def __init__(self, spec: ResourceSpec, client: Any, retry: RetryPolicy | None = None) -> None:
        self.spec = spec
        self.client = client
        self.retry = retry or RetryPolicy()

    # -- calling ---------------------------------------------------------------------------

    def call(
        self, operation: str, params: Mapping[str, Any], *, retry_not_found: bool = False
    ) -> Any:
        method = getattr(self.client, xform_name(operation))
        retry_if = self._not_found if retry_not_found else None
        return self.retry.call(method, retry_if=retry_if, **params)

    def _not_found(self, err: ClientError) -> bool:
        return is_not_found(err, self.spec.not_found_codes)

    def _read(self, params: Mapping[str, Any], retry_not_found: bool) -> list[dict[str, Any]]:
        """All items a read returns, every page of it; [] when the API says NotFound (after
        retrying it, when the resource was just created and may not be visible yet)."""
        read = self.spec.read
        assert read is not None
        method = xform_name(read.operation)

        def fetch(**kwargs: Any) -> list[dict[str, Any]]:
            if not self.client.can_paginate(method):
                return self._items(getattr(self.client, method)(**kwargs))
            items: list[dict[str, Any]] = []
            for page in self.client.get_paginator(method).paginate(**kwargs):
                items += self._items(page)
            return items

        try:
            found: list[dict[str, Any]] = self.retry.call(
                fetch, retry_if=self._not_found if retry_not_found else None, **params
            )
            return found
        except ClientError as err:
            if self._not_found(err):
                return []
            raise

    def _items(self, response: Mapping[str, Any]) -> list[dict[str, Any]]:
        read = self.spec.read
        assert read is not None
        if read.output_member is None:
            return [{k: v for k, v in response.items() if k != "ResponseMetadata"}]
        value = response.get(read.output_member)
        if value is None:
            return []
        return list(value) if isinstance(value, list) else [value]

    # -- state -------------------------------------------------------------------------------

    def state(self, item: Mapping[str, Any]) -> State:
        out: State = {}
        for f in self.spec.fields:
            key = f.read_member or f.name
            if key in item:
                out[f.name] = self._from_api(f, item[key])
        return out

    @staticmethod
    def _from_api(f: FieldSpec, value: Any) -> Any:
        if f.is_tags and isinstance(value, list):
            return {t["Key"]: t.get("Value", "") for t in value if "Key" in t}
        if f.value_wrapper and isinstance(value, dict):
            return value.get(f.value_wrapper)
        return value

    @staticmethod
    def _to_api(f: FieldSpec, value: Any) -> Any:
        return {f.value_wrapper: value} if f.value_wrapper else value

    # -- find --------------------------------------------------------------------------------

    def find(
        self, desired: Mapping[str, Any], name: str, *, retry_not_found: bool = False
    ) -> list[State]:
        """Every resource matching the desired identity: by primary id when known, else by
        natural key within the parent scope. [] when there is none, or no way to look."""
        read = self.spec.read
        if read is None:
            return []
        if read.nested_member:
            return self._find_nested(desired, retry_not_found)
        primary = {p: desired.get(p) for p in self.spec.primary}
        by_id = bool(self.spec.primary) and all(v is not None for v in primary.values())
        params = self._id_params(primary, desired) if by_id else self._natural_params(desired, name)
        if params is None:
            return []
        states = [self.state(item) for item in self._read(params, retry_not_found)]
        # an id is the identity; a name is checked again, in case a server ignored a filter
        return states if by_id else [s for s in states if self._in_scope(s, desired, name)]

    def _id_params(
        self, primary: Mapping[str, Any], desired: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        read = self.spec.read
        assert read is not None
        if read.id_filter and len(primary) == 1:
            value = next(iter(primary.values()))
            return {read.id_filter: [value] if read.id_filter_is_list else value}
        if read.required and all(desired.get(m) is not None for m in read.required):
            return {m: desired[m] for m in read.required}
        return None

    def _natural_params(self, desired: Mapping[str, Any], name: str) -> dict[str, Any] | None:
        read = self.spec.read
        assert read is not None
        filters: list[dict[str, Any]] = []
        params: dict[str, Any] = {}
        for member in self.spec.natural:
            if member == "tag:Name":
                filters.append({"Name": "tag:Name", "Values": [name]})
                continue
            value = desired.get(member)
            f = self.spec.field(member)
            if value is None:
                return None
            if read.filters_member and f.filter_name:
                filters.append({"Name": f.filter_name, "Values": [value]})
            elif read.natural_filter:
                params[read.natural_filter] = [value]
            elif member in read.required:
                params[member] = value
            else:
                return None
        for member in self.spec.parent:
            value, f = desired.get(member), self.spec.field(member)
            if value is not None and read.filters_member and f.filter_name:
                filters.append({"Name": f.filter_name, "Values": [value]})
        if filters and not read.filters_member:
            return None
        if filters:
            params[read.filters_member] = filters  # type: ignore[index]
        if read.required and not all(m in params for m in read.required):
            return None
        return params if params else None

    def _in_scope(self, state: State, desired: Mapping[str, Any], name: str) -> bool:
        """Check what the filters asked, in case a server ignored one."""
        for member in (*self.spec.natural, *self.spec.parent):
            if member == "tag:Name":
                if (state.get(self.spec.tags.field if self.spec.tags else "Tags") or {}).get(
                    "Name"
                ) != name:
                    return False
            elif (
                desired.get(member) is not None
                and member in state
                and state[member] != desired[member]
            ):
                return False
        return True

    def _find_nested(self, desired: Mapping[str, Any], retry_not_found: bool) -> list[State]:
        """Sub-resources listed inside their parent (a Route in its RouteTable)."""
        read = self.spec.read
        assert read is not None and read.nested_member and read.id_filter
        parent_field = self.spec.parent[0]
        parent_id = desired.get(parent_field)
        if parent_id is None:
            return []
        params = {read.id_filter: [parent_id] if read.id_filter_is_list else parent_id}
        found = []
        for parent in self._read(params, retry_not_found):
            for item in parent.get(read.nested_member) or []:
                state = self.state(item)
                state.setdefault(parent_field, parent_id)
                found.append(state)
        keys = [p for p in self.spec.primary if p != parent_field and desired.get(p) is not None]
        if not keys:
            keys = [
                f.name
                for f in self.spec.fields
                if f.in_create
                and f.mutability == "create_only"
                and f.name != parent_field
                and desired.get(f.name) is not None
            ]
        return [s for s in found if all(s.get(k) == desired[k] for k in keys)]

    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None:
        """Fields the main read does not return (DescribeVpcAttribute), read only when wanted."""
        for f in self.spec.fields:
            if f.read_operation is None or f.read_attribute is None or wanted.get(f.name) is None:
                continue
            params = {p: state[p] for p in self.spec.primary if p in state}
            response = self.call(f.read_operation, {**params, "Attribute": f.read_attribute})
            if f.name in response:
                state[f.name] = self._from_api(f, response[f.name])

    # -- create / update / delete --------------------------------------------------------------

    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State:
        """Create the resource with every create-time field and its tags in one call; return
        the identity the create gave it."""
        create = self.spec.create
        assert create is not None
        params: dict[str, Any] = {}
        for f in self.spec.fields:
            if f.in_create and not f.is_tags and desired.get(f.name) is not None:
                params[f.name] = desired[f.name]
        tags = self.spec.tags
        wanted_tags = desired.get(tags.field) if tags else None
        if tags and tags.create_member and wanted_tags:
            tag_list = [{"Key": k, "Value": v} for k, v in wanted_tags.items()]
            if tags.create_member == "TagSpecifications":
                params["TagSpecifications"] = [
                    {"ResourceType": tags.resource_type, "Tags": tag_list}
                ]
            else:
                params[tags.create_member] = tag_list
        if create.idempotency_token and token:
            params[create.idempotency_token] = token
        response = self.call(create.operation, params)
        identity: State = {
            p: desired.get(p) for p in self.spec.primary if desired.get(p) is not None
        }
        if create.id_member and len(self.spec.primary) == 1:
            item = response
            if create.output_member:
                item = response.get(create.output_member) or {}
                item = item[0] if isinstance(item, list) and item else item
            if isinstance(item, Mapping) and create.id_member in item:
                identity[self.spec.primary[0]] = item[create.id_member]
        return identity

    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        """Send each changed field through the call that carries it; fields sharing a call go
        in one call, unless the call takes one field at a time."""
        by_call: dict[str, list[FieldSpec]] = {}
        for name in changes:
            f = self.spec.field(name)
            if f.is_tags:
                self._tag(actual, changes[name])
            elif f.update_operation:
                by_call.setdefault(f.update_operation, []).append(f)
        for operation, fields in by_call.items():
            call = self.spec.update_call(operation)
            identity = call.identity_params(dict(actual))
            groups = [[f] for f in fields] if call.one_field_per_call else [fields]
            for group in groups:
                params = dict(identity)
                for f in group:
                    params[f.update_member or f.name] = self._to_api(f, changes[f.name])
                self.call(operation, params)

    def _tag(self, actual: Mapping[str, Any], tags: Mapping[str, str]) -> None:
        spec = self.spec.tags
        if spec is None or spec.tag_operation is None or spec.selector_member is None:
            return
        have = actual.get(spec.field) or {}
        tags = {k: v for k, v in tags.items() if have.get(k) != v}  # only what differs
        if not tags:
            return
        key = self.spec.arn if spec.selector_is_arn and self.spec.arn else self.spec.primary[0]
        selector = actual[key]
        self.call(
            spec.tag_operation,
            {
                spec.selector_member: [selector] if spec.selector_is_list else selector,
                "Tags": [{"Key": k, "Value": v} for k, v in tags.items()],
            },
        )

    def delete(self, actual: Mapping[str, Any]) -> None:
        """Delete; gone already is fine; in use (a dependency still there) is 'try again later'."""
        call = self.spec.delete
        assert call is not None
        params = call.identity_params(dict(actual))
        try:
            self.call(call.operation, params)
        except ClientError as err:
            if self._not_found(err):
                return
            if is_in_use(err):
                raise TryAgainLater(f"{self.spec.name}: still in use: {err}") from err
            raise
