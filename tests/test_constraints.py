"""The generator's own environment is reproducible: every set-up command installs under
``constraints.txt``, which pins the SDKs to the versions ``schemas/manifest.json`` says the
schemas were pinned from (a fresh ``pip install`` would otherwise take the newest botocore, and
tests that compare pins with the installed SDK, or its defaults, would judge another SDK)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _constraints() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    pins = [line.split("#")[0].strip() for line in lines]
    return dict(pin.split("==") for pin in pins if pin)


def test_the_constraints_pin_the_sdks_the_schemas_were_pinned_from() -> None:
    manifest = json.loads((ROOT / "schemas" / "manifest.json").read_text())
    # what the tests judge with (and the docs site is built with), not an SDK the schemas came from
    tools = {
        "moto",
        "mypy",
        "ruff",
        "mkdocs",
        "mkdocs-material",
        "mkdocstrings",
        "mkdocstrings-python",
        "selenium",
        "kubernetes",
        "openapi-spec-validator",  # judges the pinned Azure documents; not what they came from
        "azure-core",  # the Azure adapter's HTTP pipeline: the Azure schemas are pinned from files
    }
    sdks = {name: version for name, version in _constraints().items() if name not in tools}
    assert sdks == {
        "botocore": manifest["aws"]["botocore_version"],
        "boto3": manifest["aws"]["botocore_version"],  # released in lockstep with botocore
        "google-api-python-client": manifest["gcp"]["googleapiclient_version"],
    }


def test_every_set_up_command_installs_under_the_constraints() -> None:
    readme = (ROOT / "README.md").read_text()
    setup = re.search(r"## Set-up.*?```sh\n(.*?)```", readme, re.S)
    assert setup is not None
    commands = [line for line in setup.group(1).splitlines() if line.strip()]
    ci = [
        line
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.startswith("pip install")
    ]
    assert len(commands) == 2 and len(ci) == 1
    for command in [*commands, *ci]:
        assert command.startswith("pip install -c constraints.txt -e '.[test]'"), command
    assert (
        ci[0].split("&&")[0] == commands[1].split("&&")[0]
    ), "CI installs what the README's test command does"


def test_every_install_of_the_generated_package_the_readme_shows_is_editable() -> None:
    """A plain ``pip install ./generated`` replaces the set-up's editable install with a copy:
    later ``generate`` runs would no longer reach what Python imports."""
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    installs = [
        line
        for block in blocks
        for line in block.splitlines()
        if line.startswith("pip install") and "./generated" in line
    ]
    assert len(installs) >= 3  # the two set-up commands and the operator's step
    for line in installs:
        assert all(
            word == "-e"
            for word, target in zip(line.split(), line.split()[1:], strict=False)
            if target.strip("'\"").startswith("./generated")
        ), line
