"""API documentation to plain text, with botocore's own doc tools (its HTML -> reST writer)."""

from __future__ import annotations

import re
from functools import cache

from botocore.docs.bcdoc.restdoc import ReSTDocument

_BLANKS = re.compile(r"\n\s*\n+")


@cache
def html_to_text(html: str) -> str:
    doc = ReSTDocument(target="man")
    doc.include_doc_string(html)
    text = doc.getvalue().decode("utf-8")
    return _BLANKS.sub("\n\n", text).strip()
