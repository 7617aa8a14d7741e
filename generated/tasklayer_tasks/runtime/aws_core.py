"""Find, create, update and delete one kind of AWS resource, driven by its ResourceSpec.

The AWS side of the runtime's contract (:mod:`.core`): botocore calls go in, states and the
runtime's own errors come out. botocore's errors are translated here (:mod:`.aws_errors`), and
every answer is checked against the shape the model promised before it is believed.

Two clients: ``client`` (botocore's retries as the user configured them) for reads and for
calls that carry an idempotency token, and ``once`` (botocore's retries off) for mutating calls
that carry none, which must never be sent twice blindly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from botocore import xform_name

from . import aws_change_batch
from .aws_errors import translate
from .aws_listing import answer_state, find_listed, owned_states
from .aws_tag_reads import with_tags
from .core import State
from .errors import CloudError, MalformedResponseError, NotFoundError, OutcomeUnknownError
from .ownership import Owner
from .retry import RetryPolicy
from .snapshot import Snapshots
from .spec import FieldSpec, Mutability, ReadSpec, ResourceSpec, update_order
from .versions import new_default_version, read_default_version

READ_PREFIXES = ("Describe", "Get", "List")


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
            return with_tags(self, fetch(**kwargs))  # tags the read lacks (ELBv2)

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
            return [{k: v for k, v in response.items() if k != "ResponseMetadata"}]
        value = response.get(read.output_member)
        if value is None:
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
            self._check_tags(read.operation, f"{path}/{index}", item)
        return [dict(item) for item in items]

    def _check_tags(self, operation: str, path: str, item: Mapping[str, Any]) -> None:
        """Tags are how ownership is proven: a malformed tag list is never read as "no tags"."""
        for f in self.spec.fields:
            if not f.is_tags:
                continue
            key = f.read_member or f.name
            value = item.get(key)
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
        return out

    def _from_api(self, f: FieldSpec, value: Any) -> Any:
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
        if f.remove_operation and f.update_member and isinstance(value, list):
            # a membership list is the set of its items' names (an instance profile's RoleNames)
            return [i.get(f.update_member) if isinstance(i, Mapping) else i for i in value]
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
        is none, or no way to look."""
        read = self.spec.read
        if read is None:
            return []
        if self.spec.change_batch is not None:
            return aws_change_batch.find(self, desired, retry_not_found)
        if read.nested_member:
            return self._find_nested(desired, retry_not_found)
        primary = {p: desired.get(p) for p in self.spec.primary}
        by_id = bool(self.spec.primary) and all(_known(v) for v in primary.values())
        listing = self.spec.listing
        if not by_id and listing is not None and listing.natural_filter and not read.natural_filter:
            read = listing  # found by name through a list (ListHostedZonesByName)
        params = (
            self._id_params(primary, desired)
            if by_id
            else self._natural_params(desired, name, match_tags, read)
        )
        if params is None:
            return []
        states = [self.state(item) for item in self._read(params, retry_not_found, read)]
        if by_id:
            for state in states:  # an answer about another resource is not believed
                if any(state.get(p) is not None and state.get(p) != v for p, v in primary.items()):
                    raise MalformedResponseError(
                        read.operation, "/", f"asked for {primary}, got another resource"
                    )
            return [s for s in states if self._carries(s, match_tags)]
        return [
            s for s in states if self._in_scope(s, desired, name) and self._carries(s, match_tags)
        ]

    def _carries(self, state: State, tags: Mapping[str, str] | None) -> bool:
        if not tags or self.spec.tags is None:
            return True
        have = state.get(self.spec.tags.field) or {}
        return all(have.get(k) == v for k, v in tags.items())

    def _id_params(
        self, primary: Mapping[str, Any], desired: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        read = self.spec.read
        assert read is not None
        if read.id_filter and len(primary) == 1:
            value = next(iter(primary.values()))
            return {read.id_filter: [value] if read.id_filter_is_list else value}
        if read.required and all(_known(desired.get(m)) for m in read.required):
            return {m: desired[m] for m in read.required}
        return None

    def _natural_params(
        self,
        desired: Mapping[str, Any],
        name: str,
        match_tags: Mapping[str, str] | None,
        read: ReadSpec | None = None,
    ) -> dict[str, Any] | None:
        read = read or self.spec.read
        assert read is not None
        filters: list[dict[str, Any]] = []
        params: dict[str, Any] = {}
        unfiltered = False
        for member in self.spec.natural:
            if member == "tag:Name":
                if not name:
                    return None
                filters.append({"Name": "tag:Name", "Values": [name]})
                continue
            value = desired.get(member)
            f = self.spec.field(member)
            if not _known(value):
                return None
            if read.filters_member and f.filter_name:
                filters.append({"Name": f.filter_name, "Values": [value]})
            elif read.natural_filter:
                params[read.natural_filter] = [value] if read.natural_filter_is_list else value
            elif member in read.required:
                params[member] = value
            else:
                unfiltered = True  # matched on the client (_in_scope), if the parent narrows it
        for member in self.spec.parent:
            value, f = desired.get(member), self.spec.field(member)
            if value is not None and not _known(value):
                return None  # a parent that does not exist yet has no children
            if value is not None and read.filters_member and f.filter_name:
                filters.append({"Name": f.filter_name, "Values": [value]})
            elif value is not None and member in self._read_inputs():
                params[member] = value  # the read lists the parent's (DescribeListeners)
        if unfiltered and not params:
            return None
        if filters and read.filters_member and self.spec.tags is not None:
            filters += [
                {"Name": f"tag:{k}", "Values": [v]} for k, v in sorted((match_tags or {}).items())
            ]
        if filters and not read.filters_member:
            return None
        if filters:
            params[read.filters_member] = filters  # type: ignore[index]
        if read.required and not all(m in params for m in read.required):
            return None
        return params if params else None

    def _inputs(self, operation: str) -> Any:
        """The members ``operation`` takes (empty when the client has no model to say)."""
        model = getattr(getattr(self.client, "meta", None), "service_model", None)
        shape = model.operation_model(operation).input_shape if model else None
        return shape.members if shape is not None else {}

    def _read_inputs(self) -> Any:
        read = self.spec.read
        assert read is not None
        model = getattr(getattr(self.client, "meta", None), "service_model", None)
        shape = model.operation_model(read.operation).input_shape if model else None
        return shape.members if shape is not None else {}

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
        parent_id = desired.get(self.spec.parent[0])
        if not _known(parent_id):
            return []
        params = {read.id_filter: [parent_id] if read.id_filter_is_list else parent_id}
        return self.nested_states(self._read(params, retry_not_found), desired)

    def nested_states(
        self, parents: list[dict[str, Any]], desired: Mapping[str, Any]
    ) -> list[State]:
        """The sub-resources inside parents' items that match the desired identity."""
        read = self.spec.read
        assert read is not None and read.nested_member
        parent_field = self.spec.parent[0]
        parent_id = desired.get(parent_field)
        found = []
        for parent in parents:
            nested = parent.get(read.nested_member) or []
            if not isinstance(nested, list):
                raise MalformedResponseError(
                    read.operation, f"/{read.output_member}/{read.nested_member}", "expected a list"
                )
            for item in nested:
                if not isinstance(item, Mapping):
                    raise MalformedResponseError(
                        read.operation, f"/{read.nested_member}", "expected an object"
                    )
                state = self.state(item)
                state.setdefault(parent_field, parent_id)
                found.append(state)
        keys = [p for p in self.spec.primary if p != parent_field and desired.get(p) is not None]
        if not keys:
            keys = [
                f.name
                for f in self.spec.fields
                if f.in_create
                and f.mutability is Mutability.CREATE_ONLY
                and f.name != parent_field
                and desired.get(f.name) is not None
            ]
        return [s for s in found if all(s.get(k) == desired[k] for k in keys)]

    def find_listed(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        owner: Owner,
        match_tags: Mapping[str, str] | None = None,
    ) -> list[State] | None:
        """:meth:`find` served from the pass's listing of what ``owner`` owns (one read per
        type a pass, :mod:`.aws_listing`); None when only a direct read can say."""
        return find_listed(self, desired, name, owner, match_tags)

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
        for f in self.spec.fields:
            if f.read_operation is None or f.read_attribute is None or wanted.get(f.name) is None:
                continue
            params = {p: state[p] for p in self.spec.primary if p in state}
            response = self.call(
                f.read_operation, {**params, "Attribute": f.read_attribute}, idempotent=True
            )
            if f.name in response:
                state[f.name] = self._from_api(f, response[f.name])

    # -- create / update / delete --------------------------------------------------------------

    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State:
        """Create the resource with every create-time field and its tags in one call; return
        the identity the create gave it, plus what the answer holds only once (a private key).

        With an idempotency token the call is retried with that same token; without one it is
        sent once: a lost answer is an :class:`OutcomeUnknownError` for the caller to resolve
        by finding, never by sending it again."""
        create = self.spec.create
        assert create is not None
        if self.spec.change_batch is not None:
            self.answer = None
            return aws_change_batch.create(self, desired)
        operation = next(
            (op for member, op in create.alternatives if desired.get(member) is not None),
            create.operation,
        )  # ImportKeyPair when a public key is given, else CreateKeyPair
        taken = self._inputs(operation)
        params: dict[str, Any] = {}
        for f in self.spec.fields:
            if f.in_create and not f.is_tags and desired.get(f.name) is not None:
                if taken and f.name not in taken:
                    raise ValueError(f"{self.spec.name}: {operation} does not take {f.name}")
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
        tokened = bool(create.idempotency_token and token)
        if tokened:
            params[create.idempotency_token] = token  # type: ignore[index]
        self.answer = None
        response = self.call(operation, params, idempotent=tokened)
        self.answer = answer_state(self, response)
        identity: State = {
            p: desired.get(p) for p in self.spec.primary if desired.get(p) is not None
        }
        item: Any = response
        if create.output_member:
            item = response.get(create.output_member) if isinstance(response, Mapping) else None
            item = item[0] if isinstance(item, list) and item else item
        if create.id_member and len(self.spec.primary) == 1:
            if not isinstance(item, Mapping) or not item.get(create.id_member):
                # it was created (the call succeeded), but we cannot tell which one it is
                raise OutcomeUnknownError(
                    create.operation, "NoIdInAnswer", f"the answer names no {create.id_member}"
                )
            identity[self.spec.primary[0]] = item[create.id_member]
        for member in create.returned_once:
            if isinstance(item, Mapping) and member in item:
                identity[member] = item[member]
        return identity

    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        """Send each changed field through the call that carries it, in the order the field
        metadata gives (``after``); fields sharing a call go in one call, unless the call takes
        one field at a time."""
        if self.spec.change_batch is not None:
            aws_change_batch.upsert(self, actual, changes)
            return
        versioning = self.spec.versioning
        if versioning is not None and any(n in versioning.fields for n in changes):
            new_default_version(self, actual, changes)
            changes = {n: v for n, v in changes.items() if n not in versioning.fields}
        groups: list[tuple[str, list[FieldSpec]]] = []
        for f in update_order(self.spec, list(changes)):
            if f.remove_operation and f.update_operation:
                self._members(actual, f, changes[f.name])
            elif f.is_tags:
                self._tag(actual, changes[f.name])
            elif f.update_operation:
                call = self.spec.update_call(f.update_operation)
                same = [g for op, g in groups if op == f.update_operation]
                if (
                    same
                    and not call.one_field_per_call
                    and not any(a in {x.name for x in same[-1]} for a in f.after)
                ):
                    same[-1].append(f)
                else:
                    groups.append((f.update_operation, [f]))
        for operation, fields in groups:
            params = self.spec.update_call(operation).identity_params(dict(actual))
            for f in fields:
                params[f.update_member or f.name] = self._to_api(f, changes[f.name])
            self.call(operation, params, idempotent=False)

    def _members(self, actual: Mapping[str, Any], f: FieldSpec, wanted: Any) -> None:
        """A membership list made what is wanted: each extra item removed, each missing one
        added, one call each (AddRoleToInstanceProfile / RemoveRoleFromInstanceProfile)."""
        assert f.update_operation and f.remove_operation and f.update_member
        have, want = list(actual.get(f.name) or []), list(wanted or [])
        selector = self.spec.update_call(f.update_operation).identity_params(dict(actual))
        # removed first: an instance profile holds at most one role
        for item in [i for i in have if i not in want]:
            self.call(f.remove_operation, {**selector, f.update_member: item}, idempotent=False)
        for item in [i for i in want if i not in have]:
            self.call(f.update_operation, {**selector, f.update_member: item}, idempotent=False)

    def _tag(self, actual: Mapping[str, Any], tags: Mapping[str, str]) -> None:
        spec = self.spec.tags
        if spec is None or spec.tag_operation is None or spec.selector_member is None:
            return
        have = actual.get(spec.field) or {}
        tags = {k: v for k, v in tags.items() if have.get(k) != v}  # only what differs
        if not tags:
            return
        key = self.spec.arn if spec.selector_is_arn and self.spec.arn else self.spec.primary[0]
        selector = tag_selector(actual[key])
        params = {
            spec.selector_member: [selector] if spec.selector_is_list else selector,
            spec.tags_member or "Tags": [{"Key": k, "Value": v} for k, v in tags.items()],
        }
        if spec.type_member and spec.resource_type:
            params[spec.type_member] = spec.resource_type
        # setting a tag to a value twice leaves it as once: safe to resend
        self.call(spec.tag_operation, params, idempotent=True)

    def delete(self, actual: Mapping[str, Any]) -> None:
        """Delete; gone already is fine. In use raises :class:`InUseError` for the caller."""
        call = self.spec.delete
        assert call is not None
        if self.spec.change_batch is not None:
            aws_change_batch.delete(self, actual)
            return
        params = call.identity_params(dict(actual))
        if not params or not all(_known(v) for v in params.values()):
            return  # nothing identifies it: there is nothing to delete
        for f in self.spec.fields:
            if f.remove_operation and actual.get(f.name):
                self._members(actual, f, [])  # a profile with a role in it cannot be deleted
        try:
            self.call(call.operation, params, idempotent=False)
        except NotFoundError:
            return

    def blockers(self, actual: Mapping[str, Any]) -> list[str]:
        """What keeps this resource in use, as far as the kinds that refer to it can say (a
        Subnet's VpcId, found with the ``vpc-id`` filter): "Subnet subnet-1", for a message."""
        if len(self.spec.primary) != 1 or not _known(actual.get(self.spec.primary[0])):
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
            except CloudError:
                continue  # a best effort for a message: never the reason a delete fails
            for item in items:
                state = core.state(item)
                if other.terminal(state):
                    continue
                ids = [str(state[p]) for p in other.primary if state.get(p) is not None]
                found.append(f"{other.name} {'/'.join(ids) or '?'}")
        return sorted(set(found))


def tag_selector(value: Any) -> Any:
    """A resource's id as tag calls take it: Route 53 reads ids as paths (``/hostedzone/Z1``)
    and its tag calls take the last part, as botocore already does for its other id members
    (``fix_route53_ids``); an ARN or a plain id is sent as it is."""
    if isinstance(value, str) and "/" in value and not value.startswith("arn:"):
        return value.rsplit("/", 1)[-1]
    return value


def _known(value: Any) -> bool:
    """A value that can be sent: not missing, not empty, not a dry run's placeholder."""
    return value is not None and value != "" and not getattr(value, "placeholder", False)
