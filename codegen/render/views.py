"""What the templates print, computed from the model: names, types, docstrings, spec literals.

Templates stay dumb: every decision (an attribute's name, its Python type, which fields are
create-only, how a spec value is written) is made here, on plain frozen dataclasses. What a
view hands a template to print is a safe type (:mod:`codegen.naming`): identifiers, literals,
composed code; prose stays raw text the template must pass through ``docstring``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from codegen.model import Field, FieldType, Mutability, Operation, Resource, Service
from codegen.naming import (
    Code,
    Docstring,
    PythonIdentifier,
    PythonLiteral,
    class_name,
    module_name,
    python_literal,
    safe_docstring,
)
from codegen.render.names import check_fields, custom_resource_key, task_attr

Argument = tuple[PythonIdentifier, PythonLiteral]


def camel(name: str) -> str:
    """API member name to a custom resource key, as the runtime's ``reconciler.camel`` does:
    ``CidrBlock`` -> ``cidrBlock``, ``VPCZoneIdentifier`` -> ``vpcZoneIdentifier``."""
    upper = 0
    while upper < len(name) and name[upper].isupper():
        upper += 1
    if upper <= 1:
        return name[:1].lower() + name[1:]
    if upper == len(name):
        return name.lower()
    return name[: upper - 1].lower() + name[upper - 1 :]


Unwrap = Callable[[FieldType], "FieldType | None"]
"""A provider's view of a type that stands for another (AWS's ``{"Value": x}`` is x): the
inner type, or None when ``t`` is itself."""


def _as_is(t: FieldType) -> FieldType | None:
    return None


_SCALARS = {
    "string": Code("str"),
    "integer": Code("int"),
    "long": Code("int"),
    "float": Code("float"),
    "double": Code("float"),
    "boolean": Code("bool"),
    "timestamp": Code("datetime.datetime"),
    "blob": Code("bytes"),
}


def python_type(t: FieldType, unwrap: Unwrap = _as_is) -> Code:
    """The annotation for a value of ``t``; built only from constants, whatever the schema says."""
    inner = unwrap(t)
    if inner is not None:
        return python_type(inner, unwrap)
    if t.kind == "list" and t.item is not None:
        return Code("list[{}]", python_type(t.item, unwrap))
    if t.kind == "map" and t.item is not None:
        return Code("dict[str, {}]", python_type(t.item, unwrap))
    return _SCALARS.get(t.kind, Code("dict[str, Any]"))


def arguments(values: list[tuple[str, object]]) -> list[Argument]:
    """Keyword arguments of a spec literal: constant names, values through ``repr()``."""
    return [(PythonIdentifier(k), python_literal(v)) for k, v in values]


def _first_sentence(text: str, limit: int = 600) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rsplit(" ", 1)[0] + "..."


# FieldSpec's keywords in the order a spec literal gives them; a provider's view fills in
# those it has facts for (update_param, read_attribute, value_wrapper, reference_member, ...)
FIELD_SPEC_ORDER = (
    "name",
    "attr",
    "key",
    "in_create",
    "required",
    "from_task_name",
    "update_operation",
    "update_member",
    "update_param",
    "read_member",
    "read_operation",
    "read_attribute",
    "value_wrapper",
    "write_only",
    "sensitive",
    "server_default",
    "unordered",
    "references",
    "reference_member",
    "holds_arn",
    "is_tags",
    "filter_name",
    "after",
    "sensitive_paths",
    "update_kind",
    "remove_operation",
    "other_form_of",
    "emptied_before_delete",
)


@dataclass(frozen=True)
class FieldView:
    field: Field
    resource: Resource
    generated: frozenset[str]  # names of resources rendered in the same service

    @staticmethod
    def unwrap(t: FieldType) -> FieldType | None:
        """The type a value of ``t`` is to the task, when the provider's calls wrap it (a
        provider's view says; none here)."""
        return None

    def call_facts(self) -> Mapping[str, object]:
        """The provider's ``FieldSpec`` keywords for this field (its ``Field.call`` facts as
        its runtime takes them), only those that differ from their defaults; none here."""
        return {}

    @cached_property
    def is_tags(self) -> bool:
        return self.resource.tags is not None and self.field.name == self.resource.tags.field

    @cached_property
    def task_reference(self) -> PythonIdentifier | None:
        """The generated task class this field may hold (a Subnet's ``vpc``), if any: any field
        that refers to a resource rendered beside it (a provider may narrow this)."""
        ref = self.field.references
        return class_name(ref) if ref and ref in self.generated else None

    @cached_property
    def attr(self) -> PythonIdentifier:
        """The task attribute; a name the runtime's tasks already use gets a trailing ``_``
        (``lifecycle_``), except ``name`` for the field that is the resource's name."""
        ident = self.resource.identity
        return task_attr(self._attr, is_name=self.field.name in (*ident.natural, *ident.primary))

    @cached_property
    def _attr(self) -> PythonIdentifier:
        """The attribute before clashes with the runtime's names are resolved: the API name,
        snake-cased (a provider may name reference attributes after what they hold)."""
        return PythonIdentifier.from_api(self.field.name)

    @cached_property
    def annotation(self) -> Code:
        if self.is_tags:
            return Code("dict[str, str] | None")
        if self.task_reference:
            if self.field.type.kind == "list":
                return Code("list[{} | str] | None", self.task_reference)
            return Code("{} | str | None", self.task_reference)
        return Code("{} | None", python_type(self.field.type, self.unwrap))

    @property
    def on_task(self) -> bool:
        """Read-only fields are the cloud's to set: they show up in ``observed``, not as inputs.
        A field named ``name`` is the task's own name (a GCP resource's, an ELB's)."""
        return self.field.mutability is not Mutability.READ_ONLY and self.attr != "name"

    @property
    def documentation(self) -> str:
        doc = _first_sentence(self.field.documentation) or f"The {self.field.name} of the resource."
        notes = {
            Mutability.CREATE_ONLY: "Can only be set when the resource is created.",
            Mutability.MUTABLE: (
                f"Changed with {self.field.update_operation}."
                if self.field.update_operation
                else ""
            ),
            Mutability.UNKNOWN: "Whether it can be changed later is not known.",
        }.get(self.field.mutability, "")
        flags = [notes] if notes else []
        if self.field.write_only:
            flags.append("Never returned by reads, so never compared.")
        if self.other_form_of:
            flags.append(
                f"Another form of {', '.join(self.other_form_of)}: give one form, not both"
                " (those are read back and compared, this one is not)."
            )
        if self.field.sensitive:
            flags.append("Sensitive: never printed.")
        return " ".join([doc, *flags])

    def spec_arguments(self) -> list[Argument]:
        """FieldSpec keyword arguments that differ from the defaults, as source text: the
        neutral facts and the provider's (:meth:`call_facts`), in FieldSpec's order."""
        f = self.field
        values: dict[str, object] = {
            "name": f.name,
            "attr": str(self.attr),
            "key": self.crd_key,
            "in_create": self.in_create,
            "required": self.required,
            "from_task_name": self.from_task_name,
            "update_operation": f.update_operation if not self.is_tags else None,
            "update_member": f.update_name,
            "read_member": f.read_name,
            "write_only": f.write_only,
            "sensitive": f.sensitive,
            "server_default": f.server_default,
            "unordered": f.unordered,
            "references": f.references,
            "is_tags": self.is_tags,
            "filter_name": self.filter_name,
            "after": f.after or None,
            "sensitive_paths": f.sensitive_paths or None,
            "update_kind": f.update_kind,
            "remove_operation": f.remove_operation,
            "other_form_of": self.other_form_of or None,
            "emptied_before_delete": f.emptied_before_delete,
        }
        facts = self.call_facts()
        unknown = sorted(set(facts) - set(FIELD_SPEC_ORDER) | set(facts) & set(values))
        if unknown:
            raise ValueError(f"FieldSpec keywords {unknown} are not a provider's to give")
        values.update(facts)
        defaults = {
            "in_create": False,
            "required": False,
            "from_task_name": False,
            "write_only": False,
            "sensitive": False,
            "server_default": False,
            "unordered": False,
            "is_tags": False,
            "emptied_before_delete": False,
        }
        ordered = [(k, values[k]) for k in FIELD_SPEC_ORDER if k in values]
        args = arguments(
            [(k, v) for k, v in ordered if v is not None and defaults.get(k, None) != v]
        )
        # the runtime's own enum, by member name: no string stands for a class in generated code
        mutability = Code("Mutability.{}", PythonIdentifier(f.mutability.name))
        return [*args[:2], (PythonIdentifier("mutability"), mutability), *args[2:]]  # type: ignore[list-item]

    @cached_property
    def other_form_of(self) -> tuple[str, ...]:
        """The create members this one repeats in another form: a write-only list of structures
        whose items hold other create members (a security group rule's ``IpPermissions``, beside
        its flat ``FromPort``, ``ToPort``, ``IpProtocol``). Only the flat ones are read back. Items
        sharing one member name with the resource (a secret's replica regions' ``KmsKeyId``) are
        something else that happens to have it: two or more make the other form."""
        t, f = self.field.type, self.field
        if not (
            f.write_only
            and self.in_create
            and t.kind == "list"
            and t.item
            and t.item.kind == "structure"
        ):
            return ()
        inside = {name for name, _ in t.item.members}
        repeated = tuple(
            o.name
            for o in self.resource.fields
            if o is not f and o.name in inside and o.in_create and not o.write_only
        )
        return repeated if len(repeated) >= 2 else ()

    @property
    def required(self) -> bool:
        """The create cannot be sent without it, and only the user can give it: not the
        create's idempotency token (a hosted zone's CallerReference), which the runtime makes."""
        create = self.resource.operations.create
        token = create.idempotency_token if create is not None else None
        return self.field.required and self.in_create and self.field.name != token

    @property
    def from_task_name(self) -> bool:
        """The resource's own name (``Identity.named_by``, while the natural key still holds it):
        the task's name when not given."""
        ident = self.resource.identity
        return (
            ident.named_by == self.field.name
            and self.field.name in ident.natural
            and self.in_create
        )

    @property
    def crd_key(self) -> str:
        """The custom resource's key: lowerCamel of the API name (``cidrBlock``); one the spec or
        status already has for itself (``id``, ``name``, ``tags``, ``conditions``) is prefixed
        with the kind (a HostedZone's ``Id`` is ``hostedZoneId``)."""
        in_status = bool(self.field.in_read or self.field.read_operation) and not self.is_tags
        return custom_resource_key(
            camel(self.field.name), self.resource, self.on_task and not self.is_tags, in_status
        )

    @property
    def crd_key_name(self) -> PythonIdentifier | None:
        """The key as a class-syntax TypedDict key, when it can be one (``class`` cannot)."""
        return PythonIdentifier.key(self.crd_key)

    @property
    def crd_key_is_name(self) -> bool:
        return self.crd_key_name is not None

    @property
    def crd_key_literal(self) -> PythonLiteral:
        return python_literal(self.crd_key)

    @property
    def plain_type(self) -> Code:
        """The value as a spec/status carries it: ids rather than tasks."""
        if self.is_tags:
            return Code("dict[str, str]")
        return python_type(self.field.type, self.unwrap)

    @property
    def filter_name(self) -> str | None:
        """The name a list read filters this field by, when the provider's reads take filters."""
        return None

    @property
    def in_create(self) -> bool:
        """Sent in the create call (tags go through the tags spec instead)."""
        return (
            self.field.in_create
            and not self.is_tags
            and self.field.mutability is not Mutability.READ_ONLY
        )


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
        views = [self.field_view(f, self.resource, self.generated) for f in self.resource.fields]
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

    @property
    def has_id(self) -> bool:
        """An id the cloud assigns (AWS); a GCP resource's name is its id and its task's name."""
        return (
            len(self.resource.identity.primary) == 1 and self.resource.identity.primary[0] != "name"
        )

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
            _first_sentence(self.resource.documentation, 800)
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
