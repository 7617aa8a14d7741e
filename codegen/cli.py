"""The ``tasklayer`` command: ``schemas pin``, ``annotations``, ``generate``.

Bad input ends with the file, the place in it and the reason on stderr and exit status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from codegen.errors import TasklayerError

EXIT_BAD_INPUT = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tasklayer", description=__doc__.splitlines()[0])
    parser.add_argument("--schemas", type=Path, default=Path("schemas"), help="pinned schemas folder (default: ./schemas)")
    sub = parser.add_subparsers(dest="command", required=True)

    schemas = sub.add_parser("schemas", help="manage pinned schemas")
    schemas_sub = schemas.add_subparsers(dest="schemas_command", required=True)
    pin = schemas_sub.add_parser("pin", help="copy the newest API version of services from the installed SDK into schemas/")
    pin.add_argument("provider", choices=["aws", "gcp"])
    pin.add_argument("services", nargs="+", help="botocore service names; GCP API names, optionally with a version (dns.v1)")

    ann = sub.add_parser("annotations", help="print what the annotator decided")
    ann.add_argument("--provider", choices=["aws", "gcp"], default="aws")
    ann.add_argument("--service", action="append", help="service to annotate (repeatable; default: every pinned one)")
    ann.add_argument("--json", action="store_true", help="one JSON document per service (a JSON array with --all)")
    ann.add_argument("--all", action="store_true", help="every service of the installed SDK (every discovery document for gcp), not only pinned ones")
    ann.add_argument("--detail", action="store_true", help="add references, names, types and provenance to the JSON")

    gen = sub.add_parser("generate", help="render the pinned services' tasks into generated/")
    gen.add_argument("--check", action="store_true", help="write nothing; exit 1 when generated/ is stale")
    gen.add_argument("--output", type=Path, default=Path("generated"), help="where to write (default: ./generated)")
    gen.add_argument("--templates", type=Path, default=Path("templates"), help="templates folder (default: ./templates)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "schemas":
            return _pin(args)
        if args.command == "annotations":
            return _annotations(args)
        return _generate(args)
    except TasklayerError as err:
        print(f"tasklayer: {err.level}: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _pin(args: argparse.Namespace) -> int:
    if args.provider == "gcp":
        from codegen.sources.gcp import pin
    else:
        from codegen.sources.aws import pin

    for path in pin(args.services, args.schemas):
        print(f"pinned {path}")
    return 0


def _annotations(args: argparse.Namespace) -> int:
    from codegen.dump import corpus_summary, service_document, service_table

    if args.all:
        return _annotate_gcp_corpus(args) if args.provider == "gcp" else _annotate_corpus(args)
    annotate = _annotate_gcp_pinned if args.provider == "gcp" else _annotate_pinned
    services = annotate(args.schemas, args.service)
    if args.json:
        docs = [service_document(s, args.detail) for s in services]
        print("\n".join(json.dumps(d, indent=2) for d in docs))
    else:
        print("\n\n".join(service_table(s) for s in services))
        print("\n" + _summary_line(corpus_summary(services)))
    return 0


def _annotate_pinned(schemas: Path, names: list[str] | None) -> list:
    from codegen.pipeline import annotate_aws
    from codegen.sources.aws import load_pinned, pinned_services

    return [annotate_aws(load_pinned(schemas, name), schemas) for name in names or pinned_services(schemas)]


def _annotate_gcp_pinned(schemas: Path, names: list[str] | None) -> list:
    from codegen.pipeline import annotate_gcp
    from codegen.sources.gcp import load_pinned, pinned_services

    return [annotate_gcp(load_pinned(schemas, name), schemas) for name in names or pinned_services(schemas)]


def _annotate_gcp_corpus(args: argparse.Namespace) -> int:
    """Run the GCP rules over every installed discovery document (``--service compute`` picks
    every version of an API, ``--service compute.v1`` one document)."""
    from codegen.pipeline import annotate_gcp
    from codegen.dump import corpus_summary, service_document
    from codegen.sources.gcp import installed_documents, load_installed

    stems = installed_documents()
    wanted = args.service or []
    if wanted:
        stems = [s for w in wanted for s in stems if s == w or s.split(".", 1)[0] == w] or wanted
    services = []
    for i, stem in enumerate(stems, 1):
        services.append(annotate_gcp(load_installed(stem)))
        if not args.json and sys.stderr.isatty():
            print(f"\r[{i}/{len(stems)}] {stem:<40}", end="", file=sys.stderr)
    if args.json:
        print(json.dumps([service_document(s, args.detail) for s in services], indent=2))
    else:
        print(_summary_line(corpus_summary(services), noun="discovery documents"))
    return 0


def _annotate_corpus(args: argparse.Namespace) -> int:
    """Run the rules over every installed service: a crash here is a rule bug worth a report."""
    from codegen.pipeline import annotate_aws
    from codegen.dump import corpus_summary, service_document
    from codegen.sources.aws import installed_services, load_installed

    names = args.service or installed_services()
    services = []
    for i, name in enumerate(names, 1):
        services.append(annotate_aws(load_installed(name)))
        if not args.json and sys.stderr.isatty():
            print(f"\r[{i}/{len(names)}] {name:<40}", end="", file=sys.stderr)
    if args.json:
        print(json.dumps([service_document(s, args.detail) for s in services], indent=2))
    else:
        print(_summary_line(corpus_summary(services)))
    return 0


def _summary_line(summary: dict, noun: str = "services") -> str:
    return (
        f"{summary['services']} {noun}, {summary['resources']} resources, {summary['fields']} fields, "
        f"{summary['unknown_fields']} unknown ({summary['unknown_fraction']:.2%})"
    )


def _generate(args: argparse.Namespace) -> int:
    """Render the pinned, annotated services into ``generated/`` (or compare, with --check)."""
    import time

    from codegen.generate import generate

    started = time.perf_counter()
    result = generate(args.schemas, args.templates, args.output, check=args.check)
    elapsed = time.perf_counter() - started
    if args.check:
        if result.stale:
            print(result.report(), file=sys.stderr)
            print(f"tasklayer: {args.output} is stale; run `tasklayer generate`", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date ({elapsed:.1f}s)")
        return 0
    print(f"wrote {args.output} ({elapsed:.1f}s)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
