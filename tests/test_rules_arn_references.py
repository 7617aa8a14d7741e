"""aws.reference-holds-arn: a field given another resource holds that resource's ARN, not its
id, when the botocore model says the member takes an ARN (its documentation, else its shape,
else its name); the fact reaches the FieldSpec and the runtime sends the ARN only where it is set."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from botocore.model import ServiceModel, StringShape

from codegen.model import Field, FieldType, Mutability, Service
from codegen.providers.aws.rules.arn_references import holds_arn
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.shapes import AwsFieldShape, aws_field
from codegen.providers.aws.source import load_pinned
from codegen.providers.aws.views import AwsResourceView
from tests.test_render_field_facts import _spec, _view
from tests.toy_model import TOY, _op, _s, _struct

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
RID = "rule:aws.reference-holds-arn"

# A Sink whose id is its name (SinkName), with an ARN (SinkArn), and a Feed whose create refers
# to it four ways: by a member documented as its ARN, by one only typed SinkArn, by one typed
# SinkArn but documented as its name (the ARN allowed too), and a Widget by its id; and a
# Target documented as an ARN that names no kind of this service.
_SHAPES = {
    "SinkArn": {"type": "string", "min": 20},
    "NameList": {"type": "list", "member": _s("String")},
    "CreateSinkRequest": _struct({"SinkName": "String"}, ("SinkName",)),
    "Sink": _struct({"SinkName": "String", "SinkArn": "String"}),
    "SinkList": {"type": "list", "member": _s("Sink")},
    "CreateSinkResult": _struct({"Sink": "Sink"}),
    "DescribeSinksRequest": _struct({"SinkNames": "NameList"}),
    "DescribeSinksResult": _struct({"Sinks": "SinkList"}),
    "SinkNameOnly": _struct({"SinkName": "String"}, ("SinkName",)),
    "CreateFeedRequest": {
        "type": "structure",
        "required": ["FeedName"],
        "members": {
            "FeedName": _s("String"),
            "SinkArn": _s("String", documentation="<p>The ARN of the sink that receives the feed.</p>"),
            "Fallback": _s("SinkArn"),
            "SinkName": _s("SinkArn", documentation="<p>The name of the sink. You can also provide the ARN of the sink.</p>"),
            "WidgetId": _s("WidgetId", documentation="<p>The ID of the widget.</p>"),
            "Target": _s("String", documentation="<p>The ARN of the stream the feed is copied to.</p>"),
        },
    },
    "Feed": _struct({"FeedName": "String", "SinkArn": "String", "Fallback": "SinkArn", "SinkName": "SinkArn",
                     "WidgetId": "String", "Target": "String"}),
    "FeedList": {"type": "list", "member": _s("Feed")},
    "CreateFeedResult": _struct({"Feed": "Feed"}),
    "DescribeFeedsRequest": _struct({"FeedNames": "NameList"}),
    "DescribeFeedsResult": _struct({"Feeds": "FeedList"}),
    "FeedNameOnly": _struct({"FeedName": "String"}, ("FeedName",)),
}
_OPERATIONS = {
    "CreateSink": _op("CreateSink", "CreateSinkRequest", "CreateSinkResult"),
    "DescribeSinks": _op("DescribeSinks", "DescribeSinksRequest", "DescribeSinksResult"),
    "DeleteSink": _op("DeleteSink", "SinkNameOnly"),
    "CreateFeed": _op("CreateFeed", "CreateFeedRequest", "CreateFeedResult"),
    "DescribeFeeds": _op("DescribeFeeds", "DescribeFeedsRequest", "DescribeFeedsResult"),
    "DeleteFeed": _op("DeleteFeed", "FeedNameOnly"),
}


@pytest.fixture(scope="module")
def toy() -> Service:
    doc = {**TOY, "operations": {**TOY["operations"], **_OPERATIONS}, "shapes": {**TOY["shapes"], **_SHAPES}}
    _, draft = annotate_model(ServiceModel(doc, service_name="toy"), service="toy", api_version="2020-01-01")
    return draft.freeze()


def test_a_reference_documented_or_typed_as_an_arn_holds_it(toy: Service) -> None:
    sink, feed = toy.resource("Sink"), toy.resource("Feed")
    assert sink.identity.primary == ("SinkName",) and sink.identity.arn == "SinkArn"  # the case: id is not the ARN
    for member in ("SinkArn", "Fallback"):  # documented "The ARN of"; only typed SinkArn (no doc)
        f = feed.field(member)
        assert f.references == "Sink"
        assert aws_field(f).holds_arn is True and f.provenance["holds_arn"] == RID


def test_a_reference_that_takes_the_name_too_or_an_id_holds_the_id(toy: Service) -> None:
    feed = toy.resource("Feed")
    # typed SinkArn, but its documentation says it is the name (the ARN also allowed): the id
    assert feed.field("SinkName").references == "Sink" and aws_field(feed.field("SinkName")).holds_arn is False
    assert feed.field("WidgetId").references == "Widget" and aws_field(feed.field("WidgetId")).holds_arn is False
    assert "holds_arn" not in feed.field("WidgetId").provenance


def test_a_field_the_task_sends_holds_an_arn_without_a_known_kind(toy: Service) -> None:
    """A task may be given a resource in a member the rules found no kind for (a values file's,
    a user's): a sent member documented as an ARN is marked; the kind's own ARN, read-only and
    naming no other kind, is never sent and is not."""
    target = toy.resource("Feed").field("Target")
    assert target.references is None and target.mutability is not Mutability.READ_ONLY
    assert aws_field(target).holds_arn is True and target.provenance["holds_arn"] == RID
    own = toy.resource("Sink").field("SinkArn")
    assert own.mutability is Mutability.READ_ONLY and aws_field(own).holds_arn is False


def _string(name: str, **metadata: object) -> StringShape:
    return StringShape(name, {"type": "string", **metadata})


@pytest.mark.parametrize(
    ("member", "documentation", "shape", "expected"),
    [
        ("Target", "", _string("PolicyArnType", pattern="^arn:aws:iam::\\d{12}:policy/.+$"), True),  # the pattern
        ("Target", "", _string("ResourceArn"), True),  # the shape's name
        ("TargetArn", "", _string("String"), True),  # the name, where nothing else speaks
        ("TargetArn", "The ID of the target.", _string("String"), False),  # documentation outranks the name
        ("Target", "", _string("CalendarNameOrARN"), False),  # a shape for either
        ("Target", "", _string("S3RegionalOrS3ExpressBucketArnString"), True),  # "Or" not between name and ARN
        ("RoleName", "The name (friendly name, not ARN) of the role.", _string("roleNameType"), False),
        ("SecretId", "The ARN or name of the secret.", _string("SecretIdType"), False),
        ("KeyId", "The ARN, key ID, or alias of the KMS key.", _string("KmsKeyIdType"), False),
        ("KeyId", "The ARN of the KMS key to use.", _string("KmsKeyId"), True),  # documentation outranks the shape
        ("Ipam", "The IPAM ARN.", _string("String"), True),
        ("Groups", "An array containing the ARN of the log group.", _string("String"), True),
        ("CalendarNames", "The names of Amazon Resource Names (ARNs) of the calendars.", _string("String"), False),
        ("Target", "", None, False),  # no evidence at all: the id
    ],
)
def test_evidence_in_order_documentation_shape_name(
    member: str, documentation: str, shape: StringShape | None, expected: bool
) -> None:
    assert holds_arn(member, documentation, shape) is expected


def test_holds_arn_is_printed_only_where_set() -> None:
    ref = FieldType("string", "DestinationArn")
    marked = Field("destinationArn", ref, mutability=Mutability.CREATE_ONLY, references="Destination",
                   call=AwsFieldShape(holds_arn=True))
    spec = _spec(_view(AwsResourceView, "aws", marked))
    assert spec["holds_arn"] is True and list(spec).index("references") < list(spec).index("holds_arn")
    plain = dataclasses.replace(marked, call=AwsFieldShape())
    assert "holds_arn" not in _spec(_view(AwsResourceView, "aws", plain))


@pytest.fixture(scope="module")
def pinned() -> dict[str, Service]:
    out = {}
    for name in ("logs", "ec2", "iam", "dynamodb", "elbv2"):
        src = load_pinned(SCHEMAS, name)
        _, draft = annotate_model(src.model, service=name, api_version=src.api_version,
                                  paginators=src.paginators, waiters=src.waiters)
        out[name] = draft.freeze()
    return out


@pytest.mark.parametrize(
    ("service", "resource", "member", "expected"),
    [
        ("logs", "SubscriptionFilter", "destinationArn", True),  # a Destination's id is its name
        ("logs", "SubscriptionFilter", "logGroupName", False),
        ("logs", "LogAnomalyDetector", "logGroupArnList", True),  # named ...List: the old name test missed it
        ("ec2", "Subnet", "VpcId", False),
        ("ec2", "RouteTableAssociation", "SubnetId", False),
        ("ec2", "IpamPool", "IpamArn", True),
        ("iam", "RolePolicyAttachment", "PolicyArn", True),
        ("iam", "RolePolicyAttachment", "RoleName", False),  # "(friendly name, not ARN)"
        ("dynamodb", "Backup", "TableName", False),  # typed TableArn, documented as the name
        ("elbv2", "TargetGroup", "LoadBalancerArns", True),
        # no reference found (a lowerCamel member, a generic shape), but a values file gives it a
        # DeliveryDestination task: "The ARN of the delivery destination to use for this delivery"
        ("logs", "Delivery", "deliveryDestinationArn", True),
        ("logs", "LogGroup", "kmsKeyId", True),  # "The Amazon Resource Name (ARN) of the KMS key", typed KmsKeyId
        ("logs", "Destination", "arn", False),  # its own ARN: read-only, never sent
    ],
)
def test_pinned_fields(pinned: dict[str, Service], service: str, resource: str, member: str, expected: bool) -> None:
    f = pinned[service].resource(resource).field(member)
    assert aws_field(f).holds_arn is expected
    assert f.provenance.get("holds_arn") == (RID if expected else None)
