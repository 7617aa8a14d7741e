"""Pin one Swagger file of Azure/azure-rest-api-specs from its saved pages (issue 26 item 1).

    python -m codegen.providers.azure.pin --service network --api-version 2024-07-01 \\
        --path specification/network/.../virtualNetwork.json --commit <40 hex> \\
        --total-chars 80938 page0.json page1.json ...

Each page is the JSON string the store's ``read_file`` returned for that offset, saved as is
(:mod:`.pages`). The joined text must have the store's ``total_chars``; it is written byte for
byte to ``schemas/azure/<service>/<api-version>/<file name>`` and recorded in the manifest's
``azure`` section (sha256 under ``files``, repository ``path`` and ``commit`` under ``sources``;
the section names the repository and its licence). ``--verify`` writes nothing: it says whether
the pinned copy is byte for byte what the pages hold (exit 1 when not). The pinned set is then
loaded as ``generate`` would (sha256, strict JSON, every ``$ref`` inside the set, the Swagger 2.0
validator), so a file pinned without the files it refers to is reported at once.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from codegen.errors import TasklayerError
from codegen.providers.azure import source
from codegen.providers.azure.pages import assemble
from codegen.sources.manifest import read_manifest, sha256_hex, write_provider_section

SCHEMAS = Path(__file__).resolve().parents[3] / "schemas"


def pin_file(
    schemas_dir: Path,
    *,
    service: str,
    api_version: str,
    path: str,
    commit: str,
    text: str,
    name: str | None = None,
) -> Path:
    """Write ``text`` as the pinned copy of ``path`` and record it; the file written."""
    name = name or path.rsplit("/", 1)[1]
    payload = text.encode("utf-8")
    folder = schemas_dir / source.PROVIDER / service / api_version
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(payload)
    section = read_manifest(schemas_dir).get(source.PROVIDER) or {
        "licence": source.LICENCE,
        "repository": source.REPOSITORY,
        "services": {},
        "specs_pin": "per-file",
    }
    entry = section["services"].setdefault(
        service, {"api_version": api_version, "files": {}, "sources": {}}
    )
    if entry["api_version"] != api_version:
        raise TasklayerError(
            f"{service} is pinned at {entry['api_version']}, not {api_version}",
            notes=["one api-version per service: pin the others as a service of their own"],
        )
    entry["files"][name] = sha256_hex(payload)
    entry["sources"][name] = {"commit": commit, "path": path}
    write_provider_section(schemas_dir, source.PROVIDER, section)
    return folder / name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--service", required=True)
    parser.add_argument("--api-version", required=True)
    parser.add_argument("--path", required=True, help="the file's path in the repository")
    parser.add_argument("--commit", required=True, help="the commit the store read it at")
    parser.add_argument("--total-chars", type=int, required=True)
    parser.add_argument("--name", help="the pinned file's name (default: the path's last part)")
    parser.add_argument("--schemas", type=Path, default=SCHEMAS)
    parser.add_argument("--verify", action="store_true", help="compare with the pinned copy")
    parser.add_argument("pages", type=Path, nargs="+")
    args = parser.parse_args(argv)
    try:
        text = assemble(args.pages, args.total_chars)
        name = args.name or args.path.rsplit("/", 1)[1]
        pinned = args.schemas / source.PROVIDER / args.service / args.api_version / name
        if args.verify:
            same = pinned.is_file() and pinned.read_bytes() == text.encode("utf-8")
            print(f"{pinned}: {'byte for byte' if same else 'DIFFERS from'} the pages")
            return 0 if same else 1
        written = pin_file(
            args.schemas,
            service=args.service,
            api_version=args.api_version,
            path=args.path,
            commit=args.commit,
            text=text,
            name=args.name,
        )
        loaded = source.load_pinned(args.schemas, args.service)
    except TasklayerError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"pinned {written} ({len(text)} characters); {len(loaded.files)} files load")
    return 0


if __name__ == "__main__":
    sys.exit(main())
