"""The generated CustomResourceDefinitions: valid manifests, valid and structural schemas,
create-only fields immutable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from openapi_spec_validator import validate as validate_openapi

from codegen.errors import TasklayerError
from codegen.render.crd import cel_member

CRDS = sorted((Path(__file__).resolve().parent.parent / "generated" / "tasklayer_tasks" / "crds").rglob("*.yaml"))


def load(path: Path) -> dict[str, Any]:
    return dict(yaml.safe_load(path.read_text()))


def test_there_is_one_crd_per_generated_resource() -> None:
    names = {f"{p.parent.parent.name}/{p.stem}" for p in CRDS}
    assert {"aws/vpcs", "aws/subnets", "aws/natgateways", "aws/securitygroupingresses", "aws/elasticips"} <= names
    assert {"gcp/networks", "gcp/subnetworks", "gcp/firewalls", "gcp/instancegroupmanagers", "gcp/disks"} <= names
    assert {"aws/launchtemplates", "aws/autoscalinggroups", "aws/loadbalancers", "aws/roles"} <= names
    import json

    metadata = json.loads((Path(__file__).resolve().parent.parent / "generated/tasklayer-generate-metadata.json").read_text())
    assert len(CRDS) == sum(len(s["rendered"]) for s in metadata["services"]) > 300


@pytest.mark.parametrize("path", CRDS, ids=lambda p: p.stem)
def test_manifest_is_a_valid_crd(path: Path) -> None:
    kubernetes_validate.validate(load(path), kubernetes_validate.latest_version(), strict=True)


def _schema(path: Path) -> dict[str, Any]:
    return dict(load(path)["spec"]["versions"][0]["schema"]["openAPIV3Schema"])


@pytest.mark.parametrize("path", CRDS, ids=lambda p: p.stem)
def test_embedded_schema_is_valid_openapi(path: Path) -> None:
    document = {"openapi": "3.0.3", "info": {"title": path.stem, "version": "v1alpha1"}, "paths": {},
                "components": {"schemas": {"Resource": _schema(path)}}}
    validate_openapi(document)


def _untyped(node: Any, where: str) -> list[str]:
    if not isinstance(node, dict):
        return []
    bad = [] if ("type" in node or node.get("x-kubernetes-preserve-unknown-fields")) else [where]
    for key, child in (node.get("properties") or {}).items():
        bad += _untyped(child, f"{where}.{key}")
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            bad += _untyped(node[key], f"{where}[{key}]")
    return bad


@pytest.mark.parametrize("path", CRDS, ids=lambda p: p.stem)
def test_schema_is_structural(path: Path) -> None:
    assert _untyped(_schema(path), "") == []


def test_create_only_fields_are_immutable_and_mutable_ones_are_not() -> None:
    vpc = _schema(next(p for p in CRDS if p.stem == "vpcs"))
    spec = vpc["properties"]["spec"]
    assert spec["properties"]["cidrBlock"]["x-kubernetes-validations"] == [
        {"rule": "self == oldSelf", "message": "cidrBlock can only be set when the resource is created: it cannot change"}]
    assert {"rule": "has(self.cidrBlock) == has(oldSelf.cidrBlock)",
            "message": "cidrBlock can only be set when the resource is created: it cannot be added or removed later",
            "fieldPath": ".cidrBlock"} in spec["x-kubernetes-validations"]
    assert spec["default"] == {}  # so an old object always has a spec for the presence rules
    assert "x-kubernetes-validations" not in spec["properties"]["enableDnsHostnames"]
    assert spec["properties"]["enableDnsHostnames"]["type"] == "boolean"  # {"Value": bool} unwrapped
    status = vpc["properties"]["status"]["properties"]
    assert {"id", "conditions", "state", "vpcId", "ownerId"} <= set(status)
    assert "state" not in spec["properties"]  # read-only fields are status only


def test_gcp_crd_keys_and_scope() -> None:
    firewall = _schema(next(p for p in CRDS if p.stem == "firewalls"))
    spec = firewall["properties"]["spec"]["properties"]
    assert "x-kubernetes-validations" in spec["direction"]  # fixed by the compute overlay
    assert "x-kubernetes-validations" not in spec["sourceRanges"]
    disk = _schema(next(p for p in CRDS if p.stem == "disks"))
    zone = disk["properties"]["spec"]["properties"]["zone"]
    assert zone["type"] == "string" and zone["x-kubernetes-validations"][0]["rule"] == "self == oldSelf"
    assert "additionalTags" in disk["properties"]["spec"]["properties"]  # labels, besides the ownership one
    assert "selfLink" in disk["properties"]["status"]["properties"]


def test_rules_select_spec_keys_as_the_apiserver_exposes_them() -> None:
    assert cel_member("cidrBlock", "aws/ec2/Vpc") == "cidrBlock"
    assert cel_member("namespace", "aws/ec2/Vpc") == "__namespace__"  # a CEL reserved word, escaped
    with pytest.raises(TasklayerError, match=r"'ip-range' is not a plain identifier") as err:
        cel_member("ip-range", "gcp/compute/Subnetwork")
    assert err.value.pointer == "gcp/compute/Subnetwork"


def test_the_fast_yaml_dump_writes_what_the_pure_one_writes() -> None:
    """dump_yaml builds the nodes itself and takes libyaml's emitter for documents whose strings
    are all printable: on every committed CRD it must give PyYAML's own bytes (and the
    committed file)."""
    import glob

    import yaml

    from codegen.render.crd import dump_yaml

    paths = sorted(glob.glob(str(Path(__file__).resolve().parent.parent / "generated/tasklayer_tasks/crds/**/*.yaml"), recursive=True))
    assert len(paths) > 300
    for path in paths:
        body = Path(path).read_text(encoding="utf-8").split("\n", 1)[1]
        document = yaml.load(body, Loader=yaml.SafeLoader)
        pure = yaml.dump(document, Dumper=yaml.SafeDumper, sort_keys=False, width=100, allow_unicode=True)
        assert dump_yaml(document) == pure == body, path


@pytest.mark.parametrize("document", [
    {"description": "a bell \a and a zero-width space \u200b " * 8},  # double-quoted and folded: PyYAML's emitter
    {"description": "don\u2019t \u2013 tra\ufb03c, caf\u00e9 " * 8, "n": [1, True, False, {}, []]},  # printable
    {"a": (shared := {"k": 1}), "b": shared},  # one dict twice: PyYAML's representer writes an alias
    {"a": 1.5, "b": None},  # types the CRDs never hold: PyYAML's representer
])
def test_dump_yaml_matches_pyyaml_off_the_committed_path(document: dict) -> None:
    import yaml

    from codegen.render.crd import dump_yaml

    pure = yaml.dump(document, Dumper=yaml.SafeDumper, sort_keys=False, width=100, allow_unicode=True)
    assert dump_yaml(document) == pure
    assert yaml.safe_load(dump_yaml(document)) == document
