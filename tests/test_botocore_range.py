"""The shipped runtime works with every botocore its package declares: the generated wheel,
installed into a fresh venv with the lowest botocore ``generated/pyproject.toml`` allows and
with the newest on the index, runs the kOps-like cluster (67 tasks over EC2, IAM, ELBv2, Auto
Scaling, Route 53) against moto_server: apply, a re-apply that writes nothing, delete.

moto_server runs from this environment (the reference stays fixed); the venv holds only the
wheel and what pip resolves for it, so the botocore under test is the only botocore there.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomllib

from testbed.moto import MotoServer
from tests.wheel_build import GENERATED, build_wheel

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = Path(__file__).with_name("botocore_range_scenario.py")


def declared_floor() -> str:
    """The lowest botocore the generated package declares (``botocore>=X``)."""
    dependencies = tomllib.loads((GENERATED / "pyproject.toml").read_text())["project"]["dependencies"]
    (floor,) = [m.group(1) for d in dependencies if (m := re.fullmatch(r"botocore>=([\d.]+)", d))]
    return floor


BOTOCORES = {"lowest": f"botocore=={declared_floor()}", "newest": f"botocore>={declared_floor()}"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="module")
def server() -> Iterator[MotoServer]:
    with MotoServer() as moto:
        yield moto


def fresh_venv(path: Path, wheel: Path, botocore: str) -> Path:
    """A venv with the wheel and ``botocore`` from the index, nothing of this environment's."""
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    python = path / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                              str(wheel), botocore], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-3000:]
    return python


@pytest.mark.parametrize("which", sorted(BOTOCORES))
def test_the_wheel_runs_the_kops_cluster_with_the_lowest_and_the_newest_botocore(
    which: str, wheel: Path, server: MotoServer, tmp_path: Path
) -> None:
    python = fresh_venv(tmp_path / "venv", wheel, BOTOCORES[which])
    server.reset()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "PYTHON"))}
    env.update(AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing")
    run = subprocess.run([str(python), str(SCENARIO), str(ROOT / "examples" / "kops_cluster.py"), server.url],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.splitlines()[-1])
    print(f"\n{which}: {result}")
    if which == "lowest":
        assert result["botocore"].startswith(declared_floor()), result
    assert result["tasks"] == 67 and result["phases"]["apply"]["writes"] > 67
    assert result["phases"]["reapply"]["writes"] == 0 and result["phases"]["delete"]["writes"] > 0
    assert result["left"] == {"Vpcs": 0, "Subnets": 0, "SecurityGroups": 0, "NatGateways": 0}
    assert result["retries"] == "standard" and result["once"] == {"mode": "standard", "total_max_attempts": 1}
