"""A stateful fake of Google's REST APIs, driven by their discovery documents.

Plug it into googleapiclient as the ``http`` of a client built from a discovery document
(``FakeGcp(document).build()``), and it behaves like the API for the generic verbs every
Google API shares, with nothing written per resource:

- resources stored by URL; ``insert``/``create`` (409 if the name is taken), ``get``/``list``
  (404 for a missing one), ``patch`` (merge), ``update`` (replace), ``delete``;
- other POSTs on a resource (``setLabels``, ``resize``, ``expandIpCidrRange``, ``addInstances``)
  applied by their request body and query parameters;
- ``…Fingerprint`` fields enforced as optimistic locks (412 on a stale one), renewed on change;
- mutating calls whose response is an ``Operation`` return one, ``PENDING`` then ``DONE``
  after ``operation_polls`` reads of it; a repeated insert with the same ``requestId`` returns
  the same operation instead of a 409;
- every request in ``log`` (method id, HTTP method, path, query, body) for counting calls.

What it does not model: IAM policy, quotas, long-running failures, server-side validation of
values, ``filter`` expressions beyond ``name = "x"``, and output-only fields beyond
id/selfLink/creationTimestamp/kind/fingerprints.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

SCOPE_PARAMS = ("project", "region", "zone")
TIMESTAMP = "2026-01-01T00:00:00.000-00:00"


@dataclass(frozen=True)
class Route:
    method_id: str
    verb: str  # the method's own name: insert, get, list, patch, setLabels, ...
    http_method: str
    pattern: re.Pattern[str]
    params: tuple[str, ...]
    collection: bool  # the path ends at a collection (insert, list) rather than an item
    response: str | None
    request: str | None
    document: dict[str, Any]
    name_prefix: str | None = None  # resource-name APIs: the path before {+name} ("v1/")
    base: str = ""


@dataclass
class Request:
    method_id: str
    http_method: str
    path: str
    query: dict[str, str]
    body: Any


class _Response(dict[str, Any]):
    """What httplib2 returns: a dict of headers with a ``status``."""

    def __init__(self, status: int) -> None:
        super().__init__({"status": str(status), "content-type": "application/json"})
        self.status = status
        self.reason = "OK" if status < 300 else "Error"


class FakeError(Exception):
    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.status, self.reason, self.message = status, reason, message


def _routes(document: dict[str, Any]) -> list[Route]:
    base = document["rootUrl"] + document["servicePath"]
    out: list[Route] = []

    def walk(resources: dict[str, Any]) -> None:
        for resource in resources.values():
            for verb, method in (resource.get("methods") or {}).items():
                out.append(_route(base, verb, method, document))
            walk(resource.get("resources") or {})

    walk(document.get("resources") or {})
    # literal-rich paths first, so ".../networks/{network}/setLabels" wins over ".../{+name}"
    return sorted(out, key=lambda r: -len(re.sub(r"\(\?P<[^>]+>[^)]*\)", "", r.pattern.pattern)))


def _route(base: str, verb: str, method: dict[str, Any], document: dict[str, Any]) -> Route:
    path = str(method.get("flatPath") if "{+" in method["path"] and method.get("flatPath") else method["path"])
    regex, params = "", []
    for literal, name in re.findall(r"([^{]*)(?:\{\+?([^}]+)\})?", path):
        regex += re.escape(literal)
        if name:
            params.append(name)
            regex += f"(?P<{re.sub(r'[^A-Za-z0-9_]', '_', name)}>[^/]+)"
    segments = path.rstrip("/").split("/")
    # ".../networks" is a collection; ".../{disk}/setLabels" an action on one resource
    action = len(segments) > 1 and not segments[-1].startswith("{") and segments[-2].startswith("{")
    collection = not segments[-1].startswith("{") and (verb in ("insert", "create", "list") or not action)
    return Route(
        method_id=method["id"], verb=verb, http_method=method["httpMethod"],
        pattern=re.compile("^" + re.escape(base) + regex + "$"), params=tuple(params),
        collection=collection, response=(method.get("response") or {}).get("$ref"),
        request=(method.get("request") or {}).get("$ref"), document=document,
        name_prefix=method["path"].split("{+", 1)[0] if "{+" in method["path"] else None, base=base,
    )


class FakeGcp:
    """The fake: one store shared by every API whose document it was given."""

    def __init__(self, *documents: dict[str, Any], operation_polls: int = 1) -> None:
        self.documents, self.operation_polls = documents, operation_polls
        self.store: dict[str, dict[str, Any]] = {}  # resource URL -> resource
        self.log: list[Request] = []
        self._operations: dict[str, dict[str, Any]] = {}
        self._polls: dict[str, int] = {}
        self._request_ids: dict[tuple[str, str], dict[str, Any]] = {}
        self._ids: itertools.count[int] = itertools.count(1000)
        self._routes: list[Route] = [r for d in documents for r in _routes(d)]

    # -- googleapiclient's http interface ------------------------------------------------------------

    def build(self, document: dict[str, Any] | None = None) -> Any:
        from googleapiclient.discovery import build_from_document  # type: ignore[import-untyped]

        return build_from_document(document or self.documents[0], http=self)

    def request(self, uri: str, method: str = "GET", body: Any = None, headers: Any = None,
                **_: Any) -> tuple[_Response, bytes]:
        parts = urlsplit(uri)
        url = f"{parts.scheme}://{parts.netloc}{parts.path}"
        query = dict(parse_qsl(parts.query))
        query.pop("alt", None)
        payload = json.loads(body) if body else None
        try:
            route, args = self._match(url, method)
            self.log.append(Request(route.method_id, method, parts.path, query, payload))
            status, result = self._dispatch(route, url, args, query, payload)
        except FakeError as err:
            error = {"error": {"code": err.status, "message": err.message,
                               "errors": [{"reason": err.reason, "message": err.message}]}}
            return _Response(err.status), json.dumps(error).encode()
        return _Response(status), json.dumps(result).encode()

    def _match(self, url: str, http_method: str) -> tuple[Route, dict[str, str]]:
        for route in self._routes:
            if route.http_method == http_method:
                found = route.pattern.match(url)
                if found:
                    return route, found.groupdict()
        raise FakeError(404, "notFound", f"no method serves {http_method} {url}")

    # -- verbs -------------------------------------------------------------------------------------

    def _dispatch(self, route: Route, url: str, args: dict[str, str], query: dict[str, str],
                  body: Any) -> tuple[int, Any]:
        if url in self._operations or route.method_id.endswith(("Operations.get", "Operations.wait", "operations.get")):
            return 200, self._poll(url, wait=route.verb == "wait")
        if route.http_method == "GET" and route.collection:
            return 200, self._list(route, url, query)
        if route.http_method == "GET":
            return 200, copy.deepcopy(self._get(url))
        if route.http_method == "POST" and route.collection:
            return self._insert(route, url, query, body or {})
        if route.http_method == "DELETE":
            self._get(url)
            del self.store[url]
            return self._done(route, url, query)
        if route.http_method in ("PATCH", "PUT"):
            return self._change(route, url, query, body or {}, replace=route.http_method == "PUT")
        return self._action(route, url, query, body or {})

    def _get(self, url: str) -> dict[str, Any]:
        if url not in self.store:
            raise FakeError(404, "notFound", f"The resource '{url}' was not found")
        return self.store[url]

    def _list(self, route: Route, collection: str, query: dict[str, str]) -> dict[str, Any]:
        items = [copy.deepcopy(r) for u, r in sorted(self.store.items()) if u.rsplit("/", 1)[0] == collection]
        wanted = re.fullmatch(r'\s*name\s*(?:=|eq)\s*"?([^"]+)"?\s*', query.get("filter", ""))
        if wanted:
            items = [r for r in items if r.get("name") == wanted.group(1)]
        return {_list_key(route): items} if items else {}

    def _insert(self, route: Route, collection: str, query: dict[str, str], body: dict[str, Any]) -> tuple[int, Any]:
        request_id = query.get("requestId")
        if request_id and (collection, request_id) in self._request_ids:
            return 200, copy.deepcopy(self._request_ids[(collection, request_id)])
        resource, name = self._new_resource(route, query, body)
        url = f"{collection}/{name}"
        if url in self.store:
            raise FakeError(409, "alreadyExists", f"The resource '{url}' already exists")
        schema = self._schema(route)
        resource.update({"id": str(next(self._ids)), "selfLink": url, "creationTimestamp": TIMESTAMP})
        if route.name_prefix is not None:  # resource-name APIs: its name is its path
            resource["name"] = url[len(route.base) + len(route.name_prefix):]
        if "kind" in schema.get("properties", {}):
            resource.setdefault("kind", schema["properties"]["kind"].get("default", ""))
        self._renew_fingerprints(resource, schema)
        self.store[url] = resource
        status, result = self._done(route, url, query)
        if request_id:
            self._request_ids[(collection, request_id)] = result
        return status, result

    def _new_resource(self, route: Route, query: dict[str, str], body: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The resource and its name: ``name`` in the body, or an ``…Id`` in the body or the
        query naming a nested resource (iam's accountId + serviceAccount)."""
        if "name" in body:
            return copy.deepcopy(body), str(body["name"]).rsplit("/", 1)[-1]
        for key, value in [*body.items(), *query.items()]:
            if key.endswith("Id") and isinstance(value, str):
                nested = next((v for v in body.values() if isinstance(v, dict)), {})
                return {**copy.deepcopy(nested), key: value}, value
        raise FakeError(400, "required", f"{route.method_id}: the request names no resource")

    def _schema(self, route: Route) -> dict[str, Any]:
        schemas = route.document.get("schemas", {})
        name = route.request if route.request and route.request in schemas else None
        return dict(schemas.get(name, {})) if name else {}

    def _check_fingerprints(self, stored: dict[str, Any], body: dict[str, Any]) -> None:
        for key, value in body.items():
            if key.endswith(("fingerprint", "Fingerprint")) and key in stored and value != stored[key]:
                raise FakeError(412, "conditionNotMet", f"Supplied {key} does not match current {key}")

    def _renew_fingerprints(self, resource: dict[str, Any], schema: dict[str, Any] | None = None) -> None:
        keys = [k for k in resource if k.endswith(("fingerprint", "Fingerprint"))]
        keys += [k for k in (schema or {}).get("properties", {}) if k.endswith(("fingerprint", "Fingerprint"))]
        for key in dict.fromkeys(keys):
            seed = json.dumps({k: v for k, v in resource.items() if not k.endswith("ingerprint")}, sort_keys=True)
            resource[key] = hashlib.sha256(f"{key}:{seed}:{next(self._ids)}".encode()).hexdigest()[:16]

    def _change(self, route: Route, url: str, query: dict[str, str], body: dict[str, Any], replace: bool) -> tuple[int, Any]:
        stored = self._get(url)
        body = _unwrap(route, body)
        self._check_fingerprints(stored, body)
        keep: dict[str, Any] = {k: stored[k] for k in ("id", "selfLink", "creationTimestamp", "kind", "name") if k in stored}
        changed = {**keep, **copy.deepcopy(body)} if replace else _merge(stored, body)
        self._renew_fingerprints(changed)
        self.store[url] = changed
        return self._done(route, url, query)

    def _action(self, route: Route, url: str, query: dict[str, str], body: dict[str, Any]) -> tuple[int, Any]:
        """setLabels, setTags, resize, expandIpCidrRange, addInstances, removeHealthCheck...:
        the body's members (and plain query parameters) are written onto the resource."""
        item = url.rsplit("/", 1)[0]
        stored = self._get(item)
        self._check_fingerprints(stored, body)
        for key, value in body.items():
            if key.endswith(("fingerprint", "Fingerprint")):
                continue
            if route.verb.startswith(("add", "remove")) and isinstance(value, list):
                _add_remove(stored, key, value, add=route.verb.startswith("add"))
            else:
                stored[key] = copy.deepcopy(value)
        for key, value in query.items():
            if key in route.params or key in ("requestId", *SCOPE_PARAMS):
                continue
            target = next((k for k in stored if k == key or k.lower().endswith(key.lower())), key)
            stored[target] = int(value) if value.isdigit() else value
        self._renew_fingerprints(stored)
        return self._done(route, item, query)

    # -- operations --------------------------------------------------------------------------------

    def _done(self, route: Route, target: str, query: dict[str, str]) -> tuple[int, Any]:
        if route.response != "Operation":
            return 200, copy.deepcopy(self.store.get(target, {}))
        name = f"operation-{next(self._ids)}"
        scope = re.match(r"(.*/projects/[^/]+/(?:zones|regions)/[^/]+)/", target) or re.match(r"(.*/projects/[^/]+)/", target)
        base = scope.group(1) if scope else target.rsplit("/", 1)[0]
        where = "" if "/zones/" in base or "/regions/" in base else "/global"
        url = f"{base}{where}/operations/{name}"
        operation = {"kind": "compute#operation", "name": name, "selfLink": url, "targetLink": target,
                     "operationType": route.verb, "status": "PENDING" if self.operation_polls else "DONE",
                     "progress": 0}
        self._operations[url] = operation
        self._polls[url] = self.operation_polls
        return 200, copy.deepcopy(operation)

    def _poll(self, url: str, wait: bool) -> dict[str, Any]:
        url = url.removesuffix("/wait")
        if url not in self._operations:
            raise FakeError(404, "notFound", f"The resource '{url}' was not found")
        self._polls[url] = 0 if wait else max(0, self._polls[url] - 1)
        if self._polls[url] == 0:
            self._operations[url].update(status="DONE", progress=100)
        return copy.deepcopy(self._operations[url])

    def calls(self, mutating_only: bool = False) -> list[str]:
        """Method ids of the requests so far (only those that change something, if asked)."""
        return [r.method_id for r in self.log if not mutating_only or r.http_method != "GET" and
                not r.method_id.endswith(("Operations.wait", "operations.wait"))]


def _merge(stored: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """JSON merge patch (RFC 7386), as Google's PATCH applies it."""
    out = copy.deepcopy(stored)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _add_remove(stored: dict[str, Any], key: str, items: list[Any], add: bool) -> None:
    """addInstances({"instances": [{"instance": url}]}) adds urls to the ``instances`` list."""
    values = [next(iter(i.values())) if isinstance(i, dict) and len(i) == 1 else i for i in items]
    current = list(stored.get(key) or [])
    stored[key] = current + [v for v in values if v not in current] if add else [v for v in current if v not in values]


def _list_key(route: Route) -> str:
    """The list response's array of resources: ``items`` (compute), ``accounts`` (iam)."""
    schema = route.document.get("schemas", {}).get(route.response or "", {})
    arrays = [k for k, p in schema.get("properties", {}).items() if p.get("type") == "array" and "$ref" in p.get("items", {})]
    return arrays[0] if arrays else "items"


def _unwrap(route: Route, body: dict[str, Any]) -> dict[str, Any]:
    """iam's patch sends ``{serviceAccount: {...}, updateMask}``: the resource is the member
    typed like the response; the mask only says which fields the member carries."""
    schemas = route.document.get("schemas", {})
    request = schemas.get(route.request or "", {}).get("properties", {})
    wrapper = [k for k, p in request.items() if p.get("$ref") == route.response and route.response]
    if not wrapper or wrapper[0] not in body:
        return body
    inner = dict(body[wrapper[0]])
    mask = body.get("updateMask") or body.get("fieldMask")
    return {k: v for k, v in inner.items() if not mask or k in str(mask).split(",")}
