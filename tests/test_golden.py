"""generated/ is the golden record: regenerating gives the same tree, byte for byte, and it
passes mypy --strict and black --check as users would run them on it."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

from codegen.cli import main
from codegen.generate import render
from codegen.writer import write_tree

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"


@functools.lru_cache(maxsize=1)
def rendered_once() -> dict[str, str]:
    """One full render shared by the tests that only read it (a whole-service render costs
    about half a minute of CPU)."""
    return render(ROOT / "schemas", ROOT / "templates")


def test_regenerating_gives_the_committed_tree() -> None:
    result = write_tree(GENERATED, rendered_once(), check=True)
    assert not result.stale, "generated/ is stale; run `tasklayer generate`:\n" + result.report()


def test_generation_is_deterministic(tmp_path: Path) -> None:
    first = rendered_once()
    second = render(ROOT / "schemas", ROOT / "templates")
    assert first == second
    write_tree(tmp_path / "out", first)
    assert not write_tree(tmp_path / "out", second, check=True).stale


def test_check_names_stale_files(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "generated"
    assert main(["--schemas", str(ROOT / "schemas"), "generate", "--output", str(out),
                 "--templates", str(ROOT / "templates")]) == 0
    (out / "tasklayer_tasks" / "aws" / "ec2" / "vpc.py").write_text("# edited by hand\n")
    (out / "tasklayer_tasks" / "stray.py").write_text("")
    (out / "README.md").unlink()
    code = main(["--schemas", str(ROOT / "schemas"), "generate", "--check", "--output", str(out),
                 "--templates", str(ROOT / "templates")])
    err = capsys.readouterr().err
    assert code == 1
    assert "tasklayer_tasks/aws/ec2/vpc.py" in err and "stray.py" in err and "README.md" in err


def test_generated_package_passes_mypy_strict() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "tasklayer_tasks"],
                          cwd=GENERATED, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_generated_package_is_black_clean() -> None:
    proc = subprocess.run([sys.executable, "-m", "black", "--check", "--quiet", "."],
                          cwd=GENERATED, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_bad_input_leaves_generated_untouched(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    import shutil

    schemas = tmp_path / "schemas"
    shutil.copytree(ROOT / "schemas", schemas)
    out = tmp_path / "generated"
    args = ["--schemas", str(schemas), "generate", "--output", str(out), "--templates", str(ROOT / "templates")]
    assert main(args) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    overlay = schemas / "overlays" / "aws" / "ec2.yaml"
    overlay.write_text(overlay.read_text().replace("rename: ElasticIp", "rename: ElasticIp\n    renam: typo"))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "ec2.yaml" in err and "renam" in err and "Traceback" not in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_the_runtime_ships_byte_identical_to_its_sources() -> None:
    """Tracebacks from an installed package point at lines a maintainer finds in templates/."""
    rendered = rendered_once()
    for folder in ("runtime", "testing"):
        sources = sorted((ROOT / "templates" / folder).rglob("*.py"))
        assert sources
        for path in sources:
            name = path.relative_to(ROOT / "templates" / folder).as_posix()
            shipped = rendered[f"tasklayer_tasks/{folder}/{name}"]
            assert shipped == path.read_text(encoding="utf-8"), f"{folder}/{name} changes on the way out"


def test_the_test_fake_is_not_part_of_the_production_runtime() -> None:
    runtime = {p.name for p in (GENERATED / "tasklayer_tasks" / "runtime").rglob("*.py")}
    assert "gcp_fake.py" not in runtime
    text = "".join(p.read_text() for p in (GENERATED / "tasklayer_tasks" / "runtime").rglob("*.py"))
    assert "testing" not in {line.split()[1].lstrip(".").split(".")[0] for line in text.splitlines()
                             if line.startswith("from .")}
