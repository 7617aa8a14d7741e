"""How Google answers, where it matters to a tasks layer's diffs: read from the discovery
documents, not written per resource.

- **links**: references come back as full URLs on ``https://www.googleapis.com/<servicePath>``
  (compute's selfLinks), whatever form was sent (a relative name, a partial URL, the
  document's own ``compute.googleapis.com`` URL) — but where the recordings show a member
  echoed in the form sent (a Firewall's ``network``), it is (:data:`.gcp_observed.ECHOED`);
- **documented defaults**: a member a request left out is filled in when its text documents a
  default ("Defaults to 30s if not set", "If unspecified, the value defaults to 1460", an enum
  value described "This is the default"), at the top level and inside nested values that were
  sent (a Router's ``nats``, a HealthCheck's ``tcpHealthCheck``); a default of ``false`` is
  not answered (proto3's JSON leaves a false boolean out), nor is an empty list;
- **output-only members**: ``id``, ``selfLink``, ``creationTimestamp``, ``kind``, fingerprints,
  the scope (``region``/``zone`` as URLs) and a ready ``status``;
- **IP addresses**: an Address without ``address`` gets one; a resource whose ``IPAddress``
  names an Address is answered with that Address's IP ("When reading an IPAddress, the API
  always returns the IP address number"), an omitted one with an ephemeral IP;
- **what the documents do not say**: members Google answers that no document states (a
  Subnetwork's ``stackType``), documented defaults it does not answer (a Network's ``mtu``), and
  values it canonicalises (a ForwardingRule's ``portRange`` ``"90"`` is ``"90-90"``), as
  Config Connector's recordings of real traffic show them (``tests/recordings/kcc/``), kept as
  data in :mod:`.gcp_observed`; and what follows from what was sent (a Subnetwork's
  ``gatewayAddress``, an auto mode Network's ``subnetworks``, a secret answered as its SHA-256);
- **pages**: lists answer at most the method's documented default page size
  (``maxResults``/``pageSize``), with a ``nextPageToken``.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import re
from typing import Any

from .gcp_observed import (
    ANSWERED,
    AUTO_SUBNETWORK_REGIONS,
    ECHOED,
    LEFT_OUT_WHEN_FALSE,
    MULTI_REGIONS,
    NOT_ANSWERED,
    SCOPED_DEFAULTS,
    WITHDRAWN_WHEN,
)

LINK_HOST = "https://www.googleapis.com/"
TIMESTAMP = "2026-01-01T00:00:00.000-00:00"
READY_STATUSES = ("READY", "RESERVED", "ACTIVE", "RUNNING", "AVAILABLE")

# a default a member's text states: "defaults to `INGRESS`.", "Defaults to 30s if not set",
# "Defaults to\nAFTER_CLASSIC_FIREWALL if", "The default value is `1000`.", "The default is 30
# seconds." (a unit after the number is dropped; what follows must end the clause)
_UNIT = r"`?(?:s\b|\s*seconds?\b)?"
_DEFAULT_TEXT = [
    re.compile(
        r"\bdefaults?\s+to\s+`?([A-Za-z0-9_.-]+?)" + _UNIT + r"(?=\s+if\b|\s+when\b|[.,;]|\s*$)",
        re.I,
    ),
    re.compile(
        r"\bdefault(?:\s+value)?\s+is\s+`?([A-Za-z0-9_.-]+?)" + _UNIT + r"(?=[.,;]|\s*$)", re.I
    ),
]
_ENUM_DEFAULT = re.compile(r"\b(this is the default|default value|is the default)\b", re.I)
_PAGE_DEFAULT = re.compile(r"default is (\d+)|\(Default: `(\d+)`\)", re.I)
# the secrets Google answers as their SHA-256 (``BackendServiceIAP.oauth2ClientSecretSha256``)
_SECRETS = ("oauth2ClientSecretSha256",)
_SCOPED = re.compile(r"^(?:projects/[^/]+/)?(?:global|regions/[^/]+|zones/[^/]+)/[A-Za-z]+/[^/]+")


def link_base(document: dict[str, Any]) -> str:
    return LINK_HOST + str(document.get("servicePath", ""))


def to_link(value: str, document: dict[str, Any], project: str) -> str:
    """The full URL Google answers for a reference given in any accepted form."""
    base, service_path = link_base(document), str(document.get("servicePath", ""))
    found = re.match(r"^https://[a-z0-9.-]+\.googleapis\.com/(.*)$", value)
    if found:
        path = found.group(1)
        return (
            base + path[len(service_path) :]
            if service_path and path.startswith(service_path)
            else value
        )
    if value.startswith("projects/") and _SCOPED.match(value):
        return base + value
    if _SCOPED.match(value):
        return f"{base}projects/{project}/{value}"
    return value


def links(value: Any, document: dict[str, Any], project: str) -> Any:
    """Every reference inside a value, as Google answers it."""
    if isinstance(value, str):
        return to_link(value, document, project)
    if isinstance(value, list):
        return [links(v, document, project) for v in value]
    if isinstance(value, dict):
        return {k: links(v, document, project) for k, v in value.items()}
    return value


def _schema(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    return dict(document.get("schemas", {}).get(ref, {})) if ref else node


def documented_default(prop: dict[str, Any]) -> Any:
    """The default a property's text documents, typed as the property; None when none is."""
    kind = prop.get("type")
    if kind == "array":
        item = prop.get("items") or {}
        one = _enum_default(item)
        return [one] if one is not None else None
    found = _enum_default(prop)
    if found is not None:
        return found
    text = str(prop.get("description", ""))
    for pattern in _DEFAULT_TEXT:
        match = pattern.search(text)
        if match is None:
            continue
        raw = match.group(1).rstrip(".")
        if kind == "integer" and raw.isdigit():
            return raw if prop.get("format") in ("int64", "uint64") else int(raw)
        if kind == "boolean" and raw.lower() in ("true", "false"):
            return raw.lower() == "true"
        if kind == "string" and (
            raw in prop["enum"] if prop.get("enum") else re.fullmatch(r"[A-Z][A-Z0-9_]+", raw)
        ):
            return raw  # an enum value, or a constant in capitals: free text is too loose to trust
    return None


def _enum_default(prop: dict[str, Any]) -> Any:
    values, texts = prop.get("enum") or [], prop.get("enumDescriptions") or []
    # a document may describe fewer values than it lists (or none): those have no text to read
    for value, text in zip(values, texts, strict=False):
        if _ENUM_DEFAULT.search(str(text)) and not str(value).endswith("UNSPECIFIED"):
            return value
    return None


def fill_defaults(
    resource: dict[str, Any], schema: dict[str, Any], document: dict[str, Any], top: bool = True
) -> None:
    """Documented defaults for members left out, here and inside nested values that were sent."""
    for name, prop in (schema.get("properties") or {}).items():
        description = str(prop.get("description", ""))
        if name not in resource:
            if top or not description.lower().startswith(("[output only]", "output only")):
                value = documented_default(prop)
                # a false boolean is left out of an answer, as proto3's JSON leaves it out
                # (regionalcomputeforwardingruletcp#19: proxyBind, "The default is false")
                if value is not None and value is not False:
                    resource[name] = value
            continue
        nested = _schema(document, prop.get("items", {}) if prop.get("type") == "array" else prop)
        if not nested.get("properties"):
            continue
        values = resource[name] if isinstance(resource[name], list) else [resource[name]]
        for value in values:
            if isinstance(value, dict):
                fill_defaults(value, nested, document, top=False)


def output_only(resource: dict[str, Any], schema: dict[str, Any], scope_link: str | None) -> None:
    """The scope (``region``/``zone`` as URLs) and a ready ``status``, where the schema has them."""
    props = schema.get("properties") or {}
    if scope_link is not None:
        kind = scope_link.rstrip("/").split("/")[-2]  # regions | zones
        member = kind[:-1]
        if member in props:  # whatever form was sent (a name, a partial URL), Google's URL
            resource[member] = scope_link
    status = props.get("status") or {}
    ready = next((s for s in READY_STATUSES if s in (status.get("enum") or [])), None)
    if ready is not None:
        resource["status"] = ready


def _places(value: Any, path: str) -> list[tuple[dict[str, Any], str]]:
    """The dicts a member path (``a.b``, ``a[].b``, nested) names its last key in, with that
    key, in document order."""
    head, _, rest = path.partition(".")
    if not rest:
        return [(value, head)] if isinstance(value, dict) else []
    inner = value.get(head.removesuffix("[]")) if isinstance(value, dict) else None
    items = inner if head.endswith("[]") and isinstance(inner, list) else [inner]
    return [place for item in items for place in _places(item, rest)]


def server_answers(resource: dict[str, Any], sent: dict[str, Any], schema_id: str) -> None:
    """What Google answers beyond (or short of) the documents, for a resource created from
    ``sent`` (:mod:`.gcp_observed`); also its canonical forms of values sent."""
    for path, value in ANSWERED.get(schema_id, {}).items():
        for place, key in _places(resource, path):
            place.setdefault(key, value)
    for path in NOT_ANSWERED.get(schema_id, ()):
        given = _places(sent, path)
        for i, (place, key) in enumerate(_places(resource, path)):
            if i >= len(given) or key not in given[i][0]:
                place.pop(key, None)
    for path, (sibling, value) in WITHDRAWN_WHEN.get(schema_id, {}).items():
        for place, key in _places(resource, path):
            if place.get(sibling) == value:
                place.pop(key, None)
    _location_type(resource, schema_id)
    for path in LEFT_OUT_WHEN_FALSE.get(schema_id, ()):
        for place, key in _places(resource, path):
            if place.get(key) is False:
                del place[key]
    port_range = resource.get("portRange")
    if schema_id == "ForwardingRule" and isinstance(port_range, str) and "-" not in port_range:
        resource["portRange"] = f"{port_range}-{port_range}"
    _gateway(resource)
    _hashed_secrets(resource)
    if resource.get("enableUlaInternalIpv6") is True:  # "will assign a /48 from ... fd20::/20"
        resource.setdefault("internalIpv6Range", "fd20:0:0:0:0:0:0:0/48")
    if schema_id == "Network" and resource.get("autoCreateSubnetworks") is True:
        link, name = str(resource.get("selfLink", "")), str(resource.get("name", ""))
        scope = link.split("/global/", 1)[0]
        resource.setdefault(
            "subnetworks",
            [f"{scope}/regions/{r}/subnetworks/{name}" for r in AUTO_SUBNETWORK_REGIONS],
        )


def echoed(resource: dict[str, Any], sent: dict[str, Any], schema_id: str) -> None:
    """The references Google answers in the form they were sent (:data:`.gcp_observed.ECHOED`)."""
    for path in ECHOED.get(schema_id, ()):
        for (place, key), (given, _) in zip(
            _places(resource, path), _places(sent, path), strict=False
        ):
            if key in given:
                place[key] = given[key]


def without_empty_lists(value: Any) -> bool:
    """Leave out every empty list, and an object emptied by that, as Google's JSON leaves out
    an empty repeated field (storagebucketbasic#3 patches ``lifecycle: {rule: []}``; #4 reads no
    ``lifecycle``); an object sent empty (``logConfig: {}``) is kept. True when ``value`` was
    emptied."""
    if not isinstance(value, dict):
        return False
    for key in list(value):
        item = value[key]
        if (isinstance(item, list) and not item) or (
            isinstance(item, dict) and item and without_empty_lists(item)
        ):
            del value[key]
    return not value


def scoped_defaults(resource: dict[str, Any], schema_id: str, scope_link: str | None) -> None:
    """A reference Google fills in under the resource's own scope when none was sent
    (:data:`.gcp_observed.SCOPED_DEFAULTS`), as a full URL."""
    for member, tail in SCOPED_DEFAULTS.get(schema_id, {}).items():
        if member not in resource and scope_link is not None:
            resource[member] = f"{scope_link}/{tail}"


def _location_type(resource: dict[str, Any], schema_id: str) -> None:
    """A bucket's ``locationType`` (:data:`.gcp_observed.MULTI_REGIONS`); Google answers its
    ``location`` in capitals, as the recording shows ``US``."""
    location = resource.get("location")
    if schema_id != "Bucket" or not isinstance(location, str):
        return
    resource["location"] = location.upper()
    if location.upper() in MULTI_REGIONS:
        resource.setdefault("locationType", "multi-region")
    elif re.fullmatch(r"[a-z]+-[a-z]+\d+", location.lower()):
        resource.setdefault("locationType", "region")


def _gateway(resource: dict[str, Any]) -> None:
    """A subnetwork's gateway: the first address of its primary range (computesubnetwork#7:
    ``10.0.0.0/16`` answers ``gatewayAddress: 10.0.0.1``)."""
    cidr = resource.get("ipCidrRange")
    if "gatewayAddress" in resource or not isinstance(cidr, str) or "/" not in cidr:
        return
    with contextlib.suppress(ValueError):
        resource["gatewayAddress"] = str(ipaddress.ip_network(cidr, strict=False)[1])


def _hashed_secrets(value: Any) -> None:
    """A secret with a ``<name>Sha256`` beside it ("SHA256 hash value for the field
    oauth2_client_secret above") is answered as that hash, never as itself
    (globalcomputebackendservice#24: ``iap.oauth2ClientSecret: ""`` reads as the SHA-256 of "")."""
    if isinstance(value, list):
        for item in value:
            _hashed_secrets(item)
    if not isinstance(value, dict):
        return
    for key in [k for k in value if isinstance(value[k], str) and f"{k}Sha256" in _SECRETS]:
        value[f"{key}Sha256"] = hashlib.sha256(value.pop(key).encode()).hexdigest()
    for item in value.values():
        _hashed_secrets(item)


def page_size(method: dict[str, Any]) -> tuple[str, int] | None:
    """The parameter that sizes a list's pages and its documented default."""
    for name in ("maxResults", "pageSize"):
        param = (method.get("parameters") or {}).get(name)
        if param is None:
            continue
        if str(param.get("default", "")).isdigit():
            return name, int(param["default"])
        match = _PAGE_DEFAULT.search(str(param.get("description", "")))
        if match:
            return name, int(match.group(1) or match.group(2))
    return None
