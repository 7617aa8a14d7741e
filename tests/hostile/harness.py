"""Build a throw-away ``schemas/`` folder for one corpus case and run ``tasklayer generate`` on it.

A case is the bytes of the schema files and overlay as they would be committed; the manifest
is written to match them (so a case fails for what it contains, not for a stale sha256).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.cli import main
from codegen.sources.manifest import sha256_hex
from tests.test_rules_gcp import toy_document
from tests.toy_model import TOY

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
SERVICE = "toy"
AWS_VERSION = "2020-01-01"
AWS_OVERLAY = "generate: [Widget]\n"
GCP_OVERLAY = "generate: [Widget]\n"
WAITERS: dict[str, Any] = {
    "version": 2,
    "waiters": {
        "WidgetAvailable": {
            "operation": "DescribeWidgets", "delay": 5, "maxAttempts": 40,
            "acceptors": [
                {"matcher": "pathAll", "argument": "Widgets[].State", "expected": "available", "state": "success"},
                {"matcher": "pathAny", "argument": "Widgets[].State", "expected": "failed", "state": "failure"},
            ],
        }
    },
}
PAGINATORS: dict[str, Any] = {
    "pagination": {"DescribeWidgets": {"input_token": "NextToken", "output_token": "NextToken", "result_key": "Widgets"}}
}


@dataclass(frozen=True)
class Case:
    """One input: the provider, the schema files (name -> bytes) and the overlay text."""

    name: str
    provider: str  # "aws" | "gcp"
    files: dict[str, bytes]
    overlay: str | bytes | None
    slot: str = ""  # where the payload or the damage is, for messages


def aws_files(model: Any = None, waiters: Any = None, paginators: Any = None) -> dict[str, bytes]:
    return {
        "service-2.json": _json(copy.deepcopy(TOY) if model is None else model),
        "waiters-2.json": _json(copy.deepcopy(WAITERS) if waiters is None else waiters),
        "paginators-1.json": _json(copy.deepcopy(PAGINATORS) if paginators is None else paginators),
    }


def gcp_files(document: Any = None) -> dict[str, bytes]:
    return {"discovery.json": _json(copy.deepcopy(toy_document()) if document is None else document)}


def _json(data: Any) -> bytes:
    return data if isinstance(data, bytes) else json.dumps(data, indent=1).encode("utf-8")


def write_schemas(case: Case, root: Path) -> Path:
    """``root/schemas`` holding the case, with a manifest that matches its bytes."""
    schemas = root / "schemas"
    version = AWS_VERSION if case.provider == "aws" else "v1"
    folder = schemas / case.provider / SERVICE / version
    folder.mkdir(parents=True)
    for name, payload in case.files.items():
        (folder / name).write_bytes(payload)
    entry: dict[str, Any] = {"api_version": version, "files": {n: sha256_hex(p) for n, p in case.files.items()}}
    if case.provider == "gcp":
        entry["revision"] = "20240101"
    (schemas / "manifest.json").write_text(json.dumps({case.provider: {"services": {SERVICE: entry}}}))
    if case.overlay is not None:
        overlay = schemas / "overlays" / case.provider / f"{SERVICE}.yaml"
        overlay.parent.mkdir(parents=True)
        payload = case.overlay if isinstance(case.overlay, bytes) else case.overlay.encode("utf-8")
        overlay.write_bytes(payload)
    return schemas


@dataclass(frozen=True)
class Outcome:
    code: int
    stderr: str
    output: Path


def generate(case: Case, root: Path) -> Outcome:
    """``tasklayer generate`` on the case, in this process, into ``root/generated``."""
    schemas = write_schemas(case, root)
    out = root / "generated"
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["--schemas", str(schemas), "generate", "--output", str(out), "--templates", str(TEMPLATES)])
    return Outcome(code, err.getvalue(), out)


Mutation = Callable[[dict[str, Any]], None]
