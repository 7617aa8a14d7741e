"""Service-level tag calls through the runtime, against moto: tags sent as the service's own
tag call takes them (SQS TagQueue's {key: value} map, S3 PutBucketTagging's Tagging.TagSet),
named by the resource's id. The specs are written out as the generator writes them."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from tasklayer_tasks.runtime.aws.core import AwsCore
from tasklayer_tasks.runtime.contract.spec import (
    CreateSpec,
    FieldSpec,
    ReadSpec,
    ResourceSpec,
    TagsSpec,
)

QUEUE = ResourceSpec(
    service="sqs", name="Queue",
    fields=(
        FieldSpec(name="QueueName", attr="queue_name", mutability="create_only", in_create=True),
        FieldSpec(name="QueueUrl", attr="queue_url", mutability="read_only"),
        FieldSpec(name="Tags", attr="tags", mutability="mutable", is_tags=True),
    ),
    primary=("QueueUrl",), natural=("QueueName",), parent=(), arn=None,
    create=CreateSpec(operation="CreateQueue", output_member=None, output_is_list=False,
                      id_member="QueueUrl", idempotency_token=None),
    read=None, updates=(), delete=None,
    tags=TagsSpec(field="Tags", create_member="tags", resource_type=None, tag_operation="TagQueue",
                  selector_member="QueueUrl", selector_is_list=False, selector_is_arn=False,
                  payload_is_map=True, create_is_map=True),
)

BUCKET = ResourceSpec(
    service="s3", name="Bucket",
    fields=(
        FieldSpec(name="Bucket", attr="bucket", mutability="create_only", in_create=True),
        FieldSpec(name="Tags", attr="tags", mutability="mutable", is_tags=True),
    ),
    primary=("Bucket",), natural=(), parent=(), arn=None,
    create=CreateSpec(operation="CreateBucket", output_member=None, output_is_list=False,
                      id_member=None, idempotency_token=None),
    read=None, updates=(), delete=None,
    tags=TagsSpec(field="Tags", create_member=None, resource_type=None, tag_operation="PutBucketTagging",
                  selector_member="Bucket", selector_is_list=False, selector_is_arn=False,
                  payload_member="Tagging", payload_wrapper="TagSet"),
)


@pytest.fixture
def aws() -> Iterator[None]:
    with mock_aws():
        yield


def test_queue_tagged_with_maps_on_create_and_through_tag_queue(aws: None) -> None:
    client = boto3.client("sqs", region_name="us-east-1")
    core = AwsCore(QUEUE, client)
    identity = core.create({"QueueName": "q1", "Tags": {"team": "a"}})
    url = identity["QueueUrl"]
    assert client.list_queue_tags(QueueUrl=url)["Tags"] == {"team": "a"}
    actual: dict[str, Any] = {"QueueUrl": url, "Tags": {"team": "a"}}
    core.update(actual, {"Tags": {"team": "a", "env": "dev"}})
    assert client.list_queue_tags(QueueUrl=url)["Tags"] == {"team": "a", "env": "dev"}


def test_bucket_tagging_replaces_the_set_so_the_others_are_kept(aws: None) -> None:
    client = boto3.client("s3", region_name="us-east-1")
    core = AwsCore(BUCKET, client)
    core.create({"Bucket": "tasklayer-b1"})
    client.put_bucket_tagging(Bucket="tasklayer-b1", Tagging={"TagSet": [{"Key": "theirs", "Value": "x"}]})
    core.update({"Bucket": "tasklayer-b1", "Tags": {"theirs": "x"}}, {"Tags": {"ours": "y"}})
    got = {t["Key"]: t["Value"] for t in client.get_bucket_tagging(Bucket="tasklayer-b1")["TagSet"]}
    assert got == {"theirs": "x", "ours": "y"}


HEADED_BUCKET = dataclasses.replace(
    BUCKET,
    read=ReadSpec(operation="HeadBucket", output_member=None, output_is_list=False, id_filter=None,
                  id_filter_is_list=False, filters_member=None, natural_filter=None, nested_member=None,
                  required=("Bucket",)),
    tags=dataclasses.replace(BUCKET.tags, read_operation="GetBucketTagging"),  # type: ignore[arg-type]
)


def test_a_bucket_read_by_head_keeps_its_id_and_its_tags_from_get_bucket_tagging(aws: None) -> None:
    """HeadBucket answers without the bucket's name and GetBucketTagging answers ``{TagSet}``
    without it either: the state keeps the name asked for, and the tag set is that bucket's,
    so an owned bucket is found as owned (not "exists but is not owned")."""
    client = boto3.client("s3", region_name="us-east-1")
    core = AwsCore(HEADED_BUCKET, client)
    core.create({"Bucket": "tasklayer-b2"})
    client.put_bucket_tagging(Bucket="tasklayer-b2", Tagging={"TagSet": [{"Key": "owner", "Value": "me"}]})
    found = core.find({"Bucket": "tasklayer-b2"}, "b2", match_tags={"owner": "me"})
    assert len(found) == 1
    assert found[0]["Bucket"] == "tasklayer-b2"
    assert found[0]["Tags"] == {"owner": "me"}
    assert core.find({"Bucket": "tasklayer-missing"}, "m", match_tags={"owner": "me"}) == []


LOG_GROUP = ResourceSpec(
    service="logs", name="LogGroup",
    fields=(
        FieldSpec(name="logGroupName", attr="log_group_name", mutability="create_only", in_create=True),
        FieldSpec(name="Tags", attr="tags", mutability="mutable", is_tags=True),
    ),
    primary=("logGroupName",), natural=("logGroupName",), parent=(), arn=None,
    create=CreateSpec(operation="CreateLogGroup", output_member=None, output_is_list=False,
                      id_member=None, idempotency_token=None),
    read=ReadSpec(operation="DescribeLogGroups", output_member="logGroups", output_is_list=True, id_filter=None,
                  id_filter_is_list=False, filters_member=None, natural_filter="logGroupNamePrefix",
                  nested_member=None, natural_filter_is_list=False),
    updates=(), delete=None,
    tags=TagsSpec(field="Tags", create_member="tags", resource_type=None, tag_operation="TagLogGroup",
                  selector_member="logGroupName", selector_is_list=False, selector_is_arn=False,
                  payload_member="tags", payload_is_map=True, create_is_map=True, read_operation="ListTagsLogGroup"),
)


def test_a_primary_id_the_read_cannot_select_by_is_found_as_the_natural_key(aws: None) -> None:
    """A log group's id is its name, and DescribeLogGroups selects only by a name prefix: it is
    found through the prefix and kept only on the exact name (not "a-1" for "a"); its tags come
    from ListTagsLogGroup's ``{tags: {key: value}}``, which does not name the group."""
    client = boto3.client("logs", region_name="us-east-1")
    core = AwsCore(LOG_GROUP, client)
    client.create_log_group(logGroupName="app", tags={"owner": "me"})
    client.create_log_group(logGroupName="app-1", tags={"owner": "me"})
    found = core.find({"logGroupName": "app"}, "app", match_tags={"owner": "me"})
    assert [s["logGroupName"] for s in found] == ["app"]
    assert found[0]["Tags"] == {"owner": "me"}


LOG_STREAM = ResourceSpec(
    service="logs", name="LogStream",
    fields=(
        FieldSpec(name="logGroupName", attr="log_group_name", mutability="create_only", in_create=True),
        FieldSpec(name="logStreamName", attr="log_stream_name", mutability="create_only", in_create=True),
    ),
    primary=("logGroupName", "logStreamName"), natural=("logStreamName",), parent=("logGroupName",), arn=None,
    create=CreateSpec(operation="CreateLogStream", output_member=None, output_is_list=False,
                      id_member=None, idempotency_token=None),
    read=ReadSpec(operation="DescribeLogStreams", output_member="logStreams", output_is_list=True,
                  id_filter="logGroupName", id_filter_is_list=False, filters_member=None,
                  natural_filter="logStreamNamePrefix", nested_member=None, natural_filter_is_list=False,
                  required=("logGroupName", "logStreamName")),
    updates=(), delete=None, tags=None,
)


def test_an_id_part_the_read_does_not_take_is_not_sent(aws: None) -> None:
    """A log stream's id is (group, stream) but DescribeLogStreams takes no logStreamName: it is
    found within its group by the stream name's prefix, kept on the exact name."""
    client = boto3.client("logs", region_name="us-east-1")
    client.create_log_group(logGroupName="g")
    for stream in ("s", "s-2"):
        client.create_log_stream(logGroupName="g", logStreamName=stream)
    found = AwsCore(LOG_STREAM, client).find({"logGroupName": "g", "logStreamName": "s"}, "s")
    assert [(s["logGroupName"], s["logStreamName"]) for s in found] == [("g", "s")]


def test_only_route53_ids_are_cut_to_their_last_part_for_tag_calls() -> None:
    from tasklayer_tasks.runtime.aws.tags import tag_selector

    assert tag_selector("route53", "/hostedzone/Z1ABC") == "Z1ABC"
    # an SSM parameter is named by a path, and its tag calls take the path whole
    assert tag_selector("ssm", "/app/db/password") == "/app/db/password"
    assert tag_selector("elbv2", "arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/net/a/b") == (
        "arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/net/a/b")
