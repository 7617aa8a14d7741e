"""The golden call sequences of tests/golden/calls/ hold on every run for the cheap suites: the
conformance sweep (every resource: checked in tests/conformance/test_sweep.py, on the sweep that
module runs anyway, so the suite sweeps once), the kOps example cluster (apply, converged re-apply,
delete), and a sample of fault-matrix cells (``SAMPLE``: every fault kind at the stack's
CreateVpc, a lost reply at the Route 53 zone's create and at the network reconciler's first
delete call, the network reconciler's gateway attachment under a reset, and three cells under
an allowance: CreateVpc under both 5xx kinds, CreateSecurityGroup under a reset; each cell takes
seconds, so the suite's 315 are not all re-recorded here). The whole matrix (minutes) is
``python -m tests.golden.record --check --suite fault-matrix``.

Each scenario must be identical to its golden sequence, a subsequence of it with fewer calls
(``shorter``), or have fewer calls with the same writes in the same order and a subset of its
reads (``fewer-reads``), or be listed in :mod:`tests.golden.allowed` and pass once its rule's
extra is set aside (``allowed``); a scenario that is none of these fails with its diff, and so
does a listed one that no longer needs its allowance (``STALE``). ``--write`` after a deliberate
change, with each shorter or different sequence explained in the commit.
"""

from __future__ import annotations

from typing import Any

from tests.golden import allowed, record

# cell id fragments: (number of cells they select)
SAMPLE = {"stack-apply-CreateVpc#1-": 5, "dns-apply-CreateHostedZone#1-lost": 1,
          "network-delete-RevokeSecurityGroupIngress#1-lost": 1,
          "network-apply-AttachInternetGateway#1-reset": 1,
          # allowed (the patient look), and the same call's 5xx-after, which is not listed
          "network-apply-CreateVpc#1-5xx": 2, "network-apply-CreateSecurityGroup#1-reset": 1}


def failures(suite: str, fresh: record.Scenarios) -> list[str]:
    golden = record.load(suite)
    assert golden, f"no golden file for {suite}: python -m tests.golden.record --write --suite {suite}"
    found = []
    for key in sorted(fresh):
        result, diff = allowed.judge(suite, key, golden.get(key), fresh[key])
        if result in record.FAILING:
            found.append("\n".join([f"{suite} {key}: {result}", *diff]))
    return found


def test_the_verdicts_tell_identical_shorter_and_different_apart() -> None:
    calls: list[dict[str, Any]] = [{"op": "DescribeVpcs", "params": {}}, {"op": "CreateVpc", "params": {"CidrBlock": "10.0.0.0/16"}},
                                   {"op": "DescribeVpcs", "params": {"VpcId.1": "<vpc-1>"}}]
    assert record.verdict(calls, list(calls))[0] == "identical"
    assert record.verdict(calls, [calls[0], calls[1]])[0] == "shorter"
    # a read moved: not a subsequence, but the same write and a subset of the reads
    assert record.verdict(calls, [calls[1], calls[0]])[0] == "fewer-reads"
    assert record.verdict(calls, [calls[1], calls[0], calls[0]])[0] == "DIFFERENT"  # as many calls
    assert record.verdict(calls, [*calls, calls[0]])[0] == "DIFFERENT"
    changed = [calls[0], {"op": "CreateVpc", "params": {"CidrBlock": "10.1.0.0/16"}}, calls[2]]
    result, diff = record.verdict(calls, changed)
    assert result == "DIFFERENT" and any("10.1.0.0/16" in d for d in diff)
    assert record.verdict(None, calls)[0] == "DIFFERENT"  # a new scenario


def test_fewer_reads_keeps_the_writes_and_takes_no_new_read() -> None:
    """``fewer-reads``: fewer calls, the same writes in the same order, a sub-multiset of the reads
    (placeholders renumbered consistently); anything else stays DIFFERENT."""
    find = {"op": "DescribeSubnets", "params": {"Filter.1.Name": "tag:Name"}}
    create = {"op": "CreateSubnet", "params": {"VpcId": "<vpc-1>"}, "fault": "lost"}
    read_a, read_b = (
        {"op": "DescribeSubnets", "params": {"SubnetId.1": f"<subnet-{n}>"}} for n in (1, 2)
    )
    nat = {"op": "CreateNatGateway", "params": {"SubnetId": "<subnet-2>"}}
    golden = [find, create, read_a, find, read_b, nat]
    # the find moved before the first by-id read, one by-id read dropped, ids renumbered (subnet-2
    # first named by a read now): the same writes, a subset of the reads
    moved = [find, create, find, {**read_a, "params": {"SubnetId.1": "<subnet-1>"}},
             {**nat, "params": {"SubnetId": "<subnet-1>"}}]
    def judged(fresh: list[dict[str, Any]]) -> str:
        return record.verdict(golden, fresh)[0]

    assert judged(moved) == "fewer-reads"
    assert judged([find, create, find, read_b, read_b, nat]) == "DIFFERENT"  # as many calls
    assert judged([find, create, find, create, nat]) == "DIFFERENT"  # a write repeated
    assert judged([find, nat, find, create]) == "DIFFERENT"  # writes reordered
    assert judged([find, find, find, create, nat]) == "DIFFERENT"  # a read more often
    narrower = {"op": "DescribeSubnets", "params": {**find["params"], "Filter.2.Name": "x"}}
    assert judged([find, create, narrower, nat]) == "DIFFERENT"  # a read never made
    assert judged([find, {**create, "fault": "5xx"}, find, nat]) == "DIFFERENT"  # another fault


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


def test_a_poll_is_compared_with_a_poll_at_its_place_never_with_singles() -> None:
    """A ``"repeats": "3+"`` entry is at least three reads, as many as the clock allowed. A fresh
    poll matches only a golden poll of the same read at the same place (between the same
    writes); against a golden single or double read there it is more calls, DIFFERENT. A golden
    poll read once or twice instead is fewer calls. The old comparison counted a poll as one
    entry anywhere in the scenario: a poll moved before a write, where the golden read twice,
    passed as fewer-reads because the golden polled after that write."""
    read = {"op": "DescribeNatGateways", "params": {"NatGatewayId.1": "<nat-1>"}}
    poll = {**read, "repeats": "3+"}
    write = {"op": "CreateRoute", "params": {"NatGatewayId": "<nat-1>"}}
    create = {"op": "CreateNatGateway", "params": {"SubnetId": "<subnet-1>"}}

    def judged(golden: list[dict[str, Any]], fresh: list[dict[str, Any]]) -> str:
        return record.verdict(golden, fresh)[0]

    # the unsound pass of the old comparison: the poll moved before the write
    assert judged([create, read, read, write, poll], [create, poll, write]) == "DIFFERENT"
    # a poll where the golden read once or twice: more calls
    assert judged([create, read, write], [create, poll, write]) == "DIFFERENT"
    assert judged([create, read, read, write], [create, poll, write]) == "DIFFERENT"
    # a poll against a poll at the same place: both timed, taken as equal
    assert judged([create, poll, write], [create, poll, write]) == "identical"
    assert judged([create, read, poll, write], [create, poll, write]) == "shorter"
    # a golden poll read once or twice: fewer calls (a poll counts as at least three)
    assert judged([create, poll, write], [create, read, write]) == "shorter"
    assert judged([create, poll, write], [create, read, read, write]) == "shorter"
    assert record.calls_made([create, poll, write]) == 5
    # fewer-reads keeps a poll at its place; single reads may move
    look = {"op": "DescribeSubnets", "params": {"SubnetId.1": "<subnet-1>"}}
    assert judged([create, look, write, poll], [look, create, write, poll]) == "DIFFERENT"  # as many
    assert judged([create, look, look, write, poll], [look, create, write, poll]) == "fewer-reads"
    assert judged([create, look, look, write, poll], [look, create, poll, write]) == "DIFFERENT"


def test_a_look_by_the_attempt_marker_may_stand_for_the_golden_look_never_the_reverse() -> None:
    """After a create whose answer was lost the engine looks by the owner's tags and the
    attempt's marker (the old reconciler looked by the owner's tags in its next pass): the same
    call, narrowed to what this attempt made. It may stand where the golden looked without the
    marker; a look without the marker where the golden had one is wider, DIFFERENT."""
    owner = {"Filter.1.Name": "tag:Name", "Filter.1.Value.1": "demo"}
    look = {"op": "DescribeVpcs", "params": owner}
    by_marker = {"op": "DescribeVpcs", "params": {
        **owner, "Filter.2.Name": "tag:tasklayer.dev/create-attempt", "Filter.2.Value.1": "<uuid-1>"}}
    create = {"op": "CreateVpc", "params": {"Tag.1.Value": "<uuid-1>"}, "fault": "lost"}
    read = {"op": "DescribeVpcs", "params": {"VpcId.1": "<vpc-1>"}}
    modify = {"op": "ModifyVpcAttribute", "params": {"VpcId": "<vpc-1>"}}
    assert record.unmarked(record.line(by_marker)) == record.line(look)
    assert record.unmarked(record.line(look)) is None
    golden = [look, create, look, read, modify]
    result, notes = record.verdict(golden, [look, create, by_marker, modify])
    assert result == "shorter" and any("marker" in n for n in notes)
    assert record.verdict(golden, [create, by_marker, look, modify])[0] == "fewer-reads"
    # the reverse: the golden looked by the marker, the fresh run without it
    assert record.verdict([look, create, by_marker, read, modify], [look, create, look, modify])[0] == "DIFFERENT"
    # a marker look is not a new read either where the golden made no such look
    other = {"op": "DescribeVpcs", "params": {"VpcId.1": "<vpc-2>"}}
    assert record.verdict([look, create, read, other, modify], [look, create, by_marker, modify])[0] == "DIFFERENT"


def test_an_allowance_sets_aside_only_the_patient_look_its_rule_names() -> None:
    """tests.golden.allowed: in a listed cell, a poll of the look by the faulted create's own
    marker, right after that create, is set aside and the rest judged as usual. The same run in
    a cell not listed, a poll by another marker, any other difference, or a listed cell that no
    longer needs it (STALE) all fail."""
    owner = {"Filter.1.Name": "tag:Name", "Filter.1.Value.1": "demo"}
    look = {"seg": "apply", "op": "DescribeVpcs", "params": owner}
    create = {"seg": "apply", "op": "CreateVpc", "params": {
        "TagSpecification.1.Tag.1.Key": "tasklayer.dev/create-attempt",
        "TagSpecification.1.Tag.1.Value": "<uuid-1>"}}
    faulted = {**create, "fault": "5xx", "status": 500}

    def by_marker(marker: str) -> dict[str, Any]:
        return {**look, "params": {**owner, "Filter.2.Name": "tag:tasklayer.dev/create-attempt",
                                   "Filter.2.Value.1": marker}, "repeats": "3+"}

    read = {"seg": "apply", "op": "DescribeVpcs", "params": {"VpcId.1": "<vpc-1>"}}
    golden = [look, faulted, look, create, read, read]
    fresh = [look, faulted, by_marker("<uuid-1>"), look, create, read]
    listed = "network-apply-CreateVpc#1-5xx"
    assert listed in allowed.ALLOWED["fault-matrix"]

    def judged(key: str, run: list[dict[str, Any]], old: list[dict[str, Any]] = golden) -> str:
        return allowed.judge("fault-matrix", key, old, run)[0]

    assert record.verdict(golden, fresh)[0] == "DIFFERENT"  # a poll where the golden made none
    assert judged(listed, fresh) == "allowed"
    assert judged("stack-apply-CreateVpc#1-5xx", fresh) == "DIFFERENT"  # not listed
    assert judged(listed, [look, faulted, by_marker("<uuid-2>"), look, create, read]) == "DIFFERENT"
    assert judged(listed, [*fresh, create]) == "DIFFERENT"  # a write more
    other = {"seg": "apply", "op": "DescribeSubnets", "params": {"VpcId.1": "<vpc-1>"}}
    assert judged(listed, [look, faulted, by_marker("<uuid-1>"), look, create, other]) == "DIFFERENT"
    # the look after another write than the faulted one is not the patient look
    assert judged(listed, [look, faulted, look, create, by_marker("<uuid-1>"), read]) == "DIFFERENT"
    assert judged(listed, [look, faulted, look, create, read]) == "STALE"  # passes without it
    # a create with no marker (a security group): a poll of the look by identity the golden
    # made once right after the same fault is its patient look; any other poll is not
    group = {"seg": "apply", "op": "CreateSecurityGroup", "params": {"GroupName": "nodes"},
             "fault": "reset"}
    named = {"seg": "apply", "op": "DescribeSecurityGroups", "params": {"Filter.1.Value.1": "nodes"}}
    made = {**group, "fault": None}
    del made["fault"]
    sg = "network-apply-CreateSecurityGroup#1-reset"
    old = [named, group, named, made, read, read]
    assert judged(sg, [named, group, {**named, "repeats": "3+"}, named, made, read], old) == "allowed"
    assert judged(sg, [named, group, {**read, "repeats": "3+"}, named, made, read], old) == "DIFFERENT"
