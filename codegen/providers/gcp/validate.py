"""Structural checks on a decoded Google discovery document, before any rule reads it.

googleapiclient trusts the documents it ships: a dangling ``$ref`` or a method without a path
surfaces as a ``KeyError`` deep inside ``build_from_document`` or one of our rules, without a
file name. These checks walk the document once and turn each such problem into a
:class:`TasklayerError` with the file, a JSON pointer and the reason. They check what the rules
and googleapiclient rely on; they are not a full schema of the discovery format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codegen.errors import TasklayerError, json_pointer
from codegen.sources.strict_json import MAX_DEPTH
from codegen.sources.validate import expect_type, require_key

DOCUMENT_KIND = "discovery#restDescription"
PARAMETER_LOCATIONS = ("path", "query")
_TEXT_KEYS = ("description", "pattern", "format", "default")
_BOOLEAN_KEYS = ("readOnly", "required", "repeated")


def check_document(doc: Any, file: Path | str) -> None:
    """Check a whole discovery document: identity keys, schemas, and every resource's methods."""
    expect_type(doc, dict, file, "")
    kind = doc.get("kind", DOCUMENT_KIND)
    if kind != DOCUMENT_KIND:
        raise TasklayerError(
            f"not a discovery document (kind {kind!r}, expected {DOCUMENT_KIND!r})",
            file=file,
            pointer="/kind",
        )
    for key in ("name", "version", "revision"):
        require_key(doc, key, str, file, "")
    schemas = doc.get("schemas", {})
    expect_type(schemas, dict, file, "/schemas")
    for name, schema in schemas.items():
        _check_schema(schema, schemas, file, json_pointer("schemas", name))
    _check_methods(doc, schemas, file, "")
    _check_resources(doc.get("resources", {}), schemas, file, "/resources")


def _check_resources(
    resources: Any, schemas: dict[str, Any], file: Path | str, pointer: str
) -> None:
    expect_type(resources, dict, file, pointer)
    for name, resource in resources.items():
        where = f"{pointer}{json_pointer(name)}"
        expect_type(resource, dict, file, where)
        _check_methods(resource, schemas, file, where)
        if "resources" in resource:
            _check_resources(resource["resources"], schemas, file, where + "/resources")


def _check_methods(
    owner: dict[str, Any], schemas: dict[str, Any], file: Path | str, pointer: str
) -> None:
    methods = owner.get("methods", {})
    expect_type(methods, dict, file, pointer + "/methods")
    for name, method in methods.items():
        _check_method(method, schemas, file, f"{pointer}/methods{json_pointer(name)}")


def _check_method(method: Any, schemas: dict[str, Any], file: Path | str, pointer: str) -> None:
    for key in ("id", "path", "httpMethod"):
        require_key(method, key, str, file, pointer)
    parameters = method.get("parameters", {})
    expect_type(parameters, dict, file, pointer + "/parameters")
    for name, parameter in parameters.items():
        where = f"{pointer}/parameters{json_pointer(name)}"
        location = require_key(parameter, "location", str, file, where)
        _check_values(parameter, file, where)
        if location not in PARAMETER_LOCATIONS:
            raise TasklayerError(
                f"unknown parameter location {location!r} (known: "
                f"{', '.join(PARAMETER_LOCATIONS)})",
                file=file,
                pointer=where + "/location",
            )
    order = method.get("parameterOrder", [])
    expect_type(order, list, file, pointer + "/parameterOrder")
    for index, name in enumerate(order):
        if not isinstance(name, str) or name not in parameters:
            raise TasklayerError(
                f"parameterOrder names an undefined parameter {name!r}",
                file=file,
                pointer=f"{pointer}/parameterOrder/{index}",
            )
    for key in ("request", "response"):
        if key in method:
            _check_schema(method[key], schemas, file, f"{pointer}/{key}")


def _check_values(node: dict[str, Any], file: Path | str, pointer: str) -> None:
    """Text is text, flags are booleans, enums are lists of text, ``annotations.required``
    lists method ids: what the rules read, checked before they read it."""
    for key in _TEXT_KEYS:
        if key in node:
            expect_type(node[key], str, file, f"{pointer}/{key}")
    for key in _BOOLEAN_KEYS:
        if key in node:
            expect_type(node[key], bool, file, f"{pointer}/{key}")
    for key in ("enum", "enumDescriptions"):
        if key in node:
            expect_type(node[key], list, file, f"{pointer}/{key}")
            for index, value in enumerate(node[key]):
                expect_type(value, str, file, f"{pointer}/{key}/{index}")
    if "annotations" in node:
        annotations = node["annotations"]
        expect_type(annotations, dict, file, pointer + "/annotations")
        required = annotations.get("required", [])
        expect_type(required, list, file, pointer + "/annotations/required")
        for index, value in enumerate(required):
            expect_type(value, str, file, f"{pointer}/annotations/required/{index}")


def _check_schema(
    schema: Any, schemas: dict[str, Any], file: Path | str, pointer: str, depth: int = 0
) -> None:
    """A schema is a ``$ref`` to a named schema or an inline one; walk the inline parts."""
    expect_type(schema, dict, file, pointer)
    if depth > MAX_DEPTH:
        raise TasklayerError(f"schemas nest more than {MAX_DEPTH} deep", file=file, pointer=pointer)
    _check_values(schema, file, pointer)
    if "$ref" in schema:
        target = require_key(schema, "$ref", str, file, pointer)
        if target not in schemas:
            raise TasklayerError(
                f"reference to undefined schema {target!r}",
                file=file,
                pointer=pointer + "/$ref",
                fragment=json.dumps(schema)[:200],
            )
    if "type" in schema:
        require_key(schema, "type", str, file, pointer)
    properties = schema.get("properties", {})
    expect_type(properties, dict, file, pointer + "/properties")
    for name, prop in properties.items():
        _check_schema(prop, schemas, file, f"{pointer}/properties{json_pointer(name)}", depth + 1)
    if "items" in schema:
        _check_schema(schema["items"], schemas, file, pointer + "/items", depth + 1)
    extra = schema.get("additionalProperties")
    if extra is not None and not isinstance(extra, bool):
        _check_schema(extra, schemas, file, pointer + "/additionalProperties", depth + 1)
