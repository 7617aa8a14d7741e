"""aws.read-by-id-over-unselecting-list and the name-prefix selector of aws.read-selectors, on
toy models: a listing that cannot select the resource is replaced by a read by id (HeadBucket,
GetTopicAttributes), or dropped so ``generate: all`` leaves the kind out; a listing that takes
``<name>Prefix`` selects by name."""

from __future__ import annotations

from typing import Any

from botocore.model import ServiceModel

from codegen.model import Service
from codegen.providers.aws.rules.run import annotate_model
from tests.toy_model import MORE_OPERATIONS, MORE_SHAPES, TOY, _op, _struct


def _annotate(operations: dict[str, Any], shapes: dict[str, Any]) -> Service:
    model = {**TOY, "operations": {**TOY["operations"], **MORE_OPERATIONS, **operations},
             "shapes": {**TOY["shapes"], **MORE_SHAPES, **shapes}}
    _, draft = annotate_model(ServiceModel(model, service_name="toy"), service="toy", api_version="2020-01-01")
    return draft.freeze()


BUCKET_OPS = {
    "CreateBucket": _op("CreateBucket", "BucketOnly", "CreateBucketResult"),
    "DeleteBucket": _op("DeleteBucket", "BucketOnly"),
    "ListBuckets": _op("ListBuckets", "ListBucketsRequest", "ListBucketsResult"),
}
BUCKET_SHAPES = {
    "BucketOnly": _struct({"Bucket": "String"}, ("Bucket",)),
    "CreateBucketResult": _struct({"Location": "String"}),
    "ListBucketsRequest": _struct({"ContinuationToken": "String", "Prefix": "String"}),
    "BucketSummary": _struct({"Name": "String", "CreationDate": "String"}),
    "BucketList": {"type": "list", "member": {"shape": "BucketSummary"}},
    "ListBucketsResult": _struct({"Buckets": "BucketList"}),
    "HeadBucketResult": _struct({"BucketRegion": "String"}),
}


def test_a_bucket_listed_without_a_selector_is_read_by_head() -> None:
    """ListBuckets takes no bucket name (only paging and a prefix of nothing the bucket is named
    by) and lists items naming it ``Name``: HeadBucket, taking exactly the id, reads it."""
    ops = {**BUCKET_OPS, "HeadBucket": _op("HeadBucket", "BucketOnly", "HeadBucketResult")}
    bucket = _annotate(ops, BUCKET_SHAPES).resource("Bucket")
    assert bucket.identity.primary == ("Bucket",)
    assert bucket.operations.read is not None
    assert bucket.operations.read.name == "HeadBucket"
    assert bucket.operations.read.output_member is None


def test_without_a_read_by_id_the_listing_is_dropped() -> None:
    """No HeadBucket: the kind has no read that can find what it made, so it is incomplete (and
    ``generate: all`` leaves it out saying "no read") rather than a task that never finds."""
    bucket = _annotate(BUCKET_OPS, BUCKET_SHAPES).resource("Bucket")
    assert bucket.operations.read is None


def test_a_listing_with_a_name_prefix_selects_by_name() -> None:
    """DescribeLogGroups takes ``logGroupNamePrefix``: the natural key's prefix selects it (the
    runtime keeps the exact match), so the listing stays the read."""
    ops = {
        "CreateLogGroup": _op("CreateLogGroup", "LogGroupNameOnly"),
        "DeleteLogGroup": _op("DeleteLogGroup", "LogGroupNameOnly"),
        "DescribeLogGroups": _op("DescribeLogGroups", "DescribeLogGroupsRequest", "DescribeLogGroupsResult"),
    }
    shapes = {
        "LogGroupNameOnly": _struct({"logGroupName": "String"}, ("logGroupName",)),
        "DescribeLogGroupsRequest": _struct({"logGroupNamePrefix": "String", "nextToken": "String"}),
        "LogGroup": _struct({"logGroupName": "String", "arn": "String"}),
        "LogGroups": {"type": "list", "member": {"shape": "LogGroup"}},
        "DescribeLogGroupsResult": _struct({"logGroups": "LogGroups"}),
    }
    group = _annotate(ops, shapes).resource("LogGroup")
    read = group.operations.read
    assert read is not None and read.name == "DescribeLogGroups"
    assert read.natural_filter == "logGroupNamePrefix"


def test_a_read_answering_the_resource_itself_beside_a_status_list_is_flat() -> None:
    """DescribeSecret answers the secret's own members (Name, Description, ...) beside
    structures (ReplicationStatus, RotationRules): neither is the secret, the answer is."""
    ops = {
        "CreateSecret": _op("CreateSecret", "CreateSecretRequest", "SecretIdentity"),
        "DeleteSecret": _op("DeleteSecret", "SecretIdOnly"),
        "DescribeSecret": _op("DescribeSecret", "SecretIdOnly", "DescribeSecretResult"),
    }
    shapes = {
        "CreateSecretRequest": _struct({"Name": "String", "Description": "String", "KmsKeyId": "String"}, ("Name",)),
        "SecretIdentity": _struct({"ARN": "String", "Name": "String"}),
        "SecretIdOnly": _struct({"SecretId": "String"}, ("SecretId",)),
        "ReplicationStatusType": _struct({"Region": "String", "Status": "String"}),
        "ReplicationStatusList": {"type": "list", "member": {"shape": "ReplicationStatusType"}},
        "RotationRulesType": _struct({"ScheduleExpression": "String"}),
        "DescribeSecretResult": _struct({"ARN": "String", "Name": "String", "Description": "String",
                                         "KmsKeyId": "String", "ReplicationStatus": "ReplicationStatusList",
                                         "RotationRules": "RotationRulesType"}),
    }
    read = _annotate(ops, shapes).resource("Secret").operations.read
    assert read is not None and read.name == "DescribeSecret"
    assert read.output_member is None


def test_a_name_filter_is_sent_as_the_read_types_it() -> None:
    """A read selecting by a one-value name member (ListServiceSpecificCredentials' ServiceName,
    DescribeCustomKeyStores' CustomKeyStoreName) takes the name itself, not a list of one."""
    from codegen.providers.aws.shapes import aws

    ops = {
        "CreateStore": _op("CreateStore", "StoreNameOnly", "StoreIdOnly"),
        "DeleteStore": _op("DeleteStore", "StoreIdOnly"),
        "DescribeStores": _op("DescribeStores", "DescribeStoresRequest", "DescribeStoresResult"),
    }
    shapes = {
        "StoreNameOnly": _struct({"StoreName": "String"}, ("StoreName",)),
        "StoreIdOnly": _struct({"StoreId": "String"}, ("StoreId",)),
        "DescribeStoresRequest": _struct({"StoreId": "String", "StoreName": "String"}),
        "Store": _struct({"StoreId": "String", "StoreName": "String"}),
        "Stores": {"type": "list", "member": {"shape": "Store"}},
        "DescribeStoresResult": _struct({"Stores": "Stores"}),
    }
    read = _annotate(ops, shapes).resource("Store").operations.read
    assert read is not None and read.natural_filter == "StoreName"
    assert aws(read).natural_filter_is_list is False


def test_an_expected_owner_precondition_is_not_identity() -> None:
    """DeleteBucketPolicy takes Bucket and an optional ExpectedBucketOwner, which the create takes
    too: a guard on the caller's account, never known from the state, so not part of the id (an
    id part never known would leave the policy never found)."""
    ops = {
        **BUCKET_OPS, "HeadBucket": _op("HeadBucket", "BucketOnly", "HeadBucketResult"),
        "PutBucketPolicy": _op("PutBucketPolicy", "PutBucketPolicyRequest"),
        "GetBucketPolicy": _op("GetBucketPolicy", "BucketOwnerRequest", "GetBucketPolicyResult"),
        "DeleteBucketPolicy": _op("DeleteBucketPolicy", "BucketOwnerRequest"),
    }
    shapes = {
        **BUCKET_SHAPES,
        "BucketName": {"type": "string"},  # the type every bucket member has: it refers to the Bucket
        "BucketOnly": _struct({"Bucket": "BucketName"}, ("Bucket",)),
        "PutBucketPolicyRequest": _struct({"Bucket": "BucketName", "Policy": "String", "ExpectedBucketOwner": "String"},
                                          ("Bucket", "Policy")),
        "BucketOwnerRequest": _struct({"Bucket": "BucketName", "ExpectedBucketOwner": "String"}, ("Bucket",)),
        "GetBucketPolicyResult": _struct({"Policy": "String"}),
    }
    policy = _annotate(ops, shapes).resource("BucketPolicy")
    assert policy.identity.primary == ("Bucket",)
