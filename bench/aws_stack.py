"""Benchmark (not a test): API calls of the generated EC2 stack against moto, and the wall
time of `tasklayer generate` on the pinned schemas.

    python bench/aws_stack.py

Prints calls by operation for a clean apply, a converged re-apply and a delete (reads and
writes separately), then generate timings. Figures vary with the machine; compare ratios
within one run.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "generated")]

from moto import mock_aws

from codegen.generate import generate
from tasklayer_tasks.runtime import CloudTarget, Executor
from testbed.stack import Calls, counted_context, network_stack


def show(phase: str, calls: Calls, seconds: float) -> None:
    reads, writes = calls.reads(), calls.writes()
    print(
        f"\n{phase}: {sum(reads.values())} reads, {sum(writes.values())} writes ({seconds:.2f}s against moto)"
    )
    for kind, counts in (("reads", reads), ("writes", writes)):
        for op, n in sorted(counts.items()):
            print(f"  {kind:<6} {op:<36} {n}")


def calls_phase() -> None:
    with mock_aws():
        context, calls = counted_context()
        phases = [
            ("clean apply", lambda: Executor(CloudTarget(context)).run(network_stack().tasks())),
            (
                "converged re-apply",
                lambda: Executor(CloudTarget(context)).run(network_stack().tasks()),
            ),
            ("delete", lambda: Executor(CloudTarget(context)).delete(network_stack().tasks())),
        ]
        for name, step in phases:
            calls.clear()
            started = time.perf_counter()
            step()
            show(name, calls, time.perf_counter() - started)


def generate_phase(runs: int = 3) -> None:
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            started = time.perf_counter()
            generate(ROOT / "schemas", ROOT / "templates", Path(tmp) / f"out{i}")
            times.append(time.perf_counter() - started)
    files = sum(1 for p in (ROOT / "generated").rglob("*") if p.is_file())
    print(
        f"\ntasklayer generate (pinned schemas, {files} files): "
        f"min {min(times):.2f}s, median {statistics.median(times):.2f}s over {runs} runs"
    )


if __name__ == "__main__":
    calls_phase()
    generate_phase()
