"""A resource's desired state and its parents', as plain data that can be made into fresh task
instances any number of times (a re-apply declares the same thing with new objects, as a new
run of a tool would).

Which fields are set: the create call's required members, the natural key, and the parent
members (``spec.parent``); each field that refers to a generated kind gets a node of that kind,
one per kind in a graph, so a route table association's route table and subnet share one VPC.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Protocol

from .resources import Resource
from .schema import Schema
from .values import Ref, Synth, Values, replace_refs


class Unsatisfiable(Exception):
    """No valid desired state can be made: says which member and why."""


class Cloud(Protocol):
    provider: str

    def schema_of(self, resource: Resource, field_name: str) -> Schema | None: ...

    def create_required(self, resource: Resource) -> tuple[str, ...]: ...


@dataclass
class Node:
    resource: Resource
    name: str
    synth: Synth  # makes this node's values, and other valid values of its fields
    values: dict[str, Any] = field(default_factory=dict)  # task attribute -> value
    refs: dict[str, tuple[Node, bool]] = field(default_factory=dict)  # attr -> (parent, as list)
    embedded: dict[Ref, Node] = field(default_factory=dict)  # values-file {ref: Kind} -> parent

    def parents(self) -> list[Node]:
        return [n for n, _ in self.refs.values()] + list(self.embedded.values())

    def depth(self) -> int:
        return 1 + max((p.depth() for p in self.parents()), default=-1)


class Builder:
    """Builds nodes over the generated resources of one provider."""

    def __init__(self, cloud: Cloud, index: dict[str, dict[str, Resource]]) -> None:
        self.cloud, self.index = cloud, index
        self.counter = itertools.count(1)
        self.values: dict[str, Values] = {}

    def target(self, resource: Resource, kind: str) -> Resource | None:
        """The generated resource a reference names: the same service's first, else another's."""
        same = self.index.get(resource.service, {})
        if kind in same:
            return same[kind]
        return next((s[kind] for s in self.index.values() if kind in s), None)

    def build(self, resource: Resource) -> Node:
        return self._node(resource, {}, set())

    def _node(
        self, resource: Resource, memo: dict[str, Node], visiting: set[str], tag: str = ""
    ) -> Node:
        key = f"{resource.service}.{resource.name}" + (f"#{tag}" if tag else "")
        if key in memo:
            return memo[key]
        visiting = visiting | {key}
        spec = resource.spec
        values = self.values.setdefault(
            resource.service, Values.load(resource.provider, resource.service)
        )
        synth = Synth(resource.provider, resource.service, resource.name, values, str(next(self.counter)))
        variant = 1 if tag else 0  # a second one of a kind: its values' next variant (another zone)
        node = Node(resource, self._name(resource, values, synth), synth)
        required = set(self.cloud.create_required(resource))
        wanted = required | {n for n in (*spec.natural, *spec.parent) if n != "tag:Name"}
        wanted |= values.sets(resource.name)
        known = {f.name for f in spec.fields}
        missing = sorted(required - known)
        if missing:
            raise Unsatisfiable(f"the create requires {', '.join(missing)}, which no field sets")
        plain = []
        for f in spec.fields:
            if f.attr == "name" or f.is_tags or f.mutability.value == "read_only":
                continue  # the task's own name, the owner's tags, the cloud's own
            if f.name not in wanted:
                continue
            target = self.target(resource, f.references) if f.references else None
            found, _ = values.get(resource.name, f.name, 0)
            if target is not None and not found:
                parent_key = f"{target.service}.{target.name}"
                if parent_key in visiting:
                    if f.name in required:
                        raise Unsatisfiable(f"{f.name} refers to {target.name}, a cycle")
                    continue
                schema = self.cloud.schema_of(resource, f.name)
                parent = self._node(target, memo, visiting)
                node.refs[f.attr] = (parent, schema is not None and schema.kind == "list")
            elif f.references and not found and f.name not in required:
                continue  # an optional parent of a kind not generated: left to the cloud
            else:
                plain.append(f)
        memo[key] = node
        synth.depth = node.depth()
        for f in plain:
            schema = self.cloud.schema_of(resource, f.name)
            if schema is None:
                raise Unsatisfiable(f"{f.name}: no schema to make a value from")
            node.values[f.attr] = synth.value(f.name, schema, variant)
        for f in spec.fields:  # every variant's: a change may declare another parent
            for ref in values.refs(resource.name, f.name):
                if ref not in node.embedded:
                    node.embedded[ref] = self._embedded(resource, ref, memo, visiting)
        return node

    def _name(self, resource: Resource, values: Values, synth: Synth) -> str:
        """The task's own name: the values file's, for a name the schema cannot make (a record
        inside its zone); else one made from the resource's name."""
        for f in resource.spec.fields:
            if f.attr == "name":
                found, given = values.get(resource.name, f.name, 0)
                if found:
                    return str(given)
        return synth.name()

    def _embedded(self, resource: Resource, ref: Ref, memo: dict[str, Node], visiting: set[str]) -> Node:
        target = self.target(resource, ref.kind)
        if target is None:
            raise Unsatisfiable(f"a values file names {ref.kind}, which is not generated")
        key = f"{target.service}.{target.name}"
        if key in visiting:
            raise Unsatisfiable(f"a values file's {ref.kind} refers back to {resource.name}, a cycle")
        return self._node(target, memo, visiting, ref.tag)


def instantiate(root: Node, overrides: dict[str, Any] | None = None) -> tuple[Any, list[Any]]:
    """Fresh tasks for ``root`` and its parents: (the root's task, every task, parents first)."""
    made: dict[int, Any] = {}
    order: list[Any] = []

    def make(node: Node, extra: dict[str, Any]) -> Any:
        if id(node) in made:
            return made[id(node)]
        def embedded(ref: Ref) -> Any:
            return make(node.embedded[ref], {})

        kwargs: dict[str, Any] = {"name": node.name}
        kwargs.update({attr: replace_refs(v, embedded) for attr, v in node.values.items()})
        for attr, (parent, as_list) in node.refs.items():
            task = make(parent, {})
            kwargs[attr] = [task] if as_list else task
        kwargs.update({attr: replace_refs(v, embedded) for attr, v in extra.items()})
        task = node.resource.task(**kwargs)
        made[id(node)] = task
        order.append(task)
        return task

    task = make(root, overrides or {})
    return task, order
