"""Pinning botocore models, loading them back, and the errors bad schema files produce."""

from __future__ import annotations

import copy
import gzip
import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import botocore
import pytest
from botocore.loaders import Loader
from botocore.model import ServiceModel

from codegen.errors import TasklayerError
from codegen.providers.aws.source import (
    installed_services,
    load_installed,
    load_pinned,
    pin,
    pinned_services,
)

REPO_SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
API_VERSION = "2020-01-01"

# A tiny but complete service-2 model: one operation, every kind of shape reference.
TINY_SERVICE: dict[str, Any] = {
    "version": "2.0",
    "metadata": {
        "apiVersion": API_VERSION,
        "endpointPrefix": "tiny",
        "protocol": "json",
        "serviceId": "Tiny",
        "signatureVersion": "v4",
    },
    "operations": {
        "CreateThing": {
            "name": "CreateThing",
            "http": {"method": "POST", "requestUri": "/"},
            "input": {"shape": "CreateThingRequest"},
            "output": {"shape": "Thing"},
            "errors": [{"shape": "Boom"}],
        }
    },
    "shapes": {
        "CreateThingRequest": {
            "type": "structure",
            "members": {"Name": {"shape": "String"}, "Tags": {"shape": "TagMap"}},
        },
        "Thing": {
            "type": "structure",
            "members": {"Id": {"shape": "String"}, "Ports": {"shape": "PortList"}},
        },
        "PortList": {"type": "list", "member": {"shape": "Port"}},
        "TagMap": {
            "type": "map",
            "key": {"shape": "String"},
            "value": {"shape": "String"},
        },
        "Port": {"type": "integer"},
        "String": {"type": "string"},
        "Boom": {"type": "structure", "members": {}, "exception": True},
    },
}


def write_pinned(schemas: Path, files: dict[str, bytes], service: str = "tiny") -> Path:
    """Write a pinned service and a manifest that matches it; returns the version folder."""
    folder = schemas / "aws" / service / API_VERSION
    folder.mkdir(parents=True)
    for name, payload in files.items():
        (folder / name).write_bytes(payload)
    digests = {
        name: hashlib.sha256(payload).hexdigest() for name, payload in files.items()
    }
    entry = {"api_version": API_VERSION, "files": digests}
    manifest = {"aws": {"services": {service: entry}}}
    (schemas / "manifest.json").write_text(json.dumps(manifest))
    return folder


def tiny_service(mutate: Callable[[dict[str, Any]], Any] = lambda model: None) -> bytes:
    model = copy.deepcopy(TINY_SERVICE)
    mutate(model)
    return json.dumps(model, indent=1).encode()


def installed_bytes(service: str, name: str) -> bytes:
    version = Loader().determine_latest_version(service, "service-2")
    folder = Path(Loader.BUILTIN_DATA_PATH) / service / version
    plain, packed = folder / f"{name}.json", folder / f"{name}.json.gz"
    return (
        plain.read_bytes() if plain.exists() else gzip.decompress(packed.read_bytes())
    )


def assert_error(
    error: pytest.ExceptionInfo[TasklayerError], file: Path, *parts: str
) -> None:
    text = str(error.value)
    assert str(file) in text, text
    for part in parts:
        assert part in text, text


# --- pin ---------------------------------------------------------------------------------


def test_pin_copies_decompressed_models_and_records_sha256(tmp_path: Path) -> None:
    written = pin(["sts"], tmp_path)

    version = Loader().determine_latest_version("sts", "service-2")
    folder = tmp_path / "aws" / "sts" / version
    assert written == [
        folder / "paginators-1.json",
        folder / "service-2.json",
        tmp_path / "manifest.json",
    ]
    assert (folder / "service-2.json").read_bytes() == installed_bytes(
        "sts", "service-2"
    )
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    entry = manifest["aws"]["services"]["sts"]
    assert manifest["aws"]["botocore_version"] == botocore.__version__
    assert entry["api_version"] == version
    assert entry["files"] == {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in written[:-1]
    }


def test_repin_is_deterministic_replaces_old_versions_and_keeps_other_providers(
    tmp_path: Path,
) -> None:
    (tmp_path / "manifest.json").write_text('{"gcp": {"services": {"compute": {}}}}\n')
    stale = tmp_path / "aws" / "sts" / "1999-01-01"
    stale.mkdir(parents=True)
    (stale / "service-2.json").write_text("{}")

    pin(["sts"], tmp_path)
    first = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    pin(["sts"], tmp_path)
    second = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}

    assert first == second
    assert not stale.exists()
    text = (tmp_path / "manifest.json").read_text()
    assert text.endswith("}\n") and json.loads(text)["gcp"] == {
        "services": {"compute": {}}
    }
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True) + "\n"


def test_pin_unknown_service_suggests_close_names_and_writes_nothing(
    tmp_path: Path,
) -> None:
    with pytest.raises(TasklayerError) as error:
        pin(["sts", "ec3"], tmp_path)
    assert "'ec3'" in str(error.value) and "ec2" in str(error.value)
    assert list(tmp_path.iterdir()) == []


# --- loading -----------------------------------------------------------------------------


def test_load_pinned_ec2_from_the_committed_schemas() -> None:
    source = load_pinned(REPO_SCHEMAS, "ec2")

    assert isinstance(source.model, ServiceModel)
    assert "CreateVpc" in source.model.operation_names
    assert source.api_version == "2016-11-15"
    assert "DescribeVpcs" in source.paginators
    assert source.waiters is not None and "VpcAvailable" in source.waiters.waiter_names
    assert all(REPO_SCHEMAS in f.parents for f in source.files)


def test_pinned_services_lists_the_committed_pins() -> None:
    assert pinned_services(REPO_SCHEMAS) == [
        "autoscaling", "dynamodb", "ec2", "ecr", "elbv2", "iam", "kms", "logs",
        "route53", "s3", "secretsmanager", "sns", "sqs", "ssm",
    ]


def test_pinned_services_without_manifest_says_how_to_pin(tmp_path: Path) -> None:
    with pytest.raises(TasklayerError) as error:
        pinned_services(tmp_path)
    assert_error(error, tmp_path / "manifest.json", "tasklayer schemas pin aws")


def test_load_pinned_tiny_fixture_is_valid(tmp_path: Path) -> None:
    # Proves the bad-input tests below fail for their one mutation, not a broken fixture.
    write_pinned(tmp_path, {"service-2.json": tiny_service()})
    source = load_pinned(tmp_path, "tiny")
    assert source.model.operation_names == ["CreateThing"]
    assert source.paginators == {} and source.waiters is None


def test_installed_service_that_is_not_pinned_is_an_error_not_a_fallback(
    tmp_path: Path,
) -> None:
    pin(["sts"], tmp_path)
    with pytest.raises(TasklayerError) as error:
        load_pinned(tmp_path, "iam")
    assert_error(error, tmp_path / "manifest.json", "'iam' is not pinned")


def test_files_on_disk_but_not_in_manifest_are_not_loaded(tmp_path: Path) -> None:
    pin(["sts"], tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["aws"]["services"]["sts"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(TasklayerError, match="'sts' is not pinned"):
        load_pinned(tmp_path, "sts")


def test_file_dropped_from_the_pin_is_not_taken_from_installed_botocore(
    tmp_path: Path,
) -> None:
    pin(["sts"], tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["aws"]["services"]["sts"]["files"]["paginators-1.json"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    (paginators,) = tmp_path.glob("aws/sts/*/paginators-1.json")
    paginators.unlink()

    source = load_pinned(tmp_path, "sts")

    assert source.paginators == {}
    assert [f.name for f in source.files] == ["service-2.json"]


def test_sha256_mismatch_names_the_file_and_how_to_repin(tmp_path: Path) -> None:
    pin(["sts"], tmp_path)
    (service_file,) = tmp_path.glob("aws/sts/*/service-2.json")
    service_file.write_bytes(service_file.read_bytes() + b" ")
    with pytest.raises(TasklayerError) as error:
        load_pinned(tmp_path, "sts")
    assert_error(error, service_file, "sha256", "tasklayer schemas pin aws sts")


def test_extra_file_missing_from_manifest_is_an_error(tmp_path: Path) -> None:
    folder = write_pinned(tmp_path, {"service-2.json": tiny_service()})
    (folder / "waiters-2.json").write_text('{"version": 2, "waiters": {}}')
    with pytest.raises(TasklayerError) as error:
        load_pinned(tmp_path, "tiny")
    assert_error(
        error, folder / "waiters-2.json", "not recorded in the schema manifest"
    )


def test_load_installed_reads_the_newest_installed_version() -> None:
    source = load_installed("sts")
    assert "AssumeRole" in source.model.operation_names
    assert source.api_version == Loader().determine_latest_version("sts", "service-2")
    assert "ec2" in installed_services() and "sts" in installed_services()


# --- bad input ---------------------------------------------------------------------------

GOOD = tiny_service()


@pytest.mark.parametrize(
    "payload, reason",
    [
        (
            GOOD.replace(b'"shapes"', b'"shapes" "oops"', 1),
            r"invalid JSON: Expecting ':' delimiter at line \d+ column \d+",
        ),
        (GOOD[: len(GOOD) // 2], r"invalid JSON: .+ at line \d+ column \d+"),
        (b"", r"invalid JSON: Expecting value at line 1 column 1"),
        (b"\xff{}", r"not UTF-8 text \(byte 0\)"),
    ],
    ids=["malformed", "truncated", "empty", "not-utf8"],
)
def test_undecodable_service_file(tmp_path: Path, payload: bytes, reason: str) -> None:
    folder = write_pinned(tmp_path, {"service-2.json": payload})
    with pytest.raises(TasklayerError) as error:
        load_pinned(tmp_path, "tiny")
    assert_error(error, folder / "service-2.json")
    assert re.search(reason, str(error.value)), str(error.value)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    *parents, last = path.split("/")

    def mutate(model: dict[str, Any]) -> None:
        for part in parents:
            model = model[part]
        if value is _DELETE:
            del model[last]
        else:
            model[last] = value

    return mutate


_DELETE = object()


@pytest.mark.parametrize(
    "mutate, pointer, reason",
    [
        (
            _set("shapes/Thing/members/Id/shape", "Nope"),
            "/shapes/Thing/members/Id/shape",
            "undefined shape 'Nope'",
        ),
        (
            _set("shapes/PortList/member/shape", "Nope"),
            "/shapes/PortList/member/shape",
            "undefined shape",
        ),
        (
            _set("shapes/TagMap/value/shape", "Nope"),
            "/shapes/TagMap/value/shape",
            "undefined shape",
        ),
        (
            _set("operations/CreateThing/input/shape", "Nope"),
            "/operations/CreateThing/input/shape",
            "undefined shape",
        ),
        (
            _set("operations/CreateThing/errors", [{"shape": "Nope"}]),
            "/operations/CreateThing/errors/0/shape",
            "undefined shape",
        ),
        (
            _set("shapes/Thing/members/Id", {}),
            "/shapes/Thing/members/Id/shape",
            "missing required key 'shape'",
        ),
        (
            _set("shapes/Port/type", _DELETE),
            "/shapes/Port/type",
            "missing required key 'type'",
        ),
        (
            _set("shapes/Port/type", "decimal"),
            "/shapes/Port/type",
            "unknown shape type 'decimal'",
        ),
        (_set("metadata", _DELETE), "/metadata", "missing required key 'metadata'"),
        (_set("operations", []), "/operations", "expected an object, got an array"),
        (
            lambda m: m["shapes"].update(
                {"a~b/c": {"type": "list", "member": {"shape": "x"}}}
            ),
            "/shapes/a~0b~1c/member/shape",
            "undefined shape 'x'",
        ),
    ],
    ids=[
        "member",
        "list-member",
        "map-value",
        "op-input",
        "op-error",
        "ref-without-shape",
        "missing-type",
        "unknown-type",
        "missing-metadata",
        "operations-not-object",
        "escaped-pointer",
    ],
)
def test_bad_service_model(
    tmp_path: Path, mutate: Callable[[dict[str, Any]], None], pointer: str, reason: str
) -> None:
    folder = write_pinned(tmp_path, {"service-2.json": tiny_service(mutate)})
    with pytest.raises(TasklayerError) as error:
        load_pinned(tmp_path, "tiny")
    assert error.value.pointer == pointer
    assert_error(error, folder / "service-2.json", f": {pointer}: ", reason)


@pytest.mark.parametrize(
    "name, payload, pointer, reason",
    [
        ("paginators-1.json", b'{"pagination": {', None, "invalid JSON"),
        (
            "paginators-1.json",
            b'{"pagination": {"Gone": {}}}',
            "/pagination/Gone",
            "unknown operation 'Gone'",
        ),
        ("waiters-2.json", b'{"version": 2, "waiters": [', None, "invalid JSON"),
        (
            "waiters-2.json",
            b'{"version": 1, "waiters": {}}',
            "/version",
            "unsupported waiter version 1",
        ),
        (
            "waiters-2.json",
            b'{"version": 2, "waiters": {"W": {"operation": "Gone"}}}',
            "/waiters/W/operation",
            "unknown operation 'Gone'",
        ),
    ],
)
def test_bad_paginators_and_waiters(
    tmp_path: Path, name: str, payload: bytes, pointer: str | None, reason: str
) -> None:
    folder = write_pinned(tmp_path, {"service-2.json": GOOD, name: payload})
    with pytest.raises(TasklayerError) as error:
        load_pinned(tmp_path, "tiny")
    assert error.value.pointer == pointer
    assert_error(error, folder / name, reason)


@pytest.mark.parametrize(
    "manifest, pointer, reason",
    [
        ('{"aws": {"services": [', None, "invalid JSON"),
        (
            '{"aws": {"services": {"tiny": {"api_version": "..", "files": {}}}}}',
            "/aws/services/tiny/api_version",
            "expected an api version",
        ),
        (
            '{"aws": {"services": {"tiny": {"api_version": "2020-01-01",'
            ' "files": {"service-2.json": "abc"}}}}}',
            "/aws/services/tiny/files/service-2.json",
            "expected a lowercase hex sha256",
        ),
    ],
    ids=["invalid-json", "path-escape", "bad-sha256"],
)
def test_bad_manifest(
    tmp_path: Path, manifest: str, pointer: str | None, reason: str
) -> None:
    (tmp_path / "manifest.json").write_text(manifest)
    with pytest.raises(TasklayerError) as error:
        load_pinned(tmp_path, "tiny")
    assert error.value.pointer == pointer
    assert_error(error, tmp_path / "manifest.json", reason)
