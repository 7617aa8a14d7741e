"""A tiny botocore service model, written out by hand, for unit-testing the AWS rules.

It has the shapes the rules reason about and nothing else: an EC2-style ``Widget`` (create,
describe, delete, attribute modification, tags), a ``WidgetAssociation`` made by an Associate
call that returns an id, a ``Gadget`` replaced by Put, and a versioned ``Template``.

Then the shapes of the rules for the rule classes issue 12 fixes (``TOY_MORE``): a ``Zone``
tagged only through ChangeTagsForResource's ResourceType, whose ``Peers`` are changed by
AssociatePeerWithZone / DisassociatePeerFromZone, whose ``Hooks`` go one Put/DeleteHook call per
item, whose ``Config.Comment`` UpdateZoneComment changes, whose ``OptionsOnLaunch`` ModifyZoneAttribute
takes flattened; a ``Rule`` set flat or through a ``Permissions`` list that can say ``CidrIpv6``,
changed by ModifyRules' keyed items; an ``Api`` patched by patchOperations; a ``Queue`` tagged
with {key: value} maps by TagQueue.
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


def _op(name: str, inp: str | None = None, out: str | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"name": name}
    if inp:
        op["input"] = _s(inp)
    if out:
        op["output"] = _s(out)
    return op


def _struct(members: dict[str, str], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "structure", "required": list(required), "members": {k: _s(v) for k, v in members.items()}}


MORE_OPERATIONS = {
    "CreateZone": _op("CreateZone", "CreateZoneRequest", "CreateZoneResult"),
    "GetZone": _op("GetZone", "ZoneIdOnly", "CreateZoneResult"),
    "DeleteZone": _op("DeleteZone", "ZoneIdOnly"),
    "ChangeTagsForResource": _op("ChangeTagsForResource", "ChangeTagsRequest"),
    "ListTagsForResource": _op("ListTagsForResource", "ListTagsRequest", "ListTagsResult"),
    "AssociatePeerWithZone": _op("AssociatePeerWithZone", "ZonePeerRequest"),
    "DisassociatePeerFromZone": _op("DisassociatePeerFromZone", "ZonePeerRequest"),
    "PutHook": _op("PutHook", "PutHookRequest"),
    "DeleteHook": _op("DeleteHook", "DeleteHookRequest"),
    "UpdateZoneComment": _op("UpdateZoneComment", "UpdateZoneCommentRequest"),
    "ModifyZoneAttribute": _op("ModifyZoneAttribute", "ModifyZoneAttributeRequest"),
    "AuthorizeRule": _op("AuthorizeRule", "AuthorizeRuleRequest", "AuthorizeRuleResult"),
    "RevokeRule": _op("RevokeRule", "RuleIdOnly"),
    "DescribeRules": _op("DescribeRules", "DescribeRulesRequest", "DescribeRulesResult"),
    "ModifyRules": _op("ModifyRules", "ModifyRulesRequest"),
    "CreateApi": _op("CreateApi", "CreateApiRequest", "Api"),
    "GetApi": _op("GetApi", "ApiIdOnly", "Api"),
    "DeleteApi": _op("DeleteApi", "ApiIdOnly"),
    "UpdateApi": _op("UpdateApi", "UpdateApiRequest", "Api"),
    "CreateQueue": _op("CreateQueue", "CreateQueueRequest", "CreateQueueResult"),
    "DeleteQueue": _op("DeleteQueue", "QueueUrlOnly"),
    "GetQueueAttributes": _op("GetQueueAttributes", "QueueUrlOnly", "QueueAttributesResult"),
    "TagQueue": _op("TagQueue", "TagQueueRequest"),
    "UntagQueue": _op("UntagQueue", "UntagQueueRequest"),
}

MORE_SHAPES = {
    "Integer": {"type": "integer"},
    "TagResourceType": {"type": "string", "enum": ["zone", "healthcheck"]},
    "TagKeyList": {"type": "list", "member": _s("String")},
    "TagMap": {"type": "map", "key": _s("String"), "value": _s("String")},
    "Peer": _struct({"PeerRegion": "String", "PeerId": "String"}),
    "PeerList": {"type": "list", "member": _s("Peer")},
    "ZoneConfig": _struct({"Comment": "String", "Private": "Boolean"}),
    "OptionsOnLaunch": _struct({"HostnameType": "String", "EnableARecord": "Boolean"}),
    "HookSpecification": _struct({"HookName": "String", "Transition": "String", "Timeout": "Integer"}, ("HookName", "Transition")),
    "HookSpecificationList": {"type": "list", "member": _s("HookSpecification")},
    "CreateZoneRequest": _struct({"ZoneName": "String", "Peers": "PeerList", "Config": "ZoneConfig", "Hooks": "HookSpecificationList"}, ("ZoneName",)),
    "Zone": _struct({"Id": "String", "ZoneName": "String", "Config": "ZoneConfig", "OptionsOnLaunch": "OptionsOnLaunch"}),
    "CreateZoneResult": _struct({"Zone": "Zone", "Peers": "PeerList"}),
    "ZoneIdOnly": _struct({"Id": "String"}, ("Id",)),
    "ChangeTagsRequest": _struct({"ResourceType": "TagResourceType", "ResourceId": "String", "AddTags": "TagList", "RemoveTagKeys": "TagKeyList"}, ("ResourceType", "ResourceId")),
    "ListTagsRequest": _struct({"ResourceType": "TagResourceType", "ResourceId": "String"}, ("ResourceType", "ResourceId")),
    "ListTagsResult": _struct({"Tags": "TagList"}),
    "ZonePeerRequest": _struct({"ZoneId": "String", "Peer": "Peer"}, ("ZoneId", "Peer")),
    "PutHookRequest": _struct({"ZoneId": "String", "HookName": "String", "Transition": "String", "Timeout": "Integer"}, ("ZoneId", "HookName")),
    "DeleteHookRequest": _struct({"ZoneId": "String", "HookName": "String"}, ("ZoneId", "HookName")),
    "UpdateZoneCommentRequest": _struct({"Id": "String", "Comment": "String"}, ("Id",)),
    "ModifyZoneAttributeRequest": _struct({"Id": "String", "HostnameTypeOnLaunch": "String", "EnableARecordOnLaunch": "AttributeBooleanValue"}, ("Id",)),
    "Ipv6Range": _struct({"CidrIpv6": "String", "Description": "String"}),
    "Ipv6RangeList": {"type": "list", "member": _s("Ipv6Range")},
    "Permission": _struct({"Protocol": "String", "FromPort": "Integer", "Ipv6Ranges": "Ipv6RangeList"}),
    "PermissionList": {"type": "list", "member": _s("Permission")},
    "AuthorizeRuleRequest": _struct({"GroupId": "String", "Protocol": "String", "FromPort": "Integer", "CidrIp": "String", "Permissions": "PermissionList"}, ("GroupId",)),
    "Rule": _struct({"RuleId": "String", "GroupId": "String", "Protocol": "String", "FromPort": "Integer", "CidrIpv6": "String", "Description": "String"}),
    "RuleList": {"type": "list", "member": _s("Rule")},
    "AuthorizeRuleResult": _struct({"Rules": "RuleList"}),
    "RuleIdOnly": _struct({"RuleId": "String"}, ("RuleId",)),
    "DescribeRulesRequest": _struct({"RuleIds": "TagKeyList"}),
    "DescribeRulesResult": _struct({"Rules": "RuleList"}),
    "RuleRequest": _struct({"Protocol": "String", "FromPort": "Integer", "CidrIpv6": "String", "Description": "String"}),
    "RuleUpdate": _struct({"RuleId": "String", "Rule": "RuleRequest"}),
    "RuleUpdateList": {"type": "list", "member": _s("RuleUpdate")},
    "ModifyRulesRequest": _struct({"GroupId": "String", "Rules": "RuleUpdateList"}, ("GroupId", "Rules")),
    "PatchOperation": _struct({"op": "String", "path": "String", "value": "String"}),
    "PatchOperationList": {"type": "list", "member": _s("PatchOperation")},
    "CreateApiRequest": _struct({"name": "String", "description": "String"}, ("name",)),
    "Api": _struct({"apiId": "String", "name": "String", "description": "String"}),
    "ApiIdOnly": _struct({"apiId": "String"}, ("apiId",)),
    "UpdateApiRequest": _struct({"apiId": "String", "patchOperations": "PatchOperationList"}, ("apiId",)),
    "CreateQueueRequest": _struct({"QueueName": "String", "tags": "TagMap"}, ("QueueName",)),
    "CreateQueueResult": _struct({"QueueUrl": "String"}),
    "QueueUrlOnly": _struct({"QueueUrl": "String"}, ("QueueUrl",)),
    "QueueAttributesResult": _struct({"QueueUrl": "String"}),
    "TagQueueRequest": _struct({"QueueUrl": "String", "Tags": "TagMap"}, ("QueueUrl", "Tags")),
    "UntagQueueRequest": _struct({"QueueUrl": "String", "TagKeys": "TagKeyList"}, ("QueueUrl", "TagKeys")),
}


def toy_model() -> ServiceModel:
    return ServiceModel(TOY, service_name="toy")


def toy_model_more() -> ServiceModel:
    """The toy service with the shapes of the rule classes issue 12 fixes added."""
    model = {
        **TOY,
        "operations": {**TOY["operations"], **MORE_OPERATIONS},
        "shapes": {**TOY["shapes"], **MORE_SHAPES},
    }
    return ServiceModel(model, service_name="toy")
