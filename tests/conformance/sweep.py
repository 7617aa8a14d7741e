"""The conformance sweep over every generated resource.

    python -m tests.conformance.sweep                    # everything; writes reports/conformance.*
    python -m tests.conformance.sweep --service ec2 -v   # one service (the report keeps the rest)
    python -m tests.conformance.sweep --check            # exit 1 when a resource that passed fails
    python -m tests.conformance.sweep --generated /tmp/other/generated --reports /tmp/r

AWS resources run on moto in-process (one mock per service); GCP resources on the fake of
``tasklayer_tasks.testing``, every request judged by the full discovery documents. Exit 2 on bad
input (an unknown service, a values file that is not what the sweep reads).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.conformance.sweep", description=__doc__.split("\n")[0])
    parser.add_argument("--provider", choices=("aws", "gcp"), action="append", help="only this cloud (repeatable)")
    parser.add_argument("--service", action="append", help="only these services (repeatable)")
    parser.add_argument("--resource", action="append", help="only these resources (repeatable)")
    parser.add_argument("--generated", type=Path, default=ROOT / "generated", help="the generated package to sweep")
    parser.add_argument("--reports", type=Path, default=ROOT / "reports", help="where conformance.json and .md are")
    parser.add_argument("--check", action="store_true", help="compare with the report; write nothing")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per resource")
    return parser.parse_args(argv)


def sweep(args: argparse.Namespace, say: Any = print) -> dict[str, dict[str, dict[str, Any]]]:
    """provider -> service -> resource -> Outcome, for what ``args`` selects."""
    from . import report
    from .blueprint import Builder
    from .clouds import AwsCloud, GcpCloud
    from .cycle import Cycle, Outcome
    from .resources import generated

    services = set(args.service) if args.service else None
    results: dict[str, dict[str, dict[str, Any]]] = {}
    seen: set[str] = set()
    for provider in args.provider or ("aws", "gcp"):
        everything, broken = generated(provider)  # parents may be another service's
        broken = {s: p for s, p in broken.items() if not services or s in services}
        index = {s: r for s, r in everything.items() if not services or s in services}
        seen |= set(index) | set(broken)
        for service, problem in broken.items():
            say(f"{provider}/{service}: does not import: {problem}")
            results.setdefault(provider, {})[service] = {"(import)": Outcome("fail", "import", problem)}
        gcp = GcpCloud(_documents(everything)) if provider == "gcp" and index else None
        for service, resources in index.items():
            chosen = [r for n, r in sorted(resources.items()) if not args.resource or n in args.resource]
            if not chosen:
                continue
            cloud = gcp or AwsCloud()
            known, gap = report.causes(), report.gaps()
            with cloud.mock():
                builder = Builder(cloud, everything)
                for resource in chosen:
                    cloud.begin(f"{provider}/{service}/{resource.name}")
                    outcome = Cycle(cloud, builder, resource).run()
                    outcome = report.judged(provider, service, resource.name, outcome, known, gap)
                    results.setdefault(provider, {}).setdefault(service, {})[resource.name] = outcome
                    if args.verbose:
                        where = f" at {outcome.step}: {outcome.reason}" if outcome.step else ""
                        say(f"{provider}/{service}/{resource.name}: {outcome.status}{where} ({outcome.seconds:.2f}s)")
    if services and services - seen:
        raise BadSelection(f"not generated: {', '.join(sorted(services - seen))} (see generated/tasklayer_tasks)")
    return results


class BadSelection(Exception):
    """A service asked for that is not generated."""


def _documents(index: dict[str, Any]) -> dict[str, Path]:
    out = {}
    for service, resources in index.items():
        module = importlib.import_module(next(iter(resources.values())).task.__module__)
        out[service] = Path(module.__file__).resolve().parent / "discovery.json"  # type: ignore[arg-type]
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    sys.path.insert(0, str(args.generated.resolve()))
    from . import report
    from .values import ValuesFileError

    started = time.perf_counter()
    try:
        results = sweep(args)
    except (ValuesFileError, BadSelection) as err:
        print(f"sweep: error: {err}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    json_path, md_path = args.reports / "conformance.json", args.reports / "conformance.md"
    old = report.load(json_path)
    new = report.as_json(results)
    full = not (args.service or args.resource or args.provider)
    combined = report.merged(old, new, full)
    for provider, services in report.counts(new).items():
        for service, n in services.items():
            print(f"{provider}/{service}: {n['pass']} pass, {n['fail']} fail, {n['skipped']} skipped")
    total = {s: sum(n[s] for p in report.counts(new).values() for n in p.values()) for s in ("pass", "fail", "skipped")}
    print(f"swept {sum(total.values())} resources in {seconds:.1f}s: {total['pass']} pass, "
          f"{total['fail']} fail, {total['skipped']} skipped")
    lost = report.regressions(old, new)
    if args.check:
        for line in lost:
            print(f"regressed: {line}")
        return 1 if lost else 0
    args.reports.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(combined, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    md_path.write_text(report.markdown(combined), encoding="utf-8")
    for line in lost:
        print(f"regressed: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
