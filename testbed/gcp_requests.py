"""A judge of GCP requests that nobody here wrote: the FULL discovery documents googleapiclient
ships (``googleapiclient/discovery_cache/documents/compute.v1.json`` ...), not the trimmed
copies the generator emits and the fake is built from.

For each request (HTTP method, path, query, JSON body) it checks that the method exists and is
the one the request was logged as; that every query parameter is declared, of its type, enum
and pattern, and every required one given; that the body is valid against the method's request
schema (no undeclared member, types right, no output-only member, the members the schema marks
required for this method present); that nothing is sent that the method's own text says it does
not modify ("Only routingConfig can be modified") — unless a pinned recording of real traffic
shows the method accepting it (:func:`recorded_accepts`: ``computenetworkbasic#4`` patches a
network's ``enableUlaInternalIpv6`` and GCP applies it, its read after showing it true: the
text is out of date there, and evidence beats text); and that a mutating method that declares
``requestId`` carries one, a valid non-zero UUID.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import googleapiclient

from .kcc_log import concrete_exchange, parse
from .kcc_pin import OUT as RECORDINGS

FULL_DOCUMENTS = Path(googleapiclient.__file__).resolve().parent / "discovery_cache" / "documents"
_OUTPUT_ONLY = re.compile(r"^\s*(\[output only\]|output only)", re.I)
_ONLY_MODIFIES = [
    re.compile(r"\bOnly (\w+) can be modified", re.I),
    re.compile(r"\byou can only patch the (\w+) field", re.I),
]


@dataclass(frozen=True)
class _Method:
    id: str
    http_method: str
    pattern: re.Pattern[str]
    literal_length: int
    method: dict[str, Any]
    document: dict[str, Any]
    named: re.Pattern[str]  # the method's own path ({+name} spans segments): its path parameters


def full_document(api: str, version: str = "v1") -> dict[str, Any]:
    return dict(json.loads((FULL_DOCUMENTS / f"{api}.{version}.json").read_text(encoding="utf-8")))


class RequestValidator:
    def __init__(self, *apis: str) -> None:
        self.methods: list[_Method] = []
        for api in apis:
            document = full_document(api)
            self._walk(document, document.get("resources") or {})
        self.checked = 0

    def _walk(self, document: dict[str, Any], resources: dict[str, Any]) -> None:
        prefix = "/" + document["servicePath"]
        for resource in resources.values():
            for method in (resource.get("methods") or {}).values():
                path = (
                    method.get("flatPath")
                    if "{+" in method["path"] and method.get("flatPath")
                    else method["path"]
                )
                regex, literal = "", 0
                for text, name in re.findall(r"([^{]*)(?:\{\+?([^}]+)\})?", prefix + path):
                    regex += re.escape(text)
                    literal += len(text)
                    if name:
                        regex += f"(?P<{re.sub(r'[^A-Za-z0-9_]', '_', name)}>[^/]+)"
                self.methods.append(
                    _Method(
                        method["id"],
                        method["httpMethod"],
                        re.compile(f"^{regex}$"),
                        literal,
                        method,
                        document,
                        _named(prefix + method["path"]),
                    )
                )
            self._walk(document, resource.get("resources") or {})

    # -- one request -----------------------------------------------------------------------------

    def check(
        self, method_id: str, http_method: str, path: str, query: dict[str, str], body: Any
    ) -> list[str]:
        """The violations of one request; [] when the API would take it as it is."""
        self.checked += 1
        where = f"{http_method} {path} ({method_id})"
        matches = sorted(
            (m for m in self.methods if m.http_method == http_method and m.pattern.match(path)),
            key=lambda m: -m.literal_length,
        )
        if not matches:
            return [f"{where}: no method of the API serves it"]
        found = matches[0]
        out = [] if found.id == method_id else [f"{where}: the API's method for it is {found.id}"]
        out += self._params(found, query, path, where)
        out += self._body(found, body, where)
        return out

    def _params(self, found: _Method, query: dict[str, str], path: str, where: str) -> list[str]:
        declared = found.method.get("parameters") or {}
        standard = found.document.get("parameters") or {}
        out = []
        for name, value in query.items():
            spec = declared.get(name) or standard.get(name)
            if spec is None or spec.get("location", "query") != "query":
                out.append(f"{where}: query parameter {name!r} is not declared")
                continue
            problem = _scalar_problem(spec, value, from_query=True)
            if problem:
                out.append(f"{where}: parameter {name}={value!r}: {problem}")
        # matched on the flat path (projects/{projectsId}/...): the parameters are the real path's
        named = found.named.match(path)
        path_values = named.groupdict() if named else found.pattern.match(path).groupdict()  # type: ignore[union-attr]
        for name, spec in declared.items():
            given = (
                query.get(name)
                if spec.get("location") == "query"
                else path_values.get(re.sub(r"[^A-Za-z0-9_]", "_", name))
            )
            if spec.get("required") and given in (None, ""):
                out.append(f"{where}: required parameter {name!r} is missing")
            if (
                spec.get("location") == "path"
                and given
                and spec.get("pattern")
                and not re.fullmatch(spec["pattern"], given)
            ):
                out.append(
                    f"{where}: path parameter {name}={given!r} does not match {spec['pattern']}"
                )
            formats = _documented_formats(spec) if spec.get("location") == "path" and given else []
            if formats and not any(f.fullmatch(given) for f in formats):  # type: ignore[arg-type]
                out.append(
                    f"{where}: path parameter {name}={given!r} is in none of the formats its text documents"
                )
        if "requestId" in declared and found.http_method != "GET":
            rid = query.get("requestId")
            if rid is None:
                out.append(f"{where}: no requestId, which the method declares")
            else:
                try:
                    if uuid.UUID(rid).int == 0:
                        out.append(f"{where}: requestId is the zero UUID")
                except ValueError:
                    out.append(f"{where}: requestId {rid!r} is not a UUID")
        return out

    def _body(self, found: _Method, body: Any, where: str) -> list[str]:
        request = (found.method.get("request") or {}).get("$ref")
        if request is None:
            return [f"{where}: a body, but the method takes none"] if body not in (None, {}) else []
        if not isinstance(body, dict):
            return [f"{where}: no body, but the method takes a {request}"]
        out = _schema_problems(
            found.document, {"$ref": request}, body, where + " body", found.id, top=True
        )
        for pattern in _ONLY_MODIFIES:
            said = pattern.search(found.method.get("description", ""))
            if said:
                schema = found.document["schemas"][request]["properties"]
                allowed = {said.group(1)} | {k for k in body if k.endswith(("ingerprint", "etag"))}
                allowed |= {
                    k
                    for k, p in schema.items()
                    if found.id in (p.get("annotations") or {}).get("required", [])
                }
                allowed |= set(recorded_accepts(self).get(found.id, {}))
                out += [
                    f"{where}: sends {k!r}, but the method says only {said.group(1)} is modified"
                    for k in body
                    if k not in allowed
                ]
        return out


_RECORDED: dict[str, dict[str, str]] = {}


def recorded_accepts(validator: RequestValidator) -> dict[str, dict[str, str]]:
    """By method id: each member a pinned Config Connector recording sent to it and GCP
    answered 200 for, with the exchange that shows it (``computenetworkbasic#4``)."""
    if _RECORDED:
        return _RECORDED
    for log in sorted(RECORDINGS.glob("*.http.log")):
        for e in map(concrete_exchange, parse(log.read_text())):
            if e.method == "GET" or e.status != 200 or not isinstance(e.request_body, dict):
                continue
            found = sorted(
                (m for m in validator.methods if m.http_method == e.method and m.pattern.match(e.path)),
                key=lambda m: -m.literal_length,
            )
            for key in e.request_body if found else ():
                where = f"{log.name.removesuffix('.http.log')}#{e.index}"
                _RECORDED.setdefault(found[0].id, {}).setdefault(key, where)
    return _RECORDED


# what a documented format's placeholder may stand for: the text says what it is
# ("The email address of the service account", "The unique, stable numeric ID")
_PLACEHOLDERS = {"EMAIL_ADDRESS": r"[^/@]+@[^/@]+", "UNIQUE_ID": r"[0-9]+"}


def _documented_formats(spec: dict[str, Any]) -> list[re.Pattern[str]]:
    """The relative-name formats a path parameter's text lists ("Use one of the following
    formats: * `projects/{PROJECT_ID}/serviceAccounts/{EMAIL_ADDRESS}` ..."), as patterns;
    [] when it lists none. A value the pattern already admits but no documented format does
    (a service account named by its accountId) is a name the API never answered."""
    listed = re.findall(
        r"`((?:projects|organizations|roles)/[^`\s]*\{[A-Z_]+\}[^`\s]*)`",
        str(spec.get("description", "")),
    )
    formats = []
    for text in dict.fromkeys(listed):
        regex = "".join(
            (
                f"(?:{_PLACEHOLDERS.get(part[1:-1], '[^/]+')})"
                if part.startswith("{")
                else re.escape(part)
            )
            for part in re.split(r"(\{[A-Z_]+\})", text)
            if part
        )
        formats.append(re.compile(regex))
    return formats


def _named(path: str) -> re.Pattern[str]:
    regex = ""
    for text, plus, name in re.findall(r"([^{]*)(?:\{(\+?)([^}]+)\})?", path):
        regex += re.escape(text)
        if name:
            regex += f"(?P<{re.sub(r'[^A-Za-z0-9_]', '_', name)}>{'.+' if plus else '[^/]+'})"
    return re.compile(f"^{regex}$")


def _scalar_problem(spec: dict[str, Any], value: Any, from_query: bool = False) -> str | None:
    kind, fmt = spec.get("type"), spec.get("format", "")
    if kind == "string" and fmt in ("int64", "uint64"):
        text = str(value)
        return None if re.fullmatch(r"-?\d+", text) else "not an integer"
    if kind == "string":
        if not isinstance(value, str):
            return f"a {type(value).__name__}, not a string"
        if spec.get("enum") and value not in spec["enum"]:
            return f"not one of {spec['enum']}"
        if from_query and spec.get("pattern") and not re.fullmatch(spec["pattern"], value):
            return f"does not match {spec['pattern']}"
        return None
    if kind == "integer":
        ok = (
            isinstance(value, int)
            and not isinstance(value, bool)
            or (from_query and re.fullmatch(r"-?\d+", str(value)))
        )
        return None if ok else "not an integer"
    if kind == "number":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if ok or from_query else "not a number"
    if kind == "boolean":
        ok = isinstance(value, bool) or (from_query and str(value) in ("true", "false"))
        return None if ok else "not a boolean"
    return None


def _schema_problems(
    document: dict[str, Any],
    schema: dict[str, Any],
    value: Any,
    where: str,
    method_id: str,
    top: bool = False,
) -> list[str]:
    if "$ref" in schema:
        schema = document["schemas"][schema["$ref"]]
    kind = schema.get("type")
    if kind == "object" and isinstance(value, dict):
        props, extra = schema.get("properties") or {}, schema.get("additionalProperties")
        out = []
        for key, member in value.items():
            if key in props:
                prop = props[key]
                if _OUTPUT_ONLY.search(str(prop.get("description", ""))):
                    out.append(f"{where}.{key}: output only, not to be sent")
                out += _schema_problems(document, prop, member, f"{where}.{key}", method_id)
            elif extra is not None:
                out += _schema_problems(document, extra, member, f"{where}.{key}", method_id)
            else:
                out.append(f"{where}.{key}: no such member")
        for key, prop in props.items():
            if (
                method_id in (prop.get("annotations") or {}).get("required", [])
                and key not in value
            ):
                out.append(f"{where}.{key}: required for {method_id}, missing")
        return out
    if kind == "object":
        return [f"{where}: a {type(value).__name__}, not an object"]
    if kind == "array":
        if not isinstance(value, list):
            return [f"{where}: a {type(value).__name__}, not a list"]
        return [
            p
            for i, item in enumerate(value)
            for p in _schema_problems(
                document, schema.get("items") or {}, item, f"{where}[{i}]", method_id
            )
        ]
    problem = _scalar_problem(schema, value)
    return [f"{where}: {problem}"] if problem else []
