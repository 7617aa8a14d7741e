"""aws.read-answers-the-put-member, on a toy model and the pinned S3 model, and what the runtime
makes of such a read: a configuration Put whole and answered by its Get under the same member
is read as the whole answer (the state holds the member as the Put sends it, plus the ids asked
by); an answer made only of an empty configuration whose shape requires members names nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.model import ServiceModel
from botocore.stub import Stubber

from codegen.model import Service
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.source import load_pinned
from tests.toy_model import TOY, _op, _struct

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"

OPS = {
    "PutWidgetConfig": _op("PutWidgetConfig", "PutWidgetConfigRequest"),
    "GetWidgetConfig": _op("GetWidgetConfig", "WidgetConfigIds", "GetWidgetConfigOutput"),
    "DeleteWidgetConfig": _op("DeleteWidgetConfig", "WidgetConfigIds"),
}


def _toy(answered_shape: str) -> Service:
    shapes = {
        "WidgetConfig": _struct({"Id": "String", "Level": "String"}, ("Id",)),
        "OtherConfig": _struct({"Id": "String", "Level": "String"}, ("Id",)),
        "PutWidgetConfigRequest": _struct({"Bucket": "String", "Id": "String", "WidgetConfig": "WidgetConfig"},
                                          ("Bucket", "Id", "WidgetConfig")),
        "WidgetConfigIds": _struct({"Bucket": "String", "Id": "String"}, ("Bucket", "Id")),
        "GetWidgetConfigOutput": _struct({"WidgetConfig": answered_shape}),
    }
    model = {**TOY, "operations": {**TOY["operations"], **OPS}, "shapes": {**TOY["shapes"], **shapes}}
    _, draft = annotate_model(ServiceModel(model, service_name="toy"), service="toy", api_version="2020-01-01")
    return draft.freeze()


def test_a_configuration_put_and_answered_whole_is_read_as_the_whole_answer() -> None:
    config = _toy("WidgetConfig").resource("WidgetConfig")
    read = config.operations.read
    assert read is not None and read.name == "GetWidgetConfig"
    assert read.output_member is None
    assert read.source == "rule:aws.read-answers-the-put-member"


def test_an_answer_of_another_shape_is_still_read_inside_its_member() -> None:
    read = _toy("OtherConfig").resource("WidgetConfig").operations.read
    assert read is not None and read.output_member == "WidgetConfig"


@pytest.fixture(scope="module")
def s3() -> Service:
    src = load_pinned(SCHEMAS, "s3")
    _, draft = annotate_model(src.model, service="s3", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    return draft.freeze()


# (resource, read, output member): per the S3 API reference of each Get call
READS = [
    ("BucketAnalyticsConfiguration", "GetBucketAnalyticsConfiguration", None),
    ("BucketMetricsConfiguration", "GetBucketMetricsConfiguration", None),
    ("BucketInventoryConfiguration", "GetBucketInventoryConfiguration", None),
    ("PublicAccessBlock", "GetPublicAccessBlock", None),
    ("BucketOwnershipControl", "GetBucketOwnershipControls", None),
    ("BucketEncryption", "GetBucketEncryption", None),
    ("BucketCor", "GetBucketCors", "CORSRules"),  # answers the rules, not CORSConfiguration
]


@pytest.mark.parametrize(("resource", "operation", "member"), READS)
def test_pinned_reads(s3: Service, resource: str, operation: str, member: str | None) -> None:
    read = s3.resource(resource).operations.read
    assert read is not None and (read.name, read.output_member) == (operation, member)


def _found(answer: dict[str, Any]) -> list[dict[str, Any]]:
    from tasklayer_tasks.aws.s3.core.bucket_analytics_configuration import SPEC
    from tasklayer_tasks.runtime.aws.core import AwsCore

    client = boto3.client("s3", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="y")
    with Stubber(client) as stub:
        stub.add_response("get_bucket_analytics_configuration", answer, {"Bucket": "b1", "Id": "a1"})
        return AwsCore(SPEC, client).find({"Bucket": "b1", "Id": "a1"}, "a1")


def test_the_state_holds_the_configuration_and_the_ids_it_was_asked_by() -> None:
    config = {"Id": "a1", "StorageClassAnalysis": {}}
    found = _found({"AnalyticsConfiguration": config})
    assert found == [{"Bucket": "b1", "Id": "a1", "AnalyticsConfiguration": config}]


def test_an_empty_configuration_without_its_required_members_is_no_resource() -> None:
    """moto answers ``{AnalyticsConfiguration: {}}`` for a configuration never put (AWS answers
    NoSuchConfiguration): no Id, which the shape requires, so nothing is found."""
    from moto import mock_aws

    from tasklayer_tasks.aws.s3.core.bucket_analytics_configuration import SPEC
    from tasklayer_tasks.runtime.aws.core import AwsCore

    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket="tasklayer-b1")
        raw = client.get_bucket_analytics_configuration(Bucket="tasklayer-b1", Id="a1")
        assert raw["AnalyticsConfiguration"] == {}
        assert AwsCore(SPEC, client).find({"Bucket": "tasklayer-b1", "Id": "a1"}, "a1") == []
