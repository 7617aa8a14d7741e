"""The tag item is no kind's shape (reads.py ``_resource_member``, ``_is_flat``): a create that
answers an ARN and its Tags (CreateSAMLProvider) names no shape of the resource, so
aws.read-returns-resource-shape does not read it by the first other read returning tags
(GetOpenIDConnectProvider); and a Get answering its members flat beside Tags
(GetOpenIDConnectProvider) is a flat read, whose create then gives the id (the ARN)."""

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
    assert saml.shape != "Tag"
    assert saml.operations.read is None or saml.operations.read.name != "GetOpenIDConnectProvider"
    oidc = iam.resource("OpenIDConnectProvider")
    read, create = oidc.operations.read, oidc.operations.create
    assert read is not None and read.name == "GetOpenIDConnectProvider" and read.output_member is None
    assert create is not None and create.id_member == "OpenIDConnectProviderArn"
    assert {"Url", "ThumbprintList"} <= {f.name for f in oidc.fields} and "Key" not in {f.name for f in oidc.fields}


def test_a_get_answering_its_members_beside_tags_is_a_flat_read() -> None:
    ops = {
        "CreateOidcThing": _op("CreateOidcThing", "CreateOidcThingRequest", "CreateOidcThingResult"),
        "GetOidcThing": _op("GetOidcThing", "OidcThingArnOnly", "GetOidcThingResult"),
        "DeleteOidcThing": _op("DeleteOidcThing", "OidcThingArnOnly"),
    }
    shapes = {
        **SHAPES,
        "CreateOidcThingRequest": _struct({"Url": "String", "Tags": "ThingTagList"}, ("Url",)),
        "CreateOidcThingResult": _struct({"OidcThingArn": "String", "Tags": "ThingTagList"}),
    }
    thing = _annotate(ops, shapes).resource("OidcThing")
    read, create = thing.operations.read, thing.operations.create
    assert read is not None and read.name == "GetOidcThing" and read.output_member is None
    assert thing.shape == "GetOidcThingResult"
    assert create is not None and create.id_member == "OidcThingArn"
