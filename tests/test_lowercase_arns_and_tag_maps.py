"""aws.arn-member in a service that spells its members in camelCase (CloudWatch Logs' ``arn``),
so tags read by ARN are read at all; and tags a read item holds as a ``{key: value}`` map
(GetDeliveryDestination), read as tags rather than refused as a malformed list (moto)."""

from __future__ import annotations

from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.source import load_pinned
from tasklayer_tasks.runtime.contract.errors import MalformedResponseError

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@pytest.mark.parametrize(("service", "resource", "arn"), [
    ("logs", "Destination", "arn"),
    ("logs", "DeliveryDestination", "arn"),
    ("ecr", "Repository", "repositoryArn"),
    ("iam", "Role", "Arn"),
])
def test_pinned_arn_members(service: str, resource: str, arn: str) -> None:
    src = load_pinned(SCHEMAS, service)
    _, draft = annotate_model(src.model, service=service, api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    assert draft.freeze().resource(resource).identity.arn == arn


def test_a_destination_made_by_a_fresh_run_reads_as_owned() -> None:
    from tasklayer_tasks.aws.logs.core.destination import SPEC
    from tasklayer_tasks.runtime.aws.core import AwsCore

    with mock_aws():
        client = boto3.client("logs", region_name="us-east-1")
        client.put_destination(destinationName="d1", targetArn="arn:aws:kinesis:us-east-1:123456789012:stream/s",
                               roleArn="arn:aws:iam::123456789012:role/r", tags={"owner": "me"})
        (found,) = AwsCore(SPEC, client).find({"destinationName": "d1"}, "d1")
        assert found["Tags"] == {"owner": "me"}


def test_tags_held_as_a_map_are_tags() -> None:
    from tasklayer_tasks.aws.logs.core.delivery_destination import SPEC
    from tasklayer_tasks.runtime.aws.core import AwsCore

    core = AwsCore(SPEC, client=None)
    assert core.state({"name": "d", "tags": {"owner": "me"}})[SPEC.tags.field] == {"owner": "me"}  # type: ignore[union-attr]
    with pytest.raises(MalformedResponseError):
        core._check_tags("GetDeliveryDestination", "/deliveryDestination", {"tags": {"owner": 1}})
