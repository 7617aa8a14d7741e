"""``tasklayer drift``: annotate the previous pins (a git revision, or a schemas folder) and
the current ones, and report what changed for consumers (markdown, or ``--json``)."""

from __future__ import annotations

import argparse
import subprocess
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

from codegen.console import Console, print_json
from codegen.errors import TasklayerError
from codegen.providers import NAMES, info
from codegen.sources.manifest import read_manifest, read_package_version, write_package_version

if TYPE_CHECKING:
    from codegen.model import Service


def run(args: argparse.Namespace, console: Console, root: Path) -> int:
    """The report; the suggested version follows from the base's recorded one, so a second
    ``--bump`` against the same base records the same version again."""
    from codegen.drift import compare, markdown

    with tempfile.TemporaryDirectory(prefix="tasklayer-drift-") as tmp:
        base = _base_schemas(args.base, Path(args.schemas), Path(tmp))
        _check_selection(args.service, [base, Path(args.schemas)])
        old = _annotated(base, args.service, console, "annotating base")
        new = _annotated(Path(args.schemas), args.service, console, "annotating current")
        report = compare(
            old, new, (_labels(base), _labels(Path(args.schemas))), read_package_version(base)
        )
    if args.bump:
        write_package_version(Path(args.schemas), report.next_version)
    if args.json:
        print_json(report.to_json())
    else:
        print(markdown(report), end="")
    if args.bump and not args.json:  # the JSON report says it as suggested_version
        console.info(
            f"recorded package version {report.next_version} in schemas/manifest.json; `generate` "
            "writes it"
        )
    return 0


def _base_schemas(base: str, schemas: Path, tmp: Path) -> Path:
    """A schemas folder as given, or ``schemas/`` at a git revision, extracted to ``tmp``."""
    if Path(base).is_dir():
        return Path(base)
    try:
        prefix = _git(schemas, "rev-parse", "--show-prefix").decode().strip()
        archive = _git(schemas, "archive", "--format=tar", base, "--", ".")
    except (OSError, subprocess.CalledProcessError) as err:
        detail = (
            err.stderr.decode(errors="replace").strip()
            if isinstance(err, subprocess.CalledProcessError)
            else err
        )
        raise TasklayerError(
            f"--base {base!r} is neither a folder nor a git revision of {schemas}: {detail}"
        ) from None
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(tmp / "schemas", filter="data")
    if not prefix:
        raise TasklayerError(
            f"{schemas} is the root of its git repository; pass --base DIR instead"
        )
    return tmp / "schemas"


def _git(schemas: Path, *argv: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(schemas), *argv], check=True, capture_output=True
    ).stdout


def _check_selection(only: list[str] | None, folders: list[Path]) -> None:
    """Each ``--service`` must be pinned on one side at least (a service the new pins drop is a
    fair question): a name pinned nowhere would otherwise select nothing and report no change."""
    from codegen.names import unpinned_service_error

    manifests = [read_manifest(folder) for folder in folders]
    pinned = sorted(
        {
            (p, n)
            for manifest in manifests
            for p in NAMES
            for n in manifest.get(p, {}).get("services", {})
        }
    )
    for name in only or []:
        if not any(name in (n, f"{p}/{n}") for p, n in pinned):
            raise unpinned_service_error(name, pinned)


def _annotated(
    schemas: Path, only: list[str] | None, console: Console, label: str
) -> list[tuple[Service, frozenset[str]]]:
    from codegen.pipeline import annotated_with_selection

    manifest = read_manifest(schemas)
    wanted = [
        (p, n)
        for p in NAMES
        for n in sorted(manifest.get(p, {}).get("services", {}))
        if not only or n in only or f"{p}/{n}" in only
    ]
    out = []
    for i, (provider, name) in enumerate(wanted, 1):
        service, chosen = annotated_with_selection(schemas, provider, name)
        out.append((service, frozenset(chosen)))
        console.progress(label, i, len(wanted), f"{provider}/{name}")
    return out


def _labels(schemas: Path) -> dict[str, str]:
    manifest = read_manifest(schemas)
    labels = {}
    for provider in NAMES:
        sdk, key = info(provider).distribution, info(provider).manifest_key
        section = manifest.get(provider, {})
        for name, entry in section.get("services", {}).items():
            revision = f" rev {entry['revision']}" if "revision" in entry else ""
            labels[f"{provider}/{name}"] = (
                f"{entry['api_version']}{revision} ({sdk} {entry.get(key, section.get(key))})"
            )
    return labels
