"""The conformance sweep as a test: every generated resource through its cycle, no resource that
passed in the committed report (``reports/conformance.json``) failing now, the report covering
every generated resource, and each passing cycle's evidence holding the invariants on its own
(re-apply writes nothing, each change is exactly its routed call, a create-only change is
refused with no write, delete is its delete call, then the resource is gone)."""

from __future__ import annotations

import argparse
import dataclasses
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.conformance import report
from tests.conformance.blueprint import Builder
from tests.conformance.clouds import AwsCloud
from tests.conformance.cycle import Cycle, Outcome, delete_writes_ok, routed_writes
from tests.conformance.resources import Resource, generated
from tests.conformance.sweep import ROOT, sweep
from tests.conformance.values import Values, ValuesFileError
from tests.golden import record as golden

REPORT = ROOT / "reports" / "conformance.json"


def with_spec(task: type, name: str, spec: Any) -> type:
    """The generated task over another spec: its core too (the generated core names its own)."""
    from tasklayer_tasks.runtime.wiring.aws import aws_core

    return type(name, (task,), {"spec": spec, "core": lambda self, context: aws_core(context, spec)})


@pytest.fixture(scope="module")
def recorded() -> golden.Raw:
    """The calls of the module's one sweep, per resource (tests/golden)."""
    return {}


@pytest.fixture(scope="module")
def results(recorded: golden.Raw) -> dict[str, dict[str, dict[str, Outcome]]]:
    args = argparse.Namespace(provider=None, service=None, resource=None, verbose=False)
    with golden.recording_clouds(recorded):
        return sweep(args, say=lambda _: None)


def test_every_resource_makes_its_golden_calls(results: Any, recorded: golden.Raw) -> None:
    """tests/golden/calls/conformance.json: each resource's calls identical to its golden
    sequence, or a subsequence of it with fewer calls (issue 21, item 5)."""
    fresh = golden.shaped(recorded)
    committed = golden.load("conformance")
    assert committed and set(fresh) >= set(committed), "a swept resource is no longer swept"
    different = []
    for key in sorted(fresh):
        verdict, diff = golden.verdict(committed.get(key), fresh[key])
        if verdict == "DIFFERENT":
            different.append("\n".join([f"{key}: DIFFERENT", *diff]))
    assert different == []


def outcomes(results: dict[str, dict[str, dict[str, Outcome]]]) -> list[tuple[str, str, str, Outcome]]:
    return [(p, s, n, o) for p, services in results.items() for s, rs in services.items() for n, o in rs.items()]


def test_no_resource_regresses_from_pass(results: Any) -> None:
    assert report.regressions(report.load(REPORT), report.as_json(results)) == []


def test_the_report_covers_every_generated_resource(results: Any) -> None:
    committed = report.load(REPORT)
    swept = {(p, s, n) for p, s, n, _ in outcomes(results)}
    listed = {(p, s, n) for p, services in committed.items() for s, rs in services.items() for n in rs}
    assert swept - listed == set(), "run `python -m tests.conformance.sweep` and commit reports/"
    assert len(swept) >= 20


def test_every_passing_cycle_holds_the_invariants(results: Any) -> None:
    index = {p: generated(p)[0] for p in ("aws", "gcp")}
    passed = [(p, s, n, o) for p, s, n, o in outcomes(results) if o.status == "pass"]
    assert passed
    for provider, service, name, outcome in passed:
        spec = index[provider][service][name].spec
        evidence = outcome.evidence
        assert evidence["apply"][spec.create.operation] == 1, name
        assert evidence["re-apply"] == {}, name
        for attr, writes in evidence["changes"].items():
            f = next(f for f in spec.fields if f.attr == attr)
            assert writes == dict(routed_writes(spec, f)), (name, attr)
        if "create-only" in evidence:
            assert evidence["create-only"]["writes"] == {}, name
        assert delete_writes_ok(spec, evidence["delete"]), name
        assert evidence["gone"] is True, name


def test_a_misrouted_update_fails_its_change_step(results: Any) -> None:
    """The sweep is not a rubber stamp: a Vpc whose EnableDnsHostnames is routed to another
    call than the one that changes it fails at that field's change."""
    index = generated("aws")[0]
    vpc = index["ec2"]["Vpc"]
    wrong = tuple(
        dataclasses.replace(f, update_operation="ModifyVpcTenancy") if f.name == "EnableDnsHostnames" else f
        for f in vpc.spec.fields
    )
    task = with_spec(vpc.task, "MisroutedVpc", dataclasses.replace(vpc.spec, fields=wrong))
    cloud = AwsCloud()
    with cloud.mock():
        resource = Resource("aws", "ec2", "Vpc", task, vpc.module)
        outcome = Cycle(cloud, Builder(cloud, index), resource).run()
    assert (outcome.status, outcome.step) == ("fail", "change enable_dns_hostnames")


def test_a_create_only_field_read_as_mutable_is_caught(results: Any) -> None:
    """A Subnet whose CidrBlock the annotation wrongly called mutable (routed to
    ModifySubnetAttribute) is not refused before the call: its change step fails."""
    index = generated("aws")[0]
    subnet = index["ec2"]["Subnet"]
    wrong = tuple(
        dataclasses.replace(f, mutability=type(f.mutability)("mutable"), update_operation="ModifySubnetAttribute")
        if f.name == "CidrBlock" else f
        for f in subnet.spec.fields
    )
    task = with_spec(subnet.task, "LaxSubnet", dataclasses.replace(subnet.spec, fields=wrong))
    cloud = AwsCloud()
    with cloud.mock():
        outcome = Cycle(cloud, Builder(cloud, index), Resource("aws", "ec2", "Subnet", task, subnet.module)).run()
    assert (outcome.status, outcome.step) == ("fail", "change cidr_block")


@pytest.mark.parametrize("text, says", [
    ("values: {Policy: {values: ['{}']}}", "exactly 'why' and 'values'"),
    ("values: {Policy: {why: a document, values: []}}", "non-empty list"),
    ("set: {CidrBlock: needed}", "Resource.Member"),
    ("other: 1", "'set' and/or 'values'"),
    ("values: [", "not YAML"),
])
def test_a_bad_values_file_is_named_with_its_entry(tmp_path: Path, text: str, says: str) -> None:
    (tmp_path / "aws").mkdir()
    (tmp_path / "aws" / "ec2.yaml").write_text(text)
    with pytest.raises(ValuesFileError, match=says) as err:
        Values.load("aws", "ec2", tmp_path)
    assert "ec2.yaml" in str(err.value)


def test_the_values_files_parse_and_say_why() -> None:
    for path in sorted((ROOT / "tests" / "conformance" / "values").glob("*/*.yaml")):
        values = Values.load(path.parent.name, path.stem)
        assert values.entries or values.also_set, path


def test_counts_add_up(results: Any) -> None:
    n = report.counts(report.as_json(results))
    assert sum(c["pass"] + c["fail"] + c["skipped"] for p in n.values() for c in p.values()) == len(outcomes(results))
    assert Counter(o.status for *_, o in outcomes(results))["pass"] >= 1


def test_a_partial_sweep_keeps_every_other_row(tmp_path: Path) -> None:
    """``--service ec2 --resource Subnet`` rewrites Subnet's row (and the counts it is part of);
    every other row of the committed report, a pass's details too, stays byte for byte."""
    from tests.conformance.sweep import main

    committed = ROOT / "reports"
    shutil.copytree(committed, tmp_path / "reports")
    assert main(["--service", "ec2", "--resource", "Subnet", "--reports", str(tmp_path / "reports")]) == 0
    before = (committed / "conformance.md").read_text(encoding="utf-8").splitlines()
    after = (tmp_path / "reports" / "conformance.md").read_text(encoding="utf-8").splitlines()
    swept = [i for i, line in enumerate(after) if line.startswith(("| Subnet |", "| aws | ec2 |"))]
    assert len(after) == len(before) > 300 and len(swept) == 2
    header = after.index("| provider | service | pass | fail | skipped |") - 2  # the totals
    kept = [i for i in range(len(after)) if i not in swept and i != header]
    assert [after[i] for i in kept] == [before[i] for i in kept]
    old, new = report.load(committed / "conformance.json"), report.load(tmp_path / "reports" / "conformance.json")
    new["aws"]["ec2"].pop("Subnet")
    assert old["aws"]["ec2"].pop("Subnet") and new == old
