"""What the Azure rules share: the pinned documents, the draft being built, and what the rules
learned about each resource's path and schema that the model does not hold.

An ARM resource is a path with a PUT and a GET (the resource-id template,
``/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/
Microsoft.Network/virtualNetworks/{virtualNetworkName}``); its state is the schema the GET
answers with, an envelope (``id``, ``name``, ``type``, ``location``, ``tags``, ``etag``) around
a ``properties`` object whose members are flattened into fields, as the SDKs do.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from codegen.annotate.draft import ResourceDraft, ServiceDraft
from codegen.model import FieldType
from codegen.providers.azure.specs import Document, Node, Specs

METHODS = ("put", "get", "patch", "delete")
_PARAM = re.compile(r"^\{([^}]+)\}$")
_SCALARS = {"string": "string", "integer": "integer", "number": "double", "boolean": "boolean"}
MAX_TYPE_DEPTH = 12


@dataclass(frozen=True)
class PathItem:
    """One path of one document, with its operations and parameters resolved."""

    document: Document
    path: str
    operations: Mapping[str, Mapping[str, Any]]  # "put" -> the operation object

    @property
    def pointer(self) -> str:
        return "/paths/" + self.path.replace("~", "~0").replace("/", "~1")

    @property
    def segments(self) -> list[str]:
        return [s for s in self.path.split("/") if s]

    def parameter_names(self) -> list[str]:
        return [m.group(1) for s in self.segments if (m := _PARAM.match(s))]


@dataclass
class Facts:
    """What the rules learned about one resource, shared between rules."""

    item: PathItem
    schema: Node  # the GET 200 schema, $refs followed: the resource's state
    body: Node | None  # the PUT body schema, $refs followed
    name_parameter: str = ""
    fixed_name: str = ""  # a singleton's name, the path's last segment ("default")
    scope: str = ""
    parent_resource: str | None = None  # the resource this one is a child of
    # field name -> (its schema node, $refs followed; its JSON path; the raw property)
    members: dict[str, tuple[Node, str, Mapping[str, Any]]] = field(default_factory=dict)
    body_members: set[str] = field(default_factory=set)
    required: set[str] = field(default_factory=set)


@dataclass
class AzureContext:
    specs: Specs
    draft: ServiceDraft
    api_version: str
    facts: dict[str, Facts] = field(default_factory=dict)  # resource name -> facts

    def path_items(self) -> Iterator[PathItem]:
        for _, document in sorted(self.specs.documents.items()):
            paths = document.data.get("paths") or {}
            for path, item in paths.items():
                ops = {m: item[m] for m in METHODS if isinstance(item.get(m), dict)}
                yield PathItem(document, path, ops)

    def resources(self) -> Iterator[tuple[ResourceDraft, Facts]]:
        for name, facts in self.facts.items():
            yield self.draft.resources[name], facts

    def parameters(self, item: PathItem, method: str) -> list[Mapping[str, Any]]:
        """The operation's parameters (and the path item's), each ``$ref`` followed."""
        raw = item.document.data["paths"][item.path]
        out = []
        where = f"{item.pointer}/{method}/parameters"
        listed = [*raw.get("parameters", []), *item.operations[method].get("parameters", [])]
        for index, parameter in enumerate(listed):
            node = self.specs.deref(Node(item.document, f"{where}/{index}", parameter))
            out.append(node.value)
        return out

    def properties(self, node: Node) -> Iterator[tuple[str, Node, bool]]:
        """(name, schema node with $refs followed, required) of an object schema, its
        ``allOf`` parents' first, as ARM's SDKs merge them."""
        seen: set[tuple[str, str]] = set()
        yield from self._properties(self.specs.deref(node), seen)

    def _properties(
        self, node: Node, seen: set[tuple[str, str]]
    ) -> Iterator[tuple[str, Node, bool]]:
        key = (node.document.repo_path, node.pointer)
        if key in seen or not isinstance(node.value, dict):
            return
        seen.add(key)
        for index, parent in enumerate(node.value.get("allOf", [])):
            yield from self._properties(
                self.specs.deref(Node(node.document, f"{node.pointer}/allOf/{index}", parent)),
                seen,
            )
        required = set(node.value.get("required", []))
        for name, prop in (node.value.get("properties") or {}).items():
            where = f"{node.pointer}/properties/{name}"
            yield name, Node(node.document, where, prop), name in required

    def field_type(self, node: Node, depth: int = 0, stack: tuple[str, ...] = ()) -> FieldType:
        """The model's type of a schema (recursive structures become ``ref``)."""
        target = self.specs.deref(node)
        value = target.value if isinstance(target.value, dict) else {}
        name = target.pointer.rsplit("/", 1)[-1] if "$ref" in (node.value or {}) else ""
        key = f"{target.document.repo_path}#{target.pointer}"
        if key in stack or depth > MAX_TYPE_DEPTH:
            return FieldType("ref", name=name)
        kind = value.get("type")
        if kind in _SCALARS:
            return FieldType(_SCALARS[kind], name=name, enum=tuple(value.get("enum", ())))
        if kind == "array":
            item = Node(target.document, target.pointer + "/items", value.get("items", {}))
            return FieldType(
                "list", name=name, item=self.field_type(item, depth + 1, (*stack, key))
            )
        extra = value.get("additionalProperties")
        if isinstance(extra, dict) and not value.get("properties"):
            item = Node(target.document, target.pointer + "/additionalProperties", extra)
            return FieldType("map", name=name, item=self.field_type(item, depth + 1, (*stack, key)))
        members = tuple(
            (n, self.field_type(p, depth + 1, (*stack, key))) for n, p, _ in self.properties(target)
        )
        return FieldType("structure", name=name, members=members)


def flag(prop: Mapping[str, Any], target: Node, key: str) -> Any:
    """A keyword set on the property itself or on the definition it ``$ref``s."""
    if key in prop:
        return prop[key]
    return target.value.get(key) if isinstance(target.value, dict) else None
