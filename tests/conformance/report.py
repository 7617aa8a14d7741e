"""The committed report: ``reports/conformance.json`` (read by ``tasklayer annotations --all``
for swept-passing counts: keep its shape) and ``reports/conformance.md`` (a table per service).

JSON: ``{"aws": {service: {Resource: {"status", "step", "reason"}}}, "gcp": {...}}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from .cycle import Outcome

CAUSES = Path(__file__).resolve().parent / "causes.yaml"

PROVIDERS = ("aws", "gcp")
Results = dict[str, dict[str, dict[str, Outcome]]]  # provider -> service -> resource -> outcome


def causes(path: Path = CAUSES) -> dict[str, tuple[str, str]]:
    """provider/service/Resource -> (step, diagnosed cause)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {key: (entry["step"], " ".join(entry["cause"].split())) for key, entry in data.items()}


def gaps(path: Path = CAUSES) -> set[str]:
    """The causes that are the fake's gap, not the generated code's (``gap: moto``): a failure
    at their step is reported ``skipped``, as for an action the fake lacks."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {key for key, entry in data.items() if entry.get("gap")}


def judged(provider: str, service: str, name: str, o: Outcome, known: dict[str, tuple[str, str]], gap: set[str]) -> Outcome:
    """``o``, skipped when it fails at the step of a diagnosed gap of the fake."""
    key = f"{provider}/{service}/{name}"
    step, _ = known.get(key, (None, None))
    if o.status == "fail" and o.step == step and key in gap:
        o.status = "skipped"
    return o


def _reason(provider: str, service: str, name: str, o: Outcome, known: dict[str, tuple[str, str]]) -> str | None:
    step, cause = known.get(f"{provider}/{service}/{name}", (None, None))
    if o.status in ("fail", "skipped") and o.step == step and cause:
        return f"{o.reason}. Cause: {cause}"
    return o.reason


def as_json(results: Results) -> dict[str, Any]:
    known = causes()
    return {
        provider: {
            service: {
                name: {"status": o.status, "step": o.step, "reason": _reason(provider, service, name, o, known)}
                for name, o in sorted(resources.items())
            }
            for service, resources in sorted(results.get(provider, {}).items())
        }
        for provider in PROVIDERS
    }


def merged(old: dict[str, Any], new: dict[str, Any], full: bool) -> dict[str, Any]:
    """A partial sweep (some services or resources) updates only what it swept."""
    if full:
        return new
    out = {p: {s: dict(r) for s, r in old.get(p, {}).items()} for p in PROVIDERS}
    for provider, services in new.items():
        for service, resources in services.items():
            out[provider].setdefault(service, {}).update(resources)
    return {p: {s: dict(sorted(r.items())) for s, r in sorted(out[p].items())} for p in PROVIDERS}


def regressions(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Resources that passed in ``old`` and were swept in ``new`` without passing."""
    out = []
    for provider, services in old.items():
        for service, resources in services.items():
            for name, entry in resources.items():
                now = new.get(provider, {}).get(service, {}).get(name)
                if entry.get("status") == "pass" and now is not None and now["status"] != "pass":
                    out.append(f"{provider}/{service}/{name}: {now['step']}: {now['reason']}")
    return out


def counts(report: dict[str, Any]) -> dict[str, dict[str, dict[str, int]]]:
    return {
        provider: {
            service: {
                status: sum(1 for e in resources.values() if e["status"] == status)
                for status in ("pass", "fail", "skipped")
            }
            for service, resources in services.items()
        }
        for provider, services in report.items()
    }


def markdown(report: dict[str, Any], results: Results, header: list[str]) -> str:
    """Tables per service; a pass lists what the cycle could not check (from this run)."""
    lines = ["# Conformance sweep", "", *header, ""]
    lines += ["| provider | service | pass | fail | skipped |", "|---|---|---|---|---|"]
    for provider, services in counts(report).items():
        for service, n in services.items():
            lines.append(f"| {provider} | {service} | {n['pass']} | {n['fail']} | {n['skipped']} |")
    for provider, services in report.items():
        for service, resources in services.items():
            lines += ["", f"## {provider} / {service}", "", "| resource | result | step | reason |"]
            lines.append("|---|---|---|---|")
            for name, entry in resources.items():
                outcome = results.get(provider, {}).get(service, {}).get(name)
                reason = entry["reason"] or ""
                if entry["status"] == "pass" and outcome is not None:
                    changed = sorted(outcome.evidence.get("changes", {}))
                    refused = outcome.evidence.get("create-only", {}).get("field")
                    parts = [f"changed: {', '.join(changed) or 'none'}"]
                    parts += [f"create-only refused: {refused}"] if refused else []
                    parts += ["unchecked: " + "; ".join(outcome.notes)] if outcome.notes else []
                    reason = ". ".join(parts)
                step = entry["step"] or ""
                lines.append(f"| {name} | {entry['status']} | {step} | {_cell(reason)} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {p: {} for p in PROVIDERS}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {p: data.get(p, {}) for p in PROVIDERS}
