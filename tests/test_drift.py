"""The API drift report: each kind of change judged for someone who vendors the package, on
edits of the real annotated ec2 model, and on two real pins (botocore 1.43.11, as committed,
vs a newer botocore downloaded from PyPI into a temporary folder, never installed)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from codegen.cli import main
from codegen.drift import compare, markdown
from codegen.generate import annotated
from codegen.model import FieldType, Mutability, Service

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
RENDERED = frozenset({"Vpc", "Subnet"})


@pytest.fixture(scope="module")
def ec2() -> Service:
    return annotated(SCHEMAS, "aws", "ec2")


def edit_field(service: Service, resource: str, field: str, **changes: object) -> Service:
    r = service.resource(resource)
    fields = tuple(replace(f, **changes) if f.name == field else f for f in r.fields)
    return replace(service, resources=tuple(replace(x, fields=fields) if x.name == resource else x
                                            for x in service.resources))


def drift(old: Service, new: Service):  # type: ignore[no-untyped-def]
    return compare([(old, RENDERED)], [(new, RENDERED)], ({}, {}), "0.1.0")


def test_no_change_is_no_bump(ec2: Service) -> None:
    report = drift(ec2, ec2)
    assert report.changes == () and report.bump == "none" and report.next_version == "0.1.0"


@pytest.mark.parametrize(
    ("field", "changes", "kind", "level"),
    [
        ("CidrBlock", {"mutability": Mutability.MUTABLE, "update_operation": "ModifyVpcAttribute"}, "mutability", "minor"),
        ("InstanceTenancy", {"mutability": Mutability.CREATE_ONLY}, "mutability", "major"),
        ("CidrBlock", {"mutability": Mutability.READ_ONLY}, "mutability", "major"),
        ("CidrBlock", {"sensitive": True}, "sensitive", "patch"),
        ("CidrBlock", {"write_only": True}, "write-only", "patch"),
        ("CidrBlock", {"type": FieldType("integer")}, "type", "major"),
    ],
)
def test_field_changes_are_judged(ec2: Service, field: str, changes: dict, kind: str, level: str) -> None:
    report = drift(ec2, edit_field(ec2, "Vpc", field, **changes))
    assert [(c.resource, c.kind, c.level) for c in report.changes] == [("Vpc", kind, level)]


def test_enum_values_removed_break_and_added_do_not(ec2: Service) -> None:
    state = next(f for f in ec2.resource("Vpc").fields if f.name == "State")
    assert state.type.enum, "Vpc.State is an enum in botocore"
    fewer = edit_field(ec2, "Vpc", "State", type=replace(state.type, enum=state.type.enum[:-1]))
    assert [(c.kind, c.level) for c in drift(ec2, fewer).changes] == [("enum-values-removed", "major")]
    assert [(c.kind, c.level) for c in drift(fewer, ec2).changes] == [("enum-values-added", "minor")]


def test_removed_resource_and_identity_change_are_breaking_and_bump_0x_minor(ec2: Service) -> None:
    vpc = ec2.resource("Vpc")
    without_subnet = replace(ec2, resources=tuple(r for r in ec2.resources if r.name != "Subnet"))
    moved = replace(without_subnet, resources=tuple(
        replace(r, identity=replace(r.identity, natural=("CidrBlock",))) if r.name == "Vpc" else r
        for r in without_subnet.resources))
    report = drift(ec2, moved)
    kinds = {(c.resource, c.kind, c.level) for c in report.changes}
    assert kinds == {("Subnet", "resource-removed", "major"), ("Vpc", "identity", "major")}
    assert vpc.identity.natural != ("CidrBlock",)
    assert report.bump == "major" and report.next_version == "0.2.0" and report.to_json()["breaking"]
    assert "### Breaking" in markdown(report)


def test_changes_to_resources_not_rendered_never_bump(ec2: Service) -> None:
    report = drift(ec2, edit_field(ec2, "Instance", "ImageId", mutability=Mutability.READ_ONLY))
    assert len(report.changes) == 1 and not report.changes[0].rendered
    assert report.bump == "none" and "Not rendered" in markdown(report)


def test_drift_against_git_head_of_unchanged_pins_is_empty(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--schemas", str(SCHEMAS), "drift", "--json", "--service", "route53"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["changes"] == [] and report["suggested_bump"] == "none"


NEWER_BOTOCORE = "1.44.8"


@pytest.fixture(scope="module")
def newer_botocore(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """A newer botocore wheel from PyPI (a fixed version, so the expected drift stays true),
    unpacked (ec2 only) into a temporary folder; downloaded once into pytest's cache when it is on."""
    plugin = getattr(request.config, "cache", None)
    cache = Path(plugin.mkdir("newer-botocore")) if plugin is not None else tmp_path_factory.mktemp("wheel")
    if not list(cache.glob(f"botocore-{NEWER_BOTOCORE}-*.whl")):
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(cache),
                               f"botocore=={NEWER_BOTOCORE}"],
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            pytest.skip(f"cannot download botocore from PyPI: {done.stderr[-300:]}")
    wheel = max(cache.glob(f"botocore-{NEWER_BOTOCORE}-*.whl"))
    out = tmp_path_factory.mktemp("botocore")
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(out, [n for n in zf.namelist() if n in ("botocore/__init__.py", "botocore/data/endpoints.json")
                            or n.startswith("botocore/data/ec2/")])
    return out


def test_drift_between_two_real_botocore_pins(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                              newer_botocore: Path) -> None:
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, schemas)
    assert main(["--schemas", str(schemas), "schemas", "pin", "aws", "ec2", "--from", str(newer_botocore)]) == 0
    pinned = capsys.readouterr().out
    assert "updated    aws/ec2/service-2.json (2016-11-15 from botocore 1.43.11 -> 2016-11-15 from botocore" in pinned
    assert main(["--schemas", str(schemas), "drift", "--base", str(SCHEMAS), "--service", "ec2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    changes = {(c["resource"], c["kind"], c["detail"]) for c in report["changes"] if c["rendered"]}
    assert ("Vpc", "field-added", "read-only field `NetworkFirewallAssociations` added") in changes
    assert report["schemas"][0]["old"] == "2016-11-15 (botocore 1.43.11)"
    assert report["suggested_bump"] in ("minor", "major") and report["suggested_version"] != "0.1.0"
    assert main(["--schemas", str(schemas), "drift", "--base", str(SCHEMAS), "--service", "ec2"]) == 0
    assert "- aws/ec2 Vpc: read-only field `NetworkFirewallAssociations` added" in capsys.readouterr().out
