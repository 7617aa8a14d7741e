"""Benchmark (not a test): calls the generated GCE stack makes against the GCP fake of
``tasklayer_tasks.testing``, each judged by googleapiclient's full discovery documents.

    python bench/gce_stack.py

Prints, for a clean apply, a converged re-apply and a delete, the requests by method id:
reads (GET) and writes separately, operation waits counted apart; then how many requests
the full documents were asked about and how many they refuse. Last, the reads per task of a
converged re-apply of a three-zone kOps-like cluster (batched reads: one list per collection
and scope), with and without batched reads.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "generated")]

from tasklayer_tasks.runtime import CloudTarget, Executor
from testbed.gce import gce_cluster, gce_stack, gcp_context
from testbed.gcp_requests import RequestValidator


def main() -> None:
    context, fake = gcp_context(operation_polls=1)
    phases = [
        ("clean apply", lambda: Executor(CloudTarget(context)).run(gce_stack().tasks())),
        ("converged re-apply", lambda: Executor(CloudTarget(context)).run(gce_stack().tasks())),
        ("delete", lambda: Executor(CloudTarget(context)).delete(gce_stack().tasks())),
    ]
    for name, step in phases:
        since = len(fake.log)
        started = time.perf_counter()
        step()
        elapsed = time.perf_counter() - started
        log = fake.log[since:]
        waits = Counter(r.method_id for r in log if r.method_id.endswith(".wait"))
        reads = Counter(r.method_id for r in log if r.http_method == "GET")
        writes = Counter(
            r.method_id for r in log if r.http_method != "GET" and not r.method_id.endswith(".wait")
        )
        print(
            f"\n{name}: {sum(reads.values())} reads, {sum(writes.values())} writes, "
            f"{sum(waits.values())} operation waits ({elapsed:.2f}s against the fake)"
        )
        for kind, counts in (("reads", reads), ("writes", writes), ("waits", waits)):
            for op, n in sorted(counts.items()):
                print(f"  {kind:<6} {op:<44} {n}")
    judge = RequestValidator("compute")
    refused = [
        v
        for r in fake.log
        for v in judge.check(r.method_id, r.http_method, r.path, r.query, r.body)
    ]
    print(
        f"\njudged by the full compute discovery document: {judge.checked} requests, {len(refused)} refused"
    )
    for line in refused:
        print(f"  {line}")
    cluster_reads()


def cluster_reads() -> None:
    for batched in (True, False):
        context, fake = gcp_context(operation_polls=1)
        tasks = gce_cluster()
        Executor(CloudTarget(context), batched_reads=batched).run(tasks)
        since = len(fake.log)
        Executor(CloudTarget(context), batched_reads=batched).run(gce_cluster())
        log = fake.log[since:]
        reads = sum(1 for r in log if r.http_method == "GET" and not r.method_id.endswith(".wait"))
        writes = sum(1 for r in log if r.http_method != "GET")
        print(
            f"\nthree-zone cluster, converged re-apply, batched_reads={batched}: {len(tasks)} tasks, "
            f"{reads} reads ({reads / len(tasks):.2f} per task), {writes} writes"
        )


if __name__ == "__main__":
    main()
