"""``schemas/manifest.json``: which schema files are pinned, from where, and their sha256.

The manifest is what makes a pinned schema trustworthy: a file that was edited by hand, half
written, or dropped in without re-pinning no longer matches it, and loading stops with a
message that says how to re-pin. It is written with sorted keys and a trailing newline so the
same pin gives the same bytes, and each provider owns only its own top-level section.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from codegen.errors import TasklayerError, json_pointer
from codegen.sources.strict_json import decode_json

MANIFEST_NAME = "manifest.json"
_SHA256 = re.compile(r"[0-9a-f]{64}")
_PLAIN_NAME = re.compile(r"[A-Za-z0-9._-]+")
_OPTIONAL_TEXT = ("revision", "googleapiclient_version")
PACKAGE_VERSION_KEY = "package_version"  # the generated package's version, set by `drift --bump`
FIRST_PACKAGE_VERSION = "0.1.0"  # what every package was before the manifest recorded a version
_SEMVER = re.compile(r"\d+\.\d+\.\d+")


def manifest_path(schemas_dir: Path) -> Path:
    return Path(schemas_dir) / MANIFEST_NAME


def sha256_hex(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()


def read_manifest(schemas_dir: Path) -> dict[str, Any]:
    """The whole manifest (all providers); an absent file is an empty manifest."""
    path = manifest_path(schemas_dir)
    if not path.is_file():
        return {}
    data = decode_json(path.read_bytes(), path)
    if not isinstance(data, dict):
        raise TasklayerError("the manifest must be a JSON object", file=path, pointer="")
    return data


def read_provider_services(
    schemas_dir: Path, provider: str, *, missing_ok: bool = False
) -> dict[str, dict[str, Any]]:
    """``services`` of one provider's section, checked; loading needs the manifest to exist,
    pinning (``missing_ok``) starts a new one."""
    path = manifest_path(schemas_dir)
    if not path.is_file():
        if missing_ok:
            return {}
        raise TasklayerError(
            "no schema manifest; pin schemas first with "
            f"`tasklayer schemas pin {provider} <service>...`",
            file=path,
        )
    section = read_manifest(schemas_dir).get(provider, {})
    _check(isinstance(section, dict), path, json_pointer(provider), "expected an object")
    services = section.get("services", {})
    _check(
        isinstance(services, dict),
        path,
        json_pointer(provider, "services"),
        "expected an object",
    )
    for name, entry in services.items():
        pointer = json_pointer(provider, "services", name)
        _check(_is_plain_name(name), path, pointer, "expected a plain service name")
        _check_service_entry(entry, path, pointer)
    return dict(services)


def write_provider_section(schemas_dir: Path, provider: str, section: dict[str, Any]) -> Path:
    """Replace one provider's section, keep the others, and write atomically."""
    manifest = read_manifest(schemas_dir)
    manifest[provider] = section
    return _write_manifest(schemas_dir, manifest)


def _write_manifest(schemas_dir: Path, manifest: dict[str, Any]) -> Path:
    path = manifest_path(schemas_dir)
    text = json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
    return path


def read_package_version(schemas_dir: Path) -> str:
    """The generated package's version the manifest records (``major.minor.patch``)."""
    version = read_manifest(schemas_dir).get(PACKAGE_VERSION_KEY, FIRST_PACKAGE_VERSION)
    _check(
        isinstance(version, str) and bool(_SEMVER.fullmatch(version)),
        manifest_path(schemas_dir),
        json_pointer(PACKAGE_VERSION_KEY),
        "expected a version major.minor.patch",
    )
    return str(version)


def write_package_version(schemas_dir: Path, version: str) -> Path:
    """Record the generated package's version, keeping every provider's section."""
    _check(
        bool(_SEMVER.fullmatch(version)),
        manifest_path(schemas_dir),
        json_pointer(PACKAGE_VERSION_KEY),
        "expected a version major.minor.patch",
    )
    manifest = read_manifest(schemas_dir)
    manifest[PACKAGE_VERSION_KEY] = version
    return _write_manifest(schemas_dir, manifest)


def _check_service_entry(entry: Any, path: Path, pointer: str) -> None:
    _check(isinstance(entry, dict), path, pointer, "expected an object")
    _check(
        _is_plain_name(entry.get("api_version")),
        path,
        pointer + "/api_version",
        "expected an api version such as '2016-11-15'",
    )
    for key in _OPTIONAL_TEXT:  # a gcp entry's document revision and googleapiclient version
        if key in entry:
            _check(
                _is_plain_name(entry[key]),
                path,
                f"{pointer}/{key}",
                "expected a plain version string",
            )
    files = entry.get("files")
    _check(isinstance(files, dict), path, pointer + "/files", "expected an object")
    for name, digest in files.items():
        where = pointer + "/files" + json_pointer(name)
        _check(_is_plain_name(name), path, where, "expected a plain file name")
        _check(
            isinstance(digest, str) and bool(_SHA256.fullmatch(digest)),
            path,
            where,
            "expected a lowercase hex sha256",
        )


def _is_plain_name(name: Any) -> bool:
    """Names from the manifest become path parts; refuse anything that could leave the folder."""
    return isinstance(name, str) and bool(_PLAIN_NAME.fullmatch(name)) and name not in (".", "..")


def _check(ok: bool, path: Path, pointer: str, reason: str) -> None:
    if not ok:
        raise TasklayerError(reason, file=path, pointer=pointer)
