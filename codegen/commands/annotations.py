"""``tasklayer annotations``: what the rules and overlays decided, as JSON or tables."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codegen.console import Console, print_json
from codegen.names import unpinned_service_error
from codegen.providers import info

if TYPE_CHECKING:
    from codegen.model import Service


def run(args: argparse.Namespace, console: Console) -> int:
    from codegen.dump import corpus_summary, service_document, service_table
    from codegen.render.capability import runtime_service

    services = (
        _corpus(args, console) if args.all else _pinned(args.provider, args.schemas, args.service)
    )
    # as the runtime acts on them: a class it cannot honour shows degraded, with the reason
    services = [runtime_service(s) for s in services]
    if args.resource:
        services = only_resources(services, args.resource)
    if args.json:
        docs = [service_document(s, args.detail) for s in services]
        one = not args.all and args.service is not None and len(args.service) == 1
        print_json(docs[0] if one else docs)
        return 0
    if not args.all:
        print("\n\n".join(service_table(s) for s in services))
        print()
    noun = info(args.provider).corpus_noun if args.all else "services"
    print(summary_line(corpus_summary(services), noun))
    if args.all:
        from codegen.checkout import find_root
        from codegen.coverage import coverage, coverage_line

        root = (
            Path(args.schemas).resolve().parent
            if args.schemas is not None
            else find_root(Path.cwd())
        )
        print(coverage_line(coverage(args.provider, services, root)))
    return 0


def _pinned(provider: str, schemas: Path, names: list[str] | None) -> list[Service]:
    from codegen.pipeline import annotated

    pinned = _pinned_names(provider, schemas)
    for name in names or []:
        if name not in pinned:
            raise unpinned_service_error(name, [(provider, n) for n in pinned], provider)
    return [annotated(schemas, provider, name) for name in names or pinned]


def only_resources(services: list[Service], names: list[str]) -> list[Service]:
    """Each service with only the ``names`` resources; a service that has none of them is left
    out. A name no service has is an error with a guess (``VPC`` -> ``Vpc``)."""
    from dataclasses import replace

    from codegen.names import unknown_name_error

    known = [r.name for s in services for r in s.resources]
    for name in names:
        if name not in known:
            where = ", ".join(f"{s.provider}/{s.name}" for s in services)
            raise unknown_name_error("resource", name, known, notes=[f"in {where}"])
    kept = [
        replace(s, resources=tuple(r for r in s.resources if r.name in names)) for s in services
    ]
    return [s for s in kept if s.resources]


def _pinned_names(provider: str, schemas: Path) -> list[str]:
    from codegen.providers.registry import PROVIDERS

    return PROVIDERS[provider].pinned_services(schemas)


def installed_names(provider: str) -> list[str]:
    from codegen.providers.registry import PROVIDERS

    return PROVIDERS[provider].installed_names()


def _corpus(args: argparse.Namespace, console: Console) -> list[Service]:
    """Every installed service (``--service`` narrows): a crash here is a rule bug worth a
    report."""
    from codegen.pipeline import annotate
    from codegen.providers.registry import PROVIDERS

    cloud = PROVIDERS[args.provider]
    names = cloud.corpus(args.service or [])
    services = []
    for i, name in enumerate(names, 1):
        services.append(annotate(args.provider, cloud.load_installed(name)))
        console.progress("annotating", i, len(names), name)
    return services


def summary_line(summary: Mapping[str, Any], noun: str = "services") -> str:
    return (
        f"{summary['services']} {noun}, {summary['resources']} resources, {summary['fields']} "
        "fields, "
        f"{summary['unknown_fields']} unknown ({summary['unknown_fraction']:.2%})"
    )
