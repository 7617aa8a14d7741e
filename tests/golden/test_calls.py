"""The golden call sequences of tests/golden/calls/ hold on every run for the cheap suites: the
conformance sweep (every resource: checked in tests/conformance/test_sweep.py, on the sweep that
module runs anyway, so the suite sweeps once), the kOps example cluster (apply, converged re-apply,
delete), and a sample of fault-matrix cells (``SAMPLE``: every fault kind at the stack's
CreateVpc, a lost reply at the Route 53 zone's create and at the network reconciler's first
delete call; each cell takes seconds, so the suite's 252 are not all re-recorded here). The whole
matrix (315 cells, tens of minutes) is ``python -m tests.golden.record --check --suite fault-matrix``.

Each scenario must be identical to its golden sequence or a subsequence of it with fewer calls
(``shorter``); a scenario that is neither fails with its diff. ``--write`` after a deliberate
change, with each shorter or different sequence explained in the commit.
"""

from __future__ import annotations

from typing import Any

from tests.golden import record

# cell id fragments: (number of cells they select)
SAMPLE = {"stack-apply-CreateVpc#1-": 5, "dns-apply-CreateHostedZone#1-lost": 1,
          "network-delete-RevokeSecurityGroupIngress#1-lost": 1}


def failures(suite: str, fresh: record.Scenarios) -> list[str]:
    golden = record.load(suite)
    assert golden, f"no golden file for {suite}: python -m tests.golden.record --write --suite {suite}"
    found = []
    for key in sorted(fresh):
        result, diff = record.verdict(golden.get(key), fresh[key])
        if result == "DIFFERENT":
            found.append("\n".join([f"{suite} {key}: DIFFERENT", *diff]))
    return found


def test_the_verdicts_tell_identical_shorter_and_different_apart() -> None:
    calls: list[dict[str, Any]] = [{"op": "DescribeVpcs", "params": {}}, {"op": "CreateVpc", "params": {"CidrBlock": "10.0.0.0/16"}},
                                   {"op": "DescribeVpcs", "params": {"VpcId.1": "<vpc-1>"}}]
    assert record.verdict(calls, list(calls))[0] == "identical"
    assert record.verdict(calls, [calls[0], calls[1]])[0] == "shorter"
    assert record.verdict(calls, [calls[1], calls[0]])[0] == "DIFFERENT"
    assert record.verdict(calls, [*calls, calls[0]])[0] == "DIFFERENT"
    changed = [calls[0], {"op": "CreateVpc", "params": {"CidrBlock": "10.1.0.0/16"}}, calls[2]]
    result, diff = record.verdict(calls, changed)
    assert result == "DIFFERENT" and any("10.1.0.0/16" in d for d in diff)
    assert record.verdict(None, calls)[0] == "DIFFERENT"  # a new scenario


def test_the_kops_example_cluster_makes_its_golden_calls() -> None:
    fresh = record.record_kops(say=lambda _: None)
    assert set(fresh) == {"kops-apply", "kops-re-apply", "kops-delete"}
    assert failures("kops", fresh) == []


def test_fault_matrix_cells_make_their_golden_calls() -> None:
    fresh = record.record_fault_matrix(tuple(SAMPLE), say=lambda _: None)
    for fragment, n in SAMPLE.items():
        found = [k for k in fresh if fragment in k]
        assert len(found) == n, f"{fragment}: {n} cells expected, found {found}"
    assert failures("fault-matrix", fresh) == []
