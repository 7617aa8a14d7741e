"""A cold ``generate`` of five whole AWS services beside mypy-boto3-builder on the same five:
CPU (user + sys of the child and its workers) and peak memory (the largest single process's
maximum resident set), and their ratios.

    python -m venv /tmp/mbb && /tmp/mbb/bin/pip install mypy-boto3-builder
    python bench/whole_services.py [--builder /tmp/mbb/bin/mypy_boto3_builder] [--runs 1]

Our side runs on a copy of schemas/ that pins only the five services (each with ``generate:
all``), with no cache, into a temporary folder. Each command runs in a fresh measuring
process, so one's children never count towards the other. Goal (issue 12): at most 1/15 of the
builder's CPU and 1/3 of its memory.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVICES = ("ec2", "iam", "elbv2", "autoscaling", "route53")

# Runs ``argv`` and prints the child tree's CPU seconds and the largest child's peak RSS (KiB).
_MEASURE = """
import json, resource, subprocess, sys
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": proc.returncode, "cpu": usage.ru_utime + usage.ru_stime, "rss_kib": usage.ru_maxrss,
                  "stderr": proc.stderr[-2000:]}))
"""


def measure(argv: list[str], cwd: Path) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, *argv], cwd=cwd, capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout)
    if result["rc"] != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({result['rc']}):\n{result['stderr']}")
    return result


def five_service_schemas(dest: Path) -> Path:
    """schemas/ with only the five services pinned, each generated whole."""
    schemas = dest / "schemas"
    shutil.copytree(ROOT / "schemas", schemas)
    manifest = json.loads((schemas / "manifest.json").read_text())
    for provider in ("aws", "gcp"):
        for name in list(manifest[provider]["services"]):
            if provider == "gcp" or name not in SERVICES:
                del manifest[provider]["services"][name]
                shutil.rmtree(schemas / provider / name)
                (schemas / "overlays" / provider / f"{name}.yaml").unlink(missing_ok=True)
    (schemas / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    for name in SERVICES:
        overlay = schemas / "overlays" / "aws" / f"{name}.yaml"
        text = overlay.read_text() if overlay.exists() else ""
        assert "generate: all" in text, f"{overlay} should say generate: all"
    return schemas


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--builder", default="/tmp/mbb/bin/mypy_boto3_builder")
    parser.add_argument("--runs", type=int, default=1, help="runs of each; the best CPU is kept")
    args = parser.parse_args()
    if not Path(args.builder).exists():
        raise SystemExit(
            f"{args.builder} is missing: python -m venv /tmp/mbb && /tmp/mbb/bin/pip install mypy-boto3-builder"
        )
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        schemas = five_service_schemas(work)
        ours_argv = [
            sys.executable,
            "-m",
            "codegen.cli",
            "--schemas",
            str(schemas),
            "-q",
            "generate",
            "--no-cache",
            "--templates",
            str(ROOT / "templates"),
            "--output",
            str(work / "ours"),
        ]
        theirs_argv = [
            args.builder,
            str(work / "theirs"),
            "--no-smart-version",
            "--product",
            "boto3-services",
            "-s",
            *SERVICES,
        ]
        ours = min((measure(ours_argv, ROOT) for _ in range(args.runs)), key=lambda r: r["cpu"])
        theirs = min((measure(theirs_argv, work) for _ in range(args.runs)), key=lambda r: r["cpu"])
        modules = len(list((work / "ours").rglob("*.py")))
    print(
        f"tasklayer generate (5 services, {modules} modules): CPU {ours['cpu']:.1f} s, peak RSS {ours['rss_kib'] / 1024:.0f} MiB"
    )
    print(
        f"mypy-boto3-builder (same 5 services):      CPU {theirs['cpu']:.1f} s, peak RSS {theirs['rss_kib'] / 1024:.0f} MiB"
    )
    cpu, mem = ours["cpu"] / theirs["cpu"], ours["rss_kib"] / theirs["rss_kib"]
    print(
        f"ratio: CPU {cpu:.3f} (1/{1 / cpu:.1f}; goal <= 1/15), memory {mem:.3f} (1/{1 / mem:.1f}; goal <= 1/3)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
