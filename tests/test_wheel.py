"""The generated package as users install it: a wheel built from generated/, installed into a
fresh venv, used from outside the checkout — no sys.path tricks, no generator importable.

The venv gets its third-party dependencies (botocore, googleapiclient, moto) by a ``.pth``
line naming this interpreter's site-packages folder, so the test needs no network; lines of a
``.pth`` add a folder to the path but do not run the ``.pth`` files inside it, so the
generator's own editable install stays invisible (the scenario asserts ``codegen`` is not
importable). The package itself comes only from the wheel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from tests.wheel_build import build_wheel

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"

AWS_SCENARIO = """
import boto3, tasklayer_tasks
from moto import mock_aws
assert "/venv/" in tasklayer_tasks.__file__, tasklayer_tasks.__file__
try:
    import codegen
except ImportError:
    pass
else:
    raise SystemExit("the generator must not be importable here")
from tasklayer_tasks.aws.ec2 import Subnet, Vpc
from tasklayer_tasks.runtime import CloudTarget, Context, Executor

with mock_aws():
    vpc = Vpc(name="wheel", cidr_block="10.7.0.0/16")
    subnet = Subnet(name="wheel-a", vpc=vpc, cidr_block="10.7.1.0/24")
    Executor(CloudTarget(Context(region="us-east-1", cluster="wheel"))).run([vpc, subnet])
    ec2 = boto3.client("ec2", region_name="us-east-1")
    found = ec2.describe_subnets(Filters=[{"Name": "cidr-block", "Values": ["10.7.1.0/24"]}])["Subnets"]
    assert len(found) == 1 and found[0]["VpcId"] == vpc.id, found
    print("aws ok", vpc.id)
"""

GCP_SCENARIO = """
import json
from importlib.resources import files
import tasklayer_tasks
assert "/venv/" in tasklayer_tasks.__file__
from tasklayer_tasks.gcp.compute import Network, Subnetwork
from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.testing import FakeGcp

document = json.loads(files("tasklayer_tasks.gcp.compute").joinpath("discovery.json").read_text())
fake = FakeGcp(document)
context = Context(project="p", region="us-central1", zone="us-central1-a", cluster="wheel", http=fake)
net = Network(name="wheel", auto_create_subnetworks=False)
Executor(CloudTarget(context)).run([net, Subnetwork(name="wheel-nodes", network=net, ip_cidr_range="10.0.0.0/20")])
created = [r.method_id for r in fake.log if r.http_method == "POST" and r.method_id.endswith(".insert")]
assert created == ["compute.networks.insert", "compute.subnetworks.insert"], created
print("gcp ok")
"""


def _listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    before = _listing(GENERATED)
    built = build_wheel(out)
    assert _listing(GENERATED) == before, "building the wheel wrote into generated/"
    return built


def test_wheel_ships_everything_the_tasks_read_and_declares_its_extras(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    documents = sorted(p.parent.relative_to(GENERATED).as_posix()
                       for p in GENERATED.glob("tasklayer_tasks/gcp/*/discovery.json"))
    assert documents and all(f"{d}/discovery.json" in names for d in documents)
    assert "tasklayer_tasks/py.typed" in names and "tasklayer_tasks/runtime/__init__.py" in names
    metadata_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
    metadata = Parser().parsestr(zipfile.ZipFile(wheel).read(metadata_name).decode())
    requires = metadata.get_all("Requires-Dist")
    assert any(r.startswith("botocore") and "extra" not in r for r in requires)
    assert any(r.startswith("google-api-python-client") and 'extra == "gcp"' in r for r in requires)
    assert any(r.startswith("kopf") and 'extra == "operator"' in r for r in requires)
    assert any(r.startswith("azure-core") and 'extra == "azure"' in r for r in requires)
    assert set(metadata.get_all("Provides-Extra")) == {"gcp", "azure", "operator"}


def test_wheel_carries_the_crds_its_licence_and_its_readme(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    crds = sorted(p.relative_to(GENERATED).as_posix() for p in (GENERATED / "tasklayer_tasks" / "crds").rglob("*.yaml"))
    assert len(crds) > 300 and [n for n in names if n.endswith(".yaml")] == crds  # the operator's step applies them
    metadata = Parser().parsestr(archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode())
    assert metadata["License-Expression"] == "Apache-2.0" and metadata.get_all("License-File") == ["LICENSE"]
    licence = next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
    assert archive.read(licence) == (ROOT / "LICENSE").read_bytes()
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload().strip() == (GENERATED / "README.md").read_text().strip()


@pytest.fixture(scope="module")
def venv_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "shared_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True)
    return python


@pytest.mark.parametrize("scenario", [AWS_SCENARIO, GCP_SCENARIO], ids=["aws", "gcp"])
def test_installed_wheel_runs_a_behaviour_scenario(venv_python: Path, scenario: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing", AWS_DEFAULT_REGION="us-east-1")
    run = subprocess.run([str(venv_python), "-c", textwrap.dedent(scenario)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert " ok" in run.stdout
