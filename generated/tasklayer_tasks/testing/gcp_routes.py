"""Which discovery method a request calls: every method of a document as a URL pattern, the
literal-richest first (``.../networks/{network}/setLabels`` before ``.../{+name}``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


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
    method: dict[str, Any]
    name_prefix: str | None = None  # resource-name APIs: the path before {+name} ("v1/")
    base: str = ""

    def is_operation_poll(self, url: str, operations: dict[str, Any]) -> bool:
        return url in operations or self.method_id.endswith(
            ("Operations.get", "Operations.wait", "operations.get")
        )

    def parent_urls(self, url: str) -> list[str]:
        """The URLs of the resources a request's path runs through: each placeholder followed
        by a literal segment (``managedZones/{managedZone}/rrsets``), not the item's own
        trailing ones (a record set's ``{name}/{type}``)."""
        found = self.pattern.match(url)
        if found is None:
            return []
        path = _path_of(self.method)
        return [
            url[: found.end(_group(name))]
            for name in re.findall(r"\{\+?([^}]+)\}/[^{/]", path)
            if _group(name) in found.groupdict()
        ]

    def request_schema(self) -> dict[str, Any]:
        return dict(self.document.get("schemas", {}).get(self.request or "", {}))

    def resource_schema(self) -> dict[str, Any]:
        """The resource's schema: the request's, or (iam's wrapped create) the member typed
        like the response."""
        schemas = self.document.get("schemas", {})
        if self.request and self.request == self.response:
            return dict(schemas.get(self.request, {}))
        if self.response and self.response != "Operation" and self.response in schemas:
            return dict(schemas[self.response])
        return dict(schemas.get(self.request or "", {}))

    def list_key(self) -> str:
        """The list response's array of resources: ``items`` (compute), ``accounts`` (iam)."""
        schema = self.document.get("schemas", {}).get(self.response or "", {})
        arrays = [
            k
            for k, p in schema.get("properties", {}).items()
            if p.get("type") == "array" and "$ref" in p.get("items", {})
        ]
        return arrays[0] if arrays else "items"

    def unwrap(self, body: dict[str, Any]) -> dict[str, Any]:
        """iam's patch sends ``{serviceAccount: {...}, updateMask}``: the resource is the member
        typed like the response; the mask only says which fields the member carries."""
        request = self.request_schema().get("properties", {})
        wrapper = [
            k for k, p in request.items() if p.get("$ref") == self.response and self.response
        ]
        if not wrapper or wrapper[0] not in body:
            return body
        inner = dict(body[wrapper[0]])
        mask = body.get("updateMask") or body.get("fieldMask")
        # a mask may name fields as the proto does (``display_name``) or as JSON (``displayName``)
        paths = {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), p) for p in str(mask).split(",")}
        return {k: v for k, v in inner.items() if not mask or k in paths}


def routes(document: dict[str, Any]) -> list[Route]:
    base = document["rootUrl"] + document["servicePath"]
    out: list[Route] = []

    def walk(resources: dict[str, Any]) -> None:
        for resource in resources.values():
            for verb, method in (resource.get("methods") or {}).items():
                out.append(_route(base, verb, method, document))
            walk(resource.get("resources") or {})

    walk(document.get("resources") or {})
    return sorted(out, key=lambda r: -len(re.sub(r"\(\?P<[^>]+>[^)]*\)", "", r.pattern.pattern)))


def _path_of(method: dict[str, Any]) -> str:
    """The path a request takes: AIP ``{+name}`` paths spelled out segment by segment."""
    return str(
        method.get("flatPath")
        if "{+" in method["path"] and method.get("flatPath")
        else method["path"]
    )


def _group(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def _route(base: str, verb: str, method: dict[str, Any], document: dict[str, Any]) -> Route:
    path = _path_of(method)
    regex, params = "", []
    for literal, name in re.findall(r"([^{]*)(?:\{\+?([^}]+)\})?", path):
        regex += re.escape(literal)
        if name:
            params.append(name)
            regex += f"(?P<{_group(name)}>[^/]+)"
    segments = path.rstrip("/").split("/")
    # ".../networks" is a collection; ".../{disk}/setLabels" an action on one resource
    action = len(segments) > 1 and not segments[-1].startswith("{") and segments[-2].startswith("{")
    collection = not segments[-1].startswith("{") and (
        verb in ("insert", "create", "list") or not action
    )
    return Route(
        method_id=method["id"],
        verb=verb,
        http_method=method["httpMethod"],
        pattern=re.compile("^" + re.escape(base) + regex + "$"),
        params=tuple(params),
        collection=collection,
        response=(method.get("response") or {}).get("$ref"),
        request=(method.get("request") or {}).get("$ref"),
        document=document,
        method=method,
        name_prefix=method["path"].split("{+", 1)[0] if "{+" in method["path"] else None,
        base=base,
    )
