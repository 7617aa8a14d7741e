"""Rules for ``set…`` methods that change a field the resource's body marks "[Output Only]".

Compute marks a field output-only where the resource's *body* cannot set it, even when a
method exists for it: ``BackendService.securityPolicy`` ("[Output Only] The resource URL for
the security policy associated with this backend service") is set by
``backendServices.setSecurityPolicy``; ``InstanceGroupManager.namedPorts`` ("[Output Only] Named
ports configured on the Instance Groups complementary to this Instance Group Manager") by
``instanceGroups.setNamedPorts`` on the group the manager keeps under its own name. The insert
ignores such a field, so it is set by that method after the create, never in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from codegen.annotate.draft import FieldDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.gcp.rules.actions import is_control
from codegen.providers.gcp.rules.context import (
    Collection,
    Facts,
    GcpContext,
    Method,
    path_template,
    singular,
    upper_first,
)
from codegen.providers.gcp.rules.resources import same_level
from codegen.providers.gcp.rules.updates import carry

OUTPUT_ONLY = source("gcp.output-only")
SCOPE_PREFIXES = ("region", "global", "zone")
_WORDS = re.compile(r"[A-Za-z]+")


def _members(ctx: GcpContext, method: Method) -> list[tuple[str, bool]]:
    """(member, is a query parameter) for what the method's body and query carry."""
    body = [(m, False) for m in ctx.body(method) if not is_control(m)]
    return body + [(m, True) for m in ctx.query(method) if not is_control(m)]


def _carrier(ctx: GcpContext, method: Method, field: str) -> tuple[str, bool] | None:
    """The member that carries the field: its own name, or the tail it ends with (the
    ``securityPolicy`` of ``setEdgeSecurityPolicy``'s SecurityPolicyReference)."""
    members = _members(ctx, method)
    exact = [m for m in members if m[0] == field]
    tails = [m for m in members if field.endswith(upper_first(m[0]))]
    found = exact or tails
    return found[0] if len(found) == 1 or exact else None


def _server_marked(f: FieldDraft) -> bool:
    return (
        f.get("mutability") is Mutability.READ_ONLY
        and f.provenance.get("mutability") == OUTPUT_ONLY
    )


def _set_through(
    facts: Facts, f: FieldDraft, method: Method, member: tuple[str, bool], rid: str
) -> None:
    method_id = method["id"]
    carry(facts, method_id, f.name)
    facts.actions.add(method_id)
    facts.members[(method_id, f.name)] = member
    f.set("mutability", Mutability.MUTABLE, rid)
    f.in_create = False  # the insert ignores what its body marks output-only


def _setters(collection: Collection) -> Iterator[tuple[str, Method]]:
    for key, method in collection.methods.items():
        if key.startswith("set") and len(key) > 3 and not key.endswith("IamPolicy"):
            yield key[3:4].lower() + key[4:], method


@rule("gcp.set-method-sets-output-only-field")
def own_setter(ctx: GcpContext) -> None:
    """A field the resource's body marks output-only that the resource's own ``set<Field>``
    method takes (``setSecurityPolicy`` -> ``securityPolicy``, ``setEdgeSecurityPolicy`` ->
    ``edgeSecurityPolicy``) is mutable through that method, and not sent in the create."""
    rid = source("gcp.set-method-sets-output-only-field")
    for resource, facts in ctx.resources():
        for name, method in _setters(facts.collection):
            f = resource.fields.get(name)
            if f is None or not _server_marked(f) or not same_level(facts.get, method):
                continue
            member = _carrier(ctx, method, name)
            if member is not None:
                _set_through(facts, f, method, member, rid)


def _scope_path(method: Method) -> str:
    """``projects/{}/zones/{}/instanceGroups/{}`` -> ``projects/{}/zones/{}``."""
    parts = path_template(method).split("/")
    return "/".join(parts[:-2])


def _companions(ctx: GcpContext, facts: Facts) -> Iterator[Collection]:
    """Collections whose resource this one is named after and manages under the same scope:
    ``instanceGroups`` for ``instanceGroupManagers``, ``regionInstanceGroups`` for
    ``regionInstanceGroupManagers``."""
    own = facts.collection
    for other in ctx.collections:
        get = other.methods.get("get")
        stem = singular(other.name)
        if other is own or get is None or own.name == other.name or not own.name.startswith(stem):
            continue
        if own.path[:-1] == other.path[:-1] and _scope_path(get) == _scope_path(facts.get):
            yield other


def _text_names(f: FieldDraft, collection: Collection) -> bool:
    """The field's text names the other kind ("the Instance Groups complementary to ...")."""
    words = "".join(_WORDS.findall(f.documentation)).lower()
    kind = singular(collection.name)
    for scope in SCOPE_PREFIXES:  # regionInstanceGroups are InstanceGroups of a region
        if kind.startswith(scope) and kind[len(scope) :][:1].isupper():
            kind = kind[len(scope) :]
    return kind.lower() in words


@rule("gcp.companion-set-method")
def companion_setter(ctx: GcpContext) -> None:
    """A field marked output-only whose text names the resource this one is named after and
    keeps under its own name in the same scope (an InstanceGroupManager's ``namedPorts``: "Named
    ports configured on the Instance Groups complementary to this Instance Group Manager") is
    changed by that resource's ``set<Field>`` (``instanceGroups.setNamedPorts``), addressed by
    this one's name. That method's lock token is the other resource's, so none is sent."""
    rid = source("gcp.companion-set-method")
    for resource, facts in ctx.resources():
        for other in _companions(ctx, facts):
            for name, method in _setters(other):
                f = resource.fields.get(name)
                if f is None or not _server_marked(f) or not _text_names(f, other):
                    continue
                member = _carrier(ctx, method, name)
                if member is not None and same_level(other.methods["get"], method):
                    facts.borrowed[method["id"]] = method
                    _set_through(facts, f, method, member, rid)
