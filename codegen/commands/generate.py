"""``tasklayer generate``: write (or ``--check``) generated/, then say what happened."""

from __future__ import annotations

import argparse
import difflib
import time
from pathlib import Path

from codegen.build import GenerateOptions, Outcome, default_cache_dir
from codegen.build import run as build
from codegen.console import Console


def run(args: argparse.Namespace, console: Console, root: Path) -> int:
    started = time.perf_counter()
    check = args.check or args.diff  # a diff is a question about the output, never a write over it
    options = GenerateOptions(
        schemas=args.schemas,
        templates=args.templates,
        output=args.output,
        check=check,
        force=args.force,
        allow_drop=args.allow_drop,
        services=args.service,
        cache_dir=None if args.no_cache else (args.cache_dir or default_cache_dir(root)),
        progress=lambda item, done, total: console.progress("generating", done, total, item),
    )
    outcome = build(options)
    elapsed = time.perf_counter() - started
    how = f"{elapsed:.1f}s{', from cache' if outcome.cached else ''}"
    _say_unrendered(outcome, console)
    result = outcome.result
    if check:
        if result.stale:
            console.warn(f"{args.output} is stale:\n{result.report()}")
            if args.diff:
                print(unified_diff(args.output, outcome.files, result), end="")
            console.warn(f"{args.output} is stale; run `tasklayer generate`")
            return 1
        console.info(f"{args.output} is up to date ({how})")
        return 0
    written = len(outcome.files) + 1  # + the marker
    console.info(
        f"{args.output}: {written} files; {len(result.missing)} new, {len(result.differing)} "
        "changed, "
        f"{len(result.extra)} removed ({how})"
    )
    for kind, paths in (
        ("new", result.missing),
        ("changed", result.differing),
        ("removed", result.extra),
    ):
        for path in paths:
            console.detail(f"  {kind:<8} {path}")
    if result.unexpected:
        verb = "removed (--force)" if args.force else "kept; `generate --force` removes them"
        console.warn(
            f"{len(result.unexpected)} file(s) in {args.output} that no generate wrote, {verb}:\n"
            + "\n".join(f"  {p}" for p in result.unexpected)
        )
    return 0


def _say_unrendered(outcome: Outcome, console: Console) -> None:
    left_out = outcome.not_generated
    if left_out:
        count = sum(len(v) for v in left_out.values())
        listed = ", -v lists them" if console.verbosity < 1 else ""
        console.info(
            f"{count} resources not generated (`generate: all` selects complete "
            f"annotations{listed})"
        )
        for service, reasons in left_out.items():
            for resource, why in reasons.items():
                console.detail(f"  {service} {resource}: {why}")
    if not outcome.unrendered:
        return
    console.info(f"nothing rendered for {', '.join(outcome.unrendered)} (-v says why)")
    for service, why in outcome.unrendered.items():
        console.detail(f"  {service}: {why}")


def unified_diff(output: Path, files: dict[str, str], result) -> str:  # type: ignore[no-untyped-def]
    """What ``generate`` would change, as ``git diff`` shows it (a/ on disk, b/ produced)."""
    chunks: list[str] = []
    for path in sorted([*result.missing, *result.differing, *result.extra, *result.unexpected]):
        old = _read(output / path)
        new = files.get(path, "") if path in files else ""
        chunks.extend(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=f"a/{path}" if (output / path).exists() else "/dev/null",
                tofile=f"b/{path}" if path in files else "/dev/null",
            )
        )
    return "".join(
        c if c.endswith("\n") else c + "\n\\ No newline at end of file\n" for c in chunks
    )


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
