"""The committed report: ``reports/conformance.json`` (read by ``tasklayer annotations --all``
for swept-passing counts: keep its shape) and ``reports/conformance.md`` (a table per service).

JSON: ``{"aws": {service: {Resource: {"status", "step", "reason"}}}, "gcp": {...}}``; a pass's
reason is what its cycle proved (fields changed, the create-only change refused, what it could
not check), so the markdown is rendered from the JSON alone.
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
    """Why it failed or was skipped (with the diagnosed cause); for a pass, what it proved."""
    if o.status == "pass":
        return _proved(o)
    step, cause = known.get(f"{provider}/{service}/{name}", (None, None))
    if o.status in ("fail", "skipped") and o.step == step and cause:
        return f"{o.reason}. Cause: {cause}"
    return o.reason


def _proved(o: Outcome) -> str:
    """A pass's fields changed, the create-only change refused, and what it could not check.
    Kept in the JSON so a partial sweep can render every other row as the last run left it."""
    changed = sorted(o.evidence.get("changes", {}))
    refused = o.evidence.get("create-only", {}).get("field")
    parts = [f"changed: {', '.join(changed) or 'none'}"]
    parts += [f"create-only refused: {refused}"] if refused else []
    parts += ["unchecked: " + "; ".join(o.notes)] if o.notes else []
    return ". ".join(parts)


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


def markdown(report: dict[str, Any]) -> str:
    """Tables per service, from the report alone: the same report always renders the same bytes,
    so a partial sweep leaves every row it did not sweep as it was."""
    n = {s: sum(c[s] for p in counts(report).values() for c in p.values()) for s in ("pass", "fail", "skipped")}
    lines = ["# Conformance sweep", "",
             f"{sum(n.values())} resources: {n['pass']} pass, {n['fail']} fail, {n['skipped']} skipped. "
             "`python -m tests.conformance.sweep` writes this file; with `--service` or `--resource` it "
             "rewrites only the rows it swept.", ""]
    lines += ["| provider | service | pass | fail | skipped |", "|---|---|---|---|---|"]
    for provider, services in counts(report).items():
        for service, c in services.items():
            lines.append(f"| {provider} | {service} | {c['pass']} | {c['fail']} | {c['skipped']} |")
    for provider, services in report.items():
        for service, resources in services.items():
            lines += ["", f"## {provider} / {service}", "", "| resource | result | step | reason |"]
            lines.append("|---|---|---|---|")
            for name, entry in resources.items():
                lines.append(f"| {name} | {entry['status']} | {entry['step'] or ''} | {_cell(entry['reason'] or '')} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {p: {} for p in PROVIDERS}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {p: data.get(p, {}) for p in PROVIDERS}
