"""The generated tasks judged over Config Connector's recorded GCP traffic (issue 23 item 3).

:class:`ReplayHttp` is an ``http`` for googleapiclient that serves a recording's answers in
order: each request is answered by the next recorded exchange of the same HTTP method and path
(an operation's ``…/wait`` by the recorded poll of it, every operation being
``${operationID}`` in the log; a list of a collection by the recorded read of its item: Config
Connector reads by name where a task lists); a request the recording has no answer for is answered 599 and
listed in ``unmatched``.

:func:`replay` takes the first create of a kind in a pinned log, builds the generated task
from the desired state that create expressed (its body's members, by each field's API name),
and runs it twice:

1. **create**, over the log from the first request on the resource: every write the task
   sends must be one the log recorded (method and path), its body the recorded body
   semantically (references in any form Google accepts, members the task leaves to the server
   not sent), and valid against the full discovery document (:mod:`testbed.gcp_requests`);
2. **re-apply**, every read of the resource answered by the recorded read after the create: 0
   writes, or each field the task would change is a perma-diff, named.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from importlib import import_module
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tasklayer_tasks.runtime import CloudTarget, Context, Executor
from tasklayer_tasks.runtime.contract.retry import RetryPolicy
from tasklayer_tasks.runtime.contract.spec import Mutability

from .gcp_requests import RequestValidator
from .kcc_judge import flatten
from .kcc_log import Exchange, concrete_exchange, parse
from .kcc_pin import OUT as RECORDINGS

LINK = "https://www.googleapis.com/compute/v1/"
_TRANSPORT = ("alt", "prettyPrint", "requestId")


LIMIT = 100  # requests one run may send: a task that polls or retries for ever is a finding


# a list answer's member holding the resources, where it is not compute's and storage's items
LIST_KEYS = {"serviceAccounts": "accounts"}  # iam's ListServiceAccountsResponse


class ReplayExhausted(Exception):
    pass


class _Response(dict[str, Any]):
    def __init__(self, status: int) -> None:
        super().__init__({"status": str(status), "content-type": "application/json"})
        self.status = status
        self.reason = "OK" if status < 300 else "Error"


@dataclass
class Sent:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    answered_by: int | None  # the recorded exchange's index, None when unmatched


def _key(method: str, path: str) -> tuple[str, str]:
    if method == "POST" and path.endswith("/wait") and "/operations/" in path:
        return "GET", path.removesuffix("/wait")  # compute's wait answers as its get does
    return method, path


class ReplayHttp:
    """googleapiclient's ``http``, answering from recorded exchanges in order."""

    def __init__(self, exchanges: list[Exchange], repeat: bool = False) -> None:
        self.exchanges, self.repeat = exchanges, repeat
        self.cursor = 0
        self.sent: list[Sent] = []

    def request(
        self, uri: str, method: str = "GET", body: Any = None, headers: Any = None, **_: Any
    ) -> tuple[_Response, bytes]:
        if len(self.sent) >= LIMIT:
            raise ReplayExhausted(f"over {LIMIT} requests: the last {self.unmatched[-3:]}")
        parts = urlsplit(uri)
        query = {k: v for k, v in parse_qsl(parts.query) if k not in ("alt", "prettyPrint")}
        sent = Sent(method, parts.path, query, json.loads(body) if body else None, None)
        self.sent.append(sent)
        want = _key(method, parts.path)
        start = 0 if self.repeat else self.cursor
        for i in range(start, len(self.exchanges)):
            recorded = self.exchanges[i]
            if (recorded.method, recorded.path) == want:
                sent.answered_by = recorded.index
                self.cursor = i + 1
                content = (
                    b""
                    if recorded.response_body is None
                    else json.dumps(recorded.response_body).encode()
                )
                return _Response(recorded.status), content
        if method == "GET":
            listed = self._as_list(parts.path, start)
            if listed is not None:
                return _Response(200), json.dumps(listed).encode()
        error = {"error": {"code": 599, "message": f"not in the recording: {method} {uri}"}}
        return _Response(599), json.dumps(error).encode()

    def _as_list(self, collection: str, start: int) -> dict[str, Any] | None:
        """A list of a collection, where the recording read its one item instead (Config
        Connector gets by name; a task finds by listing): the items that read shows, none
        after a 404."""
        for i in range(start, len(self.exchanges)):
            recorded = self.exchanges[i]
            inside = recorded.path.startswith(collection + "/")
            if (
                recorded.method == "GET"
                and inside
                and "/" not in recorded.path[len(collection) + 1 :]
            ):
                self.sent[-1].answered_by = recorded.index
                self.cursor = i  # a view of that read: the get that may confirm it reads it too
                found = recorded.status == 200 and isinstance(recorded.response_body, dict)
                key = LIST_KEYS.get(collection.rsplit("/", 1)[-1], "items")
                return {key: [recorded.response_body]} if found else {}
        return None

    @property
    def unmatched(self) -> list[str]:
        return [f"{s.method} {s.path}" for s in self.sent if s.answered_by is None]

    def writes(self) -> list[Sent]:
        return [s for s in self.sent if _key(s.method, s.path)[0] != "GET"]


@dataclass
class Replay:
    fixture: str
    kind: str
    desired: dict[str, Any]
    create: ReplayHttp
    reapply: ReplayHttp
    request_problems: list[str] = field(default_factory=list)
    body_differences: list[str] = field(default_factory=list)
    unmodelled: list[str] = field(default_factory=list)  # create members no field carries
    errors: list[str] = field(default_factory=list)  # what the runs raised

    @property
    def perma_diffs(self) -> list[str]:
        """The fields a re-apply over the recorded read would change."""
        out = []
        for write in self.reapply.writes():
            members = sorted((write.body or {}).keys()) if isinstance(write.body, dict) else []
            out.append(f"{write.method} {write.path.rsplit('/', 1)[-1]}: {members}")
        return out


def _canonical(value: Any, project: str) -> Any:
    """References in Google's full-URL form on v1, as it answers them whatever form was sent."""
    if isinstance(value, str):
        # on either host, in any version (a compute/beta client's links name the same resource)
        found = re.match(
            r"^https://(?:compute|www)\.googleapis\.com/compute/[a-z0-9]+/(.*)$", value
        )
        if found:
            return LINK + found.group(1)
        if re.match(r"^projects/[^/]+/(global|regions|zones)/", value):
            return LINK + value
        if re.match(r"^(global|regions/[^/]+|zones/[^/]+)/[A-Za-z]+/", value):
            return f"{LINK}projects/{project}/{value}"
        return value
    if isinstance(value, list):
        return [_canonical(v, project) for v in value]
    if isinstance(value, dict):
        return {k: _canonical(v, project) for k, v in value.items() if v is not None}
    return value


def task_class(kind: str) -> Any:
    api, name = kind.split(".")
    return getattr(import_module(f"tasklayer_tasks.gcp.{api}"), name)


def desired_state(cls: Any, body: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The task's keyword arguments for a recorded create's body; and the members no field of
    the task carries (or only a read-only one)."""
    by_key = {f.name: f for f in cls.spec.fields}  # the API's member name
    kwargs, unmodelled = {}, []
    for key, value in body.items():
        f = by_key.get(key)
        if key in ("region", "zone") and (f is None or f.mutability is Mutability.READ_ONLY):
            continue  # the scope, which the context carries
        if f is None or f.mutability is Mutability.READ_ONLY:
            unmodelled.append(key)
        elif value is not None:
            kwargs[f.attr] = value
    return kwargs, unmodelled


def _scope(path: str) -> dict[str, str]:
    return dict(re.findall(r"/(region|zone)s/([^/]+)", path))


def _context(http: ReplayHttp, project: str, scope: dict[str, str]) -> Context:
    return Context(
        project=project,
        region=scope.get("region", "us-central1"),
        zone=scope.get("zone", "us-central1-a"),
        cluster="kcc",
        http=http,
        retry=RetryPolicy(sleep=lambda _: None),
    )


def _run(task: Any, context: Context) -> str | None:
    try:
        Executor(CloudTarget(context), sleep=lambda _: None).run([task])
    except Exception as err:  # the replay reports what the run raised, as a finding
        return f"{type(err).__name__}: {err}"
    return None


def _create_of(exchanges: list[Exchange], collection: str) -> int:
    for i, e in enumerate(exchanges):
        if e.method == "POST" and e.path.endswith("/" + collection) and e.status == 200:
            return i
    raise LookupError(f"no create of {collection} recorded")


def _resource_of(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The resource a create's body carries: the body, or (iam's ``{accountId,
    serviceAccount: {...}}``) its member named after the kind, with the body's other members."""
    name = kind.split(".")[1]
    member = name[0].lower() + name[1:]
    if isinstance(body.get(member), dict):
        return {**{k: v for k, v in body.items() if k != member}, **body[member]}
    return body


def create_and_read(
    exchanges: list[Exchange], kind: str, collection: str
) -> tuple[Exchange, dict[str, Any], Exchange]:
    """A recording's first create of a kind, the resource its body carries, and the recorded
    read after it."""
    create = exchanges[_create_of(exchanges, collection)]
    body = _resource_of(kind, dict(create.request_body))
    # the resource's own path: its name under the collection, or (a name Google makes, as a
    # service account's email) the first item the recording reads after the create
    own = f"{create.path}/{body['name']}" if "name" in body else None
    read = next(
        e
        for e in exchanges[create.index :]
        if e.method == "GET"
        and e.status == 200
        and (e.path == own if own else e.path.startswith(create.path + "/"))
    )
    return create, body, read


def replay(fixture: str, kind: str, collection: str, project: str = "projectid") -> Replay:
    exchanges = [
        concrete_exchange(e) for e in parse((RECORDINGS / f"{fixture}.http.log").read_text())
    ]
    create, body, read = create_and_read(exchanges, kind, collection)
    item = read.path
    first = next(i for i, e in enumerate(exchanges) if e.path == item)
    cls = task_class(kind)
    kwargs, unmodelled = desired_state(cls, body)
    if "name" not in kwargs:  # a task is named by the id its create gives (iam's accountId)
        kwargs["name"] = next(v for k, v in body.items() if k.endswith("Id"))
    scope = _scope(create.path)
    # the task labels what it creates as its cluster's (k8s-io-cluster-name), which Config
    # Connector never sent: the recorded reads are served as they would be had it sent that
    # label too (Google answers labels as they were sent: every recorded read does)
    owned: dict[str, str] = {}
    for _ in range(2):
        served = _labelled(exchanges[first:], item, owned)
        create_http = ReplayHttp(served)
        create_error = _run(cls(**kwargs), _context(create_http, project, scope))
        found = _owned_labels(create_http, body)
        if found == owned:
            break
        owned = found
    # the recorded read after the task's last write that the recording made the same: after
    # the create, or after a write that completes it (a ForwardingRule's labels, which
    # Google's insert leaves out, by setLabels) — not after the fixture's own later update
    by_index = {e.index: e for e in exchanges}
    same = [
        w.answered_by
        for w in create_http.writes()
        if w.answered_by is not None
        and not _write_differences(w, by_index[w.answered_by], project, owned)
    ]
    last = max(same, default=read.index)
    read_after = next(
        (
            e
            for e in served
            if e.index > last and e.method == "GET" and e.path == item and e.status == 200
        ),
        next(e for e in served if e.index == read.index),
    )
    out = Replay(fixture, kind, kwargs, create_http, ReplayHttp([read_after], True))
    out.unmodelled = unmodelled
    if create_error:
        out.errors.append(f"create: {create_error}")
    error = _run(cls(**kwargs), _context(out.reapply, project, scope))
    if error:
        out.errors.append(f"re-apply: {error}")
    out.body_differences = _body_differences(out.create, exchanges, project, owned)
    out.request_problems = _request_problems(out.create.sent + out.reapply.sent)
    return out


def _labelled(exchanges: list[Exchange], item: str, labels: dict[str, str]) -> list[Exchange]:
    """The exchanges with ``labels`` added to every successful read of ``item``."""
    if not labels:
        return exchanges
    out = []
    for e in exchanges:
        if e.method == "GET" and e.path == item and isinstance(e.response_body, dict):
            answer = {**e.response_body}
            answer["labels"] = {**(answer.get("labels") or {}), **labels}
            e = replace(e, response_body=answer)
        out.append(e)
    return out


def _unscoped(body: Any) -> dict[str, Any]:
    """A body without its scope member: Config Connector sends ``region`` (in any of three
    forms); a task's path carries it."""
    return {k: v for k, v in (body or {}).items() if k not in ("region", "zone")}


def _owned_labels(http: ReplayHttp, recorded_body: dict[str, Any]) -> dict[str, str]:
    """The labels the task's create added to those the recording's create sent: ours, the
    ownership label (``k8s-io-cluster-name``), which Config Connector never sent."""
    for write in http.writes():
        if write.method == "POST" and isinstance(write.body, dict) and "labels" in write.body:
            given = recorded_body.get("labels") or {}
            return {k: v for k, v in write.body["labels"].items() if k not in given}
    return {}


def _body_differences(
    http: ReplayHttp, exchanges: list[Exchange], project: str, owned: dict[str, str]
) -> list[str]:
    by_index = {e.index: e for e in exchanges}
    out = []
    for write in http.writes():
        if write.answered_by is not None:
            out += _write_differences(write, by_index[write.answered_by], project, owned)
    return out


def _write_differences(
    write: Sent, recorded: Exchange, project: str, owned: dict[str, str]
) -> list[str]:
    """Where a write differs from the recorded one: each member of either body (references
    in Google's full-URL form, not the scope member, not our ownership labels), and the query
    (not the transport's parameters, nor our requestId)."""
    want = flatten(_canonical(_unscoped(recorded.request_body), project))
    got = flatten(_canonical(_unscoped(write.body), project))
    for label in owned:
        got.pop(f"labels.{label}", None)
    out = [
        f"{write.method} {write.path} {member}: recorded "
        f"{json.dumps(want.get(member, '(absent)'))}, sent {json.dumps(got.get(member, '(absent)'))}"
        for member in dict.fromkeys([*want, *got])
        if want.get(member, "(absent)") != got.get(member, "(absent)")
    ]
    query = {k: v for k, v in write.query.items() if k not in _TRANSPORT}
    if query != recorded.query:
        out.append(f"{write.method} {write.path} query: recorded {recorded.query}, sent {query}")
    return out


_VALIDATOR: list[RequestValidator] = []


def _request_problems(sent: list[Sent]) -> list[str]:
    if not _VALIDATOR:
        _VALIDATOR.append(RequestValidator("compute", "iam", "storage"))
    validator = _VALIDATOR[0]
    out = []
    for s in sent:
        matches = sorted(
            (m for m in validator.methods if m.http_method == s.method and m.pattern.match(s.path)),
            key=lambda m: -m.literal_length,
        )
        method_id = matches[0].id if matches else "?"
        out += validator.check(method_id, s.method, s.path, s.query, s.body)
    return out
