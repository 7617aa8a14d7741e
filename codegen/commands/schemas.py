"""``tasklayer schemas pin`` and ``schemas list``: what is pinned, what the SDKs have, and
what a pin changed, per file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from codegen.console import Console
from codegen.errors import TasklayerError
from codegen.providers import NAMES, info
from codegen.sources.manifest import read_manifest

_ORDER = ["new", "updated", "removed", "unchanged"]


def run(args: argparse.Namespace, console: Console) -> int:
    if args.schemas_command == "list":
        return _list(args.schemas)
    if args.check:
        return _check(args, console)
    if not args.services:
        raise TasklayerError(
            f"name the services to pin: `tasklayer schemas pin {args.provider} <service>...`"
        )
    return _pin(args, console)


def _pin(args: argparse.Namespace, console: Console) -> int:
    before = _pinned_files(args.schemas, args.provider)
    from codegen.providers.registry import PROVIDERS

    PROVIDERS[args.provider].pin(args.services, args.schemas, args.sdk_data)
    after = _pinned_files(args.schemas, args.provider)
    touched = {
        path
        for path in after
        if path.split("/")[1] in {n.replace(":", ".").split(".")[0] for n in args.services}
    }
    before = {
        p: v
        for p, v in before.items()
        if p in touched or p.split("/")[1] in {t.split("/")[1] for t in touched}
    }
    after = {p: v for p, v in after.items() if p in touched}
    counts: dict[str, int] = {}
    for line, kind in per_file_changes(before, after):
        counts[kind] = counts.get(kind, 0) + 1
        (console.info if kind != "unchanged" else console.detail)(line)
    console.info(
        ", ".join(
            f"{n} {kind}" for kind, n in sorted(counts.items(), key=lambda kv: _ORDER.index(kv[0]))
        )
        + f" ({args.schemas / 'manifest.json'})"
    )
    return 0


def _pinned_files(schemas: Path, provider: str) -> dict[str, tuple[str, str]]:
    """ "aws/ec2/service-2.json" -> (sha256, "2016-11-15 from botocore 1.43.11")."""
    section = read_manifest(schemas).get(provider, {})
    out = {}
    for name, entry in section.get("services", {}).items():
        key = info(provider).manifest_key
        sdk = entry.get(key, section.get(key, "?"))
        for file, sha in entry.get("files", {}).items():
            out[f"{provider}/{name}/{file}"] = (
                sha,
                f"{entry.get('api_version')} from {info(provider).distribution} {sdk}",
            )
    return out


def per_file_changes(
    before: dict[str, tuple[str, str]], after: dict[str, tuple[str, str]]
) -> list[tuple[str, str]]:
    lines = []
    for path in sorted(before.keys() | after.keys()):
        if path not in before:
            lines.append((f"new        {path} ({after[path][1]})", "new"))
        elif path not in after:
            lines.append((f"removed    {path} (was {before[path][1]})", "removed"))
        elif before[path][0] != after[path][0]:
            lines.append((f"updated    {path} ({before[path][1]} -> {after[path][1]})", "updated"))
        else:
            lines.append((f"unchanged  {path} ({after[path][1]})", "unchanged"))
    return lines


def _check(args: argparse.Namespace, console: Console) -> int:
    """Exit 1 when the SDK has a schema that differs from the pin (a newer one, usually)."""
    rows = _compare_with_sdk(args.schemas, args.provider, args.services, args.sdk_data)
    stale = [r for r in rows if r["state"] != "current"]  # newer, older, differs, unpinned
    for r in rows:
        where = f"{args.provider}/{r['service']}"
        line = f"{r['state']:<9} {where}: pinned {r['pinned']}, SDK has {r['sdk']}"
        (console.info if r["state"] != "current" else console.detail)(line)
    if stale:
        console.info(
            f"{len(stale)} of {len(rows)} pins differ from the SDK; "
            f"`tasklayer schemas pin {args.provider} {' '.join(r['service'] for r in stale)}` "
            "updates them"
        )
        return 1
    console.info(f"all {len(rows)} {args.provider} pins match the SDK")
    return 0


def _compare_with_sdk(
    schemas: Path, provider: str, services: list[str] | None, sdk_data: Path | None
) -> list[dict[str, Any]]:
    from codegen.providers.registry import PROVIDERS

    section = read_manifest(schemas).get(provider, {})
    pinned = section.get("services", {})
    facts = info(provider)
    rows = []
    for name in services or sorted(pinned):
        entry = pinned.get(name)
        digests, sdk = PROVIDERS[provider].sdk_files(name, sdk_data)
        if entry is None:
            state, where = "unpinned", "-"
        else:
            sdk_of_pin = entry.get(facts.manifest_key, section.get(facts.manifest_key, "?"))
            where = (
                f"{entry['api_version']}"
                f"{' rev ' + entry['revision'] if 'revision' in entry else ''}"
                f" from {facts.distribution} {sdk_of_pin}"
            )
            state = (
                "current"
                if digests == entry.get("files")
                else _direction(sdk_of_pin, sdk.rsplit(" ", 1)[1])
            )
        rows.append({"service": name, "state": state, "pinned": where, "sdk": sdk})
    return rows


def _direction(pinned: str, sdk: str) -> str:
    """ "newer" when the SDK's version is above the pin's; a differing file from the same or an
    older SDK is "differs" / "older"."""
    try:
        from packaging.version import InvalidVersion, Version

        if Version(sdk) > Version(pinned):
            return "newer"
        return "older" if Version(sdk) < Version(pinned) else "differs"
    except (ImportError, InvalidVersion):
        return "differs"


def _list(schemas: Path) -> int:
    """Pinned services beside what the installed SDKs hold: a table, or nothing to add."""
    from codegen.commands.annotations import installed_names

    manifest = read_manifest(schemas)
    for provider in NAMES:
        pinned = manifest.get(provider, {}).get("services", {})
        available = [n for n in installed_names(provider) if "." not in n]
        print(f"{provider}: {len(pinned)} pinned, {len(available)} available in the installed SDK")
        rows = _compare_with_sdk(schemas, provider, None, None)
        for r in rows:
            print(f"  {r['service']:<14} {r['state']:<8} pinned {r['pinned']}; SDK has {r['sdk']}")
    return 0
