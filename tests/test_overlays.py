"""Overlays: bad files end the run with file + key + reason; good ones correct the draft and say so."""

from __future__ import annotations

import copy
import dataclasses
import textwrap
from pathlib import Path

import pytest

from codegen.annotate.draft import FIELD_DEFAULTS, FieldDraft, ResourceDraft, ServiceDraft
from codegen.errors import TasklayerError
from codegen.model import FieldType, Mutability, Operation, TagsModel
from codegen.overlays import apply_overlay, find_overlay, load_overlay
from codegen.overlays.load import FIELD_VALUES, TAGS_KEYS
from codegen.providers.aws.shapes import AwsFieldShape, AwsTagShape, aws_tags
from codegen.providers.registry import PROVIDERS

FILE = "schemas/overlays/aws/tiny.yaml"
RULE = "rule:test"
OPS = frozenset(
    {
        "CreateVpc",
        "DeleteVpc",
        "ModifyVpcAttribute",
        "DescribeVpcAttribute",
        "ModifySubnetAttribute",
        "CreateTags",
        "DeleteTags",
        "TagResource",
    }
)


def src(key: str) -> str:
    return f"overlay:{FILE}#{key}"


def _field(name: str, **values: object) -> FieldDraft:
    f = FieldDraft(name, FieldType("string"))
    for attr, value in values.items():
        f.set(attr, value, RULE)
    return f


def _resource(name: str, *fields: FieldDraft, **attrs: object) -> ResourceDraft:
    return ResourceDraft(name, name, shape=name, fields={f.name: f for f in fields}, **attrs)  # type: ignore[arg-type]


def tiny_draft() -> ServiceDraft:
    """Four resources, references between them, one update call, one tags model."""
    modify = Operation(
        "ModifySubnetAttribute", "update", identity_members=("SubnetId",), fields=("MapPublicIp",)
    )
    resources = [
        _resource(
            "Vpc",
            _field("CidrBlock", mutability=Mutability.CREATE_ONLY),
            _field("EnableDnsHostnames"),
            _field("VpcId", mutability=Mutability.READ_ONLY),
            delete=Operation("DeleteVpc", "delete", identity_members=("VpcId",)),
            primary=("VpcId",),
            tags=TagsModel("Tags", create_member="TagSpecifications", tag_operation="CreateTags"),
        ),
        _resource(
            "Subnet",
            _field("VpcId", references="Vpc", mutability=Mutability.CREATE_ONLY),
            _field("MapPublicIp", mutability=Mutability.MUTABLE, update_operation="ModifySubnetAttribute"),
            update=[modify],
            primary=("SubnetId",),
        ),
        _resource("Address", _field("AllocationId"), _field("SubnetId", references="Subnet")),
        _resource("SecurityGroup", _field("VpcId", references="Vpc"), _field("GroupName")),
    ]
    return ServiceDraft("aws", "tiny", "2020-01-01", resources={r.name: r for r in resources})


def write(root: Path, text: str, name: str = "tiny.yaml") -> Path:
    path = root / "schemas" / "overlays" / "aws" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def applied(root: Path, text: str) -> ServiceDraft:
    return apply_overlay(tiny_draft(), load_overlay(write(root, text), root), OPS)


def failure(root: Path, text: str) -> TasklayerError:
    draft = tiny_draft()
    with pytest.raises(TasklayerError) as info:
        apply_overlay(draft, load_overlay(write(root, text), root), OPS)
    return info.value


# --- bad overlays: each names the file, the key and the reason ----------------------------------

BAD = [
    pytest.param(
        "resources: {Vpc: {fields: {CidrBlock: {mutabilty: mutable}}}}",
        "resources.Vpc.fields.CidrBlock.mutabilty",
        "did you mean 'mutability'",
        id="unknown-field-key",
    ),
    pytest.param("resource: {}", "resource", "did you mean 'resources'", id="unknown-top-key"),
    pytest.param(
        "resources: {Vpc: {renam: X}}",
        "resources.Vpc.renam",
        "did you mean 'rename'",
        id="unknown-resource-key",
    ),
    pytest.param(
        "resources: {Vpc: {identity: {primary: VpcId}}}",
        "resources.Vpc.identity.primary",
        "expected a list",
        id="identity-not-a-list",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {CidrBlock: {update_kind: add-remove}}}}",
        "resources.Vpc.fields.CidrBlock.update_kind",
        "update_kind must be null or one of add_remove",
        id="unknown-update-kind",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {CidrBlock: {update_paths: [[Comment]]}}}}",
        "resources.Vpc.fields.CidrBlock.update_paths",
        "expected a list of [name, name] pairs",
        id="update-paths-not-pairs",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {CidrBlock: {required: 'yes'}}}}",
        "resources.Vpc.fields.CidrBlock.required",
        "expected true or false",
        id="wrong-type",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {CidrBlock: {mutability: createonly}}}}",
        "resources.Vpc.fields.CidrBlock.mutability",
        "must be one of create_only, mutable",
        id="bad-mutability",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {Extra: {add: true}}}}",
        "resources.Vpc.fields.Extra.type",
        "needs a type",
        id="add-without-type",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {CidrBlock: {type: string}}}}",
        "resources.Vpc.fields.CidrBlock.type",
        "only for a field added",
        id="type-without-add",
    ),
    pytest.param(
        "resources: {Vpc: {exclude: true, rename: Net}}",
        "resources.Vpc.exclude",
        "takes no other",
        id="exclude-and-more",
    ),
    pytest.param(
        "resources: {Vpc: {rename: 'My Vpc'}}",
        "resources.Vpc.rename",
        "letters, digits",
        id="rename-not-a-name",
    ),
    pytest.param("include: Vpc", "include", "expected a list", id="include-not-a-list"),
    pytest.param("resources: {Vpc: }", "resources.Vpc", "non-empty mapping", id="empty-entry"),
    pytest.param(
        "resources: {Vcp: {exclude: true}}", "resources.Vcp", "did you mean 'Vpc'", id="unknown-resource"
    ),
    pytest.param(
        "resources: {Vpc: {fields: {CidrBlok: {required: true}}}}",
        "resources.Vpc.fields.CidrBlok",
        "did you mean 'CidrBlock'",
        id="unknown-field",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {CidrBlock: {add: true, type: string}}}}",
        "resources.Vpc.fields.CidrBlock.add",
        "already has a field",
        id="add-existing-field",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {EnableDnsHostnames: {mutability: mutable, update_operation: ModifyVpcAttr}}}}",
        "resources.Vpc.fields.EnableDnsHostnames.update_operation",
        "no operation 'ModifyVpcAttr'",
        id="unknown-update-op",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {EnableDnsHostnames: {read_operation: DescribeVpcAttributes}}}}",
        "resources.Vpc.fields.EnableDnsHostnames.read_operation",
        "did you mean 'DescribeVpcAttribute'",
        id="unknown-read-op",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {EnableDnsHostnames: {mutability: mutable}}}}",
        "resources.Vpc.fields.EnableDnsHostnames.mutability",
        "say which operation carries it",
        id="mutable-without-op",
    ),
    pytest.param(
        "resources: {Vpc: {fields: {CidrBlock: {update_operation: ModifyVpcAttribute}}}}",
        "resources.Vpc.fields.CidrBlock.update_operation",
        "only a mutable field",
        id="op-on-create-only",
    ),
    pytest.param(
        "resources: {Address: {fields: {AllocationId: {references: Adress}}}}",
        "resources.Address.fields.AllocationId.references",
        "did you mean 'Address'",
        id="unknown-reference",
    ),
    pytest.param(
        "resources: {Address: {rename: ElasticIp}, SecurityGroup: {fields: {GroupName: {references: Address}}}}",
        "resources.SecurityGroup.fields.GroupName.references",
        "renamed to 'ElasticIp'",
        id="reference-to-old-name",
    ),
    pytest.param(
        "resources: {Vpc: {exclude: true}, SecurityGroup: {fields: {GroupName: {references: Vpc}}}}",
        "resources.SecurityGroup.fields.GroupName.references",
        "excluded in this file",
        id="reference-to-excluded",
    ),
    pytest.param(
        "resources: {Address: {rename: Subnet}}",
        "resources.Address.rename",
        "already the name of resource 'Subnet'",
        id="rename-collides",
    ),
    pytest.param(
        "resources: {Vpc: {exclude: true}, Address: {rename: Vpc}}",
        "resources.Address.rename",
        "already the name of resource 'Vpc'",
        id="rename-onto-excluded",
    ),
    pytest.param(
        "resources: {Address: {rename: Net}, Vpc: {rename: Net}}",
        "resources.Vpc.rename",
        "already what 'Address' is renamed to",
        id="two-renames-collide",
    ),
    pytest.param("include: [Vpc, Subnett]", "include", "did you mean 'Subnet'", id="unknown-include"),
    pytest.param("include: [Vpc]\ngenerate: [Subnet]", "generate", "not in include", id="generate-not-kept"),
    pytest.param(
        "resources: {Vpc: {tags: {untag_operation: UntagVpc}}}",
        "resources.Vpc.tags.untag_operation",
        "no operation 'UntagVpc'",
        id="unknown-tag-op",
    ),
    pytest.param(
        "resources: {Subnet: {tags: {resource_type: subnet}}}",
        "resources.Subnet.tags",
        "no tags model",
        id="tags-without-model",
    ),
]


@pytest.mark.parametrize(("text", "key", "reason"), BAD)
def test_bad_overlay_names_file_key_and_reason(tmp_path: Path, text: str, key: str, reason: str) -> None:
    err = failure(tmp_path, text)
    assert err.file == FILE
    assert err.pointer == key
    assert reason in str(err)
    assert str(err).startswith(f"{FILE}: {key}: ")


def test_unknown_key_lists_allowed_keys_and_line(tmp_path: Path) -> None:
    err = failure(tmp_path, "resources:\n  Vpc:\n    fields:\n      CidrBlock:\n        mutabilty: mutable\n")
    assert "(line 5)" in str(err)
    assert "allowed keys: mutability, update_operation" in str(err)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("resources: {Vpc: [}\n", "line 1, column 19"),
        ("resources:\n  Vpc: {exclude: true}\n  Vpc: {exclude: true}\n", "line 3"),
        ("resources: !!python/object:os.system {}\n", "line 1, column 12"),
    ],
    ids=["malformed", "duplicate-key", "python-tag"],
)
def test_bad_yaml_names_file_and_line(tmp_path: Path, text: str, where: str) -> None:
    err = failure(tmp_path, text)
    assert err.file == FILE
    assert "malformed YAML" in err.reason and where in err.reason


def test_a_bad_overlay_leaves_the_draft_untouched(tmp_path: Path) -> None:
    draft = tiny_draft()
    before = copy.deepcopy(draft)
    path = write(
        tmp_path, "resources: {Address: {rename: ElasticIp}, Vpc: {fields: {Nope: {required: true}}}}"
    )
    with pytest.raises(TasklayerError):
        apply_overlay(draft, load_overlay(path, tmp_path), OPS)
    assert draft == before


# --- applying -----------------------------------------------------------------------------------


def test_field_values_and_provenance(tmp_path: Path) -> None:
    draft = applied(
        tmp_path,
        """
        resources:
          Vpc:
            fields:
              EnableDnsHostnames: {mutability: mutable, update_operation: ModifyVpcAttribute, read_operation: DescribeVpcAttribute}
              CidrBlock: {required: true, sensitive: true, unordered: true, read_name: Cidr}
        """,
    )
    vpc = draft.resources["Vpc"].freeze()
    dns, cidr = vpc.field("EnableDnsHostnames"), vpc.field("CidrBlock")
    assert (dns.mutability, dns.update_operation, dns.read_operation) == (
        Mutability.MUTABLE,
        "ModifyVpcAttribute",
        "DescribeVpcAttribute",
    )
    key = "resources.Vpc.fields.EnableDnsHostnames"
    assert dns.provenance["update_operation"] == src(f"{key}.update_operation")
    assert (cidr.required, cidr.sensitive, cidr.unordered, cidr.read_name) == (True, True, True, "Cidr")
    assert cidr.mutability is Mutability.CREATE_ONLY and cidr.provenance["mutability"] == RULE
    assert cidr.provenance["read_name"] == src("resources.Vpc.fields.CidrBlock.read_name")
    assert [(op.name, op.fields) for op in vpc.operations.update] == [
        ("ModifyVpcAttribute", ("EnableDnsHostnames",))
    ]
    assert vpc.operations.update[0].identity_members == ("VpcId",)


def test_mutable_keeps_the_rules_update_operation(tmp_path: Path) -> None:
    draft = applied(tmp_path, "resources: {Subnet: {fields: {MapPublicIp: {mutability: mutable, required: true}}}}")
    subnet = draft.resources["Subnet"]
    assert subnet.fields["MapPublicIp"].get("update_operation") == "ModifySubnetAttribute"
    assert [op.fields for op in subnet.update] == [("MapPublicIp",)]


def test_null_clears_a_rule_value(tmp_path: Path) -> None:
    draft = applied(tmp_path, "resources: {Subnet: {fields: {VpcId: {references: null}}}}")
    f = draft.resources["Subnet"].fields["VpcId"]
    assert f.get("references") is None
    assert f.provenance["references"] == src("resources.Subnet.fields.VpcId.references")


def test_making_a_field_create_only_takes_it_out_of_its_update_call(tmp_path: Path) -> None:
    draft = applied(tmp_path, "resources: {Subnet: {fields: {MapPublicIp: {mutability: create_only}}}}")
    subnet = draft.resources["Subnet"]
    assert subnet.fields["MapPublicIp"].get("update_operation") is None
    assert subnet.fields["MapPublicIp"].provenance["update_operation"] == src(
        "resources.Subnet.fields.MapPublicIp.mutability"
    )
    assert subnet.update == []


def test_rename_keeps_api_name_and_moves_references(tmp_path: Path) -> None:
    draft = applied(tmp_path, "resources: {Vpc: {rename: Network}}")
    assert "Vpc" not in draft.resources
    network = draft.resources["Network"]
    assert (network.name, network.api_name) == ("Network", "Vpc")
    assert network.provenance["name"] == src("resources.Vpc.rename")
    for owner in ("Subnet", "SecurityGroup"):
        f = draft.resources[owner].fields["VpcId"]
        assert f.get("references") == "Network"
        assert f.provenance["references"] == src("resources.Vpc.rename")
    assert draft.freeze().resource("Network").api_name == "Vpc"


def test_swapped_renames_do_not_chain(tmp_path: Path) -> None:
    draft = applied(tmp_path, "resources: {Vpc: {rename: Subnet}, Subnet: {rename: Vpc}}")
    assert draft.resources["Subnet"].api_name == "Vpc"
    assert draft.resources["Address"].fields["SubnetId"].get("references") == "Vpc"
    assert draft.resources["SecurityGroup"].fields["VpcId"].get("references") == "Subnet"


def test_exclude_removes_the_resource_and_references_to_it(tmp_path: Path) -> None:
    draft = applied(tmp_path, "resources: {Vpc: {exclude: true}}")
    assert "Vpc" not in draft.resources
    f = draft.resources["Subnet"].fields["VpcId"]
    assert f.get("references") is None and f.provenance["references"] == src("resources.Vpc.exclude")


def test_include_keeps_only_listed_final_names(tmp_path: Path) -> None:
    draft = applied(
        tmp_path, "resources: {Vpc: {rename: Network}}\ninclude: [Network, Address]\ngenerate: [Network]"
    )
    assert sorted(draft.resources) == ["Address", "Network"]
    f = draft.resources["Address"].fields["SubnetId"]
    assert f.get("references") is None and f.provenance["references"] == src("include")


def test_identity_replaces_the_rules_value(tmp_path: Path) -> None:
    draft = applied(
        tmp_path,
        "resources: {SecurityGroup: {identity: {parent: [VpcId], natural: [GroupName, VpcId], arn: null}}}",
    )
    identity = draft.resources["SecurityGroup"].freeze().identity
    assert (identity.parent, identity.natural, identity.arn) == (("VpcId",), ("GroupName", "VpcId"), None)
    assert identity.provenance["parent"] == src("resources.SecurityGroup.identity.parent")


def aws_draft() -> ServiceDraft:
    """The tiny draft with AWS's variants: tag calls and fields with AWS's own facts."""
    draft = tiny_draft()
    draft.tag_shape, draft.field_shape = AwsTagShape, AwsFieldShape
    return draft


def test_tags_correct_the_model_and_the_tag_calls(tmp_path: Path) -> None:
    text = "resources: {Vpc: {tags: {resource_type: vpc, tag_operation: TagResource}}}"
    draft = apply_overlay(aws_draft(), load_overlay(write(tmp_path, text), tmp_path), OPS)
    vpc = draft.resources["Vpc"]
    assert vpc.tags == TagsModel(
        "Tags",
        create_member="TagSpecifications",
        tag_operation="TagResource",
        call=AwsTagShape(resource_type="vpc"),
        source=src("resources.Vpc.tags"),
    )
    assert vpc.tag is not None and vpc.tag.name == "TagResource"
    assert vpc.provenance["tags"] == src("resources.Vpc.tags")


def test_tag_call_facts_go_to_the_providers_variant(tmp_path: Path) -> None:
    """payload_member / selector_extra are AWS tag-call facts: the overlay sets them in the
    provider's variant (TagsModel.call); a provider without them refuses the key by name."""
    draft = tiny_draft()
    draft.tag_shape = AwsTagShape
    text = "resources: {Vpc: {tags: {payload_member: AddTags, selector_extra: [[ResourceType, vpc]], read_operation: TagResource}}}"
    tags = apply_overlay(draft, load_overlay(write(tmp_path, text), tmp_path), OPS).resources["Vpc"].tags
    assert tags is not None and tags.read_operation == "TagResource"
    assert (aws_tags(tags).payload_member, aws_tags(tags).selector_extra) == ("AddTags", (("ResourceType", "vpc"),))
    err = failure(tmp_path, "resources: {Vpc: {tags: {payload_member: AddTags}}}")  # tiny_draft: no tag facts
    assert err.pointer == "resources.Vpc.tags.payload_member" and "not a fact of this provider's tag calls" in err.reason


def test_field_call_facts_go_to_the_providers_variant(tmp_path: Path) -> None:
    """value_wrapper / read_attribute are AWS field facts: the overlay sets them in the field's
    variant (Field.call), with provenance under their own names; GCP's (update_param) and a
    provider's without any are refused by name."""
    text = (
        "resources: {Vpc: {fields: {EnableDnsHostnames: {value_wrapper: Value, read_attribute: enableDnsHostnames,"
        " read_operation: DescribeVpcAttribute}}}}"
    )
    draft = apply_overlay(aws_draft(), load_overlay(write(tmp_path, text), tmp_path), OPS)
    f = draft.resources["Vpc"].freeze().field("EnableDnsHostnames")
    assert f.call == AwsFieldShape(value_wrapper="Value", read_attribute="enableDnsHostnames")
    assert f.read_operation == "DescribeVpcAttribute"  # a neutral fact stays on the field
    key = "resources.Vpc.fields.EnableDnsHostnames"
    assert (f.provenance["value_wrapper"], f.provenance["read_attribute"]) == (
        src(f"{key}.value_wrapper"), src(f"{key}.read_attribute"))
    gcp_key = "resources: {Vpc: {fields: {EnableDnsHostnames: {update_param: true}}}}"
    draft = aws_draft()
    with pytest.raises(TasklayerError) as info:
        apply_overlay(draft, load_overlay(write(tmp_path, gcp_key), tmp_path), OPS)
    assert info.value.pointer == f"{key}.update_param"
    assert "update_param is not a fact of this provider's fields" in info.value.reason
    assert draft == aws_draft()  # refused before anything changed
    err = failure(tmp_path, "resources: {Vpc: {fields: {EnableDnsHostnames: {value_wrapper: Value}}}}")
    assert err.pointer == f"{key}.value_wrapper" and "not a fact of this provider's fields" in err.reason


def test_added_field(tmp_path: Path) -> None:
    text = "resources: {Vpc: {fields: {EnableDnsSupport: {add: true, type: boolean, mutability: mutable, update_operation: ModifyVpcAttribute}}}}"
    f = applied(tmp_path, text).resources["Vpc"].freeze().field("EnableDnsSupport")
    assert (f.type.kind, f.mutability, f.update_operation) == (
        "boolean",
        Mutability.MUTABLE,
        "ModifyVpcAttribute",
    )
    assert f.provenance["name"] == src("resources.Vpc.fields.EnableDnsSupport.add")


def test_generate_is_exposed(tmp_path: Path) -> None:
    overlay = load_overlay(write(tmp_path, "generate: [Vpc, Subnet]"), tmp_path)
    assert overlay.generate == ("Vpc", "Subnet") and overlay.include is None


def test_empty_overlay_changes_nothing(tmp_path: Path) -> None:
    assert applied(tmp_path, "# nothing to correct yet\n") == tiny_draft()


def test_find_overlay(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    assert find_overlay(schemas, "aws", "tiny") is None
    write(tmp_path, "generate: [Vpc]")
    overlay = find_overlay(schemas, "aws", "tiny")
    assert overlay is not None and overlay.file == FILE and overlay.generate == ("Vpc",)


def test_find_overlay_refuses_yml(tmp_path: Path) -> None:
    write(tmp_path, "generate: [Vpc]", name="other.yml")
    with pytest.raises(TasklayerError, match=r"\.yaml, not \.yml"):
        find_overlay(tmp_path / "schemas", "aws", "other")


def test_overlay_keys_follow_the_model() -> None:
    """A new annotated attribute or tags setting must become settable by overlays too."""
    # the neutral field facts (a provider's own are its Field.call variant's, read from it)
    assert set(FIELD_VALUES) == set(FIELD_DEFAULTS)
    # the neutral tags model's, and every provider's own tag-call facts (TagsModel.call)
    variants = {f.name for p in PROVIDERS.values() for f in dataclasses.fields(p.tag_shape)}
    assert set(TAGS_KEYS) == {f.name for f in dataclasses.fields(TagsModel)} - {"source", "call"} | variants


# --- the real thing -----------------------------------------------------------------------------


def test_smoke_on_real_ec2_draft(tmp_path: Path) -> None:
    """Built from whatever the rules decide today, so it holds while they are tuned."""
    botocore_session = pytest.importorskip("botocore.session")
    from codegen.providers.aws.rules.run import annotate_model

    model = botocore_session.get_session().get_service_model("ec2")
    ctx, draft = annotate_model(model, service="ec2", api_version=model.api_version)
    refs = [
        (r.name, f.name, f.get("references")) for r in draft.resources.values() for f in r.fields.values()
    ]
    target = next((ref for _, _, ref in refs if ref in draft.resources), sorted(draft.resources)[0])
    owner = next(name for name in sorted(draft.resources) if name != target and draft.resources[name].fields)
    field = next(iter(draft.resources[owner].fields))
    text = f"resources:\n  {target}: {{rename: Renamed{target}}}\n  {owner}:\n    fields:\n      {field}: {{sensitive: true}}\n"
    path = write(tmp_path, text, name="ec2.yaml")
    service = apply_overlay(draft, load_overlay(path, tmp_path), ctx.model.operation_names).freeze()
    assert service.resource(f"Renamed{target}").api_name == target
    assert service.resource(owner).field(field).sensitive
    assert not any(f.references == target for r in service.resources for f in r.fields)
