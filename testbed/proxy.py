"""A fault-injecting HTTP proxy in front of ``moto_server``, judging client tokens as AWS does.

The proxy speaks the AWS query protocol EC2 uses (a form body with ``Action=...``), records
every request at the wire, and injects one planned fault at the Nth occurrence of an action:

``throttle``   503 ``RequestLimitExceeded`` (what EC2 answers when throttling), not forwarded.
``5xx``        500 ``InternalError``, not forwarded: the server failed before committing.
``5xx-after``  forwarded, moto commits, then 500 ``InternalError`` instead of moto's answer.
               AWS documents that a 5xx does not mean nothing happened; this is the honest,
               harder case: the client must not assume the create failed.
``lost``       forwarded, moto commits, then the connection is closed without a reply (a
               reply lost on the way back; the client cannot know the outcome).
``reset``      the connection is reset (TCP RST) before forwarding: nothing was committed.

Client tokens. moto ignores ``ClientToken``; AWS does not ("Ensuring idempotency in Amazon
EC2 API requests"): a retry of a request that completed successfully with the same token and
the same parameters succeeds without doing anything further and returns the original result; the
same token with any parameter changed (other than the Region or Availability Zone) fails with
``IdempotentParameterMismatch``; the same token may be used again in another Region. The proxy
keeps that ledger per (access key, Region, token) and answers replays itself, so a token-carrying
create is judged as AWS would judge it. Which member is the token comes from the botocore model
(``idempotencyToken``), not from a list of names. Route 53 (REST-XML) is named and judged by
:mod:`testbed.rest`: its ``CallerReference`` rule, as the Route 53 API reference states it.
"""

from __future__ import annotations

import http.client
import re
import select
import socket
import struct
import threading
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from testbed.rest import CALLER_REFERENCE_TAKEN, caller_reference_taken, rest_action, xml_params

READ_PREFIXES = ("Describe", "Get", "List")
_HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "transfer-encoding",
        "content-length",
        "proxy-connection",
        "te",
        "trailer",
        "upgrade",
    }
)
_CREDENTIAL = re.compile(r"Credential=([^/,\s]+)/\d{8}/([^/]+)/([^/]+)/")


class FaultKind(str, Enum):
    THROTTLE = "throttle"
    ERROR_BEFORE = "5xx"
    ERROR_AFTER = "5xx-after"
    LOST = "lost"
    RESET = "reset"

    @property
    def forwards(self) -> bool:
        """Whether the request reaches moto (and may be committed) before the fault."""
        return self in (FaultKind.ERROR_AFTER, FaultKind.LOST)


@dataclass(frozen=True)
class Fault:
    """Fault the ``occurrence``-th request of ``action`` (counted from when it was planned),
    and the ``times - 1`` requests of that action after it."""

    action: str
    occurrence: int
    kind: FaultKind
    times: int = 1

    def __str__(self) -> str:
        repeat = f"x{self.times}" if self.times > 1 else ""
        return f"{self.action}#{self.occurrence}-{self.kind.value}{repeat}"


@dataclass(frozen=True)
class WireRequest:
    """One request as the proxy saw it, and what it did with it."""

    action: str
    params: dict[str, str]
    region: str
    fault: FaultKind | None = None
    replayed: bool = False  # answered from the client-token ledger, never reached moto
    status: int | None = None  # None: no reply was sent
    path: str = (
        ""  # the URL path of a REST request (its identity, Route 53's zone id); "" for query
    )

    @property
    def mutating(self) -> bool:
        return bool(self.action) and not self.action.startswith(READ_PREFIXES)


@dataclass(frozen=True)
class _Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


@dataclass(frozen=True)
class _Committed:
    action: str
    params: frozenset[tuple[str, str]]
    answer: _Answer


@cache
def _token_member(service: str, action: str) -> str | None:
    """The wire name of the action's idempotency-token member, from botocore's model."""
    from botocore.model import OperationNotFoundError

    try:
        shape = _service_model(service).operation_model(action).input_shape
    except OperationNotFoundError:  # not an action of this service: no token rule applies
        return None
    for name, member in (shape.members.items() if shape is not None else ()):
        if member.metadata.get("idempotencyToken"):
            wire = member.serialization.get("queryName") or member.serialization.get("name") or name
            return str(wire[:1].upper() + wire[1:])
    return None


@cache
def _service_model(service: str) -> Any:
    import botocore.session

    return botocore.session.get_session().get_service_model(service)


def _comparable(params: dict[str, str], token: str) -> frozenset[tuple[str, str]]:
    """The parameters a replay must repeat: all but the token and the Availability Zone,
    which the EC2 documentation exempts."""
    return frozenset(
        (k, v)
        for k, v in params.items()
        if k != token and not k.split(".")[-1].startswith("AvailabilityZone")
    )


def _error(status: int, code: str, message: str) -> _Answer:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error>'
        f"<Code>{code}</Code><Message>{message}</Message></Error></Errors>"
        f"<RequestID>{uuid.uuid4()}</RequestID></Response>"
    ).encode()
    return _Answer(status, [("Content-Type", "text/xml;charset=UTF-8")], body)


THROTTLED = _error(503, "RequestLimitExceeded", "Request limit exceeded.")
INTERNAL = _error(500, "InternalError", "An internal error has occurred.")


@dataclass
class FaultProxy:
    """``start()`` it, point clients at ``url``, ``plan()`` faults, read ``requests``."""

    upstream: str
    service: str = "ec2"
    requests: list[WireRequest] = field(default_factory=list)
    _plans: list[Fault] = field(default_factory=list)
    _seen: Counter[tuple[int, str]] = field(default_factory=Counter)
    _ledger: dict[tuple[str, str, str], _Committed] = field(default_factory=dict)
    _references: set[tuple[str, str, str]] = field(
        default_factory=set
    )  # (access key, action, reference)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _token_lock: threading.Lock = field(default_factory=threading.Lock)
    _local: threading.local = field(default_factory=threading.local)  # per handler thread
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _hooks: dict[str, list[Callable[[WireRequest], None]]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        assert self._server is not None, "the proxy is not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> FaultProxy:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        server.daemon_threads = True
        server.proxy = self  # type: ignore[attr-defined]
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, name="fault-proxy", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    # -- what tests use --------------------------------------------------------------------

    def plan(self, fault: Fault) -> None:
        with self._lock:
            self._plans.append(fault)
            self._seen[(len(self._plans) - 1, fault.action)] = 0

    def on_committed(self, action: str, hook: Callable[[WireRequest], None]) -> None:
        """Call ``hook`` once, with the next request of ``action``, after moto has answered it
        and before that answer goes back to the client: what a client killed (``kill -9``) or
        a custom resource deleted right then does to a create that has reached the cloud."""
        with self._lock:
            self._hooks.setdefault(action, []).append(hook)

    def clear(self) -> None:
        """Forget requests and plans; keep the token ledger (the cloud remembers tokens)."""
        with self._lock:
            self.requests.clear()
            self._plans.clear()
            self._seen.clear()

    def reset(self) -> None:
        """Forget everything, as after moto's own reset."""
        self.clear()
        with self._lock:
            self._ledger.clear()
            self._references.clear()

    def fired(self) -> list[WireRequest]:
        with self._lock:
            return [r for r in self.requests if r.fault is not None]

    def writes(self) -> Counter[str]:
        with self._lock:
            return Counter(r.action for r in self.requests if r.mutating)

    def reads(self) -> Counter[str]:
        with self._lock:
            return Counter(r.action for r in self.requests if r.action and not r.mutating)

    # -- what the handler uses -------------------------------------------------------------

    def _fault_for(self, action: str) -> FaultKind | None:
        with self._lock:
            for index, fault in enumerate(self._plans):
                if fault.action != action:
                    continue
                self._seen[(index, action)] += 1
                seen = self._seen[(index, action)]
                if fault.occurrence <= seen < fault.occurrence + fault.times:
                    return fault.kind
        return None

    def _committed(self, request: WireRequest) -> bool:
        """Run the hook planned for this request's action, if any; whether one ran."""
        with self._lock:
            waiting = self._hooks.get(request.action) or []
            hook = waiting.pop(0) if waiting else None
        if hook is None:
            return False
        hook(request)
        return True

    def _record(self, request: WireRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _answer(
        self,
        method: str,
        path: str,
        headers: list[tuple[str, str]],
        body: bytes,
        action: str,
        params: dict[str, str],
        key: tuple[str, str],
    ) -> tuple[_Answer, bool]:
        """moto's answer, or the ledger's for a replayed client token. Returns (answer, replayed)."""
        if action in CALLER_REFERENCE_TAKEN and params.get("CallerReference"):
            return self._answer_referenced(
                method, path, headers, body, action, params["CallerReference"], key
            )
        token_name = _token_member(self.service, action) if action else None
        token = params.get(token_name, "") if token_name else ""
        if not token:
            return self._forward(method, path, headers, body), False
        ledger_key = (*key, token)
        comparable = _comparable(params, token_name or "")
        with self._token_lock:  # two requests with one token must not both reach moto
            committed = self._ledger.get(ledger_key)
            if committed is not None:
                if committed.action == action and committed.params == comparable:
                    return committed.answer, True
                return (
                    _error(
                        400,
                        "IdempotentParameterMismatch",
                        f"Client token {token} was used with different parameters.",
                    ),
                    True,
                )
            answer = self._forward(method, path, headers, body)
            if 200 <= answer.status < 300:
                self._ledger[ledger_key] = _Committed(action, comparable, answer)
            return answer, False

    def _answer_referenced(
        self,
        method: str,
        path: str,
        headers: list[tuple[str, str]],
        body: bytes,
        action: str,
        reference: str,
        key: tuple[str, str],
    ) -> tuple[_Answer, bool]:
        """A Route 53 create: a CallerReference that already made one is refused, as AWS does."""
        used = (key[0], action, reference)  # caller references are per account, not per Region
        with self._token_lock:
            if used in self._references:
                return _Answer(*caller_reference_taken(action, reference)), True
            answer = self._forward(method, path, headers, body)
            if 200 <= answer.status < 300:
                self._references.add(used)
            return answer, False

    def _forward(
        self, method: str, path: str, headers: list[tuple[str, str]], body: bytes
    ) -> _Answer:
        """Send to moto over this thread's kept-alive connection; never twice (a resend could
        commit a create twice and blame the runtime for a duplicate the proxy made)."""
        connection = self._upstream_connection()
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in headers:
                if name.lower() not in _HOP_BY_HOP:
                    connection.putheader(name, value)
            connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            data = response.read()
        except Exception:
            connection.close()
            raise
        kept = [(k, v) for k, v in response.getheaders() if k.lower() not in _HOP_BY_HOP]
        return _Answer(response.status, kept, data)

    def _close_upstream(self) -> None:
        """The client's connection ended: end this thread's connection to moto with it."""
        connection: http.client.HTTPConnection | None = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def _upstream_connection(self) -> http.client.HTTPConnection:
        connection: http.client.HTTPConnection | None = getattr(self._local, "connection", None)
        if connection is not None and connection.sock is not None:
            readable, _, _ = select.select([connection.sock], [], [], 0)
            if not readable:  # idle and open: reuse (readable here means moto closed it)
                return connection
            connection.close()
        parts = urlsplit(self.upstream)
        connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port, timeout=60
        )
        connection.connect()
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._local.connection = connection
        return connection


def parse_call(
    method: str, path: str, headers: Any, body: bytes
) -> tuple[str, dict[str, str], tuple[str, str]]:
    """(action, params, (access key, region)) of a query-protocol request; action '' otherwise."""
    params: dict[str, str] = {}
    content_type = headers.get("Content-Type", "")
    if method == "POST" and "x-www-form-urlencoded" in content_type:
        params = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    elif "?" in path:
        params = dict(parse_qsl(urlsplit(path).query, keep_blank_values=True))
    found = _CREDENTIAL.search(headers.get("Authorization", ""))
    key = (found.group(1), found.group(2)) if found else ("", "")
    if "Action" not in params and found:  # a REST service: named by its route, read from its XML
        action = rest_action(found.group(3), method, urlsplit(path).path)
        return action, xml_params(body) if action else params, key
    return params.get("Action", ""), params, key


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as botocore's connection pool expects

    def setup(self) -> None:
        super().setup()
        # small header and body writes would otherwise wait on Nagle + delayed ACK (~40 ms each)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def finish(self) -> None:
        super().finish()
        self.server.proxy._close_upstream()  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the request log is ``FaultProxy.requests``

    def do_GET(self) -> None:
        self._handle()

    do_POST = do_PUT = do_DELETE = do_HEAD = do_GET

    def _handle(self) -> None:
        proxy: FaultProxy = self.server.proxy  # type: ignore[attr-defined]
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        action, params, key = parse_call(self.command, self.path, self.headers, body)
        fault = proxy._fault_for(action) if action else None
        path = "" if "Action" in params else urlsplit(self.path).path
        record = WireRequest(action, params, key[1], fault, path=path)

        if fault is FaultKind.RESET:
            proxy._record(record)
            self._reset()
            return
        if fault is FaultKind.THROTTLE or fault is FaultKind.ERROR_BEFORE:
            answer = THROTTLED if fault is FaultKind.THROTTLE else INTERNAL
            proxy._record(
                WireRequest(action, params, key[1], fault, status=answer.status, path=path)
            )
            self._send(answer)
            return

        answer, replayed = proxy._answer(
            self.command, self.path, list(self.headers.items()), body, action, params, key
        )
        if fault is FaultKind.LOST:
            proxy._record(WireRequest(action, params, key[1], fault, replayed, path=path))
            self.close_connection = True  # closed with no reply: the outcome is unknown
            return
        if fault is FaultKind.ERROR_AFTER:
            answer = INTERNAL
        request = WireRequest(action, params, key[1], fault, replayed, answer.status, path)
        proxy._record(request)
        if proxy._committed(request):
            try:
                self._send(answer)
            except OSError:  # the client the hook killed is not there to read it
                self.close_connection = True
            return
        self._send(answer)

    def _send(self, answer: _Answer) -> None:
        """Status line, headers and body in one write (small separate writes would wait on
        Nagle + delayed ACK)."""
        head = [f"HTTP/1.1 {answer.status} {HTTPStatus(answer.status).phrase}"]
        head += [f"{name}: {value}" for name, value in answer.headers]
        head.append(f"Content-Length: {len(answer.body)}")
        payload = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1")
        self.wfile.write(payload + (answer.body if self.command != "HEAD" else b""))

    def _reset(self) -> None:
        """Abort the connection with a TCP RST: linger 0, then close the last reference."""
        self.close_connection = True
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.rfile.close()  # the socket only really closes once its file objects are gone
        self.connection.close()
