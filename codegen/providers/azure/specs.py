"""A pinned set of Swagger 2.0 documents and the ``$ref``s between them.

Azure's documents name each other by relative path in azure-rest-api-specs
(``./network.json#/definitions/CloudError``,
``../../../../../common-types/resource-management/v5/types.json#/parameters/...``). Pinned
files sit flat in ``schemas/azure/<service>/<api-version>/``, so a reference is resolved through
each file's recorded repository path (the manifest's ``sources``), never through the local
layout. Every ``$ref`` is resolved once, up front: one that leaves the pinned set or points at
nothing is a :class:`TasklayerError` naming the referring file and the JSON pointer of the
``$ref``. Then each document is validated with openapi-spec-validator's Swagger 2.0 validator,
whose own resolver is handed the pinned set and nothing else (no network, no disk).

``$ref``s under ``x-ms-examples`` name example files, which are documentation: they are not
pinned and not followed.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.errors import TasklayerError, json_pointer

BASE_URI = "https://azure-rest-api-specs.pinned/"
"""The validator's base for every pinned file (``BASE_URI`` + its repository path): a host
that does not exist, served only by :meth:`Specs.by_uri`."""
EXAMPLES = "x-ms-examples"
_MAX_HOPS = 32  # a chain of $ref to $ref longer than this is a cycle


@dataclass(frozen=True)
class Document:
    """One pinned file: where it lives in the specs repository and here, and its content."""

    repo_path: str  # "specification/network/resource-manager/.../applicationSecurityGroup.json"
    file: Path  # the pinned copy, for error messages
    data: Mapping[str, Any]


@dataclass(frozen=True)
class Node:
    """A value inside a document, with where it is (for errors and provenance)."""

    document: Document
    pointer: str
    value: Any


class Specs:
    """The pinned documents of one service, by repository path."""

    def __init__(self, documents: Mapping[str, Document]) -> None:
        self.documents = dict(documents)

    def resolve(self, document: Document, ref: Any, where: str) -> Node:
        """The target of ``ref`` written in ``document`` at pointer ``where``."""
        if not isinstance(ref, str):
            raise TasklayerError("$ref must be a string", file=document.file, pointer=where)
        file_part, _, fragment = ref.partition("#")
        target = document
        if file_part:
            repo_path = posixpath.normpath(
                posixpath.join(posixpath.dirname(document.repo_path), file_part)
            )
            found = self.documents.get(repo_path)
            if found is None:
                raise TasklayerError(
                    f"$ref {ref!r} names {repo_path}, which is not pinned",
                    file=document.file,
                    pointer=where,
                    notes=[
                        "pin that file too (schemas/manifest.json azure sources)",
                        f"pinned: {', '.join(sorted(self.documents))}",
                    ],
                )
            target = found
        return Node(target, fragment, _at(target, fragment, document, where, ref))

    def deref(self, node: Node) -> Node:
        """``node`` with ``$ref``s followed until a value that is not one."""
        for _ in range(_MAX_HOPS):
            value = node.value
            if not (isinstance(value, dict) and "$ref" in value):
                return node
            node = self.resolve(node.document, value["$ref"], node.pointer + "/$ref")
        raise TasklayerError(
            "$ref chain does not end (a cycle)", file=node.document.file, pointer=node.pointer
        )

    def check_refs(self) -> int:
        """Resolve every ``$ref`` of every document; the number resolved."""
        count = 0
        for document in self.documents.values():
            for where, ref in _refs(document.data, ""):
                self.resolve(document, ref, where)
                count += 1
        return count

    def by_uri(self, uri: str) -> Any:
        """The validator's resolver: a pinned document by ``BASE_URI`` + repository path."""
        path = uri.split("#", 1)[0]
        if path.startswith(BASE_URI) and path[len(BASE_URI) :] in self.documents:
            return self.documents[path[len(BASE_URI) :]].data
        raise TasklayerError(f"reference to {uri}, which is not a pinned document")


def validate(specs: Specs) -> None:
    """Each document through openapi-spec-validator's Swagger 2.0 validator; its first error
    is a :class:`TasklayerError` with the file and the JSON pointer of what it refused."""
    from jsonschema_path import SchemaPath
    from openapi_spec_validator.validation import OpenAPIV2SpecValidator

    for repo_path, document in sorted(specs.documents.items()):
        path = SchemaPath.from_dict(
            document.data, base_uri=BASE_URI + repo_path, handlers={"https": specs.by_uri}
        )
        error = next(iter(OpenAPIV2SpecValidator(path).iter_errors()), None)
        if error is not None:
            where = list(error.absolute_path)
            raise TasklayerError(
                f"not valid Swagger 2.0: {error.message}",
                file=document.file,
                pointer=json_pointer(*where) if where else "",
                notes=["checked with openapi-spec-validator's OpenAPIV2SpecValidator"],
            )


def _refs(value: Any, pointer: str) -> Iterator[tuple[str, Any]]:
    """(pointer of the ``$ref`` member, its value) for every ``$ref`` outside examples."""
    stack = [(value, pointer)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            if "$ref" in node:
                yield where + "/$ref", node["$ref"]
            stack.extend(
                (v, where + json_pointer(k))
                for k, v in node.items()
                if k != EXAMPLES and k != "$ref"
            )
        elif isinstance(node, list):
            stack.extend((v, f"{where}/{i}") for i, v in enumerate(node))


def _at(target: Document, fragment: str, document: Document, where: str, ref: str) -> Any:
    """The value at JSON pointer ``fragment`` in ``target``; an error at the ``$ref`` if none."""
    value: Any = target.data
    if fragment in ("", "/"):
        return value
    for raw in fragment.lstrip("/").split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise TasklayerError(
                f"$ref {ref!r}: {target.repo_path} has nothing at #{fragment}",
                file=document.file,
                pointer=where,
            )
    return value
