"""aws_find.natural_params sends a natural-key member only to a read that takes it: a read
that lists a parent's children (GetDNSSEC: a zone's key-signing keys, by HostedZoneId alone)
is sent the parent and matched on the client, never a member botocore would refuse."""

from __future__ import annotations

import boto3
from moto import mock_aws

from tasklayer_tasks.aws.route53.core.key_signing_key import SPEC
from tasklayer_tasks.runtime.aws.core import AwsCore
from tasklayer_tasks.runtime.aws.find import natural_params
from tasklayer_tasks.runtime.kops.translate import adopt


def test_a_natural_key_member_the_read_does_not_take_is_matched_on_the_client() -> None:
    assert "Name" in SPEC.natural and SPEC.read is not None and "Name" in SPEC.read.required  # the case
    with mock_aws():
        client = boto3.client("route53", region_name="us-east-1")
        zone = client.create_hosted_zone(Name="example.com.", CallerReference="r")["HostedZone"]["Id"]
        core = AwsCore(SPEC, client)
        desired = {"HostedZoneId": zone, "Name": "key1"}
        assert natural_params(core, desired, "key1", None) == {"HostedZoneId": zone}
        assert core.find(desired, "key1") == []  # GetDNSSEC answered: no such key in the zone


def test_a_member_that_holds_an_arn_holds_the_referred_resources_arn() -> None:
    """A subscription filter's destinationArn refers to a Destination whose id is its name:
    it holds the destination's ARN (its name would name nothing)."""
    from tasklayer_tasks.aws.logs.destination import Destination
    from tasklayer_tasks.aws.logs.subscription_filter import SubscriptionFilter

    dest = Destination(name="d", destination_name="d")
    arn = "arn:aws:logs:us-east-1:123456789012:destination:d"
    adopt(dest, {"destinationName": "d", "arn": arn})
    sub = SubscriptionFilter(name="f", filter_name="f", filter_pattern="", log_group_name="g", destination=dest)
    assert dest.resource_id == "d"  # its id is its name ...
    assert sub.desired()["destinationArn"] == arn  # ... but the ARN member holds its ARN


def test_the_generated_holds_arn_fact_decides_not_the_members_name() -> None:
    """reference_to reads FieldSpec.holds_arn (aws.reference-holds-arn), never the spelling of
    the member: the same field without the fact holds the id, and a member not named for an
    ARN but marked holds the ARN."""
    import dataclasses

    from tasklayer_tasks.aws.logs.destination import Destination
    from tasklayer_tasks.aws.logs.subscription_filter import SubscriptionFilter

    dest = Destination(name="d", destination_name="d")
    arn = "arn:aws:logs:us-east-1:123456789012:destination:d"
    adopt(dest, {"destinationName": "d", "arn": arn})
    sub = SubscriptionFilter(name="f", filter_name="f", filter_pattern="", log_group_name="g", destination=dest)
    holder = sub.spec.field("destinationArn")
    assert holder.holds_arn  # the generated fact
    assert sub.reference_to(dataclasses.replace(holder, holds_arn=False), dest) == "d"
    assert sub.reference_to(dataclasses.replace(holder, name="destination"), dest) == arn


def test_an_empty_answer_by_id_names_nothing_and_a_found_one_carries_the_id_asked() -> None:
    """GetDeliveryDestinationPolicy answers ``policy: {}`` for a destination without a policy:
    no resource (not one with every field unset, whose update would lack its id); once put, the
    policy read carries the destination name it was asked for, as an update needs it."""
    from tasklayer_tasks.aws.logs.core.delivery_destination_policy import SPEC as POLICY

    with mock_aws():
        client = boto3.client("logs", region_name="us-east-1")
        client.put_delivery_destination(
            name="d", deliveryDestinationConfiguration={"destinationResourceArn": "arn:aws:s3:::b"}
        )
        core = AwsCore(POLICY, client)
        desired = {"deliveryDestinationName": "d"}
        assert core.find(desired, "p") == []
        client.put_delivery_destination_policy(deliveryDestinationName="d", deliveryDestinationPolicy="{}")
        [state] = core.find(desired, "p")
        assert state["deliveryDestinationName"] == "d" and state["deliveryDestinationPolicy"] == "{}"


def test_a_kind_named_by_the_task_has_that_name_for_id_once_it_exists() -> None:
    """A delivery source's primary member is ``name``, the task's own: it has no ``id``
    attribute, and what refers to it (a Delivery's deliverySourceName) waits for it to exist,
    then holds its name."""
    from tasklayer_tasks.aws.logs.delivery import Delivery
    from tasklayer_tasks.aws.logs.delivery_source import DeliverySource

    source = DeliverySource(name="src")
    delivery = Delivery(name="dl", delivery_source_name=source)
    assert source.resource_id is None and not hasattr(source, "id")
    assert delivery.desired(dry_run=True)["deliverySourceName"] != "src"  # a placeholder until it exists
    adopt(source, {"name": "src", "arn": "arn:aws:logs:us-east-1:123456789012:delivery-source:src"})
    assert source.resource_id == "src"
    assert delivery.desired()["deliverySourceName"] == "src"


def test_a_create_taking_tags_as_a_string_is_sent_url_encoded_pairs() -> None:
    """S3 PutObject's Tagging is a string ("Key1=Value1&Key2=Value2"), not a tag list."""
    from urllib.parse import parse_qsl

    from tasklayer_tasks.aws.s3.core.object_ import SPEC as OBJECT
    from tasklayer_tasks.runtime.aws.tags import create_tags

    with mock_aws():
        core = AwsCore(OBJECT, boto3.client("s3", region_name="us-east-1"))
        assert OBJECT.tags is not None
        sent = create_tags(core, {OBJECT.tags.field: {"KubernetesCluster": "a b", "x/y": "1&2"}})
    assert list(sent) == ["Tagging"] and isinstance(sent["Tagging"], str)
    assert dict(parse_qsl(sent["Tagging"])) == {"KubernetesCluster": "a b", "x/y": "1&2"}


def test_items_of_a_read_by_id_carry_the_id_sent_so_the_delete_names_it() -> None:
    """GetBucketCors(Bucket) answers the rules without the bucket: the state carries the
    bucket it was asked for, and the delete sends it (it sent nothing before: the CORS
    configuration was left in place while the delete reported it done)."""
    from tasklayer_tasks.aws.s3.core.bucket_cor import SPEC as CORS

    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket="cors-bucket")
        client.put_bucket_cors(Bucket="cors-bucket", CORSConfiguration={"CORSRules": [{"AllowedMethods": ["GET"], "AllowedOrigins": ["*"]}]})
        core = AwsCore(CORS, client)
        [state] = core.find({"Bucket": "cors-bucket"}, "c")
        assert state["Bucket"] == "cors-bucket"
        core.delete(state)
        assert core.find({"Bucket": "cors-bucket"}, "c") == []
