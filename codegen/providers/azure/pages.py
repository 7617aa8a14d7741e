"""A file copied page by page from a stored copy of a repository, checked whole before use.

The stores this project reads Azure's files from (azure-rest-api-specs, too large to bring; ASO's
recordings) hand a file out in pages of at most 16,000 characters, each a JSON string, with the
file's ``total_chars``. :func:`assemble` joins the pages saved one per file (each exactly the
JSON string the store returned, so no byte is retyped), and refuses a set whose pages are not
full but the last, or whose length is not the one the store reported: a page dropped, doubled or
cut short is an error naming the page, never a pinned file that differs from upstream.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from codegen.errors import TasklayerError

PAGE = 16_000  # characters the store hands out a page


def assemble(pages: Sequence[Path], total_chars: int) -> str:
    """The file's text from its saved pages, in order; checked against ``total_chars``."""
    texts = []
    for number, page in enumerate(pages):
        try:
            text = json.loads(page.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise TasklayerError(
                f"page {number} is not a saved JSON string: {exc}", file=page
            ) from None
        if not isinstance(text, str):
            raise TasklayerError(f"page {number} is not a JSON string", file=page)
        last = number == len(pages) - 1
        if not last and len(text) != PAGE:
            raise TasklayerError(
                f"page {number} has {len(text)} characters; every page but the last has {PAGE}",
                file=page,
            )
        texts.append(text)
    whole = "".join(texts)
    if len(whole) != total_chars:
        raise TasklayerError(
            f"the pages hold {len(whole)} characters; the store reported {total_chars}",
            file=pages[-1] if pages else None,
            notes=["a page is missing or cut short: save each page again"],
        )
    return whole
