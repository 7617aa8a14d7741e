"""What the AWS rules share: the botocore model, the draft being built, and word helpers.

Operation names are split with botocore's own CamelCase handling; the rules reason about a
verb (``Create``), a noun (``VpcAttribute``) and the shapes botocore resolved for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from botocore.model import (
    ListShape,
    MapShape,
    OperationModel,
    ServiceModel,
    Shape,
    StringShape,
    StructureShape,
)
from botocore.waiter import WaiterModel

from codegen.annotate.draft import ResourceDraft, ServiceDraft
from codegen.annotate.inflect import singular
from codegen.model import FieldType
from codegen.providers.aws.rules.docs import html_to_text

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z][a-z0-9]*|[a-z0-9]+")

# Members that steer a call rather than describe the resource.
CONTROL_MEMBERS = frozenset(
    {"DryRun", "NextToken", "MaxResults", "Marker", "MaxItems", "PageSize", "MaxRecords"}
)


def members(shape: Shape | None) -> dict[str, Shape]:
    """A structure's members; none for a shape of another type. botocore types ``members``
    only on ``StructureShape``: the rules ask here instead of trusting a ``type_name`` test."""
    return shape.members if isinstance(shape, StructureShape) else {}


def list_item(shape: Shape | None) -> Shape | None:
    """A list's item shape; None for a shape of another type (``ListShape.member``)."""
    return shape.member if isinstance(shape, ListShape) else None


def enum_of(shape: Shape | None) -> list[str]:
    """A string shape's enumerated values; none for any other shape (``StringShape.enum``)."""
    return list(shape.enum) if isinstance(shape, StringShape) else []


def is_list_of(shape: Shape, name: str | None) -> bool:
    """``shape`` is a list of the shape called ``name``."""
    item = list_item(shape)
    return item is not None and item.name == name


def words(name: str) -> list[str]:
    return list(_words(name))


@cache
def _words(name: str) -> tuple[str, ...]:
    # rules ask for the same few thousand operation and member names over and over
    return tuple(_WORD.findall(name))


@cache
def split_operation(name: str) -> tuple[str, str]:
    """``ModifyVpcAttribute`` -> (``Modify``, ``VpcAttribute``)."""
    parts = words(name)
    return (parts[0], "".join(parts[1:])) if parts else ("", "")


def singular_candidates(noun: str) -> list[str]:
    """Possible singular forms of a (last-word) plural noun, most specific first: the inflected
    singular, then the loose strippings a model's shape names may still match."""
    out = [singular(noun)]
    if noun.endswith("ies"):
        out.append(noun[:-3] + "y")
    if noun.endswith("es"):
        out.append(noun[:-2])
    if noun.endswith("s") and not noun.endswith("ss"):
        out.append(noun[:-1])
    out.append(noun)
    return list(dict.fromkeys(out))


def same_noun(a: str, b: str) -> bool:
    return not _candidate_set(a).isdisjoint(_candidate_set(b))


# the read rules ask this of every (resource, operation) pair: ~130k times for five services
@cache
def _candidate_set(noun: str) -> frozenset[str]:
    return frozenset(singular_candidates(noun))


@dataclass
class AwsContext:
    """The state one run of the AWS rules works on."""

    model: ServiceModel
    paginators: Mapping[str, Any]
    waiters: WaiterModel | None
    draft: ServiceDraft
    # operation name -> "tag" | "untag" | "tag-read", found service-wide before resources
    tag_operations: dict[str, str] = field(default_factory=dict)
    # resource name -> operations that select it but carry none of its fields at the top level
    selecting_operations: dict[str, list[str]] = field(default_factory=dict)
    _types: dict[str, FieldType] = field(default_factory=dict)

    @cached_property
    def operation_names(self) -> list[str]:
        return list(self.model.operation_names)

    @cached_property
    def shape_names(self) -> set[str]:
        return set(self.model.shape_names)

    # the rules ask these of every (resource, operation) pair, ~200k times for five services;
    # the model does not change during a run, so each answer is worked out once
    @cached_property
    def _operations(self) -> dict[str, OperationModel]:
        return {name: self.model.operation_model(name) for name in self.operation_names}

    @cached_property
    def _by_verb(self) -> dict[str, list[tuple[str, str, str]]]:
        index: dict[str, list[tuple[str, str, str]]] = {}
        for name in self.operation_names:
            verb, noun = split_operation(name)
            index.setdefault(verb, []).append((name, verb, noun))
        return index

    def op(self, name: str) -> OperationModel:
        found = self._operations.get(name)
        return (
            found if found is not None else self.model.operation_model(name)
        )  # botocore's error for a wrong name

    def ops_with_verb(self, *verbs: str) -> Iterable[tuple[str, str, str]]:
        """(operation, verb, noun) in the model's operation order."""
        if len(verbs) == 1:
            return iter(self._by_verb.get(verbs[0], ()))
        wanted = set(verbs)
        return (entry for entry in self._all_split if entry[1] in wanted)

    @cached_property
    def _all_split(self) -> list[tuple[str, str, str]]:
        return [(name, *split_operation(name)) for name in self.operation_names]

    def input_members(self, op_name: str) -> Mapping[str, Shape]:
        shape = self.op(op_name).input_shape
        return shape.members if shape is not None else {}

    def output_members(self, op_name: str) -> Mapping[str, Shape]:
        shape = self.op(op_name).output_shape
        return shape.members if shape is not None else {}

    def required_inputs(self, op_name: str) -> list[str]:
        required = self._required.get(op_name)
        if required is None:
            shape = self.op(op_name).input_shape
            required = self._required[op_name] = (
                tuple(shape.required_members) if shape is not None else ()
            )
        return list(required)

    _required: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def resources(self) -> list[ResourceDraft]:
        return list(self.draft.resources.values())

    def canonical_noun(self, nouns: Iterable[str]) -> str:
        """The resource name for a family of nouns: a singular form the model has a shape for."""
        nouns = list(nouns)
        for noun in nouns:
            for candidate in singular_candidates(noun):
                if candidate in self.shape_names:
                    return candidate
        return singular(nouns[0])

    def field_type(self, shape: Shape) -> FieldType:
        """Describe a botocore shape as a FieldType tree; recursive shapes become ``ref``."""
        return self._field_type(shape, frozenset())

    def _field_type(self, shape: Shape, visiting: frozenset[str]) -> FieldType:
        if shape.name in visiting:
            return FieldType("ref", name=shape.name)
        cached = self._types.get(shape.name)
        if cached is not None and shape.type_name != "structure":
            return cached
        inner = visiting | {shape.name}
        kind = shape.type_name
        if isinstance(shape, ListShape):
            ft = FieldType("list", shape.name, item=self._field_type(shape.member, inner))
        elif isinstance(shape, MapShape):
            ft = FieldType("map", shape.name, item=self._field_type(shape.value, inner))
        elif isinstance(shape, StructureShape):
            members = tuple(
                (name, self._field_type(member, inner)) for name, member in shape.members.items()
            )
            ft = FieldType("structure", shape.name, members=members)
        else:
            ft = FieldType(kind, shape.name, enum=tuple(enum_of(shape)))
        self._types[shape.name] = ft
        return ft


def is_sensitive(shape: Shape) -> bool:
    return bool(shape.metadata.get("sensitive"))


def documentation_text(shape_or_op: Shape | OperationModel | None) -> str:
    """Plain text of botocore's HTML documentation, via botocore's own doc tools."""
    raw = (shape_or_op.documentation if shape_or_op is not None else "") or ""
    return html_to_text(raw) if raw else ""
