"""CustomResourceDefinitions (apiextensions.k8s.io/v1) for the generated reconcilers.

The spec carries what a user may set (create-only, mutable and unknown fields; create-only
ones refuse changes through an ``x-kubernetes-validations`` rule), the status what reads
return. Top-level keys are camelCase (``cidrBlock``); nested structures keep the API's member
names, since the reconciler passes them to the API as they are. Built as data and dumped as
YAML, so the schema is structural by construction (every node has a type).
"""

from __future__ import annotations

from typing import Any

import yaml

from codegen.model import FieldType, Mutability
from codegen.render.views import FieldView, ResourceView, unwrapped

VERSION = "v1alpha1"
DOMAIN = "tasklayer.dev"
DESCRIPTION_LIMIT = 300


def group(view: ResourceView) -> str:
    return f"{view.service.name}.{view.service.provider}.{DOMAIN}"


def plural(kind: str) -> str:
    lower = kind.lower()
    if lower.endswith(("s", "x", "ch", "sh")):
        return lower + "es"
    if lower.endswith("y") and lower[-2:-1] not in "aeiou":
        return lower[:-1] + "ies"
    return lower + "s"


def openapi(t: FieldType, depth: int = 0) -> dict[str, Any]:
    """A structural OpenAPI v3 schema for a field type."""
    inner = unwrapped(t)
    if inner is not None:
        return openapi(inner, depth)
    scalar: dict[str, dict[str, Any]] = {
        "string": {"type": "string"},
        "integer": {"type": "integer", "format": "int32"},
        "long": {"type": "integer", "format": "int64"},
        "float": {"type": "number"},
        "double": {"type": "number"},
        "boolean": {"type": "boolean"},
        "timestamp": {"type": "string", "format": "date-time"},
        "blob": {"type": "string", "format": "byte"},
    }
    if t.kind in scalar:
        schema = dict(scalar[t.kind])
        if t.kind == "string" and t.enum:
            schema["enum"] = list(t.enum)
        return schema
    if t.kind == "list" and t.item is not None:
        return {"type": "array", "items": openapi(t.item, depth + 1)}
    if t.kind == "map" and t.item is not None:
        return {"type": "object", "additionalProperties": openapi(t.item, depth + 1)}
    if t.kind == "structure" and t.members and depth < 6:
        return {"type": "object", "properties": {n: openapi(m, depth + 1) for n, m in t.members}}
    # recursive or very deep structures: kept, not described
    return {"type": "object", "x-kubernetes-preserve-unknown-fields": True}


def _described(schema: dict[str, Any], text: str) -> dict[str, Any]:
    text = " ".join(text.split())
    if text:
        schema = {"description": text[:DESCRIPTION_LIMIT], **schema}
    return schema


def _spec_property(f: FieldView) -> dict[str, Any]:
    schema = _described(openapi(f.field.type), f.field.documentation)
    if f.field.mutability is not Mutability.MUTABLE:
        schema["x-kubernetes-validations"] = [
            {"rule": "self == oldSelf", "message": f"{f.crd_key} can only be set when the resource is created"}
        ]
    return schema


def _conditions() -> dict[str, Any]:
    condition = {
        "type": "object",
        "required": ["type", "status"],
        "properties": {
            key: {"type": "string"}
            for key in ("type", "status", "severity", "reason", "message", "lastTransitionTime")
        },
    }
    return {"type": "array", "items": condition}


def spec_schema(view: ResourceView) -> dict[str, Any]:
    props: dict[str, Any] = {
        "name": {"type": "string", "description": "Names the resource (its Name tag where it has one)."},
        "shared": {"type": "boolean", "description": "Use an existing resource; never change or delete it."},
    }
    if view.resource.tags is not None:
        props["additionalTags"] = {"type": "object", "additionalProperties": {"type": "string"}}
    for scope in view.scopes:  # GCP: the region or zone it lives in, fixed once created
        props[str(scope)] = {"type": "string", "description": f"The {scope}; the operator's default when unset.",
                        "x-kubernetes-validations": [{"rule": "self == oldSelf",
                                                      "message": f"{scope} can only be set when the resource is created"}]}
    props.update({f.crd_key: _spec_property(f) for f in view.spec_fields})
    return {"type": "object", "properties": props}


def status_schema(view: ResourceView) -> dict[str, Any]:
    props: dict[str, Any] = {"id": {"type": "string"}} if view.has_id else {}
    props["conditions"] = _conditions()
    if view.resource.tags is not None:
        props["tags"] = {"type": "object", "additionalProperties": {"type": "string"}}
    props.update({f.crd_key: _described(openapi(f.field.type), f.field.documentation) for f in view.status_fields})
    return {"type": "object", "properties": props}


def crd(view: ResourceView) -> dict[str, Any]:
    kind = str(view.class_name)
    names = {"kind": kind, "listKind": f"{kind}List", "plural": plural(kind), "singular": kind.lower()}
    columns = [
        {"name": "Ready", "type": "string", "jsonPath": '.status.conditions[?(@.type=="Ready")].status'},
        {"name": "Reason", "type": "string", "jsonPath": '.status.conditions[?(@.type=="Ready")].reason'},
    ]
    if view.has_id:
        columns.insert(0, {"name": "ID", "type": "string", "jsonPath": ".status.id"})
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{names['plural']}.{group(view)}"},
        "spec": {
            "group": group(view),
            "names": names,
            "scope": "Namespaced",
            "versions": [
                {
                    "name": VERSION,
                    "served": True,
                    "storage": True,
                    "subresources": {"status": {}},
                    "additionalPrinterColumns": columns,
                    "schema": {
                        "openAPIV3Schema": {
                            "type": "object",
                            "description": view.documentation[:DESCRIPTION_LIMIT],
                            "properties": {"spec": spec_schema(view), "status": status_schema(view)},
                        }
                    },
                }
            ],
        },
    }


def crd_yaml(view: ResourceView) -> str:
    header = f"# Generated by `tasklayer generate` for {view.service.provider}/{view.service.name} {view.name}; do not edit.\n"
    return header + yaml.safe_dump(crd(view), sort_keys=False, width=100, allow_unicode=False)
