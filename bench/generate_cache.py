"""Benchmark (not a test): a cold `tasklayer generate` against no-change runs that hit the cache.

    python bench/generate_cache.py [--runs 3]

Each run is the real command in a fresh process (`python -m codegen.cli`, interpreter start-up
included), on a copy of the checkout's schemas/templates/generated, so the checkout and its
cache are untouched. Cold = an empty cache; cached = the same inputs again. Prints the median
seconds side by side and the ratio, and checks that the cold output is byte-identical to the
committed generated/.
"""

from __future__ import annotations

import argparse
import filecmp
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(work: Path, *argv: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its black workers)."""
    cmd = [
        sys.executable,
        "-m",
        "codegen.cli",
        "-q",
        "--schemas",
        str(work / "schemas"),
        *argv,
        "--templates",
        str(work / "templates"),
        "--output",
        str(work / "generated"),
        "--cache-dir",
        str(work / "cache"),
    ]
    cpu = _children_cpu()
    started = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True)
    return time.perf_counter() - started, _children_cpu() - cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def identical(a: Path, b: Path) -> bool:
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__", ".mypy_cache", ".pytest_cache"])
    stack = [cmp]
    while stack:
        c = stack.pop()
        if (
            c.left_only
            or c.right_only
            or filecmp.cmpfiles(c.left, c.right, c.common_files, shallow=False)[1]
        ):
            return False
        stack.extend(c.subdirs.values())
    return True


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    cold, warm_generate, warm_check = [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            for name in ("schemas", "templates"):
                shutil.copytree(ROOT / name, work / name)
            (work / "generated").mkdir()  # an empty output: the cold run writes every file
            cold.append(timed(work, "generate"))
            assert identical(
                work / "generated", ROOT / "generated"
            ), "cold output differs from committed generated/"
            warm_generate.append(timed(work, "generate"))
            warm_check.append(timed(work, "generate", "--check"))
    print(
        f"tasklayer generate, median of {runs} runs (fresh process each, interpreter start-up included)"
    )
    print(f"{'':<30}{'wall':>8}{'':>12}{'CPU':>8}")
    c = [statistics.median(x[i] for x in cold) for i in (0, 1)]
    for label, runs_ in (
        ("cold (empty cache)", cold),
        ("no change: generate", warm_generate),
        ("no change: generate --check", warm_check),
    ):
        wall, cpu = (statistics.median(x[i] for x in runs_) for i in (0, 1))
        print(f"{label:<30}{wall:7.2f}s {wall / c[0]:9.1%}  {cpu:7.2f}s {cpu / c[1]:6.1%}")
    print("cold output byte-identical to the committed generated/: yes")


if __name__ == "__main__":
    main()
