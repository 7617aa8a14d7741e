"""aws.id-member-references-resource: a member of a kind's identity that matches the last word
of the kind's name is the kind's own name (an inline GroupPolicy's PolicyName, a
ServiceLinkedRole's RoleName), not a reference to the resource of that name (a managed Policy,
a Role), which the sweep would make first and the task would wait for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from botocore.model import ServiceModel

from codegen.model import Service
from codegen.providers.aws.rules.run import annotate_model
from codegen.providers.aws.source import load_pinned
from tests.toy_model import MORE_OPERATIONS, MORE_SHAPES, TOY, _op, _struct

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def _annotate(operations: dict[str, Any], shapes: dict[str, Any]) -> Service:
    model = {**TOY, "operations": {**TOY["operations"], **MORE_OPERATIONS, **operations},
             "shapes": {**TOY["shapes"], **MORE_SHAPES, **shapes}}
    _, draft = annotate_model(ServiceModel(model, service_name="toy"), service="toy", api_version="2020-01-01")
    return draft.freeze()


OPS = {
    "CreateRule": _op("CreateRule", "CreateRuleRequest", "CreateRuleResult"),
    "GetRule": _op("GetRule", "RuleArnOnly", "GetRuleResult"),
    "DeleteRule": _op("DeleteRule", "RuleArnOnly"),
    "PutGadgetRule": _op("PutGadgetRule", "PutGadgetRuleRequest"),
    "GetGadgetRule": _op("GetGadgetRule", "GadgetRuleKey", "GetGadgetRuleResult"),
    "DeleteGadgetRule": _op("DeleteGadgetRule", "GadgetRuleKey"),
    "AttachGadgetRule": _op("AttachGadgetRule", "GadgetRuleArn"),
    "DetachGadgetRule": _op("DetachGadgetRule", "GadgetRuleArn"),
}
SHAPES = {
    "Rule": _struct({"RuleName": "String", "RuleArn": "String"}),
    "CreateRuleRequest": _struct({"RuleName": "String"}, ("RuleName",)),
    "CreateRuleResult": _struct({"Rule": "Rule"}),
    "RuleArnOnly": _struct({"RuleArn": "String"}, ("RuleArn",)),
    "GetRuleResult": _struct({"Rule": "Rule"}),
    "PutGadgetRuleRequest": _struct({"GadgetId": "String", "RuleName": "String", "Body": "String"},
                                    ("GadgetId", "RuleName", "Body")),
    "GadgetRuleKey": _struct({"GadgetId": "String", "RuleName": "String"}, ("GadgetId", "RuleName")),
    "GetGadgetRuleResult": _struct({"GadgetId": "String", "RuleName": "String", "Body": "String"}),
    "GadgetRuleArn": _struct({"GadgetId": "String", "RuleArn": "String"}, ("GadgetId", "RuleArn")),
}


def test_an_inline_kinds_own_name_is_not_a_reference() -> None:
    toy = _annotate(OPS, SHAPES)
    inline = toy.resource("GadgetRule")
    assert inline.identity.primary == ("GadgetId", "RuleName")
    assert inline.field("RuleName").references is None  # its own name
    assert inline.field("GadgetId").references == "Gadget"  # its parent stays referenced


def test_a_reference_outside_the_identity_stays() -> None:
    """GadgetRuleAttachment's RuleArn (not its own name: it attaches a managed Rule) is kept."""
    toy = _annotate(OPS, SHAPES)
    assert toy.resource("GadgetRuleAttachment").field("RuleArn").references == "Rule"


def test_pinned_inline_policies_and_service_linked_role() -> None:
    src = load_pinned(SCHEMAS, "iam")
    _, draft = annotate_model(src.model, service="iam", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    iam = draft.freeze()
    for kind in ("GroupPolicy", "UserPolicy"):
        assert iam.resource(kind).field("PolicyName").references is None
    assert iam.resource("UserPolicy").field("UserName").references == "User"
    assert iam.resource("ServiceLinkedRole").field("RoleName").references is None
    for kind in ("GroupPolicyAttachment", "UserPolicyAttachment", "RolePolicyAttachment"):
        assert iam.resource(kind).field("PolicyArn").references == "Policy"  # managed: kept
