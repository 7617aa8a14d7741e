"""AWS schemas: pin botocore's service models into ``schemas/aws`` and load them back.

Generation reads only the pinned copies, so output depends on what is committed, not on the
botocore that happens to be installed. Loading goes through botocore's own ``Loader`` (which
also merges botocore's ``*.sdk-extras`` files), ``ServiceModel`` and ``WaiterModel``; what we
add is a file loader that checks each file's sha256 against the manifest on the very bytes it
parses, and structural checks that turn bad input into errors with a file and JSON pointer.
"""

from __future__ import annotations

import difflib
import functools
import gzip
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import botocore
from botocore.exceptions import DataNotFoundError, UnknownServiceError
from botocore.loaders import JSONFileLoader, Loader
from botocore.model import ServiceModel
from botocore.waiter import WaiterModel

from codegen.errors import TasklayerError
from codegen.sources import validate
from codegen.sources.manifest import (
    manifest_path,
    read_provider_services,
    sha256_hex,
    write_provider_section,
)
from codegen.sources.strict_json import decode_json

PROVIDER = "aws"
SERVICE, PAGINATORS, WAITERS = "service-2", "paginators-1", "waiters-2"
# The files pinned per service: each model type plus the extras botocore merges into it.
PINNED_STEMS = tuple(
    stem
    for type_name in (SERVICE, PAGINATORS, WAITERS)
    for stem in (
        type_name,
        *(f"{type_name}.{x}-extras" for x in Loader.BUILTIN_EXTRAS_TYPES),
    )
)
_INSTALLED_ROOT = Path(Loader.BUILTIN_DATA_PATH)
_INSTALLED_EXTENSIONS = (".json", ".json.gz")  # botocore's own order of preference


@dataclass(frozen=True)
class AwsSource:
    """One AWS service as loaded from its schema files: the input of the model stage."""

    service: str  # botocore service name, e.g. "ec2"
    api_version: str
    model: ServiceModel
    paginators: Mapping[str, Any]  # operation name -> paginator config
    waiters: WaiterModel | None
    files: tuple[Path, ...]  # the files read, for provenance and error messages


def installed_services() -> list[str]:
    """Every service with a service-2 model in the installed botocore."""
    return list(_installed_listing(SERVICE))


def pin(services: list[str], schemas_dir: Path, sdk_data: Path | None = None) -> list[Path]:
    """Copy the newest model files of ``services`` from the installed botocore (or from the
    botocore data folder ``sdk_data``) into ``schemas_dir/aws`` and record them in the
    manifest; returns the files written, the manifest last."""
    schemas_dir = Path(schemas_dir)
    root, version = sdk_data_root(sdk_data)
    for service in services:
        _require_installed(service, root, version)
    entries = read_provider_services(schemas_dir, PROVIDER, missing_ok=True)
    written: list[Path] = []
    for service in dict.fromkeys(services):
        api_version, payloads = sdk_files(service, root)
        written += _replace_service_folder(schemas_dir / PROVIDER / service, api_version, payloads)
        entries[service] = {
            "api_version": api_version,
            "botocore_version": version,
            "files": {name: sha256_hex(payload) for name, payload in payloads.items()},
        }
    section = {"botocore_version": version, "services": entries}
    written.append(write_provider_section(schemas_dir, PROVIDER, section))
    return written


def sdk_data_root(sdk_data: Path | None) -> tuple[Path, str]:
    """botocore's data folder and botocore's version: the installed one, or the one at
    ``sdk_data`` (a ``botocore/data`` folder, a ``botocore`` package, or an unpacked wheel)."""
    if sdk_data is None:
        return _INSTALLED_ROOT, botocore.__version__
    for root in (Path(sdk_data), Path(sdk_data) / "data", Path(sdk_data) / "botocore" / "data"):
        init = root.parent / "__init__.py"
        if (root / "endpoints.json").is_file() and init.is_file():
            import re

            found = re.search(
                r"__version__\s*=\s*['\"]([^'\"]+)['\"]", init.read_text(encoding="utf-8")
            )
            if found:
                return root, found.group(1)
    raise TasklayerError(
        "not a botocore data folder (expected data/endpoints.json beside botocore/__init__.py)",
        file=sdk_data,
    )


def sdk_files(service: str, root: Path = _INSTALLED_ROOT) -> tuple[str, dict[str, bytes]]:
    """The newest api version of ``service`` under a botocore data folder, and the bytes of
    each of its files keyed by pinned file name: what a pin would write."""
    api_version = _sdk_loader(root).determine_latest_version(service, SERVICE)
    return api_version, _read_installed(service, api_version, root)


def pinned_services(schemas_dir: Path) -> list[str]:
    """The services recorded in the manifest, sorted."""
    return sorted(read_provider_services(Path(schemas_dir), PROVIDER))


def load_pinned(schemas_dir: Path, service: str) -> AwsSource:
    """Load a pinned service from ``schemas_dir/aws`` only, every file checked against the
    manifest; never falls back to the installed botocore."""
    schemas_dir = Path(schemas_dir)
    root = schemas_dir / PROVIDER
    api_version, expected = _pinned_files(schemas_dir, service)
    files = _CheckedFileLoader(root, (".json",), expected, service)
    loader = Loader(
        extra_search_paths=[str(root)],
        include_default_search_paths=False,
        file_loader=files,
    )
    return _load(loader, files, service, api_version)


def _pinned_files(schemas_dir: Path, service: str) -> tuple[str, dict[Path, str]]:
    """The pinned api version and sha256 per file (relative to ``aws/``), all present."""
    services = read_provider_services(schemas_dir, PROVIDER)
    if service not in services:
        raise TasklayerError(
            f"AWS service {service!r} is not pinned",
            file=manifest_path(schemas_dir),
            notes=[
                f"pin it with `tasklayer schemas pin {PROVIDER} {service}`",
                f"pinned: {', '.join(sorted(services)) or '(none)'}",
            ],
        )
    api_version = services[service]["api_version"]
    expected = {
        Path(service, api_version, name): digest
        for name, digest in services[service]["files"].items()
    }
    for relative in expected:
        if not (schemas_dir / PROVIDER / relative).is_file():
            raise TasklayerError(
                "pinned file is missing",
                file=schemas_dir / PROVIDER / relative,
                notes=[_repin_hint(service)],
            )
    return api_version, expected


def load_installed(service: str) -> AwsSource:
    """Load the newest api version of a service from the installed botocore (the whole-corpus
    runs); same checks as pinned loads except the manifest."""
    _require_installed(service)
    files = _CheckedFileLoader(_INSTALLED_ROOT, _INSTALLED_EXTENSIONS, None, service)
    loader = _InstalledLoader(
        extra_search_paths=[str(_INSTALLED_ROOT)],
        include_default_search_paths=False,
        file_loader=files,
    )
    api_version = loader.determine_latest_version(service, SERVICE)
    return _load(loader, files, service, api_version)


def _load(loader: Loader, files: _CheckedFileLoader, service: str, api_version: str) -> AwsSource:
    description = _load_type(loader, service, SERVICE, api_version)
    if description is None:
        raise TasklayerError(
            f"no {SERVICE} model for {service!r} {api_version}",
            file=loader.search_paths[0],
            notes=[_repin_hint(service)],
        )
    validate.check_service(description, files.path_of(SERVICE))
    operations = description["operations"]
    paginators = _load_type(loader, service, PAGINATORS, api_version)
    if paginators is not None:
        validate.check_paginators(paginators, operations, files.path_of(PAGINATORS))
    waiters = _load_type(loader, service, WAITERS, api_version)
    if waiters is not None:
        validate.check_waiters(waiters, operations, files.path_of(WAITERS))
    return AwsSource(
        service=service,
        api_version=api_version,
        model=ServiceModel(description, service_name=service),
        paginators=paginators["pagination"] if paginators is not None else {},
        waiters=WaiterModel(waiters) if waiters is not None else None,
        files=tuple(files.read),
    )


def _load_type(loader: Loader, service: str, type_name: str, api_version: str) -> Any | None:
    """One model type through botocore's Loader (extras merged); None when it has none."""
    try:
        return loader.load_service_model(service, type_name, api_version)
    except (UnknownServiceError, DataNotFoundError):
        return None


class _CheckedFileLoader(JSONFileLoader):
    """A botocore file loader (``exists`` / ``load_file``) that reads each file once, checks
    its sha256 against the manifest when one is given, parses it with errors that name the
    file, and records what it read."""

    def __init__(
        self,
        root: Path,
        extensions: tuple[str, ...],
        expected: Mapping[Path, str] | None,
        service: str,
    ) -> None:
        self._root = root
        self._extensions = extensions
        self._expected = expected
        self._service = service
        self.read: list[Path] = []

    def exists(self, file_path: str) -> bool:
        return any(os.path.isfile(file_path + ext) for ext in self._extensions)

    def load_file(self, file_path: str) -> Any | None:
        for ext in self._extensions:
            path = Path(file_path + ext)
            if path.is_file():
                return self._decode(path, _read_payload(path))
        return None

    def path_of(self, stem: str) -> Path:
        """The file a model type was read from, for error messages."""
        return next(p for p in self.read if p.name.split(".json")[0] == stem)

    def _decode(self, path: Path, payload: bytes) -> Any:
        self._verify(path, payload)
        self.read.append(path)
        data = decode_json(payload, path)
        if path.name.split(".json")[0].endswith("-extras"):
            validate.check_extras(data, path)
        return data

    def _verify(self, path: Path, payload: bytes) -> None:
        if self._expected is None:
            return
        inside = self._root in path.parents
        digest = self._expected.get(path.relative_to(self._root)) if inside else None
        if digest is None:
            reason = "file is not recorded in the schema manifest"
        elif digest != sha256_hex(payload):
            reason = "sha256 differs from the schema manifest (file changed since it was pinned)"
        else:
            return
        raise TasklayerError(reason, file=path, notes=[_repin_hint(self._service)])


class _InstalledLoader(Loader):
    """botocore's Loader with the service listing shared across instances: listing walks
    every installed service folder (~10 ms) and ``load_service_model`` asks for it per model
    type, which would dominate a whole-corpus run."""

    def list_available_services(self, type_name: str) -> list[str]:
        return list(_installed_listing(type_name))


@functools.cache
def _installed_listing(type_name: str, root: Path = _INSTALLED_ROOT) -> tuple[str, ...]:
    return tuple(_sdk_loader(root).list_available_services(type_name))


@functools.cache
def _sdk_loader(root: Path) -> Loader:
    """Only botocore's own data folder: a model under ~/.aws/models must not leak into pins."""
    return Loader(extra_search_paths=[str(root)], include_default_search_paths=False)


def _require_installed(
    service: str, root: Path = _INSTALLED_ROOT, version: str = botocore.__version__
) -> None:
    known = _installed_listing(SERVICE, root)
    if service not in known:
        close = difflib.get_close_matches(service, known, n=3)
        raise TasklayerError(
            f"unknown AWS service {service!r} (not in botocore {version})",
            notes=[f"did you mean: {', '.join(close)}"] if close else [],
        )


def _read_installed(
    service: str, api_version: str, root: Path = _INSTALLED_ROOT
) -> dict[str, bytes]:
    """The decompressed bytes of each installed model file, keyed by its pinned file name."""
    folder = root / service / api_version
    payloads = {}
    for stem in PINNED_STEMS:
        for ext in _INSTALLED_EXTENSIONS:
            if (folder / (stem + ext)).is_file():
                payloads[stem + ".json"] = _read_payload(folder / (stem + ext))
                break
    return payloads


def _read_payload(path: Path) -> bytes:
    try:
        payload = path.read_bytes()
        return gzip.decompress(payload) if path.suffix == ".gz" else payload
    except (OSError, EOFError) as exc:
        raise TasklayerError(f"cannot read schema file: {exc}", file=path) from None


def _replace_service_folder(
    folder: Path, api_version: str, payloads: dict[str, bytes]
) -> list[Path]:
    """Write the new pin beside the old one, then swap, so a failed pin leaves the old one."""
    staging = folder.with_name(f".{folder.name}.pinning")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / api_version).mkdir(parents=True)
    for name, payload in sorted(payloads.items()):
        (staging / api_version / name).write_bytes(payload)
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(staging, folder)
    return [folder / api_version / name for name in sorted(payloads)]


def _repin_hint(service: str) -> str:
    return f"re-run `tasklayer schemas pin {PROVIDER} {service}`"
