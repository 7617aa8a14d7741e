"""Our Azure requests judged over ASO's recorded ARM traffic (issue 26 item 4).

:class:`Replay` is a ``requests`` adapter that answers from a pinned cassette, under azure-core's
own ``RequestsTransport`` (:func:`transport`), so everything between our adapter and the wire is
azure-core's: its retry policy, its long-running-operation polling, its waits (the transport's
``sleep``, which here only records what ARM asked for). Each request is answered by:

- a write (PUT, PATCH, DELETE): the first recorded write of the same method and path not yet
  answered (api-versions may differ: ours is the pinned document's, ASO's is its own);
- a GET of an operation (``…/operations/…``, ``…/operationresults/…``): its recorded poll;
- a GET of a resource: the state the recording shows after the writes answered so far — its
  first recorded read after the last answered write, else its last read before it; 404 when
  the recording creates it later (ASO creates into a new resource group: nothing was there) or
  deleted it.

Anything else is answered 599 and listed in ``unmatched``. :func:`judge` compares each write we
sent with the recorded one: method and path matched by construction; body member by member.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import requests
import urllib3
from requests.adapters import BaseAdapter

from .aso_cassette import Exchange, parse
from .aso_pin import OUT as RECORDINGS

UNMATCHED = 599


@dataclass
class Sent:
    method: str
    path: str
    api_version: str | None
    body: Any
    headers: dict[str, str]
    answered_by: int | None  # the recorded exchange's index; None when unmatched


def load(name: str) -> list[Exchange]:
    return parse((RECORDINGS / name).read_text(encoding="utf-8"))


def _is_operation(path: str) -> bool:
    return "/operations/" in path or "/operationresults/" in path


class Replay(BaseAdapter):
    """A ``requests`` adapter answering from recorded exchanges (see the module doc)."""

    def __init__(self, exchanges: list[Exchange], subscription: str | None = None) -> None:
        super().__init__()
        self.exchanges = exchanges
        self.used: set[int] = set()
        self.cursor = -1  # the last answered write's index
        self.sent: list[Sent] = []
        self.slept: list[float] = []
        # the tags our PUTs wrote, by path: ASO's answers carry ASO's own, so each recorded
        # answer of that resource is given ours too (the one change made to what ARM answered)
        self.our_tags: dict[str, dict[str, str]] = {}

    # -- choosing the answer ---------------------------------------------------------------------

    def _write(self, method: str, path: str) -> Exchange | None:
        return next(
            (
                e
                for e in self.exchanges
                if e.method == method and e.path == path and e.index not in self.used
            ),
            None,
        )

    def _read(self, path: str) -> Exchange | None:
        if _is_operation(path):
            return next((e for e in self.exchanges if e.method == "GET" and e.path == path), None)
        writes = [e for e in self.exchanges if e.is_write and e.path == path]
        done = [e for e in writes if e.index <= self.cursor and e.index in self.used]
        last_write = max((e.index for e in done), default=-1)
        if done and max(done, key=lambda e: e.index).method == "DELETE":
            return None  # deleted: 404
        reads = [
            e for e in self.exchanges if e.method == "GET" and e.path == path and e.status < 400
        ]
        after = [e for e in reads if e.index > max(self.cursor, last_write)]
        upcoming = [e.index for e in writes if e.index > self.cursor and e.index not in self.used]
        nxt = min(upcoming, default=len(self.exchanges))
        now = [e for e in after if e.index < nxt]
        if now:
            return now[0]
        before = [e for e in reads if last_write < e.index <= self.cursor]
        if before:
            return before[-1]
        if not done and any(e.method == "PUT" for e in writes):
            return None  # made later in the recording: not there yet
        return after[0] if after else None

    # -- requests' adapter -----------------------------------------------------------------------

    def send(self, request: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        parts = urlsplit(request.url)
        path = parts.path.lower()
        method = request.method.upper()
        query = dict(parse_qsl(parts.query))
        raw = request.body.decode() if isinstance(request.body, bytes) else request.body
        body = json.loads(raw) if raw else None
        headers = {k: v for k, v in request.headers.items() if k.lower().startswith("if-")}
        if method == "GET":
            chosen = self._read(path)
            status = chosen.status if chosen else 404
            if chosen is None and not _known(self.exchanges, path):
                status = UNMATCHED
        else:
            chosen = self._write(method, path)
            status = chosen.status if chosen else UNMATCHED
            if chosen is not None:
                self.used.add(chosen.index)
                self.cursor = max(self.cursor, chosen.index)
                if method == "PUT" and isinstance(body, dict) and body.get("tags"):
                    self.our_tags[path] = dict(body["tags"])
        self.sent.append(
            Sent(
                method,
                path,
                query.get("api-version"),
                body,
                headers,
                chosen.index if chosen else None,
            )
        )
        return _response(request, chosen, status, self.our_tags.get(path))

    def close(self) -> None:
        pass

    # -- what was sent ---------------------------------------------------------------------------

    def writes(self) -> list[Sent]:
        return [s for s in self.sent if s.method != "GET"]

    def unmatched(self) -> list[str]:
        return [
            f"{s.method} {s.path}" for s in self.sent if s.answered_by is None and s.method != "GET"
        ] + [
            f"GET {s.path}"
            for s in self.sent
            if s.method == "GET" and s.answered_by is None and not _known(self.exchanges, s.path)
        ]


def _known(exchanges: list[Exchange], path: str) -> bool:
    return any(e.path == path for e in exchanges)


def _response(
    request: Any, chosen: Exchange | None, status: int, tags: dict[str, str] | None = None
) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response.request = request
    response.url = request.url
    response.reason = "OK" if status < 400 else "Error"
    if chosen is not None and chosen.status == status:
        response.headers.update(chosen.headers)
        response._content = chosen.response_text.encode("utf-8")
        answered = chosen.response_body
        if tags and isinstance(answered, dict) and "id" in answered:
            answered["tags"] = {**(answered.get("tags") or {}), **tags}
            response._content = json.dumps(answered).encode("utf-8")
    else:
        error = {
            "error": {
                "code": "ResourceNotFound" if status == 404 else "NotRecorded",
                "message": request.url,
            }
        }
        response._content = json.dumps(error).encode()
    response.headers.setdefault("content-type", "application/json; charset=utf-8")
    response.headers.pop("content-length", None)
    # azure-core's RequestsTransport reads the urllib3 response beneath (its content length)
    response.raw = urllib3.HTTPResponse(
        body=io.BytesIO(response._content or b""),
        headers=dict(response.headers),
        status=status,
        preload_content=False,
    )
    return response


def transport(replay: Replay) -> Any:
    """azure-core's ``RequestsTransport`` over ``replay``; its ``sleep`` records, never waits."""
    from azure.core.pipeline.transport import RequestsTransport

    class ReplayTransport(RequestsTransport):
        def sleep(self, duration: float) -> None:
            replay.slept.append(duration)

    session = requests.Session()
    session.mount("https://", replay)
    return ReplayTransport(session=session, session_owner=False)


@dataclass
class Difference:
    index: int  # the recorded exchange
    member: str
    ours: Any
    recorded: Any

    def __str__(self) -> str:
        return f"#{self.index} {self.member}: ours {self.ours!r}, recorded {self.recorded!r}"


@dataclass
class Judgement:
    writes: int = 0
    differences: list[Difference] = field(default_factory=list)
    api_versions: set[tuple[str | None, str | None]] = field(default_factory=set)


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out if out or not prefix else {prefix: {}}
    return {prefix: value}


def judge(replay: Replay) -> Judgement:
    """Each write we sent against the recorded one that answered it: body member by member."""
    judgement = Judgement()
    for s in replay.writes():
        judgement.writes += 1
        if s.answered_by is None:
            judgement.differences.append(
                Difference(-1, f"{s.method} {s.path}", "sent", "not recorded")
            )
            continue
        recorded = replay.exchanges[s.answered_by]
        judgement.api_versions.add((s.api_version, recorded.api_version))
        ours, theirs = flatten(s.body or {}), flatten(recorded.request_body or {})
        for member in sorted(set(ours) | set(theirs)):
            if ours.get(member) != theirs.get(member):
                judgement.differences.append(
                    Difference(recorded.index, member, ours.get(member), theirs.get(member))
                )
    return judgement


def recordings() -> list[Path]:
    return sorted(RECORDINGS.glob("*.yaml"))
