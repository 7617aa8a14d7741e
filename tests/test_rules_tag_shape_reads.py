"""aws.read-returns-resource-shape never takes the tag item for a resource's shape: a create
that answers an ARN and its Tags (CreateSAMLProvider) names no shape of the resource, and the
first other read returning tags (GetOpenIDConnectProvider) would read another kind."""

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
    "CreateSamlThing": _op("CreateSamlThing", "CreateSamlThingRequest", "CreateSamlThingResult"),
    "DeleteSamlThing": _op("DeleteSamlThing", "SamlThingArnOnly"),
    "GetOidcThing": _op("GetOidcThing", "OidcThingArnOnly", "GetOidcThingResult"),
}
SHAPES = {
    "ThingTag": _struct({"Key": "String", "Value": "String"}),
    "ThingTagList": {"type": "list", "member": {"shape": "ThingTag"}},
    "CreateSamlThingRequest": _struct({"Name": "String", "Tags": "ThingTagList"}, ("Name",)),
    "CreateSamlThingResult": _struct({"SamlThingArn": "String", "Tags": "ThingTagList"}),
    "SamlThingArnOnly": _struct({"SamlThingArn": "String"}, ("SamlThingArn",)),
    "OidcThingArnOnly": _struct({"OidcThingArn": "String"}, ("OidcThingArn",)),
    "GetOidcThingResult": _struct({"Url": "String", "Tags": "ThingTagList"}),
}


def test_a_create_answering_only_tags_gives_no_shape_to_read_by() -> None:
    thing = _annotate(OPS, SHAPES).resource("SamlThing")
    assert thing.operations.read is None or thing.operations.read.name != "GetOidcThing"
    assert thing.shape != "ThingTag"


def test_a_structure_that_is_not_the_tags_still_finds_its_read() -> None:
    """The rule's own case stays: the create answers a structure, a Describe lists it."""
    ops = {**OPS, "DescribeThingRules": _op("DescribeThingRules", "SamlThingArnOnly", "DescribeThingRulesResult")}
    shapes = {
        **SHAPES,
        "ThingRule": _struct({"RuleId": "String", "SamlThingArn": "String"}),
        "ThingRuleList": {"type": "list", "member": {"shape": "ThingRule"}},
        "CreateSamlThingResult": _struct({"SamlThingArn": "String", "Rules": "ThingRuleList"}),
        "DescribeThingRulesResult": _struct({"Rules": "ThingRuleList"}),
    }
    thing = _annotate(ops, shapes).resource("SamlThing")
    assert thing.operations.read is not None and thing.operations.read.name == "DescribeThingRules"


def test_pinned_saml_provider_is_not_read_as_an_openid_connect_provider() -> None:
    src = load_pinned(SCHEMAS, "iam")
    _, draft = annotate_model(src.model, service="iam", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    iam = draft.freeze()
    saml = iam.resource("SAMLProvider")
    assert saml.operations.read is None  # GetSAMLProvider answers no shape of it (see the cause)
    assert saml.shape != "Tag"
    oidc = iam.resource("OpenIDConnectProvider")  # the kind whose read it took stays read by it
    assert oidc.operations.read is not None and oidc.operations.read.name == "GetOpenIDConnectProvider"
