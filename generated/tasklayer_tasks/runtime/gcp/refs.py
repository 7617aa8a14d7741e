"""References in one form, and reads seen through what the desired state cares about.

Google answers a reference as a full URL, and not always on the host the client calls
(compute's selfLinks are ``https://www.googleapis.com/compute/v1/projects/...`` while the
discovery document's root is ``https://compute.googleapis.com/``); it accepts a relative name
(``projects/p/global/networks/n``) as well. A relative name and its full URLs are one
reference: both sides of a diff carry the full URL on the client's own base.

Google also fills in members of nested values it was not sent (a Router NAT's
``endpointTypes``, a health check's ``proxyHeader``): a member the desired value leaves out is
"don't care", inside nested values as at the top level.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from ..contract.spec import ResourceSpec

_GOOGLE_URL = re.compile(r"^https://[a-z0-9.-]+\.googleapis\.com/(?P<path>.+)$")
# a relative name of a project's resource in a scope: a reference whatever field holds it (a
# Network's networkProfile, "a full or partial URL", is read back as a full URL)
_RELATIVE_NAME = re.compile(
    r"^projects/[^/\s]+/(global|regions/[^/\s]+|zones/[^/\s]+)/[A-Za-z]+/[^/\s]+$"
)
_SCOPED = ("global/", "regions/", "zones/")


@cache
def document_base(document_path: str) -> str:
    """The base URL a discovery document's client calls: ``rootUrl`` + ``servicePath``."""
    with open(document_path, encoding="utf-8") as handle:
        document = json.load(handle)
    return str(document.get("rootUrl", "")) + str(document.get("servicePath", ""))


def canonical_url(value: str, base: str, project: str = "") -> str:
    """The full URL on ``base`` of a reference given as a full URL on any Google host, a
    relative name from ``projects/``, or (with the project known) from its scope."""
    service_path = base.split(".googleapis.com/", 1)[-1] if ".googleapis.com/" in base else ""
    found = _GOOGLE_URL.match(value)
    if found:
        path = found.group("path")
        if (
            service_path
            and path.startswith(service_path)
            and path[len(service_path) :].startswith("projects/")
        ):
            return base + path[len(service_path) :]
        # Google answers links on the version a client called (a compute/beta client reads
        # .../compute/beta/projects/...): one resource in any version of the same API
        other = re.match(r"^([a-z]+)/(?:v1|beta|alpha|v1beta\d*)/(projects/.*)$", path)
        if other and service_path.startswith(other.group(1) + "/"):
            return base + other.group(2)
        return value
    if value.startswith("projects/"):
        return base + value
    if project and value.startswith(_SCOPED):
        return f"{base}projects/{project}/{value}"
    return value


def _urls(value: Any, base: str) -> Any:
    """Every full Google URL inside a value, moved onto ``base``."""
    if isinstance(value, str):
        return canonical_url(value, base) if value.startswith("https://") else value
    if isinstance(value, list):
        return [_urls(v, base) for v in value]
    if isinstance(value, dict):
        return {k: _urls(v, base) for k, v in value.items()}
    return value


def canonical_state(
    spec: ResourceSpec, state: Mapping[str, Any], base: str, project: str = ""
) -> dict[str, Any]:
    """A state with its references in canonical form: full URLs anywhere, relative names in
    the fields that hold references."""
    if not base:
        return dict(state)
    out: dict[str, Any] = {}
    for name, value in state.items():
        try:
            reference = spec.field(name).references is not None
        except KeyError:
            reference = False
        if isinstance(value, str) and (reference or _RELATIVE_NAME.match(value)):
            value = canonical_url(value, base, project)
        elif reference and isinstance(value, list):
            value = [canonical_url(v, base, project) if isinstance(v, str) else v for v in value]
        out[name] = _urls(value, base)
    return out


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def seen_as_wanted(have: Any, want: Any) -> Any:
    """``have`` with the nested members ``want`` does not set left out: dicts by their keys,
    lists of dicts item by item (matched by ``name`` when they carry one, else by position);
    a value Google canonicalised (a one-port range) as the form that was sent."""
    if isinstance(want, dict) and isinstance(have, dict):
        seen = {k: seen_as_wanted(have[k], want[k]) for k in want if k in have}
        for k in want:
            digest = have.get(f"{k}Sha256")
            if k not in have and isinstance(want[k], str) and isinstance(digest, str):
                # a secret Google answers only as its hash (a BackendService's
                # iap.oauth2ClientSecret as oauth2ClientSecretSha256): the same hash is the same
                seen[k] = want[k] if _sha256(want[k]) == digest else None
        return seen
    if (
        isinstance(want, list)
        and isinstance(have, list)
        and want
        and all(isinstance(w, dict) for w in want)
    ):
        by_name = {w.get("name"): w for w in want if w.get("name") is not None}
        out = []
        for i, item in enumerate(have):
            if not isinstance(item, dict):
                out.append(item)
                continue
            match = by_name.get(item.get("name")) if item.get("name") is not None else None
            if match is None:
                match = want[i] if i < len(want) else {k: v for w in want for k, v in w.items()}
            out.append(seen_as_wanted(item, match))
        return out
    if isinstance(want, str) and have == f"{want}-{want}" and want.isdigit():
        # a one-port range is answered as "N-N" (a ForwardingRule's portRange sent as "443"
        # reads "443-443": Config Connector's recording, tests/recordings/kcc/)
        return want
    return have


def as_wanted(
    spec: ResourceSpec, state: Mapping[str, Any], desired: Mapping[str, Any]
) -> dict[str, Any]:
    """A read state seen through the desired one: nested members it does not set are not
    compared, a boolean left out is false (tags are compared on the managed keys by the diff
    itself)."""
    out = dict(state)
    for name, want in desired.items():
        if want is False and name not in out:
            out[name] = False  # proto3 JSON leaves out a false boolean: an absent one is false
        if name in out and isinstance(want, (dict, list, str)):
            try:
                if spec.field(name).is_tags:
                    continue
            except KeyError:
                continue
            out[name] = seen_as_wanted(out[name], want)
    return out
