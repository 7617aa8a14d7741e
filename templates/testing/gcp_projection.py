"""Storage's ``projection``: which members an answer carries, read from the method's own
parameter ("Set of properties to return. Defaults to noAcl, unless the bucket resource specifies
acl or defaultObjectAcl properties, when it defaults to full."; ``noAcl``: "Omit owner, acl and
defaultObjectAcl properties."), and the access controls a bucket is made with, which a ``full``
answer shows (storagebucketbasic#3: the patch, whose projection defaults to full, answers
``acl``, ``defaultObjectAcl`` and ``owner``; the get before and after it, noAcl, do not).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from .gcp_observed import BUCKET_TEAM_ROLES

_DEFAULTS_TO = re.compile(r"Defaults to (\w+)")
_UNLESS = re.compile(
    r"unless the \w+ resource specifies ([\w ,]+?) properties, when it defaults to (\w+)"
)
_OMIT = re.compile(r"^Omit ([\w ,]+?) properties")


def projected(method: dict[str, Any], query: dict[str, str], sent: Any, answer: Any) -> Any:
    """The answer with the members its projection leaves out removed."""
    param = (method.get("parameters") or {}).get("projection")
    if param is None or not isinstance(answer, dict):
        return answer
    omitted = _omitted(param, _projection(param, query, sent))
    if not omitted:
        return answer
    if isinstance(answer.get("items"), list):
        return {**answer, "items": [_without(i, omitted) for i in answer["items"]]}
    return _without(answer, omitted)


def _projection(param: dict[str, Any], query: dict[str, str], sent: Any) -> str:
    if "projection" in query:
        return query["projection"]
    text = str(param.get("description", ""))
    unless = _UNLESS.search(text)
    if unless and isinstance(sent, dict) and any(m in sent for m in _names(unless.group(1))):
        return unless.group(2)
    found = _DEFAULTS_TO.search(text)
    return found.group(1) if found else "full"


def _omitted(param: dict[str, Any], projection: str) -> tuple[str, ...]:
    values, texts = param.get("enum") or [], param.get("enumDescriptions") or []
    for value, text in zip(values, texts, strict=False):
        found = _OMIT.search(str(text))
        if value == projection and found:
            return _names(found.group(1))
    return ()


def _names(text: str) -> tuple[str, ...]:
    return tuple(n for n in re.split(r",\s*|\s+and\s+|\s+", text) if n and n != "and")


def _without(resource: Any, omitted: tuple[str, ...]) -> Any:
    if not isinstance(resource, dict):
        return resource
    return {k: v for k, v in resource.items() if k not in omitted}


def bucket_access(bucket: dict[str, Any], props: dict[str, Any], number: str) -> None:
    """The access controls a bucket made without ``acl`` / ``defaultObjectAcl`` gets: the
    project's teams by their roles (``predefinedAcl`` projectPrivate: "Project team members get
    access according to their roles"), and the project's owners as its ``owner`` ("This is
    always the project team's owner group")."""
    if not {"acl", "defaultObjectAcl", "owner"} <= set(props):
        return
    name, link = str(bucket.get("name", "")), str(bucket.get("selfLink", ""))

    def entry(team: str, role: str, kind: str) -> dict[str, Any]:
        entity = f"project-{team}-{number}"
        etag = hashlib.sha256(f"{name}/{entity}".encode()).hexdigest()[:12]
        made = {
            "entity": entity,
            "etag": etag,
            "kind": kind,
            "projectTeam": {"projectNumber": number, "team": team},
            "role": role,
        }
        if kind == "storage#bucketAccessControl":  # an object's default names no bucket
            made.update(bucket=name, id=f"{name}/{entity}", selfLink=f"{link}/acl/{entity}")
        return made

    bucket.setdefault(
        "acl", [entry(t, r, "storage#bucketAccessControl") for t, r in BUCKET_TEAM_ROLES]
    )
    bucket.setdefault(
        "defaultObjectAcl",
        [entry(t, r, "storage#objectAccessControl") for t, r in BUCKET_TEAM_ROLES],
    )
    bucket.setdefault("owner", {"entity": f"project-owners-{number}"})
