"""Pinning discovery documents, loading them back, and the errors bad documents produce."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from googleapiclient import discovery_cache

from codegen.errors import TasklayerError
from codegen.providers.gcp.source import (
    googleapiclient_version,
    installed_documents,
    load_installed,
    load_pinned,
    pin,
    pinned_services,
)
from codegen.sources.manifest import read_manifest

REPO_SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
INSTALLED = Path(discovery_cache.DISCOVERY_DOC_DIR)

# A tiny but complete discovery document: one collection, inline and named schemas.
TINY: dict[str, Any] = {
    "kind": "discovery#restDescription",
    "name": "tiny",
    "version": "v1",
    "revision": "20240101",
    "schemas": {
        "Thing": {
            "id": "Thing",
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "parts": {"type": "array", "items": {"$ref": "Part"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            },
        },
        "Part": {"id": "Part", "type": "object", "properties": {"size": {"type": "integer"}}},
    },
    "resources": {
        "things": {
            "methods": {
                "get": {
                    "id": "tiny.things.get",
                    "path": "projects/{project}/things/{thing}",
                    "httpMethod": "GET",
                    "parameters": {
                        "project": {"type": "string", "location": "path", "required": True},
                        "thing": {"type": "string", "location": "path", "required": True},
                    },
                    "parameterOrder": ["project", "thing"],
                    "response": {"$ref": "Thing"},
                }
            }
        }
    },
}


def write_pinned(schemas: Path, doc: Any, raw: bytes | None = None) -> Path:
    """Write a pinned ``tiny`` document and a manifest that matches its bytes."""
    payload = raw if raw is not None else json.dumps(doc).encode()
    folder = schemas / "gcp" / "tiny" / "v1"
    folder.mkdir(parents=True)
    (folder / "discovery.json").write_bytes(payload)
    entry = {
        "api_version": "v1",
        "revision": "20240101",
        "files": {"discovery.json": hashlib.sha256(payload).hexdigest()},
    }
    manifest = {"gcp": {"services": {"tiny": entry}}}
    (schemas / "manifest.json").write_text(json.dumps(manifest))
    return folder / "discovery.json"


def error_from(fn: Callable[[], Any]) -> TasklayerError:
    with pytest.raises(TasklayerError) as info:
        fn()
    return info.value


# --- pinning ---------------------------------------------------------------------------------


def test_pin_copies_the_installed_document_and_records_it(tmp_path: Path) -> None:
    written = pin(["storage"], tmp_path)
    doc_path = tmp_path / "gcp" / "storage" / "v1" / "discovery.json"
    assert written == [doc_path, tmp_path / "manifest.json"]
    assert doc_path.read_bytes() == (INSTALLED / "storage.v1.json").read_bytes()
    entry = read_manifest(tmp_path)["gcp"]["services"]["storage"]
    assert entry["api_version"] == "v1"
    assert entry["revision"] == json.loads(doc_path.read_bytes())["revision"]
    assert entry["googleapiclient_version"] == googleapiclient_version()
    assert entry["files"] == {"discovery.json": hashlib.sha256(doc_path.read_bytes()).hexdigest()}
    assert read_manifest(tmp_path)["gcp"]["googleapiclient_version"] == googleapiclient_version()


def test_pin_takes_googles_preferred_version_unless_told(tmp_path: Path) -> None:
    pin(["dns"], tmp_path)  # dns ships v1, v1beta2 and v2; Google's directory prefers v1
    assert read_manifest(tmp_path)["gcp"]["services"]["dns"]["api_version"] == "v1"
    pin(["dns:v2"], tmp_path)
    assert read_manifest(tmp_path)["gcp"]["services"]["dns"]["api_version"] == "v2"
    assert not (tmp_path / "gcp" / "dns" / "v1").exists()  # a re-pin replaces the old version


def test_pin_keeps_the_aws_section(tmp_path: Path) -> None:
    aws = {"aws": {"botocore_version": "1.0", "services": {}}}
    (tmp_path / "manifest.json").write_text(json.dumps(aws))
    pin(["storage.v1"], tmp_path)
    assert read_manifest(tmp_path)["aws"] == aws["aws"]


def test_pin_unknown_api_suggests_names(tmp_path: Path) -> None:
    err = error_from(lambda: pin(["computee"], tmp_path))
    assert "computee" in err.reason and any("compute" in n for n in err.notes)
    assert not (tmp_path / "manifest.json").exists()


def test_repo_pins_are_the_four_apis_and_load() -> None:
    assert pinned_services(REPO_SCHEMAS) == ["compute", "container", "dns", "iam", "storage"]
    for api in pinned_services(REPO_SCHEMAS):
        source = load_pinned(REPO_SCHEMAS, api)
        assert (source.api, source.version) == (api, "v1")
        assert source.revision and source.files[0].name == "discovery.json"


def test_installed_documents_all_pass_the_checks() -> None:
    stems = installed_documents()
    assert "compute.v1" in stems and "index" not in stems and len(stems) > 300
    for stem in ("compute.alpha", "iam.v1", "admin.directoryv1"):
        assert load_installed(stem).document["kind"] == "discovery#restDescription"


# --- loading what is pinned ------------------------------------------------------------------


def test_load_round_trip(tmp_path: Path) -> None:
    write_pinned(tmp_path, TINY)
    source = load_pinned(tmp_path, "tiny")
    assert (source.api, source.version, source.revision) == ("tiny", "v1", "20240101")
    assert source.document["resources"]["things"]["methods"]["get"]["id"] == "tiny.things.get"


def test_edited_file_fails_the_sha256_check(tmp_path: Path) -> None:
    path = write_pinned(tmp_path, TINY)
    path.write_bytes(path.read_bytes().replace(b"20240101", b"20240102"))
    err = error_from(lambda: load_pinned(tmp_path, "tiny"))
    assert err.file == path and "sha256" in err.reason
    assert "tasklayer schemas pin gcp tiny" in " ".join(err.notes)


def test_not_pinned_names_the_manifest(tmp_path: Path) -> None:
    write_pinned(tmp_path, TINY)
    err = error_from(lambda: load_pinned(tmp_path, "compute"))
    assert str(err.file).endswith("manifest.json") and "not pinned" in err.reason


def test_missing_document_is_named(tmp_path: Path) -> None:
    path = write_pinned(tmp_path, TINY)
    path.unlink()
    assert error_from(lambda: load_pinned(tmp_path, "tiny")).file == path


def test_bad_revision_in_manifest_is_named(tmp_path: Path) -> None:
    write_pinned(tmp_path, TINY)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["gcp"]["services"]["tiny"]["revision"] = 20240101
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    err = error_from(lambda: load_pinned(tmp_path, "tiny"))
    assert err.pointer == "/gcp/services/tiny/revision"


# --- bad documents ---------------------------------------------------------------------------


def test_truncated_document(tmp_path: Path) -> None:
    path = write_pinned(tmp_path, None, raw=json.dumps(TINY).encode()[:200])
    err = error_from(lambda: load_pinned(tmp_path, "tiny"))
    assert err.file == path and err.reason.startswith("invalid JSON")


def broken(edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    doc = copy.deepcopy(TINY)
    edit(doc)
    return doc


GET = ("resources", "things", "methods", "get")


def _at(doc: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    for key in path:
        doc = doc[key]
    return doc


BAD_DOCUMENTS = [
    pytest.param(
        lambda d: d["schemas"]["Thing"]["properties"]["parts"]["items"].update({"$ref": "Nope"}),
        "/schemas/Thing/properties/parts/items/$ref",
        "undefined schema 'Nope'",
        id="dangling-ref-in-schema",
    ),
    pytest.param(
        lambda d: _at(d, GET).update(response={"$ref": "Gone"}),
        "/resources/things/methods/get/response/$ref",
        "undefined schema 'Gone'",
        id="dangling-ref-in-method",
    ),
    pytest.param(
        lambda d: _at(d, GET).pop("path"),
        "/resources/things/methods/get/path",
        "missing required key 'path'",
        id="method-without-path",
    ),
    pytest.param(
        lambda d: _at(d, GET)["parameterOrder"].append("zone"),
        "/resources/things/methods/get/parameterOrder/2",
        "undefined parameter 'zone'",
        id="parameter-order-names-nothing",
    ),
    pytest.param(
        lambda d: _at(d, GET)["parameters"]["thing"].update(location="body"),
        "/resources/things/methods/get/parameters/thing/location",
        "unknown parameter location 'body'",
        id="bad-parameter-location",
    ),
    pytest.param(
        lambda d: d.update(schemas=[]), "/schemas", "expected an object, got an array", id="schemas-not-object"
    ),
    pytest.param(lambda d: d.pop("revision"), "/revision", "missing required key", id="no-revision"),
    pytest.param(
        lambda d: d.update(kind="discovery#directoryList"), "/kind", "not a discovery document", id="wrong-kind"
    ),
    pytest.param(
        lambda d: d["resources"]["things"].update(resources={"parts": []}),
        "/resources/things/resources/parts",
        "expected an object",
        id="nested-resource-not-object",
    ),
]


@pytest.mark.parametrize("edit, pointer, reason", BAD_DOCUMENTS)
def test_bad_document_names_file_and_pointer(
    tmp_path: Path, edit: Callable[[dict[str, Any]], None], pointer: str, reason: str
) -> None:
    path = write_pinned(tmp_path, broken(edit))
    err = error_from(lambda: load_pinned(tmp_path, "tiny"))
    assert (err.file, err.pointer) == (path, pointer)
    assert reason in err.reason


def test_document_that_is_not_an_object(tmp_path: Path) -> None:
    write_pinned(tmp_path, ["not", "a", "document"])
    err = error_from(lambda: load_pinned(tmp_path, "tiny"))
    assert err.pointer == "" and "expected an object" in err.reason


def test_document_for_another_api_is_refused(tmp_path: Path) -> None:
    write_pinned(tmp_path, broken(lambda d: d.update(name="other")))
    err = error_from(lambda: load_pinned(tmp_path, "tiny"))
    assert err.pointer == "/name" and "other" in err.reason
