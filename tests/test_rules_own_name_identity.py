"""aws.delete-input-is-identity: a delete's required member that names the resource itself
(DeleteDocument's Name, typed DocumentName) selects it whole; the optional members its create
also takes (a VersionName) are not added to its identity, as they are for a sub-resource
whose required members all name other resources (a Route's RouteTableId)."""

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


def test_a_required_member_naming_the_resource_itself_is_its_whole_identity() -> None:
    ops = {
        "CreateRecipe": _op("CreateRecipe", "CreateRecipeRequest", "CreateRecipeResult"),
        "DescribeRecipe": _op("DescribeRecipe", "RecipeSelector", "DescribeRecipeResult"),
        "DeleteRecipe": _op("DeleteRecipe", "RecipeSelector"),
    }
    shapes = {
        "RecipeName": {"type": "string"},
        "CreateRecipeRequest": _struct({"Name": "RecipeName", "Body": "String", "VersionName": "String"}, ("Name", "Body")),
        "RecipeSelector": _struct({"Name": "RecipeName", "VersionName": "String"}, ("Name",)),
        "Recipe": _struct({"Name": "RecipeName", "VersionName": "String", "Body": "String"}),
        "CreateRecipeResult": _struct({"Recipe": "Recipe"}),
        "DescribeRecipeResult": _struct({"Recipe": "Recipe"}),
    }
    recipe = _annotate(ops, shapes).resource("Recipe")
    assert recipe.identity.primary == ("Name",)


def test_pinned_ssm_document_is_identified_by_its_name() -> None:
    src = load_pinned(SCHEMAS, "ssm")
    _, draft = annotate_model(src.model, service="ssm", api_version=src.api_version,
                              paginators=src.paginators, waiters=src.waiters)
    assert draft.freeze().resource("Document").identity.primary == ("Name",)
