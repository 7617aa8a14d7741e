"""The tasklayer command as a user runs it: the dump's format, the corpus run, bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codegen.cli import main

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
FIELD_KEYS = {"name", "mutability", "write_only", "update_operation", "required", "sensitive",
              "server_default", "source"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_dump_has_design_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--provider", "aws", "--service", "ec2", "--json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["provider"], doc["service"], doc["api_version"]) == ("aws", "ec2", "2016-11-15")
    vpc = next(r for r in doc["resources"] if r["name"] == "Vpc")
    assert set(vpc) == {"name", "operations", "identity", "fields"}
    assert set(vpc["operations"]) == {"create", "read", "list", "update", "delete", "tag", "untag"}
    assert vpc["identity"] == {"primary": ["VpcId"], "arn": None, "natural": ["tag:Name"], "parent": []}
    cidr = next(f for f in vpc["fields"] if f["name"] == "CidrBlock")
    assert set(cidr) == FIELD_KEYS
    assert cidr["mutability"] == "create_only" and cidr["source"] == "rule:aws.create-input-without-update"


def test_detail_adds_provenance(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--service", "iam", "--json", "--detail")
    role = next(r for r in json.loads(out)["resources"] if r["name"] == "Role")
    doc = next(f for f in role["fields"] if f["name"] == "AssumeRolePolicyDocument")
    assert doc["update_name"] == "PolicyDocument"
    assert doc["provenance"]["update_operation"] == "rule:aws.update-by-identity-in-input"


def test_human_view_is_a_table_per_resource(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--service", "route53")
    assert code == 0
    assert "HostedZone  (primary Id; natural Name" in out
    assert "create_only" in out and "services" in out.splitlines()[-1]


def test_all_runs_over_the_installed_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "annotations", "--all")
    assert code == 0
    line = out.strip().splitlines()[-1]
    services = int(line.split()[0])
    assert services > 300 and "resources" in line and "unknown (" in line


def test_all_json_is_an_array(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "annotations", "--all", "--json", "--service", "sts", "--service", "ec2")
    docs = json.loads(out)
    assert [d["service"] for d in docs] == ["sts", "ec2"]


@pytest.fixture
def schemas_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, dest)
    return dest


def test_truncated_schema_is_exit_2_naming_file(capsys: pytest.CaptureFixture[str], schemas_copy: Path) -> None:
    path = next((schemas_copy / "aws" / "route53").glob("*/service-2.json"))
    path.write_text(path.read_text()[:5000])
    code, out, err = run(capsys, "--schemas", str(schemas_copy), "annotations", "--service", "route53")
    assert code == 2 and out == ""
    assert "service-2.json" in err and "Traceback" not in err


def test_bad_overlay_is_exit_2_naming_key(capsys: pytest.CaptureFixture[str], schemas_copy: Path) -> None:
    overlay = schemas_copy / "overlays" / "aws" / "route53.yaml"
    overlay.write_text("resources:\n  HostedZone:\n    fields:\n      Name: {mutabilty: mutable}\n")
    code, _, err = run(capsys, "--schemas", str(schemas_copy), "annotations", "--service", "route53")
    assert code == 2
    assert "route53.yaml" in err and "resources.HostedZone.fields.Name.mutabilty" in err


def test_unknown_service_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--service", "ec3")
    assert code == 2 and "ec3" in err
