"""Where a resource's cycle runs, and how its writes are counted.

AWS: moto in-process (one mock per service), every call seen at botocore's ``before-call``
event on the session the runtime's clients come from. GCP: the ``FakeGcp`` of
``tasklayer_tasks.testing``, its request log judged by the full discovery documents
(``testbed/gcp_requests.py``). Both answer the schema of a field for value synthesis.
"""

from __future__ import annotations

import json
import zlib
from collections import Counter
from contextlib import AbstractContextManager
from functools import cache
from pathlib import Path
from typing import Any

from .resources import Resource
from .schema import Schema, from_botocore, from_discovery

READ_PREFIXES = ("Describe", "Get", "List", "Head")
NOT_IMPLEMENTED = "has not been implemented"  # moto's words for an action it lacks


class AwsCloud:
    provider = "aws"
    label = "moto"

    def __init__(self) -> None:
        import botocore.session
        import moto  # noqa: F401  # before the session: moto's handlers join sessions made after it

        from tasklayer_tasks.runtime import Context
        from tasklayer_tasks.runtime.contract.retry import RetryPolicy

        self.session = botocore.session.get_session()
        self.calls: list[str] = []
        self.session.register("before-call", self._count)
        self.context = Context(
            region="us-east-1",
            cluster="sweep",
            session=self.session,
            retry=RetryPolicy(sleep=lambda _: None),
        )

    def _count(self, model: Any, **_: Any) -> None:
        self.calls.append(model.name)

    def mock(self) -> AbstractContextManager[Any]:
        from moto import mock_aws

        return mock_aws()

    def begin(self, key: str) -> None:
        """Moto's ids (which failure reasons quote) from a seed of the resource's own: the same
        resource gets the same ids in a full and in a partial sweep, so the report is the same
        bytes either way."""
        from moto.moto_api._internal import mock_random

        mock_random.seed(zlib.crc32(key.encode()))

    def mark(self) -> int:
        return len(self.calls)

    def writes(self, since: int) -> Counter[str]:
        return Counter(c for c in self.calls[since:] if not c.startswith(READ_PREFIXES))

    def request_problems(self, since: int) -> list[str]:
        return []  # botocore validates every request against the model before sending it

    def lacks(self, error: BaseException) -> bool:
        return NOT_IMPLEMENTED in str(error)

    def schema_of(self, resource: Resource, field_name: str) -> Schema | None:
        spec = resource.spec
        f = spec.field(field_name)
        model = _aws_model(resource.service)
        item = _batch_item(resource)
        if item is not None and f.name in item.members:
            return from_botocore(item.members[f.name])
        if f.in_create and spec.create:
            shape = model.operation_model(spec.create.operation).input_shape
            if shape is not None and f.name in shape.members:
                return from_botocore(shape.members[f.name])
        if f.update_operation:
            shape = model.operation_model(f.update_operation).input_shape
            member = shape.members.get(f.update_member or f.name) if shape else None
            if member is not None and f.value_wrapper:
                member = member.members.get(f.value_wrapper)
            if member is not None:
                return from_botocore(member)
        if spec.read:
            shape = model.operation_model(spec.read.operation).input_shape
            if shape is not None and f.name in shape.members:
                return from_botocore(shape.members[f.name])
        return None

    def create_required(self, resource: Resource) -> tuple[str, ...]:
        spec = resource.spec
        item = _batch_item(resource)
        if item is not None:  # the create is one change of a batch: the item's members are the fields
            return (spec.change_batch.parent_member, *item.required_members)
        if spec.create is None:
            return ()
        shape = _aws_model(resource.service).operation_model(spec.create.operation).input_shape
        if shape is None:
            return ()
        filled = {spec.create.idempotency_token, spec.tags.create_member if spec.tags else None}
        return tuple(m for m in shape.required_members if m not in filled)


def _batch_item(resource: Resource) -> Any:
    """The item shape a change-batch resource is created as (a ResourceRecordSet inside
    ChangeResourceRecordSets' ChangeBatch.Changes[]), from ResourceSpec.change_batch."""
    batch = getattr(resource.spec, "change_batch", None)
    if batch is None:
        return None
    shape = _aws_model(resource.service).operation_model(batch.operation).input_shape
    change = shape.members[batch.batch_member].members[batch.changes_member].member
    return change.members[batch.item_member]


@cache
def _aws_model(service: str) -> Any:
    import botocore.session

    return botocore.session.get_session().get_service_model(service)


class GcpCloud:
    provider = "gcp"
    label = "the fake"

    def __init__(self, documents: dict[str, Path]) -> None:
        from tasklayer_tasks.runtime import Context
        from tasklayer_tasks.runtime.contract.retry import RetryPolicy
        from tasklayer_tasks.testing import FakeGcp
        from testbed.gcp_requests import RequestValidator

        self.documents = {s: json.loads(p.read_text(encoding="utf-8")) for s, p in documents.items()}
        self.fake = FakeGcp(*self.documents.values())
        self.validator = RequestValidator(*self.documents)
        self.context = Context(
            project="sweep-proj",
            region="us-central1",
            zone="us-central1-a",
            cluster="sweep",
            http=self.fake,
            retry=RetryPolicy(sleep=lambda _: None),
        )

    def mock(self) -> AbstractContextManager[Any]:
        from contextlib import nullcontext

        return nullcontext()

    def begin(self, key: str) -> None:
        """The fake's names and ids are its own counters: nothing to seed."""

    def mark(self) -> int:
        return len(self.fake.log)

    def writes(self, since: int) -> Counter[str]:
        return Counter(
            r.method_id
            for r in self.fake.log[since:]
            if r.http_method != "GET" and not r.method_id.endswith(".wait")
        )

    def request_problems(self, since: int) -> list[str]:
        return [
            problem
            for r in self.fake.log[since:]
            for problem in self.validator.check(r.method_id, r.http_method, r.path, r.query, r.body)
        ]

    def lacks(self, error: BaseException) -> bool:
        return "no method serves" in str(error)

    def _method(self, service: str, method_id: str) -> dict[str, Any]:
        document = self.documents[service]
        todo = [document.get("resources") or {}]
        while todo:
            for resource in todo.pop().values():
                for method in (resource.get("methods") or {}).values():
                    if method["id"] == method_id:
                        return dict(method)
                todo.append(resource.get("resources") or {})
        raise KeyError(method_id)

    def _request(self, resource: Resource) -> Schema | None:
        create = resource.spec.create
        if create is None:
            return None
        document = self.documents[resource.service]
        request = self._method(resource.service, create.operation).get("request")
        return from_discovery(document, request, create.operation) if request else None

    def _body(self, resource: Resource) -> Schema | None:
        """The resource as the create sends it (inside ``body_member`` for resource-name APIs)."""
        schema = self._request(resource)
        body_member = resource.spec.create.body_member if resource.spec.create else None
        if schema is not None and body_member:
            schema = schema.members.get(body_member) or schema
        return schema

    def schema_of(self, resource: Resource, field_name: str) -> Schema | None:
        """The member of the created resource; else of the create request (``accountId``);
        else the create method's parameter of that name."""
        for schema in (self._body(resource), self._request(resource)):
            if schema is not None and field_name in schema.members:
                return schema.members[field_name]
        create = resource.spec.create
        if create is None:
            return None
        method = self._method(resource.service, create.operation)
        param = (method.get("parameters") or {}).get(field_name)
        document = self.documents[resource.service]
        return from_discovery(document, param, create.operation) if param else None

    def create_required(self, resource: Resource) -> tuple[str, ...]:
        body = self._body(resource)
        if body is None:
            return ()
        return tuple(m for m in body.required if m != "name")
