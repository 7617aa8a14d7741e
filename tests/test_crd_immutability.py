"""The generated CRDs refuse what the reconcilers cannot change, judged by a real CEL evaluator.

For every CRD, old/new object pairs are built from its own schema and judged as the apiserver
would (``tests/apiserver_cel.py``): unchanged passes; a field fixed once created that is
changed, added or removed (or has a member or item changed, added or removed) is refused with a
message naming it; a mutable field changed, added or removed passes. Which fields are fixed is
not read from the rules under test but from what the generated reconciler itself refuses
(``mutability`` in its ``ResourceSpec``), plus the GCP scope and a GCP resource's own name.

The real API server now judges the top-level cases (every spec field changed, added and
removed, on every CRD: tests/kube/test_crds_on_apiserver.py). This in-process stand-in stays
for what it adds: edits one level inside a field (a member, item or entry changed, added or
removed), that the presence rule is what catches an add or remove, CEL's escaped names, and
where the rules sit and what they cost; it also runs where no Go toolchain is.
"""

from __future__ import annotations

import base64
import importlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.apiserver_cel import ABSENT, Violation, is_transition_rule, violations

CRDS = sorted((Path(__file__).resolve().parent.parent / "generated" / "tasklayer_tasks" / "crds").rglob("*.yaml"))
FIXED = ("create_only", "unknown")  # what the reconciler answers with CannotChange


def _crd(path: Path) -> dict[str, Any]:
    return dict(yaml.safe_load(path.read_text()))


def _root(crd: dict[str, Any]) -> dict[str, Any]:
    return dict(crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"])


def _resource_spec(crd: dict[str, Any]) -> Any:
    """The generated reconciler's ``ResourceSpec`` for the CRD's kind."""
    service, provider = crd["spec"]["group"].split(".")[:2]
    module = importlib.import_module(f"tasklayer_tasks.{provider}.{service}.reconcilers")
    return getattr(module, f"{crd['spec']['names']['kind']}Reconciler").spec


def references(crd: dict[str, Any]) -> dict[str, str]:
    """Spec keys that name a referenced object by name (``vpcRef``), with the id key each one
    stands in for (``vpcId``): one of the two is given, never both."""
    return {f.ref_key: f.key for f in _resource_spec(crd).fields if f.ref_key}


def expected_fixed(crd: dict[str, Any]) -> set[str]:
    """Spec keys the generated reconciler will not change once the resource exists (a fixed
    field's reference by name with it)."""
    spec = _resource_spec(crd)
    fixed = {f.key for f in spec.fields if f.mutability in FIXED and not f.is_tags and f.attr != "name"}
    fixed |= {f.ref_key for f in spec.fields if f.ref_key and f.mutability in FIXED}
    fixed |= {"name" for f in spec.fields if f.attr == "name" and f.mutability in FIXED}  # a GCP name
    return fixed | {scope for scope in spec.parent if scope in ("region", "zone")}


def sample(schema: dict[str, Any], variant: int) -> Any:
    """A value the schema accepts; variants 0 and 1 differ at every leaf."""
    if "enum" in schema:
        return schema["enum"][variant % len(schema["enum"])]
    kind, fmt = schema.get("type"), schema.get("format")
    if kind == "string":
        if fmt == "date-time":
            return f"2024-01-0{variant + 1}T00:00:00Z"
        return base64.b64encode(bytes([variant])).decode() if fmt == "byte" else f"value-{variant}"
    if kind == "integer":
        return variant + 1
    if kind == "number":
        return variant + 1.5
    if kind == "boolean":
        return variant == 1
    if kind == "array":
        return [sample(schema["items"], variant)]
    if "properties" in schema:
        return {key: sample(member, variant) for key, member in schema["properties"].items()}
    if isinstance(schema.get("additionalProperties"), dict):
        return {"key": sample(schema["additionalProperties"], variant)}
    return {"unknown": variant}  # x-kubernetes-preserve-unknown-fields


def _without(value: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in value.items() if k != key}


def _inner_edits(schema: dict[str, Any], value: Any) -> Iterator[tuple[str, Any, Any]]:
    """(what, old, new) edits one level inside a structured value: a member, item or entry
    changed, added, removed."""
    if isinstance(value, dict) and "properties" in schema:
        for key, member in schema["properties"].items():
            yield f"member {key} changed", value, {**value, key: sample(member, 1)}
            yield f"member {key} added", _without(value, key), value
            yield f"member {key} removed", value, _without(value, key)
    elif isinstance(value, dict) and isinstance(schema.get("additionalProperties"), dict):
        yield "entry changed", value, {"key": sample(schema["additionalProperties"], 1)}
        yield "entry added", value, {**value, "other": sample(schema["additionalProperties"], 1)}
        yield "entry removed", value, {}
    elif isinstance(value, list):
        yield "item changed", value, [sample(schema["items"], 1)]
        yield "item added", value, value + [sample(schema["items"], 1)]
        yield "item removed", value, []


@dataclass(frozen=True)
class Pair:
    what: str
    old: Any  # the old spec, ABSENT on a create
    new: dict[str, Any]
    refused: str | None  # the field the apiserver must name, None when it must accept


def update_pairs(crd: dict[str, Any]) -> list[Pair]:
    spec_schema = _root(crd)["properties"]["spec"]
    props = spec_schema["properties"]
    fixed = expected_fixed(crd)
    refs = references(crd)
    full = {key: sample(member, 0) for key, member in props.items() if key not in refs}
    mutable_only = {key: value for key, value in full.items() if key not in fixed}
    pairs = [Pair("create", ABSENT, full, None), Pair("unchanged", full, full, None),
             Pair("create-only fields absent, every mutable one changed", mutable_only,
                  {key: sample(props[key], 1) for key in mutable_only}, None)]
    for ref, id_key in refs.items():
        by_ref = {**_without(full, id_key), ref: sample(props[ref], 0)}
        refused = ref if ref in fixed else None
        pairs += [Pair(f"{ref} instead of {id_key}", ABSENT, by_ref, None),
                  Pair(f"{ref} beside {id_key}", ABSENT, {**full, ref: by_ref[ref]}, ref),
                  Pair(f"{ref} changed", by_ref, {**by_ref, ref: sample(props[ref], 1)}, refused),
                  Pair(f"{ref} added", _without(by_ref, ref), by_ref, refused),
                  Pair(f"{ref} removed", by_ref, _without(by_ref, ref), refused)]
    for key, member in props.items():
        if key in refs:
            continue
        refused = key if key in fixed else None
        changed = sample(member, 1)
        if can_change(member):
            assert changed != full[key], f"{key}: the two samples must differ"
            pairs.append(Pair(f"{key} changed", full, {**full, key: changed}, refused))
        pairs += [Pair(f"{key} added", _without(full, key), full, refused),
                  Pair(f"{key} removed", full, _without(full, key), refused)]
        pairs += [Pair(f"{key}: {what}", {**full, key: old}, {**full, key: new}, refused)
                  for what, old, new in _inner_edits(member, full[key]) if old != new]
    return pairs


def can_change(schema: dict[str, Any]) -> bool:
    """Whether a value of ``schema`` has another value to change to: not when every leaf is an
    enum of one value (EC2's ``Type: ipsec.1``, ``RequestPayer: requester``)."""
    if "enum" in schema:
        return len(schema["enum"]) > 1
    if schema.get("type") == "array":
        return can_change(schema["items"])  # an item more or fewer is an inner edit
    if "properties" in schema:
        return any(can_change(member) for member in schema["properties"].values())
    return True


def judge(crd: dict[str, Any], pair: Pair) -> list[Violation]:
    def whole(spec: dict[str, Any]) -> dict[str, Any]:
        return {"apiVersion": f"{crd['spec']['group']}/v1alpha1", "kind": crd["spec"]["names"]["kind"],
                "metadata": {"name": "example"}, "spec": spec}

    return violations(_root(crd), whole(pair.new), ABSENT if pair.old is ABSENT else whole(pair.old))


def _wrong(pair: Pair, found: list[Violation]) -> str | None:
    """Why the verdict on a pair is wrong, or None when it is right."""
    if pair.refused is None:
        return f"{pair.what}: refused with {found}" if found else None
    if not found:
        return f"{pair.what}: accepted"
    stray = [v for v in found if v.path != f".spec.{pair.refused}" or not re.search(rf"\b{pair.refused}\b", v.message)]
    return f"{pair.what}: refusal does not name {pair.refused}: {stray}" if stray else None


def test_all_generated_crds_are_judged() -> None:
    kinds = {f"{p.parent.parent.name}/{p.parent.name}/{p.stem}" for p in CRDS}
    metadata = json.loads((Path(__file__).resolve().parent.parent / "generated/tasklayer-generate-metadata.json").read_text())
    assert len(kinds) == sum(len(s["rendered"]) for s in metadata["services"])  # one CRD per rendered resource
    assert {"aws/ec2/vpcs", "aws/route53/hostedzones", "gcp/compute/disks", "gcp/iam/serviceaccounts"} <= kinds


@pytest.mark.parametrize("path", CRDS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_create_only_fields_refuse_change_add_remove_and_mutable_ones_do_not(path: Path) -> None:
    crd = _crd(path)
    fixed = expected_fixed(crd)
    assert fixed <= set(_root(crd)["properties"]["spec"]["properties"]), "a fixed field the spec does not carry"
    pairs = update_pairs(crd)
    # every fixed field is tried, and every reference given beside its id
    assert {p.refused for p in pairs if p.refused} == fixed | set(references(crd))
    wrong = [why for why in (_wrong(pair, judge(crd, pair)) for pair in pairs) if why]
    assert not wrong, "\n".join(wrong)


def test_the_presence_rule_is_what_catches_an_added_or_removed_field() -> None:
    """Without its parent's rule, ``self == oldSelf`` lets a field be added or removed: the
    apiserver does not run a transition rule where the old object lacks the node."""
    crd = _crd(next(p for p in CRDS if p.stem == "vpcs"))
    spec = _root(crd)["properties"]["spec"]
    field_rule_only = {**spec, "x-kubernetes-validations": []}
    full = {"cidrBlock": "10.0.0.0/16"}
    assert violations(field_rule_only, full, {}) == []  # added: nothing refuses it
    assert violations(field_rule_only, {}, full) == []  # removed: nothing refuses it
    assert [v.path for v in violations(spec, full, {})] == [".cidrBlock"]
    assert [v.path for v in violations(spec, {}, full)] == [".cidrBlock"]
    assert [v.path for v in violations(spec, {"cidrBlock": "10.1.0.0/16"}, full)] == [".cidrBlock"]


def test_transition_rules_are_told_by_the_oldself_variable_not_a_member_named_so() -> None:
    assert is_transition_rule("self == oldSelf") and is_transition_rule("has(oldSelf.x)")
    assert not is_transition_rule("self.oldSelf == 1") and not is_transition_rule("self.x > 0")


def test_a_property_named_like_a_cel_word_is_seen_escaped() -> None:
    """The apiserver shows ``namespace`` to rules as ``self.__namespace__``."""
    schema = {"type": "object", "properties": {"namespace": {"type": "string"}},
              "x-kubernetes-validations": [{"rule": "has(self.__namespace__) == has(oldSelf.__namespace__)",
                                            "fieldPath": ".namespace"}]}
    assert violations(schema, {"namespace": "a"}, {"namespace": "b"}) == []
    assert [v.path for v in violations(schema, {"namespace": "a"}, {})] == [".namespace"]


def _rule_nodes(node: Any, path: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    if not isinstance(node, dict):
        return
    if node.get("x-kubernetes-validations"):
        yield path, node["x-kubernetes-validations"]
    for key, child in (node.get("properties") or {}).items():
        yield from _rule_nodes(child, f"{path}.{key}")
    for key in ("items", "additionalProperties"):
        yield from _rule_nodes(node.get(key), f"{path}[{key}]")


# From k8s.io/apiextensions-apiserver: a CRD's rules may together be estimated at 100M cost
# units, each rule's estimate multiplied by how often its node can occur in one object. An
# equality costs 0.1 a byte of its smaller side, and no value exceeds a 3 MiB request.
CRD_COST_LIMIT = 100_000_000
EQUALITY_COST_BOUND = 0.1 * 3 * 1024 * 1024 + 10


@pytest.mark.parametrize("path", CRDS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_rules_run_once_per_object_and_stay_within_the_cost_limit(path: Path) -> None:
    nodes = list(_rule_nodes(_root(_crd(path)), ""))
    inside = [where for where, _ in nodes if not re.fullmatch(r"\.spec(\.\w+)?", where)]
    assert inside == [], "rules below a spec field (inside a list or map they run once per item)"
    assert sum(len(rules) for _, rules in nodes) * EQUALITY_COST_BOUND < CRD_COST_LIMIT
