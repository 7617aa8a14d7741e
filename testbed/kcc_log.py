"""Config Connector's recorded GCP traffic (``_http.log``), parsed.

Each exchange is a request (``METHOD URL``, headers, an optional JSON body), a blank line, the
answer (``200 OK``, headers, an optional body), and exchanges are separated by a line ``---``.
Config Connector has already replaced what differs run to run by placeholders
(``${projectId}``, ``${networkID}``, ``${operationID}``, ids of zeros, one timestamp);
:func:`concrete` turns the placeholders into names a URL and our fake accept.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

_REQUEST = re.compile(r"^(GET|POST|PUT|PATCH|DELETE) (https?://\S+)$")
_STATUS = re.compile(r"^(\d{3}) ?(.*)$")
_PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_]+)\}")


@dataclass(frozen=True)
class Exchange:
    """One request and its answer, as recorded (``index``: its place in the log)."""

    index: int
    method: str
    url: str
    request_headers: dict[str, str]
    request_body: Any
    status: int
    reason: str
    response_headers: dict[str, str] = field(default_factory=dict)
    response_body: Any = None

    @property
    def path(self) -> str:
        return urlsplit(self.url).path

    @property
    def query(self) -> dict[str, str]:
        """The query, without the transport's own parameters (``alt``, ``prettyPrint``)."""
        pairs = parse_qsl(urlsplit(self.url).query)
        return {k: v for k, v in pairs if k not in ("alt", "prettyPrint")}

    @property
    def host(self) -> str:
        return urlsplit(self.url).netloc


def _body(lines: list[str]) -> Any:
    text = "\n".join(lines).strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _headers(lines: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in lines:
        name, _, value = line.partition(":")
        out.setdefault(name.strip(), value.strip())
    return out


def parse_exchange(index: int, block: str) -> Exchange:
    lines = block.strip("\n").split("\n")
    request = _REQUEST.match(lines[0])
    if request is None:
        raise ValueError(f"exchange {index}: not a request line: {lines[0]!r}")
    # the request's headers end at the first blank line; its body (if any) runs to the status
    end = lines.index("") if "" in lines else len(lines)
    status_at = next(
        (
            i
            for i in range(end, len(lines))
            if _STATUS.match(lines[i]) and (i == 0 or lines[i - 1] == "")
        ),
        None,
    )
    if status_at is None:
        raise ValueError(f"exchange {index}: no status line after {lines[0]!r}")
    status = _STATUS.match(lines[status_at])
    assert status is not None
    rest = lines[status_at + 1 :]
    blank = rest.index("") if "" in rest else len(rest)
    return Exchange(
        index=index,
        method=request.group(1),
        url=request.group(2),
        request_headers=_headers(lines[1:end]),
        request_body=_body(lines[end:status_at]),
        status=int(status.group(1)),
        reason=status.group(2),
        response_headers=_headers(rest[:blank]),
        response_body=_body(rest[blank:]),
    )


def parse(text: str) -> list[Exchange]:
    """Every exchange of a log, in order."""
    blocks = re.split(r"\n-{3}\n", "\n" + text)
    return [parse_exchange(i, b) for i, b in enumerate(b for b in blocks if b.strip())]


def placeholder_value(name: str) -> str:
    """What a placeholder stands for here: a lowercase name GCP accepts (``${networkID}`` is
    ``networkid``)."""
    return re.sub(r"[^a-z0-9-]", "-", name.lower())


def concrete(value: Any) -> Any:
    """A recorded value with every ``${placeholder}`` replaced by :func:`placeholder_value`."""
    if isinstance(value, str):
        return _PLACEHOLDER.sub(lambda m: placeholder_value(m.group(1)), value)
    if isinstance(value, list):
        return [concrete(v) for v in value]
    if isinstance(value, dict):
        return {concrete(k): concrete(v) for k, v in value.items()}
    return value


def concrete_exchange(exchange: Exchange) -> Exchange:
    return Exchange(
        index=exchange.index,
        method=exchange.method,
        url=concrete(exchange.url),
        request_headers=exchange.request_headers,
        request_body=concrete(exchange.request_body),
        status=exchange.status,
        reason=exchange.reason,
        response_headers=exchange.response_headers,
        response_body=concrete(exchange.response_body),
    )
