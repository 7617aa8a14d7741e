"""The fault proxy's view of REST services (Route 53 speaks REST-XML, not EC2's query form).

A request is named by matching its method and path against the ``requestUri`` of every
operation in botocore's model of the service its signature names (``Credential=.../route53/``);
its parameters are the leaf elements of its XML body, by their element path.

Caller references. moto makes a second hosted zone for a repeated ``CallerReference``; AWS does
not. The Route 53 API reference, CreateHostedZone: "CallerReference: A unique string that
identifies the request and that allows failed CreateHostedZone requests to be retried without
the risk of executing the operation twice", and its error ``HostedZoneAlreadyExists`` (HTTP
409): "The hosted zone you're trying to create already exists. Amazon Route 53 returns this
error when a hosted zone has already been created with the specified CallerReference." The
proxy keeps the references that committed and answers a repeat with that error itself.
"""

from __future__ import annotations

import re
import uuid
from functools import cache
from typing import Any
from xml.etree import ElementTree

# action -> the error AWS answers when its CallerReference already made one (the API reference)
CALLER_REFERENCE_TAKEN = {
    "CreateHostedZone": (
        "HostedZoneAlreadyExists",
        "The hosted zone you're trying to create already exists.",
    ),
}
_ROUTE53_NS = "https://route53.amazonaws.com/doc/2013-04-01/"


@cache
def _routes(service: str) -> list[tuple[str, re.Pattern[str], int, str]]:
    """(method, path pattern, literal length, operation) for a REST service, most specific first."""
    import botocore.session

    model = botocore.session.get_session().get_service_model(service)
    if not model.protocol.startswith("rest"):
        return []
    routes = []
    for name in model.operation_names:
        http = model.operation_model(name).http
        uri = http.get("requestUri", "/").split("?", 1)[0].rstrip("/") or "/"
        literal = re.sub(r"\{[^}]+\}", "", uri)
        pattern = re.sub(r"\\\{[^}]+?\\\+\\\}", ".+", re.escape(uri))
        pattern = re.sub(r"\\\{[^}]+?\\\}", "[^/]+", pattern)
        routes.append((http.get("method", "GET"), re.compile(f"{pattern}/?"), len(literal), name))
    routes.sort(key=lambda r: -r[2])
    return routes


def rest_action(service: str, method: str, path: str) -> str:
    """The operation a REST request calls, or '' when none of the service's routes match."""
    bare = path.split("?", 1)[0]
    for route_method, pattern, _, name in _routes(service):
        if route_method == method and pattern.fullmatch(bare):
            return name
    return ""


def xml_params(body: bytes) -> dict[str, str]:
    """The leaf elements of an XML body by their path below the root (``HostedZoneConfig.Comment``)."""
    if not body.strip():
        return {}
    try:
        root = ElementTree.fromstring(body)
    except ElementTree.ParseError:
        return {}
    params: dict[str, str] = {}

    def walk(element: Any, prefix: str) -> None:
        for child in element:
            name = prefix + child.tag.rsplit("}", 1)[-1]
            if len(child):
                walk(child, name + ".")
            else:
                params[name] = child.text or ""

    walk(root, "")
    return params


def caller_reference_taken(action: str, reference: str) -> tuple[int, list[tuple[str, str]], bytes]:
    """AWS's answer to a create whose CallerReference already made a resource."""
    code, message = CALLER_REFERENCE_TAKEN[action]
    body = (
        f'<?xml version="1.0"?>\n<ErrorResponse xmlns="{_ROUTE53_NS}"><Error><Type>Sender</Type>'
        f"<Code>{code}</Code><Message>{message} CallerReference {reference}</Message></Error>"
        f"<RequestId>{uuid.uuid4()}</RequestId></ErrorResponse>"
    ).encode()
    return 409, [("Content-Type", "text/xml")], body
