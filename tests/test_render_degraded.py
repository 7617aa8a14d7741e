"""A class the runtime cannot honour is degraded with its reason as provenance (issue 21, item 4):
render/capability.py renders a mutable field whose update the runtime cannot perform as
create-only (or read-only), and says so where annotations are read: ``tasklayer annotations``
(JSON and table) and the generated metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen.cli import main
from codegen.model import DEGRADED, Field, FieldType, Mutability
from codegen.render.capability import REMOVE_MEMBER_RENAMED, as_performed, performed

ROOT = Path(__file__).resolve().parent.parent
METADATA = ROOT / "generated" / "tasklayer-generate-metadata.json"

# a NAT gateway's secondary addresses are added by AllocationIds but removed by AssociationIds:
# the runtime cannot make the removal, so the field is set at creation only
NAT = ("NatGateway", "SecondaryAllocationIds")


def _annotations(capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    args = ["--schemas", str(ROOT / "schemas"), "annotations", "--service", "ec2"]
    assert main([*args, "--resource", NAT[0], *extra]) == 0
    return capsys.readouterr().out


def test_the_json_dump_shows_the_degradation_and_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(_annotations(capsys, "--json"))
    (field,) = [f for f in doc["resources"][0]["fields"] if f["name"] == NAT[1]]
    assert field["mutability"] == "create_only"
    assert field["source"] == f"rule:{REMOVE_MEMBER_RENAMED}"
    reason = field["degraded"]
    assert reason.startswith("mutable -> create_only: ")
    assert "AssociationIds" in reason and "(was rule:aws.add-remove-pair-updates)" in reason


def test_the_table_shows_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    table = _annotations(capsys)
    row = next(line for line in table.splitlines() if line.split()[:1] == [NAT[1]])
    assert "degraded" in row and f"rule:{REMOVE_MEMBER_RENAMED}" in row
    assert f"  degraded {NAT[1]}: mutable -> create_only: " in table


def test_the_generated_metadata_lists_it_with_the_same_reason(capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(_annotations(capsys, "--json"))
    (field,) = [f for f in doc["resources"][0]["fields"] if f["name"] == NAT[1]]
    services = json.loads(METADATA.read_text())["services"]
    ec2 = next(s for s in services if s["provider"] == "aws" and s["service"] == "ec2")
    assert ec2["degraded"][".".join(NAT)] == field["degraded"]
    # only fields of rendered resources, each with a reason
    assert all(k.split(".")[0] in ec2["rendered"] and " -> " in v for k, v in ec2["degraded"].items())


def test_a_field_the_runtime_can_change_keeps_its_class_and_provenance() -> None:
    listed = FieldType("list", item=FieldType("string"))
    kept = Field("Roles", listed, mutability=Mutability.MUTABLE, update_operation="AddRole",
                 update_kind="add_remove", remove_operation="RemoveRole",
                 provenance={"mutability": "rule:x"})
    assert performed(kept) and as_performed(kept) is kept
    renamed = Field("Ids", listed, mutability=Mutability.MUTABLE, in_create=True, update_operation="Add",
                    update_kind="add_remove", remove_operation="Remove", remove_name="OtherIds",
                    provenance={"mutability": "rule:x"})
    degraded = as_performed(renamed)
    assert degraded.mutability is Mutability.CREATE_ONLY and degraded.update_operation is None
    assert degraded.provenance["mutability"] == f"rule:{REMOVE_MEMBER_RENAMED}"
    assert degraded.provenance[DEGRADED].endswith("(was rule:x)")
    assert DEGRADED not in renamed.provenance  # the model's own field is left as it was
