"""CustomResourceDefinitions (apiextensions.k8s.io/v1) for the generated reconcilers.

The spec carries what a user may set (create-only, mutable and unknown fields), the status
what reads return. A field fixed once the resource exists (create-only or of unknown
mutability, a GCP scope, a GCP name) carries two CEL transition rules, because the apiserver
runs a rule that mentions ``oldSelf`` only where the old object has that node: ``self ==
oldSelf`` on the field refuses a change, and ``has(self.f) == has(oldSelf.f)`` on ``spec``
refuses adding or removing it later (``spec`` defaults to ``{}`` so it always exists). Every
rule sits at a node of cardinality one (the spec or one of its fields, never inside a list or
map), which keeps the apiserver's cost estimate to one comparison per rule. Top-level keys are
camelCase (``cidrBlock``); nested structures keep the API's member names, since the reconciler
passes them to the API as they are. Built as data and dumped as YAML, so the schema is
structural by construction (every node has a type).
"""

from __future__ import annotations

from typing import Any

from codegen.errors import TasklayerError, json_pointer
from codegen.model import FieldType, Mutability
from codegen.render.crd_yaml import dump_yaml
from codegen.render.field_view import FieldView
from codegen.render.values import Unwrap
from codegen.render.views import ResourceView

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


def openapi(t: FieldType, unwrap: Unwrap, depth: int = 0, enums: bool = True) -> dict[str, Any]:
    """A structural OpenAPI v3 schema for a field type (``unwrap``: its view's, for types a
    provider's calls wrap). ``enums=False`` for what the cloud reports: a status holds what
    reads return, and clouds return values their models do not list (EC2 answers an attached
    internet gateway's state ``available``; the model says ``attached``), which an enum would
    make the server refuse, and the whole status write with it."""
    inner = unwrap(t) if depth == 0 else None  # as the runtime unwraps: the field's own value
    if inner is not None:
        return openapi(inner, unwrap, depth, enums)
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
        if t.kind == "string" and t.enum and enums:
            schema["enum"] = list(t.enum)
        return schema
    if t.kind == "list" and t.item is not None:
        return {"type": "array", "items": openapi(t.item, unwrap, depth + 1, enums)}
    if t.kind == "map" and t.item is not None:
        return {
            "type": "object",
            "additionalProperties": openapi(t.item, unwrap, depth + 1, enums),
        }
    if t.kind == "structure" and t.members and depth < 6:
        return {
            "type": "object",
            "properties": {n: openapi(m, unwrap, depth + 1, enums) for n, m in t.members},
        }
    # recursive or very deep structures: kept, not described
    return {"type": "object", "x-kubernetes-preserve-unknown-fields": True}


def _described(schema: dict[str, Any], text: str) -> dict[str, Any]:
    text = " ".join(text.split())
    if text:
        schema = {"description": text[:DESCRIPTION_LIMIT], **schema}
    return schema


# words CEL reserves: the apiserver exposes a property named like one as ``__word__``
CEL_RESERVED = frozenset(
    {
        "true",
        "false",
        "null",
        "in",
        "as",
        "break",
        "const",
        "continue",
        "else",
        "for",
        "function",
        "if",
        "import",
        "let",
        "loop",
        "package",
        "namespace",
        "return",
        "var",
        "void",
        "while",
    }
)


def cel_member(key: str, where: str, file: str | None = None) -> str:
    """How a rule selects the property ``key`` of ``self``. Only plain identifiers are taken
    (spec keys are lowerCamel); others would need the apiserver's character escapes.
    ``file`` and ``where``: the input the key came from, for the error."""
    if key in CEL_RESERVED:
        return f"__{key}__"
    if not (key.isascii() and key.isidentifier() and "_" not in key):
        raise TasklayerError(
            f"spec key {key!r} is not a plain identifier, so no CEL rule can guard it",
            file=file,
            pointer=where,
            notes=[
                "rename the field with an overlay (schemas/overlays/...), or exclude the resource"
            ],
        )
    return key


def _key_origin(view: ResourceView, key: str) -> tuple[str, str | None]:
    """(place, file) a spec key came from: the overlay entry that added or renamed its field,
    else the field in the schema; the spec's own keys (name, scopes) name the resource."""
    field = next((f.field for f in view.spec_fields if f.crd_key == key), None)
    if field is None:
        return f"{view.service.provider}/{view.service.name}/{view.name}", None
    named = field.provenance.get("name", "")
    if named.startswith("overlay:"):
        file, _, entry = named.removeprefix("overlay:").partition("#")
        return _printable(entry), file
    files = view.service.source_files
    return _printable(json_pointer("resources", view.name, "fields", field.name)), (
        files[0] if files else None
    )


def _printable(text: str) -> str:
    """``text`` with control characters and line breaks escaped, so an error stays one line."""
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text
    )


def fixed_message(key: str, why: str) -> str:
    return f"{key} can only be set when the resource is created: {why}"


def _unchanged(key: str) -> list[dict[str, Any]]:
    """On the field: a value there before and after must be the same, nested members included."""
    return [{"rule": "self == oldSelf", "message": fixed_message(key, "it cannot change")}]


def _present_as_before(key: str, member: str) -> dict[str, Any]:
    """On the spec: the field is there after an update exactly when it was there before."""
    return {
        "rule": f"has(self.{member}) == has(oldSelf.{member})",
        "message": fixed_message(key, "it cannot be added or removed later"),
        "fieldPath": f".{key}",
    }


def _is_fixed(f: FieldView) -> bool:
    """Create-only, or of unknown mutability (refusing a change is the safe guess)."""
    return f.field.mutability is not Mutability.MUTABLE


def _name_is_fixed(view: ResourceView) -> bool:
    """The spec's ``name`` is the resource's own create-only name (GCP), not a Name tag (AWS)."""
    return any(
        f.attr == "name" and f.field.mutability in (Mutability.CREATE_ONLY, Mutability.UNKNOWN)
        for f in view.fields
    )


def _spec_property(f: FieldView) -> dict[str, Any]:
    schema = _described(openapi(f.held_type, f.unwrap), f.field.documentation)
    if _is_fixed(f):
        schema["x-kubernetes-validations"] = _unchanged(f.crd_key)
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


def _record() -> dict[str, Any]:
    """The status keys the reconciler keeps its record in (``capi/reconciler_write.py``), which
    the server would prune if the schema did not name them: the create's token or marker,
    stored before the call so that a pass after a lost answer (or a killed operator) finds what
    it made; that the call returned; a long-running operation still running."""
    return {
        "createAttempt": {
            "type": "string",
            "description": "The token or marker of the create under way, stored before its call.",
        },
        "createReturned": {
            "type": "boolean",
            "description": "That create returned; its resource was not seen yet.",
        },
        "operation": {
            "type": "object",
            "description": "The cloud's long-running operation still under way.",
            "properties": {"name": {"type": "string"}, "selfLink": {"type": "string"}},
        },
    }


def spec_schema(view: ResourceView) -> dict[str, Any]:
    props: dict[str, Any] = {
        "name": {
            "type": "string",
            "description": "Names the resource (its Name tag where it has one).",
        },
        "shared": {
            "type": "boolean",
            "description": "Use an existing resource; never change or delete it.",
        },
    }
    fixed: list[str] = []
    if _name_is_fixed(view):
        props["name"]["x-kubernetes-validations"] = _unchanged("name")
        fixed.append("name")
    if view.resource.tags is not None:
        props["additionalTags"] = {"type": "object", "additionalProperties": {"type": "string"}}
    for scope in view.scopes:  # GCP: the region or zone it lives in, fixed once created
        props[str(scope)] = {
            "type": "string",
            "description": f"The {scope}; the operator's default when unset.",
            "x-kubernetes-validations": _unchanged(str(scope)),
        }
        fixed.append(str(scope))
    props.update({f.crd_key: _spec_property(f) for f in view.spec_fields})
    fixed += [f.crd_key for f in view.spec_fields if _is_fixed(f)]
    referenced = [f for f in view.spec_fields if f.ref_key]
    props.update({str(f.ref_key): _ref_property(f) for f in referenced})
    fixed += [str(f.ref_key) for f in referenced if _is_fixed(f)]
    # defaulted to {} so that an old object always has a spec for the rules below to compare
    schema: dict[str, Any] = {"type": "object", "default": {}}
    rules = [_one_of(view, f) for f in referenced]
    rules += [_present_as_before(key, cel_member(key, *_key_origin(view, key))) for key in fixed]
    if rules:
        schema["x-kubernetes-validations"] = rules
    return {**schema, "properties": props}


def _ref_property(f: FieldView) -> dict[str, Any]:
    """A reference by name (``vpcRef: {name: net}``) to the custom resource of the kind ``f``
    holds the id of, in the same namespace; a list of them where ``f`` is a list of ids."""
    one: dict[str, Any] = {
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string"}},
    }
    text = (
        f"The {f.field.references} whose id {f.crd_key} holds, by its custom resource's name in"
        f" this namespace: the operator uses its status.id once it is Ready. Give {f.crd_key} or"
        " this, not both."
    )
    schema: dict[str, Any] = {"type": "array", "items": one} if f.field.type.kind == "list" else one
    schema = _described(schema, text)
    if _is_fixed(f):
        schema["x-kubernetes-validations"] = _unchanged(str(f.ref_key))
    return schema


def _one_of(view: ResourceView, f: FieldView) -> dict[str, Any]:
    """On the spec: a field's id and its reference by name are never both given."""
    key, ref = f.crd_key, str(f.ref_key)
    id_member = cel_member(key, *_key_origin(view, key))
    return {
        "rule": f"!(has(self.{id_member}) && has(self.{cel_member(ref, *_key_origin(view, key))}))",
        "message": f"give {key} or {ref}, not both",
        "fieldPath": f".{ref}",
    }


def status_schema(view: ResourceView) -> dict[str, Any]:
    props: dict[str, Any] = {"id": {"type": "string"}} if view.has_id else {}
    props["conditions"] = _conditions()
    props.update(_record())
    if view.resource.tags is not None:
        props["tags"] = {"type": "object", "additionalProperties": {"type": "string"}}
    props.update(
        {
            f.crd_key: _described(
                openapi(f.held_type, f.unwrap, enums=False), f.field.documentation
            )
            for f in view.status_fields
        }
    )
    return {"type": "object", "properties": props}


def crd(view: ResourceView) -> dict[str, Any]:
    kind = str(view.class_name)
    names = {
        "kind": kind,
        "listKind": f"{kind}List",
        "plural": plural(kind),
        "singular": kind.lower(),
    }
    columns = [
        {
            "name": "Ready",
            "type": "string",
            "jsonPath": '.status.conditions[?(@.type=="Ready")].status',
        },
        {
            "name": "Reason",
            "type": "string",
            "jsonPath": '.status.conditions[?(@.type=="Ready")].reason',
        },
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
                            "properties": {
                                "spec": spec_schema(view),
                                "status": status_schema(view),
                            },
                        }
                    },
                }
            ],
        },
    }


def crd_yaml(view: ResourceView) -> str:
    what = f"{view.service.provider}/{view.service.name} {view.name}"
    header = f"# Generated by `tasklayer generate` for {what}; do not edit.\n"
    return header + dump_yaml(crd(view))
