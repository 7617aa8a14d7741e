"""Pinning a file the store hands out page by page (issue 26 item 1): the pages join into the
exact file, a page missing or cut short is refused against the store's total_chars, and the pin
records sha256, repository path and commit, then loads the set as generate does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codegen.errors import TasklayerError
from codegen.providers.azure import pin
from codegen.providers.azure.pages import PAGE, assemble
from codegen.sources.manifest import read_manifest, sha256_hex

ROOT = Path(__file__).resolve().parent.parent
NETWORK = ROOT / "schemas" / "azure" / "network" / "2024-07-01"


def _pages(tmp_path: Path, text: str) -> list[Path]:
    pages = []
    for number, start in enumerate(range(0, len(text), PAGE)):
        page = tmp_path / f"p{number}.json"
        page.write_text(json.dumps(text[start : start + PAGE]))
        pages.append(page)
    return pages


def test_pages_join_into_the_file_and_a_short_or_missing_one_is_refused(tmp_path: Path) -> None:
    text = (NETWORK / "network.json").read_text(encoding="utf-8")  # 17,460 characters: 2 pages
    pages = _pages(tmp_path, text)
    assert len(pages) == 2 and assemble(pages, len(text)) == text
    with pytest.raises(TasklayerError, match="the store reported"):
        assemble(pages[:1], len(text))  # the last page missing
    pages[0].write_text(json.dumps(text[: PAGE - 1]))
    with pytest.raises(TasklayerError, match="every page but the last"):
        assemble(pages, len(text))


def test_pin_records_the_file_and_loads_the_set(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    shutil.copytree(ROOT / "schemas" / "azure", schemas / "azure")
    shutil.copy(ROOT / "schemas" / "manifest.json", schemas / "manifest.json")
    target = schemas / "azure" / "network" / "2024-07-01" / "natGateway.json"
    text = target.read_text(encoding="utf-8")
    target.unlink()
    pages = _pages(tmp_path, text)
    path = (
        "specification/network/resource-manager/Microsoft.Network/stable/2024-07-01/natGateway.json"
    )
    args = [
        "--service",
        "network",
        "--api-version",
        "2024-07-01",
        "--path",
        path,
        "--commit",
        "2" * 40,
        "--total-chars",
        str(len(text)),
        "--schemas",
        str(schemas),
    ]
    assert pin.main([*args, *map(str, pages)]) == 0
    entry = read_manifest(schemas)["azure"]["services"]["network"]
    assert entry["files"]["natGateway.json"] == sha256_hex(text.encode())
    assert entry["sources"]["natGateway.json"] == {"commit": "2" * 40, "path": path}
    assert pin.main([*args, "--verify", *map(str, pages)]) == 0
    target.write_text(text.replace("Standard", "Basic"))
    assert pin.main([*args, "--verify", *map(str, pages)]) == 1
