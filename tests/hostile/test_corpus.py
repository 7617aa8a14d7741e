"""Every hostile or malformed schema and overlay of the corpus ends in one of two ways:

- ``tasklayer generate`` exits 2, the message names the file and the place in it (a JSON
  pointer, an overlay key or a line), there is no traceback, and ``generated/`` is untouched;
- or it exits 0, and the output compiles, passes ``mypy --strict`` and executes nothing on
  import (the payloads create a canary file ``PWNED`` if they ever run).

Cases that must be refused say where (``Expected``). The generated services of all cases that
pass are gathered into one package so mypy and the import check run once, not per case.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from codegen.writer import MARKER, MARKER_TEXT
from tests.hostile.corpus import CorpusCase, payload_cases
from tests.hostile.damage import damage_cases
from tests.hostile.harness import ROOT, SERVICE, generate

CASES: list[CorpusCase] = [*payload_cases(), *damage_cases()]
CANARY = "PWNED"
SENTINEL = "kept.txt"
# "tasklayer: error: <file>: <place>: <reason>", or a reason that itself says the line
PLACE = re.compile(r"^tasklayer: error: \S+: (\S[^:]*: |.*\bline \d+)")


@dataclass(frozen=True)
class Result:
    code: int
    stderr: str
    untouched: bool  # generated/ still holds exactly what it held before
    package: str | None  # where its service landed in the combined package (exit 0)


def _combine(output: Path, combined: Path, provider: str, index: int) -> str:
    """Move the case's service into the combined package as ``<provider>.case<index>``."""
    package = combined / "tasklayer_tasks"
    if not package.exists():
        shutil.copytree(output / "tasklayer_tasks", package, ignore=shutil.ignore_patterns(SERVICE))
        (package / "aws").mkdir(exist_ok=True)
        (package / "gcp").mkdir(exist_ok=True)
        for provider_init in ("aws", "gcp"):
            (package / provider_init / "__init__.py").write_text("")
    name = f"case{index}"
    shutil.copytree(output / "tasklayer_tasks" / provider / SERVICE, package / provider / name)
    return f"tasklayer_tasks.{provider}.{name}"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Result], Path]:
    work = tmp_path_factory.mktemp("corpus")
    combined = work / "combined"
    combined.mkdir()
    results: dict[str, Result] = {}
    for index, item in enumerate(CASES):
        root = work / f"case{index}"
        (root / "generated").mkdir(parents=True)
        (root / "generated" / SENTINEL).write_text("before")
        (root / "generated" / MARKER).write_text(MARKER_TEXT)  # a tree generate may replace
        outcome = generate(item.case, root)
        files = sorted(p.relative_to(outcome.output) for p in outcome.output.rglob("*") if p.is_file())
        untouched = files == [Path(MARKER), Path(SENTINEL)] and (outcome.output / SENTINEL).read_text() == "before"
        package = _combine(outcome.output, combined, item.case.provider, index) if outcome.code == 0 else None
        results[item.case.name] = Result(outcome.code, outcome.stderr, untouched, package)
        shutil.rmtree(root)
    return results, combined


def test_corpus_is_large_and_systematic() -> None:
    names = [c.case.name for c in CASES]
    assert len(names) == len(set(names))
    assert len(CASES) >= 200
    assert sum(c.expect is not None for c in CASES) >= 60  # damaged inputs that must be refused


@pytest.mark.parametrize("item", CASES, ids=[c.case.name for c in CASES])
def test_case_is_refused_cleanly_or_generates(item: CorpusCase, corpus: tuple[dict[str, Result], Path]) -> None:
    result = corpus[0][item.case.name]
    assert "Traceback" not in result.stderr
    if item.expect is not None:
        assert result.code == 2, f"must be refused naming {item.expect}; exit {result.code}"
    if result.code == 0:
        assert result.package is not None
        return
    assert result.code == 2, result.stderr
    first = result.stderr.splitlines()[0]
    named = [*item.case.files, f"{SERVICE}.yaml"]
    assert any(name in first for name in named), f"the error names no input file: {first}"
    assert PLACE.search(first), f"the error names no place in the file: {first}"
    if item.expect is not None:
        assert item.expect.file in first and item.expect.place in result.stderr, result.stderr
    assert result.untouched, "generated/ changed although generation failed"


@pytest.fixture(scope="module")
def passed(corpus: tuple[dict[str, Result], Path]) -> tuple[dict[str, str], Path]:
    """Package -> case name, for every case that generated code."""
    results, combined = corpus
    packages = {r.package: name for name, r in results.items() if r.package is not None}
    assert packages, "no case generated code"
    return packages, combined


def test_generated_code_compiles_and_executes_nothing_on_import(passed: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    packages, combined = passed
    modules = sorted(
        ".".join(p.relative_to(combined).with_suffix("").parts).removesuffix(".__init__")
        for p in (combined / "tasklayer_tasks").rglob("*.py")
    )
    script = (
        "import importlib, sys\n"
        f"sys.path.insert(0, {str(combined)!r})\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, _blame(proc.stderr, packages)
    for where in (tmp_path, ROOT, Path.cwd()):
        assert not (where / CANARY).exists(), f"a payload ran: {where / CANARY} exists"


def test_generated_code_passes_mypy_strict(passed: tuple[dict[str, str], Path]) -> None:
    packages, combined = passed
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "tasklayer_tasks"],
        cwd=combined, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, _blame(proc.stdout + proc.stderr, packages)


def _blame(output: str, packages: dict[str, str]) -> str:
    """The tool's output with each case folder followed by the case's name."""
    for package, name in packages.items():
        folder = package.replace(".", "/")
        output = output.replace(folder, f"{folder} [{name}]")
    return output[:5000]
