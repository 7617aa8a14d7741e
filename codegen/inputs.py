"""Every input of a generate, found, verified and hashed before anything is rendered.

A run is only as trustworthy as the inputs it silently skipped: a truncated schema of a service
that renders nothing, an overlay under ``overlays/AWS/`` or a dangling symlink that is never
read, an empty overlay. So each run walks the whole ``schemas/`` and ``templates/`` trees:
every pinned file must be present and match its manifest sha256, every file there must be
recorded, every overlay must be read by some pinned service and must say something. The
digests found here are also what the cache is keyed by and what the metadata file records.

Only hashlib, json and yaml are imported: a no-change run that hits the cache must stay cheap.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.errors import TasklayerError
from codegen.providers import NAMES, info
from codegen.sources.manifest import (
    FIRST_PACKAGE_VERSION,
    MANIFEST_NAME,
    read_manifest,
    read_package_version,
    read_provider_services,
)

PROVIDERS = NAMES
SDK_VERSION_KEYS = {name: info(name).manifest_key for name in NAMES}
SDK_NAMES = {name: info(name).distribution for name in NAMES}
OVERLAYS = "overlays"
RUNTIME = "runtime"


@dataclass(frozen=True)
class PinnedService:
    provider: str
    name: str
    api_version: str
    sdk_version: str  # of the SDK the schema was pinned from


@dataclass(frozen=True)
class Inputs:
    """What a generate reads, each file by its POSIX path relative to its root folder."""

    services: tuple[PinnedService, ...]
    schemas: dict[str, str]  # "aws/ec2/2016-11-15/service-2.json" -> sha256, as verified
    overlays: dict[str, str]  # "aws/ec2.yaml" -> sha256
    templates: dict[str, str]  # "kops_task.py.jinja", "runtime/kops/task.py" -> sha256
    sdk_versions: dict[str, str]  # "botocore" -> version of the provider's last pin
    package_version: str = FIRST_PACKAGE_VERSION  # the manifest's, set by `tasklayer drift --bump`

    def service(self, provider: str, name: str) -> PinnedService | None:
        return next((s for s in self.services if (s.provider, s.name) == (provider, name)), None)

    @property
    def templates_digest(self) -> str:
        return digest_of(self.templates)


def digest_of(files: dict[str, str]) -> str:
    """One sha256 over a set of (path, sha256) pairs, independent of the dict's order."""
    text = "".join(f"{path}\0{sha}\n" for path, sha in sorted(files.items()))
    return hashlib.sha256(text.encode()).hexdigest()


def collect_inputs(schemas_dir: Path, templates_dir: Path) -> Inputs:
    schemas_dir, templates_dir = Path(schemas_dir), Path(templates_dir)
    manifest = read_manifest(schemas_dir)
    if not manifest:
        raise TasklayerError(
            "no schema manifest: nothing is pinned",
            file=schemas_dir / MANIFEST_NAME,
            notes=["pin schemas first: `tasklayer schemas pin aws ec2`"],
        )
    services: list[PinnedService] = []
    schemas: dict[str, str] = {}
    sdk_versions: dict[str, str] = {}
    for provider in PROVIDERS:
        if provider not in manifest:
            continue
        entries = read_provider_services(schemas_dir, provider)
        section = manifest[provider]
        sdk_versions[SDK_NAMES[provider]] = str(section.get(SDK_VERSION_KEYS[provider], "unknown"))
        for name, entry in sorted(entries.items()):
            sdk = str(entry.get(SDK_VERSION_KEYS[provider], sdk_versions[SDK_NAMES[provider]]))
            services.append(PinnedService(provider, name, entry["api_version"], sdk))
            for file, sha in entry["files"].items():
                schemas[f"{provider}/{name}/{entry['api_version']}/{file}"] = sha
    _verify_schema_files(schemas_dir, schemas)
    _refuse_unknown_top_level(schemas_dir)
    overlays = _checked_overlays(schemas_dir, services)
    templates = _template_files(templates_dir)
    return Inputs(tuple(services), schemas, overlays, templates, sdk_versions, read_package_version(schemas_dir))


def _verify_schema_files(schemas_dir: Path, recorded: dict[str, str]) -> None:
    """Each recorded file present with its recorded sha256; nothing unrecorded beside them."""
    for relative, sha in sorted(recorded.items()):
        path = schemas_dir / relative
        provider, service = relative.split("/", 2)[:2]
        hint = f"re-run `tasklayer schemas pin {provider} {service}`"
        if not path.is_file():
            raise TasklayerError("pinned file is missing", file=path, notes=[hint])
        if file_sha256(path) != sha:
            raise TasklayerError(
                "sha256 differs from the schema manifest (file changed since it was pinned)",
                file=path,
                notes=[hint],
            )
    for provider in PROVIDERS:
        root = schemas_dir / provider
        for path in sorted(root.rglob("*")) if root.is_dir() else ():
            relative = path.relative_to(schemas_dir).as_posix()
            if any(part.startswith(".") for part in path.relative_to(root).parts):
                continue  # a pin's staging folder; pin replaces it
            if (path.is_file() or path.is_symlink()) and relative not in recorded:
                raise TasklayerError(
                    "file is not recorded in the schema manifest, so no run would read it",
                    file=path,
                    notes=["pin the service with `tasklayer schemas pin`, or remove the file"],
                )


def _refuse_unknown_top_level(schemas_dir: Path) -> None:
    known = (*PROVIDERS, OVERLAYS)
    for path in sorted(schemas_dir.iterdir()):
        if path.is_dir() and not path.name.startswith(".") and path.name not in known:
            raise TasklayerError(
                "folder is never read (schemas/ holds aws/, gcp/, overlays/ and manifest.json)",
                file=path,
                notes=_did_you_mean(path.name, known),
            )


def _checked_overlays(schemas_dir: Path, services: list[PinnedService]) -> dict[str, str]:
    root = schemas_dir / OVERLAYS
    if not root.is_dir():
        return {}
    digests: dict[str, str] = {}
    for entry in sorted(root.iterdir()):
        if entry.name.startswith(".") or (entry.is_file() and entry.suffix == ".md"):
            continue  # the format's README
        if entry.name not in PROVIDERS or not entry.is_dir():
            raise TasklayerError(
                "overlay folder is never read: overlays live in overlays/<provider>/<service>.yaml",
                file=entry,
                notes=[f"providers: {', '.join(PROVIDERS)}", *_did_you_mean(entry.name, PROVIDERS)],
            )
        pinned = sorted(s.name for s in services if s.provider == entry.name)
        for path in sorted(entry.iterdir()):
            _check_overlay_file(path, entry.name, pinned)
            digests[f"{entry.name}/{path.name}"] = file_sha256(path)
    return digests


def _check_overlay_file(path: Path, provider: str, pinned: list[str]) -> None:
    if not path.is_file():
        what = "a dangling symlink" if path.is_symlink() else "not a file"
        raise TasklayerError(f"overlay is {what}, so it would never be read", file=path)
    if path.suffix != ".yaml":
        raise TasklayerError("overlay files are named <service>.yaml; this one is never read", file=path)
    if path.stem not in pinned:
        raise TasklayerError(
            f"overlay for {provider} service {path.stem!r}, which is not pinned, so it is never read",
            file=path,
            notes=[f"pinned: {', '.join(pinned) or '(none)'}", *_did_you_mean(path.stem, pinned)],
        )
    _refuse_empty_overlay(path)


def _refuse_empty_overlay(path: Path) -> None:
    """An overlay that names nothing is a mistake (a truncated file, ``generate: []``), never a
    wish: without the file the service would be annotated by the rules alone."""
    import yaml

    try:
        data: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError):
        return  # the overlay loader reports it with the line (nesting too deep included)
    if not data:
        raise TasklayerError("overlay is empty: it names no resource", file=path,
                             notes=["delete the file if the rules alone are right for this service"])
    if isinstance(data, dict) and "generate" in data and not data["generate"]:
        raise TasklayerError(
            "`generate` is empty: the service would render nothing",
            file=path,
            pointer="generate",
            notes=["list the resources to render, or delete the key (then nothing is rendered, and generate says so)"],
        )


def _template_files(templates_dir: Path) -> dict[str, str]:
    if not templates_dir.is_dir():
        raise TasklayerError("templates folder is missing", file=templates_dir)
    runtime = templates_dir / RUNTIME
    if not runtime.is_dir() or not any(runtime.glob("*.py")):
        raise TasklayerError(
            "the runtime sources are missing: the package would ship without its runtime",
            file=runtime,
        )
    return {
        path.relative_to(templates_dir).as_posix(): file_sha256(path)
        for path in sorted(templates_dir.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


def file_sha256(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as err:
        raise TasklayerError(f"cannot read: {err.strerror}", file=path) from None


def _did_you_mean(name: str, known: Any) -> list[str]:
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.5)
    close += [k for k in known if k.casefold() == name.casefold() and k not in close]
    return [f"did you mean: {', '.join(close)}"] if close else []
