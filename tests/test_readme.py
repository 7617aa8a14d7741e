"""The README's Python snippets run as pasted (AWS against moto_server over HTTP, GCP against
the fake they name), and the examples run as scripts."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from testbed.moto import MotoServer
from testbed.snippets import run_snippet, snippet_env, snippets

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = [s.code for s in snippets(ROOT / "README.md", ROOT) if s.no_run is None]


def test_the_readme_has_its_snippets() -> None:
    assert len(SNIPPETS) >= 3


@pytest.fixture(scope="module")
def moto_url() -> Iterator[str]:
    with MotoServer() as server:  # its own process, on loopback
        yield server.url


def _env(**extra: str) -> dict[str, str]:
    return snippet_env(ROOT, **extra)


@pytest.mark.parametrize("index", range(len(SNIPPETS)), ids=lambda i: SNIPPETS[i].splitlines()[0][:40])
def test_readme_snippet_runs_as_pasted(index: int, moto_url: str, tmp_path: Path) -> None:
    done = run_snippet(SNIPPETS[index], tmp_path, _env(AWS_ENDPOINT_URL=moto_url))
    assert done.returncode == 0, f"snippet {index} failed:\n{SNIPPETS[index]}\n{done.stderr[-2000:]}"


@pytest.mark.parametrize(("script", "expected"), [("aws_network.py", "vpc-"), ("gcp_network.py", "compute.networks.insert")])
def test_examples_run_as_scripts(script: str, expected: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / script)], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Ready after" in done.stdout and expected in done.stdout
