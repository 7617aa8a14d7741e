"""GCP schemas: pin the discovery documents google-api-python-client ships into ``schemas/gcp``
and load them back.

Generation reads only the pinned copies (``schemas/gcp/<api>/<version>/discovery.json``), so
output depends on what is committed, not on the googleapiclient that happens to be installed.
The documents are the ones in ``googleapiclient/discovery_cache/documents`` — the same bytes
``googleapiclient.discovery.build`` uses offline — copied verbatim; the manifest records the
googleapiclient version, the document's ``revision`` and its sha256. Loading checks the sha256 on
the very bytes it parses, then the document's structure (``gcp_validate``).
"""

from __future__ import annotations

import difflib
import functools
import importlib.metadata
import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from googleapiclient import discovery_cache  # type: ignore[import-untyped]

from codegen.errors import TasklayerError
from codegen.providers.gcp.validate import check_document
from codegen.sources.manifest import (
    manifest_path,
    read_provider_services,
    sha256_hex,
    write_provider_section,
)
from codegen.sources.strict_json import decode_json

PROVIDER = "gcp"
DOCUMENT_FILE = "discovery.json"
_INSTALLED_ROOT = Path(discovery_cache.DISCOVERY_DOC_DIR)
_DIRECTORY_FILE = "index.json"  # Google's directory list: which version of each API is preferred


@dataclass(frozen=True)
class GcpSource:
    """One discovery document as loaded from its file: the input of the model stage."""

    api: str  # the document's ``name``: "compute"
    version: str  # the document's ``version``: "v1"
    revision: str  # the document's ``revision``: "20261106"
    document: Mapping[str, Any]
    files: tuple[Path, ...]  # the file read, for provenance and error messages


def googleapiclient_version() -> str:
    return importlib.metadata.version("google-api-python-client")


def installed_documents() -> list[str]:
    """Every discovery document installed with googleapiclient, as ``<api>.<version>`` file
    stems (``compute.v1``, ``admin.directoryv1``), sorted."""
    return list(_installed_stems())


def pin(apis: list[str], schemas_dir: Path) -> list[Path]:
    """Copy installed discovery documents into ``schemas_dir/gcp`` and record them in the
    manifest; returns the files written, the manifest last. ``apis`` are ``compute`` (Google's
    preferred version) or ``compute.v1`` / ``compute:v1``."""
    schemas_dir = Path(schemas_dir)
    chosen = dict(_resolve(a) for a in apis)
    entries = read_provider_services(schemas_dir, PROVIDER, missing_ok=True)
    written: list[Path] = []
    for api, stem in chosen.items():
        path = _INSTALLED_ROOT / f"{stem}.json"
        payload = _read_bytes(path)
        doc = _decode(payload, path)
        written.append(_replace_api_folder(schemas_dir / PROVIDER / api, doc["version"], payload))
        entries[api] = {
            "api_version": doc["version"],
            "revision": doc["revision"],
            "googleapiclient_version": googleapiclient_version(),
            "files": {DOCUMENT_FILE: sha256_hex(payload)},
        }
    section = {"googleapiclient_version": googleapiclient_version(), "services": entries}
    written.append(write_provider_section(schemas_dir, PROVIDER, section))
    return written


def sdk_document(spec: str) -> tuple[str, dict[str, Any], bytes]:
    """What a pin of ``spec`` would write: the API name, the decoded document, its bytes."""
    api, stem = _resolve(spec)
    path = _INSTALLED_ROOT / f"{stem}.json"
    payload = _read_bytes(path)
    return api, _decode(payload, path), payload


def pinned_services(schemas_dir: Path) -> list[str]:
    """The APIs recorded in the manifest's gcp section, sorted."""
    return sorted(read_provider_services(Path(schemas_dir), PROVIDER))


def load_pinned(schemas_dir: Path, api: str) -> GcpSource:
    """Load a pinned API from ``schemas_dir/gcp`` only, checked against the manifest; never falls
    back to the installed googleapiclient."""
    schemas_dir = Path(schemas_dir)
    services = read_provider_services(schemas_dir, PROVIDER)
    if api not in services:
        raise TasklayerError(
            f"GCP API {api!r} is not pinned",
            file=manifest_path(schemas_dir),
            notes=[
                f"pin it with `tasklayer schemas pin {PROVIDER} {api}`",
                f"pinned: {', '.join(sorted(services)) or '(none)'}",
            ],
        )
    entry = services[api]
    path = schemas_dir / PROVIDER / api / entry["api_version"] / DOCUMENT_FILE
    expected = entry["files"].get(DOCUMENT_FILE)
    if not path.is_file():
        raise TasklayerError("pinned file is missing", file=path, notes=[_repin_hint(api)])
    payload = _read_bytes(path)
    if expected != sha256_hex(payload):
        reason = (
            "file is not recorded in the schema manifest"
            if expected is None
            else "sha256 differs from the schema manifest (file changed since it was pinned)"
        )
        raise TasklayerError(reason, file=path, notes=[_repin_hint(api)])
    doc = _decode(payload, path)
    if (doc["name"], doc["version"]) != (api, entry["api_version"]):
        raise TasklayerError(
            f"document is {doc['name']} {doc['version']}, the manifest says {api} "
            f"{entry['api_version']}",
            file=path,
            pointer="/name",
            notes=[_repin_hint(api)],
        )
    return _source(doc, path)


def load_installed(stem: str) -> GcpSource:
    """Load one installed document by file stem (``compute.v1``): the whole-corpus runs."""
    if stem not in _installed_stems():
        raise _unknown(stem)
    path = _INSTALLED_ROOT / f"{stem}.json"
    return _source(_decode(_read_bytes(path), path), path)


def _source(doc: dict[str, Any], path: Path) -> GcpSource:
    return GcpSource(doc["name"], doc["version"], doc["revision"], doc, (path,))


def _decode(payload: bytes, path: Path) -> dict[str, Any]:
    doc = decode_json(payload, path)
    check_document(doc, path)
    return dict(doc)


def _resolve(spec: str) -> tuple[str, str]:
    """``compute`` / ``compute.v1`` / ``compute:v1`` -> (api, installed file stem)."""
    api, sep, version = spec.replace(":", ".").partition(".")
    stems = _installed_stems()
    if sep:
        if f"{api}.{version}" not in stems:
            raise _unknown(f"{api}.{version}")
        return api, f"{api}.{version}"
    versions = [s.split(".", 1)[1] for s in stems if s.split(".", 1)[0] == api]
    if not versions:
        raise _unknown(api)
    preferred = _preferred_versions().get(api)
    if preferred in versions:
        return api, f"{api}.{preferred}"
    if len(versions) == 1:
        return api, f"{api}.{versions[0]}"
    raise TasklayerError(
        f"GCP API {api!r} has several installed versions and Google's directory prefers none",
        notes=[f"name one: {', '.join(f'{api}.{v}' for v in versions)}"],
    )


@functools.lru_cache(maxsize=1)
def _installed_stems() -> tuple[str, ...]:
    names = (p.name for p in _INSTALLED_ROOT.glob("*.json") if p.name != _DIRECTORY_FILE)
    return tuple(sorted(n[: -len(".json")] for n in names))


@functools.lru_cache(maxsize=1)
def _preferred_versions() -> dict[str, str]:
    """api -> version from Google's directory list shipped beside the documents, when present."""
    path = _INSTALLED_ROOT / _DIRECTORY_FILE
    try:
        items = json.loads(path.read_bytes()).get("items", [])
    except (OSError, ValueError, AttributeError):
        return {}
    return {
        item["name"]: item["version"]
        for item in items
        if isinstance(item, dict) and item.get("preferred") and "name" in item and "version" in item
    }


def _unknown(spec: str) -> TasklayerError:
    known = _installed_stems()
    close = difflib.get_close_matches(spec, known, n=3)
    return TasklayerError(
        f"unknown GCP discovery document {spec!r} (not in google-api-python-client "
        f"{googleapiclient_version()})",
        notes=[f"did you mean: {', '.join(close)}"] if close else [],
    )


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise TasklayerError(f"cannot read schema file: {exc}", file=path) from None


def _replace_api_folder(folder: Path, version: str, payload: bytes) -> Path:
    """Write the new pin beside the old one, then swap, so a failed pin leaves the old one."""
    staging = folder.with_name(f".{folder.name}.pinning")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / version).mkdir(parents=True)
    (staging / version / DOCUMENT_FILE).write_bytes(payload)
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(staging, folder)
    return folder / version / DOCUMENT_FILE


def _repin_hint(api: str) -> str:
    return f"re-run `tasklayer schemas pin {PROVIDER} {api}`"
