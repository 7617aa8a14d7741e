"""Pin recorded ARM traffic of Azure Service Operator for the kinds we generate (issue 26 item 4).

ASO keeps real ARM exchanges as go-vcr cassettes under ``v2/internal/controllers/recordings/``.
The repository is too large to bring whole here, so each cassette is read from the store's
stored copy page by page (each page saved as the JSON string the store returned:
``codegen.providers.azure.pages``) and pinned with

    python -m testbed.aso_pin --name Test_Networking_VirtualNetwork_CRUD.yaml \\
        --commit <40 hex> --total-chars 27019 --kinds VirtualNetwork,Subnet,ResourceGroup \\
        page0.json page1.json

into ``tests/recordings/aso/<name>`` with its source repository, path, commit (the store holds
one version of each file, so commits differ by file), sha256 and licence in ``manifest.json``.
``--check`` writes nothing and exits 1 when a pinned file is not what its manifest says. Tests
read only the pinned copies.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

from codegen.errors import TasklayerError
from codegen.providers.azure.pages import assemble

from .aso_cassette import parse

REPOSITORY = "Azure/azure-service-operator"
LICENCE = "MIT"  # the repository's LICENSE (MIT, Microsoft Corporation)
RECORDINGS = "v2/internal/controllers/recordings"
OUT = Path(__file__).resolve().parents[1] / "tests" / "recordings" / "aso"
_COMMIT = re.compile(r"[0-9a-f]{40}")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _manifest(out: Path) -> dict[str, object]:
    path = out / "manifest.json"
    if path.exists():
        loaded: dict[str, object] = json.loads(path.read_text())
        return loaded
    return {
        "repository": f"https://github.com/{REPOSITORY}",
        "licence": LICENCE,
        "licence_note": "the repository's LICENSE is MIT; the store holds no copy of it to pin",
        "recordings": [],
    }


def pin(name: str, commit: str, text: str, kinds: list[str], out: Path = OUT) -> dict[str, object]:
    """Write one cassette and record it; the manifest entry."""
    if not _COMMIT.fullmatch(commit):
        raise TasklayerError(f"expected a 40-hex commit, not {commit!r}")
    parse(text)  # refuse a cassette the replay cannot read before pinning it
    out.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    (out / name).write_bytes(data)
    manifest = _manifest(out)
    entry: dict[str, object] = {
        "file": name,
        "kinds": kinds,
        "path": f"{RECORDINGS}/{name}",
        "commit": commit,
        "sha256": sha256(data),
        "chars": len(text),
    }
    recordings = [r for r in manifest["recordings"] if r["file"] != name]  # type: ignore[attr-defined]
    manifest["recordings"] = sorted([*recordings, entry], key=lambda r: str(r["file"]))
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return entry


def check(out: Path = OUT) -> list[str]:
    """Each pinned cassette that is missing or not what the manifest says."""
    manifest = json.loads((out / "manifest.json").read_text())
    wrong = []
    for entry in manifest["recordings"]:
        path = out / entry["file"]
        if not path.exists() or sha256(path.read_bytes()) != entry["sha256"]:
            wrong.append(entry["file"])
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify the pinned copies only")
    parser.add_argument("--name", help="the cassette's file name under " + RECORDINGS)
    parser.add_argument("--commit")
    parser.add_argument("--total-chars", type=int)
    parser.add_argument("--kinds", default="", help="the kinds it records, comma-separated")
    parser.add_argument("pages", type=Path, nargs="*")
    args = parser.parse_args(argv)
    if args.check:
        wrong = check()
        for name in wrong:
            print(f"{name}: not what manifest.json records", file=sys.stderr)
        return 1 if wrong else 0
    if not (args.name and args.commit and args.total_chars and args.pages):
        parser.error("--name, --commit, --total-chars and the pages are required unless --check")
    try:
        text = assemble(args.pages, args.total_chars)
        entry = pin(args.name, args.commit, text, [k for k in args.kinds.split(",") if k])
    except TasklayerError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"pinned {entry['file']} ({entry['chars']} characters) from {REPOSITORY}@{args.commit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
