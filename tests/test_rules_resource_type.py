"""aws.tags-model's TagSpecifications ResourceType: the enum value naming the resource, found by
its words when no value spells its name; none when two fit equally, and then the runtime tags
after the create rather than send a None type (which botocore refuses)."""

from __future__ import annotations

import botocore.session
import pytest

from codegen.providers.aws.rules.tagging import _closest_type
from tasklayer_tasks.runtime.contract.spec import TagsSpec

EC2_TYPES = list(botocore.session.get_session().get_service_model("ec2").shape_for("ResourceType").enum)


@pytest.mark.parametrize("resource, expected", [
    ("ManagedPrefixList", "prefix-list"),  # the enum's words inside the name
    ("FlowLog", "vpc-flow-log"),  # the name's words inside the enum value
    ("TransitGatewayVpcAttachment", "transit-gateway-attachment"),
    ("TransitGatewayPeeringAttachment", "transit-gateway-attachment"),
    ("VpcEndpointServiceConfiguration", "vpc-endpoint-service"),
    ("Host", None),  # dedicated-host and host-reservation fit equally: neither is chosen
    ("Widget", None),
])
def test_resource_type_from_the_pinned_ec2_enum(resource: str, expected: str | None) -> None:
    assert _closest_type(resource, EC2_TYPES) == expected


def test_toy_enum_closest_and_ties() -> None:
    enum = ["widget", "blue-widget-pool", "red-gadget", "gadget-reservation"]
    assert _closest_type("WidgetPool", enum) == "blue-widget-pool"
    assert _closest_type("Gadget", enum) is None  # two values hold "gadget" equally


def _tags(create_member: str | None, resource_type: str | None) -> TagsSpec:
    return TagsSpec(field="Tags", create_member=create_member, resource_type=resource_type,
                    tag_operation="CreateTags", selector_member="Resources", selector_is_list=True,
                    selector_is_arn=False)


def test_tags_go_in_the_create_only_with_a_resource_type() -> None:
    assert _tags("TagSpecifications", "prefix-list").in_create
    assert not _tags("TagSpecifications", None).in_create
    assert _tags("Tags", None).in_create
    assert not _tags(None, None).in_create
