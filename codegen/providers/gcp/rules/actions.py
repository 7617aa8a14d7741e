"""Rules for action methods: ``set…``, ``resize``, ``expand…`` and ``add…``/``remove…`` pairs.

An action method is mapped to the fields it changes by what it takes — its request body's
members and its query parameters — not by its name: ``disks.resize`` takes ``sizeGb``,
``instanceGroupManagers.resize`` takes ``?size=`` (the group's ``targetSize``),
``subnetworks.expandIpCidrRange`` takes ``ipCidrRange``, ``instances.setTags`` takes a ``Tags``
body (the ``tags`` field's own type). Only when one member is left unexplained does the name
help: ``targetPools.setBackup`` takes ``target``, the pool's ``backupPool``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codegen.annotate.draft import ResourceDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.gcp.rules.context import Facts, GcpContext, Method, upper_first, verb
from codegen.providers.gcp.rules.resources import same_level

ACTION_VERBS = ("set", "resize", "expand")
PAIR_VERBS = (("add", "remove"), ("attach", "detach"))
# Query parameters that steer a call rather than carry a value of the resource.
CONTROL_PARAMETERS = ("requestId", "updateMask", "paths", "validateOnly", "allowMissing")


def is_control(name: str) -> bool:
    """``requestId``, masks, and preconditions (``ifMetagenerationMatch``)."""
    return name in CONTROL_PARAMETERS or (name.startswith("if") and name.endswith("Match"))


def writable(resource: ResourceDraft) -> dict[str, Any]:
    """Fields a call may set: not read-only, not what names the resource."""
    fixed = set(resource.natural)
    return {
        n: f
        for n, f in resource.fields.items()
        if n not in fixed and f.get("mutability") is not Mutability.READ_ONLY
    }


def _by_suffix(member: str, fields: Mapping[str, Any]) -> str | None:
    """``size`` -> ``targetSize``: the field whose name ends with the member's, the shortest
    when several do (``targetSize`` before ``targetStoppedSize``)."""
    tail = upper_first(member)
    found = sorted((n for n in fields if n.endswith(tail)), key=len)
    if len(found) > 1 and len(found[0]) == len(found[1]):
        return None
    return found[0] if found else None


def _by_method_name(method_name: str, fields: Mapping[str, Any]) -> str | None:
    """``setBackup`` -> ``backupPool``: the one field whose name starts with what is set."""
    rest = method_name[len(verb(method_name)) :]
    if not rest:
        return None
    head = rest[:1].lower() + rest[1:]
    found = [n for n in fields if n.lower().startswith(head.lower())]
    return found[0] if len(found) == 1 else None


def carried_fields(
    ctx: GcpContext,
    resource: ResourceDraft,
    key: str,
    method: Method,
    members_out: dict[str, tuple[str, bool]] | None = None,
) -> list[str]:
    """The resource fields an action method changes, from its body and query parameters;
    ``members_out`` learns, per field, the member that carries it and whether it is a query
    parameter (``resize(size=)`` carries ``targetSize``)."""
    fields = writable(resource)
    request = method.get("request") or {}
    whole = [n for n, f in fields.items() if request.get("$ref") and f.type.name == request["$ref"]]
    if whole:  # instances.setTags takes a Tags body: the tags field itself
        return whole
    query = [n for n in ctx.query(method) if not is_control(n)]
    members = list(ctx.body(method)) + query
    carried: list[str] = []
    unexplained = []
    for member in members:
        if member in resource.fields and member not in fields:
            continue  # a token (labelFingerprint) or a fixed value: not changed by the call
        target = member if member in fields else _by_suffix(member, fields)
        if target is None:
            unexplained.append(member)
        elif target not in carried:
            carried.append(target)
            if members_out is not None:
                members_out[target] = (member, member in query)
    if len(unexplained) == 1 and verb(key) == "set":
        target = _by_method_name(key, fields)
        if target is not None and target not in carried:
            carried.append(target)
            # the one member nothing else explains carries it: setBackup's TargetReference
            # body sends the backupPool under ``target``, not under the field's own name
            if members_out is not None:
                members_out[target] = (unexplained[0], unexplained[0] in query)
    return carried


def _partner(key: str, methods: Mapping[str, Method]) -> str | None:
    for make, unmake in PAIR_VERBS:
        if verb(key) == make:
            other = unmake + key[len(make) :]
            return other if other in methods else None
    return None


def _is_action(key: str, methods: Mapping[str, Method]) -> bool:
    if key.endswith("IamPolicy"):
        return False  # IAM policies are a layer of their own, not fields of the resource
    return verb(key) in ACTION_VERBS or _partner(key, methods) is not None


@rule("gcp.action-method-sets-fields")
def action_methods(ctx: GcpContext) -> None:
    """A ``set…``, ``resize`` or ``expand…`` method, or an ``add…``/``remove…`` (``attach…``/
    ``detach…``) pair, acting on one resource changes the fields its body and query parameters
    carry: they are mutable through it (a pair's ``add…`` makes a list field mutable: a
    TargetPool's ``instances`` and ``healthChecks``)."""
    rid = source("gcp.action-method-sets-fields")
    for resource, facts in ctx.resources():
        methods = facts.collection.methods
        for key, method in methods.items():
            if not _is_action(key, methods) or not same_level(facts.get, method):
                continue
            members: dict[str, tuple[str, bool]] = {}
            carried = carried_fields(ctx, resource, key, method, members)
            if not carried:
                continue
            for name, carrier in members.items():
                facts.members[(method["id"], name)] = carrier
            _carry(facts, method["id"], carried)
            facts.actions.add(method["id"])
            partner = _partner(key, methods)
            if partner is not None:
                facts.partners[method["id"]] = methods[partner]["id"]
                _carry(facts, methods[partner]["id"], carried)
                facts.actions.add(methods[partner]["id"])
            for name in carried:
                f = resource.fields[name]
                if "mutability" not in f.provenance:
                    f.set("mutability", Mutability.MUTABLE, rid)


def _carry(facts: Facts, method_id: str, fields: list[str]) -> None:
    known = facts.carriers.setdefault(method_id, [])
    known.extend(f for f in fields if f not in known)
