"""Azure Service Operator's go-vcr cassettes (``version: 1``), read into plain exchanges.

Each interaction holds the request (method, URL with its ``api-version``, body as sent) and the
response (status code, headers, body as received). Bodies are JSON text, or empty; ARM's
network RP answers pretty-printed JSON with ``\\r\\n``, which parses the same.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import yaml


@dataclass(frozen=True)
class Exchange:
    index: int
    method: str
    url: str
    path: str  # lower-cased: ARM paths are case-insensitive
    api_version: str | None
    request_body: Any  # parsed JSON, None when empty
    status: int
    headers: dict[str, str] = field(default_factory=dict)  # lower-case names, first values
    response_text: str = ""

    @property
    def response_body(self) -> Any:
        return json.loads(self.response_text) if self.response_text.strip() else None

    @property
    def is_write(self) -> bool:
        return self.method in ("PUT", "PATCH", "DELETE", "POST")


def _json(text: str) -> Any:
    return json.loads(text) if text and text.strip() else None


def parse(text: str) -> list[Exchange]:
    """Every interaction of a cassette, in order; a malformed one raises ``ValueError``."""
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not isinstance(data.get("interactions"), list):
        raise ValueError("not a go-vcr cassette: no interactions")
    out = []
    for i, item in enumerate(data["interactions"]):
        request, response = item["request"], item["response"]
        url = str(request["url"])
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query))
        headers = {
            str(k).lower(): str(v[0]) for k, v in (response.get("headers") or {}).items() if v
        }
        out.append(
            Exchange(
                index=i,
                method=str(request["method"]).upper(),
                url=url,
                path=parts.path.lower(),
                api_version=query.get("api-version"),
                request_body=_json(str(request.get("body") or "")),
                status=int(response["code"]),
                headers=headers,
                response_text=str(response.get("body") or ""),
            )
        )
    return out
