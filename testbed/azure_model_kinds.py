"""Azure kinds built from the annotated pinned documents, as the provider's render view will build
them (issue 26 item 5: the provider does not render yet): the runtime's ``ResourceSpec`` for a
model resource, each fact from what a rule decided (``codegen.providers.azure.rules``):

- the path and its parameters: the read's ARM id template (``AzureCallShape.path``); the
  subscription comes from the adapter's scope, the resource's own name parameter from ``name``,
  every other parameter (the resource group, a parent's name) is a create-only field of its own;
- fields: the model's, each ``read_member`` its ``json_path`` when under ``properties``; ``name``
  (read-only in the document's body, the path's own parameter) is the task's name, sent in the
  body as ARM and ASO do;
- child collections: the fields ``azure.child-collections`` found;
- updates: the PUT as a read-modify-PUT, its etag as the fingerprint where the kind has one;
- readiness: ``provisioningState`` ``Succeeded``; ``Failed`` and ``Deleting`` are not live.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from codegen import pipeline
from codegen.model import Resource
from codegen.naming import PythonIdentifier
from codegen.providers import registry
from codegen.providers.azure.shapes import azure, azure_field
from tasklayer_tasks.runtime.contract.spec import (
    CallSpec,
    ChildCollectionSpec,
    CreateSpec,
    FieldSpec,
    Mutability,
    ReadinessSpec,
    ReadSpec,
    ResourceSpec,
    TagsSpec,
)

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
_PARAM = re.compile(r"\{([^}]+)\}")


def _attr(name: str) -> str:
    return str(PythonIdentifier.from_api(name))


@cache
def model_resource(service: str, kind: str) -> tuple[Resource, str]:
    cloud = registry.provider("azure")
    model = pipeline.annotate("azure", cloud.load_pinned(SCHEMAS, service), SCHEMAS)
    return next(r for r in model.resources if r.name == kind), model.api_version


def _field(f: object, path_name: str) -> FieldSpec:
    shape = azure_field(f)  # type: ignore[arg-type]
    name = f.name  # type: ignore[attr-defined]
    read_member = shape.json_path if shape.json_path != name else None
    if name == "name":
        return FieldSpec(
            "name", "name", Mutability.CREATE_ONLY, in_create=True, from_task_name=True
        )
    return FieldSpec(
        name,
        _attr(name),
        Mutability(f.mutability.value),  # type: ignore[attr-defined]
        in_create=f.in_create,  # type: ignore[attr-defined]
        required=f.required,  # type: ignore[attr-defined]
        read_member=read_member,
        sensitive=f.sensitive,  # type: ignore[attr-defined]
        is_tags=name == "tags",
    )


def spec_from_model(service: str, kind: str) -> ResourceSpec:
    resource, api_version = model_resource(service, kind)
    ops = resource.operations
    assert ops.create and ops.read and ops.delete
    read = azure(ops.read)
    params = _PARAM.findall(read.path)
    identity = tuple(
        (
            p,
            (
                "@subscriptionId"
                if p == "subscriptionId"
                else "name" if p == read.name_parameter else p
            ),
        )
        for p in params
    )
    placed = [
        FieldSpec(p, _attr(p), Mutability.CREATE_ONLY, in_create=True, required=True)
        for p, src in identity
        if src == p
    ]
    fields = tuple(placed) + tuple(_field(f, read.name_parameter) for f in resource.fields)
    names = {f.name for f in fields}
    put = next(u for u in ops.update if azure(u).method == "PUT")
    tags = resource.tags
    return ResourceSpec(
        service=service,
        name=kind,
        fields=fields,
        primary=("id",),
        natural=("name",),
        parent=tuple(src for _, src in identity if src not in ("name", "@subscriptionId")),
        arn=None,
        create=CreateSpec(ops.create.name, None, False, "id", None),
        read=ReadSpec(ops.read.name, None, False, None, False, None, None, None, identity=identity),
        updates=(CallSpec(put.name, (), fingerprints=("etag",) if "etag" in names else ()),),
        delete=CallSpec(ops.delete.name, ()),
        tags=(
            TagsSpec(
                tags.field,
                tags.create_member,
                None,
                None,
                None,
                False,
                False,
                payload_is_map=True,
                create_is_map=True,
            )
            if tags is not None
            else None
        ),
        api_version=api_version,
        resource_path=read.path,
        readiness=(
            ReadinessSpec("provisioningState", "Succeeded", ("Failed", "Deleting"))
            if "provisioningState" in names
            else None
        ),
        child_collections=tuple(
            ChildCollectionSpec(f.name, azure_field(f).child_resource or "")
            for f in resource.fields
            if azure_field(f).child_resource
        ),
    )
