"""The AWS rules on a tiny hand-written model: each behaviour, and the rule id that decided it."""

from __future__ import annotations

import pytest

from codegen.model import Mutability, Service
from codegen.providers.aws.rules.run import AWS_RULES, annotate_model
from codegen.providers.aws.shapes import aws, aws_tags
from tests.toy_model import toy_model, toy_model_more


@pytest.fixture(scope="module")
def toy() -> Service:
    _, draft = annotate_model(toy_model(), service="toy", api_version="2020-01-01")
    return draft.freeze()


def test_rule_ids_are_unique_and_namespaced() -> None:
    ids = [r.id for r in AWS_RULES]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("aws.") for i in ids)
    assert all(r.doc for r in AWS_RULES), "every rule says what it decides"


def test_resources_found_from_operation_families(toy: Service) -> None:
    names = {r.name for r in toy.resources}
    # CreateTags/DeleteTags are tag operations; CreateTemplateVersion updates Template
    assert names == {"Widget", "WidgetAssociation", "Gadget", "Template"}


def test_widget_operations_and_identity(toy: Service) -> None:
    w = toy.resource("Widget")
    assert w.operations.names() == {
        "create": "CreateWidget", "read": "DescribeWidgets", "list": "DescribeWidgets",
        "update": ["ModifyWidgetAttribute"], "delete": "DeleteWidget",
        "tag": "CreateTags", "untag": "DeleteTags",
    }
    assert w.identity.primary == ("WidgetId",)
    assert w.identity.natural == ("tag:Name",)
    assert w.identity.provenance["primary"] == "rule:aws.delete-input-is-identity"
    assert w.operations.create is not None and w.operations.create.idempotency_token == "ClientToken"
    assert w.tags is not None and w.tags.create_member == "TagSpecifications" and aws_tags(w.tags).resource_type == "widget"


def test_widget_field_classes_with_provenance(toy: Service) -> None:
    w = toy.resource("Widget")
    size, zone, state = w.field("Size"), w.field("Zone"), w.field("State")
    assert (size.mutability, size.required, size.source) == (
        Mutability.CREATE_ONLY, True, "rule:aws.create-input-without-update"
    )
    assert zone.server_default and not size.server_default
    assert state.mutability is Mutability.READ_ONLY and state.source == "rule:aws.read-shape-only"
    assert w.field("WidgetId").mutability is Mutability.READ_ONLY


def test_attribute_field_mutable_and_read_separately(toy: Service) -> None:
    turbo = toy.resource("Widget").field("EnableTurbo")
    assert turbo.mutability is Mutability.MUTABLE
    assert turbo.update_operation == "ModifyWidgetAttribute"
    assert turbo.read_operation == "DescribeWidgetAttribute"
    assert not turbo.write_only


def test_write_only_and_sensitive(toy: Service) -> None:
    password = toy.resource("Widget").field("Password")
    assert password.write_only and password.sensitive
    assert password.provenance["sensitive"] == "rule:aws.sensitive-trait"


def test_tags_are_one_mutable_field(toy: Service) -> None:
    w = toy.resource("Widget")
    assert [f.name for f in w.fields].count("Tags") == 1
    assert "TagSpecifications" not in [f.name for f in w.fields]
    tags = w.field("Tags")
    assert tags.mutability is Mutability.MUTABLE and tags.update_operation == "CreateTags"


def test_associate_returning_an_id_makes_a_sub_resource(toy: Service) -> None:
    a = toy.resource("WidgetAssociation")
    assert a.operations.create is not None and a.operations.create.name == "AssociateWidget"
    assert a.operations.delete is not None and a.operations.delete.name == "DisassociateWidget"
    # read through the parent that lists it; its id is named as the read names it
    assert a.operations.read is not None and aws(a.operations.read).nested_member == "Associations"
    assert a.identity.primary == ("WidgetAssociationId",)
    # and the association does not make anything on the Widget mutable
    assert "AssociateWidget" not in toy.resource("Widget").operations.names()["update"]


def test_put_is_create_and_update(toy: Service) -> None:
    g = toy.resource("Gadget")
    assert g.identity.primary == ("GadgetName",)
    assert g.field("GadgetName").mutability is Mutability.CREATE_ONLY
    doc = g.field("Document")
    assert (doc.mutability, doc.update_operation, doc.source) == (
        Mutability.MUTABLE, "PutGadget", "rule:aws.put-is-upsert"
    )


def test_versioned_create_updates_parent(toy: Service) -> None:
    t = toy.resource("Template")
    assert t.field("Data").update_operation == "CreateTemplateVersion"
    assert t.field("TemplateName").mutability is Mutability.CREATE_ONLY


# --- the rule classes of issue 12, on the toy service's added shapes --------------------------


@pytest.fixture(scope="module")
def more() -> Service:
    _, draft = annotate_model(toy_model_more(), service="toy", api_version="2020-01-01")
    return draft.freeze()


def test_service_level_tagging_through_a_resource_type(more: Service) -> None:
    """CreateZone takes no tags and GetZone returns none; ChangeTagsForResource's ResourceType
    names zones: the zone is tagged through it, the type sent as a fixed value."""
    zone = more.resource("Zone")
    tags = zone.field("Tags")
    assert (tags.mutability, tags.update_operation, tags.in_create) == (Mutability.MUTABLE, "ChangeTagsForResource", False)
    assert zone.tags is not None and zone.tags.source == "rule:aws.service-level-tagging"
    call = aws_tags(zone.tags)
    assert (zone.tags.selector_member, call.selector_extra) == ("ResourceId", (("ResourceType", "zone"),))
    assert (call.payload_member, zone.tags.untag_operation, call.untag_member) == (
        "AddTags", "ChangeTagsForResource", "RemoveTagKeys")
    assert tags.read_operation == zone.tags.read_operation == "ListTagsForResource"
    # a generic call whose ResourceType cannot name a Widget is not the Widget's
    assert more.resource("Widget").field("Tags").update_operation == "CreateTags"


def test_tags_as_maps_in_any_case(more: Service) -> None:
    """CreateQueue takes ``tags`` (lower case) as a map; TagQueue is the queue's own tag call."""
    queue = more.resource("Queue")
    assert [f.name for f in queue.fields].count("Tags") == 1 and "tags" not in [f.name for f in queue.fields]
    assert queue.field("Tags").mutability is Mutability.MUTABLE
    assert queue.tags is not None
    call = aws_tags(queue.tags)
    assert (queue.tags.create_member, call.create_is_map, call.payload_is_map) == ("tags", True, True)
    assert (queue.tags.tag_operation, queue.tags.selector_member, call.untag_member) == ("TagQueue", "QueueUrl", "TagKeys")


def test_membership_pair_records_both_calls(more: Service) -> None:
    peers = more.resource("Zone").field("Peers")
    assert (peers.mutability, peers.update_kind, peers.update_operation, peers.remove_operation) == (
        Mutability.MUTABLE, "add_remove", "AssociatePeerWithZone", "DisassociatePeerFromZone")
    assert peers.update_name == "Peer" and peers.source == "rule:aws.add-remove-pair-updates"
    ops = {op.name: op for op in more.resource("Zone").operations.update}
    # the calls name the zone as ZoneId; its state calls it Id
    assert aws(ops["AssociatePeerWithZone"]).identity_pairs == (("ZoneId", "Id"),)


def test_put_delete_per_item(more: Service) -> None:
    hooks = more.resource("Zone").field("Hooks")
    assert (hooks.mutability, hooks.update_kind, hooks.update_operation, hooks.remove_operation, hooks.source) == (
        Mutability.MUTABLE, "per_item", "PutHook", "DeleteHook", "rule:aws.put-delete-per-item")


def test_nested_update_member(more: Service) -> None:
    config = more.resource("Zone").field("Config")
    assert (config.mutability, config.update_kind, config.update_operation, config.update_paths) == (
        Mutability.MUTABLE, "nested", "UpdateZoneComment", (("Comment", "Comment"),))


def test_flattened_update_members(more: Service) -> None:
    options = more.resource("Zone").field("OptionsOnLaunch")
    assert (options.mutability, options.update_kind, options.update_operation) == (
        Mutability.MUTABLE, "flattened", "ModifyZoneAttribute")
    assert options.update_paths == (("HostnameTypeOnLaunch", "HostnameType"), ("EnableARecordOnLaunch", "EnableARecord"))
    assert options.source == "rule:aws.flattened-update-members"


def test_keyed_items_and_the_structured_create_form(more: Service) -> None:
    rule = more.resource("Rule")
    ipv6 = rule.field("CidrIpv6")
    # the flat create lacks it, the Permissions form carries it; ModifyRules changes it by rule id
    assert ipv6.create_path == "Permissions[].Ipv6Ranges[].CidrIpv6"
    assert ipv6.provenance["create_path"] == "rule:aws.structured-create-form"
    assert (ipv6.mutability, ipv6.update_kind, ipv6.update_operation) == (Mutability.MUTABLE, "keyed_item", "ModifyRules")
    assert rule.field("Protocol").update_paths == (("Rules[].Rule.Protocol", "Protocol"),)
    assert rule.field("GroupId").mutability is Mutability.CREATE_ONLY  # the call's selector, not a new value


def test_json_patch_update(more: Service) -> None:
    api = more.resource("Api")
    name = api.field("name")
    assert (name.mutability, name.update_kind, name.update_operation, name.update_paths) == (
        Mutability.MUTABLE, "json_patch", "UpdateApi", (("patchOperations", "/name"),))
    assert "patchOperations" not in [f.name for f in api.fields]
    assert api.field("apiId").mutability is Mutability.READ_ONLY


def test_renderer_gives_the_runtime_only_what_it_performs(more: Service) -> None:
    """Kinds the runtime cannot send yet become create-only (created with) or read-only."""
    from codegen.render.capability import runtime_resource

    zone = runtime_resource(more.resource("Zone"))
    assert zone.field("Peers").mutability is Mutability.CREATE_ONLY
    assert zone.field("OptionsOnLaunch").mutability is Mutability.READ_ONLY
    assert zone.field("Tags").mutability is Mutability.MUTABLE
    assert zone.field("HostnameTypeOnLaunch").update_operation == "ModifyZoneAttribute"  # a plain set stays
    kept = {op.name for op in zone.operations.update}
    assert "AssociatePeerWithZone" not in kept and "ModifyZoneAttribute" in kept


def _rule_delete(revoke_members: dict[str, str], required: tuple[str, ...] = ()) -> Service:
    """A widget rule (created in a Widget, revoked by its own id) whose revoke takes these
    members: the scope member (WidgetId) is optional in both the create and the revoke."""
    from botocore.model import ServiceModel

    from tests.toy_model import MORE_OPERATIONS, MORE_SHAPES, TOY, _struct

    shapes = {
        **TOY["shapes"], **MORE_SHAPES,
        "AuthorizeRuleRequest": _struct({"WidgetId": "String", "Protocol": "String", "FromPort": "Integer"}),
        "Rule": _struct({"RuleId": "String", "WidgetId": "String", "Protocol": "String", "FromPort": "Integer"}),
        "RuleIdOnly": _struct(revoke_members, required),
    }
    ops = {k: v for k, v in MORE_OPERATIONS.items() if k in ("AuthorizeRule", "RevokeRule", "DescribeRules")}
    model = ServiceModel({**TOY, "operations": {**TOY["operations"], **ops}, "shapes": shapes}, service_name="toy")
    _, draft = annotate_model(model, service="toy", api_version="2020-01-01")
    return draft.freeze()


def test_a_delete_by_own_id_also_sends_the_optional_parent_member() -> None:
    """RevokeSecurityGroupIngress by SecurityGroupRuleIds alone revokes nothing on moto (the
    group is how the rule is found): the parent member the create took and the state reads
    goes into the delete identity; the primary identity stays the rule's own id."""
    rule = _rule_delete({"RuleIds": "TagKeyList", "WidgetId": "String", "Protocol": "String"}).resource("Rule")
    delete = rule.operations.delete
    assert delete is not None
    assert delete.identity_members == ("RuleIds", "WidgetId")
    assert rule.identity.primary == ("RuleId",)
    assert rule.identity.provenance["primary"] == "rule:aws.delete-input-is-identity"


def test_a_delete_member_the_state_does_not_read_is_not_sent() -> None:
    """Protocol is optional in the create and the revoke and read back, but names no other
    resource: it is not a parent scope, so the delete is by the own id alone."""
    rule = _rule_delete({"RuleIds": "TagKeyList", "Protocol": "String"}).resource("Rule")
    assert rule.operations.delete is not None
    assert rule.operations.delete.identity_members == ("RuleIds",)
