"""The fault campaign as a matrix (not a test; the same cells as
tests/behaviour/test_fault_campaign.py, from the same harness).

    python bench/fault_matrix.py                        # the suite's cells, and 5xx before forwarding
    python bench/fault_matrix.py --workload network --phase apply --kind lost 5xx-after
    python bench/fault_matrix.py --match CreateVpc
    python bench/fault_matrix.py --kind lost --times 3  # the retries within a pass are lost too

One row per cell (``<workload>-<phase>-<Action>#<occurrence>-<fault>``): converged (passes
needed), duplicates, missing, resources not owned by the cluster, writes on the re-apply
after convergence, what the delete left; then totals, the cells failing each check, and the
wall time. Exit status 1 when any cell fails.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "generated")]

from testbed.campaign import (
    PHASES,
    WORKLOADS,
    Lab,
    Outcome,
    cells,
    no_sdk_backoff,
    run_cell,
)
from testbed.proxy import FaultKind

CHECKS = (
    "not converged",
    "duplicates",
    "missing",
    "not owned",
    "writes on re-apply",
    "re-apply failed",
    "left after delete",
    "delete did not finish",
    "the fault never fired",
    "setup",
)


def _short(counts: dict[str, int], width: int = 18) -> str:
    text = ",".join(f"{k}+{n}" if n > 0 else f"{k}{n}" for k, n in sorted(counts.items())) or "-"
    return text if len(text) <= width else f"{sum(counts.values())} in {len(counts)} kinds"


def row(outcome: Outcome) -> str:
    converged = (
        f"yes({outcome.drive.passes})" if outcome.converged else f"NO({outcome.drive.passes})"
    )
    leaks = _short(outcome.leaks) if outcome.delete_done else "FAILED " + _short(outcome.leaks, 12)
    reapply = "FAILED" if outcome.reapply_error else _short(outcome.reapply_writes)
    return (
        f"{str(outcome.cell):<58} {converged:<8} {_short(outcome.duplicates):<18} {_short(outcome.missing):<18} "
        f"{sum(outcome.unowned.values()):>7} {reapply:<24} {leaks:<20} {outcome.seconds:5.2f}s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workload", choices=list(WORKLOADS), nargs="*")
    parser.add_argument("--phase", choices=PHASES, nargs="*")
    parser.add_argument("--kind", choices=[k.value for k in FaultKind], nargs="*")
    parser.add_argument("--match", default="", help="only cells whose id contains this")
    parser.add_argument(
        "--times",
        type=int,
        default=1,
        help="fault this many consecutive requests of the action (retries meet it too)",
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    lab = Lab().start()
    try:
        kinds = tuple(FaultKind(k) for k in args.kind) if args.kind else tuple(FaultKind)
        chosen = [
            c
            for c in cells(lab, kinds, args.times)
            if (not args.workload or c.workload in args.workload)
            and (not args.phase or c.phase in args.phase)
            and args.match in str(c)
        ]
        print(
            f"{'cell':<58} {'converged':<8} {'duplicates':<18} {'missing':<18} {'unowned':>7} "
            f"{'writes on re-apply':<24} {'left after delete':<20} {'time':>6}"
        )
        outcomes = []
        with no_sdk_backoff():
            for cell in chosen:
                outcomes.append(run_cell(lab, cell))
                print(row(outcomes[-1]), flush=True)
    finally:
        lab.stop()
    summarize(outcomes, time.perf_counter() - started)
    return 0 if all(o.ok for o in outcomes) else 1


def summarize(outcomes: list[Outcome], seconds: float) -> None:
    ok = sum(o.ok for o in outcomes)
    print(
        f"\n{len(outcomes)} cells: {ok} pass, {len(outcomes) - ok} fail; "
        f"converged {sum(o.converged for o in outcomes)}, with duplicates {sum(bool(o.duplicates) for o in outcomes)}, "
        f"with leaks after delete {sum(bool(o.leaks) for o in outcomes)}, "
        f"with writes on re-apply {sum(bool(o.reapply_writes) for o in outcomes)}"
    )
    failing: Counter[str] = Counter()
    for outcome in outcomes:
        for problem in outcome.problems():
            failing[next((c for c in CHECKS if problem.startswith(c)), problem)] += 1
    for check, n in failing.most_common():
        print(f"  {n:>4} cells: {check}")
    by_kind = Counter((o.cell.fault.kind.value, o.ok) for o in outcomes)
    print(
        "  by fault: "
        + ", ".join(
            f"{k.value} {by_kind[(k.value, True)]}/{by_kind[(k.value, True)] + by_kind[(k.value, False)]}"
            for k in FaultKind
        )
    )
    print(f"wall time {seconds:.1f}s (moto_server start, clean runs and {len(outcomes)} cells)")


if __name__ == "__main__":
    sys.exit(main())
