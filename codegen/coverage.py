"""How far the toolkit gets per provider: resources annotated, complete (identity, create, read,
delete), generated (the checkout's ``generated/`` metadata) and passing the conformance sweep
(``reports/conformance.json``, written by the sweep). Shown by ``tasklayer annotations --all``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from codegen.errors import TasklayerError
from codegen.model import Service
from codegen.selection import missing_parts

METADATA = Path("generated") / "tasklayer-generate-metadata.json"
CONFORMANCE = Path("reports") / "conformance.json"


def coverage(provider: str, services: Sequence[Service], root: Path | None) -> dict[str, Any]:
    """``generated`` / ``swept_*`` are None when the checkout has no metadata / no report."""
    resources = [r for s in services for r in s.resources]
    out: dict[str, Any] = {
        "provider": provider,
        "resources": len(resources),
        "complete": sum(1 for r in resources if not missing_parts(r)),
        "generated": None,
        "swept": None,
        "swept_passing": None,
    }
    if root is not None and (root / METADATA).is_file():
        out["generated"] = _generated(root / METADATA, provider)
    if root is not None and (root / CONFORMANCE).is_file():
        statuses = _statuses(root / CONFORMANCE, provider)
        out["swept"] = sum(1 for s in statuses if s != "skipped")
        out["swept_passing"] = sum(1 for s in statuses if s == "pass")
    return out


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise TasklayerError(f"cannot read it: {err}", file=path) from None


def _generated(path: Path, provider: str) -> int:
    services = _read_json(path).get("services", [])
    return sum(len(s.get("rendered", ())) for s in services if s.get("provider") == provider)


def _statuses(path: Path, provider: str) -> list[str]:
    report = _read_json(path)
    section = report.get(provider, {}) if isinstance(report, dict) else None
    if not isinstance(section, dict):
        raise TasklayerError(
            f"expected an object per provider, then per service, then per resource; "
            f"got {type(section).__name__}",
            file=path,
            pointer=f"/{provider}",
        )
    out = []
    for service, resources in section.items():
        for name, row in (resources or {}).items():
            status = row.get("status") if isinstance(row, dict) else None
            if status not in ("pass", "fail", "skipped"):
                raise TasklayerError(
                    f"status must be pass, fail or skipped, got {status!r}",
                    file=path,
                    pointer=f"/{provider}/{service}/{name}/status",
                )
            out.append(status)
    return out


def coverage_line(c: dict[str, Any]) -> str:
    generated = (
        "not generated here (no generated/ metadata)"
        if c["generated"] is None
        else f"{c['generated']} generated"
    )
    if c["swept"] is None:
        swept = "not swept (no reports/conformance.json)"
    else:
        swept = f"{c['swept_passing']} swept-passing of {c['swept']} swept"
    return (
        f"{c['provider']}: {c['resources']} resources, {c['complete']} complete (identity, "
        "create, read, delete), "
        f"{generated}, {swept}"
    )
