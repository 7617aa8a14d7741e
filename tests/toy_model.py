"""A tiny botocore service model, written out by hand, for unit-testing the AWS rules.

It has the shapes the rules reason about and nothing else: an EC2-style ``Widget`` (create,
describe, delete, attribute modification, tags), a ``WidgetAssociation`` made by an Associate
call that returns an id, a ``Gadget`` replaced by Put, and a versioned ``Template``.
"""

from __future__ import annotations

from typing import Any

from botocore.model import ServiceModel


def _s(shape: str, **extra: Any) -> dict[str, Any]:
    return {"shape": shape, **extra}


TOY: dict[str, Any] = {
    "metadata": {"apiVersion": "2020-01-01", "protocol": "ec2", "serviceId": "Toy",
                 "endpointPrefix": "toy", "signatureVersion": "v4"},
    "operations": {
        "CreateWidget": {"name": "CreateWidget", "input": _s("CreateWidgetRequest"), "output": _s("CreateWidgetResult")},
        "DescribeWidgets": {"name": "DescribeWidgets", "input": _s("DescribeWidgetsRequest"), "output": _s("DescribeWidgetsResult")},
        "DeleteWidget": {"name": "DeleteWidget", "input": _s("DeleteWidgetRequest")},
        "ModifyWidgetAttribute": {"name": "ModifyWidgetAttribute", "input": _s("ModifyWidgetAttributeRequest")},
        "DescribeWidgetAttribute": {"name": "DescribeWidgetAttribute", "input": _s("DescribeWidgetAttributeRequest"), "output": _s("DescribeWidgetAttributeResult")},
        "AssociateWidget": {"name": "AssociateWidget", "input": _s("AssociateWidgetRequest"), "output": _s("AssociateWidgetResult")},
        "DisassociateWidget": {"name": "DisassociateWidget", "input": _s("DisassociateWidgetRequest")},
        "CreateTags": {"name": "CreateTags", "input": _s("CreateTagsRequest")},
        "DeleteTags": {"name": "DeleteTags", "input": _s("CreateTagsRequest")},
        "PutGadget": {"name": "PutGadget", "input": _s("PutGadgetRequest")},
        "GetGadget": {"name": "GetGadget", "input": _s("GetGadgetRequest"), "output": _s("PutGadgetRequest")},
        "DeleteGadget": {"name": "DeleteGadget", "input": _s("GetGadgetRequest")},
        "CreateTemplate": {"name": "CreateTemplate", "input": _s("CreateTemplateRequest"), "output": _s("TemplateResult")},
        "CreateTemplateVersion": {"name": "CreateTemplateVersion", "input": _s("CreateTemplateVersionRequest")},
        "DeleteTemplateVersions": {"name": "DeleteTemplateVersions", "input": _s("TemplateIdOnly")},
        "DeleteTemplate": {"name": "DeleteTemplate", "input": _s("TemplateIdOnly")},
        "GetTemplate": {"name": "GetTemplate", "input": _s("TemplateIdOnly"), "output": _s("TemplateResult")},
    },
    "shapes": {
        "String": {"type": "string"},
        "Boolean": {"type": "boolean"},
        "Secret": {"type": "string", "sensitive": True},
        "WidgetId": {"type": "string"},
        "GizmoId": {"type": "string"},
        "AttributeBooleanValue": {"type": "structure", "members": {"Value": _s("Boolean")}},
        "Tag": {"type": "structure", "members": {"Key": _s("String"), "Value": _s("String")}},
        "TagList": {"type": "list", "member": _s("Tag")},
        "ResourceType": {"type": "string", "enum": ["widget", "gizmo"]},
        "TagSpecification": {"type": "structure", "members": {"ResourceType": _s("ResourceType"), "Tags": _s("TagList")}},
        "TagSpecificationList": {"type": "list", "member": _s("TagSpecification")},
        "WidgetIdList": {"type": "list", "member": _s("WidgetId")},
        "CreateWidgetRequest": {
            "type": "structure",
            "required": ["Size"],
            "members": {
                "Size": _s("String", documentation="<p>The size.</p>"),
                "Zone": _s("String", documentation="<p>The zone. Default: we choose one for you.</p>"),
                "Password": _s("Secret"),
                "TagSpecifications": _s("TagSpecificationList"),
                "ClientToken": _s("String", idempotencyToken=True),
                "DryRun": _s("Boolean"),
            },
        },
        "Widget": {
            "type": "structure",
            "members": {
                "WidgetId": _s("String"), "Size": _s("String"), "Zone": _s("String"),
                "State": _s("String"), "Tags": _s("TagList"),
                "Associations": _s("WidgetAssociationList"),
            },
        },
        "WidgetAssociation": {"type": "structure", "members": {"WidgetAssociationId": _s("String"), "GizmoId": _s("String")}},
        "WidgetAssociationList": {"type": "list", "member": _s("WidgetAssociation")},
        "WidgetList": {"type": "list", "member": _s("Widget")},
        "CreateWidgetResult": {"type": "structure", "members": {"Widget": _s("Widget")}},
        "DescribeWidgetsRequest": {"type": "structure", "members": {"WidgetIds": _s("WidgetIdList"), "NextToken": _s("String")}},
        "DescribeWidgetsResult": {"type": "structure", "members": {"Widgets": _s("WidgetList"), "NextToken": _s("String")}},
        "DeleteWidgetRequest": {"type": "structure", "required": ["WidgetId"], "members": {"WidgetId": _s("WidgetId"), "DryRun": _s("Boolean")}},
        "ModifyWidgetAttributeRequest": {
            "type": "structure", "required": ["WidgetId"],
            "members": {"WidgetId": _s("WidgetId"), "EnableTurbo": _s("AttributeBooleanValue")},
        },
        "DescribeWidgetAttributeRequest": {"type": "structure", "required": ["WidgetId"], "members": {"WidgetId": _s("WidgetId"), "Attribute": _s("String")}},
        "DescribeWidgetAttributeResult": {"type": "structure", "members": {"WidgetId": _s("String"), "EnableTurbo": _s("AttributeBooleanValue")}},
        "AssociateWidgetRequest": {"type": "structure", "required": ["WidgetId", "GizmoId"], "members": {"WidgetId": _s("WidgetId"), "GizmoId": _s("GizmoId")}},
        "AssociateWidgetResult": {"type": "structure", "members": {"AssociationId": _s("String")}},
        "DisassociateWidgetRequest": {"type": "structure", "required": ["AssociationId"], "members": {"AssociationId": _s("String")}},
        "CreateTagsRequest": {"type": "structure", "required": ["Resources", "Tags"], "members": {"Resources": _s("WidgetIdList"), "Tags": _s("TagList")}},
        "PutGadgetRequest": {"type": "structure", "required": ["GadgetName", "Document"], "members": {"GadgetName": _s("String"), "Document": _s("String")}},
        "GetGadgetRequest": {"type": "structure", "required": ["GadgetName"], "members": {"GadgetName": _s("String")}},
        "CreateTemplateRequest": {"type": "structure", "required": ["TemplateName", "Data"], "members": {"TemplateName": _s("String"), "Data": _s("String")}},
        "CreateTemplateVersionRequest": {"type": "structure", "required": ["TemplateId"], "members": {"TemplateId": _s("String"), "Data": _s("String")}},
        "TemplateIdOnly": {"type": "structure", "required": ["TemplateId"], "members": {"TemplateId": _s("String")}},
        "Template": {"type": "structure", "members": {"TemplateId": _s("String"), "TemplateName": _s("String")}},
        "TemplateResult": {"type": "structure", "members": {"Template": _s("Template")}},
    },
}


def toy_model() -> ServiceModel:
    return ServiceModel(TOY, service_name="toy")
