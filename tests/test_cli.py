"""The tasklayer command as a user runs it: the dump's format, the corpus run, bad input."""

from __future__ import annotations

import importlib.metadata
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
    line, coverage = out.strip().splitlines()[-2:]
    services = int(line.split()[0])
    assert services > 300 and "resources" in line and "unknown (" in line
    assert coverage.startswith("aws: ") and "complete (identity, create, read, delete)" in coverage


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


# --- gcp -------------------------------------------------------------------------------------


def test_gcp_dump_has_design_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--provider", "gcp", "--service", "compute", "--json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["provider"], doc["service"], doc["api_version"]) == ("gcp", "compute", "v1")
    network = next(r for r in doc["resources"] if r["name"] == "Network")
    assert set(network) == {"name", "operations", "identity", "fields"}
    assert network["operations"]["update"] == ["compute.networks.patch"]
    assert network["identity"] == {"primary": ["name"], "arn": "selfLink", "natural": ["name"], "parent": ["project"]}
    routing = next(f for f in network["fields"] if f["name"] == "routingConfig")
    assert set(routing) == FIELD_KEYS
    assert (routing["mutability"], routing["update_operation"]) == ("mutable", "compute.networks.patch")


def test_gcp_human_view_covers_every_pinned_api(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--provider", "gcp")
    assert code == 0
    assert "gcp/compute v1" in out and "gcp/iam v1" in out and "gcp/storage v1" in out
    assert "ServiceAccount  (primary name; natural accountId; parent project; arn name)" in out


def test_gcp_all_runs_over_every_installed_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "annotations", "--provider", "gcp", "--all")
    assert code == 0
    line, coverage = out.strip().splitlines()[-2:]
    assert int(line.split()[0]) > 500 and "discovery documents" in line and "unknown (" in line
    assert coverage.startswith("gcp: ") and "generated" in coverage


def test_gcp_all_json_picks_documents(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "annotations", "--provider", "gcp", "--all", "--json", "--service", "iam.v1",
                       "--service", "dns")
    docs = json.loads(out)
    assert [(d["service"], d["api_version"]) for d in docs] == [("iam", "v1"), ("dns", "v1"), ("dns", "v1beta2"),
                                                                 ("dns", "v2")]


def test_gcp_pin_writes_document_and_manifest(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "--schemas", str(tmp_path), "schemas", "pin", "gcp", "storage")
    assert code == 0
    version = importlib.metadata.version("google-api-python-client")
    assert out.splitlines()[0] == f"new        gcp/storage/discovery.json (v1 from google-api-python-client {version})"
    assert (tmp_path / "gcp/storage/v1/discovery.json").is_file() and (tmp_path / "manifest.json").is_file()
    code, out, _ = run(capsys, "--schemas", str(tmp_path), "schemas", "pin", "gcp", "storage", "-v")
    assert out.splitlines()[0].startswith("unchanged  gcp/storage/discovery.json")


@pytest.fixture
def pinned_botocore(schemas_copy: Path, tmp_path: Path) -> tuple[Path, str]:
    """A botocore tree (``--from``) holding exactly the pinned AWS models, and its version: what
    the pins were made from, so the pin tests do not depend on the botocore installed here."""
    manifest = json.loads((schemas_copy / "manifest.json").read_text())["aws"]
    package = tmp_path / "sdk" / "botocore"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text(f"__version__ = {manifest['botocore_version']!r}\n")
    (package / "data" / "endpoints.json").write_text('{"partitions": [], "version": 3}')
    for service, _entry in manifest["services"].items():
        shutil.copytree(schemas_copy / "aws" / service, package / "data" / service)
    return package, manifest["botocore_version"]


def test_pin_reports_each_file_unchanged_or_updated_from_to(
    capsys: pytest.CaptureFixture[str], schemas_copy: Path, pinned_botocore: tuple[Path, str]
) -> None:
    sdk, version = pinned_botocore
    manifest = json.loads((schemas_copy / "manifest.json").read_text())
    manifest["aws"]["services"]["ec2"]["botocore_version"] = "1.40.0"
    manifest["aws"]["services"]["ec2"]["files"]["service-2.json"] = "0" * 64  # as if pinned from other bytes
    (schemas_copy / "manifest.json").write_text(json.dumps(manifest))
    code, out, _ = run(capsys, "--schemas", str(schemas_copy), "schemas", "pin", "aws", "ec2", "iam", "-v", "--from", str(sdk))
    assert code == 0
    lines = out.splitlines()
    assert f"updated    aws/ec2/service-2.json (2016-11-15 from botocore 1.40.0 -> 2016-11-15 from botocore {version})" in lines
    assert f"unchanged  aws/iam/service-2.json (2010-05-08 from botocore {version})" in lines
    assert lines[-1].startswith("1 updated, 6 unchanged")


def test_pin_check_writes_nothing_and_says_which_pins_differ(
    capsys: pytest.CaptureFixture[str], schemas_copy: Path, pinned_botocore: tuple[Path, str]
) -> None:
    sdk, version = pinned_botocore
    code, out, _ = run(capsys, "--schemas", str(schemas_copy), "schemas", "pin", "aws", "--check", "--from", str(sdk))
    assert code == 0 and out.strip().endswith("aws pins match the SDK")
    manifest = json.loads((schemas_copy / "manifest.json").read_text())
    manifest["aws"]["services"]["route53"]["botocore_version"] = "1.30.0"
    manifest["aws"]["services"]["route53"]["files"]["service-2.json"] = "0" * 64
    (schemas_copy / "manifest.json").write_text(json.dumps(manifest))
    before = (schemas_copy / "manifest.json").read_bytes()
    code, out, _ = run(capsys, "--schemas", str(schemas_copy), "schemas", "pin", "aws", "--check", "--from", str(sdk))
    assert code == 1
    assert f"newer     aws/route53: pinned 2013-04-01 from botocore 1.30.0, SDK has 2013-04-01 in botocore {version}" in out
    assert (schemas_copy / "manifest.json").read_bytes() == before


def test_gcp_pin_unknown_api_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "--schemas", str(tmp_path), "schemas", "pin", "gcp", "compute.v9")
    assert code == 2 and "compute.v9" in err and "Traceback" not in err


def _repin(schemas: Path, api: str, text: str) -> Path:
    """Write a changed document and record its sha256, as if it had been pinned like that."""
    import hashlib

    path = schemas / "gcp" / api / "v1" / "discovery.json"
    path.write_text(text)
    manifest = json.loads((schemas / "manifest.json").read_text())
    manifest["gcp"]["services"][api]["files"]["discovery.json"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (schemas / "manifest.json").write_text(json.dumps(manifest))
    return path


def test_gcp_truncated_document_is_exit_2_naming_file(capsys: pytest.CaptureFixture[str], schemas_copy: Path) -> None:
    path = schemas_copy / "gcp" / "dns" / "v1" / "discovery.json"
    _repin(schemas_copy, "dns", path.read_text()[:5000])
    code, out, err = run(capsys, "--schemas", str(schemas_copy), "annotations", "--provider", "gcp", "--service", "dns")
    assert code == 2 and out == ""
    assert "dns/v1/discovery.json" in err and "invalid JSON" in err and "Traceback" not in err


def test_gcp_dangling_ref_is_exit_2_with_pointer(capsys: pytest.CaptureFixture[str], schemas_copy: Path) -> None:
    path = schemas_copy / "gcp" / "dns" / "v1" / "discovery.json"
    doc = json.loads(path.read_text())
    doc["resources"]["managedZones"]["methods"]["get"]["response"] = {"$ref": "NoSuchZone"}
    _repin(schemas_copy, "dns", json.dumps(doc))
    code, _, err = run(capsys, "--schemas", str(schemas_copy), "annotations", "--provider", "gcp", "--service", "dns")
    assert code == 2
    assert "/resources/managedZones/methods/get/response/$ref" in err and "NoSuchZone" in err


def test_gcp_edited_document_is_exit_2(capsys: pytest.CaptureFixture[str], schemas_copy: Path) -> None:
    path = schemas_copy / "gcp" / "iam" / "v1" / "discovery.json"
    path.write_text(path.read_text().replace("Creates a ServiceAccount.", "Makes a ServiceAccount."))
    code, _, err = run(capsys, "--schemas", str(schemas_copy), "annotations", "--provider", "gcp", "--service", "iam")
    assert code == 2 and "sha256" in err and "tasklayer schemas pin gcp iam" in err
