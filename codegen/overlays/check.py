"""Check an overlay against the draft it corrects and the service's operations.

Everything is checked before anything is changed, so a bad overlay leaves the draft as the
rules made it. Names an overlay uses must exist: a correction aimed at a resource, field or
operation that is not there would otherwise do nothing, and the rule it meant to correct would
stay wrong without anybody noticing.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, fields
from typing import get_type_hints

from codegen.draft import FIELD_DEFAULTS, ResourceDraft, ServiceDraft
from codegen.model import CallShape, Mutability, TagsModel
from codegen.overlays.load import FIELD_EXTRA_KEYS, FIELD_VALUES
from codegen.overlays.schema import FieldOverlay, Overlay, ResourceOverlay, suggest
from codegen.providers import info


@dataclass(frozen=True)
class Names:
    """What the overlay does to resource names, worked out once for checking and applying."""

    renames: dict[str, str]  # old (rules') name -> new name
    excluded: frozenset[str]  # old names
    final: frozenset[str]  # new names of resources not excluded
    kept: frozenset[str]  # final names that also survive ``include``


def check_overlay(draft: ServiceDraft, overlay: Overlay, operation_names: Collection[str]) -> Names:
    """Raise a TasklayerError (file + key) for the first problem found; return the names."""
    for entry in overlay.resources:
        if entry.name not in draft.resources:
            hint = suggest(entry.name, draft.resources)
            raise overlay.error(
                entry.key, f"{draft.provider}/{draft.name} has no resource {entry.name!r}{hint}"
            )
    names = _names(draft, overlay)
    _check_listed(overlay, names)
    for entry in overlay.resources:
        resource = draft.resources[entry.name]
        for fo in entry.fields:
            _check_field_facts(overlay, fo, draft.field_shape)
            _check_field(overlay, resource, fo, names, operation_names)
        _check_tags(overlay, resource, entry, operation_names, draft.tag_shape)
        _check_identity(overlay, resource, entry, draft.provider)
    return names


def _as_list(value: object) -> list[str]:
    """An identity attribute's value as a list: ``arn`` is one name or None, the others tuples."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)  # type: ignore[call-overload]


def _check_identity(
    overlay: Overlay, resource: ResourceDraft, entry: ResourceOverlay, provider: str
) -> None:
    """Identity names a field (an added one too), ``tag:<key>`` for a natural key, a scope, or
    what the rules already had there: a name that is none of these selects by nothing."""
    added = {fo.name for fo in entry.fields if fo.add}
    known = (
        set(resource.fields) | added | set(info(provider).scope_parameters)
    )  # call parameters, not fields
    for attr, values in entry.identity.items():
        had, listed = (_as_list(v) for v in (getattr(resource, attr), values))
        for value in listed:
            tag = attr == "natural" and value.startswith("tag:") and len(value) > 4
            if not (tag or value in known or value in had):
                raise overlay.error(
                    f"{entry.key}.identity.{attr}",
                    f"{resource.name} has no field {value!r}{suggest(value, known)}",
                )


def _names(draft: ServiceDraft, overlay: Overlay) -> Names:
    renames = {e.name: e.rename for e in overlay.resources if e.rename and e.rename != e.name}
    excluded = frozenset(e.name for e in overlay.resources if e.exclude)
    # names nobody renames first (excluded ones too: the draft holds both until the end), then
    # renames in file order, so the later of two is blamed
    owner = {n: n for n in draft.resources if n not in renames}
    for old, new in renames.items():
        if new in owner:
            what = (
                f"what {owner[new]!r} is renamed to"
                if owner[new] in renames
                else f"the name of resource {new!r}"
            )
            raise overlay.error(f"resources.{old}.rename", f"{new!r} is already {what}")
        owner[new] = old
    final = frozenset(owner) - excluded
    kept = final if overlay.include is None else final & frozenset(overlay.include)
    return Names(renames, excluded, final, kept)


def _check_listed(overlay: Overlay, names: Names) -> None:
    for key, listed, known in (
        ("include", overlay.include, names.final),
        ("generate", overlay.generate, names.kept),
        ("generate.except", tuple(overlay.generate_except), names.kept),
    ):
        for name in listed or ():
            if name not in known:
                raise overlay.error(key, f"no resource {name!r}{_why_missing(name, names, known)}")


def _why_missing(name: str, names: Names, known: Collection[str]) -> str:
    """Say what happened to a name the overlay itself made disappear, else suggest one."""
    if name in names.renames:
        return f" (renamed to {names.renames[name]!r} in this file)"
    if name in names.excluded:
        return " (excluded in this file)"
    if name in names.final:
        return " (not in include)"
    return suggest(name, known)


def _check_field_facts(overlay: Overlay, fo: FieldOverlay, field_shape: type[CallShape]) -> None:
    """A key is a neutral fact of every field or one of this provider's own (``field_shape``,
    whose attribute's type says what value it takes): a misspelt key, or another cloud's
    (``value_wrapper`` in a GCP overlay), would be kept and never used."""
    own = get_type_hints(field_shape)
    facts = [f.name for f in fields(field_shape)]
    for attr, value in fo.settings.items():
        if attr in FIELD_DEFAULTS:
            continue  # read and checked with the file (overlays/load.py)
        key = f"{fo.key}.{attr}"
        if attr not in facts:
            allowed = [*FIELD_VALUES, *FIELD_EXTRA_KEYS, *facts]
            raise overlay.error(
                key,
                f"unknown key {attr!r}{suggest(attr, allowed)} ({attr} is not a fact of this "
                "provider's fields)",
                [f"allowed keys: {', '.join(allowed)}"],
            )
        if own[attr] is bool and not isinstance(value, bool):
            raise overlay.error(key, f"expected true or false, got {value!r}")
        if own[attr] == str | None and isinstance(value, bool):
            raise overlay.error(key, f"expected a name or null, got {value!r}")


def _check_field(
    overlay: Overlay,
    resource: ResourceDraft,
    fo: FieldOverlay,
    names: Names,
    operation_names: Collection[str],
) -> None:
    exists = fo.name in resource.fields
    if fo.add and exists:
        raise overlay.error(
            f"{fo.key}.add", f"{resource.name} already has a field {fo.name!r}; drop add"
        )
    if not fo.add and not exists:
        hint = suggest(fo.name, resource.fields)
        raise overlay.error(
            fo.key,
            f"resource {resource.name!r} has no field {fo.name!r}{hint}",
            ["a field the rules cannot see is added with add: true and a type"],
        )
    for attr in ("update_operation", "read_operation", "remove_operation"):
        op = fo.settings.get(attr)
        if op is not None and op not in operation_names:
            raise overlay.error(
                f"{fo.key}.{attr}",
                f"no operation {op!r} in the service{suggest(op, operation_names)}",
            )
    for other in fo.settings.get("after", ()):
        if other not in resource.fields or other == fo.name:
            raise overlay.error(
                f"{fo.key}.after",
                f"no other field {other!r} in {resource.name}{suggest(other, resource.fields)}",
            )
    ref = fo.settings.get("references")
    if ref is not None and ref not in names.kept:
        raise overlay.error(
            f"{fo.key}.references", f"no resource {ref!r}{_why_missing(ref, names, names.kept)}"
        )
    _check_mutability(overlay, resource, fo)


def _check_mutability(overlay: Overlay, resource: ResourceDraft, fo: FieldOverlay) -> None:
    """A mutable field must say which operation changes it, and only a mutable field has one:
    the update routing in generated code depends on both."""
    current = resource.fields[fo.name].values if fo.name in resource.fields else {}
    mutability = fo.settings.get(
        "mutability", current.get("mutability", FIELD_DEFAULTS["mutability"])
    )
    if "mutability" in fo.settings and mutability is not Mutability.MUTABLE:
        op = fo.settings.get("update_operation")  # the rules' operation goes with the rules' class
    else:
        op = fo.settings.get("update_operation", current.get("update_operation"))
    touched = "mutability" in fo.settings or "update_operation" in fo.settings
    if touched and mutability is Mutability.MUTABLE and op is None:
        key = (
            f"{fo.key}.mutability" if "mutability" in fo.settings else f"{fo.key}.update_operation"
        )
        raise overlay.error(
            key, "a mutable field needs an update_operation: say which operation carries it"
        )
    if touched and op is not None and mutability is not Mutability.MUTABLE:
        raise overlay.error(
            f"{fo.key}.update_operation",
            f"only a mutable field has an update operation; {fo.name} is {mutability.value}",
            ["add mutability: mutable, or drop update_operation"],
        )


def _check_tags(
    overlay: Overlay,
    resource: ResourceDraft,
    entry: ResourceOverlay,
    operation_names: Collection[str],
    tag_shape: type[CallShape],
) -> None:
    if entry.tags and resource.tags is None and "field" not in entry.tags:
        raise overlay.error(
            f"{entry.key}.tags",
            f"{resource.name} has no tags model to correct; give at least tags.field",
        )
    neutral = {f.name for f in fields(TagsModel)}
    own = {f.name for f in fields(tag_shape)}
    for attr in entry.tags:
        if attr not in neutral and attr not in own:  # a fact of another cloud's tag calls
            raise overlay.error(
                f"{entry.key}.tags.{attr}",
                f"{attr} is not a fact of this provider's tag calls",
                [f"its tag facts are {', '.join(sorted(neutral - {'call', 'source'} | own))}"],
            )
    for attr in ("tag_operation", "untag_operation"):
        op = entry.tags.get(attr)
        if op is not None and op not in operation_names:
            raise overlay.error(
                f"{entry.key}.tags.{attr}",
                f"no operation {op!r} in the service{suggest(op, operation_names)}",
            )
