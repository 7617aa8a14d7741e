"""The AWS rules on a tiny hand-written model: each behaviour, and the rule id that decided it."""

from __future__ import annotations

import pytest

from codegen.providers.aws.rules.run import AWS_RULES, annotate_model
from codegen.providers.aws.shapes import aws
from codegen.model import Mutability, Service
from tests.toy_model import toy_model


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
    assert w.tags is not None and w.tags.create_member == "TagSpecifications" and w.tags.resource_type == "widget"


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
