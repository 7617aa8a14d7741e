"""A content-addressed cache that makes a no-change ``generate`` and ``--check`` cheap.

Two levels, both keyed by content, never by time:

- **tree**: the sha256 of every input (pinned schemas, overlays, templates, the generator's own
  source, black's version) -> the sha256 of every output file. A hit skips loading,
  annotating, rendering and formatting: comparing ``generated/`` is hashing it. Only a run that
  rendered the whole tree stores an entry, and only after it succeeded, so a hit also means
  these exact input bytes passed every check before.
- **black**: the sha256 of an unformatted source (and black's version and mode) -> the
  formatted text, so a template change reformats only the files it changed.

Blobs live under ``.tasklayer-cache/`` at the repository root (``--cache-dir`` or
``TASKLAYER_CACHE_DIR`` elsewhere, ``--no-cache`` for none); deleting it is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path

import codegen
from codegen.inputs import Inputs, digest_of

DEFAULT_DIR = ".tasklayer-cache"
_FORMAT = "1"


def generator_digest() -> str:
    """The generator's own code: a changed rule or renderer must miss the cache."""
    root = Path(codegen.__file__).parent
    files = {
        p.relative_to(root).as_posix(): _sha(p.read_bytes()) for p in sorted(root.rglob("*.py"))
    }
    return digest_of(files)


def tree_key(inputs: Inputs, black_version: str) -> str:
    parts = {
        "format": _FORMAT,
        "generator": codegen.__version__,
        "generator_code": generator_digest(),
        "black": black_version,
        "schemas": digest_of(inputs.schemas),
        "overlays": digest_of(inputs.overlays),
        "templates": inputs.templates_digest,
        # the manifest's own facts, in no file digest above: they reach pyproject.toml and headers
        "package_version": inputs.package_version,
        "sdks": inputs.sdk_versions,
        "pinned_from": [[s.provider, s.name, s.sdk_version] for s in inputs.services],
    }
    return _sha(json.dumps(parts, sort_keys=True).encode())


class Cache:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    # -- whole trees -------------------------------------------------------------------
    def tree(self, key: str) -> dict[str, str] | None:
        """path -> sha256 of the output for ``key``, or None."""
        try:
            return dict(
                json.loads((self.root / "trees" / f"{key}.json").read_text(encoding="utf-8"))
            )
        except (OSError, ValueError):
            return None

    def files(self, tree: dict[str, str]) -> dict[str, str] | None:
        """The texts of a cached tree, or None when a blob is gone or damaged."""
        out = {}
        for path, sha in tree.items():
            data = self._get("blobs", sha)
            if data is None or _sha(data) != sha:
                return None
            out[path] = data.decode("utf-8")
        return out

    def store_tree(self, key: str, files: dict[str, str]) -> None:
        tree = {}
        for path, text in files.items():
            data = text.encode("utf-8")
            tree[path] = _sha(data)
            self._put("blobs", tree[path], data)
        self._atomic_write(
            self.root / "trees" / f"{key}.json", json.dumps(tree, sort_keys=True).encode()
        )

    # -- black ---------------------------------------------------------------------------
    def formatter(
        self, format_python: Callable[[dict[str, str]], dict[str, str]], salt: str
    ) -> Callable[[dict[str, str]], dict[str, str]]:
        """``format_python`` that formats only sources it has not seen formatted before."""

        def cached_format(files: dict[str, str]) -> dict[str, str]:
            keys = {p: _sha(f"{salt}\0{t}".encode()) for p, t in files.items() if p.endswith(".py")}
            known = {p: self._get("black", k) for p, k in keys.items()}
            todo = {p: files[p] for p, data in known.items() if data is None}
            done = format_python(todo) if todo else {}
            for path, text in done.items():
                self._put("black", keys[path], text.encode("utf-8"))
            return {
                p: (
                    done[p]
                    if p in done
                    else (data.decode("utf-8") if (data := known.get(p)) is not None else t)
                )
                for p, t in files.items()
            }

        return cached_format

    # -- storage -------------------------------------------------------------------------
    def _get(self, kind: str, sha: str) -> bytes | None:
        try:
            return (self.root / kind / sha[:2] / sha).read_bytes()
        except OSError:
            return None

    def _put(self, kind: str, sha: str, data: bytes) -> None:
        path = self.root / kind / sha[:2] / sha
        if not path.exists():
            self._atomic_write(path, data)

    @staticmethod
    def _atomic_write(path: Path, data: bytes) -> None:
        """Readers never see half a blob, even with two runs filling the cache at once."""
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
        temporary.write_bytes(data)
        os.replace(temporary, path)


def disk_tree(target: Path, paths: list[str]) -> dict[str, str]:
    """sha256 of each of ``paths`` under ``target`` that exists."""
    out = {}
    for path in paths:
        try:
            out[path] = _sha((target / path).read_bytes())
        except OSError:
            pass
    return out


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
