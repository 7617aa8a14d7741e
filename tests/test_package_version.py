"""The generated package's version follows the pins: ``tasklayer drift --bump`` records the
version the drift report suggests in ``schemas/manifest.json``, and ``generate`` writes the
recorded one (and the botocore the schemas were pinned from as the package's floor)."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from codegen.cache import tree_key
from codegen.cli import main
from codegen.inputs import collect_inputs
from codegen.render.package import PackageInfo, render_package

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS, TEMPLATES = ROOT / "schemas", ROOT / "templates"


@pytest.fixture
def schemas_copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SCHEMAS, tmp_path / "schemas"))


def _recorded(schemas: Path) -> str:
    return str(json.loads((schemas / "manifest.json").read_text())["package_version"])


def _declared(schemas: Path) -> tuple[str, str]:
    """The version and botocore floor ``generate`` would write into generated/pyproject.toml."""
    pyproject = render_package([], TEMPLATES, PackageInfo.of(collect_inputs(schemas, TEMPLATES)))["pyproject.toml"]
    version = re.search(r'^version = "(.*)"$', pyproject, re.M)
    floor = re.search(r'"botocore>=(.*)"', pyproject)
    assert version and floor, pyproject
    return version.group(1), floor.group(1)


def test_the_committed_package_declares_the_recorded_version_and_the_pinned_botocore() -> None:
    manifest = json.loads((SCHEMAS / "manifest.json").read_text())
    generated = (ROOT / "generated" / "pyproject.toml").read_text()
    assert f'version = "{manifest["package_version"]}"' in generated
    assert f'"botocore>={manifest["aws"]["botocore_version"]}"' in generated


def test_drift_bump_records_the_suggested_version_and_generate_writes_it(
    schemas_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay = schemas_copy / "overlays" / "aws" / "route53.yaml"
    # a rendered field changes class (no longer write-only, read as Config): a patch for consumers
    overlay.write_text(overlay.read_text().replace("HostedZoneConfig: {read_name: Config, write_only: false}",
                                                   "HostedZoneConfig: {write_only: true}"))
    assert _recorded(schemas_copy) == "0.1.0" and _declared(schemas_copy)[0] == "0.1.0"
    argv = ["--schemas", str(schemas_copy), "drift", "--base", str(SCHEMAS), "--service", "route53", "--json", "--bump"]
    for _ in range(2):  # against the same base a second bump records the same version again
        assert main(argv) == 0
        report = json.loads(capsys.readouterr().out)
        assert (report["package_version"], report["suggested_bump"]) == ("0.1.0", "patch")
        assert _recorded(schemas_copy) == report["suggested_version"] == "0.1.1"
    assert _declared(schemas_copy)[0] == "0.1.1"


def test_drift_without_bump_writes_nothing(schemas_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (schemas_copy / "manifest.json").read_bytes()
    assert main(["--schemas", str(schemas_copy), "drift", "--base", str(SCHEMAS), "--service", "route53"]) == 0
    assert (schemas_copy / "manifest.json").read_bytes() == before


def test_a_new_version_or_floor_is_never_served_from_the_cache(schemas_copy: Path) -> None:
    inputs = collect_inputs(schemas_copy, TEMPLATES)
    assert tree_key(inputs, "b") != tree_key(replace(inputs, package_version="0.2.0"), "b")
    assert tree_key(inputs, "b") != tree_key(replace(inputs, sdk_versions={**inputs.sdk_versions, "botocore": "9.9"}), "b")


def test_the_floor_follows_a_re_pin(schemas_copy: Path) -> None:
    manifest = json.loads((schemas_copy / "manifest.json").read_text())
    manifest["aws"]["botocore_version"] = "1.44.8"  # as `schemas pin aws` from botocore 1.44.8 records it
    (schemas_copy / "manifest.json").write_text(json.dumps(manifest))
    assert _declared(schemas_copy)[1] == "1.44.8"


def test_a_malformed_recorded_version_is_exit_2_naming_the_key(
    schemas_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = json.loads((schemas_copy / "manifest.json").read_text())
    manifest["package_version"] = "next"
    (schemas_copy / "manifest.json").write_text(json.dumps(manifest))
    argv = ["--schemas", str(schemas_copy), "generate", "--check", "--no-cache", "--templates", str(TEMPLATES),
            "--output", str(schemas_copy.parent / "generated")]
    assert main(argv) == 2
    assert "/package_version" in capsys.readouterr().err
