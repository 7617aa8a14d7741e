"""The rules that make Route 53 safe to drive, on the pinned model (no overlay): a hosted zone
tagged and read by kind (ChangeTagsForResource / ListTagsForResources, with ResourceType), found by name
(ListHostedZonesByName), created with its CallerReference as the idempotency token; record sets
as a change-batch resource found by name and type inside their zone, owned through it."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.model import ChangeBatch, Mutability, Resource
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.shapes import aws, aws_tags
from codegen.providers.aws.source import load_pinned

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@pytest.fixture(scope="module")
def route53() -> dict[str, Resource]:
    src = load_pinned(SCHEMAS, "route53")
    _, draft = annotate_model(src.model, service="route53", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    return {r.name: r for r in draft.freeze().resources}


def test_hosted_zone_is_tagged_and_read_by_kind(route53: dict[str, Resource]) -> None:
    tags = route53["HostedZone"].tags
    assert tags is not None and tags.source == "rule:aws.service-level-tagging"
    assert (tags.create_member, tags.tag_operation, tags.untag_operation) == (
        None, "ChangeTagsForResource", "ChangeTagsForResource")
    assert (tags.selector_member, tags.read_operation) == ("ResourceId", "ListTagsForResources")
    call = aws_tags(tags)
    assert (call.selector_extra, call.payload_member, call.read_selector) == (
        (("ResourceType", "hostedzone"),), "AddTags", "ResourceIds")
    assert route53["HostedZone"].provenance["tags"] == "rule:aws.tags-read-separately"
    # a health check is tagged the same way; a kind the enum does not name gets no tags model
    health = route53["HealthCheck"].tags
    assert health is not None and aws_tags(health).selector_extra == (("ResourceType", "healthcheck"),)
    assert route53["ReusableDelegationSet"].tags is None


def test_hosted_zone_is_found_by_name_and_created_with_a_caller_reference(route53: dict[str, Resource]) -> None:
    zone = route53["HostedZone"]
    listing = zone.operations.list
    assert listing is not None and (listing.name, listing.natural_filter) == ("ListHostedZonesByName", "DNSName")
    assert aws(listing).natural_filter_is_list is False and listing.output_member == "HostedZones"
    assert zone.operations.read is not None and zone.operations.read.name == "GetHostedZone"
    assert zone.operations.create is not None and zone.operations.create.idempotency_token == "CallerReference"


def test_a_caller_reference_read_back_and_its_already_exists_error_are_facts_of_the_create(
        route53: dict[str, Resource]) -> None:
    """GetHostedZone returns the CallerReference; HostedZoneAlreadyExists is the error whose
    documentation says a zone was already made with it. A delegation set's error speaks of a
    "caller reference" without naming the member, so it makes no such fact."""
    create = route53["HostedZone"].operations.create
    assert create is not None and (create.token_read, create.token_taken) == (
        "CallerReference", ("HostedZoneAlreadyExists",))
    health = route53["HealthCheck"].operations.create
    assert health is not None and health.token_taken == ("HealthCheckAlreadyExists",)
    delegation = route53["ReusableDelegationSet"].operations.create
    assert delegation is not None and (delegation.token_read, delegation.token_taken) == (None, ())


def test_record_sets_are_a_change_batch_resource(route53: dict[str, Resource]) -> None:
    records = route53["ResourceRecordSet"]
    assert records.change_batch == ChangeBatch(
        operation="ChangeResourceRecordSets", batch_member="ChangeBatch", changes_member="Changes",
        action_member="Action", item_member="ResourceRecordSet", create_action="CREATE", upsert_action="UPSERT",
        delete_action="DELETE", parent_member="HostedZoneId",
        start=(("StartRecordName", "Name"), ("StartRecordType", "Type")), source="rule:aws.change-batch-resource")
    assert records.identity.natural == ("Name", "Type") and records.identity.owner_parent == "HostedZoneId"
    assert records.field("HostedZoneId").references == "HostedZone"
    assert records.field("Name").mutability is Mutability.CREATE_ONLY
    assert records.field("ResourceRecords").mutability is Mutability.MUTABLE
    assert records.field("TTL").update_operation == "ChangeResourceRecordSets"
    assert records.operations.read is not None and records.operations.read.name == "ListResourceRecordSets"
