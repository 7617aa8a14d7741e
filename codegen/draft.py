"""Mutable drafts that rules fill in, frozen into the model once every rule has run.

Every ``set`` records who decided the value, so provenance cannot be forgotten.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field, fields, replace
from typing import Any

from codegen.model import (
    CallShape,
    CarriesCall,
    ChangeBatch,
    Field,
    FieldType,
    Identity,
    Mutability,
    Operation,
    Operations,
    Readiness,
    Resource,
    Service,
    TagsModel,
    Versioning,
)

FIELD_DEFAULTS: dict[str, Any] = {
    "mutability": Mutability.UNKNOWN,
    "update_operation": None,
    "write_only": False,
    "required": False,
    "sensitive": False,
    "server_default": False,
    "unordered": False,
    "references": None,
    "read_name": None,
    "update_name": None,
    "read_operation": None,
    "after": (),
    "sensitive_paths": (),
    "update_kind": None,
    "remove_operation": None,
    "remove_name": None,
    "emptied_before_delete": False,
    "update_paths": (),
    "create_path": None,
}


@dataclass
class FieldDraft(CarriesCall):
    name: str
    type: FieldType
    documentation: str = ""
    in_create: bool = False  # facts the rules share; not part of the model
    in_read: bool = False
    create_shape: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    call: CallShape = CallShape()  # the provider's facts (Field.call), set through set_call
    provenance: dict[str, str] = field(default_factory=dict)

    def set(self, attr: str, value: Any, source: str) -> None:
        if attr not in FIELD_DEFAULTS:
            raise AttributeError(f"fields have no annotated attribute {attr!r}")
        self.values[attr] = value
        self.provenance[attr] = source

    def get(self, attr: str) -> Any:
        return self.values.get(attr, FIELD_DEFAULTS[attr])

    def set_call(self, shape: builtins.type[CallShape], attr: str, value: Any, source: str) -> None:
        """Record one of the provider's facts about the field (``shape``: its field variant);
        provenance keys it by the fact's own name, as for the neutral facts."""
        current = self.call_as(shape)
        if attr not in {f.name for f in fields(current)}:
            raise AttributeError(f"{shape.kind} fields have no annotated attribute {attr!r}")
        self.call = replace(current, **{attr: value})
        self.provenance[attr] = source

    def _variant_owner(self) -> str:
        return f"field {self.name} carries"

    def freeze(self) -> Field:
        values = {k: self.values.get(k, d) for k, d in FIELD_DEFAULTS.items()}
        return Field(
            name=self.name,
            type=self.type,
            documentation=self.documentation,
            in_create=self.in_create,
            in_read=self.in_read,
            call=self.call,
            provenance=dict(sorted(self.provenance.items())),
            **values,
        )


@dataclass
class ResourceDraft:
    name: str
    api_name: str
    shape: str | None = None
    create: Operation | None = None
    read: Operation | None = None
    list: Operation | None = None
    update: builtins.list[Operation] = field(default_factory=builtins.list)
    delete: Operation | None = None
    tag: Operation | None = None
    untag: Operation | None = None
    primary: tuple[str, ...] = ()
    arn: str | None = None
    natural: tuple[str, ...] = ()
    parent: tuple[str, ...] = ()
    owner_parent: str | None = None
    owner_record: str | None = None
    named_by: str | None = None
    tags: TagsModel | None = None
    waiters: builtins.list[str] = field(default_factory=builtins.list)
    readiness: Readiness | None = None
    versioning: Versioning | None = None
    change_batch: ChangeBatch | None = None
    documentation: str = ""
    fields: dict[str, FieldDraft] = field(default_factory=dict)
    provenance: dict[str, str] = field(default_factory=dict)
    kind: str = "resource"  # "resource" or "sub-resource" (association, attachment, rule...)

    def set(self, attr: str, value: Any, source: str) -> None:
        if not hasattr(self, attr) or attr in ("fields", "provenance"):
            raise AttributeError(f"resources have no annotated attribute {attr!r}")
        setattr(self, attr, value)
        self.provenance[attr] = source

    def claimed_operations(self) -> builtins.set[str]:
        ops = [self.create, self.read, self.list, self.delete, self.tag, self.untag, *self.update]
        return {op.name for op in ops if op is not None}

    def freeze(self) -> Resource:
        identity_prov = {
            k: v
            for k, v in self.provenance.items()
            if k
            in ("primary", "arn", "natural", "parent", "owner_parent", "owner_record", "named_by")
        }
        return Resource(
            name=self.name,
            api_name=self.api_name,
            shape=self.shape,
            operations=Operations(
                create=self.create,
                read=self.read,
                list=self.list,
                update=tuple(self.update),
                delete=self.delete,
                tag=self.tag,
                untag=self.untag,
            ),
            identity=Identity(
                primary=self.primary,
                arn=self.arn,
                natural=self.natural,
                parent=self.parent,
                owner_parent=self.owner_parent,
                owner_record=self.owner_record,
                named_by=self.named_by,
                provenance=dict(sorted(identity_prov.items())),
            ),
            fields=tuple(f.freeze() for f in self.fields.values()),
            tags=self.tags,
            waiters=tuple(self.waiters),
            readiness=self.readiness,
            versioning=self.versioning,
            change_batch=self.change_batch,
            documentation=self.documentation,
            provenance=dict(sorted(self.provenance.items())),
        )


@dataclass
class ServiceDraft:
    provider: str
    name: str
    api_version: str
    resources: dict[str, ResourceDraft] = field(default_factory=dict)
    source_files: tuple[str, ...] = ()
    call_shape: type[CallShape] = CallShape  # the provider's variant, for calls a later stage adds
    tag_shape: type[CallShape] = (
        CallShape  # ... and of a tags model's calls (overlays set its facts)
    )
    field_shape: type[CallShape] = CallShape  # ... and of a field's (overlays set its facts)

    def claimed_operations(self) -> set[str]:
        claimed: set[str] = set()
        for r in self.resources.values():
            claimed |= r.claimed_operations()
        return claimed

    def freeze(self) -> Service:
        return Service(
            provider=self.provider,
            name=self.name,
            api_version=self.api_version,
            resources=tuple(self.resources[n].freeze() for n in sorted(self.resources)),
            source_files=self.source_files,
        )
