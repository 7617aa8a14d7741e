"""aws.documented-filters and aws.terminal-states-from-state-enum, on a toy model and on the
pinned EC2 model: a member is selected by the {Name, Values} filter named like it only when the
read's Filters documentation lists that filter; a State enum's ``deleting`` / ``deleted`` are
states the resource never leaves, with nothing to wait for."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from botocore.model import ServiceModel

from codegen.model import Service
from codegen.providers.aws.rules.calls import documented_filters
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.shapes import aws_field
from codegen.providers.aws.source import load_pinned
from tests.toy_model import TOY

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"

FILTER_DOC = (
    "<p>The filters.</p> <ul> <li> <p> <code>zone</code> - The zone of the widget.</p> </li>"
    " <li> <p> <code>tag</code>:&lt;key&gt; - The key/value combination of a tag.</p> </li>"
    " <li> <p> <code>attachment.size</code> - The size of the attachment.</p> </li> </ul>"
)


def _toy(filter_doc: str | None, state_enum: list[str] | None) -> Service:
    model: dict[str, Any] = copy.deepcopy(TOY)
    shapes = model["shapes"]
    shapes["Filter"] = {"type": "structure", "members": {"Name": {"shape": "String"}, "Values": {"shape": "Values"}}}
    shapes["Values"] = {"type": "list", "member": {"shape": "String"}}
    shapes["FilterList"] = {"type": "list", "member": {"shape": "Filter"}}
    filters: dict[str, Any] = {"shape": "FilterList"}
    if filter_doc is not None:
        filters["documentation"] = filter_doc
    shapes["DescribeWidgetsRequest"]["members"]["Filters"] = filters
    if state_enum is not None:
        shapes["WidgetState"] = {"type": "string", "enum": state_enum}
        shapes["Widget"]["members"]["State"] = {"shape": "WidgetState"}
    _, draft = annotate_model(ServiceModel(model, service_name="toy"), service="toy", api_version="2020-01-01")
    return draft.freeze()


def test_the_filter_names_a_documentation_lists() -> None:
    assert documented_filters(FILTER_DOC) == {"zone", "tag", "attachment.size"}
    assert documented_filters("<p>The filters.</p>") == frozenset()


def test_a_member_gets_a_filter_only_when_the_read_documents_it() -> None:
    widget = _toy(FILTER_DOC, None).resource("Widget")
    assert aws_field(widget.field("Zone")).filter_name == "zone"
    # "size" is not listed ("attachment.size" is another member's): no filter AWS would refuse
    assert aws_field(widget.field("Size")).filter_name is None
    assert widget.field("Zone").provenance["filter_name"] == "rule:aws.documented-filters"


def test_a_read_whose_documentation_lists_no_filter_keeps_the_kebab_cased_name() -> None:
    widget = _toy("<p>One or more filters.</p>", None).resource("Widget")
    assert aws_field(widget.field("Size")).filter_name == "size"


def test_a_state_enum_with_deleted_states_makes_them_terminal() -> None:
    widget = _toy(None, ["pending", "available", "Deleting", "deleted", "failed"]).resource("Widget")
    assert widget.readiness is not None
    assert widget.readiness.field == "State"
    assert widget.readiness.ready is None  # no waiter says which state is ready
    assert widget.readiness.failed == ("Deleting", "deleted")  # failed may still need its delete


def test_a_state_enum_without_deleted_states_says_nothing() -> None:
    assert _toy(None, ["pending", "available"]).resource("Widget").readiness is None
    assert _toy(None, None).resource("Widget").readiness is None


@pytest.fixture(scope="module")
def ec2() -> Service:
    src = load_pinned(SCHEMAS, "ec2")
    _, draft = annotate_model(src.model, service="ec2", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    return draft.freeze()


# (resource, member, filter): checked against the Filters list of each Describe call's reference
FILTERS = [
    ("Subnet", "VpcId", "vpc-id"),
    ("SecurityGroup", "VpcId", "vpc-id"),
    ("SecurityGroup", "GroupName", "group-name"),
    ("VpcEndpoint", "VpcId", "vpc-id"),
    ("TransitGatewayRouteTable", "TransitGatewayId", "transit-gateway-id"),
    ("EgressOnlyInternetGateway", "VpcId", None),  # tag filters only
    ("VpcPeeringConnection", "VpcId", None),  # requester-vpc-info.vpc-id
    ("InternetGatewayAttachment", "VpcId", None),  # attachment.vpc-id
    ("VolumeAttachment", "InstanceId", None),  # attachment.instance-id
]


@pytest.mark.parametrize(("resource", "member", "expected"), FILTERS)
def test_pinned_filters(ec2: Service, resource: str, member: str, expected: str | None) -> None:
    assert aws_field(ec2.resource(resource).field(member)).filter_name == expected


# (resource, terminal states, ready): waiters where EC2 has them, else the State enum
TERMINAL = [
    ("NatGateway", {"failed", "deleted", "deleting"}, "available"),
    ("VpnGateway", {"deleting", "deleted"}, None),
    ("TransitGatewayRouteTable", {"deleting", "deleted"}, None),
    ("VpcEndpoint", {"Deleting", "Deleted"}, None),
]


@pytest.mark.parametrize(("resource", "states", "ready"), TERMINAL)
def test_pinned_terminal_states(ec2: Service, resource: str, states: set[str], ready: str | None) -> None:
    readiness = ec2.resource(resource).readiness
    assert readiness is not None and set(readiness.failed) == states and readiness.ready == ready
