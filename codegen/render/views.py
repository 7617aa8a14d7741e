"""What the templates print, computed from the model: names, types, docstrings, spec literals.

Templates stay dumb: every decision (an attribute's name, its Python type, which fields are
create-only, how a spec value is written) is made here, on plain frozen dataclasses. What a
view hands a template to print is a safe type (:mod:`codegen.naming`): identifiers, literals,
composed code; prose stays raw text the template must pass through ``docstring``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from codegen.model import Operation, Resource, Service
from codegen.naming import (
    Docstring,
    PythonIdentifier,
    class_name,
    module_name,
    safe_docstring,
)
from codegen.render.contract import SpecType, default_field_spec
from codegen.render.field_view import FieldView
from codegen.render.names import check_fields
from codegen.render.values import Argument, arguments, first_sentence

# the runtime's TagsSpec takes these without defaults: how a tag call names the resource, as
# a cloud with no such facts says it (no TagSpecifications type, one id, not an ARN)
TAGS_SPEC_REQUIRED: Mapping[str, object] = {
    "resource_type": None,
    "selector_is_list": False,
    "selector_is_arn": False,
}


@dataclass(frozen=True)
class ResourceView:
    resource: Resource
    service: Service
    generated: frozenset[str]
    # the runtime's FieldSpec (codegen.render.contract), handed to each field's view
    field_spec: SpecType = dataclasses.field(
        default_factory=default_field_spec, compare=False, repr=False
    )

    @property
    def name(self) -> str:
        return self.resource.name

    @cached_property
    def module(self) -> PythonIdentifier:
        return module_name(self.resource.name)

    @cached_property
    def class_name(self) -> PythonIdentifier:
        return class_name(self.resource.name)

    field_view: ClassVar[type[FieldView]] = FieldView

    @cached_property
    def fields(self) -> list[FieldView]:
        views = [
            self.field_view(f, self.resource, self.generated, self.field_spec, self.identified)
            for f in self.resource.fields
        ]
        check_fields(self.service, self.resource, views, self.scopes, self.has_id)
        return views

    @property
    def task_fields(self) -> list[FieldView]:
        return [f for f in self.fields if f.on_task]

    @property
    def scopes(self) -> list[PythonIdentifier]:
        """Scope attributes the task takes besides its fields (GCP's region/zone); none on AWS."""
        return []

    @property
    def spec_fields(self) -> list[FieldView]:
        """What a spec may set: create-only, mutable and unknown fields, tags aside."""
        return [f for f in self.task_fields if not f.is_tags]

    @property
    def status_fields(self) -> list[FieldView]:
        """What a status reports: every field the cloud returns; a primary id whose key is the
        status's own ``id`` (a hosted zone's ``Id``) is reported there, once."""
        own_id = self.id_member if self.has_id else None
        return [
            f
            for f in self.fields
            if (f.field.in_read or f.field.read_operation)
            and not f.is_tags
            and not (f.field.name == own_id and f.crd_key == "id")
        ]

    @property
    def named_by_tag(self) -> bool:
        return "tag:Name" in self.resource.identity.natural

    @cached_property
    def identified(self) -> frozenset[str]:
        """The kinds rendered beside it whose custom resources carry a ``status.id``, which a
        reference by name resolves to."""
        return frozenset(
            r.name for r in self.service.resources if r.name in self.generated and _has_id(r)
        )

    @property
    def has_id(self) -> bool:
        """An id the cloud assigns (AWS); a GCP resource's name is its id and its task's name."""
        return _has_id(self.resource)

    @property
    def id_member(self) -> str:
        return self.resource.identity.primary[0]

    @property
    def references(self) -> list[PythonIdentifier]:
        """Task classes this one's fields may hold, for imports."""
        return sorted(
            {
                f.task_reference
                for f in self.task_fields
                if f.task_reference and f.task_reference != self.class_name
            }
        )

    @property
    def documentation(self) -> str:
        return (
            first_sentence(self.resource.documentation, 800)
            or f"A {self.service.name} {self.name}."
        )

    def calls_summary(self) -> list[Docstring]:
        """One line per call, for the core module's docstring."""
        ops = self.resource.operations
        out = []
        if ops.create:
            out.append(f"create: {ops.create.name}")
        if ops.read:
            out.append(f"read:   {ops.read.name}{self.read_note(ops.read)}")
        for op in ops.update:
            out.append(f"update: {op.name} ({', '.join(op.fields)})")
        if ops.tag:
            out.append(f"tags:   {ops.tag.name}")
        if ops.delete:
            out.append(f"delete: {ops.delete.name}")
        return [safe_docstring(line) for line in out]

    def read_note(self, op: Operation) -> str:
        """How the read finds the resource, when that is worth a note in the docstring."""
        return ""

    # -- the spec literal -------------------------------------------------------------------------

    def read_arguments(self) -> list[Argument] | None:
        """``ReadSpec`` keyword arguments; ``None`` without a read. Each provider writes its own."""
        raise NotImplementedError

    def create_arguments(self) -> list[Argument] | None:
        """``CreateSpec`` keyword arguments; ``None`` without a create."""
        raise NotImplementedError

    def call_arguments(self, op: Operation) -> list[Argument]:
        """``CallSpec`` keyword arguments of an update, tag or delete call."""
        raise NotImplementedError

    def delete_arguments(self) -> list[Argument] | None:
        op = self.resource.operations.delete
        return self.call_arguments(op) if op else None

    def update_calls(self) -> list[list[Argument]]:
        return [self.call_arguments(op) for op in self.resource.operations.update]

    def tag_call_facts(self) -> Mapping[str, object]:
        """The provider's values of the call facts ``TagsSpec`` requires of every cloud (keys of
        :data:`TAGS_SPEC_REQUIRED`); a provider whose tag calls have none keeps the defaults."""
        return {}

    def tags_arguments(self) -> list[Argument] | None:
        t = self.resource.tags
        if t is None:
            return None
        facts = {**TAGS_SPEC_REQUIRED, **self.tag_call_facts()}
        values: list[tuple[str, object]] = [
            ("field", t.field),
            ("create_member", t.create_member),
            ("resource_type", facts["resource_type"]),
            ("tag_operation", t.tag_operation),
            ("selector_member", t.selector_member),
            ("selector_is_list", facts["selector_is_list"]),
            ("selector_is_arn", facts["selector_is_arn"]),
        ]
        if t.read_operation:
            values.append(("read_operation", t.read_operation))
        return arguments(values)

    def versioning_arguments(self) -> list[Argument] | None:
        """``VersionSpec`` keyword arguments of a versioned resource; ``None`` where the provider's
        runtime has no versioned calls (each provider that has them writes its own)."""
        return None

    def listing_arguments(self) -> list[Argument] | None:
        """``ReadSpec`` of a list the provider's runtime finds by when the read cannot; None
        here."""
        return None

    def change_batch_arguments(self) -> list[Argument] | None:
        """``ChangeBatchSpec`` of a resource written as a change in its parent's batch; None where
        the provider's runtime has no such calls."""
        return None

    def readiness_arguments(self) -> list[Argument] | None:
        r = self.resource.readiness
        if r is None:
            return None
        values: list[tuple[str, object]] = [
            ("field", r.field),
            ("ready", r.ready),
            ("failed", r.failed),
        ]
        return arguments(values + ([("gone_if_set", True)] if r.gone_if_set else []))

    @property
    def owner_parent(self) -> tuple[str, str] | None:
        """(field, resource) of the rendered parent that owns this untagged kind, if any: raw
        schema names, which package.py turns into a literal and an identifier."""
        member = self.resource.identity.owner_parent
        if member is None:
            return None
        target = self.resource.field(member).references
        return (member, target) if target is not None and target in self.generated else None

    def identity_arguments(self) -> list[Argument]:
        ident = self.resource.identity
        return arguments(
            [
                ("primary", ident.primary),
                ("natural", ident.natural),
                ("parent", ident.parent),
                ("arn", ident.arn),
            ]
        )


__all__ = ["Argument", "FieldView", "ResourceView", "TAGS_SPEC_REQUIRED", "arguments"]


def _has_id(resource: Resource) -> bool:
    """An id the cloud assigns (AWS); a GCP resource's name is its id and its task's name."""
    return len(resource.identity.primary) == 1 and resource.identity.primary[0] != "name"
