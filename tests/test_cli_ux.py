"""The command as maintainers expect it: --version, -v/-q, flags anywhere, one JSON value,
quiet on a closed pipe, the checkout found from any subdirectory, did-you-mean, the generate
summary, --check --diff, --service, unexpected files kept."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import codegen
from codegen.cli import main
from codegen.console import Console

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit:  # argparse's own exits (--version, usage errors)
        code = int(exit.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def cli(*argv: str, cwd: Path = ROOT, stdin: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "codegen.cli", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"tasklayer {codegen.__version__}"


def test_global_flags_after_the_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "annotations", "--service", "route53", "--json", "--schemas", str(SCHEMAS), "-q")
    assert code == 0 and json.loads(out)["service"] == "route53"


def test_json_is_one_value_for_several_services(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--service", "route53", "--service", "iam", "--json")
    assert code == 0 and [d["service"] for d in json.loads(out)] == ["route53", "iam"]
    code, out, _ = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--provider", "gcp", "--json")
    pinned_gcp = set(json.loads((SCHEMAS / "manifest.json").read_text())["gcp"]["services"])
    assert code == 0 and {d["service"] for d in json.loads(out)} == pinned_gcp >= {"compute", "dns", "iam", "storage"}


def test_a_closed_pipe_ends_quietly() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "codegen.cli", "annotations", "--service", "ec2"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # what `| head -1` does
    err = proc.stderr.read()
    assert proc.wait(timeout=300) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_the_checkout_is_found_from_a_subdirectory() -> None:
    done = cli("annotations", "--service", "route53", "--json", cwd=ROOT / "generated" / "tasklayer_tasks")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["service"] == "route53"


def test_outside_a_checkout_nothing_is_created(tmp_path: Path) -> None:
    done = cli("schemas", "pin", "aws", "ec2", cwd=tmp_path)
    assert done.returncode == 2 and "not inside a tasklayer checkout" in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["annotations", "--service", "elbv3"], "did you mean: elbv2"),
        (["annotations", "--provider", "gcp", "--service", "compte"], "did you mean: compute"),
        (["generate", "--check", "--service", "elbv3"], "did you mean: elbv2"),
        (["annotations", "--service", "ecs"], "pin it with `tasklayer schemas pin aws ecs`"),
        (["generat"], "did you mean: generate"),
        (["schemas", "pin", "aws", "ec3"], "did you mean: ecs, ecr, ec2"),  # all three are botocore services
    ],
)
def test_names_are_looked_up_with_a_suggestion(capsys: pytest.CaptureFixture[str], argv: list[str], expected: str) -> None:
    code, _, err = run(capsys, "--schemas", str(SCHEMAS), *argv)
    assert code == 2 and expected in err and "Traceback" not in err


def test_the_progress_bar_is_drawn_only_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        Console(0, stream).progress("generating", 1, 3, "aws/ec2")
    assert "generating [" in tty.getvalue() and "1/3 aws/ec2" in tty.getvalue()
    assert pipe.getvalue() == ""
    quiet = Tty()
    Console(-1, quiet).progress("generating", 1, 3)
    assert quiet.getvalue() == ""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for name in ("schemas", "templates", "generated"):
        shutil.copytree(ROOT / name, tmp_path / name, symlinks=True)
    return tmp_path


def test_generate_summary_diff_service_and_unexpected_files(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    flags = ["--schemas", str(repo / "schemas"), "generate", "--templates", str(repo / "templates"),
             "--output", str(repo / "generated"), "--cache-dir", str(repo / "cache")]
    vpc = repo / "generated/tasklayer_tasks/aws/ec2/vpc.py"
    bucket = repo / "generated/tasklayer_tasks/gcp/storage/bucket.py"
    for path in (vpc, bucket):
        path.write_text(path.read_text().replace('"""Vpc:', '"""Edited Vpc:').replace('"""Bucket', '"""Edited Bucket'))
    (repo / "generated/tasklayer_tasks/mine.py").write_text("mine = 1\n")

    code, out, err = run(capsys, *flags, "--check", "--diff")
    assert code == 1
    assert "--- a/tasklayer_tasks/aws/ec2/vpc.py" in out and '-"""Edited Vpc:' in out and '+"""Vpc:' in out
    assert "unexpected tasklayer_tasks/mine.py" in err

    code, out, err = run(capsys, *flags, "--service", "ec2", "-v")
    assert code == 0 and "0 new, 1 changed, 0 removed" in out
    assert "changed  tasklayer_tasks/aws/ec2/vpc.py" in out
    assert "aws/ec2 SpotDatafeedSubscription: incomplete: no identity" in out  # what generate: all left out
    assert "tasklayer_tasks/mine.py" in err and "kept" in err
    assert "Edited Bucket" in bucket.read_text() and "Edited Vpc" not in vpc.read_text()  # only ec2 written
    assert (repo / "generated/tasklayer_tasks/mine.py").is_file()

    code, out, err = run(capsys, *flags, "--force", "-q")
    assert code == 0 and out == "" and "Edited Bucket" not in bucket.read_text()
    assert not (repo / "generated/tasklayer_tasks/mine.py").exists()
    code, out, _ = run(capsys, *flags, "--check")
    assert code == 0 and "up to date" in out and "from cache" in out


# --- issue 20, item 12 --------------------------------------------------------------------------


def _generate_flags(repo: Path) -> list[str]:
    """generate over the copy, answered from the checkout's cache (the inputs are the same bytes)."""
    return ["--schemas", str(repo / "schemas"), "generate", "--templates", str(repo / "templates"),
            "--output", str(repo / "generated"), "--cache-dir", str(ROOT / ".tasklayer-cache")]


def test_diff_alone_shows_the_diff_and_writes_nothing(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    vpc = repo / "generated/tasklayer_tasks/aws/ec2/vpc.py"
    vpc.write_text(vpc.read_text().replace('"""Vpc:', '"""Edited Vpc:'))
    code, out, _ = run(capsys, *_generate_flags(repo), "--diff")
    assert code == 1  # stale, as --check says it
    assert '-"""Edited Vpc:' in out and '+"""Vpc:' in out
    assert "Edited Vpc" in vpc.read_text()  # the local edit survives


@pytest.mark.parametrize("argv", [
    ["annotations", "--service", "lambda"],
    ["generate", "--check", "--service", "lambda"],
    ["drift", "--service", "lambda"],
])
def test_every_subcommand_gives_the_same_pin_hint(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, "--schemas", str(SCHEMAS), *argv)
    assert code == 2 and out == ""
    assert "aws service 'lambda' is not pinned" in err and "pin it with `tasklayer schemas pin aws lambda`" in err


def test_drift_of_an_unknown_service_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--schemas", str(SCHEMAS), "drift", "--service", "ec3")
    assert code == 2 and "No change" not in out
    assert "unknown service 'ec3'" in err and "did you mean: " in err and "ec2" in err


def test_annotations_of_one_resource(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--service", "ec2", "--resource", "Vpc", "--json")
    assert code == 0 and [r["name"] for r in json.loads(out)["resources"]] == ["Vpc"]
    code, out, _ = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--resource", "Role", "--resource", "Vpc")
    assert code == 0 and "aws/ec2 2016-11-15: 1 resources" in out and "aws/iam 2010-05-08: 1 resources" in out
    assert "2 services, 2 resources" in out.splitlines()[-1]
    code, _, err = run(capsys, "--schemas", str(SCHEMAS), "annotations", "--service", "ec2", "--resource", "VPC")
    assert code == 2 and "unknown resource 'VPC'" in err and "did you mean: Vpc" in err


@pytest.mark.parametrize(("argv", "expected"), [
    (["gen"], "did you mean: generate"),  # a prefix
    (["pin", "aws", "ec2"], "did you mean: schemas pin"),  # a subcommand of a subcommand
    (["list"], "did you mean: schemas list"),
    (["generate", "--chek"], "did you mean: --check"),  # a mistyped option
    (["annotations", "--resorce", "Vpc"], "did you mean: --resource"),
])
def test_a_mistyped_command_gets_a_suggestion(capsys: pytest.CaptureFixture[str], argv: list[str], expected: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and expected in err


def test_what_was_not_generated_is_a_count_unless_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--schemas", str(SCHEMAS), "generate", "--check"]
    code, out, _ = run(capsys, *flags)
    assert code == 0
    said = [line for line in out.splitlines() if "not generated" in line]
    assert len(said) == 1 and "-v lists them" in said[0] and "SpotDatafeedSubscription" not in out
    count = int(said[0].split()[0])
    code, out, _ = run(capsys, *flags, "-v")
    listed = [line for line in out.splitlines() if line.startswith(("  aws/", "  gcp/"))]
    assert code == 0 and len(listed) == count > 1
    assert "  aws/ec2 SpotDatafeedSubscription: incomplete: no identity" in listed


def test_every_help_is_plain_text_and_every_option_says_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from codegen.cli import build_parser, subcommands

    commands = ["", *(path for _, path in subcommands(build_parser()))]
    assert {"schemas pin", "schemas list", "annotations", "generate", "drift"} <= set(commands)
    for command in commands:
        code, out, _ = run(capsys, *command.split(), "--help")
        assert code == 0 and out.startswith(f"usage: tasklayer {command}".rstrip()), command
        assert "``" not in out and ":func:" not in out and ":class:" not in out, command
    parsers = [build_parser()]
    for parser in parsers:  # grows as it goes: every subcommand's parser, at any depth
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += action.choices.values()
            else:
                assert action.help, (parser.prog, action.dest)
        assert parser is parsers[0] or parser.description, parser.prog
