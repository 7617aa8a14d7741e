"""Loading pinned Azure Swagger 2.0 files back, and the errors a bad file or manifest produces:
each names the file and the JSON pointer (issue 26, item 1)."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen.errors import TasklayerError
from codegen.providers.azure.source import LICENCE, REPOSITORY, load_pinned, pinned_services
from codegen.sources.manifest import read_manifest

REPO_SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
FOLDER = "azure/network/2024-07-01"
ASG = "applicationSecurityGroup.json"
ASG_PATH = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/applicationSecurityGroups/{applicationSecurityGroupName}"


def _copy(tmp_path: Path) -> Path:
    """A schemas folder holding only the azure section and files."""
    schemas = tmp_path / "schemas"
    shutil.copytree(REPO_SCHEMAS / "azure", schemas / "azure")
    manifest = {"azure": read_manifest(REPO_SCHEMAS)["azure"]}
    (schemas / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return schemas


def _edit_manifest(schemas: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = schemas / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest["azure"])
    path.write_text(json.dumps(manifest))


def _edit_file(schemas: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change a pinned document and re-record its sha256, so the later checks are reached."""
    path = schemas / FOLDER / name
    doc = json.loads(path.read_bytes())
    change(doc)
    payload = json.dumps(doc, indent=2).encode()
    path.write_bytes(payload)
    _edit_manifest(
        schemas,
        lambda s: s["services"]["network"]["files"].__setitem__(
            name, hashlib.sha256(payload).hexdigest()
        ),
    )


def _error(schemas: Path) -> TasklayerError:
    with pytest.raises(TasklayerError) as caught:
        load_pinned(schemas, "network")
    return caught.value


def test_the_pinned_files_are_recorded_with_their_source_commit_and_licence() -> None:
    section = read_manifest(REPO_SCHEMAS)["azure"]
    assert (section["repository"], section["licence"]) == (REPOSITORY, LICENCE) == (
        "Azure/azure-rest-api-specs",
        "MIT",
    )
    assert sorted(section["services"]["network"]["files"]) == [ASG, "natGateway.json", "network.json"]
    for service, entry in section["services"].items():
        assert sorted(entry["files"]) == sorted(entry["sources"])
        for name, source in entry["sources"].items():
            assert source["path"].startswith("specification/") and source["path"].endswith("/" + name)
            assert len(source["commit"]) == 40
            pinned = (REPO_SCHEMAS / "azure" / service / entry["api_version"] / name).read_bytes()
            assert hashlib.sha256(pinned).hexdigest() == entry["files"][name]


def test_the_pinned_service_loads_validated_with_every_ref_resolved() -> None:
    assert pinned_services(REPO_SCHEMAS) == ["authorization", "disks", "network", "resources"]
    loaded = load_pinned(REPO_SCHEMAS, "network")
    assert loaded.api_version == "2024-07-01"
    # 30 $refs in the ASG file, 34 in the NAT gateway's, 11 inside network.json; the 12
    # x-ms-examples file references (87 $ref keys in all) are documentation, not followed
    assert loaded.specs.check_refs() == 30 + 34 + 11
    asg = next(d for p, d in loaded.specs.documents.items() if p.endswith(ASG))
    assert ASG_PATH in asg.data["paths"]


def test_a_changed_file_is_refused_by_its_sha256(tmp_path: Path) -> None:
    schemas = _copy(tmp_path)
    path = schemas / FOLDER / ASG
    path.write_bytes(path.read_bytes().replace(b"Deletes the", b"Removes the"))
    error = _error(schemas)
    assert "sha256 differs" in error.reason and error.file == path


def test_a_ref_to_an_unpinned_file_names_the_file_and_the_pointer(tmp_path: Path) -> None:
    schemas = _copy(tmp_path)

    def dangle(doc: dict[str, Any]) -> None:
        doc["definitions"]["ApplicationSecurityGroup"]["allOf"][0]["$ref"] = "./virtualNetwork.json#/definitions/Subnet"

    _edit_file(schemas, ASG, dangle)
    error = _error(schemas)
    assert error.file == schemas / FOLDER / ASG
    assert error.pointer == "/definitions/ApplicationSecurityGroup/allOf/0/$ref"
    assert "stable/2024-07-01/virtualNetwork.json, which is not pinned" in error.reason


def test_a_ref_to_nothing_in_a_pinned_file_names_the_pointer(tmp_path: Path) -> None:
    schemas = _copy(tmp_path)

    def dangle(doc: dict[str, Any]) -> None:
        doc["paths"][ASG_PATH]["get"]["parameters"][2]["$ref"] = "./network.json#/parameters/Nope"

    _edit_file(schemas, ASG, dangle)
    error = _error(schemas)
    assert error.pointer == "/paths/" + ASG_PATH.replace("/", "~1") + "/get/parameters/2/$ref"
    assert "has nothing at #/parameters/Nope" in error.reason


def test_the_swagger_validator_refuses_a_malformed_parameter_with_its_pointer(tmp_path: Path) -> None:
    schemas = _copy(tmp_path)
    _edit_file(schemas, "network.json", lambda d: d["parameters"]["ApiVersionParameter"].__setitem__("in", "header-ish"))
    error = _error(schemas)
    assert error.file == schemas / FOLDER / "network.json"
    assert error.pointer == "/parameters/ApiVersionParameter"
    assert error.reason.startswith("not valid Swagger 2.0")


def test_the_swagger_validator_refuses_a_wrong_type_deep_in_a_definition(tmp_path: Path) -> None:
    schemas = _copy(tmp_path)
    _edit_file(schemas, "network.json", lambda d: d["definitions"]["Resource"]["properties"]["tags"].__setitem__("type", 7))
    error = _error(schemas)
    assert error.pointer == "/definitions/Resource/properties/tags/type"


def test_a_duplicate_key_is_refused_by_strict_json(tmp_path: Path) -> None:
    schemas = _copy(tmp_path)
    path = schemas / FOLDER / ASG
    payload = path.read_bytes().replace(b'"swagger": "2.0",', b'"swagger": "2.0",\n  "swagger": "2.0",', 1)
    path.write_bytes(payload)
    _edit_manifest(schemas, lambda s: s["services"]["network"]["files"].__setitem__(ASG, hashlib.sha256(payload).hexdigest()))
    error = _error(schemas)
    assert "duplicate key 'swagger'" in error.reason and error.pointer == "/swagger"


def test_a_document_of_another_api_version_is_refused(tmp_path: Path) -> None:
    schemas = _copy(tmp_path)
    _edit_file(schemas, ASG, lambda d: d["info"].__setitem__("version", "2023-09-01"))
    error = _error(schemas)
    assert error.pointer == "/info/version" and "manifest says '2024-07-01'" in error.reason


def test_not_swagger_two_is_refused(tmp_path: Path) -> None:
    schemas = _copy(tmp_path)
    _edit_file(schemas, ASG, lambda d: d.__setitem__("swagger", "3.0"))
    assert _error(schemas).pointer == "/swagger"


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        (lambda s: s.__setitem__("licence", "Apache-2.0"), "/azure/licence"),
        (lambda s: s["services"]["network"]["sources"].pop(ASG), "/azure/services/network/sources"),
        (
            lambda s: s["services"]["network"]["sources"][ASG].__setitem__("commit", "main"),
            "/azure/services/network/sources/applicationSecurityGroup.json/commit",
        ),
        (
            lambda s: s["services"]["network"]["sources"][ASG].__setitem__("path", "../../etc/passwd.json"),
            "/azure/services/network/sources/applicationSecurityGroup.json/path",
        ),
        (
            lambda s: s["services"]["network"]["sources"][ASG].__setitem__(
                "path", "specification/network/resource-manager/Microsoft.Network/stable/2024-07-01/publicIpAddress.json"
            ),
            "/azure/services/network/sources/applicationSecurityGroup.json/path",
        ),
    ],
    ids=["licence", "missing-source", "commit", "path-escapes", "path-other-file"],
)
def test_a_bad_manifest_entry_names_its_pointer(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], pointer: str
) -> None:
    schemas = _copy(tmp_path)
    _edit_manifest(schemas, change)
    error = _error(schemas)
    assert error.file == schemas / "manifest.json" and error.pointer == pointer


def test_an_unpinned_service_says_what_is_pinned(tmp_path: Path) -> None:
    with pytest.raises(TasklayerError, match="'compute' is not pinned") as caught:
        load_pinned(_copy(tmp_path), "compute")
    assert caught.value.notes == ["pinned: authorization, disks, network, resources"]


def test_common_types_are_resolved_by_their_repository_path() -> None:
    """roleAssignments $refs ../../../../../common-types/resource-management/v2/types.json: the
    pinned copy sits beside it as types.json, and is found by the path it has in the repository."""
    loaded = load_pinned(REPO_SCHEMAS, "authorization")
    common = "specification/common-types/resource-management/v2/types.json"
    assert common in loaded.specs.documents
    calls = next(d for p, d in loaded.specs.documents.items() if p.endswith("RoleAssignmentsCalls.json"))
    node = loaded.specs.resolve(
        calls, "../../../../../common-types/resource-management/v2/types.json#/parameters/ApiVersionParameter", "/x"
    )
    assert node.document.repo_path == common and node.value["name"] == "api-version"
    assert loaded.specs.check_refs() > 40
