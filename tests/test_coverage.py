"""``annotations --all`` says per provider how many resources are complete, generated and swept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen.coverage import coverage, coverage_line
from codegen.errors import TasklayerError
from codegen.model import Identity, Operation, Operations, Resource, Service


def _service() -> Service:
    whole = Operations(create=Operation("CreateA", "create"), read=Operation("GetA", "read"),
                       delete=Operation("DeleteA", "delete"))
    resources = (
        Resource(name="A", api_name="A", shape="A", fields=(), identity=Identity(primary=("Id",)), operations=whole),
        Resource(name="B", api_name="B", shape="B", fields=(), identity=Identity(), operations=whole),
    )
    return Service(provider="aws", name="toy", api_version="1", resources=resources)


def test_without_a_report_it_says_not_swept(tmp_path: Path) -> None:
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated/tasklayer-generate-metadata.json").write_text(json.dumps(
        {"services": [{"provider": "aws", "rendered": ["A", "C"]}, {"provider": "gcp", "rendered": ["X"]}]}))
    c = coverage("aws", [_service()], tmp_path)
    assert (c["resources"], c["complete"], c["generated"], c["swept_passing"]) == (2, 1, 2, None)
    assert "not swept" in coverage_line(c) and "1 complete" in coverage_line(c)


def test_a_report_gives_swept_and_passing(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports/conformance.json").write_text(json.dumps({"aws": {"toy": {
        "A": {"status": "pass", "step": None, "reason": None},
        "B": {"status": "fail", "step": "delete", "reason": "still there"},
        "C": {"status": "skipped", "step": None, "reason": "moto lacks it"}}}}))
    c = coverage("aws", [_service()], tmp_path)
    assert (c["swept"], c["swept_passing"], c["generated"]) == (2, 1, None)
    assert "1 swept-passing of 2 swept" in coverage_line(c)


def test_a_malformed_report_names_the_file_and_place(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports/conformance.json").write_text(json.dumps({"aws": {"toy": {"A": {"status": "ok"}}}}))
    with pytest.raises(TasklayerError) as error:
        coverage("aws", [_service()], tmp_path)
    assert "/aws/toy/A/status" in str(error.value) and "conformance.json" in str(error.value)
