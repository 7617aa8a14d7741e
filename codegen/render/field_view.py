"""A field as the templates print it: its task attribute and annotation, its documentation,
its custom resource key, and its ``FieldSpec`` literal, whose keywords, order and defaults are
the runtime type's own (:mod:`codegen.render.contract`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from codegen.model import CallShape, Field, FieldType, Mutability, Resource
from codegen.naming import Code, PythonIdentifier, PythonLiteral, class_name, python_literal
from codegen.render.contract import SpecType, default_field_spec
from codegen.render.names import custom_resource_key, task_attr
from codegen.render.values import Argument, camel, first_sentence, python_type


@dataclass(frozen=True)
class FieldView:
    field: Field
    resource: Resource
    generated: frozenset[str]  # names of resources rendered in the same service
    # the runtime's FieldSpec, whose keywords the spec literal gives (read from the templates)
    field_spec: SpecType = dataclasses.field(
        default_factory=default_field_spec, compare=False, repr=False
    )
    # names of the kinds rendered beside it whose custom resources carry a ``status.id``
    identified: frozenset[str] = frozenset()

    @staticmethod
    def unwrap(t: FieldType) -> FieldType | None:
        """The type a value of ``t`` is to the task, when the provider's calls wrap it (a
        provider's view says; none here)."""
        return None

    # the provider's variant of Field.call this view reads (another provider's is an error)
    field_shape: ClassVar[type[CallShape]] = CallShape

    def call_facts(self) -> Mapping[str, object]:
        """The provider's ``FieldSpec`` keywords for this field: each fact of its ``Field.call``
        variant that FieldSpec takes under the same name (AWS's ARN references, GCP's
        ``update_param``), as the rules recorded it, but those the neutral view computes itself
        (:meth:`neutral_values`); a provider's view adds what its runtime takes in another
        form. :meth:`spec_arguments` leaves out those at FieldSpec's default."""
        facts = dataclasses.asdict(self.field.call_as(self.field_shape))
        neutral = self.neutral_values()
        return {
            k: v for k, v in facts.items() if k in self.field_spec.keywords and k not in neutral
        }

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
    def ref_key(self) -> str | None:
        """The spec key naming the referenced object by its custom resource name (``vpcRef``
        beside ``vpcId``, ``securityGroupRefs`` beside ``securityGroupIds``): for a spec field
        holding the id of a kind rendered beside it whose custom resources carry one in their
        status, as a string or a list of them. Not for an ARN, nor for another member of the
        referenced resource (an Address's ``address``): ``status.id`` holds neither."""
        facts = dataclasses.asdict(self.field.call_as(self.field_shape))  # as the rules said
        if not (self.task_reference and self.field.references in self.identified):
            return None
        if not self.on_task or self.is_tags or facts.get("holds_arn"):
            return None
        if facts.get("reference_member"):
            return None
        t = self.field.type
        plural = t.kind == "list"
        held = t.item if plural else t
        if held is None or held.kind != "string":
            return None
        key = self.crd_key
        suffix = "Ids" if plural else "Id"
        stem = key[: -len(suffix)] if key.endswith(suffix) and len(key) > len(suffix) else key
        return stem + ("Refs" if plural else "Ref")

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
        return Code("{} | None", python_type(self.held_type, self.unwrap))

    @cached_property
    def held_type(self) -> FieldType:
        """The type of the value the runtime holds: the field's own, but for a membership list
        read as structures (an instance profile's Roles), the list of the member its add and
        remove calls take (``RoleName``), which is what the runtime compares and sends."""
        t, member = self.field.type, self.field.update_name
        if self.field.update_kind == "add_remove" and member and t.kind == "list" and t.item:
            inner = dict(t.item.members).get(member)
            if t.item.kind == "structure" and inner is not None:
                return FieldType(kind="list", item=inner)
        return t

    @property
    def on_task(self) -> bool:
        """Read-only fields are the cloud's to set: they show up in ``observed``, not as inputs.
        A field named ``name`` is the task's own name (a GCP resource's, an ELB's)."""
        return self.field.mutability is not Mutability.READ_ONLY and self.attr != "name"

    @property
    def documentation(self) -> str:
        doc = first_sentence(self.field.documentation) or f"The {self.field.name} of the resource."
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

    def neutral_values(self) -> dict[str, object]:
        """The ``FieldSpec`` keywords every provider's field has, computed by the view."""
        f = self.field
        return {
            "name": f.name,
            "mutability": f.mutability,
            "attr": str(self.attr),
            "key": self.crd_key,
            "ref_key": self.ref_key,
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

    def spec_values(self) -> dict[str, object]:
        """Every fact of the field a ``FieldSpec`` keyword carries: the neutral ones and the
        provider's (:meth:`call_facts`); a provider may not restate a neutral one."""
        values = self.neutral_values()
        facts = self.call_facts()
        restated = sorted(set(facts) & set(values))
        if restated:
            raise ValueError(f"FieldSpec keywords {restated} are not a provider's to give")
        return {**values, **facts}

    def spec_arguments(self) -> list[Argument]:
        """``FieldSpec`` keyword arguments as source text, in the runtime type's order, left
        out where the value is the type's default (or None: not known)."""
        spec, values = self.field_spec, self.spec_values()
        unknown = sorted(set(values) - set(spec.keywords))
        if unknown:
            raise ValueError(f"{spec.name} ({spec.source}) takes no keywords {unknown}")
        missing = [k for k in spec.required if values.get(k) is None]
        if missing:
            raise ValueError(f"{spec.name} needs {missing} for field {self.field.name}")
        return [
            (PythonIdentifier(k), _spec_value(values[k]))
            for k in spec.keywords
            if values.get(k) is not None and not spec.is_default(k, values[k])
        ]

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
        return python_type(self.held_type, self.unwrap)

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


def _spec_value(value: object) -> PythonLiteral | Code:
    """A keyword's value as source: the runtime's own enum by member name (no string stands for
    a class in generated code), anything else through ``repr()``."""
    if isinstance(value, Mutability):
        return Code("Mutability.{}", PythonIdentifier(value.name))
    return python_literal(value)
