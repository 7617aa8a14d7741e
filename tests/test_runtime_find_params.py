"""aws_find.natural_params sends a natural-key member only to a read that takes it: a read
that lists a parent's children (GetDNSSEC: a zone's key-signing keys, by HostedZoneId alone)
is sent the parent and matched on the client, never a member botocore would refuse."""

from __future__ import annotations

import boto3
from moto import mock_aws

from tasklayer_tasks.aws.route53.core.key_signing_key import SPEC
from tasklayer_tasks.runtime.aws_core import AwsCore
from tasklayer_tasks.runtime.aws_find import natural_params


def test_a_natural_key_member_the_read_does_not_take_is_matched_on_the_client() -> None:
    assert "Name" in SPEC.natural and SPEC.read is not None and "Name" in SPEC.read.required  # the case
    with mock_aws():
        client = boto3.client("route53", region_name="us-east-1")
        zone = client.create_hosted_zone(Name="example.com.", CallerReference="r")["HostedZone"]["Id"]
        core = AwsCore(SPEC, client)
        desired = {"HostedZoneId": zone, "Name": "key1"}
        assert natural_params(core, desired, "key1", None) == {"HostedZoneId": zone}
        assert core.find(desired, "key1") == []  # GetDNSSEC answered: no such key in the zone


def test_a_member_named_for_an_arn_holds_the_referred_resources_arn() -> None:
    """A subscription filter's destinationArn refers to a Destination whose id is its name:
    it holds the destination's ARN (its name would name nothing)."""
    from tasklayer_tasks.aws.logs.destination import Destination
    from tasklayer_tasks.aws.logs.subscription_filter import SubscriptionFilter

    dest = Destination(name="d", destination_name="d")
    arn = "arn:aws:logs:us-east-1:123456789012:destination:d"
    dest.adopt({"destinationName": "d", "arn": arn})
    sub = SubscriptionFilter(name="f", filter_name="f", filter_pattern="", log_group_name="g", destination=dest)
    assert dest.resource_id == "d"  # its id is its name ...
    assert sub.desired()["destinationArn"] == arn  # ... but the ARN member holds its ARN
