"""A stateful fake of Google's REST APIs, driven by their discovery documents.

Plug it into googleapiclient as the ``http`` of a client built from a discovery document
(``FakeGcp(document).build()``, or ``Context(http=FakeGcp(document))``), and it behaves like
the API for the generic verbs every Google API shares, with nothing written per resource:

- resources stored by URL; ``insert``/``create`` (409 if the name is taken), ``get``/``list``
  (404 for a missing one; lists in pages of the method's documented default size, with
  ``nextPageToken``), ``patch`` (JSON merge), ``update`` (replace), ``delete``;
- other POSTs on a resource (``setLabels``, ``resize``, ``expandIpCidrRange``,
  ``addHealthCheck``) applied by their request body and query parameters;
- answers as Google gives them (:mod:`.gcp_answers`): references as full URLs, documented
  defaults filled in (also inside nested values), output-only members, an Address's IP where a
  forwarding rule named the Address;
- ``…Fingerprint`` fields enforced as optimistic locks (412 on a stale one), renewed on change;
  members a method's schema marks required for it (``annotations.required``) enforced (400);
- mutating calls whose response is an ``Operation`` return one, ``PENDING`` until it has been
  polled ``operation_polls`` times (``get`` or ``wait``); :meth:`fail_next` makes a method's
  next operation end ``DONE`` with an ``error``;
- ``requestId`` must be a UUID; a mutating call repeated with one already seen is answered with
  the first call's answer and not carried out again — also after the resource was deleted;
- every request in ``log`` (method id, HTTP method, path, query, body), for counting calls and
  for checking them against the full discovery documents.

Thread-safe: one lock around each request. What it does not model: IAM policy, quotas,
server-side validation of values, ``filter`` expressions beyond ``name = "x"``.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import re
import threading
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from .gcp_answers import (
    TIMESTAMP,
    echoed,
    fill_defaults,
    link_base,
    links,
    output_only,
    page_size,
    scoped_defaults,
    server_answers,
    to_link,
    without_empty_lists,
)
from .gcp_names import MadeName, aliases, made_name
from .gcp_observed import BACKED_BY, DONE_AT_ONCE, HELD_IN, NOT_FOUND
from .gcp_projection import bucket_access, projected
from .gcp_routes import Route, routes

SCOPE_PARAMS = ("project", "region", "zone")
# a collection whose resources come with one of another collection, under the same name
COMPANIONS = {"instanceGroupManagers": "instanceGroups"}
_IP = re.compile(r"^[0-9.]+$|:")
# google.rpc.Code of a failed longrunning operation, for the failures fail_next names
# compute's operationType where it is not the method's own name (Config Connector's recorded
# answers, tests/recordings/kcc/): by method id
OPERATION_TYPES = {
    "compute.networks.patch": "updateNetwork",
    "compute.firewalls.patch": "compute.firewalls.patch",
    "compute.instanceTemplates.insert": "compute.instanceTemplates.insert",
    "compute.forwardingRules.setTarget": "SetTarget",
}
# the project number a resource that carries one answers (storage's projectNumber)
PROJECT_NUMBER = "123456789012"
# who an operation says called (Google answers the caller's account)
OPERATION_USER = "user@example.com"
RPC_CODES = {
    "NOT_FOUND": 5,
    "ALREADY_EXISTS": 6,
    "PERMISSION_DENIED": 7,
    "QUOTA_EXCEEDED": 8,
    "RESOURCE_IN_USE_BY_ANOTHER_RESOURCE": 9,
}


@dataclass
class Request:
    method_id: str
    http_method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int = 0  # the HTTP status the fake answered


class _Response(dict[str, Any]):
    """What httplib2 returns: a dict of headers with a ``status``."""

    def __init__(self, status: int) -> None:
        super().__init__({"status": str(status), "content-type": "application/json"})
        self.status = status
        self.reason = "OK" if status < 300 else "Error"


class FakeError(Exception):
    def __init__(
        self, status: int, reason: str, message: str, rpc_status: str | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.reason, self.message = status, reason, message
        self.rpc_status = rpc_status  # google.rpc's code name, where the API's body names it


class FakeGcp:
    """The fake: one store shared by every API whose document it was given."""

    def __init__(self, *documents: dict[str, Any], operation_polls: int = 1) -> None:
        self.documents, self.operation_polls = documents, operation_polls
        self.store: dict[str, dict[str, Any]] = {}  # resource URL (as called) -> resource
        self.log: list[Request] = []
        self._operations: dict[str, dict[str, Any]] = {}
        self._polls: dict[str, int] = {}
        self._targets: dict[str, str] = {}  # a longrunning operation's URL -> what it acts on
        self._replies: dict[str, tuple[int, Any]] = {}  # requestId -> the first answer
        self._aliases: dict[str, str] = {}  # another URL a resource is named by -> its own
        self._collections: dict[str, str] = {}  # a resource's URL -> the collection it is in
        self._schemas: dict[str, str] = {}  # a resource's URL -> its schema's id
        self._failures: dict[str, tuple[str, str]] = {}
        self._ids: itertools.count[int] = itertools.count(1000)
        self._numbers: dict[str, str] = {}  # a resource's URL -> its id, kept after a delete
        # a resource's URL -> members an add/remove verb keeps that it does not show
        self._members: dict[str, dict[str, list[Any]]] = {}
        self._ips: itertools.count[int] = itertools.count(1)
        self._routes: list[Route] = [r for d in documents for r in routes(d)]
        self._lock = threading.RLock()

    # -- googleapiclient's http interface ----------------------------------------------------------

    def build(self, document: dict[str, Any] | None = None) -> Any:
        from googleapiclient.discovery import build_from_document  # type: ignore[import-untyped]

        return build_from_document(document or self.documents[0], http=self)

    def request(
        self, uri: str, method: str = "GET", body: Any = None, headers: Any = None, **_: Any
    ) -> tuple[_Response, bytes]:
        parts = urlsplit(uri)
        url = self._resolve(f"{parts.scheme}://{parts.netloc}{parts.path}")
        query = dict(parse_qsl(parts.query))
        query.pop("alt", None)
        payload = json.loads(body) if body else None
        with self._lock:
            logged = Request("", method, parts.path, query, copy.deepcopy(payload))
            try:
                route, args = self._match(url, method)
                logged.method_id = route.method_id
                self.log.append(logged)
                status, result = self._answer(route, url, args, query, payload)
                result = projected(route.method, query, payload, result)
            except FakeError as err:
                logged.status = err.status
                error = {
                    "error": {
                        "code": err.status,
                        "message": err.message,
                        "errors": [
                            {"domain": "global", "reason": err.reason, "message": err.message}
                        ],
                    }
                }
                if err.rpc_status is not None:
                    error["error"]["status"] = err.rpc_status
                return _Response(err.status), json.dumps(error).encode()
            logged.status = status
        return _Response(status), b"" if status == 204 else json.dumps(result).encode()

    def _resolve(self, url: str) -> str:
        """The URL of the resource (or of something inside it) a request names by another of
        its names (a service account by its unique id, or under ``projects/-``)."""
        for alias, own in self._aliases.items():
            if url == alias or url.startswith((alias + "/", alias + ":")):
                return own + url[len(alias) :]
        return url

    def _match(self, url: str, http_method: str) -> tuple[Route, dict[str, str]]:
        for route in self._routes:
            if route.http_method == http_method:
                found = route.pattern.match(url)
                if found:
                    return route, found.groupdict()
        raise FakeError(404, "notFound", f"no method serves {http_method} {url}")

    def fail_next(
        self,
        method_id: str,
        code: str = "RESOURCE_IN_USE_BY_ANOTHER_RESOURCE",
        message: str = "The resource is in use",
    ) -> None:
        """The next call of ``method_id`` returns an operation that ends ``DONE`` with this
        error, having changed nothing."""
        self._failures[method_id] = (code, message)

    # -- verbs -------------------------------------------------------------------------------------

    def _answer(
        self, route: Route, url: str, args: dict[str, str], query: dict[str, str], body: Any
    ) -> tuple[int, Any]:
        if route.http_method == "GET" or route.is_operation_poll(url, self._operations):
            return self._dispatch(route, url, query, body)
        request_id = query.get("requestId")
        if request_id is not None:
            _check_request_id(request_id)
            if request_id in self._replies:  # the call was carried out: its first answer
                status, answer = self._replies[request_id]
                return status, copy.deepcopy(answer)
        self._check_required(route, body or {})
        if route.method_id in self._failures:
            return 200, self._operation(route, url, error=self._failures.pop(route.method_id))
        status, answer = self._dispatch(route, url, query, body)
        if request_id is not None:
            self._replies[request_id] = (status, copy.deepcopy(answer))
        return status, answer

    def _dispatch(
        self, route: Route, url: str, query: dict[str, str], body: Any
    ) -> tuple[int, Any]:
        if route.is_operation_poll(url, self._operations):
            return 200, self._poll(url)
        self._check_parents(route, url)
        if route.http_method == "GET" and route.collection:
            return 200, self._list(route, url, query)
        if route.http_method == "GET":
            return 200, copy.deepcopy(self._get(url))
        if route.http_method == "POST" and route.collection:
            return self._insert(route, url, query, body or {})
        if route.http_method == "DELETE":
            self._get(url)
            self._held(route, url, add=False)
            del self.store[url]
            self._members.pop(url, None)
            self._aliases = {a: own for a, own in self._aliases.items() if own != url}
            collection, name = url.rsplit("/", 1)
            for manager, group in COMPANIONS.items():  # the managed group goes with its manager
                if collection.endswith("/" + manager):
                    self.store.pop(f"{collection[: -len(manager)]}{group}/{name}", None)
            return self._done(route, url)
        if route.http_method in ("PATCH", "PUT"):
            return self._change(route, url, body or {}, replace=route.http_method == "PUT")
        return self._action(route, url, query, body or {})

    def _check_parents(self, route: Route, url: str) -> None:
        """A request under another resource (``…/managedZones/z/rrsets``, ``b/b1/acl``) names a
        parent that must exist, as Google answers 404 when it does not: a call sent to a wrong
        parent can never pass. Only parents of collections the API creates into are checked
        (a project, region or zone is not made through these APIs)."""
        for parent in route.parent_urls(url):
            collection = parent.rsplit("/", 1)[0]
            if parent not in self.store and self._creatable(collection):
                raise FakeError(
                    404, "notFound", f"The resource '{_relative(parent)}' was not found"
                )

    def _creatable(self, collection: str) -> bool:
        return any(
            r.http_method == "POST"
            and r.verb in ("insert", "create")
            and r.pattern.match(collection)
            for r in self._routes
        )

    def _check_required(self, route: Route, body: dict[str, Any]) -> None:
        schema = route.request_schema()
        for name, prop in (schema.get("properties") or {}).items():
            if (
                route.method_id in (prop.get("annotations") or {}).get("required", [])
                and name not in body
            ):
                raise FakeError(400, "required", f"Required field 'resource.{name}' not specified")

    def _get(self, url: str) -> dict[str, Any]:
        if url not in self.store:
            raise _not_found(url)
        return self.store[url]

    def _list(self, route: Route, collection: str, query: dict[str, str]) -> dict[str, Any]:
        items = [
            copy.deepcopy(r)
            for u, r in sorted(self.store.items())
            if self._collections.get(u, u.rsplit("/", 1)[0]) == collection
        ]
        items = [r for r in items if _matches(query.get("filter", ""), r)]
        sized = page_size(route.method)
        start = int(query.get("pageToken") or 0)
        size = int(query.get(sized[0]) or sized[1]) if sized else len(items) or 1
        page = items[start : start + size]
        out: dict[str, Any] = {route.list_key(): page} if page else {}
        kind = (
            route.document.get("schemas", {}).get(route.response or "", {}).get("properties") or {}
        ).get("kind")
        if kind and kind.get("default"):  # a list answers its kind (storagebucketbasic#5)
            out["kind"] = kind["default"]
        if start + size < len(items):
            out["nextPageToken"] = str(start + size)
        return out

    def _insert(
        self, route: Route, collection: str, query: dict[str, str], body: dict[str, Any]
    ) -> tuple[int, Any]:
        # a member sent as null is left out, as Google's JSON reading leaves it
        body = {k: v for k, v in body.items() if v is not None}
        resource, name = self._new_resource(route, collection, query, body)
        schema = route.resource_schema()
        props = schema.get("properties") or {}
        project = _project(collection)
        made = made_name(
            str(route.document.get("name")), str(schema.get("id")), project, name, next(self._ids)
        )
        url = self._item_url(collection, resource, made.segment if made else name)
        if url in self.store:
            raise FakeError(409, "alreadyExists", f"The resource '{_relative(url)}' already exists")
        if made is not None:
            self._name_made(collection, url, resource, made)
        resource = links(resource, route.document, project)
        echoed(resource, body, str(schema.get("id")))
        made_id = str(next(self._ids))
        stamps = {
            "id": made_id,
            "selfLink": self._link(route, url),
            # compute's link by the resource's number in place of its name
            "selfLinkWithId": self._link(route, f"{url.rsplit('/', 1)[0]}/{made_id}"),
            "creationTimestamp": TIMESTAMP,
            "etag": hashlib.sha256(f"etag:{url}:{made_id}".encode()).hexdigest()[:12],
        }
        resource.update({k: v for k, v in stamps.items() if k in props or not props})
        # storage's server-made members, where the schema has them (storagebucketbasic#1)
        made_by_server = {
            "timeCreated": TIMESTAMP,
            "updated": TIMESTAMP,
            "generation": made_id,
            "metageneration": "1",
            "projectNumber": PROJECT_NUMBER,
        }
        resource.update({k: v for k, v in made_by_server.items() if k in props})
        if route.name_prefix is not None and "name" not in resource:
            # resource-name APIs: a name the server makes (from iam's accountId) is its path;
            # one the client chose (container's cluster.name) is kept as given
            resource["name"] = url[len(route.base) + len(route.name_prefix) :]
        if "kind" in props:
            resource.setdefault("kind", props["kind"].get("default", ""))
        fill_defaults(resource, schema, route.document)
        server_answers(resource, body, str(schema.get("id")))
        bucket_access(resource, props, PROJECT_NUMBER)
        output_only(resource, schema, self._scope_link(route, url))
        scoped_defaults(resource, str(schema.get("id")), self._scope_link(route, url))
        self._addresses(route, resource, props, url)
        self._renew_fingerprints(resource, schema)
        self.store[url] = resource
        self._numbers[url] = str(resource.get("id", ""))
        self._collections[url] = collection
        self._schemas[url] = str(schema.get("id"))
        self._companion_made(route, url, resource)
        self._held(route, url, add=True)
        return self._done(route, url)

    def _item_url(self, collection: str, resource: dict[str, Any], name: str) -> str:
        """Where ``get`` finds it: under its name, or under each member its ``get`` path ends
        with (a record set's ``{name}/{type}``, so an A record and a TXT record of one name
        are two resources)."""
        try:
            get, _ = self._match(f"{collection}/probe/probe", "GET")
        except FakeError:
            return f"{collection}/{name}"
        trailing = get.params[-2:]
        if len(trailing) == 2 and all(isinstance(resource.get(p), str) for p in trailing):
            return f"{collection}/{resource[trailing[0]]}/{resource[trailing[1]]}"
        return f"{collection}/{name}"

    def _name_made(
        self, collection: str, url: str, resource: dict[str, Any], made: MadeName
    ) -> None:
        """A name Google makes (a service account's email, :mod:`.gcp_names`): the members it
        comes with, in place of the id it was made from; its other names lead to it."""
        resource.pop(made.given_member, None)
        resource.update(made.members)
        self._aliases.update(dict.fromkeys(aliases(collection, made), url))

    def _companion_made(self, route: Route, url: str, resource: dict[str, Any]) -> None:
        """A managed instance group's manager comes with the instance group it manages, under
        its name ("Named ports configured on the Instance Groups complementary to this
        Instance Group Manager")."""
        collection, name = url.rsplit("/", 1)
        for manager, group in COMPANIONS.items():
            if collection.endswith("/" + manager):
                made: dict[str, Any] = {
                    "kind": "compute#instanceGroup",
                    "name": name,
                    "selfLink": resource.get("selfLink", "").replace(f"/{manager}/", f"/{group}/"),
                    "fingerprint": "",
                    **{k: resource[k] for k in ("zone", "region") if k in resource},
                }
                self._renew_fingerprints(made)
                self.store[f"{collection[: -len(manager)]}{group}/{name}"] = made
                if "instanceGroup" in (route.resource_schema().get("properties") or {}):
                    resource["instanceGroup"] = made["selfLink"]  # the manager names its group

    def _held(self, route: Route, url: str, add: bool) -> None:
        """A resource listed by the one its reference names (a Subnetwork in its Network's
        ``subnetworks``, :data:`.gcp_observed.HELD_IN`): added on insert, removed on delete;
        an emptied list is left out, as Google leaves out an empty list."""
        found, resource = HELD_IN.get(self._schemas.get(url, "")), self.store[url]
        if found is None or not isinstance(resource.get(found[1]), str):
            return
        member, link = found[0], str(resource.get("selfLink", ""))
        holder = self.store.get(
            self._key(route, to_link(resource[found[1]], route.document, _project(link)))
        )
        if holder is None or not link:
            return
        listed = [u for u in holder.get(member, []) if u != link] + ([link] if add else [])
        holder.pop(member, None)
        if listed:
            holder[member] = listed

    def _companion_of(self, url: str) -> str | None:
        """The manager whose read shows this instance group's named ports, if it has one."""
        collection, name = url.rsplit("/", 1)
        for manager, group in COMPANIONS.items():
            if collection.endswith("/" + group):
                held = f"{collection[: -len(group)]}{manager}/{name}"
                return held if held in self.store else None
        return None

    def _new_resource(
        self, route: Route, url: str, query: dict[str, str], body: dict[str, Any]
    ) -> tuple[dict[str, Any], str]:
        """The resource and its name. The resource is the body, or the body's member typed like
        the resource (container's ``{cluster: {...}}``, iam's ``serviceAccount``). Its name is
        its ``name``, else the member its ``get`` path selects it by (storage ACLs' ``entity``;
        dns's ``responsePolicyName`` for ``{responsePolicy}``, ``ruleName`` for
        ``{responsePolicyRule}``), else an ``…Id`` in the body or the query (iam's
        ``accountId``, dns's ``outboundEndpointId``)."""
        resource = copy.deepcopy(self._resource_in(route, body))
        if "name" in resource:
            return resource, str(resource["name"]).rsplit("/", 1)[-1]
        member = self._selecting_member(url, resource)
        if member is not None:
            return resource, str(resource[member])
        for key, value in [*body.items(), *query.items()]:
            if key.endswith("Id") and key != "requestId" and isinstance(value, str):
                return {**resource, key: value}, value
        raise FakeError(400, "required", f"{route.method_id}: the request names no resource")

    @staticmethod
    def _resource_in(route: Route, body: dict[str, Any]) -> dict[str, Any]:
        request = route.request_schema()
        if "name" in body:
            return body
        schemas = route.document.get("schemas", {})
        for key, prop in (request.get("properties") or {}).items():
            nested = schemas.get(prop.get("$ref", ""), {}).get("properties") or {}
            if isinstance(body.get(key), dict) and "name" in nested:
                return dict(body[key])
        return body

    def _selecting_member(self, collection: str, resource: dict[str, Any]) -> str | None:
        """The resource's member that the ``get`` path's last parameter carries."""
        try:
            get, _ = self._match(f"{collection}/probe", "GET")
        except FakeError:
            return None
        if not get.params:
            return None
        param = get.params[-1]
        for member, value in resource.items():
            named = member.endswith("Name") and param.lower().endswith(member[:-4].lower())
            if isinstance(value, str) and value and (member == param or named):
                return member
        return None

    def _addresses(
        self, route: Route, resource: dict[str, Any], props: dict[str, Any], url: str
    ) -> None:
        """An Address gets an IP; a forwarding rule's ``IPAddress`` reads back as an IP."""
        if (
            "address" in props
            and url.rsplit("/", 2)[-2] == "addresses"
            and "address" not in resource
        ):
            resource["address"] = self._new_ip()
        if "IPAddress" not in props:
            return
        given = resource.get("IPAddress")
        if given is None:
            resource["IPAddress"] = self._new_ip()
        elif not _IP.search(str(given)):
            link = (
                str(given)
                if "/" in str(given)
                else f"{url.rsplit('/', 2)[0].rsplit('/', 1)[0]}/addresses/{given}"
            )
            key = self._key(route, link)
            if key not in self.store:
                raise FakeError(
                    400, "invalid", f"Invalid value for field 'resource.IPAddress': '{given}'"
                )
            resource["IPAddress"] = self.store[key]["address"]

    def _new_ip(self) -> str:
        n = next(self._ips)
        return f"34.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"

    def _link(self, route: Route, url: str) -> str:
        return link_base(route.document) + url[len(route.base) :]

    def _key(self, route: Route, link: str) -> str:
        """The URL a resource is stored under, from the link Google answers for it."""
        base = link_base(route.document)
        return route.base + link[len(base) :] if link.startswith(base) else link

    def _scope_link(self, route: Route, url: str) -> str | None:
        found = re.search(r"projects/[^/]+/(?:regions|zones)/[^/]+", url)
        return link_base(route.document) + found.group(0) if found else None

    def _check_fingerprints(self, stored: dict[str, Any], body: dict[str, Any]) -> None:
        for key, value in body.items():
            if (
                key.endswith(("fingerprint", "Fingerprint"))
                and key in stored
                and value != stored[key]
            ):
                raise FakeError(
                    412, "conditionNotMet", f"Supplied {key} does not match current {key}"
                )

    def _renew_fingerprints(
        self, resource: dict[str, Any], schema: dict[str, Any] | None = None
    ) -> None:
        keys = [k for k in resource if k.endswith(("fingerprint", "Fingerprint"))]
        keys += [
            k
            for k in (schema or {}).get("properties", {})
            if k.endswith(("fingerprint", "Fingerprint"))
        ]
        for key in dict.fromkeys(keys):
            seed = json.dumps(
                {k: v for k, v in resource.items() if not k.endswith("ingerprint")}, sort_keys=True
            )
            resource[key] = hashlib.sha256(f"{key}:{seed}:{next(self._ids)}".encode()).hexdigest()[
                :16
            ]

    def _change(
        self, route: Route, url: str, body: dict[str, Any], replace: bool
    ) -> tuple[int, Any]:
        stored = self._get(url)
        masked = route.unwrap(body) if (body.get("updateMask") or body.get("fieldMask")) else None
        # an update (PUT) answers references as full URLs; a patch keeps them as it was sent
        # them (computerouter#5 -> #7: the network's relative name and region "us-west1")
        body = route.unwrap(body)
        body = links(body, route.document, _project(url)) if replace else body
        self._check_fingerprints(stored, body)
        keep = ("id", "selfLink", "creationTimestamp", "kind", "name", "region", "zone")
        changed = (
            {**{k: stored[k] for k in keep if k in stored}, **copy.deepcopy(body)}
            if replace
            else _merge(stored, body)
        )
        sent = copy.deepcopy(changed)
        schema = route.resource_schema()
        fill_defaults(changed, schema, route.document)
        server_answers(changed, sent, str(schema.get("id")))
        if replace:  # the scope is Google's URL whatever a PUT sent (regionalcomputehealthcheck#4
            # sends ``projects/p/global/regions/us-central1``, #6 reads the region's URL)
            output_only(changed, schema, self._scope_link(route, url))
        without_empty_lists(changed)
        if str(changed.get("metageneration", "")).isdigit():  # storage counts metadata changes
            changed["metageneration"] = str(int(changed["metageneration"]) + 1)
        self._renew_fingerprints(changed)
        self.store[url] = changed
        if masked is not None and route.response != "Operation":
            # a masked patch answers the resource's name and the members its mask names only
            # (iamserviceaccount#3: displayName and name; #4's read has the rest)
            named = {k: changed[k] for k in ("name", *masked) if k in changed}
            return 200, copy.deepcopy(named)
        return self._done(route, url)

    def _action(
        self, route: Route, url: str, query: dict[str, str], body: dict[str, Any]
    ) -> tuple[int, Any]:
        """setLabels, setTags, resize, expandIpCidrRange, addInstances, removeHealthCheck...:
        the body's members (and plain query parameters) are written onto the resource."""
        # ".../disks/d/setLabels", or a custom verb (AIP): ".../clusters/c:setAddons"
        item = url.rsplit(":", 1)[0] if ":" in url.rsplit("/", 1)[-1] else url.rsplit("/", 1)[0]
        stored = self._get(item)
        if route.verb.startswith("list") and route.response != "Operation":
            return 200, self._members_listed(route, item)  # listInstances: a read sent as POST
        self._check_fingerprints(stored, body)
        own = self._schema_of(route, item).get("properties") or {}
        for key, value in links(body, route.document, _project(url)).items():
            if key.endswith(("fingerprint", "Fingerprint")):
                continue
            if route.verb.startswith(("add", "remove")) and isinstance(value, list):
                # members the resource does not show (an instance group's instances) are kept
                # beside it, and counted in its output-only ``size``
                held = stored if key in own or not own else self._members.setdefault(item, {})
                _add_remove(held, key, value, add=route.verb.startswith("add"))
                if held is not stored and "size" in own:
                    stored["size"] = len(held[key])
            else:
                stored[key] = copy.deepcopy(value)
            manager = self._companion_of(item) if key == "namedPorts" else None
            if manager is not None:
                self.store[manager][key] = copy.deepcopy(value)
        for key, value in query.items():
            if key in route.params or key in ("requestId", *SCOPE_PARAMS):
                continue
            target = next((k for k in stored if k == key or k.lower().endswith(key.lower())), key)
            stored[target] = int(value) if value.isdigit() else value
        self._renew_fingerprints(stored)
        return self._done(route, item)

    def _schema_of(self, route: Route, url: str) -> dict[str, Any]:
        schemas = route.document.get("schemas", {})
        return dict(schemas.get(self._schemas.get(url, ""), {}))

    def _members_listed(self, route: Route, item: str) -> dict[str, Any]:
        """``listInstances``: each member kept beside the resource, as the response's item
        schema names it — the member's link, its own members (``status``) and the resource's
        (``namedPorts``) where the item has them."""
        schemas = route.document.get("schemas", {})
        response = schemas.get(route.response or "", {}).get("properties") or {}
        item_ref = ((response.get("items") or {}).get("items") or {}).get("$ref", "")
        fields = schemas.get(item_ref, {}).get("properties") or {}
        stored, out = self.store[item], []
        for key, urls in self._members.get(item, {}).items():
            for link in urls:
                member = self.store.get(self._key(route, link), {})
                entry = {k: stored[k] for k in fields if k in stored and k not in ("kind", "id")}
                entry.update({k: member[k] for k in fields if k in member and k != "kind"})
                entry.pop("name", None)
                entry.pop("selfLink", None)
                singular = key.removesuffix("s")
                entry[singular if singular in fields else key] = link
                out.append(entry)
        answer: dict[str, Any] = {"id": str(next(self._ids))}
        if "kind" in response:
            answer["kind"] = response["kind"].get("default", "")
        if out:
            answer["items"] = out
        return answer

    # -- operations --------------------------------------------------------------------------------

    def _done(self, route: Route, target: str) -> tuple[int, Any]:
        if route.response is None and route.http_method == "DELETE":
            return 204, None  # storage's delete answers no content
        if route.response != "Operation":
            return 200, copy.deepcopy(self.store.get(target, {}))
        return 200, self._operation(route, target)

    def _operation(
        self, route: Route, target: str, error: tuple[str, str] | None = None
    ) -> dict[str, Any]:
        if _longrunning(route):
            return self._longrunning(route, target, error)
        name = f"operation-{next(self._ids)}"
        # an organization's resource (no project: ``locations/global/securityPolicies``) has its
        # operations under its location (globalOrganizationOperations: locations/global/operations)
        scope = (
            re.match(r"(.*/projects/[^/]+/(?:zones|regions|locations)/[^/]+)(?:/|$)", target)
            or re.match(r"(.*/projects/[^/]+)(?:/|$)", target)
            or re.match(r"(.*/locations/[^/]+)(?:/|$)", target)
        )
        base = scope.group(1) if scope else target.rsplit("/", 1)[0]
        where = "" if re.search(r"/(zones|regions|locations)/[^/]+$", base) else "/global"
        url = f"{base}{where}/operations/{name}"
        polls = 0 if error or route.method_id in DONE_AT_ONCE else self.operation_polls
        operation: dict[str, Any] = {
            "kind": "compute#operation",
            "id": str(next(self._ids)),
            "name": name,
            "selfLink": self._link(route, url),
            "targetLink": self._link(route, target),
            "targetId": self._numbers.get(target, ""),
            "operationType": OPERATION_TYPES.get(route.method_id, route.verb),
            # Google answers a call it has accepted as RUNNING (every recorded answer does)
            "status": "RUNNING" if polls else "DONE",
            "progress": 0 if polls else 100,
            "insertTime": TIMESTAMP,
            "startTime": TIMESTAMP,
            "user": OPERATION_USER,
        }
        scoped = re.search(r"/(regions|zones)/[^/]+$", base)
        if scoped:  # a regional or zonal operation names its scope, as its resource does
            operation[scoped.group(1)[:-1]] = self._link(route, base)
        if not polls:
            operation["endTime"] = TIMESTAMP
        if error:
            operation["error"] = {"errors": [{"code": error[0], "message": error[1]}]}
        self._operations[url] = operation
        self._polls[url] = polls
        return copy.deepcopy(operation)

    def _longrunning(
        self, route: Route, target: str, error: tuple[str, str] | None
    ) -> dict[str, Any]:
        """google.longrunning's Operation (AIP-151), named under the resource it acts on
        ("a resource name ending with ``operations/{unique_id}``"); ``done`` left out while it
        runs (proto3 JSON leaves out a false boolean); once done, its ``error`` (a
        google.rpc.Status) or its ``response`` (the resource as it then is)."""
        prefix = route.base + (route.name_prefix or "")
        name = f"{target[len(prefix):]}/operations/operation-{next(self._ids)}"
        operation: dict[str, Any] = {"name": name, "metadata": {}}
        if error:
            code = RPC_CODES.get(error[0], 2)  # 2: UNKNOWN
            operation.update(done=True, error={"code": code, "message": f"{error[0]}: {error[1]}"})
        url = prefix + name
        self._operations[url] = operation
        self._polls[url] = 0 if error else self.operation_polls
        self._targets[url] = target
        return self._longrunning_now(url)

    def _longrunning_now(self, url: str) -> dict[str, Any]:
        operation = self._operations[url]
        if self._polls[url] == 0 and "error" not in operation:
            operation.update(
                done=True, response=copy.deepcopy(self.store.get(self._targets[url], {}))
            )
        return copy.deepcopy(operation)

    def _poll(self, url: str) -> dict[str, Any]:
        url = url.removesuffix("/wait")
        if url not in self._operations:
            raise FakeError(404, "notFound", f"The resource '{_relative(url)}' was not found")
        self._polls[url] = max(0, self._polls[url] - 1)
        if url in self._targets:
            return self._longrunning_now(url)
        if self._polls[url] == 0:
            done = self._operations[url]
            done.update(status="DONE", progress=100, endTime=TIMESTAMP)
            done["targetLink"] = _backed(str(done.get("targetLink", "")))
        return copy.deepcopy(self._operations[url])

    def calls(self, mutating_only: bool = False) -> list[str]:
        """Method ids of the requests so far (only those that change something, if asked)."""
        return [
            r.method_id
            for r in self.log
            if not mutating_only
            or r.http_method != "GET"
            and not r.method_id.endswith(("Operations.wait", "operations.wait"))
        ]


def _longrunning(route: Route) -> bool:
    """The method answers google.longrunning's Operation (``done``), not compute's (``status``)."""
    schema = route.document.get("schemas", {}).get(route.response or "", {})
    props = schema.get("properties") or {}
    return "done" in props and "status" not in props


def _check_request_id(value: str) -> None:
    """Google: "The request ID must be a valid UUID with the exception that zero UUID is not
    supported"."""
    try:
        parsed = uuid.UUID(value)
    except ValueError:
        raise FakeError(400, "invalid", f"Invalid value for field 'requestId': '{value}'") from None
    if parsed.int == 0:
        raise FakeError(400, "invalid", "The zero UUID is not a valid requestId")


def _not_found(url: str) -> FakeError:
    """Google's 404 for a missing resource: compute's text naming it, where the API has its own
    text (:data:`.gcp_observed.NOT_FOUND`) that one, and a legacy kind named as the collection
    that keeps it (:data:`.gcp_observed.BACKED_BY`)."""
    parts = urlsplit(url)
    api = parts.netloc.split(".", 1)[0]
    segments = parts.path.rstrip("/").split("/")
    collection = segments[-2] if len(segments) > 1 else ""
    if (api, collection) in NOT_FOUND:
        message, status = NOT_FOUND[(api, collection)]
        return FakeError(404, "notFound", message, status)
    named = _relative(_backed(url))
    return FakeError(404, "notFound", f"The resource '{named}' was not found")


def _backed(url: str) -> str:
    """The URL in the collection that keeps a legacy kind's resources."""
    for legacy, keeper in BACKED_BY.items():
        url = re.sub(f"/{legacy}/([^/]+)$", f"/{keeper}/\\1", url)
    return url


def _relative(url: str) -> str:
    """A resource's name as Google's error messages give it: ``projects/p/global/networks/n``,
    not the URL it was called by."""
    found = re.search(r"/(projects/.*)$", url)
    return found.group(1) if found else url


def _project(url: str) -> str:
    found = re.search(r"/projects/([^/]+)", url)
    return found.group(1) if found else ""


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
    stored[key] = (
        current + [v for v in values if v not in current]
        if add
        else [v for v in current if v not in values]
    )


def _matches(expression: str, resource: dict[str, Any]) -> bool:
    """The ``filter`` forms the fake understands: ``name = "x"`` and ``labels.k = "v"``
    (also with ``eq``); any other expression is refused, as Google refuses a malformed one."""
    if not expression.strip():
        return True
    wanted = re.fullmatch(r'\s*(name|labels\.[a-z0-9_-]+)\s*(?:=|eq)\s*"?([^"]*)"?\s*', expression)
    if wanted is None:
        raise FakeError(400, "invalid", f"Invalid value for field 'filter': '{expression}'")
    field, value = wanted.groups()
    if field == "name":
        return resource.get("name") == value
    return (resource.get("labels") or {}).get(field.split(".", 1)[1]) == value
