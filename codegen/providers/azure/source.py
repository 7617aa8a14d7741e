"""Azure schemas: Swagger 2.0 files of Azure/azure-rest-api-specs, pinned one by one.

The specs repository is far too large to vendor or install, and no SDK ships its documents,
so each file is copied byte for byte from the repository and recorded in the manifest's
``azure`` section: the service's ``files`` (name -> sha256, as for every provider) and its
``sources`` (name -> the file's ``path`` in the repository and the ``commit`` it was read at).
The section names the ``repository`` and its ``licence``. Loading reads only the pinned copies:
each file's sha256 is checked on the very bytes parsed, then strict JSON, then every ``$ref``
is resolved inside the pinned set, then each document goes through openapi-spec-validator's
Swagger 2.0 validator (``specs.py``). Files come from different commits (the index holds one
stored version of each), which ``sources`` records file by file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.errors import TasklayerError, json_pointer
from codegen.providers.azure.specs import Document, Specs, validate
from codegen.sources.manifest import (
    manifest_path,
    read_manifest,
    read_provider_services,
    sha256_hex,
)
from codegen.sources.strict_json import decode_json

PROVIDER = "azure"
REPOSITORY = "Azure/azure-rest-api-specs"
LICENCE = "MIT"  # the repository's LICENSE
_COMMIT = re.compile(r"[0-9a-f]{40}")
_REPO_PATH = re.compile(r"specification/[A-Za-z0-9._/-]+\.json")


@dataclass(frozen=True)
class AzureSource:
    """One service's pinned documents, checked and validated: the input of the rules."""

    service: str  # "network"
    api_version: str  # "2024-05-01"
    specs: Specs
    files: tuple[Path, ...]  # the files read, for provenance and error messages


def pinned_services(schemas_dir: Path) -> list[str]:
    return sorted(read_provider_services(Path(schemas_dir), PROVIDER))


def load_pinned(schemas_dir: Path, service: str) -> AzureSource:
    """Load a pinned service from ``schemas_dir/azure`` only, checked against the manifest."""
    schemas_dir = Path(schemas_dir)
    services = read_provider_services(schemas_dir, PROVIDER)
    manifest = manifest_path(schemas_dir)
    if service not in services:
        raise TasklayerError(
            f"Azure service {service!r} is not pinned",
            file=manifest,
            notes=[f"pinned: {', '.join(sorted(services)) or '(none)'}"],
        )
    _check_section(read_manifest(schemas_dir)[PROVIDER], manifest)
    entry = services[service]
    sources = _sources(entry, manifest, json_pointer(PROVIDER, "services", service))
    folder = schemas_dir / PROVIDER / service / entry["api_version"]
    documents = {}
    for name, sha in sorted(entry["files"].items()):
        path = folder / name
        payload = _read(path)
        if sha256_hex(payload) != sha:
            raise TasklayerError(
                "sha256 differs from the schema manifest (file changed since it was pinned)",
                file=path,
                notes=[f"copy it again from {REPOSITORY} {sources[name]}"],
            )
        data = decode_json(payload, path)
        _check_document(data, path, entry["api_version"])
        documents[sources[name]] = Document(sources[name], path, data)
    specs = Specs(documents)
    specs.check_refs()
    validate(specs)
    return AzureSource(
        service, entry["api_version"], specs, tuple(d.file for d in documents.values())
    )


def _check_section(section: dict[str, Any], manifest: Path) -> None:
    for key, expected in (("repository", REPOSITORY), ("licence", LICENCE)):
        if section.get(key) != expected:
            raise TasklayerError(
                f"expected {expected!r} (where every Azure file is copied from, and its licence)",
                file=manifest,
                pointer=json_pointer(PROVIDER, key),
            )


def _sources(entry: dict[str, Any], manifest: Path, pointer: str) -> dict[str, str]:
    """file name -> repository path, each with a commit; one source per pinned file."""
    sources = entry.get("sources")
    if not isinstance(sources, dict) or sorted(sources) != sorted(entry["files"]):
        raise TasklayerError(
            "expected one source {path, commit} for each pinned file",
            file=manifest,
            pointer=pointer + "/sources",
        )
    out = {}
    for name, source in sources.items():
        where = f"{pointer}/sources{json_pointer(name)}"
        if not isinstance(source, dict) or set(source) != {"path", "commit"}:
            raise TasklayerError("expected {path, commit}", file=manifest, pointer=where)
        if not isinstance(source["commit"], str) or not _COMMIT.fullmatch(source["commit"]):
            raise TasklayerError(
                "expected a 40-hex commit", file=manifest, pointer=where + "/commit"
            )
        path = source["path"]
        if not isinstance(path, str) or not _REPO_PATH.fullmatch(path) or ".." in path:
            raise TasklayerError(
                "expected a path under specification/ ending .json",
                file=manifest,
                pointer=where + "/path",
            )
        if path.rsplit("/", 1)[1] != name and not name.endswith("." + path.rsplit("/", 1)[1]):
            raise TasklayerError(
                f"pinned as {name!r}, but the repository file is {path.rsplit('/', 1)[1]!r}",
                file=manifest,
                pointer=where + "/path",
            )
        out[name] = path
    if len(set(out.values())) != len(out):
        raise TasklayerError(
            "two pinned files name the same repository path",
            file=manifest,
            pointer=pointer + "/sources",
        )
    return out


def _check_document(data: Any, path: Path, api_version: str) -> None:
    """A Swagger 2.0 object; one with operations is of the service's api-version."""
    if not isinstance(data, dict):
        raise TasklayerError("expected a JSON object", file=path, pointer="")
    if data.get("swagger") != "2.0":
        raise TasklayerError(
            f"not a Swagger 2.0 document (swagger: {data.get('swagger')!r})",
            file=path,
            pointer="/swagger",
        )
    info = data.get("info")
    version = info.get("version") if isinstance(info, dict) else None
    if data.get("paths") and version != api_version:
        raise TasklayerError(
            f"document is api-version {version!r}, the manifest says {api_version!r}",
            file=path,
            pointer="/info/version",
        )


def _read(path: Path) -> bytes:
    if not path.is_file():
        raise TasklayerError("pinned file is missing", file=path)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise TasklayerError(f"cannot read schema file: {exc}", file=path) from None
