"""What the GCP rules share: the discovery document, the draft being built, and what the rules
learned about each resource's methods that the model does not hold.

A discovery document is a tree of *collections* (``networks``, ``projects.serviceAccounts``),
each with methods whose ids (``compute.networks.patch``) are the operation names the model uses,
and a flat map of named JSON schemas. The rules reason about a collection's methods, the schema
its ``get`` returns, and the paths those methods take.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from codegen.annotate.draft import ResourceDraft, ServiceDraft
from codegen.model import FieldType

Method = Mapping[str, Any]
_PLACEHOLDER = re.compile(r"\{[+]?([^}]+)\}")
_VERB = re.compile(r"[a-z]+")
# Discovery formats carried as JSON strings, and the model's names for the scalar types.
_SCALARS = {"string": "string", "integer": "integer", "number": "double", "boolean": "boolean"}


@dataclass(frozen=True)
class Collection:
    """One discovery resource (a collection of things) and its methods."""

    path: tuple[str, ...]  # ("projects", "serviceAccounts")
    methods: Mapping[str, Method]

    @property
    def name(self) -> str:
        return self.path[-1]

    def method(self, method_id: str) -> Method | None:
        """The method with this id. Ids usually end with the method's key, but not always
        (sqladmin's ``generateEphemeralCert`` is ``sql.connect.generateEphemeral``)."""
        return next((m for m in self.methods.values() if m.get("id") == method_id), None)


@dataclass
class Facts:
    """What the rules learned about one resource's calls, shared between rules."""

    collection: Collection
    schema: str  # the schema ``get`` returns: the resource's state
    create_key: str = "insert"  # the create method's key in the collection ("insert", "create")
    body_member: str | None = None  # the create body wraps the resource in this member
    id_param: str | None = None  # the create names the new resource with this ("accountId")
    scope: tuple[str, ...] = ()  # ("project", "region")
    # method id -> resource fields it carries (patch, set…, resize, add…/remove…)
    carriers: dict[str, list[str]] = field(default_factory=dict)
    actions: set[str] = field(default_factory=set)  # method ids of set…/resize/expand…/add…
    partners: dict[str, str] = field(default_factory=dict)  # add… -> remove…, attach… -> detach…
    # (method id, field) -> (the member that carries it, sent as a query parameter?)
    members: dict[tuple[str, str], tuple[str, bool]] = field(default_factory=dict)
    # method id -> a method of another collection that changes this resource's field
    # (instanceGroups.setNamedPorts for an InstanceGroupManager's namedPorts)
    borrowed: dict[str, Method] = field(default_factory=dict)
    # the create's path parameter that is another resource's whole name -> the field naming
    # that resource ({+parent} of oauthClients.credentials -> "oauthClient")
    parent_field: tuple[str, str] | None = None

    def method(self, name: str) -> Method | None:
        return self.collection.methods.get(name)

    def method_by_id(self, method_id: str) -> Method | None:
        """The collection's method with this id, or one borrowed from another collection."""
        return self.collection.method(method_id) or self.borrowed.get(method_id)

    @property
    def create(self) -> Method:
        return self.collection.methods[self.create_key]

    @property
    def get(self) -> Method:
        return self.collection.methods["get"]


def verb(method_name: str) -> str:
    """``setLabels`` -> ``set``; ``expandIpCidrRange`` -> ``expand``."""
    found = _VERB.match(method_name)
    return found.group(0) if found else ""


def singular_candidates(noun: str) -> list[str]:
    out = []
    if noun.endswith("ies"):
        out.append(noun[:-3] + "y")
    if noun.endswith("es"):
        out.append(noun[:-2])
    if noun.endswith("s") and not noun.endswith("ss"):
        out.append(noun[:-1])
    return out + [noun]


def singular(noun: str) -> str:
    """A plain English singular for a collection name (``addresses`` -> ``address``)."""
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if noun.endswith(("sses", "xes", "ches", "shes")):
        return noun[:-2]
    if noun.endswith("s") and not noun.endswith(("ss", "us", "is")):
        return noun[:-1]
    return noun


def upper_first(name: str) -> str:
    return name[:1].upper() + name[1:]


def path_template(method: Method) -> str:
    """The method's path with every placeholder written ``{}``, for comparing shapes."""
    return _PLACEHOLDER.sub("{}", method.get("flatPath") or method["path"])


def placeholders(method: Method) -> list[tuple[str, str]]:
    """(literal segment before it, placeholder name) for each placeholder of the flat path."""
    parts = (method.get("flatPath") or method["path"]).split("/")
    out = []
    for i, part in enumerate(parts):
        found = _PLACEHOLDER.fullmatch(part)
        if found:
            out.append((parts[i - 1] if i else "", found.group(1)))
    return out


@dataclass
class GcpContext:
    """The state one run of the GCP rules works on."""

    document: Mapping[str, Any]
    draft: ServiceDraft
    facts: dict[str, Facts] = field(default_factory=dict)  # resource name -> facts
    _types: dict[str, FieldType] = field(default_factory=dict)

    @cached_property
    def collections(self) -> list[Collection]:
        out: list[Collection] = []
        self._walk(self.document.get("resources", {}), (), out)
        return out

    def _walk(
        self, resources: Mapping[str, Any], prefix: tuple[str, ...], out: list[Collection]
    ) -> None:
        for name, body in resources.items():
            out.append(Collection(prefix + (name,), body.get("methods", {})))
            self._walk(body.get("resources", {}), prefix + (name,), out)

    @cached_property
    def operation_names(self) -> list[str]:
        """Every method id of the document: what overlays may name as operations."""
        return [m["id"] for c in self.collections for m in c.methods.values()]

    @property
    def schemas(self) -> Mapping[str, Any]:
        schemas: Mapping[str, Any] = self.document.get("schemas", {})
        return schemas

    def resources(self) -> Iterator[tuple[ResourceDraft, Facts]]:
        for name, resource in list(self.draft.resources.items()):
            yield resource, self.facts[name]

    def resolve(self, schema: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """A schema with its ``$ref`` followed (one level: named schemas are not refs)."""
        if not schema:
            return {}
        return self.schemas.get(schema["$ref"], {}) if "$ref" in schema else schema

    def properties(self, schema: Mapping[str, Any] | None) -> Mapping[str, Any]:
        props: Mapping[str, Any] = self.resolve(schema).get("properties", {})
        return props

    def body(self, method: Method) -> Mapping[str, Any]:
        """Properties of the method's request body (none without one)."""
        return self.properties(method.get("request"))

    def query(self, method: Method) -> dict[str, Mapping[str, Any]]:
        return {
            n: p for n, p in method.get("parameters", {}).items() if p.get("location") == "query"
        }

    def path_params(self, method: Method) -> list[str]:
        params = method.get("parameters", {})
        order = [p for p in method.get("parameterOrder", []) if params[p].get("location") == "path"]
        return order + [
            p for p, v in params.items() if v.get("location") == "path" and p not in order
        ]

    def field_type(self, schema: Mapping[str, Any]) -> FieldType:
        """Describe a discovery schema as a FieldType tree; recursive schemas become ``ref``."""
        return self._field_type(schema, frozenset())

    def _field_type(self, schema: Mapping[str, Any], visiting: frozenset[str]) -> FieldType:
        ref = schema.get("$ref")
        if ref is not None:
            if ref in visiting:
                return FieldType("ref", name=ref)
            cached = self._types.get(ref)
            if cached is None:
                cached = self._describe(self.schemas.get(ref, {}), ref, visiting | {ref})
                self._types[ref] = cached
            return cached
        return self._describe(schema, "", visiting)

    def _describe(
        self, schema: Mapping[str, Any], name: str, visiting: frozenset[str]
    ) -> FieldType:
        kind = schema.get("type", "any")
        if kind == "array":
            return FieldType("list", name, item=self._field_type(schema.get("items", {}), visiting))
        if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
            return FieldType(
                "map", name, item=self._field_type(schema["additionalProperties"], visiting)
            )
        if kind in ("object", "any"):
            members = tuple(
                (n, self._field_type(p, visiting)) for n, p in schema.get("properties", {}).items()
            )
            return FieldType("structure", name, members=members)
        return FieldType(_SCALARS.get(kind, "string"), name, enum=tuple(schema.get("enum", ())))
